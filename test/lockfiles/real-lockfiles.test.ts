/**
 * Real lockfiles of public projects (fixtures/lockfiles/real/, sources in fixtures/PROVENANCE.md),
 * read through the same path `nerq audit` takes (`readInputs`: the reader the file's name calls
 * for, with the manifests next to it as context). Every figure below was counted from the file
 * itself, independently of nerq (Python's json / tomllib / PyYAML, or grep), as each comment says.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../../src/audit/detect.js';
import { foldDependencies, subjectKey } from '../../src/audit/fold.js';
import { lockfileMismatch, lockRecords } from '../../src/audit/lockfile-integrity.js';
import type { DeclaredDependency } from '../../src/audit/types.js';
import type { Evidence } from '../../src/evidence/schema.js';
import type { ParsedInput } from '../../src/lockfiles/types.js';
import { TempDirs } from '../cli/audit-helpers.js';
import { evidence } from '../support/evidence-builder.js';
import { bunPins, packageLockPins, pnpmPins, yarnClassicPins, type Pin } from './real-pins.js';

const REAL = new URL('../../fixtures/lockfiles/real/', import.meta.url);
const YARN_STUFF = 'npm__arborist/test/fixtures/yarn-stuff';
const dirs = new TempDirs();
let root: string;

beforeAll(() => {
  // A copy of the corpus with the gzipped lockfiles inflated next to them, as a project has them.
  root = dirs.make('nerq-real-');
  cpSync(REAL, root, { recursive: true });
  for (const gz of [path.join(root, 'vueuse__vueuse', 'pnpm-lock.yaml.gz'), path.join(root, 'npm__cli', 'package-lock.json.gz'), path.join(root, 'MetaMask__core', 'yarn.lock.gz'), path.join(root, 'babel__babel', 'yarn.lock.gz'), path.join(root, 'hoppscotch__hoppscotch', 'pnpm-lock.yaml.gz')]) {
    writeFileSync(gz.slice(0, -'.gz'.length), gunzipSync(readFileSync(gz)));
  }
  // A URL dependency is a URL once the placeholder is an origin again.
  for (const name of ['yarn.lock', 'package.json']) {
    const stuff = path.join(root, YARN_STUFF, name);
    writeFileSync(stuff, readFileSync(stuff, 'utf8').replaceAll('{{REGISTRY}}', 'https://registry.example'));
  }
});

afterAll(() => dirs.cleanUp());

async function read(dir: string, file: string): Promise<ParsedInput> {
  const [input] = await readInputs(path.join(root, dir), [file]);
  if (input === undefined) throw new Error(`nothing read from ${dir}/${file}`);
  return input;
}

/** Distinct `name@version` of the input's registry packages. */
const ids = (input: ParsedInput): Set<string> => new Set(input.dependencies.map((d) => `${d.name}@${d.version}`));
const rowsOf = (input: ParsedInput, name: string): DeclaredDependency[] => input.dependencies.filter((d) => d.name === name);
const versionsOf = (input: ParsedInput, name: string): string[] => [...new Set(rowsOf(input, name).map((d) => d.version ?? 'null'))].sort();
const directRows = (input: ParsedInput): number => input.dependencies.filter((d) => d.direct).length;

/** Shapes every reader must keep on real data: one ecosystem, exact plain versions. */
function expectWellFormed(input: ParsedInput, ecosystem: 'npm' | 'pypi'): void {
  expect(input.dependencies.length).toBeGreaterThan(0);
  expect(input.dependencies.filter((d) => d.ecosystem !== ecosystem)).toEqual([]);
  // No range, protocol (`npm:`, `patch:`, `link:`, `workspace:`) or pnpm peer suffix `(…)` left in a version.
  expect(input.dependencies.filter((d) => d.version === null || /[():^~<>=\s]/.test(d.version))).toEqual([]);
}

describe('pnpm-lock.yaml v9 of a monorepo with catalogs and a patched dependency (vueuse/vueuse)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('vueuse__vueuse', 'pnpm-lock.yaml');
  });

  it('reads every package of `packages` once, with its exact version and no peer suffix', () => {
    expect(input.format).toBe('pnpm-lock@9.0');
    expectWellFormed(input, 'npm');
    // python3 + PyYAML: len(lock['packages']) == 1913 (keys are unique name@version).
    expect(ids(input).size).toBe(1913);
    // snapshot key vitepress@2.0.0-alpha.18(@types/node@26.1.2)(…)(yaml@2.9.0): the version alone.
    expect(versionsOf(input, 'vitepress')).toEqual(['2.0.0-alpha.18']);
    // packages: typescript@5.6.1-rc and typescript@6.0.3.
    expect(versionsOf(input, 'typescript')).toEqual(['5.6.1-rc', '6.0.3']);
    expect(input.skipped ?? []).toEqual([]);
  });

  it('lists what a package bundles with it: pnpm locks no package for it', () => {
    // packages['@parcel/watcher-wasm@2.5.6'] (line 3355 inflated) has bundledDependencies: [napi-wasm],
    // the only bundledDependencies of the file; no key of `packages` names napi-wasm.
    const bundling = input.dependencies.filter((d) => d.bundled !== undefined);
    expect(new Set(bundling.map((d) => `${d.name}@${d.version}`))).toEqual(new Set(['@parcel/watcher-wasm@2.5.6']));
    expect(bundling[0]?.bundled).toEqual([{ name: 'napi-wasm', version: null, file: 'pnpm-lock.yaml', line: 3355 }]);
    expect(rowsOf(input, 'napi-wasm')).toEqual([]);
    expect(input.notes.filter((n) => n.startsWith('pnpm-lock.yaml:3355: "@parcel/watcher-wasm@2.5.6" bundles a dependency in its tarball ("napi-wasm")'))).toHaveLength(1);
  });

  it('takes direct dependencies from the importers, catalog specifiers included, and never a link: workspace', () => {
    // Importer entries (dependencies, devDependencies, optionalDependencies of the 12 importers)
    // whose version is not `link:…`: 106; the 21 `link:` ones are the workspace's own packages.
    expect(directRows(input)).toBe(106);
    // importers['.'].devDependencies.vitepress: { specifier: 'catalog:docs', version: '2.0.0-alpha.18(…)' }.
    expect(rowsOf(input, 'vitepress').filter((d) => d.direct).map((d) => [d.workspace, d.version])).toEqual([['.', '2.0.0-alpha.18']]);
    // importers['packages/core'].dependencies.vue: 3.5.40(typescript@6.0.3); '@vueuse/shared': link:../shared.
    expect(rowsOf(input, 'vue').find((d) => d.workspace === 'packages/core')).toMatchObject({ version: '3.5.40', direct: true, dev: false });
    // The registry copies of @vueuse/* (packages: @vueuse/{core,integrations,metadata,shared}@14.3.0) are
    // pulled in by dependencies; the workspace's own `link:` packages are not audited at all.
    expect(input.dependencies.filter((d) => d.name.startsWith('@vueuse/')).map((d) => `${d.name}@${d.version} ${d.direct}`).sort()).toEqual([
      '@vueuse/core@14.3.0 false',
      '@vueuse/integrations@14.3.0 false',
      '@vueuse/metadata@14.3.0 false',
      '@vueuse/shared@14.3.0 false',
    ]);
  });

  it('keeps the patched package as the registry release it patches, with that release integrity', () => {
    // patchedDependencies: google-font-installer@1.2.0; packages['google-font-installer@1.2.0'].resolution.integrity.
    expect(rowsOf(input, 'google-font-installer').map((d) => [d.version, d.integrity])).toEqual([
      ['1.2.0', 'sha512-0tgwTRphnjiTEUflczlgJU0PVao1Y/oA0ZPYH3d4Twc7Uc8SL36mQyjzxY8KXaVUjID++XDFrGo3aJVNDodE3Q=='],
    ]);
  });

  it('marks the patched package with a patch whose file the lockfile does not name (pnpm 10 writes the hash alone)', () => {
    // patchedDependencies: `google-font-installer@1.2.0: 52aed7…` (the path is in pnpm-workspace.yaml);
    // its entry `google-font-installer@1.2.0:` in `packages` is at line 6264.
    expect(patchedSubjects(input)).toEqual(['google-font-installer@1.2.0 null pnpm-lock.yaml:6264']);
  });
});

