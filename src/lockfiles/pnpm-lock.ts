/**
 * `pnpm-lock.yaml`, lockfile v5 (keys `/name/1.2.3_peer@1.0.0`), v6 (`/name@1.2.3(peer@1.0.0)`)
 * and v9 (`name@1.2.3(peer@1.0.0)` in `snapshots`, without peers in `packages`).
 *
 * Direct = what `importers` (or, before workspaces, the top-level `dependencies` maps)
 * declare; dev = not reachable from any importer's production or optional dependencies,
 * computed from the graph for every version alike (v9 no longer writes `dev` flags). Peer
 * variants of one version fold into one package. A package's `version` field, when written, is
 * the release pnpm installs (docs/security.md, "Lockfile injection"). `link:` references (workspace siblings) are
 * the project itself; non-registry packages (git, tarball URLs, `file:`, a runtime's binaries; a registry-shaped
 * key whose resolution is a folder or a git repository too) are skipped with a note.
 * A `file:` folder an importer declares is placed like a package (direct; dev when only dev
 * roots reach it), and what it depends on is reached through it. A package of
 * `patchedDependencies` (`(patch_hash=…)` in its key) is the registry release, with a note
 * that the project's patch is applied on top (docs/security.md). pnpm locks no package for what
 * a package bundles in its tarball: the names its `bundledDependencies` list are listed in its
 * `bundled` (no version: the lockfile gives none), with a note (docs/security.md, "Bundled
 * dependencies").
 *
 * pnpm 11 writes one file of two YAML documents when the project pins its package manager or
 * config dependencies: a first, `---`-opened document (`importers['.'].configDependencies` /
 * `packageManagerDependencies`, with their own `packages` and `snapshots`) and the lockfile after
 * the next `---` line. Both are read, split as pnpm splits them; what the first one pins is
 * installed and run by pnpm, so it is read as the project's direct production dependencies (as
 * `pnpm audit` reads it). Any other second document is refused, as pnpm's YAML loader refuses it.
 */
import { lockedVersion } from './npm-version.js';
import { z } from 'zod';
import type { BundledRef, DeclaredDependency, PatchRef, SkippedEntry } from '../audit/types.js';
import { bundledNote } from './bundled.js';
import { defineReader } from './define-reader.js';
import { chainsFrom, graphStanding, reachable, shortestChain, withVia } from './graph.js';
import { Attribution, type RootDeclaration } from './npm-attribution.js';
import type { DeclarationGroup } from './package-json.js';
import { npmSourceKind, remoteSource, skippedEntry, unplacedSource, withDeclaredNames, type SourceKind } from './source-kind.js';
import { dirOf, quote } from './text.js';
import type { InputContext, InputReader, ParsedInput } from './types.js';
import { validateShape } from './validate.js';
import { parseYaml, type ParsedYaml } from './yaml-text.js';

/** An empty YAML value (`dependencies:` with nothing after it) reads as '' with the failsafe schema. */
const orEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

const Refs = z.record(z.string(), z.union([z.string(), z.object({ specifier: z.string().optional(), version: z.string() })]));
const Importer = z.object({
  dependencies: orEmpty(Refs),
  devDependencies: orEmpty(Refs),
  optionalDependencies: orEmpty(Refs),
  /** Only in pnpm 11's first document: the config dependencies and the package manager the project pins. */
  configDependencies: orEmpty(Refs),
  packageManagerDependencies: orEmpty(Refs),
});
const StringMap = z.record(z.string(), z.string());
const Package = z.object({
  /** Git and local packages name themselves (their key does not, before v9). */
  name: z.string().optional(),
  /**
   * The version pnpm installs, when written: it takes this over the key's (`nameVerFromPkgSnapshot`)
   * and builds the tarball URL from it. Git and local packages write theirs here too.
   */
  version: z.string().optional(),
  resolution: orEmpty(
    z.object({
      tarball: z.string().optional(),
      integrity: z.string().optional(),
      type: z.string().optional(),
      repo: z.string().optional(),
      directory: z.string().optional(),
      /** A runtime's (`node@runtime:26.7.0`) binaries, one per platform, each with the `url` pnpm downloads. */
      variants: z.unknown().optional(),
    }),
  ),
  dependencies: orEmpty(StringMap),
  optionalDependencies: orEmpty(StringMap),
  /** What the package ships in its tarball: a list of names (`true`, all of its dependencies, is not read). */
  bundledDependencies: z.unknown().optional(),
});
const PnpmLock = z.object({
  // `5.4`, `'6.0'`, `'9.0'`, pnpm 7's `5.4-inlineSpecifiers`: it names the format (and is echoed in it).
  lockfileVersion: z.string().regex(/^\d{1,3}(?:\.\d{1,3})?(?:-[A-Za-z]{1,32})?$/, 'not a pnpm lockfile version'),
  importers: orEmpty(z.record(z.string(), orEmpty(Importer))),
  dependencies: orEmpty(Refs),
  devDependencies: orEmpty(Refs),
  optionalDependencies: orEmpty(Refs),
  packages: orEmpty(z.record(z.string(), orEmpty(Package))),
  snapshots: orEmpty(z.record(z.string(), orEmpty(Package))),
  /** `name@version` (or `name`) → the project's patch file; older pnpm wrote the hash alone. */
  patchedDependencies: orEmpty(z.record(z.string(), z.union([z.string(), z.object({ path: z.string().optional() }).passthrough()]))),
});
type Importer = z.infer<typeof Importer>;
type Package = z.infer<typeof Package>;

