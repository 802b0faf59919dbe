/**
 * package-lock v2/v3 entries npm installs that nerq must not pass on a note (docs/security.md,
 * "Lockfile injection"): keys npm reads as paths, entries without a version, and `dev` flags the
 * dependency graph contradicts.
 */
import { describe, expect, it } from 'vitest';
import { readInputText, readPackageLock } from '../../src/lockfiles/index.js';
import type { ParsedInput } from '../../src/lockfiles/types.js';

const RESOLVED = 'https://registry.example.test/chalk/-/chalk-4.1.0.tgz';
const INTEGRITY = `sha512-${Buffer.alloc(64, 1).toString('base64')}`;
const CHALK = { version: '4.1.0', resolved: RESOLVED, integrity: INTEGRITY };

const lock = (packages: Record<string, unknown>) => JSON.stringify({ name: 'app', lockfileVersion: 3, requires: true, packages }, null, 2);
const app = (fields: Record<string, unknown> = { dependencies: { chalk: '^4.1.0' } }) => ({ name: 'app', version: '1.0.0', ...fields });

/** The 1-based line of the first line holding `needle`. */
function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`no line holds ${needle}`);
  return index + 1;
}

const skippedRows = (input: ParsedInput) => (input.skipped ?? []).map((s) => [s.name, s.kind, s.host, s.line]);

describe('package-lock keys npm reads as paths', () => {
  it.each(['node_modules/chalk/', 'node_modules//chalk', 'node_modules/./chalk', 'node_modules/chalk/.', 'node_modules/chalk//', 'node_modules/x/../chalk', './node_modules/chalk'])(
    '%j is node_modules/chalk: audited as chalk@4.1.0, direct, at its own line',
    (key) => {
      const text = lock({ '': app(), [key]: CHALK });
      const input = readPackageLock(text, 'package-lock.json');
      expect(input.dependencies.map((d) => [d.name, d.version, d.direct, d.dev, d.line])).toEqual([['chalk', '4.1.0', true, false, lineOf(text, JSON.stringify(key))]]);
      expect(input.skipped ?? []).toEqual([]);
    },
  );

  it('reads a nested key the same way: the copy under a package, found from that package', () => {
    const text = lock({
      '': app({ dependencies: { wrapper: '^1.0.0' } }),
      'node_modules/wrapper': { version: '1.0.0', resolved: RESOLVED.replaceAll('chalk', 'wrapper').replace('4.1.0', '1.0.0'), integrity: INTEGRITY, dependencies: { chalk: '^4.1.0' } },
      'node_modules/wrapper/node_modules/./chalk/': { ...CHALK, dev: true },
    });
    const input = readPackageLock(text, 'package-lock.json');
    const chalk = input.dependencies.find((d) => d.name === 'chalk');
    expect([chalk?.direct, chalk?.dev, chalk?.via]).toEqual([false, false, ['wrapper']]);
  });

  it.each([
    ['a backslash (a separator to npm on Windows)', 'node_modules\\chalk', 'chalk'],
    ['a path out of the project', 'node_modules/../../chalk', null],
    ['a path out of the project, nested', '../../node_modules/x/../chalk', null],
    ['a path to the project itself', 'node_modules/..', null],
    ['a path to a folder that is no install path', 'node_modules/x/../../lib', null],
  ])('%s: unreadable, a remote entry (the run incomplete), never a note alone', (_, key, name) => {
    const text = lock({ '': app(), [key]: CHALK });
    const input = readPackageLock(text, 'package-lock.json');
    expect(input.dependencies).toEqual([]);
    expect(skippedRows(input)).toEqual([[name, 'remote', 'registry.example.test', lineOf(text, JSON.stringify(key))]]);
  });

  it('two keys naming one path: both unreadable (which one npm installs is not for nerq to guess)', () => {
    const text = lock({ '': app(), 'node_modules/chalk': CHALK, 'node_modules/chalk/': { ...CHALK, version: '4.1.2' } });
    const input = readPackageLock(text, 'package-lock.json');
    expect(input.dependencies).toEqual([]);
    expect(skippedRows(input)).toEqual([
      ['chalk', 'remote', 'registry.example.test', lineOf(text, '"node_modules/chalk": {')],
      ['chalk', 'remote', 'registry.example.test', lineOf(text, '"node_modules/chalk/": {')],
    ]);
  });

  it('keeps the keys real lockfiles write: workspaces, link targets outside the project, their node_modules', () => {
    const text = lock({
      '': app({ workspaces: ['packages/*'], dependencies: { local: 'file:../local' } }),
      'packages/a': { name: 'a', version: '1.0.0', dependencies: { chalk: '^4.1.0' } },
      'node_modules/a': { resolved: 'packages/a', link: true },
      '../local': { name: 'local', version: '1.0.0', dependencies: { 'has-flag': '^4.0.0' } },
      '../local/node_modules/has-flag': { version: '4.0.0', resolved: RESOLVED.replaceAll('chalk', 'has-flag').replace('4.1.0', '4.0.0'), integrity: INTEGRITY },
      'node_modules/local': { resolved: '../local', link: true },
      'node_modules/chalk': CHALK,
    });
    const input = readPackageLock(text, 'package-lock.json');
    expect(input.dependencies.map((d) => d.name).sort()).toEqual(['chalk', 'has-flag']);
    expect(input.skipped ?? []).toEqual([]);
  });
});

