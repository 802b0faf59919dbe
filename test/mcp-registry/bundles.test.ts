/**
 * `nerq check mcp:…` on entries with MCP bundles, in process against the fixture server (every
 * source but the registry down): the seed's npm + OCI + MCPB entry and the documentation's
 * MCPB-only example (fixtures/mcp-registry). The bundle is judged by what the entry says of it
 * (`mcp-bundles`), never downloaded: an MCPB-only entry stays uninspected, never YES.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { DEFAULT_NOW } from '../support/run-cli.js';
import { envelope, entryPath, example, seedEntry, type ServerJson } from '../cli/mcp-helpers.js';

const NOW = new Date(DEFAULT_NOW);

let harness: AppHarness;
beforeEach(async () => {
  harness = await startAppHarness('nerq-mcp-bundles-', NOW);
  for (const prefix of ['npm', 'npm-api', 'pypi', 'pypistats', 'github', 'osv']) {
    harness.server.fallback('GET', `/${prefix}/`, { status: 503, body: 'down' });
    harness.server.fallback('POST', `/${prefix}/`, { status: 503, body: 'down' });
  }
});
afterEach(() => harness.stop());

async function evaluate(entry: ServerJson): Promise<Report> {
  harness.server.expect('GET', entryPath(entry.name), { body: envelope(entry) });
  const [outcome] = await checkTargets(harness.runtime(), { targets: [parseTarget(`mcp:${entry.name}`)], gate: DEFAULT_GATE, now: NOW });
  return ReportSchema.parse(JSON.parse(JSON.stringify(outcome!.report)));
}

describe('MCP bundles', () => {
  it.each([
    ['the seed\'s npm + OCI + MCPB entry', () => seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3'), 'mcp-package-unavailable'],
    ['the documentation\'s MCPB-only entry', () => example('13-mcp-bundle-mcpb-package-example.json'), 'mcp-uninspected'],
  ])('%s: its bundle a release asset of its repository with its SHA-256, not downloaded; the entry not YES', async (_label, entry, cap) => {
    const report = await evaluate(entry());
    const check = report.checks.find((c) => c.id === 'mcp-bundles');
    expect(check).toMatchObject({ status: 'pass', messageId: 'release' });
    expect(check?.evidence).toMatchObject({ hashVerified: null });
    expect(report.mcp?.packages.find((p) => p.registryType === 'mcpb')?.notEvaluated).not.toBeNull();
    expect(report.caps.map((c) => c.id)).toContain(cap);
    expect(report.verdictCode).not.toBe('yes');
  });

  it('the MCPB-only entry edited to give no SHA-256: the bundle check fails', async () => {
    const entry = example('13-mcp-bundle-mcpb-package-example.json');
    delete (entry.packages as Record<string, unknown>[])[0]!.fileSha256;
    const report = await evaluate(entry);
    expect(report.checks.find((c) => c.id === 'mcp-bundles')).toMatchObject({ status: 'fail', messageId: 'no-hash' });
  });

  it.each<[string, unknown]>([
    ['a hash over 128 characters', 'a'.repeat(200)],
    ['a hash of 65 hex digits', 'a'.repeat(65)],
    ['a hash written as a number', 12345],
  ])('the MCPB-only entry edited to give %s: read, not refused — no well-formed SHA-256, so the bundle check fails', async (_label, written) => {
    const entry = example('13-mcp-bundle-mcpb-package-example.json');
    (entry.packages as Record<string, unknown>[])[0]!.fileSha256 = written;
    const report = await evaluate(entry);
    expect(report.error).toBeNull();
    expect(report.checks.find((c) => c.id === 'mcp-bundles')).toMatchObject({ status: 'fail', messageId: 'no-hash' });
    expect(report.verdictCode).not.toBe('yes');
  });
});
