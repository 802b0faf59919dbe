/**
 * `yarn.lock`, classic (v1, parsed with @yarnpkg/lockfile) and berry (Yarn 2+, `__metadata`,
 * parsed with @yarnpkg/parsers' `parseSyml`).
 *
 * A yarn.lock keys each package by the specifiers that resolved to it (`chalk@^4.1.0,
 * chalk@4.1.0:`), and packages reach their dependencies by specifier too, so the graph is
 * exact. What the lockfile does not say is which packages the project asked for, and whether
 * for development:
 * - classic: the manifests from the context (root `package.json` and workspace ones) give the
 *   roots and their groups; without them the packages nothing else depends on are taken as
 *   direct, all for production (a note says so);
 * - berry: the `workspace:` entries list each workspace's dependencies (dev ones merged in);
 *   the workspace's `package.json` from the context, when given, says which are dev.
 * Dev = not reachable from a production root. A classic entry yarn does not use as written
 * (no `resolved`, or a version outside a range of its key) is unplaced: yarn resolves it anew.
 * `patch:` entries stand for the package they patch, the locator the patch names when the
 * lockfile has no entry of it (a note names a patch file of the project's, docs/security.md); `workspace:` entries are the project; other protocols (git, file, portal, link, exec,
 * tarball URLs) are skipped with a note. An `npm:` release fetched from the `__archiveUrl` yarn
 * writes (a private registry's tarball) is that release, with the URL as where it resolves from.
 */
// The named export: the package is CommonJS flagged `__esModule`, whose `default` is something else.
import { parse as parseClassic } from '@yarnpkg/lockfile';
import { parseSyml } from '@yarnpkg/parsers';
import { lockedVersion } from './npm-version.js';
import semver from 'semver';
import { z } from 'zod';
import { planDependency } from '../ecosystems/npm/dependency-plan.js';
import { LockfileError, type DeclaredDependency, type PatchRef, type SkippedEntry } from '../audit/types.js';
import { defineReader } from './define-reader.js';
import { chainsFrom, graphStanding, reachable, unreferenced, withVia } from './graph.js';
import { Attribution, type RootDeclaration } from './npm-attribution.js';
import { manifestAt, workspaceManifests, type Manifest } from './package-json.js';
import { npmSourceKind, remoteSource, skippedEntry, unplacedSource, withDeclaredNames, type SourceKind } from './source-kind.js';
import { dirOf, LineIndex, parserMessage, quote, splitLines } from './text.js';
import type { InputContext, InputReader, ParsedInput } from './types.js';
import { validateShape } from './validate.js';

interface Header {
  /** The key text without surrounding quotes, as the parsers key the entry (berry). */
  key: string;
  /** Each specifier of the header (classic keys entries by each). */
  specs: string[];
  line: number;
}

