/**
 * Which of a repository's tags name a version (docs/scoring.md §9, "Maturity"): a semantic
 * version (`1.2.3`, `1.2.3-rc.1`) or a PEP 440 version (`1.2`, `2024.1`, `1.0rc1`), optionally
 * after a `v`, `version` or `release` prefix (`v1.2.3`, `release-1.2`). Not `nightly`, `latest`,
 * `stable` or a date-stamped build name, and not a monorepo's per-package tags (`name@1.2.3`,
 * `@scope/name@1.2.3`): a workspace writes one for each of its packages at every release, which
 * would count one release many times.
 */
import { valid as validPep440 } from '@renovatebot/pep440';
import semver from 'semver';

const PREFIX = /^(?:v|version|release|rel)[-_./]?(?=\d)/i;

export function isVersionTag(name: string): boolean {
  if (name.length === 0 || name.length > 100 || name.includes('@') || name.includes('/')) {
    // `release/1.2` is the one slash allowed: a prefix, not a package's path.
    if (!/^release\/\d/i.test(name)) return false;
  }
  const version = name.replace(PREFIX, '');
  if (!/^\d/.test(version)) return false;
  return semver.valid(version, { loose: true }) !== null || validPep440(version) !== null;
}
