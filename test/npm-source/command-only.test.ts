/**
 * Whether a tarball offers anything to import (src/sources/npm/tarball.ts, `entryPoints.importable`)
 * and whether its package.json declares a command (`manifest.hasBin`, `directories.bin` too), read
 * from real archives as they stream, and what type-declarations makes of them: a command with
 * nothing importable leaves the check out; anything importable, or no command, is judged as a library.
 */
import { describe, expect, test } from 'vitest';
import { readTarball } from '../../src/sources/npm/tarball.js';
import { fileLookup, offersImport } from '../../src/checks/lib/entry-points.js';
import check from '../../src/checks/type-declarations.js';
import { evidence, registryFacts } from '../support/evidence-builder.js';
import { outcomeOf } from '../checks/check-table.js';
import { makeTgz, type TarEntry } from './make-tgz.js';

async function read(entries: TarEntry[]) {
  const result = await readTarball(makeTgz(entries), {}, []);
  if (result.status !== 'ok') throw new Error(`expected ok, got: ${result.reason}`);
  return result.facts;
}

const pkg = (fields: Record<string, unknown>): TarEntry => ({ path: 'package/package.json', body: JSON.stringify({ name: 'tool', version: '1.0.0', ...fields }) });
const file = (path: string): TarEntry => ({ path: `package/${path}`, body: '#!/usr/bin/env node\n' });

/** The tarball read, then judged with a registry that declares no types (as the tarball's package.json says). */
async function judge(entries: TarEntry[]) {
  const tarball = await read(entries);
  const outcome = outcomeOf(check, evidence({ registry: registryFacts({ name: 'tool', declaresTypes: false, hasBin: tarball.manifest?.hasBin ?? false }), tarball }));
  return { hasBin: tarball.manifest?.hasBin, importable: tarball.entryPoints?.importable, messageId: outcome.messageId, score: outcome.score, notApplicable: outcome.notApplicable === true };
}

const COMMAND_ONLY = { hasBin: true, importable: false, messageId: 'command-only', score: null, notApplicable: true };
const LIBRARY = { importable: true, messageId: 'none', score: 40, notApplicable: false };

describe('a command with nothing to import', () => {
  test.each([
    ['`bin` a path', [pkg({ bin: 'cli.js' }), file('cli.js')]],
    ['`bin` a map', [pkg({ bin: { tool: 'bin/tool.js' } }), file('bin/tool.js')]],
    ['`directories.bin` (every file in the folder a command)', [pkg({ directories: { bin: './bin' } }), file('bin/tool')]],
    ['an index file not at the root', [pkg({ bin: 'lib/index.js' }), file('lib/index.js')]],
    ['`exports: null` (no exports)', [pkg({ bin: 'cli.js', exports: null }), file('cli.js')]],
    ['an empty `main`', [pkg({ bin: 'cli.js', main: ' ' }), file('cli.js')]],
  ])('%s: not applicable', async (_name, entries) => {
    expect(await judge(entries)).toEqual(COMMAND_ONLY);
  });
});

describe('anything importable, or no command: judged as before', () => {
  test.each([
    ['`main`', [pkg({ bin: 'cli.js', main: 'lib/api.js' }), file('cli.js'), file('lib/api.js')]],
    ['`exports`', [pkg({ bin: 'cli.js', exports: { '.': './lib/api.js' } }), file('cli.js'), file('lib/api.js')]],
    ['`module`', [pkg({ bin: 'cli.js', module: 'lib/api.mjs' }), file('cli.js'), file('lib/api.mjs')]],
    ['a root index.js (Node loads it without `main`)', [pkg({ bin: 'cli.js' }), file('cli.js'), file('index.js')]],
    ['a root index.mjs', [pkg({ bin: 'cli.js' }), file('cli.js'), file('index.mjs')]],
    ['a root index.json', [pkg({ bin: 'cli.js' }), file('cli.js'), file('index.json')]],
  ])('a command with %s: importable, scored 40', async (_name, entries) => {
    expect(await judge(entries)).toEqual({ ...LIBRARY, hasBin: true });
  });

  test('`types` declared: importable, and the types score', async () => {
    expect(await judge([pkg({ bin: 'cli.js', types: 'cli.d.ts' }), file('cli.js'), file('cli.d.ts')])).toMatchObject({ hasBin: true, importable: true, score: 100 });
  });

  test.each([
    ['an empty `bin` map', { bin: {} }],
    ['`bin` set, so `directories.bin` is not read (npm reads the folder only without one)', { bin: {}, directories: { bin: 'bin' } }],
    ['no `bin` at all', {}],
  ])('%s: no command, judged as before', async (_name, fields) => {
    expect(await judge([pkg(fields), file('bin/tool')])).toEqual({ hasBin: false, importable: false, messageId: 'none', score: 40, notApplicable: false });
  });
});

describe('offersImport', () => {
  test('nothing declared and not every file listed: unknown, an index may be past the listing', () => {
    expect(offersImport({ bin: 'cli.js' }, fileLookup(['cli.js']), false)).toBeUndefined();
    expect(offersImport({ bin: 'cli.js' }, fileLookup(['cli.js']), true)).toBe(false);
  });

  test('a declared entry or a root index found is importable however many files were listed', () => {
    expect(offersImport({ main: 'x.js' }, fileLookup([]), false)).toBe(true);
    expect(offersImport({ bin: 'cli.js' }, fileLookup(['index.node']), false)).toBe(true);
  });
});