describe('yarn.lock of yarn 4 (__metadata version 10) with patch:, npm: aliases and a workspace (prettier/prettier)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('prettier__prettier', 'yarn.lock');
  });

  it('reads every npm: resolution once; patch: entries are the package they patch, the workspace is not one', () => {
    expect(input.format).toBe('yarn-berry');
    expectWellFormed(input, 'npm');
    // 1052 entries (`resolution:` lines); 1049 are `<name>@npm:<version>` (all distinct); the other
    // three are `prettier@workspace:.` and the patch: entries of fsevents@2.3.3 and typescript@6.0.3.
    expect(ids(input).size).toBe(1049);
    expect(versionsOf(input, 'typescript')).toEqual(['6.0.3']);
    expect(versionsOf(input, 'fsevents')).toEqual(['2.3.3']);
    // The project itself is `prettier@workspace:.`; `prettier@npm:3.9.6` is the registry release it depends on.
    expect(versionsOf(input, 'prettier')).toEqual(['3.9.6']);
    expect(input.skipped ?? []).toEqual([]);
    // Both patch: entries are yarn's builtin compatibility patches, part of yarn: no patch of the project's.
    expect(patchedSubjects(input)).toEqual([]);
  });

  it('reports an npm: alias as the package it installs, and as no injection', () => {
    // "react-is-18@npm:react-is@^18.3.1" → react-is@npm:18.3.1; "react-is-19@npm:react-is@^19.2.5" → 19.2.7.
    expect(versionsOf(input, 'react-is')).toEqual(['18.3.1', '19.2.7']);
    expect(rowsOf(input, 'react-is-18')).toEqual([]);
    // "string-width-cjs@npm:string-width@^4.2.0, string-width@npm:^4.1.0, …" → string-width@4.2.3.
    expect(versionsOf(input, 'string-width')).toContain('4.2.3');
    expect(rowsOf(input, 'string-width-cjs')).toEqual([]);
    expect(input.dependencies.filter((d) => d.lockedFor != null)).toEqual([]);
  });

  it('never takes a checksum (a hash of yarn\'s zip) for the tarball integrity', () => {
    // 932 entries carry `checksum: 10c0/…`; none of it is the registry tarball's SRI.
    expect(input.dependencies.filter((d) => d.integrity != null)).toEqual([]);
  });

  it('takes direct and dev from package.json', () => {
    // package.json: 90 dependencies + 59 devDependencies.
    expect(directRows(input)).toBe(149);
    // dependencies.typescript: "6.0.3" (resolved through the patch: entry).
    expect(rowsOf(input, 'typescript')).toMatchObject([{ direct: true, dev: false }]);
    // devDependencies.prettier: "3.9.6" (the project checks itself with the last release).
    expect(rowsOf(input, 'prettier')).toMatchObject([{ version: '3.9.6', direct: true, dev: true }]);
    // @babel/code-frame: 8.0.0 in dependencies; 7.29.7 only pulled in by other packages.
    expect(rowsOf(input, '@babel/code-frame').map((d) => [d.version, d.direct])).toEqual([
      ['8.0.0', true],
      ['7.29.7', false],
    ]);
  });
});

describe('bun.lock (text, JSONC) of a single-package project (honojs/hono)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('honojs__hono', 'bun.lock');
  });

  it('reads every package entry with its integrity', () => {
    expect(input.format).toBe('bun.lock@1');
    expectWellFormed(input, 'npm');
    // python3 (trailing commas removed, json): 1152 `packages` entries, 1012 distinct name@version
    // (nested keys such as "@babel/core/semver" repeat a release), every one with a sha512 fourth field.
    expect(input.dependencies).toHaveLength(1152);
    expect(ids(input).size).toBe(1012);
    expect(input.dependencies.filter((d) => !/^sha512-/.test(d.integrity ?? ''))).toEqual([]);
    expect(rowsOf(input, '@hono/node-server')).toMatchObject([{ version: '2.0.12', integrity: 'sha512-eWpQYr67tqJLeaSUl0Q+TquuYfUdTibpOJlUMV2FfUP7+KqCC5TufnwnlXL6mobZBJbGAYRd7ZvEBDCbLInjhg==' }]);
  });

  it('takes the workspace devDependencies as direct dev, and everything as dev (hono has no dependencies)', () => {
    // workspaces[""]: 24 devDependencies, no dependencies.
    expect(directRows(input)).toBe(24);
    expect(input.dependencies.filter((d) => !d.dev)).toEqual([]);
    expect(rowsOf(input, 'wrangler').filter((d) => d.direct)).toMatchObject([{ version: '4.107.0' }]);
  });
});

describe('bun.lock (configVersion 1) of a workspace with patchedDependencies and overrides (anomalyco/opencode, trimmed)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('anomalyco__opencode', 'bun.lock');
  });

  it('reads the five registry packages at the versions their entries name', () => {
    expect(input.format).toBe('bun.lock@1');
    expectWellFormed(input, 'npm');
    // `overrides` pins @ai-sdk/anthropic to 3.0.111: its entry is that release, whatever the workspace declares (3.0.82).
    expect([...ids(input)].sort()).toEqual(['@ai-sdk/anthropic@3.0.111', '@ai-sdk/openai-compatible@2.0.37', '@ai-sdk/openai@3.0.48', '@ai-sdk/provider-utils@4.0.51', '@ai-sdk/provider@3.0.16']);
  });

  it('marks the release `patchedDependencies` names with its patch file, and no other release of a patched name', () => {
    // patchedDependencies: "@ai-sdk/anthropic@3.0.111" (its entry on line 57); "@ai-sdk/openai@3.0.88" and
    // "@ai-sdk/openai-compatible@2.0.41" patch releases other than the 3.0.48 and 2.0.37 locked here.
    expect(patchedSubjects(input)).toEqual(['@ai-sdk/anthropic@3.0.111 patches/@ai-sdk%2Fanthropic@3.0.111.patch bun.lock:57']);
    expect(patchNotes(input)).toEqual(['bun.lock:57 "@ai-sdk/anthropic@3.0.111" "patches/@ai-sdk%2Fanthropic@3.0.111.patch"']);
  });
});

describe('yarn.lock v1 (classic) with multi-range keys (honojs/hono benchmarks/jsx)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('honojs__hono/benchmarks/jsx', 'yarn.lock');
  });

  it('reads one package per entry, with resolved and integrity', () => {
    expect(input.format).toBe('yarn-classic');
    expectWellFormed(input, 'npm');
    // grep -c '^[^ #].*:$' yarn.lock: 62 entries, all distinct name@version.
    expect(ids(input).size).toBe(62);
    // "domhandler@^5.0.2, domhandler@^5.0.3:" is one entry.
    expect(rowsOf(input, 'domhandler')).toHaveLength(1);
    expect(rowsOf(input, 'typescript')).toMatchObject([
      { version: '5.3.2', direct: true, dev: false, resolved: '{{REGISTRY}}/typescript/-/typescript-5.3.2.tgz#00d1c7c1c46928c5845c1ee8d0cc2791031d4c43' },
    ]);
  });

  it('takes direct and dev from package.json', () => {
    // package.json: 11 dependencies + 2 devDependencies (esbuild, node-html-parser).
    expect(directRows(input)).toBe(13);
    expect(rowsOf(input, 'esbuild')).toMatchObject([{ version: '0.19.8', direct: true, dev: true }]);
    // @esbuild/linux-x64 is an optional dependency of esbuild only: dev.
    expect(rowsOf(input, '@esbuild/linux-x64')).toMatchObject([{ version: '0.19.8', direct: false, dev: true }]);
  });
});

describe("yarn.lock v1 with npm: aliases, git, GitHub, URL and file: dependencies (npm/arborist's yarn-stuff)", () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read(YARN_STUFF, 'yarn.lock');
  });

  it('reports each alias as the package it installs, direct, with its own integrity', () => {
    expect(input.format).toBe('yarn-classic');
    expectWellFormed(input, 'npm');
    // "abbrev@^1.1.1, "pinned@npm:abbrev@1.1.1", "reg@npm:abbrev@^1.1.1"" → abbrev 1.1.1 (sha512);
    // "old@npm:abbrev@1.0.x" → abbrev 1.0.9, pinned by `integrity sha1-…` only.
    expect(input.dependencies.map((d) => [d.name, d.version, d.direct, d.dev, d.integrity?.slice(0, 5)])).toEqual([
      ['abbrev', '1.1.1', true, false, 'sha51'],
      ['abbrev', '1.0.9', true, false, 'sha1-'],
    ]);
    expect(input.dependencies.filter((d) => d.lockedFor != null)).toEqual([]);
  });

  it('reports git, GitHub and URL dependencies as remote, file: ones as local, all direct', () => {
    // package.json: full-git-url (git+https:), ghshort (github:), remote (a tarball URL), symlink and tarball (file:).
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.direct, s.dev])).toEqual([
      ['remote', 'full-git-url', 'github.com', true, false],
      ['remote', 'ghshort', 'github.com', true, false],
      ['remote', 'remote', 'registry.example', true, false],
      ['local', 'symlink', null, true, false],
      ['local', 'tarball', null, true, false],
    ]);
  });
});

