import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectInputs, MAX_INPUT_BYTES, readInputs } from '../../../src/audit/detect.js';
import { parseWorkspacePattern } from '../../../src/lockfiles/workspace-patterns.js';
import { workspaceGlobs } from '../../../src/lockfiles/workspace-globs.js';
import { LockfileError } from '../../../src/audit/types.js';
import { find, fixture, lineOf, only } from './helpers.js';

let dir: string;
let outside: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'nerq-detect-'));
  outside = mkdtempSync(path.join(tmpdir(), 'nerq-outside-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function write(relative: string, text: string): void {
  const full = path.join(dir, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
}

async function rejection(promise: Promise<unknown>): Promise<LockfileError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LockfileError) return error;
    throw error;
  }
  throw new Error('expected a LockfileError');
}

describe('detectInputs', () => {
  it.each([
    [['package.json', 'yarn.lock', 'package-lock.json'], ['package-lock.json']],
    [['package.json', 'package-lock.json', 'npm-shrinkwrap.json'], ['npm-shrinkwrap.json']],
    [['package.json', 'bun.lock', 'yarn.lock', 'pnpm-lock.yaml'], ['pnpm-lock.yaml']],
    [['package.json', 'bun.lock'], ['bun.lock']],
    [['package.json', 'bun.lockb'], ['package.json']],
    [['pyproject.toml', 'requirements.txt', 'uv.lock', 'poetry.lock'], ['poetry.lock', 'uv.lock']],
    [['pyproject.toml', 'requirements.txt', 'requirements-dev.txt', 'constraints.txt'], ['requirements-dev.txt', 'requirements.txt']],
    [['pyproject.toml', 'bom.cdx.json', 'sbom.spdx.json'], ['pyproject.toml']],
    [['package-lock.json', 'Pipfile.lock', 'Pipfile'], ['package-lock.json', 'Pipfile.lock']],
    [['README.md'], []],
  ])('%j → %j', async (present, expected) => {
    for (const name of present) write(name, '');
    mkdirSync(path.join(dir, 'yarn.lock.d'));
    expect(await detectInputs(dir)).toEqual(expected);
  });
});

