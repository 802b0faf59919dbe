/**
 * Dependencies a package bundles in its tarball (docs/security.md, "Bundled dependencies"): npm
 * installs them from the bundling package's tarball, not from the registry, so a lockfile entry
 * for one is not read as the registry release of its version; it is listed in the bundling
 * package's `bundled`, with one note per bundling package. Synthetic lockfiles shaped as npm
 * writes them (package-lock v3 `inBundle`, v1 `bundled`; see the real npm/cli lockfile in
 * test/lockfiles/real-lockfiles.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { readBunLock, readPackageLock, readPnpmLock } from '../../../src/lockfiles/index.js';
import { foldDependencies } from '../../../src/audit/fold.js';
import { lineOf } from './helpers.js';

const REG = 'https://r.example.test';
const v3 = (packages: Record<string, unknown>) => JSON.stringify({ lockfileVersion: 3, packages }, null, 2);
const v1 = (dependencies: Record<string, unknown>) => JSON.stringify({ lockfileVersion: 1, dependencies }, null, 2);
const tgz = (name: string, version: string) => `${REG}/${name}/-/${name}-${version}.tgz`;

interface Case {
  label: string;
  text: string;
  /** The lockfile's name; package-lock.json when absent. */
  file?: string;
  /** name@version read as registry releases. */
  audited: string[];
  /** The bundling package (name@version) → the keys of what it carries (as the lockfile names them). */
  bundled: Record<string, string[]>;
}

const ROOT = { '': { dependencies: { evil: '1.0.0' } } };
const EVIL = { 'node_modules/evil': { version: '1.0.0', resolved: tgz('evil', '1.0.0'), integrity: 'sha512-AAAA', bundleDependencies: ['lodash'], dependencies: { lodash: '4.17.21' } } };

const CASES: Case[] = [
  {
    label: 'v3: a look-alike of lodash bundled by a dependency',
    text: v3({ ...ROOT, ...EVIL, 'node_modules/evil/node_modules/lodash': { version: '4.17.21', inBundle: true } }),
    audited: ['evil@1.0.0'],
    bundled: { 'evil@1.0.0': ['"node_modules/evil/node_modules/lodash"'] },
  },
  {
    label: 'v3: what a bundled dependency needs, nested in the bundle, belongs to the same bundle',
    text: v3({
      ...ROOT,
      ...EVIL,
      'node_modules/evil/node_modules/lodash': { version: '4.17.21', inBundle: true, dependencies: { ms: '2' } },
      'node_modules/evil/node_modules/lodash/node_modules/ms': { version: '2.1.3', inBundle: true },
    }),
    audited: ['evil@1.0.0'],
    bundled: { 'evil@1.0.0': ['"node_modules/evil/node_modules/lodash"', '"node_modules/evil/node_modules/lodash/node_modules/ms"'] },
  },
  {
    label: 'v3: the project\'s own bundle (top level, with resolved) is installed from the registry',
    text: v3({ '': { dependencies: { lodash: '4' }, bundleDependencies: ['lodash'] }, 'node_modules/lodash': { version: '4.17.21', resolved: tgz('lodash', '4.17.21'), inBundle: true } }),
    audited: ['lodash@4.17.21'],
    bundled: {},
  },
  {
    label: 'v3: a workspace\'s own bundle is installed from the registry',
    text: v3({
      '': { workspaces: ['packages/a'] },
      'packages/a': { name: 'a', version: '1.0.0', dependencies: { ms: '2' }, bundleDependencies: ['ms'] },
      'packages/a/node_modules/ms': { version: '2.1.3', resolved: tgz('ms', '2.1.3'), inBundle: true },
      'node_modules/a': { resolved: 'packages/a', link: true },
    }),
    audited: ['ms@2.1.3'],
    bundled: {},
  },
  {
    label: 'v3: a bundled entry that names a resolved is also read as that release (npm fetches it when the bundle lacks it)',
    text: v3({ ...ROOT, ...EVIL, 'node_modules/evil/node_modules/lodash': { version: '4.17.21', resolved: tgz('lodash', '4.17.21'), inBundle: true } }),
    audited: ['evil@1.0.0', 'lodash@4.17.21'],
    bundled: { 'evil@1.0.0': ['"node_modules/evil/node_modules/lodash"'] },
  },
  {
    label: 'v3: a nested entry that is not in a bundle is read as usual',
    text: v3({ ...ROOT, ...EVIL, 'node_modules/evil/node_modules/lodash': { version: '4.17.21', resolved: tgz('lodash', '4.17.21') } }),
    audited: ['evil@1.0.0', 'lodash@4.17.21'],
    bundled: {},
  },
  {
    label: 'v1: a look-alike of lodash bundled by a dependency',
    text: v1({ evil: { version: '1.0.0', resolved: tgz('evil', '1.0.0'), requires: { lodash: '4.17.21' }, dependencies: { lodash: { version: '4.17.21', bundled: true } } } }),
    audited: ['evil@1.0.0'],
    bundled: { 'evil@1.0.0': ['"lodash": {'] },
  },
  {
    label: 'v1: bundled in a bundled dependency: the outer bundling package carries both',
    text: v1({
      evil: {
        version: '1.0.0',
        resolved: tgz('evil', '1.0.0'),
        dependencies: { lodash: { version: '4.17.21', bundled: true, dependencies: { ms: { version: '2.1.3', bundled: true } } } },
      },
    }),
    audited: ['evil@1.0.0'],
    bundled: { 'evil@1.0.0': ['"lodash": {', '"ms": {'] },
  },
  {
    label: 'v1: a top-level entry marked bundled has no bundling package and is read as usual',
    text: v1({ lodash: { version: '4.17.21', resolved: tgz('lodash', '4.17.21'), bundled: true } }),
    audited: ['lodash@4.17.21'],
    bundled: {},
  },
  {
    label: 'npm-shrinkwrap v3: read as package-lock',
    file: 'npm-shrinkwrap.json',
    text: v3({ ...ROOT, ...EVIL, 'node_modules/evil/node_modules/lodash': { version: '4.17.21', inBundle: true } }),
    audited: ['evil@1.0.0'],
    bundled: { 'evil@1.0.0': ['"node_modules/evil/node_modules/lodash"'] },
  },
  {
    label: 'bun.lock: a look-alike of lodash bundled by a dependency',
    file: 'bun.lock',
    text: `{
  "lockfileVersion": 1,
  "workspaces": { "": { "name": "app", "dependencies": { "evil": "1.0.0" } } },
  "packages": {
    "evil": ["evil@1.0.0", "", { "dependencies": { "lodash": "4.17.21" } }, "sha512-AAAA"],
    "evil/lodash": ["lodash@4.17.21", "", { "dependencies": { "ms": "2" }, "bundled": true }, "sha512-BBBB"],
    "evil/lodash/ms": ["ms@2.1.3", "", { "bundled": true }, "sha512-CCCC"],
    "ms": ["ms@2.0.0", "", {}, "sha512-DDDD"],
  }
}
`,
    audited: ['evil@1.0.0', 'ms@2.0.0'],
    bundled: { 'evil@1.0.0': ['"evil/lodash"', '"evil/lodash/ms"'] },
  },
  {
    label: 'bun.lock: a bundled entry under a git package belongs to that unvouched package',
    file: 'bun.lock',
    text: `{
  "lockfileVersion": 1,
  "workspaces": { "": { "name": "app", "dependencies": { "fork": "github:someone/fork" } } },
  "packages": {
    "fork": ["fork@github:someone/fork#0123456", { "dependencies": { "lodash": "4.17.21" } }, "someone-fork-0123456"],
    "fork/lodash": ["lodash@4.17.21", "", { "bundled": true }, "sha512-BBBB"],
  }
}
`,
    audited: [],
    bundled: {},
  },
  {
    label: 'pnpm-lock v9: the names a package bundles (pnpm locks no package for them)',
    file: 'pnpm-lock.yaml',
    text: `lockfileVersion: '9.0'

importers:
  .:
    dependencies:
      evil:
        specifier: 1.0.0
        version: 1.0.0

packages:

  evil@1.0.0:
    resolution: {integrity: sha512-AAAA}
    bundledDependencies:
      - lodash

snapshots:

  evil@1.0.0: {}
`,
    audited: ['evil@1.0.0'],
    bundled: { 'evil@1.0.0': ['  evil@1.0.0:'] },
  },
];

