/**
 * A repository target whose manifest no lockfile pins: its direct ranges resolved as the package
 * manager would today (pipeline/repository-ranges.ts), in process against the fixture server —
 * acme/widget's repository answers with the manifest replaced, the registry answering from the
 * range fixtures (fixtures/http/npm/nerq-fixture-range-*.json, fixtures/http/pypi/pypi/
 * nerq-fixture-range-py; synthesised, fixtures/PROVENANCE.md) and OSV from synthesised records.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { createRuntime } from '../../src/app/runtime.js';
import type { Evidence } from '../../src/evidence/schema.js';
import { RANGE_LOOKUPS_PER_REPOSITORY } from '../../src/pipeline/repository-ranges.js';
import type { Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { serveAdvertisedWidget, GITHUB_NOW } from '../cli/github-helpers.js';
import { serveRepo } from '../github/helpers.js';
import { FIXTURES_ROOT, type FixtureResponse } from '../support/fixture-server.js';
import { cliEnv } from '../support/run-cli.js';
import { osvRecord, serveOsvRecords, useRepositoryHarness } from './recorded-repos.js';

const h = useRepositoryHarness();

const REPO = 'acme/widget';
const packument = (name: string): FixtureResponse => ({ fixture: `npm/${name}.json` });

/** acme/widget with `manifest` as its package.json (or, with `pyproject`, a pyproject.toml in its place) and no lockfile. */
function serveRepository(files: { packageJson?: Record<string, unknown>; pyproject?: string }, osv: Record<string, unknown>[] = []): void {
  const override: Parameters<typeof serveRepo>[2] = { override: {} };
  if (files.packageJson !== undefined) override.override = { manifest: { body: JSON.stringify({ name: 'widget', version: '3.2.0', license: 'MIT', ...files.packageJson }, null, 2) } };
  if (files.pyproject !== undefined) {
    const tree = readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', REPO, 'git', 'trees', 'main.json'), 'utf8').replace('"path": "package.json"', '"path": "pyproject.toml"');
    override.override = { files: { body: tree, headers: { 'content-type': 'application/json' } } };
    h.server.expect('GET', `/github/repos/${REPO}/contents/pyproject.toml`, { body: files.pyproject });
  }
  serveRepo(h.server, REPO, override);
  serveAdvertisedWidget(h.server);
  serveOsvRecords(h.server, osv, false);
  h.server.fallback('GET', '/pypi/', { status: 404 });
}

async function check(): Promise<{ report: Report; evidence: Evidence }> {
  const at = new Date(GITHUB_NOW);
  const runtime = createRuntime({ env: cliEnv(h.home, { server: h.server, env: { NERQ_NOW: GITHUB_NOW } }), cwd: h.home, clock: () => at });
  h.runtimes.push(runtime);
  const [outcome] = await checkTargets(runtime, { targets: [parseTarget(`github:${REPO}`)], gate: DEFAULT_GATE });
  if (outcome?.evidence === undefined || outcome.evidence === null) throw new Error('no evidence');
  return { report: outcome.report, evidence: outcome.evidence };
}

const checkOf = (report: Report, id: string) => report.checks.find((c) => c.id === id);
function dependenciesOf(evidence: Evidence) {
  const deps = evidence.sources.dependencies;
  if (deps.status !== 'ok') throw new Error(`dependencies ${deps.status}`);
  return deps.facts;
}
const entryOf = (evidence: Evidence, name: string) => dependenciesOf(evidence).dependencies.find((d) => d.name === name);
/** The packages OSV was asked about, as `ecosystem:name@version`. */
const osvAsked = () =>
  h.server.requests
    .filter((r) => r.path === '/osv/v1/querybatch')
    .flatMap((r) => (JSON.parse(r.body) as { queries: { package: { ecosystem: string; name: string }; version: string }[] }).queries)
    .map((q) => `${q.package.ecosystem}:${q.package.name}@${q.version}`);

