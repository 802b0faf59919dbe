/**
 * Lockfile injection (docs/security.md): in a lockfile, a package's `resolved` URL and
 * `integrity` decide what is installed, whatever name the entry carries. An entry `chalk@4.1.0`
 * whose `resolved` is another package's tarball, or whose integrity is not the registry's for
 * chalk 4.1.0, installs something else under a trusted name. Each pin is checked against the
 * package's own name and version, and against the `dist.integrity` (or `dist.shasum`) of the
 * release the evaluation read from the registry; a yarn berry entry resolved to another
 * package than its descriptor names, or a pnpm entry whose `version` field is another release
 * than its key names, is reported as the reader found it.
 *
 * A URL that is not a registry tarball path (`…/<name>/-/<file>.tgz`) cannot be checked by its
 * path (private registries use other shapes): only its integrity is. Hashes are compared as npm
 * (ssri) checks them: on the strongest algorithm the pin holds, any digest of which it accepts,
 * so each of those digests must be the registry's; the registry publishing no digest on that
 * algorithm is no finding — unless the URL is on another host
 * than the registry's (the host of the release's `dist.tarball`, the configured registries, the
 * public one): npm fetches it from there, and only a hash the registry publishes for the
 * release says the bytes are the release's (without one, npm installs whatever that host serves).
 *
 * A Python entry the lockfile takes from another index than PyPI (uv's `source.registry`, a
 * Poetry or Pipfile source, or any requirement of a requirements file while an
 * `--index-url`, `--extra-index-url` or `--find-links` other than PyPI is in effect) is PyPI's
 * release only when every hash it pins is a sha256 PyPI publishes for that release (a mirror
 * serves PyPI's bytes; pip and uv accept a file matching any one hash pinned); pinning a sha256
 * that is not PyPI's is lockfile injection; a pin with no sha256, or a sha384 or sha512 beside
 * its sha256s, or a release whose PyPI hashes are not known (PyPI unavailable), cannot be
 * vouched for: the finding is `unverified`, and the package incomplete, never passed or failed.
 * Only the index's host is named (its URL may carry a token). A requirements file or a
 * pyproject.toml read alone is installed by pip or uv on the machine that audits, which also
 * consult the indexes configured there (src/audit/python-indexes.ts): such an index is in effect
 * for each of their pins that names no other, and the finding names the setting it comes from.
 */
import type { Evidence } from '../evidence/schema.js';
import { tarballIdentity } from '../ecosystems/npm/tarball-path.js';
import { isPackageEcosystem } from '../ecosystems/rules.js';
import { isPypiIndex } from '../lockfiles/python-hashes.js';
import { subjectKey } from './fold.js';
import type { PythonIndex } from './python-indexes.js';
import type { AuditSubject, InputFile, LockRecord } from './types.js';

/** The npm inputs that are not lockfiles: nothing is installed from their pins. */
const NOT_INSTALLED = new Set(['package.json', 'cyclonedx', 'spdx']);

/** The inputs pip or uv install on the machine that audits, with the indexes configured there. */
const INSTALLED_WITH_MACHINE_CONFIG = new Set(['requirements', 'pyproject.toml']);

/**
 * Every distinct pin of each npm or PyPI subject in the inputs, by subject key (fold.ts).
 * `machineIndex`: the first index configured on the machine that is not PyPI (python-indexes.ts),
 * in effect for every pin of a requirements file or lone pyproject.toml that names no other.
 */
