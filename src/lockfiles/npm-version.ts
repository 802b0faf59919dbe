/**
 * A version an npm-family lockfile locks, read as npm reads it: semver's loose parse, which
 * takes leading `=`, `v` and white space (`=4.1.0`, `v=4.1.0`, ` 4.1.0` are 4.1.0). npm checks a
 * locked entry against the range asking for it that way and then installs it from its
 * `resolved` URL, so a version only the strict parse refuses is still installed: it is audited
 * as the release npm takes it for, never skipped (docs/security.md, "Lockfile injection").
 */
import semver from 'semver';

/** The normalised version (`4.1.0`), or null when npm could not read it as a version either. */
export function lockedVersion(version: string | null | undefined): string | null {
  return typeof version === 'string' ? semver.valid(version, { loose: true }) : null;
}
