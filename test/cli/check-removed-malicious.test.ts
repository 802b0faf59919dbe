/**
 * `nerq check` of a project PyPI removed whole, named with no version (pipeline/removed-malicious.ts,
 * docs/security.md): one version-less OSV query finds the recorded malicious-package record that
 * affects every version (MAL-2023-1578, aiohtt), so the target is NO — DO NOT USE and the run
 * exits 1; without it the target stays not found (exit 3).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/report/schema.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { recordedOsvRecord, serveOsv } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

let server: FixtureServer | undefined;

afterEach(async () => {
  if (server !== undefined) {
    expectNoUnexpected(server);
    await server.close();
  }
  server = undefined;
});

async function removedProject(records: Record<string, unknown>[]): Promise<FixtureServer> {
  requireBuiltCli();
  server = await startFixtureServer();
  server.fallback('GET', '/pypi/', { status: 404, body: '{"message": "Not Found"}' });
  serveOsv(server, records);
  return server;
}

describe('nerq check of a project PyPI removed', () => {
  it('no version, a malicious-package record for every version: NO — DO NOT USE, exit 1', async () => {
    const s = await removedProject([recordedOsvRecord('MAL-2023-1578')]);
    const result = await runCli(['check', 'pypi:aiohtt', '--json'], { server: s });
    expect(result.code, result.stderr).toBe(1);
    const report = ReportSchema.parse(JSON.parse(result.stdout));
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.caps.map((c) => c.id)).toContain('malicious');
    expect(report.target).toMatchObject({ ecosystem: 'pypi', name: 'aiohtt', version: null, purl: 'pkg:pypi/aiohtt' });
    expect(s.requests.filter((r) => r.path.startsWith('/osv/')).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /osv/v1/query']);
  });

  it('no such record: not found, exit 3', async () => {
    const s = await removedProject([]);
    const result = await runCli(['check', 'pypi:aiohtt', '--json'], { server: s });
    expect(result.code, result.stderr).toBe(3);
    expect(ReportSchema.parse(JSON.parse(result.stdout)).error?.code).toBe('not-found');
  });
});
