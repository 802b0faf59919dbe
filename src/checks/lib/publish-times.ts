/**
 * Whether a trimmed npm packument's `time` map reads as publish times (docs/scoring.md §12).
 *
 * A full packument's times are the registry's record of each publish. A trimmed one (no
 * maintainers, no `time.created` / `time.modified`) comes from a mirror, and a mirror may fill
 * `time` with when it fetched each version instead. Publish times follow version order within a
 * major line (1.2.0 is published before 1.2.1 and 1.3.0; a backport goes to another line), so
 * times that run backwards between neighbouring releases of one line are not publish times.
 * Measured: on 987 real packuments with npm's own times, 2 have more than MAX_BACKWARDS_SHARE of
 * such neighbours backwards (99th percentile 0.048); on 266 packuments of a mirror serving its
 * fetch dates, all do (the lowest 0.17). With fewer than MIN_PAIRS neighbours in one line the
 * order cannot be told from chance, and the times are not taken either: unknown, not made up.
 * Pure.
 */
import semver from 'semver';

/** More than this share of neighbouring releases dated backwards: not publish times. */
export const MAX_BACKWARDS_SHARE = 0.15;
/** Fewer neighbouring stable releases of one major line than this: the order cannot be tested. */
export const MIN_PAIRS = 2;

export interface TimeOrder {
  /** Neighbouring stable releases of one major line, both dated. */
  pairs: number;
  /** Of those, the ones where the higher version is dated before the lower. */
  backwards: number;
}

/** Why a trimmed packument's times are withheld, or null when they read as publish times. */
export type WithheldTimes = ({ reason: 'out-of-order' } & TimeOrder) | ({ reason: 'too-few' } & TimeOrder) | null;

/** How a version list's times run against version order (stable versions of one major line). */
export function timeOrder(versions: readonly { version: string; time: string | null }[]): TimeOrder {
  const dated: { v: semver.SemVer; at: number }[] = [];
  for (const { version, time } of versions) {
    if (time === null) continue;
    const at = Date.parse(time);
    const v = semver.parse(version);
    if (v === null || v.prerelease.length > 0 || Number.isNaN(at)) continue;
    dated.push({ v, at });
  }
  dated.sort((a, b) => a.v.compare(b.v));
  let pairs = 0;
  let backwards = 0;
  for (let i = 1; i < dated.length; i++) {
    const lower = dated[i - 1]!;
    const higher = dated[i]!;
    if (lower.v.major !== higher.v.major) continue;
    pairs++;
    if (higher.at < lower.at) backwards++;
  }
  return { pairs, backwards };
}

/** For a trimmed packument: whether (and why) its times are not taken as publish times. */
export function withheldTimes(trimmed: boolean, versions: readonly { version: string; time: string | null }[]): WithheldTimes {
  if (!trimmed || versions.every((v) => v.time === null)) return null;
  const order = timeOrder(versions);
  if (order.pairs < MIN_PAIRS) return { reason: 'too-few', ...order };
  return order.backwards / order.pairs > MAX_BACKWARDS_SHARE ? { reason: 'out-of-order', ...order } : null;
}

/** The messages a release-time check gives when the times are withheld (merged into its own). */
export const WITHHELD_MESSAGES = {
  'times-out-of-order':
    'Release dates unknown: the registry dates {backwards} of {pairs} neighbouring releases against version order, so its times are a mirror’s own, not publish times',
  'times-untested': 'Release dates unknown: a trimmed packument (a mirror’s) with too few releases to tell its times from the mirror’s own',
} as const;

/** The unknown result of a release-time check whose times were withheld. */
export function withheldResult(withheld: NonNullable<WithheldTimes>): {
  score: null;
  messageId: keyof typeof WITHHELD_MESSAGES;
  data: { pairs: number; backwards: number };
} {
  return { score: null, messageId: withheld.reason === 'out-of-order' ? 'times-out-of-order' : 'times-untested', data: { pairs: withheld.pairs, backwards: withheld.backwards } };
}
