/**
 * An npm or PyPI package that names no source repository nerq can read (none, or one off GitHub)
 * (docs/scoring.md §1): its repository checks are unknown (`no-source-repository`), never left
 * out, so hiding the source fares no better than showing one GitHub could not serve. In process
 * against the fixture server: a synthetic npm package (its packument's `repository` absent, or
 * naming a github.com repository while GitHub is down) and the synthetic PyPI fixture project
 * nerq-fixture-inactive (its only link an example.org home page).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { evidenceFromJson, rescoreEvidence } from '../../src/app/score.js';
import type { Evidence, RepositoryRef, Sources } from '../../src/evidence/schema.js';
import { githubSourceFor } from '../../src/pipeline/collect-github-source.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { resolveEndpoints } from '../../src/sources/endpoints.js';
import { parseTarget } from '../../src/target/parse.js';
import { serveOsv, serveSynthetic } from '../cli/audit-helpers.js';
import { expectPypiProject, pypiProject } from '../cli/pypi-helpers.js';
import { DEFAULT_NOW } from '../support/run-cli.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';

const NOW = new Date(DEFAULT_NOW);
const HIDDEN = 'nerq-no-repository';
const SHOWN = 'nerq-repository-down';

let harness: AppHarness;
beforeEach(async () => {
  harness = await startAppHarness('nerq-package-no-repository-', NOW);
  serveSynthetic(harness.server, { name: HIDDEN, version: '2.1.0', repository: null });
  serveSynthetic(harness.server, { name: SHOWN, version: '2.1.0', repository: 'nerq-fixtures/repository-down' });
  serveOsv(harness.server, []);
  for (const method of ['GET', 'POST'] as const) harness.server.fallback(method, '/github/', { status: 503, body: 'down' });
});
afterEach(() => harness.stop());

async function evaluate(input: string): Promise<{ report: Report; evidence: Evidence; githubRequests: number }> {
  const before = harness.server.requests.length;
  const [outcome] = await checkTargets(harness.runtime(), { targets: [parseTarget(input)], gate: DEFAULT_GATE, now: NOW });
  const report = ReportSchema.parse(JSON.parse(JSON.stringify(outcome!.report)));
  return { report, evidence: outcome!.evidence!, githubRequests: harness.server.requests.slice(before).filter((r) => r.path.startsWith('/github/')).length };
}

/** The checks that read the `github` source, as a report says (unknown for either reason). */
const repositoryChecks = (report: Report) =>
  report.checks.filter((c) => (c.evidence as { source?: unknown } | null)?.source === 'github').map((c) => [c.id, c.status, c.messageId]);

describe('an npm package naming no source repository', () => {
  it('has the repository checks a package naming one would have, unknown for that reason, counted in coverage', async () => {
    const hidden = await evaluate(HIDDEN);
    const shown = await evaluate(SHOWN);
    expect(hidden.githubRequests).toBe(0);
    expect(hidden.evidence.sources.github).toMatchObject({ status: 'not-applicable', undeclared: true });
    const down = repositoryChecks(shown.report);
    expect(down.length).toBeGreaterThan(5);
    expect(repositoryChecks(hidden.report)).toEqual(down.map(([id]) => [id, 'unknown', 'no-source-repository']));
    expect(hidden.report.coverage).toBe(shown.report.coverage);
  });

  it('fares no better than the same package naming a repository GitHub cannot serve', async () => {
    const hidden = (await evaluate(HIDDEN)).report;
    const shown = (await evaluate(SHOWN)).report;
    expect([hidden.verdictCode, hidden.provisional, hidden.gate.passed, hidden.coverage]).toEqual([shown.verdictCode, shown.provisional, shown.gate.passed, shown.coverage]);
    // Lower, not equal: without a repository its manifest also lacks the `bugs` link metadata-completeness reads.
    expect(hidden.score).toBeLessThanOrEqual(shown.score!);
  });

  it('its evidence re-scores to the same report; evidence saved before `undeclared` re-scores as it always did (repository checks left out)', async () => {
    const { report, evidence } = await evaluate(HIDDEN);
    const saved = evidenceFromJson(JSON.parse(JSON.stringify(evidence)));
    const [again] = rescoreEvidence(saved, { gate: DEFAULT_GATE });
    expect(ReportSchema.parse(JSON.parse(JSON.stringify(again)))).toEqual(report);

    const older = JSON.parse(JSON.stringify(evidence)) as Evidence;
    delete (older.sources.github as { undeclared?: true }).undeclared;
    const [old] = rescoreEvidence(evidenceFromJson(older), { gate: DEFAULT_GATE });
    expect(repositoryChecks(old!)).toEqual([]);
    expect(old!.verdictReasonDetails.map((r) => r.code)).not.toContain('provisional-no-repository');
    expect(old!.coverage).toBeGreaterThan(report.coverage);
  });
});

describe('a PyPI project naming no source repository', () => {
  it('nerq-fixture-inactive (an example.org home page only): repository checks unknown for that reason', async () => {
    expectPypiProject(harness.server, pypiProject('nerq-fixture-inactive'), { github: 'served-by-test' });
    const { report, evidence, githubRequests } = await evaluate('pypi:nerq-fixture-inactive');
    expect(githubRequests).toBe(0);
    expect(evidence.sources.github).toMatchObject({ status: 'not-applicable', undeclared: true });
    const checks = repositoryChecks(report);
    expect(checks.length).toBeGreaterThan(5);
    for (const [id, status, messageId] of checks) expect([id, status, messageId]).toEqual([id, 'unknown', 'no-source-repository']);
    // Its score is decided by a cap (inactive), so low coverage does not make it provisional (docs/scoring.md §4).
    expect(report.caps.map((c) => c.id)).toContain('inactive');
  });
});

describe('githubSourceFor', () => {
  const ctx = { endpoints: resolveEndpoints({}) } as RunContext;
  const none: Promise<Sources['attestations']> = Promise.resolve({ status: 'not-applicable', reason: 'none' });
  const ref = (raw: string, host: string | null, slug: string | null): RepositoryRef => ({ raw, host, url: null, slug, directory: null });

  it.each([
    ['npm', null, 'the package declares no source repository'],
    ['pypi', null, 'the package declares no source repository'],
    ['npm', ref('https://gitlab.com/o/r', 'gitlab', 'o/r'), 'the declared repository is not on GitHub'],
    ['pypi', ref('https://example.org/r', null, null), 'the declared repository is not on GitHub'],
  ] as const)('%s, repository %j: not applicable and undeclared (its checks unknown, not left out)', async (ecosystem, repository, reason) => {
    expect(await githubSourceFor(ctx, { ecosystem, name: 'x', repository }, none)).toEqual({ status: 'not-applicable', reason, undeclared: true });
  });

  it('a package whose repository was read as the target (a repository target) is not applicable, not undeclared', async () => {
    const source = await githubSourceFor({ ...ctx, repositoryAlreadyRead: 'read as the target' }, { ecosystem: 'npm', name: 'x', repository: null }, none);
    expect(source).toEqual({ status: 'not-applicable', reason: 'read as the target' });
  });
});