type Style = 'v5' | 'v6' | 'v9';

const IMPORTER_GROUPS: readonly [keyof Importer, DeclarationGroup][] = [
  ['dependencies', 'prod'],
  ['optionalDependencies', 'optional'],
  ['devDependencies', 'dev'],
  ['configDependencies', 'prod'],
  ['packageManagerDependencies', 'prod'],
];

/** pnpm's document marker and separator (pnpm's lockfile reader, `extractMainDocument`), on text whose CRLF are LF. */
const DOCUMENT_START = '---\n';
const DOCUMENT_SEPARATOR = '\n---\n';

export const readPnpmLock: InputReader = defineReader((text, file, context) => {
  const results = documentsOf(text).map((part) => readDocument(parseYaml(part.text, file, part.line), file, context));
  const main = results[results.length - 1] as ParsedInput;
  return {
    file,
    format: main.format,
    dependencies: results.flatMap((r) => r.dependencies),
    notes: results.flatMap((r) => r.notes),
    skipped: results.flatMap((r) => r.skipped ?? []),
  };
});

/**
 * The documents of the file as pnpm splits it: a file opened by `---` and holding a `---` line
 * further on is the environment document, then the lockfile; any other file is one document
 * (parseYaml refuses a second one). Each part with the line it starts on.
 */
function documentsOf(text: string): { text: string; line: number }[] {
  // Dropping the `\r` of CRLF keeps every line number (lines are counted at `\n`), and so does
  // dropping a byte-order mark, which pnpm strips before it splits.
  const lf = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const separator = lf.startsWith(DOCUMENT_START) ? lf.indexOf(DOCUMENT_SEPARATOR, DOCUMENT_START.length) : -1;
  if (separator < 0) return [{ text: lf, line: 1 }];
  const mainStart = separator + DOCUMENT_SEPARATOR.length;
  return [
    { text: lf.slice(DOCUMENT_START.length, separator), line: 2 },
    { text: lf.slice(mainStart), line: lineCount(lf, mainStart) + 1 },
  ];
}

