/**
 * The validity set's groups, defined from the data alone (never from nerq's scores and never by
 * name): what a careful reviewer would call each package on the day it was recorded. Pure.
 *
 * First rule that matches wins, so the groups are disjoint:
 *   deprecated      the resolved version (`latest` at the recording date) carries a deprecation
 *                   message;
 *   flagship        ≥ 3 maintainers, ≥ 30 versions and a release (any version) within 180 days;
 *   abandoned       the newest stable release is more than 3 years (1,095 days) old;
 *   dormant         the newest stable release is 2–3 years (731–1,095 days) old;
 *   finished-small  a stable ≥ 1.0.0 `latest` of at most 10 files (`dist.fileCount`) and at most
 *                   2 runtime dependencies, whose newest stable release is more than a year old;
 *   other           everything else (reported, no target).
 */
import semver from 'semver';

export const GROUPS = ['deprecated', 'flagship', 'abandoned', 'dormant', 'finished-small', 'other'] as const;
export type Group = (typeof GROUPS)[number];

const DAY_MS = 86_400_000;
export const FLAGSHIP_MIN_MAINTAINERS = 3;
export const FLAGSHIP_MIN_VERSIONS = 30;
export const FLAGSHIP_MAX_DAYS_SINCE_RELEASE = 180;
export const ABANDONED_MIN_DAYS = 3 * 365;
export const DORMANT_MIN_DAYS = 2 * 365;
export const FINISHED_SMALL_MAX_FILES = 10;
export const FINISHED_SMALL_MAX_DEPENDENCIES = 2;
export const FINISHED_SMALL_MIN_DAYS = 365;

/** Each group's rule in words (printed by `npm run validity` and in docs/scoring.md). */
export const GROUP_RULES: Readonly<Record<Group, string>> = {
  deprecated: 'the resolved version (`latest` at the recording date) is deprecated',
  flagship: `≥ ${FLAGSHIP_MIN_MAINTAINERS} maintainers, ≥ ${FLAGSHIP_MIN_VERSIONS} versions, a release within ${FLAGSHIP_MAX_DAYS_SINCE_RELEASE} days`,
  abandoned: `not deprecated, newest stable release more than ${ABANDONED_MIN_DAYS} days old`,
  dormant: `newest stable release ${DORMANT_MIN_DAYS + 1}–${ABANDONED_MIN_DAYS} days old`,
  'finished-small': `stable ≥ 1.0.0, ≤ ${FINISHED_SMALL_MAX_FILES} files, ≤ ${FINISHED_SMALL_MAX_DEPENDENCIES} runtime dependencies, newest stable release more than ${FINISHED_SMALL_MIN_DAYS} days old`,
  other: 'none of the above',
};

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : null;

/** What the group rules read of a packument, as of its recording date. */
export interface GroupFacts {
  latest: string;
  deprecated: boolean;
  maintainers: number;
  versions: number;
  /** Whole days from the newest release (any version) / newest stable release to the recording date. */
  daysSinceRelease: number | null;
  daysSinceStable: number | null;
  fileCount: number | null;
  dependencies: number;
}

/** The facts the rules read, or null when the packument has no dated `latest` version to judge. */
export function groupFacts(packument: Obj, recordedAt: Date): GroupFacts | null {
  const latest = obj(packument['dist-tags'])?.latest;
  const versions = obj(packument.versions) ?? {};
  const time = obj(packument.time) ?? {};
  if (typeof latest !== 'string') return null;
  const manifest = obj(versions[latest]);
  if (manifest === null || typeof time[latest] !== 'string') return null;
  const at = recordedAt.getTime();
  const published = (v: string): number | null => {
    const t = time[v];
    const ms = typeof t === 'string' ? Date.parse(t) : Number.NaN;
    // Only what existed at the recording date (a packument cannot list later times; guarded anyway).
    return Number.isNaN(ms) || ms > at ? null : ms;
  };
  const valid = Object.keys(versions).filter((v) => semver.valid(v) === v && published(v) !== null);
  const newest = (list: string[]): number | null =>
    list.length === 0 ? null : Math.floor((at - Math.max(...list.map((v) => published(v) as number))) / DAY_MS);
  const deprecated = typeof manifest.deprecated === 'string' ? manifest.deprecated.trim() !== '' : manifest.deprecated === true;
  const fileCount = obj(manifest.dist)?.fileCount;
  return {
    latest,
    deprecated,
    maintainers: Array.isArray(packument.maintainers) ? packument.maintainers.length : 0,
    versions: valid.length,
    daysSinceRelease: newest(valid),
    daysSinceStable: newest(valid.filter((v) => semver.prerelease(v) === null)),
    fileCount: typeof fileCount === 'number' ? fileCount : null,
    dependencies: Object.keys(obj(manifest.dependencies) ?? {}).length,
  };
}

export function groupOf(facts: GroupFacts): Group {
  if (facts.deprecated) return 'deprecated';
  if (
    facts.maintainers >= FLAGSHIP_MIN_MAINTAINERS &&
    facts.versions >= FLAGSHIP_MIN_VERSIONS &&
    facts.daysSinceRelease !== null &&
    facts.daysSinceRelease <= FLAGSHIP_MAX_DAYS_SINCE_RELEASE
  ) {
    return 'flagship';
  }
  const stableAge = facts.daysSinceStable;
  if (stableAge !== null && stableAge > ABANDONED_MIN_DAYS) return 'abandoned';
  if (stableAge !== null && stableAge > DORMANT_MIN_DAYS) return 'dormant';
  const parsed = semver.parse(facts.latest);
  if (
    parsed !== null &&
    parsed.prerelease.length === 0 &&
    parsed.major >= 1 &&
    facts.fileCount !== null &&
    facts.fileCount <= FINISHED_SMALL_MAX_FILES &&
    facts.dependencies <= FINISHED_SMALL_MAX_DEPENDENCIES &&
    stableAge !== null &&
    stableAge > FINISHED_SMALL_MIN_DAYS
  ) {
    return 'finished-small';
  }
  return 'other';
}