const READERS = { 'bun.lock': readBunLock, 'pnpm-lock.yaml': readPnpmLock } as Record<string, typeof readPackageLock>;

describe('bundled dependencies in package-lock, npm-shrinkwrap, bun.lock and pnpm-lock.yaml', () => {
  it.each(CASES)('$label', ({ text, file = 'package-lock.json', audited, bundled }) => {
    const input = (READERS[file] ?? readPackageLock)(text, file);
    expect([...new Set(input.dependencies.map((d) => `${d.name}@${d.version}`))].sort()).toEqual(audited);
    const carried = Object.fromEntries(
      input.dependencies.filter((d) => d.bundled !== undefined).map((d) => [`${d.name}@${d.version}`, (d.bundled ?? []).map((b) => [b.file, b.line])]),
    );
    const expected = Object.fromEntries(Object.entries(bundled).map(([id, keys]) => [id, keys.map((key) => [file, lineOf(text, key)])]));
    expect(carried).toEqual(expected);
    // One note per bundling package, at its line, naming it.
    expect(input.notes.filter((n) => / bundles (a dependency|\d+ dependencies) in its tarball/.test(n)).map((n) => n.split(' bundles ')[0])).toEqual(
      Object.keys(bundled).map((id) => `${file}:${input.dependencies.find((d) => `${d.name}@${d.version}` === id)?.line}: ${JSON.stringify(id)}`),
    );
  });

  it('keeps the bundled entry\'s name and version as the lockfile writes them, and folds them onto the audit subject', () => {
    const text = v3({ ...ROOT, ...EVIL, 'node_modules/evil/node_modules/lodash': { version: '4.17.21', inBundle: true } });
    const input = readPackageLock(text, 'package-lock.json');
    const [subject, ...rest] = foldDependencies([input], { direct: false, omitDev: false });
    expect(rest).toEqual([]);
    expect(subject).toMatchObject({ name: 'evil', version: '1.0.0', bundled: [{ name: 'lodash', version: '4.17.21', file: 'package-lock.json', line: lineOf(text, '"node_modules/evil/node_modules/lodash"') }] });
  });
});
