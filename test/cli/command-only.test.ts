/**
 * A package that is only a command (docs/checks.md, `type-declarations`): through the registry
 * fixture server, a `bin` with nothing a `require` or `import` loads leaves type-declarations out of
 * the report, while the same package with a `main` is marked down for shipping no types. Evidence
 * saved before the tarball's `importable` fact was recorded scores back as before.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidenceSchema } from '../../src/evidence/schema.js';
import { FIXTURES_ROOT, useFixtureServers } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { makeTarball } from '../support/tarball.js';
import { expectPackage, parseReport, requireBuiltCli } from './helpers.js';

const NAME = 'nerq-fixture-bare';
const VERSION = '1.0.0';
const startServer = useFixtureServers();
let tmp: string;

beforeAll(() => {
  requireBuiltCli();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'nerq-command-only-'));
});


afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** The bare fixture package republished with these package.json fields and files: packument and tarball agree, integrity computed. */
function republished(fields: Record<string, unknown>, files: string[]) {
  const manifest = { name: NAME, version: VERSION, ...fields };
  const tarball = makeTarball([{ path: 'package.json', content: JSON.stringify(manifest) }, ...files.map((p) => ({ path: p, content: '#!/usr/bin/env node\n' }))]);
  const packument = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'npm', `${NAME}.json`), 'utf8')) as { versions: Record<string, Record<string, unknown>> };
  const version = packument.versions[VERSION]!;
  delete version.main;
  Object.assign(version, fields);
  const dist = version.dist as Record<string, unknown>;
  dist.integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  delete dist.shasum;
  dist.fileCount = files.length + 1;
  return { packument: { body: packument }, tarball: { body: tarball } };
}

async function check(fields: Record<string, unknown>, files: string[], extraArgs: string[] = []) {
  const server = await startServer();
  expectPackage(server, NAME, republished(fields, files));
  const result = await runCli(['check', NAME, '--json', ...extraArgs], { server });
  return { result, report: parseReport(result.stdout) };
}

const typeDeclarations = (report: ReturnType<typeof parseReport>) => report.checks.find((c) => c.id === 'type-declarations');

describe('type-declarations for a command-line package', () => {
  it('a `bin` with nothing importable: the check is left out of the report', async () => {
    const { report } = await check({ bin: { tool: 'cli.js' } }, ['cli.js']);
    expect(typeDeclarations(report)).toBeUndefined();
  });

  it('`directories.bin` with nothing importable: left out too', async () => {
    const { report } = await check({ directories: { bin: 'bin' } }, ['bin/tool']);
    expect(typeDeclarations(report)).toBeUndefined();
  });

  it('the same command with a `main`: judged as a library, no types scores 40', async () => {
    const { report } = await check({ bin: { tool: 'cli.js' }, main: 'lib.js' }, ['cli.js', 'lib.js']);
    expect(typeDeclarations(report)).toMatchObject({ score: 40, messageId: 'none' });
  });

  it('evidence saved before nerq recorded `importable` loads, and scores the check as before', async () => {
    const file = path.join(tmp, 'evidence.json');
    const { report } = await check({ bin: { tool: 'cli.js' } }, ['cli.js'], ['--save-evidence', file]);
    expect(typeDeclarations(report)).toBeUndefined();
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { sources: { tarball: { facts: { entryPoints: Record<string, unknown> } } } };
    expect(saved.sources.tarball.facts.entryPoints.importable).toBe(false);
    delete saved.sources.tarball.facts.entryPoints.importable;
    expect(EvidenceSchema.safeParse(saved).success).toBe(true);
    writeFileSync(file, JSON.stringify(saved));
    const score = await runCli(['score', file, '--json']);
    expect(typeDeclarations(parseReport(score.stdout))).toMatchObject({ score: 40, messageId: 'none' });
  });
});