describe('a package-lock entry without a version', () => {
  it.each([
    ['with a registry resolved', { resolved: RESOLVED, integrity: INTEGRITY }, 'registry.example.test'],
    ['with nothing else', {}, null],
    ['with an empty version and nothing else', { version: '' }, null],
  ])('%s: npm re-resolves it from the registry: a remote entry (the run incomplete)', (_, entry, host) => {
    const text = lock({ '': app(), 'node_modules/chalk': entry });
    const input = readPackageLock(text, 'package-lock.json');
    expect(input.dependencies).toEqual([]);
    expect(skippedRows(input)).toEqual([['chalk', 'remote', host, lineOf(text, '"node_modules/chalk"')]]);
    expect(input.skipped?.[0]?.direct).toBe(true);
  });

  it('the versionless entries real lockfiles write stay as they were: the root, workspace folders, links', () => {
    const text = lock({
      '': { name: 'app', workspaces: ['packages/*'], dependencies: { chalk: '^4.1.0' } },
      'packages/a': { name: 'a' },
      'node_modules/a': { resolved: 'packages/a', link: true },
      'node_modules/chalk': CHALK,
    });
    const input = readPackageLock(text, 'package-lock.json');
    expect(input.dependencies.map((d) => d.name)).toEqual(['chalk']);
    expect(input.skipped ?? []).toEqual([]);
  });
});

describe('package-lock dev flags: the dependency graph decides, as npm does', () => {
  const flagged = (name: string, extra: Record<string, unknown> = {}) => ({ version: '1.0.0', resolved: RESOLVED.replaceAll('chalk', name).replace('4.1.0', '1.0.0'), integrity: INTEGRITY, dev: true, ...extra });
  const CASES: [string, Record<string, unknown>, boolean][] = [
    ['a dependency of the root, flagged dev', { '': app({ dependencies: { chalk: '^1.0.0' } }), 'node_modules/chalk': flagged('chalk') }, false],
    ['an optional dependency of the root, flagged dev', { '': app({ optionalDependencies: { chalk: '^1.0.0' } }), 'node_modules/chalk': flagged('chalk') }, false],
    ['a peer dependency of the root, flagged dev', { '': app({ peerDependencies: { chalk: '^1.0.0' } }), 'node_modules/chalk': flagged('chalk') }, false],
    [
      'a dependency of a production dependency, flagged dev',
      { '': app({ dependencies: { wrapper: '^1.0.0' } }), 'node_modules/wrapper': flagged('wrapper', { dev: undefined, dependencies: { chalk: '^1.0.0' } }), 'node_modules/chalk': flagged('chalk') },
      false,
    ],
    [
      'a dependency of a workspace, flagged dev',
      { '': app({ workspaces: ['packages/*'] }), 'packages/a': { name: 'a', version: '1.0.0', dependencies: { chalk: '^1.0.0' } }, 'node_modules/a': { resolved: 'packages/a', link: true }, 'node_modules/chalk': flagged('chalk') },
      false,
    ],
    [
      'a dependency of a file: link target, flagged dev',
      { '': app({ dependencies: { local: 'file:../local' } }), 'node_modules/local': { resolved: '../local', link: true }, '../local': { name: 'local', version: '1.0.0', dependencies: { chalk: '^1.0.0' } }, 'node_modules/chalk': flagged('chalk') },
      false,
    ],
    [
      'needed by a dev dependency and a production one, flagged dev',
      {
        '': app({ dependencies: { wrapper: '^1.0.0' }, devDependencies: { tool: '^1.0.0' } }),
        'node_modules/wrapper': flagged('wrapper', { dev: undefined, dependencies: { chalk: '^1.0.0' } }),
        'node_modules/tool': flagged('tool', { dependencies: { chalk: '^1.0.0' } }),
        'node_modules/chalk': flagged('chalk'),
      },
      false,
    ],
    ['a dev dependency of the root, flagged dev', { '': app({ devDependencies: { chalk: '^1.0.0' } }), 'node_modules/chalk': flagged('chalk') }, true],
    [
      'needed by a dev dependency only, flagged dev',
      { '': app({ devDependencies: { tool: '^1.0.0' } }), 'node_modules/tool': flagged('tool', { dependencies: { chalk: '^1.0.0' } }), 'node_modules/chalk': flagged('chalk') },
      true,
    ],
    [
      'a production dependency\'s devDependencies are not installed for it, flagged dev',
      { '': app({ dependencies: { wrapper: '^1.0.0' } }), 'node_modules/wrapper': flagged('wrapper', { dev: undefined, devDependencies: { chalk: '^1.0.0' } }), 'node_modules/chalk': flagged('chalk') },
      true,
    ],
  ];

  it.each(CASES.map(([title, packages, dev]) => [title, dev, packages] as const))('%s: dev %s', (_, dev, packages) => {
    const text = lock(packages);
    const input = readPackageLock(text, 'package-lock.json');
    const chalk = input.dependencies.find((d) => d.name === 'chalk');
    expect(chalk?.dev).toBe(dev);
    // A contradicted flag is said at its line.
    expect(input.notes.some((n) => n.startsWith(`package-lock.json:${lineOf(text, '"node_modules/chalk"')}: "chalk" is marked dev`))).toBe(!dev);
  });

  it('a skipped entry takes the same standing: a forged flag does not let --omit dev drop it', () => {
    const text = lock({ '': app({ dependencies: { chalk: 'github:acme/chalk' } }), 'node_modules/chalk': { version: '4.1.0', resolved: 'git+ssh://git@github.com/acme/chalk.git#0123456789abcdef0123456789abcdef01234567', dev: true } });
    const input = readPackageLock(text, 'package-lock.json');
    expect(input.skipped?.map((s) => [s.name, s.kind, s.dev])).toEqual([['chalk', 'remote', false]]);
  });
});

