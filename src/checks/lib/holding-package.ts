/**
 * npm's security-holding package: what npm publishes under a name it has taken back from the
 * package that held it (docs/checks.md, `security-placeholder`). npm's own marks on it, each one
 * enough alone:
 *
 * - `description`: "security holding package", the whole description (the packument's or the
 *   version's; a description that mentions the words is not npm's);
 * - `version`: `0.0.N-security`, the shape npm gives the ones it publishes now;
 * - `readme`: a README whose title is "Security holding package" (npm's text, which goes on to
 *   say the name "was formerly occupied by another package");
 * - `repository`: the version's repository is GitHub's npm/security-holder, and the tarball
 *   holds nothing beyond its package.json and README (npm's older holding packages, such as
 *   child_process 1.0.2, carry this link with an empty description and a `1.0.N` version).
 *
 * Read from the facts as nerq has them: the tarball's README when the tarball was read (the
 * version's own), else the README the registry shows. Anchored on purpose: a README that names
 * npm/security-holder or the words further down, or a repository link elsewhere, marks nothing.
 */
import type { RegistryFacts, TarballFacts } from '../../evidence/schema.js';
import { readmeOpening } from './readme-opening.js';
import { ESTABLISHED_MIN_RELEASES } from './releases.js';

type HoldingMark = 'description' | 'version' | 'readme' | 'repository';

/** The version shape npm gives a security-holding package. */
const HOLDING_VERSION = /^0\.0\.\d+-security$/;
const HOLDING_DESCRIPTION = /^\s*security holding package\.?\s*$/i;
const HOLDING_TITLE = /^security holding package\.?$/i;
const HOLDER_REPOSITORY = 'npm/security-holder';
/** The files a holding package's tarball holds: its package.json and its README. */
const HOLDING_FILES = 2;

/** The README the check reads: the tarball's (the version's own) when read, else the registry's. */
function readmeText(registry: RegistryFacts, tarball: TarballFacts | undefined): string | null {
  if (tarball !== undefined) return tarball.readme?.text ?? null;
  return registry.readme === null || registry.readme === false ? null : registry.readme.text;
}

function linksToHolder(registry: RegistryFacts): boolean {
  const repo = registry.repository;
  return repo !== null && repo.host === 'github' && repo.slug !== null && repo.slug.toLowerCase() === HOLDER_REPOSITORY;
}

/** npm's marks of a security-holding package on this version, in a fixed order; [] for anything else. */
export function holdingMarks(registry: RegistryFacts, tarball?: TarballFacts): HoldingMark[] {
  const marks: HoldingMark[] = [];
  const byVersion = HOLDING_VERSION.test(registry.version);
  // `securityHolding` also covers the packument's own description, which the facts do not keep.
  if (HOLDING_DESCRIPTION.test(registry.description ?? '') || (registry.securityHolding && !byVersion)) marks.push('description');
  if (byVersion) marks.push('version');
  const readme = readmeText(registry, tarball);
  const title = readme === null ? null : readmeOpening(readme).title;
  if (title !== null && HOLDING_TITLE.test(title)) marks.push('readme');
  if (linksToHolder(registry) && tarball !== undefined && tarball.fileCount <= HOLDING_FILES) marks.push('repository');
  return marks;
}

/** Releases besides the placeholders that make a name npm held an established project's (docs/checks.md). */
export const ADOPTED_MIN_RELEASES = ESTABLISHED_MIN_RELEASES;

/**
 * The latest security-holding version (`0.0.N-security`) npm published under the name, when the
 * resolved version (not itself one) may be code from before npm took the name back, or else null.
 * Not so — null — when the registry's publish times show the resolved version published after the
 * placeholder (npm gave the name to a new owner: tslib 0.0.1-security, 2016, before 1.0.0), or,
 * the times unknown or a mirror's own (`timesTrusted` false), when the name has
 * ADOPTED_MIN_RELEASES releases besides placeholders (a project grew on it). d3.js: 1.0.2, its
 * only release besides 0.0.2-security.
 */
export function heldBefore(registry: RegistryFacts, timesTrusted: boolean): string | null {
  const placeholders = registry.versions.filter((v) => v.version !== registry.version && HOLDING_VERSION.test(v.version));
  if (placeholders.length === 0 || HOLDING_VERSION.test(registry.version)) return null;
  const resolved = registry.versions.find((v) => v.version === registry.version);
  const dated = placeholders.filter((v) => v.time !== null).sort((a, b) => Date.parse(a.time!) - Date.parse(b.time!));
  const last = dated.at(-1);
  if (timesTrusted && resolved?.time != null && last !== undefined) {
    return Date.parse(resolved.time) < Date.parse(last.time!) ? last.version : null;
  }
  const releases = registry.versions.filter((v) => !HOLDING_VERSION.test(v.version)).length;
  return releases >= ADOPTED_MIN_RELEASES ? null : placeholders.at(-1)!.version;
}