describe('package-lock.json v3 of an npm workspaces project (modelcontextprotocol/servers)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('modelcontextprotocol__servers', 'package-lock.json');
  });

  it('reads every node_modules entry but the workspace links', () => {
    expect(input.format).toBe('package-lock@3');
    expectWellFormed(input, 'npm');
    // python3: 299 `packages` keys = root + 4 workspace folders + 4 links + 290 node_modules paths,
    // which hold 284 distinct name@version.
    expect(ids(input).size).toBe(284);
    expect(input.dependencies.filter((d) => d.name.startsWith('@modelcontextprotocol/server-'))).toEqual([]);
    // node_modules/content-type 1.0.5, and 2.0.0 nested under body-parser and type-is.
    expect(versionsOf(input, 'content-type')).toEqual(['1.0.5', '2.0.0']);
    // A scoped package keeps its registry tarball path.
    expect(rowsOf(input, '@modelcontextprotocol/sdk')[0]).toMatchObject({ version: '1.30.0', resolved: '{{REGISTRY}}/@modelcontextprotocol/sdk/-/sdk-1.30.0.tgz' });
  });

  it('attributes direct dependencies to the workspace that declares them', () => {
    // src/everything 5+7, src/filesystem 4+7, src/memory 1+5, src/sequentialthinking 3+6 names = 38.
    expect(directRows(input)).toBe(38);
    expect(rowsOf(input, 'zod').filter((d) => d.direct)).toMatchObject([{ workspace: 'src/everything', version: '4.4.3', dev: false }]);
    expect(rowsOf(input, 'vitest').filter((d) => d.direct).map((d) => d.workspace).sort()).toEqual([
      'src/everything',
      'src/filesystem',
      'src/memory',
      'src/sequentialthinking',
    ]);
    expect(rowsOf(input, '@modelcontextprotocol/sdk').filter((d) => d.direct)).toHaveLength(4);
  });
});

describe('package-lock.json v3 of a 16-workspace monorepo with npm: aliases and bundled dependencies (npm/cli)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('npm__cli', 'package-lock.json');
  });

  it('reads every node_modules entry but the 16 workspace links, aliases as the package they install', () => {
    expect(input.format).toBe('package-lock@3');
    expectWellFormed(input, 'npm');
    // python3: 1241 node_modules entries that are not links, 1020 distinct name@version; 163 of
    // the entries (85 name@version found nowhere else) are bundled in tap's tarball (below): 935.
    expect(ids(input).size).toBe(935);
    // The workspaces (links to workspaces/libnpmaccess, …) are not registry packages.
    expect(rowsOf(input, 'libnpmaccess')).toEqual([]);
    expect(rowsOf(input, 'libnpmversion')).toEqual([]);
    // "node_modules/string-width-cjs": { "name": "string-width", "version": "4.2.3" } at line 13123.
    expect(rowsOf(input, 'string-width-cjs')).toEqual([]);
    expect(rowsOf(input, 'string-width').find((d) => d.line === 13123)).toMatchObject({ version: '4.2.3' });
    expect(input.dependencies.filter((d) => d.lockedFor != null)).toEqual([]);
  });

  it('reads what tap bundles as part of tap, never as registry releases; the project\'s own bundled dependencies as usual', () => {
    const text = gunzipSync(readFileSync(new URL('npm__cli/package-lock.json.gz', REAL))).toString('utf8').split('\n');
    // python3: 356 entries are `inBundle`; 163 of them under node_modules/tap (bundleDependencies:
    // ink, treport, @types/react, @isaacs/import-jsx, react, and what those need), none with a
    // `resolved`; the other 193 are npm's own bundle (the root's), each with a `resolved`.
    const blockAt = (i: number): string => text.slice(i, text.findIndex((l, j) => j > i && /^ {4}\}/.test(l))).join('\n');
    const tapBundled = text.flatMap((l, i) => (/^ {4}"node_modules\/tap\/node_modules\/[^"]+": \{$/.test(l) && blockAt(i).includes('"inBundle": true') ? [i + 1] : []));
    expect(tapBundled).toHaveLength(163);
    const lines = new Set(tapBundled);
    expect(input.dependencies.filter((d) => d.line !== null && lines.has(d.line))).toEqual([]);
    // "node_modules/tap" (line 13319; 16.3.10, a devDependency of the root and 16 workspaces: 17
    // rows) carries them, each at its own line ("node_modules/tap/node_modules/ink" at 14607).
    const tap = rowsOf(input, 'tap');
    expect(tap).toHaveLength(17);
    expect(new Set(tap.map((d) => `${d.version} ${d.bundled?.length}`))).toEqual(new Set(['16.3.10 163']));
    expect(tap[0]?.bundled?.find((b) => b.line === 14607)).toEqual({ name: 'ink', version: '3.2.0', file: 'package-lock.json', line: 14607 });
    expect(new Set(tap[0]?.bundled?.map((b) => b.line))).toEqual(lines);
    expect(input.notes.filter((n) => n.startsWith('package-lock.json:13319: "tap@16.3.10" bundles 163 dependencies'))).toHaveLength(1);
    // npm's own bundle ("node_modules/abbrev" at line 3060, inBundle, with a resolved) is installed from the registry.
    expect(rowsOf(input, 'abbrev').find((d) => (d.pinnedAt?.line ?? d.line) === 3060)).toMatchObject({ version: '3.0.0' });
    expect(new Set(input.dependencies.filter((d) => d.bundled !== undefined).map((d) => d.name))).toEqual(new Set(['tap']));
  });

  it('attributes each workspace its own declarations', () => {
    // Root and workspace entries' dependencies/devDependencies/optionalDependencies/peerDependencies
    // naming no workspace: . 72, docs 15, mock-globals 3, mock-registry 7, smoke-tests 7, arborist 43,
    // config 11, libnpmaccess 6, libnpmdiff 10, libnpmexec 16, libnpmfund 3, libnpmorg 7,
    // libnpmpack 8, libnpmpublish 12, libnpmsearch 5, libnpmteam 6, libnpmversion 9 = 240.
    expect(directRows(input)).toBe(240);
    // packages[""].dependencies.abbrev: "^3.0.0" → node_modules/abbrev 3.0.0.
    expect(rowsOf(input, 'abbrev').filter((d) => d.direct)).toMatchObject([{ version: '3.0.0', workspace: '.', dev: false }]);
  });
});

describe('poetry.lock 2.1 with dependency groups and a git dependency (python-poetry/poetry)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('python-poetry__poetry', 'poetry.lock');
  });

  it('reads the index packages and reports the git one as a remote entry', () => {
    expect(input.format).toBe('poetry.lock');
    expectWellFormed(input, 'pypi');
    // python3 tomllib: 78 [[package]], 77 without a `source` table, 1 with source.type = "git".
    expect(ids(input).size).toBe(77);
    expect(input.skipped).toMatchObject([
      { kind: 'remote', ecosystem: 'pypi', name: 'poetry-core', source: 'git+https://github.com/python-poetry/poetry-core.git', host: 'github.com', direct: true, dev: false },
    ]);
  });

  it('takes dev from the lock groups and direct from pyproject.toml', () => {
    // groups: 53 of the 78 packages list "main" (poetry-core among them); the other 25 are dev only.
    expect(input.dependencies.filter((d) => d.dev)).toHaveLength(25);
    // requests 2.33.1 groups [main, test]; mypy 1.20.2 groups [typing] (tool.poetry.group.typing).
    expect(rowsOf(input, 'requests')).toMatchObject([{ version: '2.33.1', direct: true, dev: false }]);
    expect(rowsOf(input, 'mypy')).toMatchObject([{ version: '1.20.2', direct: true, dev: true }]);
    // tomli 2.4.1 (groups include main; declared with a marker): production.
    expect(rowsOf(input, 'tomli')).toMatchObject([{ version: '2.4.1', direct: true, dev: false }]);
  });
});

describe('poetry.lock 2.0 (Poetry 1.6) with a directory source a dependency group names by path (langchain-ai/langchain-google @ e034b48)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('langchain-ai__langchain-google@e034b48/libs/genai', 'poetry.lock');
  });

  it('reads the index packages and reports the directory one as a local entry, direct and production', () => {
    expect(input.format).toBe('poetry.lock');
    expectWellFormed(input, 'pypi');
    // python3 tomllib: 55 [[package]], 54 without a `source` table, 1 with source = {type = "directory", url = "../../core"}.
    expect(ids(input).size).toBe(54);
    // [tool.poetry.dependencies] langchain-core = "^0.1" (the test, typing and dev groups name it by `path = "../../core"`).
    expect(input.skipped).toMatchObject([{ kind: 'local', ecosystem: 'pypi', name: 'langchain-core', source: 'file:../../core', host: null, direct: true, dev: false }]);
    expect(rowsOf(input, 'langchain-core')).toEqual([]);
  });
});

