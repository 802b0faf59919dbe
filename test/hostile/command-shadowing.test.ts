/**
 * Hostile world: commands a package puts on PATH. npm links every `bin` entry (and, without
 * `bin`, every file under `directories.bin`) into `node_modules/.bin`, which npm, yarn and pnpm
 * put first on PATH for every package.json script: a dependency whose command is named `node`,
 * `npm`, `git`, `sh` or `tsc` runs instead of that command (docs/security.md, "Commands a package
 * puts on PATH"). nerq names the command and what it replaces and holds the verdict; with install
 * scripts, or a command new in the release, the check fails and the gate with it. The real
 * owners (typescript's `tsc`, npm's `npx`, corepack's `yarn`, …) are never findings.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import check from '../../src/checks/command-shadowing.js';
import { registryFacts as factsOf } from '../../src/sources/npm/facts.js';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import { outcomeOf } from '../checks/check-table.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { makeTarball, type TarEntry } from '../support/tarball.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { noteCases } from './support/metrics.js';
import { CHALK_FILES, CHALK_MANIFEST, closeWorlds, evaluate, version, vouchedFor, type Packument } from './support/package-world.js';

beforeAll(() => requireCli());
afterAll(() => closeWorlds());

const MANIFEST = CHALK_MANIFEST;
const FILES: TarEntry[] = [...CHALK_FILES, { path: 'cli.js', content: '#!/usr/bin/env node\nrequire("child_process").spawnSync(process.argv[2]);\n' }];

const tarballWith = (manifest: object, extra: TarEntry[] = []): Buffer => makeTarball([{ path: 'package.json', content: JSON.stringify(manifest) }, ...FILES, ...extra]);

/** The same fields in the packument's manifest of 4.1.0 and, with `before`, of every version (nothing is new in 4.1.0). */
function inPackument(fields: Record<string, unknown>, before: boolean): (p: Packument) => void {
  return (p) => {
    for (const at of before ? Object.keys(p.versions) : ['4.1.0']) Object.assign(version(p, at), fields);
  };
}

interface Case {
  label: string;
  manifest: Record<string, unknown>;
  extra?: TarEntry[];
  /** The fields the packument's manifest says (default: the tarball's bin and directories). */
  packument?: Record<string, unknown>;
  /** Whether earlier versions shipped the same commands (default: true, so the check only holds). */
  before?: boolean;
  shadowed: string[];
  score: number;
}

const cases: Case[] = [
  { label: 'a bin named node', manifest: { ...MANIFEST, bin: { node: 'cli.js' } }, shadowed: ['node'], score: 20 },
  { label: 'npm and npx from a package that is not npm', manifest: { ...MANIFEST, bin: { npm: 'cli.js', npx: 'cli.js' } }, shadowed: ['npm', 'npx'], score: 20 },
  { label: 'git, sh and curl', manifest: { ...MANIFEST, bin: { git: 'cli.js', sh: 'cli.js', curl: 'cli.js' } }, shadowed: ['curl', 'git', 'sh'], score: 20 },
  { label: 'tsc from a package that is not typescript', manifest: { ...MANIFEST, bin: { tsc: 'cli.js' } }, shadowed: ['tsc'], score: 20 },
  { label: 'a key npm cuts to its last segment (../../bin/sh)', manifest: { ...MANIFEST, bin: { '../../bin/sh': 'cli.js' } }, shadowed: ['sh'], score: 20 },
  { label: 'a key with a backslash and a colon (x\\\\y:env)', manifest: { ...MANIFEST, bin: { 'x\\y:env': 'cli.js' } }, shadowed: ['env'], score: 20 },
  { label: 'another case and a Windows launcher extension (NODE.cmd)', manifest: { ...MANIFEST, bin: { 'NODE.cmd': 'cli.js' } }, shadowed: ['NODE.cmd'], score: 20 },
  {
    label: 'no bin field: directories.bin links every file of the folder',
    manifest: { ...MANIFEST, directories: { bin: './tools' } },
    extra: [{ path: 'tools/npx', content: '#!/bin/sh\n' }, { path: 'tools/chalk-demo', content: '#!/bin/sh\n' }],
    shadowed: ['npx'],
    score: 20,
  },
  {
    label: 'directories.bin only in the tarball (the packument shows no command)',
    manifest: { ...MANIFEST, directories: { bin: 'tools' } },
    extra: [{ path: 'tools/python3', content: '#!/bin/sh\n' }],
    packument: {},
    shadowed: ['python3'],
    // No version in the packument shows a command: new in this release.
    score: 0,
  },
  { label: 'new in this release: the version before it shipped no command', manifest: { ...MANIFEST, bin: { yarn: 'cli.js' } }, before: false, shadowed: ['yarn'], score: 0 },
  { label: 'with a postinstall', manifest: { ...MANIFEST, bin: { eslint: 'cli.js' }, scripts: { postinstall: 'node cli.js' } }, packument: { bin: { eslint: 'cli.js' }, scripts: { postinstall: 'node cli.js' } }, shadowed: ['eslint'], score: 0 },
];

