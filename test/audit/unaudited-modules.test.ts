/**
 * go.mod and Cargo.lock are not audited yet (no Go module or crates.io registry adapter): alone
 * they are bad input that says so and what reads them (exit 2, never "no lockfile found"), named
 * with --file they are refused the same way, and beside an audited lockfile they leave the run
 * incomplete (exit 3 unless --allow-incomplete) with an `unaudited-input` warning in every format —
 * their dependencies were never checked, so the run is never a plain PASS. The files are the real
 * ones recorded under fixtures/lockfiles/real (fixtures/PROVENANCE.md).
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditInputError, prepareAudit } from '../../src/app/audit.js';
import { unauditedInputs } from '../../src/audit/detect.js';
import { buildAuditReport } from '../../src/audit/report.js';
import { renderAuditMarkdown } from '../../src/render/audit-markdown.js';
import { renderSarif } from '../../src/render/sarif.js';
import { outcomeHint } from '../../src/render/audit-labels.js';
import { CHECKS } from '../../src/checks/index.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { entryOf, healthy, poor, NOW } from './policy/reports.js';

const REAL = path.join(REPO_ROOT, 'fixtures', 'lockfiles', 'real');
const GO_MOD = path.join(REAL, 'mark3labs__mcp-go', 'go.mod');
const CARGO_LOCK = path.join(REAL, 'astral-sh__uv', 'Cargo.lock');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-unaudited-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function inputError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AuditInputError) return error.message;
    throw error;
  }
  throw new Error('expected an AuditInputError');
}

describe('finding go.mod and Cargo.lock', () => {
  it('lists the ones present, in a stable order', async () => {
    copyFileSync(CARGO_LOCK, path.join(dir, 'Cargo.lock'));
    copyFileSync(GO_MOD, path.join(dir, 'go.mod'));
    expect(await unauditedInputs(dir)).toEqual(['go.mod', 'Cargo.lock']);
    expect(await unauditedInputs(path.join(dir, 'missing'))).toEqual([]);
  });

  it.each([
    ['go.mod', GO_MOD],
    ['Cargo.lock', CARGO_LOCK],
  ])('%s alone: bad input naming the file and the repository check that reads it, not "no lockfile found"', async (name, source) => {
    copyFileSync(source, path.join(dir, name));
    const message = await inputError(prepareAudit({ dir, dirLabel: 'proj' }));
    expect(message.startsWith(`proj: ${name} found: nerq audit does not read go.mod or Cargo.lock yet`)).toBe(true);
    expect(message).toContain('nerq check github:owner/repo');
    expect(message).not.toContain('no lockfile');
    expect(message).not.toMatch(/\n/);
  });

  it.each(['go.mod', 'Cargo.lock'])('--file %s is refused, naming the file', async (name) => {
    copyFileSync(name === 'go.mod' ? GO_MOD : CARGO_LOCK, path.join(dir, name));
    const message = await inputError(prepareAudit({ dir, files: [name] }));
    expect(message.startsWith(`${name}: nerq audit does not read go.mod or Cargo.lock yet`)).toBe(true);
  });

  it('beside an audited lockfile: the plan carries it', async () => {
    copyFileSync(GO_MOD, path.join(dir, 'go.mod'));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'ui', version: '1.0.0', dependencies: { chalk: '5.3.0' } }));
    const plan = await prepareAudit({ dir });
    expect(plan.inputs.map((i) => i.file)).toEqual(['package.json']);
    expect(plan.unaudited).toEqual(['go.mod']);
  });
});

describe('the outcome of a run that left go.mod unaudited', () => {
  const report = (entries = [entryOf(healthy())], allowIncomplete = false) =>
    buildAuditReport({
      entries,
      inputs: [{ file: 'package.json', format: 'package.json', dependencies: [] }],
      policySource: null,
      now: NOW,
      warnings: [],
      expiredIgnores: 0,
      allowIncomplete,
      unaudited: ['go.mod'],
    });

  it('every package passing: INCOMPLETE (exit 3), with one unaudited-input warning naming the file', () => {
    const built = report();
    expect(built.outcome).toEqual({ result: 'incomplete', exitCode: 3, allowIncomplete: false });
    expect(built.warnings.filter((w) => w.code === 'unaudited-input').map((w) => w.details)).toEqual([{ file: 'go.mod' }]);
    expect(outcomeHint(built)).toMatch(/^exit 3: the dependencies of go\.mod were not audited/);
  });

  it('--allow-incomplete accepts it (exit 0), and the hint says what was accepted', () => {
    const built = report([entryOf(healthy())], true);
    expect(built.outcome).toEqual({ result: 'pass', exitCode: 0, allowIncomplete: true });
    expect(outcomeHint(built)).toMatch(/^exit 0: the dependencies of go\.mod, not audited, accepted by --allow-incomplete/);
  });

  it('a failing package still fails the run (exit 1)', () => {
    expect(report([entryOf(poor())]).outcome.exitCode).toBe(1);
  });

  it('SARIF says the run is incomplete and carries the warning; Markdown names it', () => {
    const built = { ...report(), tool: { name: 'nerq' as const, version: '0.1.0' } };
    const sarif = JSON.parse(renderSarif(built, { checks: CHECKS })) as { runs: { invocations: { toolExecutionNotifications: { descriptor: { id: string } }[] }[] }[] };
    const ids = sarif.runs[0]!.invocations[0]!.toolExecutionNotifications.map((n) => n.descriptor.id);
    expect(ids).toEqual(expect.arrayContaining(['audit-incomplete', 'unaudited-input']));
    expect(renderAuditMarkdown(built)).toContain('go.mod not audited');
  });
});
