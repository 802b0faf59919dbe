import check, { SHADOWING_CAP, SHADOWING_SCORE } from '../../src/checks/command-shadowing.js';
import { evidence, registryFacts, tarballFacts, unavailable } from '../support/evidence-builder.js';
import type { RegistryFacts } from '../../src/evidence/schema.js';
import { describe, expect, it } from 'vitest';
import { linkedCommands } from '../../src/sources/npm/commands.js';
import { lookupName } from '../../src/checks/lib/path-commands.js';
import { checkTable } from './check-table.js';

/** A release whose previous version shipped the same commands (so none is new), without install scripts. */
function shipping(name: string, commands: string[], overrides: Partial<RegistryFacts> = {}) {
  const base = registryFacts({ name });
  return evidence({
    registry: { name, hasBin: true, commands, previous: { ...base.previous!, hasBin: true, commands }, ...overrides },
    tarball: unavailable('timeout'),
  });
}

const CAP = [{ id: 'command-shadowing', limit: SHADOWING_CAP, reason: expect.any(String) as string }];

checkTable(check, [
  { name: 'no command at all: left out', evidence: evidence({ registry: { commands: [] } }), score: null, messageId: 'none', notApplicable: true },
  { name: 'its own command, not a listed one: left out', evidence: shipping('left-pad-cli', ['left-pad']), score: null, messageId: 'none', notApplicable: true },
  { name: 'typescript ships tsc and tsserver', evidence: shipping('typescript', ['tsc', 'tsserver']), score: null, messageId: 'owned', data: { commands: ['tsc', 'tsserver'] }, notApplicable: true },
  { name: 'npm ships npm and npx', evidence: shipping('npm', ['npm', 'npx']), score: null, messageId: 'owned', notApplicable: true },
  { name: 'corepack ships yarn and pnpm', evidence: shipping('corepack', ['corepack', 'pnpm', 'pnpx', 'yarn', 'yarnpkg']), score: null, messageId: 'owned', notApplicable: true },
  { name: 'yarn ships yarn and yarnpkg', evidence: shipping('yarn', ['yarn', 'yarnpkg']), score: null, messageId: 'owned', notApplicable: true },
  { name: 'node ships node', evidence: shipping('node', ['node']), score: null, messageId: 'owned', notApplicable: true },
  { name: 'jest-cli ships jest', evidence: shipping('jest-cli', ['jest']), score: null, messageId: 'owned', notApplicable: true },
  { name: 'a package ships node', evidence: shipping('fast-runner', ['fast-runner', 'node']), score: SHADOWING_SCORE, messageId: 'shadows', data: { shadowed: ['node'], count: 1, installScripts: false }, message: ['node'] },
  { name: 'a package ships git', evidence: shipping('git-helper', ['git']), score: SHADOWING_SCORE, messageId: 'shadows', data: { shadowed: ['git'] } },
  { name: 'a package named after the command does not own a system command', evidence: shipping('curl', ['curl']), score: SHADOWING_SCORE, messageId: 'shadows', data: { shadowed: ['curl'] } },
  { name: 'a package whose name does not carry a tool does not own it', evidence: shipping('lint-runner', ['eslint']), score: SHADOWING_SCORE, messageId: 'shadows', data: { shadowed: ['eslint'] } },
  { name: 'another package ships tsc', evidence: shipping('fast-compile', ['tsc']), score: SHADOWING_SCORE, messageId: 'shadows', data: { shadowed: ['tsc'] } },
  { name: 'a build of a tool ships its command as a drop-in', evidence: shipping('esbuild-wasm', ['esbuild']), score: null, messageId: 'owned', data: { commands: ['esbuild'] } },
  { name: 'a scoped build of a tool ships its command as a drop-in', evidence: shipping('@lerna-lite/cli', ['lerna']), score: null, messageId: 'owned', data: { commands: ['lerna'] } },
  { name: 'a name carrying the runtime does not own it', evidence: shipping('@rollup/wasm-node', ['node']), score: SHADOWING_SCORE, messageId: 'shadows', data: { shadowed: ['node'] } },
  { name: 'a name carrying a package manager does not own it', evidence: shipping('yarn-tools', ['yarn']), score: SHADOWING_SCORE, messageId: 'shadows', data: { shadowed: ['yarn'] } },
  { name: 'a name carrying a system command does not own it', evidence: shipping('git-helper', ['git']), score: SHADOWING_SCORE, messageId: 'shadows', data: { shadowed: ['git'] } },
  { name: 'case and a Windows launcher extension do not hide it', evidence: shipping('x-tools', ['NPX.cmd', 'Sh']), score: SHADOWING_SCORE, messageId: 'shadows', data: { shadowed: ['NPX.cmd', 'Sh'], count: 2 } },
  {
    name: 'with an install script: fails and caps',
    evidence: shipping('fast-runner', ['node'], { installScripts: { postinstall: 'node setup.js' } }),
    score: 0,
    messageId: 'shadows-armed',
    data: { shadowed: ['node'], installScripts: true, added: [] },
    caps: CAP,
  },
  {
    name: 'hasInstallScript alone counts as an install script',
    evidence: shipping('fast-runner', ['npm'], { hasInstallScript: true }),
    score: 0,
    messageId: 'shadows-armed',
    data: { installScripts: true },
    caps: CAP,
  },
  {
    name: 'the command is new in this release: fails and caps',
    evidence: evidence({ registry: { name: 'util-x', hasBin: true, commands: ['util-x', 'git'], previous: { ...registryFacts().previous!, hasBin: true, commands: ['util-x'] } }, tarball: unavailable('timeout') }),
    score: 0,
    messageId: 'shadows-armed',
    data: { added: ['git'], installScripts: false },
    caps: CAP,
  },
  {
    name: 'the previous version shipped no command at all: new',
    evidence: evidence({ registry: { name: 'util-x', hasBin: true, commands: ['rm'] }, tarball: unavailable('timeout') }),
    score: 0,
    messageId: 'shadows-armed',
    data: { added: ['rm'] },
    caps: CAP,
  },
  {
    name: 'only the tarball\'s package.json (directories.bin) names the command',
    evidence: evidence({ registry: { name: 'util-x', hasBin: true, commands: [], commandsFolder: 'bin', previous: { ...registryFacts().previous!, hasBin: true, commands: ['sh'] } }, tarball: tarballFacts({ commands: ['sh'] }) }),
    score: SHADOWING_SCORE,
    messageId: 'shadows',
    data: { shadowed: ['sh'] },
  },
  {
    name: 'directories.bin without the tarball: unknown, not "no commands"',
    evidence: evidence({ registry: { name: 'util-x', hasBin: true, commands: [], commandsFolder: 'bin' }, tarball: unavailable('timeout') }),
    score: null,
    messageId: 'folder-unread',
    data: { folder: 'bin' },
  },
  {
    name: 'evidence saved before command names were recorded: unknown',
    evidence: evidence({ registry: { name: 'util-x', hasBin: true }, tarball: unavailable('timeout') }),
    score: null,
    messageId: 'not-recorded',
  },
]);

describe('command names as npm links them', () => {
  it.each([
    [{ name: '@scope/tool', bin: './cli.js' }, undefined, ['tool']],
    [{ name: 'x', bin: { '../node': 'a.js', 'a\\npm': 'b.js', 'c:git': 'c.js', '': 'd.js', ok: '' } }, undefined, ['git', 'node', 'npm']],
    [{ name: 'x', directories: { bin: './bin/' } }, ['bin/sh', 'bin/sub/curl', 'bin/.hidden', 'lib/node'], ['curl', 'sh']],
    [{ name: 'x', bin: {}, directories: { bin: 'bin' } }, ['bin/sh'], []],
    [{ name: 'x', directories: { bin: 'bin' } }, undefined, []],
  ])('%j over %j → %j', (manifest, files, expected) => {
    expect(linkedCommands(manifest, files)).toEqual(expected);
  });

  it('looks names up as a case-insensitive PATH does', () => {
    expect(['Node.EXE', 'git.cmd', 'sh.ps1', 'tsc'].map(lookupName)).toEqual(['node', 'git', 'sh', 'tsc']);
  });
});
