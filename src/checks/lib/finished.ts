/**
 * The finished-package rule, shared by the release checks and the docs: a small, stable,
 * 1.x+ package with no red flags is not punished for releasing rarely — for a time: the rule
 * vouches for a package up to three years after its last stable release (`recent-release`),
 * after which nothing distinguishes "finished" from "abandoned". Every criterion is named, so a
 * report (and docs/checks.md) can say which one a package misses.
 *
 * The rule reads the neutral `release` view (npm or PyPI). PyPI publishes no unpacked size,
 * so a PyPI project never meets `small` (unknown is not small): its release checks score the
 * history as it is.
 */
import type { RegistryFacts, TarballFacts } from '../../evidence/schema.js';
import type { ReleaseFacts } from '../views/release.js';
import { releaseFromNpm } from '../views/release.js';
import { DAY_MS, datedEntries, futureEntries } from './releases.js';

export const FINISHED_MAX_DEPENDENCIES = 5;
/** 200 kB, in bytes. */
export const FINISHED_MAX_UNPACKED_BYTES = 200_000;
export const FINISHED_MIN_RELEASES = 5;
export const FINISHED_MIN_SPAN_DAYS = 365;
/** Lowest recency / cadence score a finished package gets. */
export const FINISHED_FLOOR = 70;
/** The rule's own age limit: days from the newest stable release to now (3 years). */
export const FINISHED_MAX_AGE_DAYS = 1095;

export const FINISHED_CRITERIA = [
  'stable-1x',
  'not-deprecated',
  'not-placeholder',
  'no-install-scripts',
  'few-dependencies',
  'small',
  'release-history',
  'recent-release',
] as const;
export type FinishedCriterion = (typeof FINISHED_CRITERIA)[number];

/** What each criterion requires, in words (docs/checks.md prints this list). */
export const FINISHED_RULE: Readonly<Record<FinishedCriterion, string>> = {
  'stable-1x': 'the resolved version is ≥ 1.0.0 and not a pre-release (semver for npm, PEP 440 for PyPI)',
  'not-deprecated':
    'the version is known not to be deprecated (PyPI: not yanked, and the project not marked archived, deprecated or quarantined)',
  'not-placeholder': "it is not npm's security-holding package (by npm's marks on it, as `security-placeholder` reads them)",
  'no-install-scripts':
    'no code runs at install: no preinstall/install/postinstall script, `gypfile` or `binding.gyp` (npm); not an sdist-only release (PyPI)',
  'few-dependencies': `at most ${FINISHED_MAX_DEPENDENCIES} direct runtime dependencies`,
  small:
    'unpacked size known (registry `dist.unpackedSize`, else the tarball) and at most 200 kB (200,000 bytes); PyPI publishes no unpacked size, so a PyPI project does not meet it',
  'release-history': `at least ${FINISHED_MIN_RELEASES} stable releases with publish times, the first and the last at least ${FINISHED_MIN_SPAN_DAYS} days apart`,
  'recent-release': `the newest stable release is at most ${FINISHED_MAX_AGE_DAYS.toLocaleString('en-US')} days (3 years) old: past that, a quiet package is no longer vouched for as finished`,
};

/** Each criterion in a few words, for a sentence a reader sees (a held verdict's reason): what a finished package has ("a finished one has …"). */
export const FINISHED_WORDS: Readonly<Record<FinishedCriterion, string>> = {
  'stable-1x': 'a stable 1.0 or later version',
  'not-deprecated': 'no deprecation',
  'not-placeholder': 'real code, not a security placeholder',
  'no-install-scripts': 'no code run at install',
  'few-dependencies': `at most ${FINISHED_MAX_DEPENDENCIES} dependencies`,
  small: 'a known unpacked size of at most 200 kB',
  'release-history': `${FINISHED_MIN_RELEASES} stable releases over ${FINISHED_MIN_SPAN_DAYS} days`,
  'recent-release': 'a release in the last 3 years',
};

/** The criteria a release misses as of `now`, in FINISHED_CRITERIA order (empty = finished). */
export function unmetFinished(release: ReleaseFacts, now: Date): FinishedCriterion[] {
  const unmet: FinishedCriterion[] = [];
  const parts = release.versionParts;
  if (parts === null || parts.prerelease || parts.major < 1) unmet.push('stable-1x');
  if (release.deprecated !== false) unmet.push('not-deprecated');
  if (release.placeholder) unmet.push('not-placeholder');
  if (release.installTimeCode) unmet.push('no-install-scripts');
  if (release.dependencies > FINISHED_MAX_DEPENDENCIES) unmet.push('few-dependencies');
  const size = release.unpackedSize;
  if (size === null || size > FINISHED_MAX_UNPACKED_BYTES) unmet.push('small');
  // Releases dated in the future are left out; with one, when the last release shipped is unknown, so it is not recent.
  const releases = datedEntries(release.releases, true, now);
  const future = futureEntries(release.releases, true, now).length > 0;
  const first = releases[0];
  const last = releases[releases.length - 1];
  const spanDays = first && last ? (last.time.getTime() - first.time.getTime()) / DAY_MS : 0;
  if (releases.length < FINISHED_MIN_RELEASES || spanDays < FINISHED_MIN_SPAN_DAYS) unmet.push('release-history');
  if (future || last === undefined || (now.getTime() - last.time.getTime()) / DAY_MS > FINISHED_MAX_AGE_DAYS) unmet.push('recent-release');
  return unmet;
}

/** The criteria an npm package misses as of `now` (npm facts; the GitHub checks use this form). */
export function unmetFinishedCriteria(registry: RegistryFacts, now: Date, tarball?: TarballFacts): FinishedCriterion[] {
  return unmetFinished(releaseFromNpm(registry, tarball), now);
}

/** True when the npm package meets every finished-package criterion as of `now`. */
export function isFinishedPackage(registry: RegistryFacts, now: Date, tarball?: TarballFacts): boolean {
  return unmetFinishedCriteria(registry, now, tarball).length === 0;
}

/** True when the release (npm or PyPI) meets every finished-package criterion as of `now`. */
export function isFinishedRelease(release: ReleaseFacts, now: Date): boolean {
  return unmetFinished(release, now).length === 0;
}