describe('a command that replaces a system or toolchain command', () => {
  it.concurrent.for(cases.map((c) => [c.label, c] as const))('%s: named, and the verdict held', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, c], { task, expect }) => {
    noteCases(task);
    const fields = c.packument ?? Object.fromEntries(Object.entries(c.manifest).filter(([k]) => k === 'bin' || k === 'directories'));
    const { report, sandbox } = await evaluate(task, label, { ...vouchedFor(tarballWith(c.manifest, c.extra), inPackument(fields, c.before ?? true)), osv: osvNoAdvisories });
    sandbox.remove();
    const found = checkOf(report, 'command-shadowing');
    expect(found.score, label).toBe(c.score);
    expect(found.evidence.shadowed, label).toEqual(c.shadowed);
    expect(report.verdictCode, label).not.toBe('yes');
    if (c.score === 0) {
      expect(report.caps.map((cap) => cap.id), label).toContain('command-shadowing');
      expect(report.score ?? 100, label).toBeLessThan(50);
    }
  });

  it('a command of its own name is not a finding', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const manifest = { ...MANIFEST, bin: { chalk: 'cli.js' } };
    const { report, sandbox } = await evaluate(task, 'own command', { ...vouchedFor(tarballWith(manifest), inPackument({ bin: manifest.bin }, true)), osv: osvNoAdvisories });
    sandbox.remove();
    expect(report.checks.map((c) => c.id)).not.toContain('command-shadowing');
  });
});

/** The recorded packuments of the legitimate owners (fixtures/PROVENANCE.md). */
const OWNERS = JSON.parse(readFileSync(new URL('../../fixtures/command-shadowing/owners.json', import.meta.url), 'utf8')) as Record<string, { 'dist-tags': { latest: string } } & Record<string, unknown>>;

describe('the real owners of the commands they ship', () => {
  it.each([
    ['typescript', ['tsc']],
    ['npm', ['npm', 'npx']],
    ['corepack', ['corepack', 'pnpm', 'pnpx', 'yarn', 'yarnpkg']],
    ['yarn', ['yarn', 'yarnpkg']],
    ['eslint', ['eslint']],
    ['@pnpm/exe', ['pn', 'pnpm', 'pnpx', 'pnx']],
    ['jest-cli', ['jest']],
  ])('%s ships %j: no finding', (name, commands) => {
    const packument = OWNERS[name]!;
    const facts = factsOf(packument, packument['dist-tags'].latest);
    expect(facts.commands).toEqual(commands);
    const outcome = outcomeOf(check, evidence({ registry: facts, tarball: unavailable('not recorded') }));
    expect(outcome.messageId).toBe('owned');
    expect(outcome.notApplicable).toBe(true);
  });

  it('the same commands from a package that is not their owner are findings', () => {
    const packument = structuredClone(OWNERS.corepack!);
    packument.name = 'corepack-fast';
    const latest = (packument.versions as Record<string, Record<string, unknown>>)[packument['dist-tags'].latest]!;
    latest.name = 'corepack-fast';
    const outcome = outcomeOf(check, evidence({ registry: factsOf(packument, packument['dist-tags'].latest), tarball: unavailable('not recorded') }));
    expect(outcome.messageId).not.toBe('owned');
    expect(outcome.data?.shadowed).toEqual(['corepack', 'pnpm', 'pnpx', 'yarn', 'yarnpkg']);
  });
});
