/**
 * The entry points a tarball's package.json names, looked up in the files the tarball holds as it
 * streams (src/sources/npm/tarball.ts, `entryPoints`), and judged by entry-points — on faker
 * 6.6.6's real package.json and file list (fixtures/entry-points/, fixtures/PROVENANCE.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readTarball } from '../../src/sources/npm/tarball.js';
import check from '../../src/checks/entry-points.js';
import { registryFacts } from '../support/evidence-builder.js';
import { makeTgz, type TarEntry } from './make-tgz.js';

async function read(entries: TarEntry[]) {
  const result = await readTarball(makeTgz(entries), {}, []);
  if (result.status !== 'ok') throw new Error(`expected ok, got: ${result.reason}`);
  return result.facts;
}

const pkg = (fields: Record<string, unknown> = {}) => ({ path: 'package/package.json', body: JSON.stringify({ name: 'p', version: '1.0.0', ...fields }) });
const judge = (tarball: Awaited<ReturnType<typeof read>>) => check.evaluate({ registry: registryFacts(), tarball }, {} as never);

describe('entryPoints', () => {
  test("faker 6.6.6: its `main` (index.js) is not in the tarball — broken, held", async () => {
    const dir = new URL('../../fixtures/entry-points/faker@6.6.6/', import.meta.url);
    const manifest = readFileSync(new URL('package.json', dir), 'utf8');
    const files = readFileSync(new URL('files.txt', dir), 'utf8').split('\n').filter((p) => p !== '');
    const facts = await read(files.map((path) => ({ path, body: path === 'package/package.json' ? manifest : '' })));
    expect(facts.entryPoints).toEqual({ declared: 1, missing: [{ field: 'main', key: '', target: 'index.js', primary: true }], listedAll: true, importable: true });
    const outcome = judge(facts);
    expect([outcome.score, outcome.messageId, typeof outcome.holdVerdict]).toEqual([0, 'broken', 'string']);
  });

  // npm's placeholders for Node built-in names: a package.json naming index.js and a README (fixtures/PROVENANCE.md).
  test.each(['crypto@1.0.1', 'child_process@1.0.2'])('%s: its main is not there, and Node loads its built-in for the name — a stand-in, held as one', async (name) => {
    const dir = new URL(`../../fixtures/entry-points/${name}/`, import.meta.url);
    const manifest = readFileSync(new URL('package.json', dir), 'utf8');
    const files = readFileSync(new URL('files.txt', dir), 'utf8').split('\n').filter((p) => p !== '');
    const facts = await read(files.map((path) => ({ path, body: path === 'package/package.json' ? manifest : '' })));
    expect(facts.entryPoints?.missing).toEqual([{ field: 'main', key: '', target: 'index.js', primary: true }]);
    const outcome = check.evaluate({ registry: registryFacts({ name: name.slice(0, name.indexOf('@')) }), tarball: facts }, {} as never);
    expect([outcome.score, outcome.messageId, typeof outcome.holdVerdict]).toEqual([0, 'builtin-stand-in', 'string']);
  });

  // Real package.json files and file lists (fixtures/entry-points/, fixtures/PROVENANCE.md) of releases that load and run as shipped.
  test.each([
    ['yo@7.0.1', 'package', [{ field: 'main', key: '', target: 'lib', primary: false }]],
    ['figlet@1.12.0', 'package', [{ field: 'exports', key: './browser require default', target: './dist/figlet.js', primary: false }]],
    ['@types/three@0.187.0', 'three', []],
    [
      '@modelcontextprotocol/sdk@1.32.2',
      'package',
      [
        { field: 'exports', key: '. import', target: './dist/esm/index.js', primary: false },
        { field: 'exports', key: '. require', target: './dist/cjs/index.js', primary: false },
      ],
    ],
  ])('%s: nothing its require, import or command needs is missing — left out or listed, never held', async (name, root, expected) => {
    const dir = new URL(`../../fixtures/entry-points/${name}/`, import.meta.url);
    const manifest = readFileSync(new URL('package.json', dir), 'utf8');
    const files = readFileSync(new URL('files.txt', dir), 'utf8').split('\n').filter((p) => p !== '');
    const facts = await read(files.map((path) => ({ path, body: path === `${root}/package.json` ? manifest : '' })));
    expect(facts.entryPoints?.missing.filter((m) => m.field !== 'types')).toEqual(expected);
    const outcome = judge(facts);
    expect([outcome.score, outcome.holdVerdict]).toEqual([null, undefined]);
  });

  test('files before and after the package.json are both looked up; a symlink is not a file npm installs', async () => {
    const facts = await read([
      { path: 'package/bin/cli.js', body: '#!/usr/bin/env node' },
      pkg({ main: 'lib/main.js', bin: { tool: 'bin/cli.js', other: 'bin/other.js' } }),
      { path: 'package/lib/main.js', body: 'module.exports = 1;' },
      { path: 'package/bin/other.js', type: 'symlink', linkpath: 'cli.js' },
    ]);
    expect(facts.entryPoints?.missing).toEqual([{ field: 'bin', key: 'other', target: 'bin/other.js', primary: true }]);
  });

  test.each([
    ['only a `./package.json` subpath', { './package.json': './package.json' }],
    ['only a `*` pattern', { './*': './lib/*.js' }],
    ['only a stylesheet', { './style.css': './style.css' }],
    ['a subpath that is missing too', { './utils': './lib/utils.js' }],
  ])('`.` export missing beside %s: broken, held', async (_, subpaths) => {
    const facts = await read([
      pkg({ exports: { '.': './lib/index.js', ...subpaths } }),
      { path: 'package/package.json.bak', body: '' },
      { path: 'package/lib/other.js', body: '' },
      { path: 'package/style.css', body: '' },
    ]);
    expect(facts.entryPoints?.missing.find((m) => m.key === '.')?.primary).toBe(true);
    const outcome = judge(facts);
    expect([outcome.score, outcome.messageId, typeof outcome.holdVerdict]).toEqual([0, 'broken', 'string']);
  });

  test('`.` export missing beside a named subpath whose code is there: listed, not held', async () => {
    const facts = await read([pkg({ exports: { '.': './lib/index.js', './client': { import: './lib/client.mjs', require: './lib/client.js' } } }), { path: 'package/lib/client.js', body: '' }]);
    expect(facts.entryPoints?.missing).toEqual([
      { field: 'exports', key: '.', target: './lib/index.js', primary: false },
      { field: 'exports', key: './client import', target: './lib/client.mjs', primary: false },
    ]);
    expect([judge(facts).score, judge(facts).holdVerdict]).toEqual([null, undefined]);
  });

  test('all there: the check is left out', async () => {
    const facts = await read([pkg({ exports: { '.': './index.js' } }), { path: 'package/index.js', body: '' }]);
    expect(facts.entryPoints).toEqual({ declared: 1, missing: [], listedAll: true, importable: true });
    expect(judge(facts).notApplicable).toBe(true);
  });

  test('no readable package.json: no entry points, the check unknown', async () => {
    const facts = await read([{ path: 'package/package.json', body: '{ not json' }]);
    expect(facts.entryPoints).toBeUndefined();
    expect(judge(facts).messageId).toBe('unread');
  });
});
