/**
 * The finished-package rule, shared by the release checks and the docs: a small, stable,
 * 1.x+ package with no red flags is not punished for releasing rarely. Every criterion is
 * named, so a report (and docs/checks.md) can say which one a package misses.
 */
import semver from 'semver';
import type { RegistryFacts, TarballFacts } from '../../evidence/schema.js';
import { hasInstallHooks, installHooks } from './install-hooks.js';
import { DAY_MS, datedReleases } from './releases.js';

export const FINISHED_MAX_DEPENDENCIES = 5;
/** 200 kB, in bytes. */
export const FINISHED_MAX_UNPACKED_BYTES = 200_000;
export const FINISHED_MIN_RELEASES = 5;
export const FINISHED_MIN_SPAN_DAYS = 365;
/** Lowest recency / cadence score a finished package gets. */
export const FINISHED_FLOOR = 70;

export const FINISHED_CRITERIA = [
  'stable-1x',
  'not-deprecated',
  'not-placeholder',
  'no-install-scripts',
  'few-dependencies',
  'small',
  'release-history',
] as const;
export type FinishedCriterion = (typeof FINISHED_CRITERIA)[number];

/** What each criterion requires, in words (docs/checks.md prints this list). */
export const FINISHED_RULE: Readonly<Record<FinishedCriterion, string>> = {
  'stable-1x': 'the resolved version is ≥ 1.0.0 and not a pre-release',
  'not-deprecated': 'the version is known not to be deprecated',
  'not-placeholder': 'it is not a registry security-holding placeholder',
  'no-install-scripts': 'no preinstall/install/postinstall script, `gypfile` or `binding.gyp`',
  'few-dependencies': `at most ${FINISHED_MAX_DEPENDENCIES} direct runtime dependencies`,
  small: 'unpacked size known (registry `dist.unpackedSize`, else the tarball) and at most 200 kB (200,000 bytes)',
  'release-history': `at least ${FINISHED_MIN_RELEASES} stable releases with publish times, the first and the last at least ${FINISHED_MIN_SPAN_DAYS} days apart`,
};

/** The criteria a package misses, in FINISHED_CRITERIA order (empty = finished). */
export function unmetFinishedCriteria(registry: RegistryFacts, tarball?: TarballFacts): FinishedCriterion[] {
  const unmet: FinishedCriterion[] = [];
  const version = semver.parse(registry.version);
  if (version === null || version.prerelease.length > 0 || version.major < 1) unmet.push('stable-1x');
  if (registry.deprecated !== false) unmet.push('not-deprecated');
  if (registry.securityHolding) unmet.push('not-placeholder');
  if (hasInstallHooks(installHooks(registry, tarball))) unmet.push('no-install-scripts');
  if (registry.dependencies > FINISHED_MAX_DEPENDENCIES) unmet.push('few-dependencies');
  const size = registry.unpackedSize ?? tarball?.unpackedSize ?? null;
  if (size === null || size > FINISHED_MAX_UNPACKED_BYTES) unmet.push('small');
  const releases = datedReleases(registry, true);
  const first = releases[0];
  const last = releases[releases.length - 1];
  const spanDays = first && last ? (last.time.getTime() - first.time.getTime()) / DAY_MS : 0;
  if (releases.length < FINISHED_MIN_RELEASES || spanDays < FINISHED_MIN_SPAN_DAYS) unmet.push('release-history');
  return unmet;
}

/** True when the package meets every finished-package criterion. */
export function isFinishedPackage(registry: RegistryFacts, tarball?: TarballFacts): boolean {
  return unmetFinishedCriteria(registry, tarball).length === 0;
}