describe('poetry.lock 2.0 (Poetry 1.8) with a git source in a subdirectory (langchain-ai/langchain-google @ 7df7cad)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('langchain-ai__langchain-google@7df7cad/libs/genai', 'poetry.lock');
  });

  it('reads the index packages and reports the git one as a remote entry on its host, direct and production', () => {
    expectWellFormed(input, 'pypi');
    // python3 tomllib: 66 [[package]], 65 without a `source` table, 1 with source.type = "git"
    // (url https://github.com/langchain-ai/langchain.git, subdirectory libs/core, resolved_reference 621f78b…).
    expect(ids(input).size).toBe(65);
    // [tool.poetry.dependencies] langchain-core = ">=0.3.15,<0.4".
    expect(input.skipped).toMatchObject([{ kind: 'remote', ecosystem: 'pypi', name: 'langchain-core', source: 'git+https://github.com/langchain-ai/langchain.git', host: 'github.com', direct: true, dev: false }]);
  });
});

describe('pdm.lock 4.5 with extras variants and groups (pdm-project/pdm)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('pdm-project__pdm', 'pdm.lock');
  });

  it('reads every package; extras variants of one release are one package', () => {
    expect(input.format).toBe('pdm.lock');
    expectWellFormed(input, 'pypi');
    // python3 tomllib: 100 [[package]]; coverage, hishel, httpx, mkdocstrings appear twice
    // (with and without extras) at one version: 96 distinct name@version.
    expect(ids(input).size).toBe(96);
    expect(versionsOf(input, 'httpx')).toEqual(['0.28.1']);
  });

  it('takes direct from pyproject.toml and dev from the groups', () => {
    // rich 15.0.0 groups [default], in project.dependencies; mkdocs 1.6.1 groups [doc].
    expect(rowsOf(input, 'rich')).toMatchObject([{ version: '15.0.0', direct: true, dev: false }]);
    expect(rowsOf(input, 'mkdocs').every((d) => d.dev)).toBe(true);
    expect(rowsOf(input, 'pytest')).toMatchObject([{ version: '9.0.3', dev: true }]);
  });
});

describe('Pipfile.lock with default and develop sections (pypa/pipenv)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('pypa__pipenv', 'Pipfile.lock');
  });

  it('reads both sections', () => {
    expect(input.format).toBe('Pipfile.lock');
    expectWellFormed(input, 'pypi');
    // python3 json: default 10 + develop 100 entries, 105 distinct name@version.
    expect(input.dependencies).toHaveLength(110);
    expect(ids(input).size).toBe(105);
    expect(input.dependencies.filter((d) => d.dev)).toHaveLength(100);
  });

  it('takes direct from the Pipfile', () => {
    // Pipfile [packages]: pytz; [dev-packages]: sphinx, click, … (26 names).
    expect(rowsOf(input, 'pytz')).toMatchObject([{ version: '2026.1.post1', direct: true, dev: false }]);
    expect(rowsOf(input, 'sphinx')).toMatchObject([{ direct: true, dev: true }]);
    // alabaster (develop) is not in the Pipfile.
    expect(rowsOf(input, 'alabaster')).toMatchObject([{ version: '1.0.0', direct: false, dev: true }]);
  });
});

describe('uv.lock of an editable project with dependency groups (pallets/flask)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('pallets__flask', 'uv.lock');
  });

  it('reads the registry packages; the project itself is not one', () => {
    expect(input.format).toBe('uv.lock');
    expectWellFormed(input, 'pypi');
    // python3 tomllib: 83 [[package]]: 82 with source.registry = "https://pypi.org/simple", flask itself editable ".".
    expect(ids(input).size).toBe(82);
    expect(rowsOf(input, 'flask')).toEqual([]);
    expect(input.skipped ?? []).toEqual([]);
  });

  it('takes direct from the project and dev from its dependency groups', () => {
    // flask's dependencies: blinker, click, itsdangerous, jinja2, markupsafe, werkzeug.
    expect(rowsOf(input, 'werkzeug')).toMatchObject([{ version: '3.1.8', direct: true, dev: false }]);
    // dev-dependencies.tests: pytest 9.0.2.
    expect(rowsOf(input, 'pytest')).toMatchObject([{ version: '9.0.2', direct: true, dev: true }]);
  });
});

describe('pip-compile requirements with --hash, split by -r (pypa/warehouse)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('pypa__warehouse', 'requirements.txt');
  });

  it('follows every -r include and reads each pin at its own file', () => {
    expect(input.format).toBe('requirements');
    expectWellFormed(input, 'pypi');
    // `<name>==<version>` pins: main 122, deploy 2, docs 27, lint 27, tests 37 = 215; 180 distinct.
    expect(input.dependencies).toHaveLength(215);
    expect(ids(input).size).toBe(180);
    expect(rowsOf(input, 'amqp')).toMatchObject([{ version: '2.6.1', file: 'requirements/main.txt' }]);
  });

  it('reads the "# via" comment after the last --hash: only pins a -r file asks for are direct', () => {
    // Pins whose `# via` names `-r requirements/<x>.in`: main 63, deploy 1, docs 3, lint 6, tests 10 = 83.
    expect(directRows(input)).toBe(83);
    // amqp: "# via kombu"; alembic: "# via -r requirements/main.in".
    expect(rowsOf(input, 'amqp')[0]?.direct).toBe(false);
    expect(rowsOf(input, 'alembic')[0]?.direct).toBe(true);
    // requirements/docs.txt, lint.txt and tests.txt are named for development: 27 + 27 + 37.
    expect(input.dependencies.filter((d) => d.dev)).toHaveLength(91);
  });
});

/** The notes that say a package is the registry release plus a patch of the project's: `file:line id patch`. */
const patchNotes = (input: ParsedInput): string[] =>
  input.notes.flatMap((note) => {
    const match = /^([^:]+:\d+): ("[^"]+") .* ("[^"]+\.patch") applied$/.exec(note);
    return match === null ? [] : [`${match[1]} ${match[2]} ${match[3]}`];
  });

/** The structured patches of the packages that carry one, folded as the audit folds them: `name@version path file:line`. */
const patchedSubjects = (input: ParsedInput): string[] =>
  foldDependencies([input], { direct: false, omitDev: false }).flatMap((s) =>
    (s.patches ?? []).map((p) => `${s.name}@${s.version ?? ''} ${p.path ?? 'null'} ${p.file}:${p.line ?? '?'}`),
  );

describe('pnpm-lock.yaml v9 with file: folders, link: workspaces, patched and aliased packages (vitejs/vite)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('vitejs__vite', 'pnpm-lock.yaml');
  });

  it('reads the 1296 registry packages; the 109 file: folders are local code, each skipped', () => {
    expectWellFormed(input, 'npm');
    // python3 + PyYAML: of 1405 `packages`, 1296 have an integrity resolution, 109 a {directory, type: directory} one.
    expect(ids(input).size).toBe(1296);
    const skipped = input.skipped ?? [];
    expect(skipped).toHaveLength(109);
    expect(skipped.filter((s) => s.kind !== 'local' || s.host !== null || !s.source.startsWith('file:'))).toEqual([]);
  });

  it('places a file: folder where an importer declares it: direct, dev only when no production root reaches it', () => {
    const skipped = input.skipped ?? [];
    // python3: all 109 snapshot keys `…@file:…` are an importer's `version` (two with a peer suffix,
    // `file:playground/external/dep-that-imports(typescript@6.0.3)`); 6 are reached from no
    // importer's dependencies / optionalDependencies.
    expect(skipped.filter((s) => s.direct !== true).map((s) => s.name)).toEqual([]);
    expect(skipped.filter((s) => s.dev === true).map((s) => s.name).sort()).toEqual([
      '@vitejs/require',
      '@vitejs/test-css-js-dep',
      '@vitejs/test-css-proxy-dep',
      '@vitejs/test-dep-including-a',
      '@vitejs/test-json-module',
      '@vitejs/test-scss-proxy-dep',
    ]);
    // importers['playground/external'].dependencies['@vitejs/test-dep-that-imports']: file:…(typescript@6.0.3).
    expect(skipped.find((s) => s.name === '@vitejs/test-dep-that-imports')).toMatchObject({ direct: true, dev: false });
  });

  it('reads a patched package as the registry release, and says it carries the project patch', () => {
    // patchedDependencies: chokidar@3.6.0, dotenv-expand@13.0.0, sirv@3.0.2 (snapshot keys with `(patch_hash=…)`).
    expect(versionsOf(input, 'sirv')).toEqual(['3.0.2']);
    expect(rowsOf(input, 'sirv')[0]?.integrity).toMatch(/^sha512-/);
    expect(patchNotes(input).map((n) => n.replace(/^pnpm-lock\.yaml:\d+ /, ''))).toEqual([
      '"chokidar@3.6.0" "patches/chokidar@3.6.0.patch"',
      '"dotenv-expand@13.0.0" "patches/dotenv-expand@13.0.0.patch"',
      '"sirv@3.0.2" "patches/sirv@3.0.2.patch"',
    ]);
  });

  it('gives each patched package its patch file and the lockfile line of the patched entry, for scripts', () => {
    // The same three `patchedDependencies`; each line is the one its note names.
    const noted = patchNotes(input).map((n) => /^(pnpm-lock\.yaml:\d+) "([^"]+)" "([^"]+)"$/.exec(n)!).map((m) => `${m[2]} ${m[3]} ${m[1]}`);
    expect(patchedSubjects(input)).toEqual(noted);
    expect(patchedSubjects(input).map((p) => p.split(' ').slice(0, 2).join(' '))).toEqual([
      'chokidar@3.6.0 patches/chokidar@3.6.0.patch',
      'dotenv-expand@13.0.0 patches/dotenv-expand@13.0.0.patch',
      'sirv@3.0.2 patches/sirv@3.0.2.patch',
    ]);
    // Every row of a patched release carries it (one per declaring workspace), and no other row does.
    expect(input.dependencies.filter((d) => d.patches !== undefined).map((d) => d.name).every((n) => ['chokidar', 'dotenv-expand', 'sirv'].includes(n))).toBe(true);
    expect(rowsOf(input, 'sirv').every((d) => d.patches?.length === 1)).toBe(true);
  });

  it('reads the npm: alias override (debug → obug) as the package it installs', () => {
    // overrides.debug: npm:obug@^1.0.2; packages: obug@1.0.2, obug@2.1.4; no `debug@` key.
    expect(rowsOf(input, 'debug')).toEqual([]);
    expect(versionsOf(input, 'obug')).toEqual(['1.0.2', '2.1.4']);
  });
});

