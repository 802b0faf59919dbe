/**
 * An `io.github.<owner>` entry whose repository is another account's (the seed's
 * `io.github.neondatabase/mcp-server-neon`, whose repository is `neondatabase-labs/…`, a sibling
 * organisation) is matched to its repository only on the repository owner's own word: its npm
 * package names the entry (`mcpName`) and its provenance says the repository's workflow built it
 * (mcp-namespace-owner, `built-by-owner`). Provenance from another repository, or none, leaves the
 * mismatch and its cap. The package is synthetic (test/cli/audit-helpers.ts), served with a SLSA
 * provenance statement at npm's attestations endpoint; GitHub, PyPI and the stats answer 503.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import type { Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { DEFAULT_NOW } from '../support/run-cli.js';
import { serveOsv, serveSynthetic } from '../cli/audit-helpers.js';
import { envelope, entryPath, SEED_2025, type ServerJson } from '../cli/mcp-helpers.js';

const NOW = new Date(DEFAULT_NOW);
const NAME = 'io.github.neondatabase/mcp-server-neon';
const ENTRY = SEED_2025.findLast((e) => e.name === NAME) as ServerJson;
const PACKAGE = (ENTRY.packages as { identifier: string; version: string }[])[0]!;

let harness: AppHarness;
/** The registry's entry; OSV with no advisory; the rest down. */
async function startWorld(): Promise<void> {
  harness = await startAppHarness('nerq-namespace-provenance-', NOW);
  harness.server.expect('GET', entryPath(NAME), { body: envelope(ENTRY) });
  for (const prefix of ['npm-api', 'pypi', 'pypistats', 'github']) {
    harness.server.fallback('GET', `/${prefix}/`, { status: 503, body: 'down' });
    harness.server.fallback('POST', `/${prefix}/`, { status: 503, body: 'down' });
  }
  serveOsv(harness.server, []);
}
beforeEach(startWorld);
afterEach(() => harness.stop());

async function check(provenance: string | undefined, mcpName = NAME): Promise<Report> {
  serveSynthetic(harness.server, {
    name: PACKAGE.identifier,
    version: PACKAGE.version,
    repository: 'neondatabase-labs/mcp-server-neon',
    mcpName,
    ...(provenance === undefined ? {} : { provenance }),
  });
  const [outcome] = await checkTargets(harness.runtime(), { targets: [parseTarget(`mcp:${NAME}`)], gate: DEFAULT_GATE, now: NOW });
  return JSON.parse(JSON.stringify(outcome!.report)) as Report;
}

const namespaceCheck = (report: Report) => report.checks.find((c) => c.id === 'mcp-namespace-owner');
const capIds = (report: Report) => report.caps.map((c) => c.id);

describe('mcp-namespace-owner: a sibling organisation\'s repository', () => {
  it('the package names the entry and was built from the entry\'s repository: a match, no namespace cap', async () => {
    const report = await check('neondatabase-labs/mcp-server-neon');
    expect(namespaceCheck(report)).toMatchObject({ status: 'pass', score: 100, messageId: 'built-by-owner' });
    expect(namespaceCheck(report)?.evidence).toMatchObject({ owner: 'neondatabase-labs', package: `npm:${PACKAGE.identifier}@${PACKAGE.version}` });
    expect(capIds(report)).not.toContain('mcp-namespace-mismatch');
  });

  it('built from another repository, or no provenance: the mismatch and its cap stay', async () => {
    for (const provenance of ['someone-else/mcp-server-neon', undefined]) {
      await harness.stop();
      await startWorld();
      const report = await check(provenance);
      expect(namespaceCheck(report)?.messageId, String(provenance)).toBe('mismatch');
      expect(capIds(report), String(provenance)).toContain('mcp-namespace-mismatch');
      expect(report.verdictCode, String(provenance)).not.toBe('yes');
    }
  });
});
