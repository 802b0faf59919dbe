/**
 * Release history helpers: which versions are stable releases, when they were published, and
 * whole days between two instants. They read the neutral release entries of the `release` view
 * (npm publish times, PyPI upload times); the registry-facts form is kept for npm-only callers.
 * Pure; `now` is always passed in.
 */
import semver from 'semver';
import type { RegistryFacts } from '../../evidence/schema.js';
import { withoutScope } from '../../util/without-scope.js';

export const DAY_MS = 86_400_000;

/**
 * Clock skew tolerated in a date from a registry or GitHub: one dated at most this far after
 * `now` counts as dated now. One dated later is invalid data (docs/security.md, "Dates in the
 * future"): nobody publishes tomorrow, so it is never read as fresh.
 */
const FUTURE_TOLERANCE_MS = DAY_MS;

/** True when `time` is after `now` by more than the tolerated clock skew: not a date to believe. */
export function isFutureTime(time: Date, now: Date): boolean {
  return time.getTime() > now.getTime() + FUTURE_TOLERANCE_MS;
}

/** A published version with a parseable publish time. */
export interface DatedRelease {
  version: string;
  time: Date;
}

/** A published version as the `release` view lists it (the fields these helpers read). */
export interface ReleaseEntryLike {
  version: string;
  time: string | null;
  /** A stable release: a valid version that is not a pre-release (per the ecosystem's rules). */
  stable: boolean;
}

/**
 * `major.minor.patch` in semver's own numeric form (no leading zeros), each part short enough
 * to be a safe integer: semver parses it as a release without a pre-release tag.
 */
const PLAIN_RELEASE = /^(?:0|[1-9]\d{0,14})\.(?:0|[1-9]\d{0,14})\.(?:0|[1-9]\d{0,14})$/;

/** True for a valid semver version without a pre-release tag (1.2.3, not 1.2.3-beta.1). */
export function isStableVersion(version: string): boolean {
  // Most published versions are plain: answered without building a SemVer.
  if (PLAIN_RELEASE.test(version)) return true;
  const parsed = semver.parse(version);
  return parsed !== null && parsed.prerelease.length === 0;
}

/** Parse an ISO 8601 timestamp (offsets allowed); null when absent or invalid. */
export function parseTime(value: string | null): Date | null {
  if (value === null) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/**
 * The dated lists of the entries list asked for last: the release checks of one evaluation
 * (and the finished rule they consult) ask for the same list in turn. One list only, so a
 * thousand-package audit keeps no dated copy of every history alive.
 */
let lastEntries: readonly ReleaseEntryLike[] | undefined;
let lastDated: { stable?: DatedRelease[]; all?: DatedRelease[] } = {};

/**
 * Releases with a known publish time, oldest first; `stableOnly` drops pre-releases. Given `now`,
 * releases dated in the future (isFutureTime) are left out: their dates are invalid, the others
 * still count. Each call gets its own array (of the same, unchanging entries).
 */
export function datedEntries(entries: readonly ReleaseEntryLike[], stableOnly: boolean, now?: Date): DatedRelease[] {
  if (entries !== lastEntries) {
    lastEntries = entries;
    lastDated = {};
  }
  const dated = (stableOnly ? lastDated.stable : lastDated.all) ?? computeDated(entries, stableOnly);
  if (stableOnly) lastDated.stable = dated;
  else lastDated.all = dated;
  return now === undefined ? dated.slice() : dated.filter((r) => !isFutureTime(r.time, now));
}

/** The releases dated in the future as of `now` (isFutureTime), oldest first; `stableOnly` drops pre-releases. */
export function futureEntries(entries: readonly ReleaseEntryLike[], stableOnly: boolean, now: Date): DatedRelease[] {
  return datedEntries(entries, stableOnly).filter((r) => isFutureTime(r.time, now));
}

function computeDated(entries: readonly ReleaseEntryLike[], stableOnly: boolean): DatedRelease[] {
  const out: DatedRelease[] = [];
  for (const entry of entries) {
    if (stableOnly && !entry.stable) continue;
    const time = parseTime(entry.time);
    if (time !== null) out.push({ version: entry.version, time });
  }
  return out.sort((a, b) => a.time.getTime() - b.time.getTime());
}

/** Whole days from `from` to `to`, never negative (a time within the tolerated clock skew after `now` counts as 0; callers leave out later ones with isFutureTime). */
export function wholeDaysBetween(from: Date, to: Date): number {
  return Math.max(0, Math.floor((to.getTime() - from.getTime()) / DAY_MS));
}

/** Whether a release tag names this version of this package: the version alone, `v` first, or after the package's name (scope optional) and `@`, `-` or `/`. */
export function tagNamesRelease(tag: string, name: string, version: string): boolean {
  const t = tag.trim().toLowerCase();
  const v = version.trim().toLowerCase();
  if (v === '' || !t.endsWith(v)) return false;
  const prefix = t.slice(0, t.length - v.length).replace(/v$/, '');
  if (prefix === '') return true;
  const full = name.trim().toLowerCase();
  const bare = withoutScope(full);
  return [full, bare].some((n) => n !== '' && ['@', '-', '/', '_'].some((sep) => prefix === `${n}${sep}`));
}

/**
 * A package with years of releases is established: a typosquat or a dependency-confusion payload
 * is published to be installed by mistake now, and is reported and pulled within days or weeks,
 * not kept up for years (typosquat, implausible-version).
 */
export const ESTABLISHED_MIN_DAYS = 730;
export const ESTABLISHED_MIN_RELEASES = 5;

/** When the package is established as of `now`: its release count and first release day; else null. */
export function establishment(entries: readonly ReleaseEntryLike[], now: Date): { releases: number; firstRelease: string } | null {
  // A release dated in the future is no release to count: junk dates must not make a package established.
  const releases = datedEntries(entries, false, now);
  const first = releases[0];
  if (first === undefined || releases.length < ESTABLISHED_MIN_RELEASES || now.getTime() - first.time.getTime() < ESTABLISHED_MIN_DAYS * DAY_MS) return null;
  return { releases: releases.length, firstRelease: first.time.toISOString().slice(0, 10) };
}