export function lockRecords(inputs: readonly InputFile[], machineIndex: PythonIndex | null = null): Map<string, LockRecord[]> {
  const byKey = new Map<string, LockRecord[]>();
  for (const input of inputs) {
    for (const dependency of input.dependencies) {
      if (!isPackageEcosystem(dependency.ecosystem) || dependency.version === null) continue;
      const machine =
        machineIndex !== null && dependency.ecosystem === 'pypi' && INSTALLED_WITH_MACHINE_CONFIG.has(input.format) && (dependency.resolved === null || isPypiIndex(dependency.resolved));
      const record: LockRecord = {
        file: dependency.pinnedAt?.file ?? dependency.file,
        line: dependency.pinnedAt?.line ?? dependency.line,
        resolved: machine ? machineIndex.url : dependency.resolved,
        integrity: dependency.integrity ?? null,
        lockedFor: dependency.lockedFor ?? null,
        ...(machine ? { indexFrom: machineIndex.from } : {}),
        format: input.format,
      };
      // An npm lockfile entry pinning nothing is kept: the package manager fetches it from the registry it is configured with.
      const pinsNothing = record.resolved === null && record.integrity === null && record.lockedFor === null;
      if (pinsNothing && (dependency.ecosystem !== 'npm' || NOT_INSTALLED.has(input.format))) continue;
      const key = subjectKey(dependency);
      const list = byKey.get(key) ?? [];
      if (!list.some((r) => r.resolved === record.resolved && r.integrity === record.integrity && r.lockedFor === record.lockedFor)) list.push(record);
      byKey.set(key, list);
    }
  }
  return byKey;
}

/** The file name npm gives a release's tarball: `<unscoped name>-<version>.tgz`. */
function tarballFile(name: string, version: string): string {
  return `${name.slice(name.lastIndexOf('/') + 1)}-${version}.tgz`;
}

/** algorithm → digests (base64) of an SRI string; a yarn `#<sha1 hex>` fragment as sha1. */
function digests(integrity: string | null, resolved: string | null): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (algorithm: string, digest: string): void => {
    const set = out.get(algorithm) ?? new Set<string>();
    set.add(digest);
    out.set(algorithm, set);
  };
  for (const token of (integrity ?? '').trim().split(/\s+/)) {
    const match = /^(sha512|sha384|sha256|sha1)-([A-Za-z0-9+/]+={0,2})(?:\?.*)?$/.exec(token);
    if (match?.[1] !== undefined && match[2] !== undefined) add(match[1], match[2]);
  }
  const fragment = resolved === null ? null : /#([0-9a-f]{40})$/i.exec(resolved)?.[1];
  if (fragment !== undefined && fragment !== null) add('sha1', Buffer.from(fragment, 'hex').toString('base64'));
  return out;
}

/** The registry's hashes for the release: `dist.integrity`, and `dist.shasum` as sha1. */
function registryDigests(integrity: string | null, shasum: string | null): Map<string, Set<string>> {
  const out = digests(integrity, null);
  if (shasum !== null) {
    const set = out.get('sha1') ?? new Set<string>();
    set.add(Buffer.from(shasum, 'hex').toString('base64'));
    out.set('sha1', set);
  }
  return out;
}

/** SRI algorithms npm (ssri) reads, weakest first: it checks the bytes with the strongest one a pin holds. */
const ALGORITHM_PRIORITY = ['sha1', 'sha256', 'sha384', 'sha512'];

/**
 * The algorithm npm checks a pin's bytes with and the digests it accepts: ssri picks the
 * strongest algorithm of the pin and accepts bytes matching any one digest of it, so a second
 * digest of that algorithm, or a weaker one the registry publishes, vouches for nothing.
 */
function checkedDigests(locked: Map<string, Set<string>>): [algorithm: string, digests: Set<string>] | null {
  const algorithm = ALGORITHM_PRIORITY.filter((a) => locked.has(a)).at(-1);
  return algorithm === undefined ? null : [algorithm, locked.get(algorithm)!];
}

/** Whether every digest npm accepts for the pin is one the registry publishes for the release: npm installs its bytes only. */
function agrees(locked: Map<string, Set<string>>, registry: Map<string, Set<string>>): boolean {
  const checked = checkedDigests(locked);
  const theirs = checked === null ? undefined : registry.get(checked[0]);
  return checked !== null && theirs !== undefined && [...checked[1]].every((digest) => theirs.has(digest));
}

/**
 * The host an http(s) `resolved` URL is fetched from (read as npm reads it, by the URL parser)
 * when it is none of the `registries`' hosts; null for a registry host or a URL that is not one.
 */