describe('package-lock v1: the same two rules', () => {
  const v1 = (dependencies: Record<string, unknown>) => JSON.stringify({ name: 'app', lockfileVersion: 1, requires: true, dependencies }, null, 2);
  const read = (text: string, manifest: Record<string, unknown> | null) =>
    readInputText(text, 'package-lock.json', { manifests: manifest === null ? {} : { 'package.json': JSON.stringify({ name: 'app', version: '1.0.0', ...manifest }) } });
  const wrapper = { version: '1.0.0', resolved: RESOLVED.replaceAll('chalk', 'wrapper').replace('4.1.0', '1.0.0'), integrity: INTEGRITY, requires: { chalk: '^4.1.0' } };

  const V1_DEV = [
    ['declared in dependencies', { dependencies: { chalk: '^4.1.0' } }, { chalk: { ...CHALK, dev: true } }, false],
    ['required by a production dependency', { dependencies: { wrapper: '^1.0.0' } }, { wrapper, chalk: { ...CHALK, dev: true } }, false],
    ['required by a dependency no manifest calls dev', null, { wrapper, chalk: { ...CHALK, dev: true } }, false],
    ['declared in devDependencies', { devDependencies: { chalk: '^4.1.0' } }, { chalk: { ...CHALK, dev: true } }, true],
    ['required by a dev dependency only', { devDependencies: { wrapper: '^1.0.0' } }, { wrapper: { ...wrapper, dev: true }, chalk: { ...CHALK, dev: true } }, true],
  ] as const;

  it.each(V1_DEV.map(([title, manifest, dependencies, dev]) => [title, dev, manifest, dependencies] as const))('a dev flag on chalk %s: dev %s', (_, dev, manifest, dependencies) => {
    const input = read(v1(dependencies), manifest);
    expect(input.dependencies.find((d) => d.name === 'chalk')?.dev).toBe(dev);
  });

  it.each([
    ['with a registry resolved', { resolved: RESOLVED, integrity: INTEGRITY }, 'registry.example.test'],
    ['with nothing else', {}, null],
    ['with an empty version and nothing else', { version: '' }, null],
  ])('an entry without a version %s: a remote entry (the run incomplete)', (_, entry, host) => {
    const text = v1({ chalk: entry });
    const input = read(text, { dependencies: { chalk: '^4.1.0' } });
    expect(input.dependencies).toEqual([]);
    expect(skippedRows(input)).toEqual([['chalk', 'remote', host, lineOf(text, '"chalk": {')]]);
  });
});
