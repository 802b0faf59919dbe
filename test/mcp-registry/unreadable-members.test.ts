/**
 * A package member a check judges — its version, runtime hint or registry base URL — written in a
 * shape nerq cannot read (a number, an over-long text): the entry is read, the package is not
 * evaluated (evaluating it would judge the registry type's default in that member's place: the
 * latest release, npx, the public registry), and the entry stays uninspected, never YES. Edits of
 * the real seed entry (fixtures/mcp-registry/seed.json, its npm package alone), in process against
 * the fixture server with every other source down.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { DEFAULT_NOW } from '../support/run-cli.js';
import { envelope, entryPath, seedEntry } from '../cli/mcp-helpers.js';

const NOW = new Date(DEFAULT_NOW);
const NAME = 'io.github.domdomegg/airtable-mcp-server';

let harness: AppHarness;
beforeEach(async () => {
  harness = await startAppHarness('nerq-mcp-unreadable-', NOW);
  for (const prefix of ['npm', 'npm-api', 'pypi', 'pypistats', 'github', 'osv']) {
    harness.server.fallback('GET', `/${prefix}/`, { status: 503, body: 'down' });
    harness.server.fallback('POST', `/${prefix}/`, { status: 503, body: 'down' });
  }
});
afterEach(() => harness.stop());

async function evaluate(edit: (pkg: Record<string, unknown>) => void): Promise<{ report: Report; npmRequests: number }> {
  const entry = seedEntry(NAME, '1.7.3');
  const npm = structuredClone((entry.packages as Record<string, unknown>[]).find((p) => p.registryType === 'npm')!);
  edit(npm);
  harness.server.expect('GET', entryPath(NAME), { body: envelope({ ...entry, packages: [npm] }) });
  const [outcome] = await checkTargets(harness.runtime(), { targets: [parseTarget(`mcp:${NAME}`)], gate: DEFAULT_GATE, now: NOW });
  const report = ReportSchema.parse(JSON.parse(JSON.stringify(outcome!.report)));
  return { report, npmRequests: harness.server.requests.filter((r) => r.path.startsWith('/npm/')).length };
}

describe('an npm package whose judged member nerq cannot read', () => {
  it.each<[string, (pkg: Record<string, unknown>) => void, string]>([
    ['a version written as a number', (p) => { p.version = 1; }, 'version (a number, not text)'],
    ['a version over 255 characters', (p) => { p.version = '1'.repeat(300); }, 'version (over 255 characters)'],
    ['a runtimeHint over 64 characters', (p) => { p.runtimeHint = 'npx'.repeat(30); }, 'runtimeHint (over 64 characters)'],
    ['a runtimeHint written as an object', (p) => { p.runtimeHint = { command: 'npx' }; }, 'runtimeHint (an object, not text)'],
    ['a registryBaseUrl over 512 characters', (p) => { p.registryBaseUrl = `https://registry.example/${'x'.repeat(600)}`; }, 'registryBaseUrl (over 512 characters)'],
  ])('%s: the entry read, the package not evaluated (nothing asked of npm), the entry uninspected', async (_label, edit, member) => {
    const { report, npmRequests } = await evaluate(edit);
    expect(report.error).toBeNull();
    expect(npmRequests).toBe(0);
    const [pkg] = report.mcp?.packages ?? [];
    expect([pkg?.target, pkg?.report]).toEqual([null, null]);
    expect(pkg?.notEvaluated).toContain(member);
    expect(report.checks.find((c) => c.id === 'mcp-packages')).toMatchObject({ status: 'unknown', messageId: 'none-evaluated' });
    expect(report.caps.map((c) => c.id)).toContain('mcp-uninspected');
    expect(report.verdictCode).not.toBe('yes');
  });

  it('the seed as written is evaluated (its registry asked), so the edits above are what leaves it unevaluated', async () => {
    const { report, npmRequests } = await evaluate(() => undefined);
    expect(report.error).toBeNull();
    expect(npmRequests).toBeGreaterThan(0);
    expect(report.mcp?.packages[0]?.target).toBe('npm:airtable-mcp-server@1.7.3');
  });
});
