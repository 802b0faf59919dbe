/**
 * `nerq audit` of a requirements file pinning a PEP 440 local version (`torch==2.3.0+cu121`,
 * hand-written as PyTorch's install instructions give it): PyPI never hosts a local version, so
 * nerq asks PyPI nothing about it and lends it no PyPI release's score; the pin is an entry no
 * registry vouches for, and the run is INCOMPLETE (exit 3) until it is reviewed (an ignore
 * entry) or accepted (`--allow-incomplete`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFixtureServers, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { parseAudit, TempDirs } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

const dirs = new TempDirs();
let server: FixtureServer;

const startServer = useFixtureServers();

beforeAll(() => requireBuiltCli());
afterAll(() => dirs.cleanUp());

describe('nerq audit: a local version pin', () => {
  it('is unvouched, never looked up on PyPI: exit 3, and 0 once an ignore entry names it', async () => {
    server = await startServer();
    const dir = dirs.project({ 'requirements.txt': '--extra-index-url https://download.pytorch.org/whl/cu121\ntorch==2.3.0+cu121\n' });
    const result = await runCli(['audit', dir, '--json'], { server });
    const report = parseAudit(result.stdout);
    expect(result.code, result.stderr).toBe(3);
    expect(report.entries).toEqual([]);
    expect(report.unvouched).toEqual([
      // The extra index in effect is where pip takes it from: named as its source, with its host.
      { ecosystem: 'pypi', name: 'torch', file: 'requirements.txt', line: 2, source: 'https://download.pytorch.org/whl/cu121', host: 'download.pytorch.org', direct: true, dev: false, status: 'unvouched', ignoredBy: null },
    ]);
    expect(report.warnings.map((w) => w.code)).toContain('unvouched-remote');
    // Nothing was asked about torch (PyPI, OSV or anything else).
    expect(server.requests).toEqual([]);

    const policy = JSON.stringify({ ignore: [{ package: 'torch', reason: 'CUDA build from the PyTorch index, reviewed' }] });
    const ignored = await runCli(['audit', dirs.project({ 'requirements.txt': 'torch==2.3.0+cu121\n', '.nerqrc.json': policy }), '--json'], { server });
    expect(ignored.code, ignored.stderr).toBe(0);
    expect(parseAudit(ignored.stdout).unvouched?.map((r) => r.status)).toEqual(['ignored']);
  });
});