describe('pnpm-lock.yaml v9 with GitHub dependencies locked as codeload tarballs under an alias (hoppscotch/hoppscotch)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('hoppscotch__hoppscotch', 'pnpm-lock.yaml');
  });

  it('reads the 2605 registry packages and skips the two gitHosted tarballs as remote code, direct and for production', () => {
    expectWellFormed(input, 'npm');
    // python3 + PyYAML: 2607 `packages`; two `resolution: {gitHosted: true, integrity, tarball: https://codeload.github.com/…}`,
    // each an importer's `dependencies` entry `'@hoppscotch/plugin-appload': {specifier: github:…#<sha>, version: '@CuriousCorrelation/plugin-appload@https://codeload…'}`.
    expect(ids(input).size).toBe(2605);
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.direct, s.dev])).toEqual([
      ['remote', '@CuriousCorrelation/plugin-appload', 'codeload.github.com', true, false],
      ['remote', '@CuriousCorrelation/plugin-relay', 'codeload.github.com', true, false],
    ]);
    expect(input.skipped?.map((s) => s.source)).toEqual([
      'https://codeload.github.com/CuriousCorrelation/tauri-plugin-appload/tar.gz/9d4528be4f385bccbe46859631d31aa2ee1ec0b6',
      'https://codeload.github.com/CuriousCorrelation/tauri-plugin-relay/tar.gz/273488c8f50a22ee707af6b50ccd5570851f8bc9',
    ]);
  });

  it('names each the way the project declares it (the importers\' alias keys), beside the name of the package fetched', () => {
    // importers: `'@hoppscotch/plugin-appload': {specifier: github:CuriousCorrelation/tauri-plugin-appload#…}` (and plugin-relay).
    expect((input.skipped ?? []).map((s) => [s.name, s.declaredAs])).toEqual([
      ['@CuriousCorrelation/plugin-appload', ['@hoppscotch/plugin-appload']],
      ['@CuriousCorrelation/plugin-relay', ['@hoppscotch/plugin-relay']],
    ]);
  });
});

describe("pnpm-lock.yaml of pnpm 11: the environment document, then the lockfile, with a node runtime (pnpm/pnpm, trimmed)", () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('pnpm__pnpm', 'pnpm-lock.yaml');
  });

  it('reads the packages of both documents', () => {
    expectWellFormed(input, 'npm');
    // python3 + PyYAML (safe_load_all): document 1 `packages` holds pnpm@12.0.0-rc.8 and two
    // @pnpm/exe.* binaries, document 2 keyv@5.6.0, @keyv/serialize@1.1.1 and node@runtime:26.7.0.
    expect([...ids(input)].sort()).toEqual(['@keyv/serialize@1.1.1', '@pnpm/exe.darwin-arm64@12.0.0-rc.8', '@pnpm/exe.linux-x64@12.0.0-rc.8', 'keyv@5.6.0', 'pnpm@12.0.0-rc.8']);
    expect(input.format).toBe('pnpm-lock@9.0');
  });

  it('reads the pinned package manager as a direct production dependency, its binaries through it; the lockfile as before', () => {
    const flags = (name: string) => rowsOf(input, name).map((d) => [d.direct, d.dev, d.line]);
    // importers['.'].packageManagerDependencies.pnpm (document 1, its `packages` key on line 26);
    // pnpm@12.0.0-rc.8's snapshot lists the exe packages as optionalDependencies.
    expect(flags('pnpm')).toEqual([[true, false, 26]]);
    expect(flags('@pnpm/exe.linux-x64')).toEqual([[false, false, 20]]);
    // importers['.'].devDependencies.keyv (document 2, from line 44 on); keyv@5.6.0 on line 67.
    expect(flags('keyv')).toEqual([[true, true, 67]]);
    expect(flags('@keyv/serialize')).toEqual([[false, true, 64]]);
  });

  it('skips the node runtime as remote code from the URL of its binaries, direct and dev', () => {
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.direct, s.dev])).toEqual([['remote', 'node', 'nodejs.org', true, true]]);
  });
});

describe("pnpm-lock.yaml v9 of a patched GitHub dependency (pnpm/pnpm's test fixture with-git-protocol-patched-deps)", () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('pnpm__pnpm@36e5ae6/with-git-protocol-patched-deps', 'pnpm-lock.yaml');
  });

  it('skips it as remote code from the tarball its resolution names, without the patch hash of its snapshot key', () => {
    // packages['is-positive@https://codeload.github.com/…/97edff6…'].resolution.tarball; its snapshot
    // key (line 29) and the importer's version end in `(patch_hash=b27bbf…)`, which no URL holds.
    expect(input.dependencies).toEqual([]);
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.source, s.line, s.direct, s.dev])).toEqual([
      ['remote', 'is-positive', 'codeload.github.com', 'https://codeload.github.com/kevva/is-positive/tar.gz/97edff6f525f192a3f83cea1944765f769ae2678', 29, true, false],
    ]);
  });
});

describe("pnpm-lock.yaml v9 of a pruned workspace with injected packages (pnpm/pnpm's test fixture peer-variant-missing-resolution)", () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('pnpm__pnpm@36e5ae6/peer-variant-missing-resolution', 'pnpm-lock.yaml');
  });

  it('reads no registry package: `peer@1.0.0` is the workspace folder its resolution names', () => {
    // packages['peer@1.0.0'] (line 51): `resolution: { directory: packages/peer, type: directory }`.
    expect(input.dependencies).toEqual([]);
    expect((input.skipped ?? []).filter((s) => s.name === 'peer').map((s) => [s.kind, s.source, s.file, s.line])).toEqual([['local', 'file:packages/peer', 'pnpm-lock.yaml', 51]]);
  });

  it('names the folder of a peer variant without its peer suffix', () => {
    // packages: 'pkg-a@file:packages/pkg-a' (line 45) and its variant 'pkg-a@file:packages/pkg-a(peer@1.0.0)',
    // which importers['.'] declares (package.json line 6, `"pkg-a": "workspace:*"`).
    expect((input.skipped ?? []).filter((s) => s.name === 'pkg-a').map((s) => [s.kind, s.source, s.file, s.line, s.direct, s.dev])).toEqual([
      ['local', 'file:packages/pkg-a', 'pnpm-lock.yaml', 45, false, true],
      ['local', 'file:packages/pkg-a', 'package.json', 6, true, false],
    ]);
  });
});

describe('pnpm-lock.yaml 5.3 with `_`-suffixed peer keys (one a hash) and GitHub dependencies (sveltejs/kit @ 03c0cfd, trimmed)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('sveltejs__kit@03c0cfd', 'pnpm-lock.yaml');
  });

  it('reads name and version from each `/name/version_peers` key, the peer suffix dropped', () => {
    expect(input.format).toBe('pnpm-lock@5.3');
    expectWellFormed(input, 'npm');
    // keys: /@rollup/plugin-json/4.1.0_rollup@2.60.2 (line 21), /@typescript-eslint/eslint-plugin/5.5.0_f60175165d08edf988b5aad85994517a (30), /rollup/2.60.2 (56).
    expect(input.dependencies.map((d) => [d.name, d.version, d.line, d.direct, d.dev])).toEqual([
      ['@rollup/plugin-json', '4.1.0', 21, true, true],
      ['@typescript-eslint/eslint-plugin', '5.5.0', 30, true, true],
      ['rollup', '2.60.2', 56, true, true],
    ]);
  });

  it('skips the `github.com/o/r/<sha>` keys as remote code from their codeload tarballs, named by their `name` field', () => {
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.line, s.direct, s.dev])).toEqual([
      ['remote', 'action-deploy-docs', 'codeload.github.com', 63, true, true],
      ['remote', '@sveltejs/eslint-config', 'codeload.github.com', 78, true, true],
    ]);
  });
});

