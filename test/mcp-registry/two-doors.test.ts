/**
 * One server, one answer, whichever door it comes through (docs/mcp.md, "Code nerq cannot
 * inspect"): every real entry of the MCP Registry's seed (fixtures/mcp-registry/seed-2025-09-29.json.gz,
 * the latest version of each), the registry's own server.json examples and the entries recorded
 * from real projects, evaluated in process against the fixture server (npm packages synthetic
 * and healthy, OSV with no advisory, GitHub and PyPI down), and
 * - `nerq check mcp:…`'s gate and `nerq audit --mcp`'s policy (applyPolicy, as a matched entry is
 *   audited) agree on pass, fail or incomplete for each entry, at the default bar, at a bar set
 *   low (`--min-score 10`, below every MCP cap) and with `--allow-incomplete`;
 * - no bar passes what the report bounds, caps or cannot check: an exit 0 has no finding cap,
 *   no unknown guarding check, and a verdict that is not NO — DO NOT USE;
 * - an entry whose only packages nerq cannot inspect (OCI, NuGet, MCPB…) is never passed and never
 *   failed for that alone: incomplete (`uninspected`), whatever the bar or `--allow-incomplete`;
 * - each OCI image those entries name, launched as the clients' configurations launch images
 *   (`docker run -i --rm <image>`: an edit — the seed's image in the real launch shape of
 *   fixtures/mcp-clients), is `mcp-uninspected` in the audit with the same reading of its
 *   reference (digest, tag, latest, image registry) as the check's `mcp-oci-images`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { checkTargets } from '../../src/app/check.js';
import { applyPolicy, mergePolicy } from '../../src/audit/policy.js';
import { auditOutcome } from '../../src/audit/report.js';
import { mcpInput } from '../../src/audit/mcp/inputs.js';
import { readMcpConfig } from '../../src/audit/mcp/read-config.js';
import { CHECKS } from '../../src/checks/index.js';
import { ociImageOf, ociPinning } from '../../src/checks/lib/oci.js';
import type { Report } from '../../src/report/schema.js';
import { DEFAULT_GATE, exitCodeOf, type GateOptions } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { DEFAULT_NOW, REPO_ROOT } from '../support/run-cli.js';
import { serveOsv, serveSynthetic } from '../cli/audit-helpers.js';
import { envelope, entryPath, example, realEntry, SEED_2025, type ServerJson } from '../cli/mcp-helpers.js';

const NOW = new Date(DEFAULT_NOW);
const TIMEOUT_MS = 300_000;

type Pkg = { registryType?: string; identifier?: string; version?: string; registryBaseUrl?: string };
const latest = new Map<string, ServerJson>();
for (const entry of SEED_2025) latest.set(entry.name, entry);
for (const file of readdirSync(path.join(REPO_ROOT, 'fixtures', 'mcp-registry', 'server-json-examples')).filter((f) => f.endsWith('.json'))) {
  const entry = example(file);
  latest.set(entry.name, entry);
}
for (const file of readdirSync(path.join(REPO_ROOT, 'fixtures', 'mcp-registry', 'real'))) {
  const entry = realEntry(file);
  latest.set(entry.name, entry);
}
const ENTRIES = [...latest.values()];
const packagesOf = (entry: ServerJson): Pkg[] => (entry.packages as Pkg[] | undefined) ?? [];
/** No npm or PyPI package: nothing it runs can be evaluated. */
const uninspectable = (entry: ServerJson) => !packagesOf(entry).some((p) => p.registryType === 'npm' || p.registryType === 'pypi');

let harness: AppHarness;
beforeEach(async () => {
  harness = await startAppHarness('nerq-two-doors-', NOW);
  for (const entry of ENTRIES) harness.server.expect('GET', entryPath(entry.name), { body: envelope(entry) });
  for (const prefix of ['npm', 'npm-api', 'pypi', 'pypistats', 'github']) {
    harness.server.fallback('GET', `/${prefix}/`, { status: 503, body: 'down' });
    harness.server.fallback('POST', `/${prefix}/`, { status: 503, body: 'down' });
  }
  const served = new Set<string>();
  for (const entry of ENTRIES) {
    for (const pkg of packagesOf(entry)) {
      if (pkg.registryType !== 'npm' || pkg.identifier === undefined || served.has(pkg.identifier)) continue;
      served.add(pkg.identifier);
      serveSynthetic(harness.server, { name: pkg.identifier, version: pkg.version ?? '1.0.0', repository: null, mcpName: entry.name });
    }
  }
  serveOsv(harness.server, []);
});
afterEach(() => harness.stop());

const BARS: [string, GateOptions][] = [
  ['default', DEFAULT_GATE],
  ['--min-score 10', { ...DEFAULT_GATE, threshold: 10 }],
  ['--allow-incomplete', { ...DEFAULT_GATE, allowIncomplete: true }],
  ['--min-score 10 --allow-incomplete', { ...DEFAULT_GATE, threshold: 10, allowIncomplete: true }],
];