describe('readInputs', () => {
  it('reads an npm workspace project with every workspace manifest, found from the patterns', async () => {
    cpSync(new URL('../../../fixtures/lockfiles/npm-workspaces/', import.meta.url), dir, { recursive: true });
    const [parsed] = await readInputs(dir, await detectInputs(dir));
    expect(parsed?.file).toBe('package-lock.json');
    const app = fixture('npm-workspaces/packages/app/package.json');
    expect(only(parsed!, 'ms', '2.0.0')).toMatchObject({ file: 'packages/app/package.json', line: lineOf(app, '"ms"'), workspace: 'packages/app' });
  });

  it('expands pnpm-workspace.yaml patterns, negations included, and never reads a manifest outside the tree', async () => {
    write('pnpm-workspace.yaml', "packages:\n  - 'packages/*'\n  - '!packages/legacy'\n");
    write('package.json', '{"name": "root"}');
    write('packages/web/package.json', JSON.stringify({ name: 'web', dependencies: { a: '^1.0.0' } }, null, 2));
    write('packages/legacy/package.json', JSON.stringify({ name: 'legacy', dependencies: { a: '^1.0.0' } }, null, 2));
    writeFileSync(path.join(outside, 'package.json'), JSON.stringify({ name: 'evil', dependencies: { a: '^1.0.0' } }, null, 2));
    mkdirSync(path.join(dir, 'packages/linked'), { recursive: true });
    symlinkSync(path.join(outside, 'package.json'), path.join(dir, 'packages/linked/package.json'));
    write(
      'pnpm-lock.yaml',
      [
        "lockfileVersion: '9.0'",
        'importers:',
        '  .: {}',
        ...['packages/web', 'packages/legacy', 'packages/linked'].flatMap((d) => [`  ${d}:`, '    dependencies:', '      a:', '        specifier: ^1.0.0', '        version: 1.0.0']),
        'packages:',
        '  a@1.0.0:',
        '    resolution: {integrity: sha512-x}',
        'snapshots:',
        '  a@1.0.0: {}',
        '',
      ].join('\n'),
    );
    const [parsed] = await readInputs(dir, ['pnpm-lock.yaml']);
    expect(find(parsed!, 'a').map((d) => [d.workspace, d.line])).toEqual([
      ['packages/web', 4],
      ['packages/legacy', null],
      ['packages/linked', null],
    ]);
  });

  it('expands yarn workspaces given as { packages: [...] } with ** patterns', async () => {
    write('package.json', JSON.stringify({ private: true, workspaces: { packages: ['apps/**'] } }));
    write('apps/group/site/package.json', JSON.stringify({ name: 'site', devDependencies: { a: '^1.0.0' } }, null, 2));
    write('yarn.lock', '# yarn lockfile v1\n\n\na@^1.0.0:\n  version "1.0.0"\n  resolved "https://registry.example/a/-/a-1.0.0.tgz"\n');
    const [parsed] = await readInputs(dir, ['yarn.lock']);
    expect(only(parsed!, 'a')).toMatchObject({ workspace: 'apps/group/site', file: 'apps/group/site/package.json', line: 4, dev: true });
  });

  it('gives Python lockfiles their pyproject.toml', async () => {
    cpSync(new URL('../../../fixtures/lockfiles/python-poetry/', import.meta.url), dir, { recursive: true });
    const [parsed] = await readInputs(dir, ['poetry.lock']);
    expect(parsed?.notes).toEqual([]);
    expect(parsed!.dependencies.filter((d) => d.direct).map((d) => d.name)).toEqual(['pytest', 'requests']);
  });

  it('follows requirement includes inside the tree and refuses one outside it', async () => {
    write('requirements.txt', '-r reqs/base.txt\nflask==3.0.0\n');
    write('reqs/base.txt', 'requests==2.31.0\n');
    const [parsed] = await readInputs(dir, ['requirements.txt']);
    expect(only(parsed!, 'requests')).toMatchObject({ file: 'reqs/base.txt', line: 1 });

    writeFileSync(path.join(outside, 'secret.txt'), 'not-a-requirement ===\n');
    write('requirements-dev.txt', `-r ${path.relative(dir, path.join(outside, 'secret.txt'))}\n`);
    const error = await rejection(readInputs(dir, ['requirements-dev.txt']));
    expect(error.message).toMatch(/^requirements-dev\.txt: include ".*secret\.txt" is outside the audited directory: not read$/);

    // By absolute path, even to a file inside the tree: refused, never read.
    write('requirements-abs.txt', `-r ${path.join(dir, 'reqs/base.txt')}\n`);
    const absolute = await rejection(readInputs(dir, ['requirements-abs.txt']));
    expect(absolute.message).toMatch(/^requirements-abs\.txt:1: include ".*base\.txt" is an absolute path or file URL/);
  });

  it('a --file missing from an audited directory other than the current one says where it was looked for', async () => {
    // `nerq audit sigreq --file sigreq/install/requirements.txt` looks for sigreq/sigreq/install/requirements.txt.
    const label = path.relative(process.cwd(), dir) || dir;
    const error = await rejection(readInputs(dir, ['sigreq/install/requirements.txt'], { explicit: true, dirLabel: label }));
    expect(error.message.startsWith('sigreq/install/requirements.txt: cannot read: no such file in ')).toBe(true);
    expect(error.message).toContain(label);
    // Detected inputs, and a directory that is the current one, keep the short form.
    expect((await rejection(readInputs(dir, ['package-lock.json'], { dirLabel: label }))).message).toBe('package-lock.json: cannot read: no such file');
  });

  it('names the file for a missing, oversized or malformed input', async () => {
    expect((await rejection(readInputs(dir, ['package-lock.json']))).message).toBe('package-lock.json: cannot read: no such file');
    write('big/package-lock.json', '');
    truncateSync(path.join(dir, 'big/package-lock.json'), MAX_INPUT_BYTES + 1);
    expect((await rejection(readInputs(dir, ['big/package-lock.json']))).message).toBe('big/package-lock.json: larger than 50 MB (51 MB): not read');
    write('package.json', '{\n  "dependencies": {\n    "a": 1\n  }\n}\n');
    expect((await rejection(readInputs(dir, ['package.json']))).message).toMatch(/^package\.json:3: unexpected structure/);
  });

  it('takes absolute paths inside the directory as relative names, and SBOMs only when named', async () => {
    write('out/bom.json', fixture('sbom-cyclonedx/bom.cdx.json'));
    const [parsed] = await readInputs(dir, [path.join(dir, 'out/bom.json')]);
    expect(parsed).toMatchObject({ file: 'out/bom.json', format: 'cyclonedx' });
  });
});

describe('workspace patterns', () => {
  it.each([
    ['*', 'web', true],
    ['pkg-*', 'pkg-web', true],
    ['pkg-*', 'web', false],
    ['*', '.hidden', false],
    ['{apps,libs}', 'libs', true],
    ['{apps,libs}', 'tools', false],
    ['v[12]', 'v2', true],
    ['v?', 'v10', false],
  ])('segment %s matches %s: %s (the one matcher the audit walk and the link verifier share)', (segment, name, expected) => {
    expect(workspaceGlobs([segment]).matches(name)).toBe(expected);
  });

  it('parses negations and refuses patterns that leave the project', () => {
    expect(parseWorkspacePattern('!./packages/legacy/')).toEqual({ segments: ['packages', 'legacy'], negated: true });
    expect(parseWorkspacePattern('../shared/*')).toBeNull();
    expect(parseWorkspacePattern('/abs/*')).toBeNull();
    expect(parseWorkspacePattern('')).toBeNull();
  });
});