function foreignHost(resolved: string | null, registries: readonly (string | null)[]): string | null {
  const url = resolved === null ? null : URL.parse(resolved.trim());
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  const hosts = new Set(registries.flatMap((registry) => (registry === null ? [] : (URL.parse(registry)?.host ?? []))));
  return hosts.has(url.host) ? null : url.host;
}

/**
 * The algorithm npm checks the pin with (see checkedDigests) when the registry publishes it and
 * a digest npm accepts is not the registry's (the pin lets other bytes in), or null.
 */
function disagreement(locked: Map<string, Set<string>>, registry: Map<string, Set<string>>): string | null {
  const checked = checkedDigests(locked);
  const theirs = checked === null ? undefined : registry.get(checked[0]);
  if (checked === null || theirs === undefined) return null;
  return [...checked[1]].every((digest) => theirs.has(digest)) ? null : checked[0];
}

function where(record: LockRecord): string {
  return `${record.file}${record.line === null ? '' : `:${record.line}`}`;
}

/** A lockfile finding: why the lockfile would install something else (one line), and the pin it is about. */
export interface LockfileFinding {
  message: string;
  at: { file: string; line: number | null };
  /**
   * The pin could not be vouched for (a Python entry from another index with no hash PyPI
   * publishes to compare, or PyPI's hashes unavailable): the package is incomplete, not failed.
   */
  unverified?: true;
}

/**
 * Why the lockfile would install something other than `subject`, at the pin that says so, or
 * null. `evidence`: the evaluation of the subject (its registry or PyPI facts give the release's
 * hashes); `registries`: the registries (npm) or PyPI base URLs (pypi) nerq reads the subject from.
 */
export function lockfileMismatch(
  subject: AuditSubject,
  records: readonly LockRecord[],
  evidence: Evidence | null,
  registries: readonly string[] = [],
  project: ProjectRegistries = NO_PROJECT_REGISTRIES,
): LockfileFinding | null {
  if (subject.ecosystem === 'pypi') {
    // A pin that installs other bytes says more than one that cannot be vouched for.
    const findings = records.flatMap((record) => pythonIndexFinding(subject, record, evidence, registries) ?? []);
    return findings.find((f) => f.unverified !== true) ?? findings[0] ?? null;
  }
  for (const record of records) {
    const message = recordMismatch(subject, record, evidence, registries, project);
    if (message !== null) return { message, at: { file: record.file, line: record.line } };
  }
  for (const record of records) {
    const finding = projectRegistryFinding(subject, record, evidence, registries, project);
    if (finding !== null) return finding;
  }
  return null;
}

/** The registries the audited project's own files set and nerq does not follow (src/app/audit.ts). */
export interface ProjectRegistries {
  /**
   * The registries the project's configuration read by the installer of `format` names for
   * `packageName` (none; one; yarn 1's `.yarnrc` and `.npmrc` both, either of which it may take).
   */
  registryFor(packageName: string, format: string | undefined): readonly string[];
  /** The public registry (npm's `replace-registry-host` default moves its URLs to the configured registry). */
  readonly publicRegistry: string | null;
  /**
   * Whether a URL is on yarn's public registry (src/sources/endpoints.ts), which serves the public
   * registry's content: a project naming it, or a `resolved` URL on it, names the public registry.
   */
  isYarnPublicRegistry?(url: string): boolean;
  /**
   * npm's `replace-registry-host` (the project's `.npmrc`, else the user's; null: its default
   * `npmjs`): which `resolved` hosts npm swaps for the configured registry when it installs a
   * package-lock or npm-shrinkwrap — the public registry's (`npmjs`), none (`never`), every
   * one (`always`), or the one host it names.
   */
  readonly replaceRegistryHost?: string | null;
}

const NO_PROJECT_REGISTRIES: ProjectRegistries = { registryFor: () => [], publicRegistry: null };

/**
 * A pin the package manager fetches from the registry the audited project's own configuration
 * names (its `.npmrc`, `.yarnrc.yml`), which nerq does not follow: one with no URL (pnpm builds
 * it from the configured registry, npm and bun take the configured registry), or one on the
 * public registry (npm's `replace-registry-host` default moves it there). Without a hash the
 * registry publishes for the release, nothing tells that host's bytes are the release nerq
 * audited: `unverified`, the package incomplete. Null otherwise, and when the project names a
 * registry nerq reads the package from (the public one, the user's own): it sends the package
 * manager nowhere else.
 */
