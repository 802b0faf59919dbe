/**
 * Package URLs in SBOMs: only `pkg:npm` and `pkg:pypi` are audited; other types are counted
 * so the note can say what was left out. An npm or PyPI component fetched from a git repository
 * or URL rather than the registry (docs/security.md, "Dependencies no registry vouches for") is
 * a skipped entry, remote (local for a `file:` one): its package URL's `vcs_url`, or its
 * `download_url` unless that is an npm registry tarball path, or its declared location (see
 * `declaredFetch`). A `repository_url` names a registry (a private one is the audit's
 * dependency-confusion concern), so it is the package's `resolved`.
 */
import { eq as samePep440, valid as validPep440 } from '@renovatebot/pep440';
import semver from 'semver';
import { tarballIdentity } from '../ecosystems/npm/tarball-path.js';
import { pep503 } from '../ecosystems/pypi/name.js';
import { isPackageEcosystem, packageRulesOf } from '../ecosystems/rules.js';
import type { ModuleEcosystem } from '../ecosystems/types.js';
import { splitPurl } from '../target/purl.js';
import type { AuditEcosystem, SkippedEntry, Standing } from '../audit/types.js';
import { skippedEntry, urlSourceKind, type SourceKind } from './source-kind.js';
import { quote } from './text.js';

export type PurlOutcome =
  | { kind: 'package'; ecosystem: AuditEcosystem; name: string; version: string; resolved: string | null }
  | Fetched
  | { kind: 'other-type'; type: string }
  | Unreadable
  | { kind: 'invalid'; reason: string };

/**
 * An npm or PyPI package URL that names no one registry package nerq can read: a name the
 * registry does not allow, or no plain version (a range, `=4.1.0`, a tag; none given and the
 * component's own version no plain one either). It is code nerq cannot name, never a note: a
 * skipped entry without a host (`unreadableComponent`), the run incomplete.
 */
export interface Unreadable {
  kind: 'unreadable';
  ecosystem: AuditEcosystem;
  /** The name as read, when it is one the registry allows; else null. */
  name: string | null;
  reason: string;
}

/** `version` as the ecosystem's registry writes a release (npm: semver, a leading `v` dropped; PyPI: PEP 440), or null when it is none. */
function plainVersion(ecosystem: 'npm' | 'pypi', version: string): string | null {
  if (ecosystem === 'npm') return semver.valid(version);
  return validPep440(version) === null ? null : version;
}

/** An npm or PyPI component that was fetched from `from`, not from the registry. */
export interface Fetched {
  kind: 'fetched';
  ecosystem: AuditEcosystem;
  name: string;
  from: SourceKind;
}

/**
 * What a component's package URL names. `declaredVersion`: the component's own version
 * (CycloneDX `version`, SPDX `versionInfo`), which stands for a package URL that gives none when
 * it is a plain version.
 */
export function purlPackage(purl: string, declaredVersion?: unknown): PurlOutcome {
  const parts = splitPurl(purl);
  if ('error' in parts) return { kind: 'invalid', reason: parts.error };
  if (parts.type !== 'npm' && parts.type !== 'pypi') return { kind: 'other-type', type: parts.type };
  const ecosystem = parts.type;
  const scope = parts.namespace === undefined ? '' : `${parts.namespace.startsWith('@') ? '' : '@'}${parts.namespace}/`;
  const name = ecosystem === 'npm' ? `${scope}${parts.name}` : pep503(parts.name);
  const rules = packageRulesOf(ecosystem).registry;
  const validName = rules.validName(name) && (ecosystem === 'npm' || /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(parts.name));
  if (!validName) return { kind: 'unreadable', ecosystem, name: null, reason: rules.invalidNameNote };
  const from = qualifiedFetch(ecosystem, parts.qualifiers);
  if (from !== null) return { kind: 'fetched', ecosystem, name, from };
  const resolved = parts.qualifiers.repository_url ?? parts.qualifiers.download_url ?? null;
  if (parts.version === undefined) {
    const own = typeof declaredVersion === 'string' ? declaredVersion.trim() : '';
    const version = own === '' ? null : plainVersion(ecosystem, own);
    if (version === null) {
      const why = own === '' ? 'no version in the package URL nor in the component' : `no version in the package URL, and the component's ${quote(own)} is not a plain version`;
      return { kind: 'unreadable', ecosystem, name, reason: why };
    }
    return { kind: 'package', ecosystem, name, version, resolved };
  }
  const version = plainVersion(ecosystem, parts.version);
  if (version === null) return { kind: 'unreadable', ecosystem, name, reason: `version ${quote(parts.version)} is not a plain version` };
  return { kind: 'package', ecosystem, name, version, resolved };
}