describe("pnpm-lock.yaml 6.0 with a patched package (`(patch_hash=…)` key) and a `link:` self-reference (pnpm/pnpm @ dac59e6, trimmed)", () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('pnpm__pnpm@dac59e6', 'pnpm-lock.yaml');
  });

  it('reads the registry packages of the workspace importer, never its `link:` one', () => {
    expect(input.format).toBe('pnpm-lock@6.0');
    expectWellFormed(input, 'npm');
    // importers['fs/graceful-fs']: graceful-fs 4.2.11(patch_hash=…) (dependencies), '@pnpm/graceful-fs' 'link:' and
    // '@types/graceful-fs' 4.1.6 (devDependencies), declared on lines 31 and 36 of fs/graceful-fs/package.json;
    // /@types/node@14.18.53 (line 38) is reached through @types/graceful-fs.
    expect(input.dependencies.map((d) => [d.name, d.version, d.workspace ?? null, d.file, d.line, d.direct, d.dev])).toEqual([
      ['@types/graceful-fs', '4.1.6', 'fs/graceful-fs', 'fs/graceful-fs/package.json', 36, true, true],
      ['@types/node', '14.18.53', null, 'pnpm-lock.yaml', 38, false, true],
      ['graceful-fs', '4.2.11', 'fs/graceful-fs', 'fs/graceful-fs/package.json', 31, true, false],
    ]);
  });

  it('marks graceful-fs with the patch file `patchedDependencies` names', () => {
    expect(patchedSubjects(input)).toEqual(['graceful-fs@4.2.11 __patches__/graceful-fs@4.2.11.patch pnpm-lock.yaml:41']);
  });
});

describe('package-lock.json v1 of npm 6 with `"resolved": false` entries (18F/fedramp-dashboard, trimmed)', () => {
  it('reads such an entry as one without `resolved`, as npm does: the registry release of its version, its integrity kept', async () => {
    const input = await read('18F__fedramp-dashboard', 'package-lock.json');
    expectWellFormed(input, 'npm');
    // python3 (json): 4 entries; fsevents' nested abbrev and ansi-regex have `"resolved": false`.
    expect([...ids(input)].sort()).toEqual(['abbrev@1.1.1', 'ansi-regex@2.1.1', 'fs.realpath@1.0.0', 'fsevents@1.2.11']);
    expect(rowsOf(input, 'abbrev').map((d) => [d.resolved, d.integrity])).toEqual([
      [null, 'sha512-nne9/IiQ/hzIhY6pdDnbBtz7DjPTKrY00P/zvPSm5pOFkl6xuGrGnXn/VtTNNfNtAfZ9/1RtehkszU9qcTii0Q=='],
    ]);
    expect(input.skipped ?? []).toEqual([]);
  });
});

describe('uv.lock of a six-member workspace with a git dependency (pydantic/pydantic-ai)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('pydantic__pydantic-ai', 'uv.lock');
  });

  it('reads the 340 registry packages; the editable workspace members are the project, not dependencies', () => {
    expectWellFormed(input, 'pypi');
    // python3 tomllib: sources registry 340, editable 6 (clai, pydantic-ai, pydantic-ai-examples,
    // pydantic-ai-slim, pydantic-evals, pydantic-graph), git 1 (strict-no-cover).
    expect(ids(input).size).toBe(340);
    for (const member of ['clai', 'pydantic-ai', 'pydantic-ai-examples', 'pydantic-ai-slim', 'pydantic-evals', 'pydantic-graph']) expect(rowsOf(input, member)).toEqual([]);
  });

  it('skips the git source as remote code, direct and dev as the dev group declares it', () => {
    // [dependency-groups].dev: "strict-no-cover @ git+https://github.com/pydantic/strict-no-cover.git@7fc59da…".
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.direct, s.dev])).toEqual([['remote', 'strict-no-cover', 'github.com', true, true]]);
    expect(input.skipped?.[0]?.source).toMatch(/^https:\/\/github\.com\/pydantic\/strict-no-cover\.git#7fc59da2c4dff919db2095a0f0e47101b657131d$/);
  });
});

describe('package-lock.json v2 with a git+ssh dependency (jitsi/lib-jitsi-meet)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('jitsi__lib-jitsi-meet', 'package-lock.json');
  });

  it('reads the 642 registry releases and skips the git dependency as remote code, direct and for production', () => {
    expect(input.format).toBe('package-lock@2');
    expectWellFormed(input, 'npm');
    // python3 json: `packages` under node_modules/: 642 distinct name@version, and one entry
    // resolved "git+ssh://git@github.com/jitsi/strophejs-plugin-stream-management.git#679be59…",
    // declared in the root's `dependencies`.
    expect(ids(input).size).toBe(642);
    expect(rowsOf(input, 'strophejs-plugin-stream-management')).toEqual([]);
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.source, s.direct, s.dev])).toEqual([
      ['remote', 'strophejs-plugin-stream-management', 'github.com', 'git+ssh://github.com/jitsi/strophejs-plugin-stream-management.git#679be5902097ed612fb5062b5549f3f32b6f5f47', true, false],
    ]);
    // root dependencies (17) and devDependencies (29), less the git one.
    expect(new Set(input.dependencies.filter((d) => d.direct).map((d) => d.name)).size).toBe(45);
  });
});

describe('requirements.txt with local editables, a git URL and an -r include (zulip/python-zulip-api)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('zulip__python-zulip-api', 'requirements.txt');
  });

  it('reads the index requirements of both files, ranges unresolved', () => {
    // 14 name lines in requirements.txt (unpinned or ranges: `ruff~=0.2.2`, `gitlint>=0.13.0`) and
    // matrix-nio from `-r ./zulip/integrations/bridge_with_matrix/requirements.txt`.
    expect(input.dependencies.map((d) => d.name).sort()).toEqual(
      ['crayons', 'gitlint', 'matrix-nio', 'mock', 'mypy', 'pytest', 'pytest-cov', 'ruff', 'setuptools', 'twine', 'types-beautifulsoup4', 'types-httplib2', 'types-python-dateutil', 'types-pytz', 'types-requests'].sort(),
    );
    expect(input.dependencies.find((d) => d.name === 'mypy')).toMatchObject({ version: '1.8.0', direct: true });
    expect(input.dependencies.find((d) => d.name === 'ruff')).toMatchObject({ version: null, spec: '~=0.2.2' });
    expect(input.dependencies.find((d) => d.name === 'matrix-nio')?.file).toBe('zulip/integrations/bridge_with_matrix/requirements.txt');
  });

  it('skips `-e ./folder` as the project own code and the git URL as remote code', () => {
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.line])).toEqual([
      ['local', null, null, 8],
      ['local', null, null, 9],
      ['local', null, null, 10],
      ['remote', 'zulint', 'github.com', 11],
    ]);
    expect(input.skipped?.map((s) => s.source)).toEqual(['./zulip', './zulip_bots', './zulip_botserver', 'git+https://github.com/zulip/zulint@417b4e4971fdd5ca8e84847f1391b657b188631a#egg=zulint==1.0.0']);
  });
});

describe('Pipfile.lock with the project itself as an editable path dependency (pypa/pipenv, 2026-03)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('pypa__pipenv@0341cfe', 'Pipfile.lock');
  });

  it('skips `"pipenv": {"editable": true, "path": "."}` as local code, dev as the Pipfile [dev-packages] says', () => {
    // python3 json: default 1 (pytz); develop 104: 103 with a version, and pipenv itself (editable + path).
    expect(ids(input).size).toBe(104);
    expect(rowsOf(input, 'pipenv')).toEqual([]);
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.source, s.host, s.direct, s.dev])).toEqual([['local', 'pipenv', '.', null, true, true]]);
  });
});

describe('Pipfile.lock with a git dependency in develop (pypa/pipenv @ 5dce6f6 and, as pipenv 2024.0 wrote it, @ 28cbcab)', () => {
  it('reports the git entry as remote on its host, beside pipenv itself as local code', async () => {
    const input = await read('pypa__pipenv@5dce6f6', 'Pipfile.lock');
    // python3 json: default 1, develop 97: 95 with a version, pipenv (editable + path) and pypiserver
    // (`"git": "https://github.com/matteius/pypiserver.git"`, `"ref": "02f1ef9…"`; the Pipfile's [dev-packages] names it).
    expect(ids(input).size).toBe(96);
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.source, s.host, s.direct, s.dev])).toEqual([
      ['local', 'pipenv', '.', null, true, true],
      ['remote', 'pypiserver', 'https://github.com/matteius/pypiserver.git', 'github.com', true, true],
    ]);
  });

  it('reads a git value written as a PEP 508 direct reference (` pypiserver@ git+https://…@pipenv-313`) as that remote repository, not a local folder', async () => {
    // Read whole, the value named no scheme: pypiserver passed for the project's own code and the run was complete.
    const input = await read('pypa__pipenv@28cbcab', 'Pipfile.lock');
    // python3 json: default 1, develop 95: 93 with a version, pipenv and pypiserver.
    expect(ids(input).size).toBe(94);
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.source, s.host, s.direct, s.dev])).toEqual([
      ['local', 'pipenv', '.', null, true, true],
      ['remote', 'pypiserver', 'git+https://github.com/matteius/pypiserver.git@pipenv-313', 'github.com', true, true],
    ]);
  });
});

