/**
 * Is this really the package's repository? (starjacking)
 *
 * A package can name any repository, and a typosquat that points at a famous one would inherit
 * its stars and activity. The link is verified when a manifest that publishes the package, at the
 * default branch, names it — npm: `package.json` at the root, at the declared `directory`, or in
 * a workspace member (`workspaces` in the root package.json, or pnpm-workspace.yaml); PyPI:
 * `pyproject.toml` (`[project]` or `[tool.poetry]` name, PEP 503-normalised), `setup.cfg`
 * (`[metadata] name`), or the literal `name=` of the `setup(…)` call in setup.py (setup-py.ts:
 * comments and other strings do not count) — or when a provenance attestation names the
 * repository. Only a published manifest vouches (docs/security.md): a `"private": true` one (a
 * monorepo root names no package), a `directory` inside a test, fixture or example folder, or one
 * the repository's workspaces do not list never does. Otherwise the reason says what the
 * manifest names instead.
 *
 * File access goes through `RepoFileSource` (REST contents API or GraphQL `object(expression:)`),
 * so the rules here are the same for both.
 */
import ini from 'ini';
import { pep503 } from '../../ecosystems/pypi/name.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';
import type { GithubLink } from '../../evidence/github-facts.js';
import type { TreeEntry } from './files.js';
import { setupPyName } from './setup-py.js';

export type GithubClaim =
  | { kind: 'target' }
  | {
      kind: 'package';
      ecosystem: PackageEcosystem;
      name: string;
      directory: string | null;
      provenanceRepository: string | null;
    };

export type FileRead = { kind: 'file'; text: string } | { kind: 'missing' } | { kind: 'error'; reason: string };
export type DirRead = { kind: 'dir'; entries: readonly TreeEntry[] } | { kind: 'missing' } | { kind: 'error'; reason: string };

/** Files of the repository at its default branch. */
export interface RepoFileSource {
  /** The root listing when known: files not in it are not asked for. */
  rootEntries: readonly TreeEntry[] | null;
  /** Read files (paths relative to the root, `/`-separated). */
  read(paths: readonly string[]): Promise<Map<string, FileRead>>;
  /** List directories (one level). */
  list(dirs: readonly string[]): Promise<Map<string, DirRead>>;
}

/** At most this many workspace member manifests are read. */
export const MAX_MEMBER_READS = 50;
/** At most this many workspace glob directories are listed. */
export const MAX_GLOB_LISTINGS = 10;
/** Member manifests are read this many at a time (stopping at the first match). */
const MEMBER_READ_CHUNK = 10;

/** A repository path from a declared `directory`: no `..`, no leading `./` or slashes; null when empty or unsafe. */
export function normaliseDirectory(directory: string | null): string | null {
  if (directory === null) return null;
  const segments = directory
    .trim()
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.some((s) => s === '..' || s.includes('\0'))) return null;
  return segments.join('/');
}

function join(dir: string, file: string): string {
  return dir === '' ? file : `${dir}/${file}`;
}