function projectRegistryFinding(
  subject: AuditSubject,
  record: LockRecord,
  evidence: Evidence | null,
  registries: readonly string[],
  project: ProjectRegistries,
): LockfileFinding | null {
  if (subject.ecosystem !== 'npm' || subject.version === null || record.lockedFor !== null) return null;
  // A project naming a registry nerq reads the package from (the public one, the user's own, yarn's public one) sends the package manager nowhere else.
  const projectRegistry = project
    .registryFor(subject.name, record.format)
    .find((named) => foreignHost(named, registries) !== null && project.isYarnPublicRegistry?.(named) !== true);
  if (projectRegistry === undefined) return null;
  if (record.resolved !== null && !fetchedFromConfiguredRegistry(record.resolved.trim(), record.format, project)) return null;
  const registry = evidence?.sources.registry;
  const facts = registry?.status === 'ok' && registry.facts.version === subject.version ? registry.facts : null;
  if (facts !== null && agrees(digests(record.integrity, record.resolved), registryDigests(facts.integrity, facts.shasum))) return null;
  const host = URL.parse(projectRegistry)?.host ?? projectRegistry;
  const label = `${subject.name}@${subject.version}`;
  return {
    message: `${where(record)} pins no hash the registry publishes for ${label}, and the audited project's configuration sends the package manager to ${host} for it (ignored without --trust-project-npmrc): what that host serves is not known`,
    at: { file: record.file, line: record.line },
    unverified: true,
  };
}

/**
 * Whether the package manager fetches a pin whose `resolved` is `resolved` from the configured
 * registry rather than from that URL: npm (a package-lock, an npm-shrinkwrap) as its
 * `replace-registry-host` says; the others, and npm by default, only for the public registry's URLs.
 */
