/**
 * Is this really the package's repository? (starjacking)
 *
 * A package can name any repository, and a typosquat that points at a famous one would inherit
 * its stars and activity. The link is verified when a manifest that publishes the package, at the
 * default branch, names it — npm: `package.json` at the root, at the declared `directory`, or in
 * a workspace member (`workspaces` in the root package.json, pnpm-workspace.yaml or lerna.json,
 * globs matched by lockfiles/workspace-globs.ts; members found from the whole tree when it is
 * known, else by a bounded folder walk: docs/scoring.md, "Starjacking"); PyPI:
 * `pyproject.toml` (`[project]` or `[tool.poetry]` name, PEP 503-normalised), `setup.cfg`
 * (`[metadata] name`), or the literal `name=` of the `setup(…)` call in setup.py (setup-py.ts:
 * comments and other strings do not count, calls naming different names name nothing) — or when a provenance attestation names the
 * repository. Only a published manifest vouches (docs/security.md): a `"private": true` one (a
 * monorepo root names no package), a `directory` inside a test, fixture or example folder, or one
 * the repository's workspaces do not list never does. Otherwise the reason says what the
 * manifest names instead, and `code` why it is not verified (`budget`, `unreadable`, `refused`,
 * `not-named`).
 *
 * File access goes through `RepoFileSource` (REST contents API or GraphQL `object(expression:)`),
 * so the rules here are the same for both.
 */
import ini from 'ini';
import { pep503 } from '../../ecosystems/pypi/name.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';
import type { GithubLink } from '../../evidence/github-facts.js';
import type { WorkspaceGlobs } from '../../lockfiles/workspace-globs.js';
import type { SourceUnavailableCode } from '../../model/source-codes.js';
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

/**
 * `limited`: not asked at all, a request bound was reached (tree-file-source.ts). `oversize`: the
 * file is larger than the cap it was read with (a size limit, the same on every run). An error with
 * neither is a fault (a failure, a rate limit, a malformed answer): another run may read it.
 */
/** A file's text, its absence, or why it could not be read (`code`: the request's failure as a source code, when a request failed). */
export type FileRead = { kind: 'file'; text: string } | { kind: 'missing' } | { kind: 'error'; reason: string; limited?: true; oversize?: true; code?: SourceUnavailableCode };
export type DirRead = { kind: 'dir'; entries: readonly TreeEntry[] } | { kind: 'missing' } | { kind: 'error'; reason: string };

/** Why a link is not verified (`GithubLink.code`). */
export type LinkGap = NonNullable<GithubLink['code']>;

/** Files of the repository at its default branch. */
export interface RepoFileSource {
  /** The root listing when known: files not in it are not asked for. */
  rootEntries: readonly TreeEntry[] | null;
  /** Read files (paths relative to the root, `/`-separated). */
  read(paths: readonly string[]): Promise<Map<string, FileRead>>;
  /** List directories (one level). */
  list(dirs: readonly string[]): Promise<Map<string, DirRead>>;
  /**
   * Every file and folder of the repository (paths from the root) when a whole tree listing is
   * known: workspace globs are then matched against it, with no folder listing.
   */
  allEntries?: readonly TreeEntry[] | null;
}

/** Root files that declare a workspace (npm/yarn/bun `workspaces` is in package.json). */
const WORKSPACE_ROOT_FILES = ['package.json', 'pnpm-workspace.yaml', 'lerna.json'] as const;

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
  /** The workspace glob matcher (picomatch behind it). */
  workspaceGlobs: typeof import('../../lockfiles/workspace-globs.js').workspaceGlobs;
}

let parsersLoaded: Promise<ManifestParsers> | undefined;