/** The number of `\n` before `end`. */
function lineCount(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function readDocument(yaml: ParsedYaml, file: string, context: InputContext | undefined): ParsedInput {
  const lock = validateShape(PnpmLock, yaml.value, file, (path) => yaml.lineOf(path));
  const major = Number.parseFloat(lock.lockfileVersion);
  const style: Style = major < 6 ? 'v5' : major < 9 ? 'v6' : 'v9';
  const packages: Record<string, Package | undefined> = lock.packages ?? {};
  const nodes: Record<string, Package | undefined> = style === 'v9' ? (lock.snapshots ?? lock.packages ?? {}) : packages;
  const packageLines = yaml.keyLines(['packages']);
  const nodeLines = style === 'v9' && lock.snapshots !== undefined ? yaml.keyLines(['snapshots']) : packageLines;

  const importers: Record<string, Importer | undefined> = lock.importers ?? {
    '.': { dependencies: lock.dependencies, devDependencies: lock.devDependencies, optionalDependencies: lock.optionalDependencies },
  };
  const workspaceProject = Object.keys(importers).some((dir) => dir !== '.');

  const declared = new Map<string, RootDeclaration[]>();
  const prodRoots: string[] = [];
  for (const [dir, importer] of Object.entries(importers)) {
    for (const [field, group] of IMPORTER_GROUPS) {
      for (const [key, ref] of Object.entries(importer?.[field] ?? {})) {
        const target = refKey(style, key, typeof ref === 'string' ? ref : ref.version);
        if (target === null || !(target in nodes)) continue;
        const list = declared.get(target) ?? [];
        list.push({ workspace: dir, key, group });
        declared.set(target, list);
        if (group !== 'dev') prodRoots.push(target);
      }
    }
  }
  const edges = (key: string): string[] => {
    const node = nodes[key];
    return Object.entries({ ...node?.dependencies, ...node?.optionalDependencies }).flatMap(([name, ref]) => {
      const target = refKey(style, name, ref);
      return target !== null && target in nodes ? [target] : [];
    });
  };
  const prod = reachable(prodRoots, edges);
  const chains = chainsFrom(declared.keys(), edges, (key) => parseKey(style, key)?.name ?? key);

  // Fold peer variants: one package per name@version (and, in v9, per `packages` entry).
  const folded = new Map<string, { name: string; version: string; keys: string[]; packageKey: string; lockedFor: string | null }>();
  const notes: string[] = [];
  const skipped: SkippedEntry[] = [];
  const attribution = new Attribution(file, dirOf(file), workspaceProject, context);
  for (const key of Object.keys(nodes)) {
    const parsed = parseKey(style, key);
    // v9 keeps a package's fields in `packages` under the key without its peers and patch hash.
    const packageKey = style === 'v9' ? (key.split('(')[0] ?? key) : key;
    const keyVersion = parsed === null ? null : lockedVersion(parsed.version);
    // A `version` field of a registry entry is the release pnpm fetches, whatever the key names
    // (docs/security.md, "Lockfile injection"); one npm cannot read leaves the entry unplaced.
    const written = keyVersion === null ? undefined : (packages[packageKey] ?? nodes[key])?.version;
    const version = written === undefined ? keyVersion : lockedVersion(written);
    // A registry-shaped key whose resolution is a folder or a git repository (an injected
    // workspace package, a pruned lockfile) is installed from there, not from the registry.
    if (parsed === null || version === null || localOrGit((packages[packageKey] ?? nodes[key])?.resolution)) {
      const at = attribution.placeOf(nodeLines.get(key) ?? null, declared.get(key) ?? []);
      const note = `${at.file}:${at.line ?? '?'}: ${quote(key)} skipped: not a registry package`;
      notes.push(note);
      // v9 keeps the resolution under the key without its peers and patch hash.
      const pkg = packages[packageKey] ?? packages[key] ?? nodes[key];
      const kind = sourceOf(style, key, pkg) ?? unplaceable(key, parsed);
      if (kind !== null) {
        const name = pkg?.name ?? nameAfterHost(hostedPath(style, key)) ?? nameOfKey(style, key);
        const entry = skippedEntry('npm', name, at.file, at.line, kind, note, graphStanding(key, declared, prod));
        skipped.push(withDeclaredNames(entry, (declared.get(key) ?? []).map((d) => d.key)));
      }
      continue;
    }
    const id = `${parsed.name}@${version}`;
    const foldKey = style === 'v9' ? `${id} ${packageKey}` : id;
    const lockedFor = version === keyVersion ? null : packageKey;
    const entry = folded.get(foldKey) ?? { name: parsed.name, version, keys: [], packageKey, lockedFor };
    entry.keys.push(key);
    folded.set(foldKey, entry);
  }

  const dependencies: DeclaredDependency[] = [];
  for (const { name, version, keys, packageKey, lockedFor } of folded.values()) {
    const id = `${name}@${version}`;
    const line = packageLines.get(packageKey) ?? nodeLines.get(keys[0] as string) ?? null;
    const resolution = packages[packageKey]?.resolution;
    const declarations = keys.flatMap((key) => declared.get(key) ?? []);
    const dev = keys.every((key) => !prod.has(key));
    const entries = attribution.entries({ name, version, dev, line, resolved: resolution?.tarball ?? null, integrity: resolution?.integrity ?? null, lockedFor }, declarations);
    // A patched package is the registry release plus the project's own patch (`patchedDependencies`).
    let patches: PatchRef[] = [];
    if (keys.some((key) => key.includes('patch_hash='))) {
      const patch = lock.patchedDependencies?.[id] ?? lock.patchedDependencies?.[name];
      // pnpm 9 writes `{hash, path}`; pnpm 10 the hash alone (the path is in pnpm-workspace.yaml).
      const path = typeof patch === 'object' && patch.path !== undefined ? patch.path : null;
      patches = [{ path, file, line }];
      notes.push(`${file}:${line ?? '?'}: ${quote(id)} is the registry release with the project's patch${path === null ? '' : ` ${quote(path)}`} applied`);
    }
    // What it bundles is installed from its tarball; pnpm locks no package for it.
    const bundledNames = packages[packageKey]?.bundledDependencies;
    const bundled: BundledRef[] = Array.isArray(bundledNames)
      ? bundledNames.filter((n): n is string => typeof n === 'string').map((n) => ({ name: n, version: null, file, line }))
      : [];
    if (bundled.length > 0) notes.push(bundledNote(file, line, id, bundled));
    dependencies.push(
      ...withVia(entries, shortestChain(chains, keys))
        .map((d) => (patches.length === 0 ? d : { ...d, patches }))
        .map((d) => (bundled.length === 0 ? d : { ...d, bundled })),
    );
  }
  return { file, format: `pnpm-lock@${lock.lockfileVersion}`, dependencies, notes, skipped };
}

/**
 * The reference part of a node key: after `name@` (v9), the key without its leading `/` (before);
 * without the peer and patch suffix (`(react@18.2.0)`, `(patch_hash=…)`) v6 and v9 append.
 */
function referenceOf(style: Style, key: string): string {
  const bare = style === 'v5' ? key : withoutPeerSuffix(key);
  if (style !== 'v9') return bare.replace(/^\//, '');
  const at = bare.indexOf('@', 1);
  return at < 0 ? bare : bare.slice(at + 1);
}

/**
 * `key` without the `(…)` groups closing it (v6, v9: its resolved peers and patch hash), read
 * from the end in one pass: a regular expression anchored at the end retries from every `(` of
 * a hostile key (docs/security.md, "Parsing takes time linear in the input").
 */
function withoutPeerSuffix(key: string): string {
  let end = key.length;
  while (end > 0 && key[end - 1] === ')') {
    const open = key.lastIndexOf('(', end - 2);
    if (open < 0 || key.indexOf(')', open) !== end - 1) break;
    end = open;
  }
  return key.slice(0, end);
}

/** A resolution pnpm installs from a folder or a git repository, not from a registry. */
function localOrGit(resolution: Package['resolution']): boolean {
  return resolution !== undefined && (resolution.directory !== undefined || resolution.repo !== undefined || resolution.type === 'directory' || resolution.type === 'git');
}

/** The package name in a v9 key (`name@<reference>`); null before v9, where a non-registry key names none. */
function nameOfKey(style: Style, key: string): string | null {
  const at = key.indexOf('@', 1);
  return style === 'v9' && at > 0 ? key.slice(0, at) : null;
}

/**
 * Where a non-registry package comes from: its resolution (a local directory, a git repository,
 * a tarball URL), else its key (`file:…`, `git+https://…`, and before v9 `github.com/o/r/<sha>`).
 */
function sourceOf(style: Style, key: string, pkg: Package | undefined): SourceKind | null {
  const reference = referenceOf(style, key);
  const resolution = pkg?.resolution;
  if (resolution?.directory !== undefined || /^(?:file|link):/.test(reference)) return npmSourceKind(/^(?:file|link):/.test(reference) ? reference : `file:${resolution?.directory ?? ''}`);
  if (resolution?.repo !== undefined) return remoteSource(resolution.repo);
  if (resolution?.tarball !== undefined && /^https?:/i.test(resolution.tarball)) return npmSourceKind(resolution.tarball);
  // A runtime pnpm installs (`node@runtime:26.7.0`, `type: variations`): a binary from the URL
  // of the platform's variant, no registry package.
  if (resolution?.type === 'variations' || reference.startsWith('runtime:')) {
    const url = variantUrl(resolution?.variants);
    return url === null ? unplacedSource(key) : remoteSource(url);
  }
  // pnpm keys a package it fetches from another registry than the default by that registry's
  // host (`registry.example.com/pkg/1.0.0`), and before v9 a hosted git package by its host and
  // path (`github.com/o/r/<sha>`): code from that host, not the registry's package.
  const path = hostedPath(style, key);
  const host = hostOfKey(path);
  if (host !== null) return { ...remoteSource(path), host };
  return npmSourceKind(reference);
}

/** The part of a key a host would start: the whole key in v9 (`host/name@version`), its reference before. */
function hostedPath(style: Style, key: string): string {
  return style === 'v9' ? withoutPeerSuffix(key) : referenceOf(style, key);
}

/** The host a key's reference starts with (`registry.example.com/…`), lower-cased; null when it names none. */
function hostOfKey(reference: string): string | null {
  return /^([a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d{1,5})?)\//i.exec(reference)?.[1]?.toLowerCase() ?? null;
}

/**
 * The package a host-prefixed key names after its host, read as pnpm's dependency paths read one
 * (`host/name/version`, `host/@scope/name/version`, `…@version` in the later formats); null when
 * the key names no host or no such name.
 */
function nameAfterHost(reference: string): string | null {
  const host = hostOfKey(reference);
  if (host === null) return null;
  const match = /^((?:@[^/@]+\/)?[^/@]+)[/@]/.exec(reference.slice(reference.indexOf('/') + 1));
  return match?.[1] ?? null;
}

/** The first `url` among a runtime's `variants` (`[{resolution: {url}, targets}]`); null when none names one. */
function variantUrl(variants: unknown): string | null {
  if (!Array.isArray(variants)) return null;
  for (const variant of variants as unknown[]) {
    const resolution: unknown = typeof variant === 'object' && variant !== null ? (variant as { resolution?: unknown }).resolution : null;
    const url: unknown = typeof resolution === 'object' && resolution !== null ? (resolution as { url?: unknown }).url : null;
    if (typeof url === 'string' && url !== '') return url;
  }
  return null;
}

/**
 * A registry key whose version npm cannot read (`name@latest`, `name@^4.1.0`, `name@4.1`) and
 * that names no URL: pnpm fetches the tarball it builds from that version, or re-resolves the
 * specifier, a release nerq never audited. Code nerq cannot place, with no host the lockfile
 * names (docs/security.md, "Lockfile injection"); null for a key with a protocol of its own.
 */
function unplaceable(key: string, parsed: { name: string; version: string } | null): SourceKind | null {
  if (parsed === null || /^[a-z][a-z0-9+.-]*:/i.test(parsed.version)) return null;
  return unplacedSource(key);
}

/**
 * The node key a dependency reference points at; null for workspace links. A `file:` folder or
 * tarball is a node of its own (`name@file:dir` in v9, `file:dir` before), so that what it
 * depends on is reached from the importer that declares it.
 */
function refKey(style: Style, name: string, ref: string): string | null {
  if (ref.startsWith('link:') || ref.startsWith('workspace:')) return null;
  if (ref.startsWith('file:')) return style === 'v9' ? `${name}@${ref}` : ref;
  if (style === 'v9') {
    const base = ref.split('(')[0] ?? ref;
    // An alias (`string-width@4.2.3`) already is a full key; a URL's `@` (`git+ssh://git@host/…`) is not an alias's.
    const at = base.indexOf('@', 1);
    return at > 0 && !base.slice(0, at).includes(':') ? ref : `${name}@${ref}`;
  }
  if (ref.startsWith('/') || (ref.includes('/') && !/^\d/.test(ref))) return ref;
  return style === 'v5' ? `/${name}/${ref}` : `/${name}@${ref}`;
}

/** Name and version (peer suffix dropped) of a registry node key; null for other keys. */
function parseKey(style: Style, key: string): { name: string; version: string } | null {
  if (style === 'v5') {
    const match = /^\/((?:@[^/]+\/)?[^/]+)\/([^/_]+)(?:_.*)?$/.exec(key);
    return match?.[1] !== undefined && match[2] !== undefined ? { name: match[1], version: match[2] } : null;
  }
  const bare = style === 'v6' ? (key.startsWith('/') ? key.slice(1) : null) : key;
  if (bare === null) return null;
  const base = bare.split('(')[0] ?? bare;
  const at = base.indexOf('@', 1);
  // A name with a `/` that is not a scope's (`registry.example.com/pkg`) is a host and a package:
  // another registry's, not a registry package of that name.
  const name = base.slice(0, at);
  return at < 0 || !/^(?:@[^/]+\/)?[^/]+$/.test(name) ? null : { name, version: base.slice(at + 1) };
}