/**
 * The skipped entry, with its note, of a component whose package URL names no one registry
 * package nerq can read (`Unreadable`): an entry without a host, as one whose name or version is
 * not its package URL's, never the package passed.
 */
export function unreadableComponent(file: string, purl: string, outcome: Unreadable, line: number, standing: Standing): SkippedEntry {
  const note = `${file}:${line}: ${quote(purl)} skipped: ${outcome.reason}: which package it is cannot be told`;
  return skippedEntry(outcome.ecosystem, outcome.name, file, line, { kind: 'remote', source: purl, host: null }, note, standing);
}

/** A package URL's `vcs_url` or non-registry `download_url`: where it was fetched from; null for none. */
function qualifiedFetch(ecosystem: AuditEcosystem, qualifiers: Record<string, string>): SourceKind | null {
  const vcs = qualifiers.vcs_url?.trim();
  if (vcs) return urlSourceKind(plusRestored(vcs));
  const download = qualifiers.download_url?.trim();
  if (download && !(ecosystem === 'npm' && tarballIdentity(download) !== null)) return urlSourceKind(download);
  return null;
}

/** `npm sbom` writes `vcs_url=git+ssh://…` unencoded, and a query's `+` reads as a space: put it back. */
const plusRestored = (url: string): string => url.replace(/^(git|hg|svn|bzr) (?=[A-Za-z][A-Za-z0-9+.-]*:)/i, '$1+');

/** The longest location read (no real one is longer). */
const MAX_LOCATION_LENGTH = 2048;

/** An archive file name, as a tarball-URL dependency ends. */
const ARCHIVE = /\.(?:tgz|tar\.gz|tar|zip)$/i;

/**
 * Where a component's declared locations (a CycloneDX `distribution` reference, an SPDX
 * `downloadLocation`) say it was fetched from, when that is not a registry: a `file:` location
 * (local); a git location pinned to a revision (`#<commit>` as package managers record a git
 * dependency, `@<rev>` as SPDX writes one); for npm, an archive URL that is not a registry
 * tarball path. Anything else says nothing: generators also write a package's own repository
 * URL (unpinned) or homepage there. The first that says something, with its line.
 */
function declaredFetch(ecosystem: AuditEcosystem, locations: readonly { url: string; line: number }[]): { from: SourceKind; line: number } | null {
  for (const { url, line } of locations) {
    const text = url.trim();
    if (text === '' || text.length > MAX_LOCATION_LENGTH) continue;
    if (/^(?:(?:git|hg|svn|bzr)\+)?file:/i.test(text) || pinnedGit(text) || (ecosystem === 'npm' && archiveUrl(text))) return { from: urlSourceKind(text), line };
  }
  return null;
}