/** The YAML and TOML parsers and the workspace globs, loaded by the first link to verify (a warm run, served from the facts cache, verifies none). */
function manifestParsers(): Promise<ManifestParsers> {
  parsersLoaded ??= Promise.all([import('yaml'), import('smol-toml'), import('../../lockfiles/workspace-globs.js')]).then(([yaml, toml, globs]) => ({
    // yaml is CommonJS: bundled (dist/), the dynamic import's namespace holds it as its default only (in Node too, beside its names).
    yaml: yaml.default.parse,
    toml: toml.parse,
    workspaceGlobs: globs.workspaceGlobs,
  }));
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

/** Folders whose manifests are test data, examples or installed copies, never the published package. */
const NOT_PUBLISHED_DIR = /^(?:__tests__|__fixtures__|__mocks__|tests?|specs?|fixtures?|test-?fixtures|testdata|e2e|examples?|demos?|samples?|node_modules|\..*)$/i;

/** A directory path with a test, fixture, example or hidden folder in it. */
export function isUnpublishedPath(directory: string): boolean {
  return directory.split('/').some((segment) => NOT_PUBLISHED_DIR.test(segment));
}

/** Letters and digits only, lower case: `@scope/my-pkg` → `mypkg` (its last part). */
function squash(value: string): string {
  return (value.split('/').pop() ?? value).toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** 0 when the folder is named like the package, 1 when one name holds the other, else 2. */
function likeness(dir: string, name: string): number {
  const wanted = squash(name);
  const base = squash(dir);
  if (base === wanted) return 0;
  if (wanted !== '' && (base.includes(wanted) || wanted.includes(base))) return 1;
  return 2;
}

/** Members most likely to be the package first (directory named like it), then in order. */
function byLikeness(members: readonly string[], name: string): string[] {
  return [...members].sort((a, b) => likeness(a, name) - likeness(b, name));
}

/** Folders a workspace declaration names, as far as the bounds let the search go. */
interface MemberSearch {
  /** Member folders that may hold a published manifest, likeliest first. */
  members: string[];
  /** What stopped or hampered the search, for the reason. */
  problems: string[];
  /** A bound cut the search (folder listings): a member may have been missed. */
  limited: boolean;
  /** A folder could not be listed. */
  unreadable: boolean;
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * The workspace members whose manifests may vouch: folders the globs match (excludes applied),
 * none under a test, fixture or example folder. From the whole tree when the file source knows
 * it (every folder holding a package.json, no request); otherwise by listing folders from each
 * glob's literal base, likeliest first, at most `MAX_GLOB_LISTINGS` listings in all.
 */
async function findMembers(ws: WorkspaceGlobs, files: RepoFileSource, name: string): Promise<MemberSearch> {
  const problems: string[] = [];
  if (ws.ignored.length > 0) problems.push(`${ws.ignored.length} workspace patterns leave the repository and were ignored (${quoted(ws.ignored[0] ?? '')})`);
  const publishable = (dir: string): boolean => ws.matches(dir) && !isUnpublishedPath(dir);
  if (files.allEntries !== undefined && files.allEntries !== null) {
    const manifests = files.allEntries.filter((e) => e.type === 'file' && e.path.endsWith('/package.json')).map((e) => dirOf(e.path));
    return { members: byLikeness(manifests.filter(publishable), name), problems, limited: false, unreadable: false };
  }
  const candidates = new Set(ws.literals.filter(publishable));
  const withoutManifest = new Set<string>();
  let queue = [...new Set(ws.starts.map((s) => s.base))].filter((base) => base === '' || !isUnpublishedPath(base));
  let listings = 0;
  let unreadable = false;
  while (queue.length > 0 && listings < MAX_GLOB_LISTINGS) {
    const batch = queue.slice(0, MAX_GLOB_LISTINGS - listings);
    queue = queue.slice(batch.length);
    listings += batch.length;
    const listed = await files.list(batch);
    const next: string[] = [];
    for (const dir of batch) {
      const listing = listed.get(dir);
      if (listing === undefined || listing.kind === 'missing') continue;
      if (listing.kind === 'error') {
        unreadable = true;
        problems.push(`could not list ${dir || 'the root'}: ${listing.reason}`);
        continue;
      }
      if (!listing.entries.some((e) => e.type === 'file' && e.path === 'package.json')) withoutManifest.add(dir);
      for (const entry of listing.entries) {
        if (entry.type !== 'dir') continue;
        const child = join(dir, entry.path);
        if (isUnpublishedPath(child)) continue;
        if (publishable(child)) candidates.add(child);
        if (ws.mayContain(child)) next.push(child);
      }
    }
    queue = [...queue, ...byLikeness(next, name)];
  }
  const limited = queue.length > 0;
  if (limited) problems.push(`the workspace folders were listed ${MAX_GLOB_LISTINGS} times at most (${queue.length} more not listed)`);
  const members = [...candidates].filter((dir) => !withoutManifest.has(dir));
  return { members: byLikeness(members, name), problems: [...new Set(problems)], limited, unreadable };
}

/** The workspace globs a root declares: package.json `workspaces`, pnpm-workspace.yaml `packages`, lerna.json `packages`. */
function declaredGlobs(rootPackage: string[], pnpm: string[], lerna: string[] | null): string[] {
  const globs = [...rootPackage, ...pnpm];
  // Lerna without `packages` uses the package manager's workspaces, else its default `packages/*`.
  if (lerna !== null) globs.push(...(lerna.length > 0 ? lerna : globs.length === 0 ? ['packages/*'] : []));
  return globs;
}

/** lerna.json's `packages`: null when there is no lerna.json or it does not parse, `[]` when it names none. */
function lernaPackages(read: FileRead | undefined): string[] | null {
  if (read?.kind !== 'file') return null;
  try {
    const json = JSON.parse(read.text) as unknown;
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
    const packages = (json as { packages?: unknown }).packages;
    return Array.isArray(packages) ? packages.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return null;
  }
}

/** Member manifests read at once: the likeliest member alone when its folder is named like the package, then chunks. */
function readChunks(members: readonly string[], name: string): string[][] {
  const chunks: string[][] = [];
  let rest = [...members];
  if (rest.length > 0 && likeness(rest[0] as string, name) === 0) {
    chunks.push(rest.slice(0, 1));
    rest = rest.slice(1);
  }
  for (let i = 0; i < rest.length; i += MEMBER_READ_CHUNK) chunks.push(rest.slice(i, i + MEMBER_READ_CHUNK));
  return chunks;
}

async function verifyNpm(name: string, directory: string | null, branch: string, files: RepoFileSource, parsers: ManifestParsers): Promise<GithubLink> {
  const at = `at ${branch}`;
  const dirPath = directory === null ? null : join(directory, 'package.json');
  const first = [
    ...(dirPath === null ? [] : [dirPath]),
    ...WORKSPACE_ROOT_FILES.filter((file) => rootHasFile(files, file)),
  ];
  const reads = first.length === 0 ? new Map<string, FileRead>() : await files.read(first);
  const notes: string[] = [];
  const gaps = new Set<LinkGap>();
  const failed = (read: FileRead): void => {
    if (read.kind === 'error') gaps.add(read.limited === true ? 'budget' : 'unreadable');
  };

  // The root manifest and the workspace list first: they decide which manifests can vouch.
  const root = reads.get('package.json');
  const rootParsed = root?.kind === 'file' ? packageJsonName(root.text) : null;
  const pnpm = reads.get('pnpm-workspace.yaml');
  const globs = declaredGlobs(
    rootParsed?.ok ? rootParsed.value.workspaces : [],
    pnpm?.kind === 'file' ? pnpmPackages(pnpm.text, parsers.yaml) : [],
    lernaPackages(reads.get('lerna.json')),
  );
  const ws = parsers.workspaceGlobs(globs);

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
            : globs.length > 0 && !ws.matches(directory)
              ? `${where} names ${quoted(name)} but ${directory} is not one of the repository's workspaces`
              : null;
        if (refusal === null) return { verifiedBy: 'manifest', reason: `${where} names ${quoted(name)}` };
        gaps.add('refused');
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
      failed(read);
      notes.push(`could not read package.json in ${directory} ${at}: ${read.reason}`);
    } else {
      notes.push(`no package.json in ${directory} ${at}`);
    }
  }

  if (rootParsed !== null) {
    if (rootParsed.ok) {
      if (rootParsed.value.name === name && !rootParsed.value.private) return { verifiedBy: 'manifest', reason: `package.json ${at} names ${quoted(name)}` };
      if (rootParsed.value.name === name) gaps.add('refused');
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
    failed(root);
    notes.push(`could not read package.json ${at}: ${root.reason}`);
  } else if (directory === null) {
    notes.push(`no package.json at the default branch (${branch})`);
  }

  if (globs.length > 0) {
    const search = await findMembers(ws, files, name);
    if (search.limited) gaps.add('budget');
    if (search.unreadable) gaps.add('unreadable');
    const candidates = search.members.filter((m) => m !== directory);
    const toRead = candidates.slice(0, MAX_MEMBER_READS);
    if (candidates.length > toRead.length) gaps.add('budget');
    let checked = 0;
    let unread = 0;
    const failures: string[] = [];
    for (const chunk of readChunks(toRead, name)) {
      const memberReads = await files.read(chunk.map((m) => join(m, 'package.json')));
      for (const member of chunk) {
        const read = memberReads.get(join(member, 'package.json'));
        if (read?.kind === 'error') {
          failed(read);
          if (read.limited === true) unread += 1;
          else failures.push(read.reason);
        }
        if (read?.kind !== 'file') continue;
        checked += 1;
        const parsed = packageJsonName(read.text);
        if (!parsed.ok || parsed.value.name !== name) continue;
        if (!parsed.value.private) return { verifiedBy: 'manifest', reason: `package.json in workspace member ${member} ${at} names ${quoted(name)}` };
        gaps.add('refused');
        notes.push(`package.json in workspace member ${member} ${at} names ${quoted(name)} but is private (npm never publishes it)`);
      }
    }
    const beyond = candidates.length > toRead.length ? ` (only ${toRead.length} of ${candidates.length} were read)` : '';
    notes.push(`none of the ${checked} workspace member manifests read names it${beyond}`);
    notes.push(...search.problems);
    if (failures.length > 0) notes.push(`${failures.length} member manifests could not be read (${failures[0]})`);
    if (unread > 0) notes.push(`${unread} member manifests were not read (a request bound was reached)`);
  }
  return { verifiedBy: null, reason: notes.join('; '), code: codeOf(gaps) };
}

/** The one gap a reason code names: a bound that cut the search first, then a failed read, then a manifest that may not vouch. */
function codeOf(gaps: ReadonlySet<LinkGap>): LinkGap {
  return (['budget', 'unreadable', 'refused'] as const).find((gap) => gaps.has(gap)) ?? 'not-named';
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
  let failed: LinkGap | null = null;
  for (const base of bases) {
    const where = base === '' ? at : `in ${base} ${at}`;
    for (const file of PYTHON_MANIFESTS) {
      const read = reads.get(join(base, file));
      if (read === undefined || read.kind === 'missing') continue;
      sawManifest = true;
      if (read.kind === 'error') {
        if (failed !== 'budget') failed = read.limited === true ? 'budget' : 'unreadable';
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
  if (!sawManifest) return { verifiedBy: null, reason: `no pyproject.toml, setup.cfg or setup.py at the default branch (${branch})`, code: 'not-named' };
  if (notes.length === 0) return { verifiedBy: null, reason: `no Python manifest ${at} declares a project name`, code: 'not-named' };
  return { verifiedBy: null, reason: notes.join('; '), code: failed ?? 'not-named' };
}