function fetchedFromConfiguredRegistry(resolved: string, format: string | undefined, project: ProjectRegistries): boolean {
  const npm = format?.startsWith('package-lock') === true || format?.startsWith('npm-shrinkwrap') === true;
  const setting = npm ? (project.replaceRegistryHost ?? 'npmjs') : 'npmjs';
  if (setting === 'never') return false;
  if (setting === 'always') return true;
  if (setting !== 'npmjs') return URL.parse(resolved)?.hostname.toLowerCase() === setting;
  const publicPrefix = project.publicRegistry?.replace(/\/*$/, '/') ?? null;
  return publicPrefix !== null && resolved.startsWith(publicPrefix);
}

/** Why one pin would install something other than `subject`, or null. */
function recordMismatch(subject: AuditSubject, record: LockRecord, evidence: Evidence | null, registries: readonly string[], project: ProjectRegistries): string | null {
  if (subject.ecosystem !== 'npm' || subject.version === null) return null;
  const label = `${subject.name}@${subject.version}`;
  const registry = evidence?.sources.registry;
  const facts = registry?.status === 'ok' && registry.facts.version === subject.version ? registry.facts : null;
  if (record.lockedFor !== null) {
    return `lockfile injection: ${where(record)} resolves ${JSON.stringify(record.lockedFor)} to ${label}: the lockfile installs ${label} in place of what it names`;
  }
  if (record.resolved !== null && /^https?:\/\//i.test(record.resolved)) {
    const identity = tarballIdentity(record.resolved);
    const expected = tarballFile(subject.name, subject.version);
    if (identity !== null && (identity.name !== subject.name || identity.file !== expected)) {
      return `lockfile injection: ${where(record)} pins ${label} to the tarball ${identity.name}/-/${identity.file}: npm would install that package, not ${label}`;
    }
  }
  if (facts !== null) {
    const locked = digests(record.integrity, record.resolved);
    const published = registryDigests(facts.integrity, facts.shasum);
    const algorithm = disagreement(locked, published);
    if (algorithm !== null) {
      return `lockfile injection: ${where(record)} pins ${label} to ${algorithm} bytes the registry does not publish for it: npm would install other bytes than ${label}`;
    }
    // yarn's public registry (yarn 1 writes its host into `resolved`) serves the public registry's bytes.
    const yarnPublic = record.resolved !== null && project.isYarnPublicRegistry?.(record.resolved) === true;
    const host = yarnPublic ? null : foreignHost(record.resolved, [facts.tarballUrl, ...registries]);
    if (host !== null && !agrees(locked, published)) {
      return `lockfile injection: ${where(record)} fetches ${label} from ${host}, not from the registry, with no hash the registry publishes for it: npm would install whatever ${host} serves`;
    }
  }
  return null;
}

/** Whether a pin holds a hash on another algorithm than sha256 (PyPI publishes sha256 only). */
function pinsOtherAlgorithms(integrity: string | null): boolean {
  return [...digests(integrity, null).keys()].some((algorithm) => algorithm !== 'sha256');
}

/** Hex digests of the SRI `sha256-` tokens of a pin. */
function pinnedSha256(integrity: string | null): Set<string> {
  return new Set([...(digests(integrity, null).get('sha256') ?? [])].map((b64) => Buffer.from(b64, 'base64').toString('hex')));
}

/** How a finding names a Python index: its host (never the URL: it may carry a token), or a find-links path. */
function indexPlace(resolved: string, from: string | undefined): string {
  const url = URL.parse(resolved.trim());
  const place = url !== null && url.hostname !== '' ? `the index at ${url.hostname}` : 'a find-links location';
  return from === undefined ? place : `${place} (configured on this machine by ${from})`;
}

/**
 * What one Python pin from another index than PyPI says of `subject` (see the top of this
 * file): null when it is PyPI's (its index is PyPI, or every hash it pins is a sha256 PyPI
 * publishes for the release), a failure when it pins a sha256 that is not PyPI's, `unverified` when it cannot
 * be told. Pure: `evidence` holds PyPI's digests of the release (pypi facts, `files[].sha256`);
 * `pypi`: the PyPI nerq is configured to read (`NERQ_PYPI_URL`), whose host is PyPI's too.
 */
export function pythonIndexFinding(subject: AuditSubject, record: LockRecord, evidence: Evidence | null, pypi: readonly string[] = []): LockfileFinding | null {
  if (subject.ecosystem !== 'pypi' || subject.version === null || record.resolved === null || isPypiIndex(record.resolved, pypi)) return null;
  const label = `${subject.name}==${subject.version}`;
  const at = { file: record.file, line: record.line };
  const place = indexPlace(record.resolved, record.indexFrom);
  const pinned = pinnedSha256(record.integrity);
  if (pinned.size === 0) {
    return { message: `${where(record)} may take ${label} from ${place}, not PyPI, and pins no sha256 hash that would tell its files are PyPI's`, at, unverified: true };
  }
  const source = evidence?.sources.pypi;
  const facts = source?.status === 'ok' && source.facts.version === subject.version ? source.facts : null;
  const published = (facts?.files ?? []).map((f) => f.sha256 ?? null);
  // pip and uv install a file matching any one hash pinned: each must be one of PyPI's files, or
  // the pin also lets in bytes PyPI never published (a wheel the other index adds beside PyPI's).
  const foreign = [...pinned].filter((digest) => !published.includes(digest));
  if (foreign.length > 0) {
    if (facts === null || published.length === 0 || published.includes(null)) {
      return { message: `${where(record)} takes ${label} from ${place}, not PyPI: PyPI's hashes of ${label} are not known, so its pinned hashes could not be compared`, at, unverified: true };
    }
    return {
      message: `lockfile injection: ${where(record)} takes ${label} from ${place}, not PyPI, pinning sha256 hashes PyPI does not publish for it: pip would install other bytes than ${label}`,
      at,
    };
  }
  if (pinsOtherAlgorithms(record.integrity)) {
    return { message: `${where(record)} takes ${label} from ${place}, not PyPI, and also pins a sha384 or sha512 hash, which PyPI does not publish: the bytes it lets in could not be compared`, at, unverified: true };
  }
  return null;
}