describe('uv.lock resolved from a private index only, with a workspace member (getsentry/snuba)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('getsentry__snuba', 'uv.lock');
  });

  it('reads the 140 packages of the private index as registry packages, each resolved from that index', () => {
    expectWellFormed(input, 'pypi');
    // python3 tomllib: 142 [[package]]: 140 `source = { registry = "https://pypi.devinfra.sentry.io/simple" }`,
    // the two members (snuba `editable = "."`, rust-snuba `editable = "rust_snuba"`).
    expect(ids(input).size).toBe(140);
    expect([...new Set(input.dependencies.map((d) => d.resolved))]).toEqual(['https://pypi.devinfra.sentry.io/simple']);
    expect(input.skipped ?? []).toEqual([]);
    expect(rowsOf(input, 'snuba')).toEqual([]);
    expect(rowsOf(input, 'rust-snuba')).toEqual([]);
  });

  it('takes direct dependencies from both members, dev groups included', () => {
    // python3: names in the members' dependencies (44) and dev-dependencies groups dev and docs (21): 63 distinct.
    expect(new Set(input.dependencies.filter((d) => d.direct).map((d) => d.name)).size).toBe(63);
    // uv forks typing-extensions by environment: 4.12.2 and 4.15.0, both direct.
    expect(versionsOf(input, 'typing-extensions')).toEqual(['4.12.2', '4.15.0']);
  });
});

describe('yarn.lock of yarn 4 with 99 workspaces and a patch file of the project (MetaMask/core)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('MetaMask__core', 'yarn.lock');
  });

  it('reads each npm: resolution once; the workspaces and patch: entries are no packages of their own', () => {
    expect(input.format).toBe('yarn-berry');
    expectWellFormed(input, 'npm');
    // python3 re: 2506 `resolution:` lines: 2402 distinct `name@npm:…`, 99 `@workspace:`, 5 `@patch:`.
    expect(ids(input).size).toBe(2402);
    expect(input.skipped ?? []).toEqual([]);
  });

  it('says the package with a ~/.yarn/patches file is the registry release plus that patch; yarn builtin patches are not noted', () => {
    // resolution "@nktkas/hyperliquid@patch:@nktkas/hyperliquid@npm%3A0.33.1#~/.yarn/patches/…::version=0.33.1&hash=dc8891".
    expect(versionsOf(input, '@nktkas/hyperliquid')).toEqual(['0.33.1']);
    expect(patchNotes(input).map((n) => n.replace(/^yarn\.lock:\d+ /, ''))).toEqual(['"@nktkas/hyperliquid@npm:0.33.1" "~/.yarn/patches/@nktkas-hyperliquid-npm-0.33.1-6a541fdd1d.patch"']);
    expect(input.notes).toHaveLength(1);
    // Structured for scripts: the patch file and the line of the `patch:` entry the note names.
    const line = /^yarn\.lock:(\d+) /.exec(patchNotes(input)[0] ?? '')?.[1];
    expect(patchedSubjects(input)).toEqual([`@nktkas/hyperliquid@0.33.1 ~/.yarn/patches/@nktkas-hyperliquid-npm-0.33.1-6a541fdd1d.patch yarn.lock:${line}`]);
  });
});

describe('yarn.lock of yarn 4 with link: entries bound to their workspace and project patches (babel/babel)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('babel__babel', 'yarn.lock');
  });

  it('reads each npm: resolution once; 163 workspaces and 9 patch: entries are no packages of their own', () => {
    expectWellFormed(input, 'npm');
    // python3 re: 1749 `resolution:` lines: 1573 distinct `name@npm:…`, 163 workspace:, 9 patch:, 4 link:.
    expect(ids(input).size).toBe(1573);
  });

  it('finds a link: entry from the workspace that names it (`::locator=` bound): direct; the resolutions-only ones are not', () => {
    // package.json devDependencies["$repo-utils"]: "link:./scripts/repo-utils" → "$repo-utils@link:./scripts/repo-utils::locator=babel%40workspace%3A.";
    // benchmark/package.json names it too (bound to %40babel%2Fbenchmark%40workspace%3Abenchmark);
    // @types/babel__core and @types/eslint-scope: "link:./nope" only in `resolutions`.
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.source, s.direct]).sort()).toEqual([
      ['local', '$repo-utils', 'link:../scripts/repo-utils', true],
      ['local', '$repo-utils', 'link:./scripts/repo-utils', true],
      ['local', '@types/babel__core', 'link:./nope', false],
      ['local', '@types/eslint-scope', 'link:./nope', false],
    ]);
  });

  it('notes the three packages patched with files of ~/.yarn/patches, not the six yarn builtin ones', () => {
    expect(patchNotes(input).map((n) => n.replace(/^yarn\.lock:\d+ /, ''))).toEqual([
      '"@rollup/plugin-commonjs@npm:29.0.2" "~/.yarn/patches/@rollup-plugin-commonjs-npm-29.0.2-18c3a497d8.patch"',
      '"interpret@npm:3.1.1" "~/.yarn/patches/interpret-npm-3.1.1-715bac2bd7.patch"',
      '"rollup-plugin-dts@npm:6.1.0" "~/.yarn/patches/rollup-plugin-dts-npm-6.1.0-6d41e665a7.patch"',
    ]);
    // The same three, structured, at the lines of their `patch:` entries.
    const noted = patchNotes(input).map((n) => /^(yarn\.lock:\d+) "([^"]+)@npm:([^"]+)" "([^"]+)"$/.exec(n)!).map((m) => `${m[2]}@${m[3]} ${m[4]} ${m[1]}`);
    expect(patchedSubjects(input)).toEqual(noted);
    expect(noted).toHaveLength(3);
  });
});

describe('yarn.lock of yarn 4 with packages fetched from GitHub Packages (`__archiveUrl`) and a git dependency (flex-development/aggregate-error-ponyfill)', () => {
  let input: ParsedInput;
  beforeAll(async () => {
    input = await read('flex-development__aggregate-error-ponyfill', 'yarn.lock');
  });
  // python3 re: 1003 `resolution:` lines: 997 distinct `name@npm:<version>` (21 of them with
  // `::__archiveUrl=`, 17 names), 4 builtin patch:, 1 git (`https://github.com/…#commit=…`), 1 workspace:.
  const archived = (): DeclaredDependency[] => input.dependencies.filter((d) => d.resolved !== null);

  it('reads each npm: resolution once, those with an __archiveUrl as the release they name', () => {
    expect(input.format).toBe('yarn-berry');
    expectWellFormed(input, 'npm');
    expect(ids(input).size).toBe(997);
    expect(new Set(archived().map((d) => `${d.name}@${d.version}`)).size).toBe(21);
    expect(new Set(archived().map((d) => d.name)).size).toBe(17);
    // The URL as yarn encoded it (`%3A%2F%2F`, `%40flex-development%2F`), decoded once.
    expect(rowsOf(input, '@flex-development/builtin-modules')).toMatchObject([
      { version: '1.0.0', resolved: 'https://npm.pkg.github.com/download/@flex-development/builtin-modules/1.0.0/7f6d30784550e9e03c3e93e9f846d958d016f1c9' },
    ]);
    expect(archived().every((d) => d.resolved?.startsWith('https://npm.pkg.github.com/download/@flex-development/'))).toBe(true);
    // devDependencies["@flex-development/mlly"]: "1.0.0-alpha.15" — fetched from GitHub Packages, direct and dev.
    expect(rowsOf(input, '@flex-development/mlly').filter((d) => d.direct)).toMatchObject([{ version: '1.0.0-alpha.15', dev: true }]);
  });

  it('records the git dependency as the only unvouched entry, remote on github.com', () => {
    // resolutions["@ardatan/sync-fetch"]: "larsgw/sync-fetch#head=worker_threads" → resolution "@ardatan/sync-fetch@https://github.com/larsgw/sync-fetch.git#commit=3fb71ae…".
    expect((input.skipped ?? []).map((s) => [s.kind, s.name, s.host, s.direct])).toEqual([['remote', '@ardatan/sync-fetch', 'github.com', false]]);
  });

  it('checks each archive URL as a package-lock `resolved`: on the configured registry\'s host it passes, on another host it fails', () => {
    // The project's .npmrc sets `@flex-development:registry=https://npm.pkg.github.com` (not recorded).
    const base = evidence();
    const registry = base.sources.registry;
    if (registry.status !== 'ok') throw new Error('the base evidence has registry facts');
    const locks = lockRecords([input]);
    const findings = (registries: string[]): string[] =>
      foldDependencies([input], { direct: false, omitDev: false }).flatMap((subject) => {
        const facts = { ...registry.facts, name: subject.name, version: subject.version ?? '', integrity: null, shasum: null };
        const evaluated: Evidence = { ...base, target: { ...base.target, name: subject.name, version: subject.version }, sources: { ...base.sources, registry: { status: 'ok', facts } } };
        return lockfileMismatch(subject, locks.get(subjectKey(subject)) ?? [], evaluated, registries)?.message ?? [];
      });
    expect(findings(['https://npm.pkg.github.com', 'https://registry.example'])).toEqual([]);
    // Without that configuration, npm.pkg.github.com is another host than the registry's, and a
    // berry lockfile pins no hash the registry publishes: each of the 21 releases fails.
    const foreign = findings(['https://registry.example']);
    expect(foreign).toHaveLength(21);
    expect(foreign.every((m) => m.startsWith('lockfile injection: ') && m.includes(' from npm.pkg.github.com, '))).toBe(true);
  });
});

