/**
 * Every real entry of the MCP Registry's seed (fixtures/mcp-registry/seed-2025-09-29.json.gz, the
 * latest version of each of its servers), with the registry's own server.json examples and the
 * entries recorded from real projects (fixtures/mcp-registry/server-json-examples, real/), evaluated
 * as an `mcp:` target, in process against the fixture server, in two worlds:
 * - everything but the registry down (npm, PyPI, GitHub, OSV answer 503): no entry may throw, each
 *   report keeps its schema, none is YES (nothing was inspected), one naming an npm or PyPI
 *   package is bounded below YES by the ceiling `mcp-package-unavailable` and incomplete, never
 *   failed by what could not be read now, every other one is capped `mcp-uninspected`
 *   (OCI-only, remote-only, or naming neither), and a namespace that names another owner than the repository's is
 *   `mcp-namespace-mismatch` — worked out here from the entry itself;
 * - the entries' npm packages healthy (synthetic packuments whose `mcpName` names the entry, OSV
 *   with no advisory; GitHub still down): the ownership check passes for each such entry, the
 *   weakest package's bound never fails the gate by itself, any YES is one the gate could
 *   stand behind (coverage ≥ 0.5, no cap under 70, nothing unchecked), every check left unknown
 *   is one what is missing explains (GitHub and PyPI down, no repository, a URL template), and
 *   every verdict below YES gives its reasons.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import type { Runtime } from '../../src/app/runtime.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { DEFAULT_NOW, REPO_ROOT } from '../support/run-cli.js';
import { serveOsv, serveSynthetic } from '../cli/audit-helpers.js';
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { envelope, entryPath, example, realEntry, SEED_2025, type ServerJson } from '../cli/mcp-helpers.js';

const NOW = new Date(DEFAULT_NOW);
const SWEEP_TIMEOUT_MS = 300_000;

type Pkg = { registryType?: string; identifier?: string; version?: string };
const latest = new Map<string, ServerJson>();
for (const entry of SEED_2025) latest.set(entry.name, entry);
const SEED_ENTRIES = [...latest.values()];
const EXAMPLES = readdirSync(path.join(REPO_ROOT, 'fixtures', 'mcp-registry', 'server-json-examples'))
  .filter((f) => f.endsWith('.json'))
  .map(example)
  .concat(readdirSync(path.join(REPO_ROOT, 'fixtures', 'mcp-registry', 'real')).map(realEntry));
for (const entry of EXAMPLES) latest.set(entry.name, entry);
const ENTRIES = [...latest.values()];
const packagesOf = (entry: ServerJson): Pkg[] => (entry.packages as Pkg[] | undefined) ?? [];

/** The GitHub owner an `io.github.<owner>/…` name claims and the one its repository URL names (lower case), when both are there. */
function owners(entry: ServerJson): { namespace: string; repository: string } | null {
  const namespace = /^io\.github\.([^/]+)\//.exec(entry.name)?.[1];
  const url = (entry.repository as { url?: string } | undefined)?.url;
  const repository = url === undefined ? undefined : /^https:\/\/github\.com\/([^/]+)\//i.exec(url)?.[1];
  return namespace === undefined || repository === undefined ? null : { namespace: namespace.toLowerCase(), repository: repository.toLowerCase() };
}

let harness: AppHarness;
beforeEach(async () => {
  harness = await startAppHarness('nerq-seed-sweep-', NOW);
  for (const entry of ENTRIES) harness.server.expect('GET', entryPath(entry.name), { body: envelope(entry) });
  for (const prefix of ['npm', 'npm-api', 'pypi', 'pypistats', 'github', 'osv']) {
    harness.server.fallback('GET', `/${prefix}/`, { status: 503, body: 'down' });
    harness.server.fallback('POST', `/${prefix}/`, { status: 503, body: 'down' });
  }
});
afterEach(() => harness.stop());

async function evaluate(app: Runtime, entry: ServerJson): Promise<Report> {
  const [outcome] = await checkTargets(app, { targets: [parseTarget(`mcp:${entry.name}`)], gate: DEFAULT_GATE, now: NOW });
  const report = JSON.parse(JSON.stringify(outcome!.report)) as unknown;
  const parsed = ReportSchema.safeParse(report);
  expect(parsed.success, `${entry.name}: ${JSON.stringify(parsed.error?.issues[0])}`).toBe(true);
  return parsed.data!;
}

const capIds = (report: Report): string[] => report.caps.map((c) => c.id);