/** `git+https://github.com/O/R.git/`, `github.com/o/r`, `git@github.com:o/r` → `github.com/o/r`. */
export function repositoryKey(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^git\+/, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^[^@/]+@([^:/]+):/, '$1/')
    .replace(/^[^@/]+@/, '')
    .replace(/^www\./, '')
    .replace(/[#?].*$/, '')
    .replace(/(?<!\/)\/+$/, '')
    .replace(/\.git$/, '')
    .replace(/(?<!\/)\/+$/, '');
}

/** A manifest's project name as PyPI compares it: trimmed, then PEP 503 normalised. */
function pypiName(name: string): string {
  return pep503(name.trim());
}

function quoted(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 79)}…` : value);
}

export interface LinkInput {
  claim: GithubClaim;
  host: string;
  /** `owner/name` as the API spells it. */
  fullName: string;
  /** Every spelling of the repository that counts (as asked, as the API spells it). */
  names: readonly string[];
  branch: string;
  files: RepoFileSource;
}

export async function verifyLink(input: LinkInput): Promise<GithubLink> {
  const { claim } = input;
  if (claim.kind === 'target') return { verifiedBy: 'target', reason: 'the target is the repository itself' };
  if (claim.provenanceRepository !== null) {
    const attested = repositoryKey(claim.provenanceRepository);
    if (input.names.some((name) => repositoryKey(`${input.host}/${name}`) === attested)) {
      return { verifiedBy: 'provenance', reason: `a provenance attestation names ${input.host}/${input.fullName}` };
    }
  }
  const parsers = await manifestParsers();
  return VERIFIERS[claim.ecosystem](claim.name, normaliseDirectory(claim.directory), input.branch, input.files, parsers);
}

type Verifier = (name: string, directory: string | null, branch: string, files: RepoFileSource, parsers: ManifestParsers) => Promise<GithubLink>;

/** How each package ecosystem's manifests name the package (their files: ecosystems/<id>/rules.ts). */
const VERIFIERS: Record<PackageEcosystem, Verifier> = { npm: verifyNpm, pypi: verifyPypi };

interface ManifestParsers {
  yaml: typeof import('yaml').parse;
  toml: typeof import('smol-toml').parse;
}

let parsersLoaded: Promise<ManifestParsers> | undefined;

/** The YAML and TOML parsers, loaded by the first link to verify (a warm run, served from the facts cache, verifies none). */
function manifestParsers(): Promise<ManifestParsers> {
  parsersLoaded ??= Promise.all([import('yaml'), import('smol-toml')]).then(([yaml, toml]) => ({ yaml: yaml.parse, toml: toml.parse }));
  return parsersLoaded;
}

function rootHasFile(files: RepoFileSource, name: string): boolean {
  return files.rootEntries === null || files.rootEntries.some((e) => e.type === 'file' && e.path === name);
}

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

function packageJsonName(text: string): Parsed<{ name: string | null; workspaces: string[]; private: boolean }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'is not valid JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, reason: 'is not a JSON object' };
  const record = json as Record<string, unknown>;
  const name = typeof record.name === 'string' ? record.name : null;
  const ws = record.workspaces;
  const list = Array.isArray(ws) ? ws : typeof ws === 'object' && ws !== null ? (ws as { packages?: unknown }).packages : undefined;
  const workspaces = Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
  // npm refuses to publish a package whose `private` is truthy.
  return { ok: true, value: { name, workspaces, private: Boolean(record.private) } };
}

function pnpmPackages(text: string, parseYaml: ManifestParsers['yaml']): string[] {
  try {
    const doc = parseYaml(text, { maxAliasCount: 10, logLevel: 'silent' }) as unknown;
    const packages = typeof doc === 'object' && doc !== null ? (doc as { packages?: unknown }).packages : undefined;
    return Array.isArray(packages) ? packages.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** A workspace glob: a literal directory, or a literal parent and one wildcard segment (`packages/*`, `plugins/eslint-*`). */
interface MemberPattern {
  parent: string;
  /** Null for a literal directory (`parent` is the member). */
  match: RegExp | null;
}

export function memberPattern(glob: string): MemberPattern | null {
  if (glob.startsWith('!')) return null;
  const segments = glob
    .trim()
    .replace(/(?<!\/)\/+$/, '')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  // `packages/**` is read as `packages/*`: members nested deeper are not looked for.
  while (segments.length > 1 && segments[segments.length - 1] === '**' && segments[segments.length - 2] === '**') segments.pop();
  if (segments[segments.length - 1] === '**') segments[segments.length - 1] = '*';
  if (segments.length === 0 || segments.some((s) => s === '..')) return null;
  const last = segments[segments.length - 1] as string;
  const parentSegments = segments.slice(0, -1);
  if (parentSegments.some((s) => /[*?[\]{}]/.test(s))) return null;
  if (!/[*?[\]{}]/.test(last)) return { parent: segments.join('/'), match: null };
  if (/[[\]{}]/.test(last)) return null;
  const source = last.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*+/g, '[^/]*').replace(/\?/g, '[^/]');
  return { parent: parentSegments.join('/'), match: new RegExp(`^${source}$`) };
}

