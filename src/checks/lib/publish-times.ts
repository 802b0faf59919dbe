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
 * fetch dates, all do (the lowest 0.17). Pre-releases follow version order within a line too
 * (a nightly `46.0.0-nightly.20260923` before `…20260925`): with fewer than MIN_PAIRS stable
 * neighbours, neighbouring pre-releases are tested instead — but only to show the times are a
 * mirror's. Pre-releases in order vouch for nothing: no mirror's pre-release dates were measured,
 * so such times stay untested. With fewer than MIN_PAIRS stable neighbours the times are not
 * taken: unknown, not made up. Pure.
 */
import semver from 'semver';

/** More than this share of neighbouring releases dated backwards: not publish times. */
export const MAX_BACKWARDS_SHARE = 0.15;
/** Fewer neighbouring releases of one major line than this (stable, else pre-releases): the order cannot be tested. */
export const MIN_PAIRS = 2;

export interface TimeOrder {
  /** Neighbouring stable releases of one major line, both dated. */
  pairs: number;
  /** Of those, the ones where the higher version is dated before the lower. */
  backwards: number;
}

/** How many dated stable releases and pre-releases the packument holds: what is known when the order cannot be tested. */
export interface DatedCounts {
  stableReleases: number;
  prereleases: number;
}

/**
 * Why a trimmed packument's times are withheld, or null when they read as publish times.
 * `onPrereleases`: the order was tested on neighbouring pre-releases (too few stable ones).
 */
export type WithheldTimes = ({ reason: 'out-of-order'; onPrereleases: boolean } & TimeOrder & DatedCounts) | ({ reason: 'too-few' } & TimeOrder & DatedCounts) | null;

type Versions = readonly { version: string; time: string | null }[];

/** The dated versions with a semver version: stable ones, or pre-releases. */
function datedVersions(versions: Versions, prereleases: boolean): { v: semver.SemVer; at: number }[] {
  const dated: { v: semver.SemVer; at: number }[] = [];
  for (const { version, time } of versions) {
    if (time === null) continue;
    const at = Date.parse(time);
    const v = semver.parse(version);
    if (v === null || v.prerelease.length > 0 !== prereleases || Number.isNaN(at)) continue;
    dated.push({ v, at });
  }
  return dated;
}

/** How a version list's times run against version order (stable versions of one major line, or its pre-releases). */
export function timeOrder(versions: Versions, options: { prereleases?: boolean } = {}): TimeOrder {
  const dated = datedVersions(versions, options.prereleases ?? false);
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
export function withheldTimes(trimmed: boolean, versions: Versions): WithheldTimes {
  if (!trimmed || versions.every((v) => v.time === null)) return null;
  const counts: DatedCounts = { stableReleases: datedVersions(versions, false).length, prereleases: datedVersions(versions, true).length };
  const stable = timeOrder(versions);
  const onPrereleases = stable.pairs < MIN_PAIRS;
  const order = onPrereleases ? timeOrder(versions, { prereleases: true }) : stable;
  const outOfOrder = order.pairs >= MIN_PAIRS && order.backwards / order.pairs > MAX_BACKWARDS_SHARE;
  if (outOfOrder) return { reason: 'out-of-order', onPrereleases, ...order, ...counts };
  return onPrereleases ? { reason: 'too-few', ...stable, ...counts } : null;
}

/** The messages a release-time check gives when the times are withheld (merged into its own). */
export const WITHHELD_MESSAGES = {
  'times-out-of-order':
    'Release dates unknown: the registry dates {backwards} of {pairs} neighbouring releases against version order, so its times are a mirror’s own, not publish times',
  'times-out-of-order-prereleases':
    'Release dates unknown: the registry dates {backwards} of {pairs} neighbouring pre-releases against version order (dated pre-releases: {prereleases}, stable releases: {stableReleases}), so its times are a mirror’s own, not publish times',
  'times-untested':
    'Release dates unknown: a mirror’s abbreviated package metadata, with too few neighbouring stable releases of one major line to tell its times from the mirror’s own (dated stable releases: {stableReleases}, pre-releases: {prereleases})',
} as const;

/** The unknown result of a release-time check whose times were withheld. */
export function withheldResult(withheld: NonNullable<WithheldTimes>): {
  score: null;
  messageId: keyof typeof WITHHELD_MESSAGES;
  data: { pairs: number; backwards: number; stableReleases: number; prereleases: number };
} {
  const messageId = withheld.reason === 'too-few' ? 'times-untested' : withheld.onPrereleases ? 'times-out-of-order-prereleases' : 'times-out-of-order';
  return { score: null, messageId, data: { pairs: withheld.pairs, backwards: withheld.backwards, stableReleases: withheld.stableReleases, prereleases: withheld.prereleases } };
}