describe('the MCP Registry seed, every entry', () => {
  it('with every source but the registry down: evaluated, never YES, bounded (unreadable packages) or capped (uninspectable ones), mismatched owners named', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const app = harness.runtime();
    let mismatched = 0;
    for (const entry of ENTRIES) {
      const report = await evaluate(app, entry);
      expect(report.target.name, entry.name).toBe(entry.name);
      expect(report.verdictCode, entry.name).not.toBe('yes');
      const readable = packagesOf(entry).some((p) => p.registryType === 'npm' || p.registryType === 'pypi');
      expect(capIds(report), entry.name).toContain(readable ? 'mcp-package-unavailable' : 'mcp-uninspected');
      if (readable) {
        expect(report.caps.find((c) => c.id === 'mcp-package-unavailable')?.limit, entry.name).toBe(69.9);
        expect(report.gate.reasonDetails.filter((r) => r.code === 'capped' && r.args.cap === 'mcp-package-unavailable'), entry.name).toEqual([]);
        expect(report.gate.passed, entry.name).not.toBe(true);
      }
      // Schema 2025-09-29 names an image's tag in `version`: such an image is pinned by that tag, not `latest`.
      const images = packagesOf(entry).filter((p) => p.registryType === 'oci');
      if (images.length > 0 && images.every((p) => (p.version ?? '') !== '')) {
        expect(report.checks.find((c) => c.id === 'mcp-oci-images')?.messageId, entry.name).not.toBe('latest');
      }
      const claimed = owners(entry);
      const mismatch = claimed !== null && claimed.namespace !== claimed.repository;
      if (mismatch) mismatched += 1;
      expect(capIds(report).includes('mcp-namespace-mismatch'), entry.name).toBe(mismatch);
    }
    // The seed holds a few such entries (org transfers, labs organisations): the rule is exercised.
    expect(mismatched).toBeGreaterThan(0);
    expect(ENTRIES.length).toBeGreaterThan(SEED_ENTRIES.length);
  });

  it('with their npm packages healthy: ownership confirmed by mcpName, and any YES one the gate stands behind', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const served = new Set<string>();
    const owned = new Map<string, string>();
    for (const entry of ENTRIES) {
      for (const pkg of packagesOf(entry)) {
        if (pkg.registryType !== 'npm' || pkg.identifier === undefined || served.has(pkg.identifier)) continue;
        served.add(pkg.identifier);
        owned.set(pkg.identifier, entry.name);
        serveSynthetic(harness.server, { name: pkg.identifier, version: pkg.version ?? '1.0.0', repository: null, mcpName: entry.name });
      }
    }
    serveOsv(harness.server, []);
    const app = harness.runtime();
    let confirmed = 0;
    let bounded = 0;
    for (const entry of ENTRIES) {
      const npm = packagesOf(entry).filter((p) => p.registryType === 'npm');
      if (npm.length === 0 || !npm.every((p) => owned.get(p.identifier ?? '') === entry.name) || packagesOf(entry).length !== npm.length) continue;
      const report = await evaluate(app, entry);
      const ownership = report.checks.find((c) => c.id === 'mcp-package-ownership');
      expect(ownership?.status, entry.name).toBe('pass');
      expect(capIds(report), entry.name).not.toContain('mcp-uninspected');
      confirmed += 1;
      // The weakest package's bound is a ceiling, not a finding: it never fails the gate by itself.
      expect(report.gate.reasonDetails.filter((r) => r.code === 'capped' && r.args.cap === 'mcp-package-weakest'), entry.name).toEqual([]);
      const bound = report.caps.find((c) => c.id === 'mcp-package-weakest');
      if (bound !== undefined) {
        expect(bound.ceiling, entry.name).toBe(true);
        bounded += 1;
      }
      if (report.verdictCode === 'yes') {
        expect(report.coverage, entry.name).toBeGreaterThanOrEqual(0.5);
        expect(report.caps.every((c) => c.limit >= 70), entry.name).toBe(true);
        expect(report.verdictReasonDetails.map((r) => r.code), entry.name).not.toContain('danger-unchecked');
      }
    }
    expect(confirmed).toBeGreaterThan(100);
    expect(bounded).toBeGreaterThan(100);
  });

  it('with their npm packages healthy: every unknown is one the data explains, every verdict below YES says why', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const served = new Set<string>();
    for (const entry of ENTRIES) {
      for (const pkg of packagesOf(entry)) {
        if (pkg.registryType !== 'npm' || pkg.identifier === undefined || served.has(pkg.identifier)) continue;
        served.add(pkg.identifier);
        serveSynthetic(harness.server, { name: pkg.identifier, version: pkg.version ?? '1.0.0', repository: null, mcpName: entry.name });
      }
    }
    serveOsv(harness.server, []);
    const app = harness.runtime();
    let unknowns = 0;
    for (const entry of ENTRIES) {
      const report = await evaluate(app, entry);
      const types = new Set(packagesOf(entry).map((p) => p.registryType));
      const repositoryUrl = (entry.repository as { url?: string } | undefined)?.url;
      const remotes = (entry.remotes as { url: string }[] | undefined) ?? [];
      // What is missing from this world or from the entry, per check (GitHub and PyPI are down here).
      const explained: Record<string, boolean> = {
        'mcp-repository-id:unknown': true,
        'mcp-repository-id:not-github-id': true,
        'mcp-packages:unavailable': types.has('pypi'),
        'mcp-package-ownership:unknown': types.has('pypi'),
        'mcp-packages:none-evaluated': !types.has('npm') || !types.has('pypi'),
        'mcp-packages:remote-only': types.size === 0 && remotes.length > 0,
        'mcp-packages:nothing-to-run': types.size === 0 && remotes.length === 0,
        'mcp-namespace-owner:no-repository': repositoryUrl === undefined,
        // An image nobody's proof covers (Docker Hub, another registry than the namespace's own): mcp-image-owner.
        'mcp-image-owner:unproven': types.has('oci'),
        'mcp-remotes:templated': remotes.some((r) => /^\{|:\/\/\{[^.]*\}(?:[/:]|$)/.test(r.url)),
      };
      for (const check of report.checks.filter((c) => c.id.startsWith('mcp-') && c.status === 'unknown')) {
        unknowns += 1;
        expect(explained[`${check.id}:${check.messageId}`], `${entry.name}: ${check.id} ${check.messageId}`).toBe(true);
      }
      // The registry status is in every answer here: never unknown.
      expect(report.checks.find((c) => c.id === 'mcp-registry-status')?.status, entry.name).toBe('pass');
      if (report.verdictCode !== 'yes') expect(report.verdictReasonDetails.length, entry.name).toBeGreaterThan(0);
    }
    expect(unknowns).toBeGreaterThan(0);
  });
});