function pinnedGit(text: string): boolean {
  if (!/^(?:(?:git|hg|svn|bzr)\+[A-Za-z]+:|git:|ssh:|[^@/\s:]+@[A-Za-z0-9.-]+:)/i.test(text)) return false;
  if (/#./.test(text)) return true;
  try {
    return new URL(text).pathname.includes('@');
  } catch {
    return false;
  }
}

function archiveUrl(text: string): boolean {
  try {
    const { protocol, pathname } = new URL(text);
    return (protocol === 'https:' || protocol === 'http:') && ARCHIVE.test(pathname) && tarballIdentity(text) === null;
  } catch {
    return false;
  }
}

/**
 * The skipped entry, with its note, of a component fetched from a git repository or URL
 * (remote) or a `file:` one (local), as its package URL or its declared locations say; null for
 * a registry package. `line`: the package URL's.
 */
export function fetchedComponent(
  file: string,
  outcome: Extract<PurlOutcome, { kind: 'package' | 'fetched' }>,
  line: number,
  locations: readonly { url: string; line: number }[],
  standing: Standing,
  declared: DeclaredIdentity = {},
): SkippedEntry | null {
  if (outcome.kind === 'package') {
    const other = otherIdentity(outcome, declared);
    if (other !== null) {
      // Which of the two the SBOM describes cannot be told: neither is audited as the package, the run is incomplete.
      const source = `pkg:${outcome.ecosystem}/${outcome.name}@${outcome.version}`;
      const note = `${file}:${line}: ${quote(outcome.name)} skipped: the component names itself ${quote(other)}, not the package of its package URL (${quote(source)})`;
      return skippedEntry(outcome.ecosystem, outcome.name, file, line, { kind: 'remote', source, host: null }, note, standing);
    }
  }
  const fetched = outcome.kind === 'fetched' ? { from: outcome.from, line } : declaredFetch(outcome.ecosystem, locations);
  if (fetched === null) return null;
  const what = fetched.from.kind === 'remote' ? 'fetched from a git repository or URL, not from the registry' : 'a local package, not from the registry';
  const note = `${file}:${fetched.line}: ${quote(outcome.name)} skipped: ${what} (${quote(fetched.from.source)})`;
  return skippedEntry(outcome.ecosystem, outcome.name, file, fetched.line, fetched.from, note, standing);
}

/** What an SBOM component says it is besides its package URL (CycloneDX `group`, `name`, `version`; SPDX `name`, `versionInfo`), as written. */
export interface DeclaredIdentity {
  name?: unknown;
  group?: unknown;
  version?: unknown;
}

/**
 * The component's own `name@version` when it is not its package URL's package (a scanner
 * resolves the package URL; a reader of the SBOM sees the name), else null. A field that is
 * absent or not a string says nothing. Names are compared as the registry does (PyPI's
 * normalised, npm's exactly, a CycloneDX `group` as the npm scope, with or without its `@`, and
 * without one a scoped package's name with or without its scope),
 * versions as equal versions.
 */
function otherIdentity(outcome: { ecosystem: AuditEcosystem; name: string; version: string }, declared: DeclaredIdentity): string | null {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
  const name = withoutEcosystemLabel(outcome.ecosystem, text(declared.name));
  const group = text(declared.group);
  const version = text(declared.version);
  let sameName = true;
  if (name !== null) {
    if (outcome.ecosystem === 'pypi') sameName = pep503(name) === outcome.name;
    // Without a group, a scoped package's name may be written without its scope (the group is where CycloneDX keeps it).
    else if (group === null) sameName = name === outcome.name || (outcome.name.startsWith('@') && outcome.name.endsWith(`/${name}`));
    else sameName = `${group.startsWith('@') ? '' : '@'}${group}/${name}` === outcome.name;
  }
  let sameVersion = true;
  if (version !== null) {
    if (outcome.ecosystem === 'npm') sameVersion = semver.valid(version, { loose: true }) !== null && semver.eq(version, outcome.version, { loose: true });
    else sameVersion = validPep440(version) !== null && samePep440(version, outcome.version);
  }
  if (sameName && sameVersion) return null;
  const shown = name === null ? outcome.name : group === null ? name : `${group}/${name}`;
  return version === null ? shown : `${shown}@${version}`;
}

/**
 * The ecosystem labels a generator writes before a package's name: GitHub's dependency graph
 * export names packages `npm:agent-base` and `pip:requests` (its ecosystem, then the name), with
 * the plain name in the package URL. A package ecosystem's are its rules' (`sbomLabels`).
 */
const MODULE_LABELS: Readonly<Record<ModuleEcosystem, readonly string[]>> = {
  go: ['go', 'golang'],
  cargo: ['cargo', 'rust', 'crates'],
  maven: ['maven'],
};

function ecosystemLabels(ecosystem: AuditEcosystem): readonly string[] {
  return isPackageEcosystem(ecosystem) ? packageRulesOf(ecosystem).registry.sbomLabels : MODULE_LABELS[ecosystem];
}

/** A component name without its generator's ecosystem label (`npm:agent-base` → `agent-base`), when the label is its package URL's ecosystem. */
function withoutEcosystemLabel(ecosystem: AuditEcosystem, name: string | null): string | null {
  if (name === null) return null;
  const colon = name.indexOf(':');
  if (colon <= 0) return name;
  return ecosystemLabels(ecosystem).includes(name.slice(0, colon).toLowerCase()) ? name.slice(colon + 1) : name;
}

/** Counts what an SBOM reader leaves out, for one summary note. */
export class SkipTally {
  private readonly types = new Map<string, number>();
  private withoutPurl = 0;

  otherType(type: string): void {
    this.types.set(type, (this.types.get(type) ?? 0) + 1);
  }

  noPurl(): void {
    this.withoutPurl += 1;
  }

  notes(file: string): string[] {
    const notes: string[] = [];
    const others = [...this.types.values()].reduce((a, b) => a + b, 0);
    if (others > 0) {
      const list = [...this.types].sort(([a], [b]) => (a < b ? -1 : 1)).map(([type, count]) => `${type}: ${count}`).join(', ');
      notes.push(`${file}: skipped ${others} package(s) that are neither npm nor PyPI (${list})`);
    }
    if (this.withoutPurl > 0) notes.push(`${file}: skipped ${this.withoutPurl} package(s) without a package URL`);
    return notes;
  }
}