/** The exit code `nerq audit --mcp` has for this entry alone, matched from a configured remote (applyPolicy, then the run's outcome). */
function auditExit(report: Report, gate: GateOptions): number {
  const policy = mergePolicy(null, { minScore: gate.threshold, minCoverage: gate.minCoverage });
  const subject = { ecosystem: 'mcp' as const, name: report.target.name, version: report.target.version, spec: null, direct: true, dev: false, declaredIn: [], resolved: null, via: [] };
  const { status } = applyPolicy(report, subject, policy, NOW);
  const count = (s: string) => (status === s ? 1 : 0);
  const summary = { total: 1, passed: count('pass'), failed: count('fail'), ignored: count('ignored'), errors: count('error'), incomplete: count('incomplete') };
  return auditOutcome(summary, 0, gate.allowIncomplete === true).exitCode;
}

const guardingIds = new Set(CHECKS.filter((c) => c.guardsDanger === true).map((c) => c.id));

describe('an MCP server, through `nerq check` and `nerq audit --mcp`', () => {
  it('the same outcome in both doors at every bar; nothing bounded, capped or unchecked passes; uninspectable code is incomplete', { timeout: TIMEOUT_MS }, async () => {
    const app = harness.runtime();
    let uninspected = 0;
    for (const entry of ENTRIES) {
      for (const [bar, gate] of BARS) {
        const [outcome] = await checkTargets(app, { targets: [parseTarget(`mcp:${entry.name}`)], gate, now: NOW });
        const report = outcome!.report;
        const checkExit = exitCodeOf([report.gate]);
        const label = `${entry.name} (${bar})`;
        expect(auditExit(report, gate), label).toBe(checkExit);
        if (checkExit === 0) {
          expect(report.caps.filter((c) => c.dimension === null && c.ceiling !== true), label).toEqual([]);
          expect(report.verdictCode, label).not.toBe('do-not-use');
          expect(report.checks.filter((c) => guardingIds.has(c.id) && c.status === 'unknown').map((c) => c.id), label).toEqual([]);
        }
        if (uninspectable(entry)) {
          expect(report.caps.find((c) => c.id === 'mcp-uninspected'), label).toMatchObject({ limit: 69.9, ceiling: true });
          expect(checkExit, label).not.toBe(0);
          // What is known decides a failure (a finding cap, the bar); the uninspectable code alone never does.
          if (checkExit === 1) expect(report.gate.reasonDetails.some((r) => r.code === 'below-minimum' || (r.code === 'capped' && r.args.cap !== 'mcp-uninspected')), label).toBe(true);
          else expect(report.gate.reasonDetails.map((r) => r.code), label).toContain('uninspected');
          if (bar === 'default') uninspected += 1;
        }
      }
    }
    // The seed's 88 OCI-only entries, its NuGet and MCPB examples, and the remote-only ones.
    expect(uninspected).toBeGreaterThan(90);
  });

  it("an image launch in a client's configuration is read as the registry entry's image: mcp-uninspected, the same pinning", async () => {
    const readings = new Map<string, number>();
    const MESSAGE_OF = { digest: 'pinned', tag: 'tag', latest: 'latest', 'foreign-registry': 'foreign-registry', malformed: 'malformed' } as const;
    const app = harness.runtime();
    for (const entry of ENTRIES.filter((e) => packagesOf(e).length > 0 && packagesOf(e).every((p) => p.registryType === 'oci'))) {
      const [pkg] = packagesOf(entry);
      const image = ociImageOf(pkg!.identifier ?? '', pkg!.version ?? null, pkg!.registryBaseUrl ?? null);
      const config = JSON.stringify({ mcpServers: { box: { command: 'docker', args: ['run', '-i', '--rm', image] } } });
      const { findings } = mcpInput(readMcpConfig(config, '.mcp.json'), '.mcp.json');
      expect(findings.map((f) => f.code), entry.name).toEqual(['mcp-uninspected']);
      const pinning = ociPinning(image).pinning;
      expect(findings[0]?.details, entry.name).toMatchObject({ kind: 'oci', image, pinning });
      if (packagesOf(entry).length === 1) {
        const [outcome] = await checkTargets(app, { targets: [parseTarget(`mcp:${entry.name}`)], gate: DEFAULT_GATE, now: NOW });
        expect(outcome!.report.checks.find((c) => c.id === 'mcp-oci-images')?.messageId, entry.name).toBe(MESSAGE_OF[pinning]);
      }
      readings.set(pinning, (readings.get(pinning) ?? 0) + 1);
    }
    // The seed pins its images by tag (schema 2025-09-29 names the tag in `version`).
    expect(readings.get('tag') ?? 0).toBeGreaterThan(80);
  });
});