describe('a repository with a package.json and no lockfile: its direct ranges resolved as npm would today', () => {
  const dependencies = {
    'nerq-fixture-range-core': '^1.2.0',
    'nerq-fixture-range-past': '^2.1.0',
    'nerq-fixture-range-none': '^9.0.0',
    'widget-tools': 'github:acme/widget-tools',
  };

  it('takes latest inside the range, the highest non-deprecated match when latest is outside it, and names the advisory as resolved from a range', async () => {
    h.server.expect('GET', '/npm/nerq-fixture-range-core', packument('nerq-fixture-range-core'));
    h.server.expect('GET', '/npm/nerq-fixture-range-past', packument('nerq-fixture-range-past'));
    h.server.expect('GET', '/npm/nerq-fixture-range-none', packument('nerq-fixture-range-none'));
    serveRepository({ packageJson: { dependencies } }, [osvRecord('GHSA-rng0-0000-0001', 'nerq-fixture-range-core', '1.3.0', '1.4.1', 'HIGH')]);
    const { report, evidence } = await check();

    // latest (1.4.0) satisfies ^1.2.0: taken, not the pre-release or 2.0.0
    expect(entryOf(evidence, 'nerq-fixture-range-core')).toMatchObject({ version: '1.4.0', range: '^1.2.0', resolvedFromRange: true, reason: null, path: [], file: 'package.json' });
    // latest (3.0.0) is outside ^2.1.0 and 2.6.0 is deprecated: the highest other match
    expect(entryOf(evidence, 'nerq-fixture-range-past')).toMatchObject({ version: '2.5.0', resolvedFromRange: true });
    // nothing satisfies ^9.0.0: unknown, with the reason
    const none = entryOf(evidence, 'nerq-fixture-range-none');
    expect(none).toMatchObject({ version: null, range: '^9.0.0' });
    expect(none?.resolvedFromRange).toBeUndefined();
    expect(none?.reason).toMatch(/no version matches/);
    // a git specifier is not resolved: named as unvouched, never looked up
    expect(dependenciesOf(evidence).unvouched).toEqual([expect.stringContaining('"widget-tools" skipped')]);
    expect(h.server.requests.some((r) => r.path.includes('widget-tools'))).toBe(false);
    expect(dependenciesOf(evidence)).toMatchObject({ unpinned: ['package.json'], lockfiles: [], rangeLookups: { used: 3, limit: RANGE_LOOKUPS_PER_REPOSITORY } });

    expect(osvAsked().sort()).toEqual(['npm:nerq-fixture-range-core@1.4.0', 'npm:nerq-fixture-range-past@2.5.0']);
    const finding = checkOf(report, 'vulnerable-dependencies');
    expect(finding).toMatchObject({ messageId: 'repository-vulnerable', score: 40, evidence: { ids: ['GHSA-rng0-0000-0001'], directOnly: true, unresolved: ['nerq-fixture-range-none'] } });
    expect(finding?.evidence.details).toEqual(['nerq-fixture-range-core@1.4.0 (resolved from range ^1.2.0, direct only, GHSA-rng0-0000-0001 fixed in 1.4.1)']);
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'GHSA-rng0-0000-0001', package: 'nerq-fixture-range-core', version: '1.4.0', fixed: '1.4.1' })]);
    // one direct dependency unresolved (and the transitive ones unknown): not known to be clean
    expect(checkOf(report, 'malicious-package')).toMatchObject({ score: null, messageId: 'repository-unchecked', evidence: { dependenciesChecked: false } });
  });

  it('no advisory: clean for the direct dependencies only, and said so', async () => {
    h.server.expect('GET', '/npm/nerq-fixture-range-core', packument('nerq-fixture-range-core'));
    h.server.expect('GET', '/npm/nerq-fixture-range-past', packument('nerq-fixture-range-past'));
    serveRepository({ packageJson: { dependencies: { 'nerq-fixture-range-core': '^1.2.0' }, devDependencies: { 'nerq-fixture-range-past': '~2.5.0' } } });
    const { report, evidence } = await check();
    expect(entryOf(evidence, 'nerq-fixture-range-past')).toMatchObject({ version: '2.5.0', dev: true, resolvedFromRange: true });
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({
      score: 100,
      messageId: 'repository-clean-ranges',
      evidence: { dependenciesQueried: 2, rangeResolved: 2, rangeFiles: 'package.json', directOnly: true, notResolved: 'none' },
    });
    expect(checkOf(report, 'vulnerable-dependencies')?.message).toContain('resolved from ranges, direct only');
    expect(checkOf(report, 'malicious-package')).toMatchObject({ score: null, messageId: 'repository-direct-only', evidence: { rangeFiles: 'package.json', rangeResolved: 2 } });
  });

  it('a malicious record on a version resolved from its range: NO — DO NOT USE, named as resolved from the range', async () => {
    h.server.expect('GET', '/npm/nerq-fixture-range-core', packument('nerq-fixture-range-core'));
    const mal = {
      schema_version: '1.7.3',
      id: 'MAL-2026-0777',
      modified: '2026-04-01T00:00:00Z',
      published: '2026-04-01T00:00:00Z',
      summary: 'Malicious code in nerq-fixture-range-core (npm)',
      details: 'Synthesised for a test.',
      affected: [{ package: { ecosystem: 'npm', name: 'nerq-fixture-range-core' }, versions: ['1.4.0'] }],
    };
    serveRepository({ packageJson: { dependencies: { 'nerq-fixture-range-core': '^1.2.0' } } }, [mal]);
    const { report } = await check();
    expect(report.verdictCode).toBe('do-not-use');
    expect(checkOf(report, 'malicious-package')).toMatchObject({
      score: 0,
      messageId: 'malicious-resolved-dependency',
      evidence: { details: ['nerq-fixture-range-core@1.4.0 (resolved from range ^1.2.0, direct only, MAL-2026-0777)'] },
    });
  });

  it(`the lookup budget (${RANGE_LOOKUPS_PER_REPOSITORY}) spent: runtime dependencies first, the rest unknown with the reason`, async () => {
    const names = Array.from({ length: RANGE_LOOKUPS_PER_REPOSITORY + 2 }, (_, i) => `nerq-fixture-range-n${String(i).padStart(2, '0')}`);
    const runtime = Object.fromEntries(names.slice(0, RANGE_LOOKUPS_PER_REPOSITORY - 1).map((n) => [n, '^1.2.0']));
    const dev = Object.fromEntries(names.slice(RANGE_LOOKUPS_PER_REPOSITORY - 1).map((n) => [n, '^1.2.0']));
    for (const name of names) h.server.expect('GET', `/npm/${name}`, packument('nerq-fixture-range-core'));
    // devDependencies first in the file: the budget still goes to the runtime ones first
    serveRepository({ packageJson: { devDependencies: dev, dependencies: runtime } });
    const { report, evidence } = await check();
    const facts = dependenciesOf(evidence);
    expect(h.server.requests.filter((r) => r.path.startsWith('/npm/nerq-fixture-range-n'))).toHaveLength(RANGE_LOOKUPS_PER_REPOSITORY);
    expect(facts.rangeLookups).toEqual({ used: RANGE_LOOKUPS_PER_REPOSITORY, limit: RANGE_LOOKUPS_PER_REPOSITORY });
    const unresolved = facts.dependencies.filter((d) => d.version === null);
    expect(unresolved.map((d) => [d.name, d.dev])).toEqual([
      [names[RANGE_LOOKUPS_PER_REPOSITORY], true],
      [names[RANGE_LOOKUPS_PER_REPOSITORY + 1], true],
    ]);
    for (const d of unresolved) expect(d.reason).toBe(`not resolved: more than ${RANGE_LOOKUPS_PER_REPOSITORY} registry lookups per repository`);
    expect(facts.dependencies.filter((d) => d.resolvedFromRange === true).every((d) => d.version === '1.4.0')).toBe(true);
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: 100, messageId: 'repository-clean-ranges', evidence: { unresolved: unresolved.map((d) => d.name) } });
  });

  it('the registry failing (5xx): those dependencies unknown with the reason, never clean', async () => {
    h.server.expect('GET', '/npm/nerq-fixture-range-core', { status: 503 });
    h.server.expect('GET', '/npm/nerq-fixture-range-past', { status: 503 });
    serveRepository({ packageJson: { dependencies: { 'nerq-fixture-range-core': '^1.2.0', 'nerq-fixture-range-past': '^2.1.0' } } });
    const { report, evidence } = await check();
    for (const name of ['nerq-fixture-range-core', 'nerq-fixture-range-past']) {
      const entry = entryOf(evidence, name);
      expect(entry?.version).toBeNull();
      expect(entry?.reason).toMatch(/registry unavailable|503/);
    }
    expect(osvAsked()).toEqual([]);
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: null, messageId: 'unpinned', evidence: { unresolvedCount: 2 } });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ score: null, messageId: 'repository-unchecked' });
  });
});

describe('a repository with a pyproject.toml and no lockfile: the PEP 440 specifier resolved as pip would today', () => {
  it('>=2,<3 takes the newest release that is neither yanked nor a pre-release', async () => {
    h.server.expect('GET', '/pypi/pypi/nerq-fixture-range-py/json', { fixture: 'pypi/pypi/nerq-fixture-range-py/json.json' });
    serveRepository({ pyproject: '[project]\nname = "widget-py"\nversion = "0.1.0"\ndependencies = ["nerq-fixture-range-py>=2,<3"]\n' });
    const { report, evidence } = await check();
    // 3.0.0 is outside the range, 2.6.0rc1 a pre-release, 2.5.0 yanked: 2.4.1
    expect(entryOf(evidence, 'nerq-fixture-range-py')).toMatchObject({ ecosystem: 'pypi', version: '2.4.1', range: '>=2,<3', resolvedFromRange: true, file: 'pyproject.toml' });
    expect(osvAsked()).toEqual(['PyPI:nerq-fixture-range-py@2.4.1']);
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ score: 100, messageId: 'repository-clean-ranges', evidence: { rangeFiles: 'pyproject.toml' } });
  });
});