/** Folders whose manifests are test data, examples or installed copies, never the published package. */
const NOT_PUBLISHED_DIR = /^(?:__tests__|__fixtures__|__mocks__|tests?|specs?|fixtures?|test-?fixtures|testdata|e2e|examples?|demos?|samples?|node_modules|\..*)$/i;

/** A directory path with a test, fixture, example or hidden folder in it. */
export function isUnpublishedPath(directory: string): boolean {
  return directory.split('/').some((segment) => NOT_PUBLISHED_DIR.test(segment));
}

/** Whether `directory` is one of the members the workspace globs name (no listing needed). */
export function isWorkspaceMember(directory: string, globs: readonly string[]): boolean {
  const slash = directory.lastIndexOf('/');
  const parent = slash === -1 ? '' : directory.slice(0, slash);
  const base = directory.slice(slash + 1);
  return globs.some((glob) => {
    const pattern = memberPattern(glob);
    if (pattern === null) return false;
    return pattern.match === null ? pattern.parent === directory : pattern.parent === parent && pattern.match.test(base);
  });
}

/** Letters and digits only, lower case: `@scope/my-pkg` → `mypkg` (its last part). */
function squash(value: string): string {
  return (value.split('/').pop() ?? value).toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Members most likely to be the package first (directory named like it), then in order. */
function byLikeness(members: readonly string[], name: string): string[] {
  const wanted = squash(name);
  const score = (dir: string): number => {
    const base = squash(dir);
    if (base === wanted) return 0;
    if (wanted !== '' && (base.includes(wanted) || wanted.includes(base))) return 1;
    return 2;
  };
  return [...members].sort((a, b) => score(a) - score(b));
}

interface MemberSearch {
  members: string[];
  /** Reasons some globs could not be listed. */
  problems: string[];
}

async function resolveMembers(globs: readonly string[], files: RepoFileSource): Promise<MemberSearch> {
  const patterns = globs.map(memberPattern).filter((p): p is MemberPattern => p !== null);
  const literal = patterns.filter((p) => p.match === null).map((p) => p.parent);
  const wildcard = patterns.filter((p) => p.match !== null);
  const parents = [...new Set(wildcard.map((p) => p.parent))];
  const problems: string[] = [];
  if (parents.length > MAX_GLOB_LISTINGS) problems.push(`only ${MAX_GLOB_LISTINGS} of ${parents.length} workspace globs were listed`);
  const listed = parents.length === 0 ? new Map<string, DirRead>() : await files.list(parents.slice(0, MAX_GLOB_LISTINGS));
  const members = new Set(literal);
  for (const pattern of wildcard) {
    const listing = listed.get(pattern.parent);
    if (listing === undefined) continue;
    if (listing.kind === 'error') {
      problems.push(`could not list ${pattern.parent || 'the root'}: ${listing.reason}`);
      continue;
    }
    if (listing.kind === 'missing') continue;
    for (const entry of listing.entries) {
      if (entry.type === 'dir' && pattern.match?.test(entry.path)) members.add(join(pattern.parent, entry.path));
    }
  }
  return { members: [...members], problems: [...new Set(problems)] };
}

async function verifyNpm(name: string, directory: string | null, branch: string, files: RepoFileSource, parsers: ManifestParsers): Promise<GithubLink> {
  const at = `at ${branch}`;
  const dirPath = directory === null ? null : join(directory, 'package.json');
  const first = [
    ...(dirPath === null ? [] : [dirPath]),
    ...(rootHasFile(files, 'package.json') ? ['package.json'] : []),
    ...(rootHasFile(files, 'pnpm-workspace.yaml') ? ['pnpm-workspace.yaml'] : []),
  ];
  const reads = first.length === 0 ? new Map<string, FileRead>() : await files.read(first);
  const notes: string[] = [];

  // The root manifest and the workspace list first: they decide which manifests can vouch.
  const root = reads.get('package.json');
  const rootParsed = root?.kind === 'file' ? packageJsonName(root.text) : null;
  const pnpm = reads.get('pnpm-workspace.yaml');
  const globs = [...(rootParsed?.ok ? rootParsed.value.workspaces : []), ...(pnpm?.kind === 'file' ? pnpmPackages(pnpm.text, parsers.yaml) : [])];

  if (dirPath !== null && directory !== null) {
    const read = reads.get(dirPath);
    const where = `package.json in ${directory} ${at}`;
    if (read?.kind === 'file') {
      const parsed = packageJsonName(read.text);
      if (parsed.ok && parsed.value.name === name) {
        // Named, but only a published package's manifest vouches for it.
        const refusal = parsed.value.private
          ? `${where} names ${quoted(name)} but is private (npm never publishes it)`
          : isUnpublishedPath(directory)
            ? `${where} names ${quoted(name)} but ${directory} is a test, fixture or example folder, not a published package`
            : globs.length > 0 && !isWorkspaceMember(directory, globs)
              ? `${where} names ${quoted(name)} but ${directory} is not one of the repository's workspaces`
              : null;
        if (refusal === null) return { verifiedBy: 'manifest', reason: `${where} names ${quoted(name)}` };
        notes.push(refusal);
      } else {
        notes.push(
          parsed.ok
            ? parsed.value.name === null
              ? `${where} has no name`
              : `${where} names ${quoted(parsed.value.name)}, not ${quoted(name)}`
            : `${where} ${parsed.reason}`,
        );
      }
    } else if (read?.kind === 'error') {
      notes.push(`could not read package.json in ${directory} ${at}: ${read.reason}`);
    } else {
      notes.push(`no package.json in ${directory} ${at}`);
    }
  }

  if (rootParsed !== null) {
    if (rootParsed.ok) {
      if (rootParsed.value.name === name && !rootParsed.value.private) return { verifiedBy: 'manifest', reason: `package.json ${at} names ${quoted(name)}` };
      notes.push(
        rootParsed.value.name === null
          ? `package.json ${at} has no name`
          : rootParsed.value.name === name
            ? `package.json ${at} names ${quoted(name)} but is private (a monorepo root names no published package)`
            : `package.json ${at} names ${quoted(rootParsed.value.name)}, not ${quoted(name)}`,
      );
    } else {
      notes.push(`package.json ${at} ${rootParsed.reason}`);
    }
  } else if (root?.kind === 'error') {
    notes.push(`could not read package.json ${at}: ${root.reason}`);
  } else if (directory === null) {
    notes.push(`no package.json at the default branch (${branch})`);
  }

  if (globs.length > 0) {
    const search = await resolveMembers(globs, files);
    const candidates = byLikeness(search.members, name).filter((m) => m !== directory);
    const toRead = candidates.slice(0, MAX_MEMBER_READS);
    let checked = 0;
    const failures: string[] = [];
    for (let i = 0; i < toRead.length; i += MEMBER_READ_CHUNK) {
      const chunk = toRead.slice(i, i + MEMBER_READ_CHUNK);
      const memberReads = await files.read(chunk.map((m) => join(m, 'package.json')));
      for (const member of chunk) {
        const read = memberReads.get(join(member, 'package.json'));
        if (read?.kind === 'error') failures.push(read.reason);
        if (read?.kind !== 'file') continue;
        checked += 1;
        const parsed = packageJsonName(read.text);
        if (parsed.ok && parsed.value.name === name && !parsed.value.private && !isUnpublishedPath(member)) {
          return { verifiedBy: 'manifest', reason: `package.json in workspace member ${member} ${at} names ${quoted(name)}` };
        }
      }
    }
    const beyond = candidates.length > toRead.length ? ` (only ${toRead.length} of ${candidates.length} were read)` : '';
    notes.push(`none of the ${checked} workspace member manifests read names it${beyond}`);
    notes.push(...search.problems);
    if (failures.length > 0) notes.push(`${failures.length} member manifests could not be read (${failures[0]})`);
  }
  return { verifiedBy: null, reason: notes.join('; ') };
}

/** The project name a Python manifest declares; null when it declares none; a reason when it cannot be read. */
export function pythonProjectName(
  file: 'pyproject.toml' | 'setup.cfg' | 'setup.py',
  text: string,
  parseToml: ManifestParsers['toml'],
): Parsed<string | null> {
  if (file === 'pyproject.toml') {
    let doc: Record<string, unknown>;
    try {
      doc = parseToml(text) as Record<string, unknown>;
    } catch {
      return { ok: false, reason: 'is not valid TOML' };
    }
    const project = doc.project as Record<string, unknown> | undefined;
    const poetry = (doc.tool as Record<string, unknown> | undefined)?.poetry as Record<string, unknown> | undefined;
    const name = typeof project?.name === 'string' ? project.name : typeof poetry?.name === 'string' ? poetry.name : null;
    return { ok: true, value: name };
  }
  if (file === 'setup.cfg') {
    try {
      const doc = ini.parse(text) as Record<string, unknown>;
      const metadata = doc.metadata as Record<string, unknown> | undefined;
      return { ok: true, value: typeof metadata?.name === 'string' ? metadata.name.trim() : null };
    } catch {
      return { ok: false, reason: 'could not be parsed' };
    }
  }
  // setup.py is code: only the literal `name=` of its setup(…) call is read, never run.
  return { ok: true, value: setupPyName(text) };
}

const PYTHON_MANIFESTS = ['pyproject.toml', 'setup.cfg', 'setup.py'] as const;

async function verifyPypi(name: string, directory: string | null, branch: string, files: RepoFileSource, parsers: ManifestParsers): Promise<GithubLink> {
  const at = `at ${branch}`;
  const bases = directory === null ? [''] : [directory, ''];
  const paths = bases.flatMap((base) =>
    PYTHON_MANIFESTS.filter((file) => base !== '' || rootHasFile(files, file)).map((file) => join(base, file)),
  );
  const reads = paths.length === 0 ? new Map<string, FileRead>() : await files.read(paths);
  const wanted = pypiName(name);
  const notes: string[] = [];
  let sawManifest = false;
  for (const base of bases) {
    const where = base === '' ? at : `in ${base} ${at}`;
    for (const file of PYTHON_MANIFESTS) {
      const read = reads.get(join(base, file));
      if (read === undefined || read.kind === 'missing') continue;
      sawManifest = true;
      if (read.kind === 'error') {
        notes.push(`could not read ${file} ${where}: ${read.reason}`);
        continue;
      }
      const declared = pythonProjectName(file, read.text, parsers.toml);
      if (!declared.ok) {
        notes.push(`${file} ${where} ${declared.reason}`);
        continue;
      }
      if (declared.value === null) continue;
      if (pypiName(declared.value) === wanted) {
        return { verifiedBy: 'manifest', reason: `${file} ${where} names ${quoted(declared.value)}` };
      }
      notes.push(`${file} ${where} names ${quoted(declared.value)}, not ${quoted(name)}`);
    }
  }
  if (!sawManifest) return { verifiedBy: null, reason: `no pyproject.toml, setup.cfg or setup.py at the default branch (${branch})` };
  if (notes.length === 0) return { verifiedBy: null, reason: `no Python manifest ${at} declares a project name` };
  return { verifiedBy: null, reason: notes.join('; ') };
}