/** Entry headers: unindented, non-comment lines ending in `:`. */
function headers(text: string): Header[] {
  const found: Header[] = [];
  splitLines(text).forEach((line, index) => {
    if (line === '' || /^[\s#]/.test(line) || !line.trimEnd().endsWith(':')) return;
    const raw = line.trimEnd().slice(0, -1);
    const key = unquote(raw);
    found.push({ key, specs: raw.split(/,\s*/).map(unquote), line: index + 1 });
  });
  return found;
}

function unquote(text: string): string {
  const trimmed = text.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

/** `name@range` → name and range (the name may be scoped). */
function splitSpec(spec: string): { name: string; range: string } | null {
  const at = spec.indexOf('@', 1);
  return at < 0 ? null : { name: spec.slice(0, at), range: spec.slice(at + 1) };
}

export const readYarnLock: InputReader = defineReader((text, file, context) =>
  /^__metadata:/m.test(text) ? readBerry(text, file, context) : readClassic(text, file, context),
);

// ---------------------------------------------------------------------------------------------
// Classic

const ClassicEntry = z.object({
  version: z.string(),
  resolved: z.string().optional(),
  integrity: z.string().optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
  optionalDependencies: z.record(z.string(), z.string()).optional(),
});

function readClassic(text: string, file: string, context: InputContext | undefined): ParsedInput {
  const conflict = splitLines(text).findIndex((line) => line.startsWith('<<<<<<<'));
  if (conflict >= 0) throw new LockfileError(file, conflict + 1, 'unresolved merge conflict');
  const unterminated = unterminatedStringLine(text);
  if (unterminated !== null) throw new LockfileError(file, unterminated, 'invalid yarn.lock: unterminated string');
  let object: Record<string, unknown>;
  try {
    // A comment as the very last thing, without a newline, sends the classic tokenizer into a loop.
    object = parseClassic(text.endsWith('\n') ? text : `${text}\n`, file).object as Record<string, unknown>;
  } catch (error) {
    // The parser's messages end with its (unreliable) position and may dump the token: keep the words.
    const detail = parserMessage(error)
      .replace(/(?<!\s)\s*\d+:\d+ in .*$/, '')
      .replace(/:?\s*\{.*$/, '');
    throw new LockfileError(file, classicErrorLine(text), `invalid yarn.lock: ${detail}`);
  }

  interface Node {
    name: string;
    /** Null for an entry no registry serves: a node of the graph, not a package to audit. */
    version: string | null;
    entry: z.infer<typeof ClassicEntry>;
    line: number;
  }
  const notes: string[] = [];
  const bySpec = new Map<string, Node>();
  const nodes: Node[] = [];
  // Each skipped entry with the node standing for it, so the graph says whether it is direct or dev.
  const foreign: { node: Node; entry: SkippedEntry }[] = [];
  for (const header of headers(text)) {
    const raw = object[header.specs[0] ?? ''];
    if (raw === undefined) continue;
    const entry = validateShape(ClassicEntry, raw, file, () => header.line);
    const spec = splitSpec(header.specs[0] ?? '');
    const plan = spec === null ? null : planDependency(spec.name, spec.range);
    const version = lockedVersion(entry.version);
    if (plan === null || plan.kind === 'skip' || version === null) {
      const note = `${file}:${header.line}: ${quote(header.specs[0])} skipped: ${plan?.kind === 'skip' ? plan.reason : 'not a registry package'}`;
      // A registry range whose locked version npm cannot read (`latest`, `^4.1.0`) is fetched from
      // `resolved`, or resolved anew without one: code nerq cannot place, like a URL (docs/security.md, "Lockfile injection").
      const unreadable = plan !== null && plan.kind !== 'skip' && version === null;
      // Without `resolved`, yarn resolves the descriptor anew: no host the lockfile names.
      const unplaced = (resolved: string | undefined): SourceKind | null => (resolved === undefined ? unplacedSource(header.specs[0] ?? spec?.name ?? '') : npmSourceKind(resolved));
      const kind = spec === null ? null : (npmSourceKind(spec.range) ?? (unreadable ? unplaced(entry.resolved) : null));
      if (spec === null || kind === null) {
        notes.push(note);
        continue;
      }
      const node: Node = { name: spec.name, version: null, entry, line: header.line };
      nodes.push(node);
      for (const s of header.specs) bySpec.set(s, node);
      foreign.push({ node, entry: skippedEntry('npm', spec.name, file, header.line, kind, note) });
      continue;
    }
    // Yarn uses an entry only with its `resolved` URL, and only for ranges its version satisfies;
    // otherwise it resolves the descriptor anew from the registry: a release nerq never saw
    // (docs/security.md, "Lockfile injection"). Never audited as the version it names.
    const unpinned = entry.resolved === undefined ? 'not pinned (no resolved URL): yarn resolves the range anew' : unsatisfied(header.specs, version);
    if (unpinned !== null) {
      const note = `${file}:${header.line}: ${quote(header.specs[0])} skipped: ${unpinned}`;
      const node: Node = { name: plan.name, version: null, entry, line: header.line };
      nodes.push(node);
      for (const s of header.specs) bySpec.set(s, node);
      foreign.push({ node, entry: skippedEntry('npm', plan.name, file, header.line, unplacedSource(header.specs[0] ?? plan.name), note) });
      continue;
    }
    const node: Node = { name: plan.name, version, entry, line: header.line };
    nodes.push(node);
    for (const s of header.specs) bySpec.set(s, node);
  }
  const edges = (node: Node): Node[] =>
    Object.entries({ ...node.entry.dependencies, ...node.entry.optionalDependencies }).flatMap(([name, range]) => bySpec.get(`${name}@${range}`) ?? []);

  const rootDir = dirOf(file);
  const root = manifestAt(context, rootDir, '.');
  const manifests: { dir: string; manifest: Manifest }[] =
    root === null ? [] : [{ dir: '.', manifest: root }, ...(root.workspaces !== null ? workspaceManifests(context, rootDir) : [])];
  const declared = new Map<Node, RootDeclaration[]>();
  const prodRoots: Node[] = [];
  for (const { dir, manifest } of manifests) {
    for (const declaration of manifest.declarations) {
      const node = bySpec.get(`${declaration.key}@${declaration.spec}`);
      if (node === undefined) continue; // a workspace sibling or a local folder
      const list = declared.get(node) ?? [];
      list.push({ workspace: dir, key: declaration.key, group: declaration.group });
      declared.set(node, list);
      if (declaration.group !== 'dev') prodRoots.push(node);
    }
  }
  if (root === null) {
    notes.push(`${file}: no package.json next to it: direct dependencies are guessed (packages nothing else depends on) and none is taken as dev`);
    for (const node of unreferenced(nodes, edges)) {
      declared.set(node, [{ workspace: '.', key: node.name, group: 'prod' }]);
      prodRoots.push(node);
    }
  }
  const prod = reachable(prodRoots, edges);
  const chains = chainsFrom(declared.keys(), edges, (node) => node.name);
  const attribution = new Attribution(file, rootDir, root !== null && root.workspaces !== null, context);
  const dependencies: DeclaredDependency[] = nodes.flatMap((node) =>
    node.version === null
      ? []
      : withVia(
          attribution.entries(
            { name: node.name, version: node.version, dev: !prod.has(node), line: node.line, resolved: node.entry.resolved ?? null, integrity: node.entry.integrity ?? null },
            declared.get(node) ?? [],
          ),
          chains.get(node),
        ),
  );
  // Without the manifests the roots are guessed: the lockfile cannot tell whether a skipped entry is direct or dev.
  // A workspace's entry is reported where its package.json declares it, as its packages are.
  const skipped = foreign.map(({ node, entry }) => attribution.placed(root === null ? entry : { ...entry, ...graphStanding(node, declared, prod) }, declared.get(node) ?? []));
  notes.push(...skipped.map((entry) => entry.note));
  return { file, format: 'yarn-classic', dependencies, notes, skipped };
}

/**
 * Why a classic entry's version is not what yarn installs for its key, or null: the first
 * descriptor whose npm range (an alias's too) the version does not satisfy. Tags and other
 * specifiers are not ranges and are left aside; prereleases count as satisfying (the lenient
 * reading: only a version plainly outside a range is inconsistent).
 */
function unsatisfied(specs: readonly string[], version: string): string | null {
  for (const descriptor of specs) {
    const spec = splitSpec(descriptor);
    const plan = spec === null ? null : planDependency(spec.name, spec.range);
    if (plan?.kind !== 'registry' || semver.validRange(plan.spec, { loose: true }) === null) continue;
    if (!semver.satisfies(version, plan.spec, { loose: true, includePrerelease: true })) {
      return `the locked version ${version} does not satisfy ${quote(descriptor)}: yarn resolves the range anew`;
    }
  }
  return null;
}

/**
 * The descriptor of a berry entry that names another package than the one it resolves to
 * (`chalk@npm:^4.1.0` → `evil@npm:1.0.0`), or null. An alias (`chalk@npm:evil@^1`) names its
 * target, and a patch its original: neither is a substitution.
 */
function substituted(key: string, resolvedName: string): string | null {
  for (const descriptor of key.split(/,\s*/)) {
    const spec = splitSpec(descriptor.trim());
    if (spec === null) continue;
    let name = spec.name;
    const alias = /^npm:((?:@[^/@]+\/)?[^@]+)@/.exec(spec.range);
    if (alias?.[1] !== undefined) name = alias[1];
    if (spec.range.startsWith('patch:')) {
      const inner = splitSpec(safeDecode(spec.range.slice('patch:'.length).split('#')[0] ?? ''));
      if (inner !== null) name = inner.name;
    }
    if (name !== resolvedName) return descriptor.trim();
  }
  return null;
}

/** The locator a `patch:` reference patches, decoded (`patch:resolve@npm%3A1.22.1#…` → `resolve@npm:1.22.1`); null for another reference. */
function patchedLocator(reference: string): string | null {
  return reference.startsWith('patch:') ? safeDecode(reference.slice('patch:'.length).split('#')[0] ?? '') : null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The first line with an unterminated string. Classic strings never span lines, and the
 * classic tokenizer, given a string with no closing quote anywhere after it, reads past the
 * end of the text, appending "undefined" until V8's string limit (seconds and gigabytes before
 * it fails): such a file is refused before it gets there. The walk follows the tokenizer's own
 * token boundaries, since a quote opens a string only where a token starts: inside a bare word
 * (`has-fl"x`) it is part of the word, and the next quote on the line opens a string.
 */
function unterminatedStringLine(text: string): number | null {
  const lines = splitLines(text);
  for (const [index, line] of lines.entries()) {
    let i = 0;
    while (i < line.length) {
      const char = line[i] as string;
      if (char === '#') break; // a comment runs to the end of the line
      if (char === '"') {
        const end = closingQuote(line, i);
        if (end === null) return index + 1;
        i = end + 1;
      } else if (/[0-9]/.test(char)) {
        while (i < line.length && /[0-9]/.test(line[i] as string)) i += 1;
      } else if (line.startsWith('true', i) || line.startsWith('false', i)) {
        i += line.startsWith('true', i) ? 4 : 5;
      } else if (/[a-zA-Z/-]/.test(char)) {
        // A bare word runs to `:`, a space, a comma or a line break, quotes included.
        while (i < line.length && !/[: ,\r]/.test(line[i] as string)) i += 1;
      } else {
        i += 1;
      }
    }
  }
  return null;
}

/** The index of the quote closing the string opened at `start`, by the classic tokenizer's rule (a quote after one backslash is escaped, after two it is not), or null. */
function closingQuote(line: string, start: number): number | null {
  for (let i = start + 1; i < line.length; i += 1) {
    if (line[i] === '"' && !(line[i - 1] === '\\' && line[i - 2] !== '\\')) return i;
  }
  return null;
}

/**
 * The line of a classic parse error. The parser's own line count skips comments and runs of
 * blank lines, so each entry is parsed alone until one fails; inside an entry (no comments,
 * no blank lines) its count is exact.
 */
function classicErrorLine(text: string): number | null {
  const lines = splitLines(text);
  const starts = headers(text).map((h) => h.line - 1);
  for (const [index, start] of starts.entries()) {
    const end = starts[index + 1] ?? lines.length;
    try {
      parseClassic(`${lines.slice(start, end).join('\n')}\n`);
    } catch (error) {
      const at = /(\d+):\d+ in /.exec(error instanceof Error ? error.message : String(error));
      return at?.[1] === undefined ? start + 1 : Math.min(start + Number(at[1]), end);
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Berry

const BerryEntry = z.object({
  resolution: z.string(),
  dependencies: z.record(z.string(), z.string()).optional(),
  optionalDependencies: z.record(z.string(), z.string()).optional(),
});
type BerryEntry = z.infer<typeof BerryEntry>;

function readBerry(text: string, file: string, context: InputContext | undefined): ParsedInput {
  let object: Record<string, unknown>;
  try {
    object = parseSyml(text);
  } catch (error) {
    // The line of the parser's offset, counted at each `\n` as every reader counts lines (the
    // parsers also break lines at a lone `\r`, which can name a line past the file's last).
    const mark = (error as { mark?: { position?: number } }).mark;
    const location = (error as { location?: { start?: { offset?: number } } }).location;
    const offset = typeof mark?.position === 'number' ? mark.position : location?.start?.offset;
    const line = typeof offset === 'number' && Number.isInteger(offset) ? new LineIndex(text).lineAt(offset) : null;
    const detail = parserMessage(error).replace(/\s*\(\d+:\d+\)$/, '');
    throw new LockfileError(file, line, `invalid yarn.lock: ${detail}`);
  }

  interface Node {
    key: string;
    entry: BerryEntry;
    line: number | null;
    name: string;
    /** `npm:1.2.3`, `workspace:packages/a`, `patch:…`, … */
    reference: string;
  }
  const lines = new Map(headers(text).map((h) => [h.key, h.line]));
  const bySpec = new Map<string, Node>();
  const byResolution = new Map<string, Node>();
  const nodes: Node[] = [];
  for (const [key, raw] of Object.entries(object)) {
    if (key === '__metadata') continue;
    const line = lines.get(key) ?? null;
    const entry = validateShape(BerryEntry, raw, file, () => line);
    const resolution = splitSpec(entry.resolution);
    if (resolution === null) throw new LockfileError(file, line, `invalid resolution ${quote(entry.resolution)}`);
    const node: Node = { key, entry, line, name: resolution.name, reference: resolution.range };
    nodes.push(node);
    byResolution.set(entry.resolution, node);
    for (const spec of key.split(/,\s*/)) bySpec.set(spec.trim(), node);
  }

  // A patch stands for the package it patches: `patch:resolve@npm%3A1.22.1#…` → `resolve@npm:1.22.1`.
  const target = (node: Node): Node => {
    const inner = patchedLocator(node.reference);
    return inner === null ? node : (byResolution.get(inner) ?? node);
  };
  const find = (name: string, range: string, from: Node): Node | undefined => {
    // A protocol (`npm:`, `github:`, `git+https:`) is part of the descriptor; a bare range is npm's.
    const spec = /^[a-z][a-z0-9+.-]*:/i.test(range) ? `${name}@${range}` : `${name}@npm:${range}`;
    // A path relative to the package that names it (`file:`, `link:`, `portal:`, `exec:`) is
    // keyed bound to that package: `fil@file:./x::locator=app%40workspace%3A.`.
    return bySpec.get(spec) ?? bySpec.get(`${spec}::locator=${encodeURIComponent(from.entry.resolution)}`);
  };
  // The root manifest's `resolutions` replace a descriptor before yarn looks it up: the entry
  // lists the range as the package declares it (`"@types/node": "*"`), the lockfile only the
  // resolution's (`@types/node@npm:18.x`).
  const resolutions = manifestAt(context, dirOf(file), '.')?.overrides ?? [];
  const lookup = (name: string, range: string, from: Node): Node | undefined => {
    let node = find(name, range, from);
    for (const resolution of resolutions) {
      if (node !== undefined) break;
      if (resolution.target === name) node = find(name, resolution.spec, from);
    }
    return node === undefined ? undefined : target(node);
  };
  const edges = (node: Node): Node[] =>
    Object.entries({ ...node.entry.dependencies, ...node.entry.optionalDependencies }).flatMap(([name, range]) => lookup(name, range, node) ?? []);

  const rootDir = dirOf(file);
  const workspaces = nodes.filter((n) => n.reference.startsWith('workspace:'));
  const workspaceProject = workspaces.some((n) => n.reference !== 'workspace:.');
  const attribution = new Attribution(file, rootDir, workspaceProject, context);
  const declared = new Map<Node, RootDeclaration[]>();
  const prodRoots: Node[] = [];
  // The lockfile merges dev dependencies in: only every workspace's manifest tells them apart.
  let groupsKnown = workspaces.length > 0;
  for (const workspace of workspaces) {
    const dir = workspace.reference.slice('workspace:'.length) || '.';
    const manifest = attribution.manifest(dir);
    if (manifest === null) groupsKnown = false;
    for (const [name, range] of Object.entries(workspace.entry.dependencies ?? {})) {
      const node = lookup(name, range, workspace);
      if (node === undefined || node.reference.startsWith('workspace:')) continue;
      const groups = manifest?.declarations.filter((d) => d.key === name).map((d) => d.group) ?? [];
      const group = groups.length > 0 && groups.every((g) => g === 'dev') ? 'dev' : (groups.find((g) => g !== 'dev') ?? 'prod');
      const list = declared.get(node) ?? [];
      list.push({ workspace: dir, key: name, group });
      declared.set(node, list);
      if (group !== 'dev') prodRoots.push(node);
    }
  }
  const prod = reachable(prodRoots, edges);
  const chains = chainsFrom(declared.keys(), edges, (node) => node.name);

  const notes: string[] = [];
  const skipped: SkippedEntry[] = [];
  const dependencies: DeclaredDependency[] = [];
  // The project's patches, by the node they patch.
  const patchesOf = new Map<Node, PatchRef[]>();
  for (const node of nodes) {
    if (node.reference.startsWith('workspace:')) continue;
    const inner = patchedLocator(node.reference);
    if (inner !== null) {
      // yarn's own compatibility patches (`optional!builtin<compat/fsevents>`, yarn 2-3 `~builtin<…>`) are part of yarn;
      // a patch file of the project's makes the package the registry release plus local code.
      // Without the entry of the package it patches, the patch entry stands for that package itself.
      const patch = safeDecode(/#(.*?)(?:::|$)/.exec(node.reference)?.[1] ?? '');
      if (patch !== '' && !/^(?:optional!)?~?builtin</.test(patch)) {
        notes.push(`${file}:${node.line ?? '?'}: ${quote(inner)} is the registry release with the project's patch ${quote(patch)} applied`);
        const list = patchesOf.get(target(node)) ?? [];
        list.push({ path: patch, file, line: node.line });
        patchesOf.set(target(node), list);
      }
    }
  }
  for (const node of nodes) {
    if (node.reference.startsWith('workspace:') || (node.reference.startsWith('patch:') && target(node) !== node)) continue;
    // A patch whose base entry is not in the lockfile: yarn's patch fetcher fetches the locator
    // it names (`A@npm:1.0.0` in `A@patch:A@npm%3A1.0.0#…`), which is what is installed.
    const inner = splitSpec(patchedLocator(node.reference) ?? '');
    const name = inner?.name ?? node.name;
    const reference = inner?.range ?? node.reference;
    const release = reference.startsWith('npm:') ? npmRelease(reference) : null;
    const version = release?.version ?? null;
    if (version === null) {
      const protocol = /^([a-z+]+):/i.exec(reference)?.[1] ?? 'unknown';
      const at = attribution.placeOf(node.line ?? null, declared.get(node) ?? []);
      const note = `${at.file}:${at.line ?? '?'}: ${quote(node.key.split(/,\s*/)[0])} skipped: not a registry package (${protocol}:)`;
      notes.push(note);
      // A local reference without yarn's own suffixes (`#./x::hash=…&locator=…`): the folder it names.
      const kind = reference.startsWith('npm:')
        ? unplacedRelease(reference, inner === null ? node.entry.resolution : `${name}@${reference}`)
        : npmSourceKind(/^(?:file|link|portal|exec):/.test(reference) ? (reference.split(/#|::/)[0] ?? reference) : reference);
      const { direct, dev } = graphStanding(node, declared, prod);
      // A lockfile without workspace entries names no root: then neither flag is known.
      if (kind !== null) {
        const entry = skippedEntry('npm', name, at.file, at.line, kind, note, workspaces.length === 0 ? {} : { direct, ...(groupsKnown ? { dev } : {}) });
        skipped.push(withDeclaredNames(entry, (declared.get(node) ?? []).map((d) => d.key)));
      }
      continue;
    }
    const resolved = release?.archiveUrl ?? null;
    const entries = attribution.entries({ name, version, dev: !prod.has(node), line: node.line, resolved, lockedFor: substituted(node.key, name) }, declared.get(node) ?? []);
    const patches = patchesOf.get(node);
    dependencies.push(...withVia(entries, chains.get(node)).map((d) => (patches === undefined ? d : { ...d, patches })));
  }
  return { file, format: 'yarn-berry', dependencies, notes, skipped };
}

/**
 * The release an `npm:` reference names: its locked version (null when npm cannot read it) and
 * the `__archiveUrl` yarn fetches it from, when yarn wrote one (for a tarball off the registry's
 * conventional path: a private registry such as GitHub Packages or Artifactory, or a registry
 * configured in `.yarnrc.yml` under another URL than the one its tarballs name). The URL is
 * decoded as yarn decodes its locator parameters (`%40scope%2Fname` is `@scope/name`). A
 * release with an http(s) archive URL is the registry release fetched from that URL, as a
 * package-lock entry is from its `resolved`: audited as that release, and its URL checked as
 * `resolved` is (docs/security.md, "Lockfile injection"). Any other reference with parameters
 * is not a release nerq can read (version null).
 */
function npmRelease(reference: string): { version: string | null; archiveUrl: string | null } {
  const cut = reference.indexOf('::');
  if (cut < 0) return { version: lockedVersion(reference.slice('npm:'.length)), archiveUrl: null };
  const version = lockedVersion(reference.slice('npm:'.length, cut));
  const archive = new URLSearchParams(reference.slice(cut + 2)).get('__archiveUrl')?.trim() ?? '';
  const url = URL.parse(archive);
  if (version === null || url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return { version: null, archiveUrl: null };
  return { version, archiveUrl: archive };
}

/**
 * An `npm:` resolution that is not a release nerq can read: a version npm cannot read
 * (`npm:latest`, `npm:^4.1.0`, with or without an `__archiveUrl`), or an archive URL that is not
 * http(s). Code nerq cannot place: remote, with that URL's host when the lockfile names one
 * (docs/security.md, "Lockfile injection").
 */
function unplacedRelease(reference: string, resolution: string): SourceKind {
  const params = reference.includes('::') ? new URLSearchParams(reference.slice(reference.indexOf('::') + 2)) : null;
  const archive = params?.get('__archiveUrl') ?? null;
  return archive === null || archive === '' ? unplacedSource(resolution) : remoteSource(archive);
}