describe('the lockfile-injection check on every real npm-family lockfile, against its own pins', () => {
  // The check `nerq audit` runs (app/audit.ts: lockRecords, then lockfileMismatch per subject),
  // with each subject's registry facts made of the pin the lockfile itself records for it
  // (parsed by real-pins.ts, not by nerq): a real lockfile must show no mismatch at all.
  const base = evidence();
  const evidenceOf = (name: string, version: string, pin: Pin | undefined): Evidence => {
    const registry = base.sources.registry;
    if (registry.status !== 'ok') throw new Error('the base evidence has registry facts');
    const facts = { ...registry.facts, name, version, integrity: pin?.integrity ?? null, shasum: pin?.shasum ?? null };
    return { ...base, target: { ...base.target, name, version }, sources: { ...base.sources, registry: { status: 'ok', facts } } };
  };

  async function mismatches(dir: string, file: string, pins: readonly Pin[]): Promise<{ checked: number; found: string[] }> {
    const parsed = await read(dir, file);
    // The resolved URLs as a project has them (an https origin), so that their tarball paths are checked too.
    const input = { ...parsed, dependencies: parsed.dependencies.map((d) => ({ ...d, resolved: d.resolved?.replace('{{REGISTRY}}', 'https://registry.example') ?? null })) };
    // One release per name@version, the pin that carries an integrity when one does.
    const byId = new Map<string, Pin>();
    for (const pin of pins) if (byId.get(`${pin.name}@${pin.version}`)?.integrity == null) byId.set(`${pin.name}@${pin.version}`, pin);
    const locks = lockRecords([input]);
    const subjects = foldDependencies([input], { direct: false, omitDev: false });
    const found: string[] = [];
    let checked = 0;
    for (const subject of subjects) {
      const records = locks.get(subjectKey(subject)) ?? [];
      if (records.some((r) => r.integrity !== null)) checked += 1;
      const pin = byId.get(`${subject.name}@${subject.version}`);
      const message = lockfileMismatch(subject, records, evidenceOf(subject.name, subject.version ?? '', pin))?.message ?? null;
      if (message !== null) found.push(message);
    }
    return { checked, found };
  }

  it('package-lock v2 with a git dependency (jitsi/lib-jitsi-meet): 642 packages, none flagged', async () => {
    const text = readFileSync(new URL('jitsi__lib-jitsi-meet/package-lock.json', REAL), 'utf8');
    const pins = packageLockPins(text).filter((p) => !p.version.startsWith('git'));
    const { checked, found } = await mismatches('jitsi__lib-jitsi-meet', 'package-lock.json', pins);
    expect(found).toEqual([]);
    expect(checked).toBe(642);
  });

  it('pnpm v9 with patched packages and file: folders (vitejs/vite): 1296 packages, none flagged', async () => {
    const text = readFileSync(new URL('vitejs__vite/pnpm-lock.yaml', REAL), 'utf8');
    const pins = pnpmPins(text).filter((p) => !p.version.startsWith('file:'));
    const { checked, found } = await mismatches('vitejs__vite', 'pnpm-lock.yaml', pins);
    expect(found).toEqual([]);
    expect(checked).toBe(1296);
  });

  it('pnpm v9 with gitHosted tarballs (hoppscotch/hoppscotch): 2605 packages, none flagged', async () => {
    const text = gunzipSync(readFileSync(new URL('hoppscotch__hoppscotch/pnpm-lock.yaml.gz', REAL))).toString('utf8');
    const pins = pnpmPins(text).filter((p) => !p.version.startsWith('https:'));
    const { checked, found } = await mismatches('hoppscotch__hoppscotch', 'pnpm-lock.yaml', pins);
    expect(found).toEqual([]);
    expect(checked).toBe(2605);
  });

  it('pnpm v9 (vueuse/vueuse): sha512 resolution integrities of 1913 packages', async () => {
    const text = gunzipSync(readFileSync(new URL('vueuse__vueuse/pnpm-lock.yaml.gz', REAL))).toString('utf8');
    const { checked, found } = await mismatches('vueuse__vueuse', 'pnpm-lock.yaml', pnpmPins(text));
    expect(found).toEqual([]);
    expect(checked).toBe(1913);
  });

  it('bun.lock (honojs/hono): the fourth field of 1012 packages', async () => {
    const { checked, found } = await mismatches('honojs__hono', 'bun.lock', bunPins(readFileSync(new URL('honojs__hono/bun.lock', REAL), 'utf8')));
    expect(found).toEqual([]);
    expect(checked).toBe(1012);
  });

  it('package-lock v3 (modelcontextprotocol/servers): resolved tarball paths (scoped too) and integrities of 284 packages', async () => {
    const text = readFileSync(new URL('modelcontextprotocol__servers/package-lock.json', REAL), 'utf8');
    const pins = packageLockPins(text);
    const { checked, found } = await mismatches('modelcontextprotocol__servers', 'package-lock.json', pins);
    expect(found).toEqual([]);
    expect(checked).toBe(284);
    // The same check does see a registry that publishes other bytes for one release.
    const other = `sha512-${Buffer.alloc(64, 3).toString('base64')}`;
    const tampered = await mismatches('modelcontextprotocol__servers', 'package-lock.json', pins.map((p) => (p.name === 'zod' ? { ...p, integrity: other } : p)));
    // zod is declared by src/everything/package.json; the pin is the lockfile's `node_modules/zod` entry.
    const line = text.split('\n').findIndex((l) => l.includes('"node_modules/zod": {')) + 1;
    expect(tampered.found).toEqual([expect.stringMatching(new RegExp(`^lockfile injection: package-lock\\.json:${line} pins zod@4\\.4\\.3 to sha512 bytes`))]);
  });

  it('package-lock v3 (npm/cli): 1020 packages, aliases and bundled ones among them', async () => {
    const text = gunzipSync(readFileSync(new URL('npm__cli/package-lock.json.gz', REAL))).toString('utf8');
    const { checked, found } = await mismatches('npm__cli', 'package-lock.json', packageLockPins(text));
    expect(found).toEqual([]);
    // python3: 935 distinct name@version carry an integrity on some entry (bundled ones often do not).
    expect(checked).toBe(935);
  });

  it('yarn classic (honojs/hono benchmarks/jsx): integrity and the #sha1 of resolved, 62 packages', async () => {
    const text = readFileSync(new URL('honojs__hono/benchmarks/jsx/yarn.lock', REAL), 'utf8');
    const { checked, found } = await mismatches('honojs__hono/benchmarks/jsx', 'yarn.lock', yarnClassicPins(text));
    expect(found).toEqual([]);
    expect(checked).toBe(62);
  });

  it('yarn berry (prettier/prettier): nothing to compare — a checksum is not the tarball integrity, an npm: alias is no injection', async () => {
    // Registry facts with a sha512 the lockfile does not hold: had a `checksum` been read as the
    // integrity, or an alias as another package, every package would show a mismatch.
    const other = `sha512-${Buffer.alloc(64, 3).toString('base64')}`;
    const { checked, found } = await mismatches('prettier__prettier', 'yarn.lock', []);
    expect(checked).toBe(0);
    expect(found).toEqual([]);
    const input = await read('prettier__prettier', 'yarn.lock');
    const reactIs = foldDependencies([input], { direct: false, omitDev: false }).find((s) => s.name === 'react-is' && s.version === '18.3.1')!;
    expect(lockfileMismatch(reactIs, lockRecords([input]).get(subjectKey(reactIs)) ?? [], evidenceOf('react-is', '18.3.1', { name: 'react-is', version: '18.3.1', integrity: other, shasum: null }))).toBeNull();
  });
});
