/**
 * A `github:` target's workflows read and judged end to end (sources/github/workflow-files.ts,
 * checks/workflow-safety.ts), in process against the fixture server replaying a recorded
 * repository (microsoft/playwright-mcp: 2 workflows, YES as recorded). Each fault or finding is a
 * synthetic edit of one served workflow: the recording's `.github/workflows/ci.yml` answered with
 * another text (a real vulnerable workflow from fixtures/workflows), an error, or an alias bomb.
 */
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { createRuntime } from '../../src/app/runtime.js';
import type { Evidence } from '../../src/evidence/schema.js';
import type { Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { MAX_WORKFLOW_FILES_REST } from '../../src/sources/github/workflow-files.js';
import { parseTarget } from '../../src/target/parse.js';
import type { FixtureResponse, FixtureServer } from '../support/fixture-server.js';
import { cliEnv } from '../support/run-cli.js';
import { PUBLISHED, recordOf, serveRecordedRepo, servePublished, useRepositoryHarness } from './recorded-repos.js';

const harness = useRepositoryHarness();
let server: FixtureServer;
let home: string;
beforeEach(() => {
  ({ server, home } = harness);
});

const PLAYWRIGHT = 'microsoft/playwright-mcp';
const CI = '/contents/.github/workflows/ci.yml';
const real = (file: string): string => readFileSync(new URL(`../../fixtures/workflows/${file}`, import.meta.url), 'utf8');

async function check(override: Record<string, FixtureResponse> = {}): Promise<{ report: Report; evidence: Evidence; requests: number }> {
  serveRecordedRepo(server, PLAYWRIGHT, { license: 'Apache-2.0', stars: 20_000, topics: ['mcp', 'playwright'], override });
  servePublished(server, PUBLISHED[PLAYWRIGHT] ?? {});
  const at = new Date(new Date(recordOf(PLAYWRIGHT).recordedCommit.committerDate).getTime() + 86_400_000);
  const runtime = createRuntime({ env: cliEnv(home, { server, env: { NERQ_NOW: at.toISOString() } }), cwd: home, clock: () => at });
  harness.runtimes.push(runtime);
  const [outcome] = await checkTargets(runtime, { targets: [parseTarget(`github:${PLAYWRIGHT}`)], gate: DEFAULT_GATE });
  if (outcome?.evidence === undefined || outcome.evidence === null) throw new Error('no evidence');
  return { report: outcome.report, evidence: outcome.evidence, requests: server.requests.filter((r) => r.path.startsWith('/github/')).length };
}

const checkOf = (report: Report, id: string) => report.checks.find((c) => c.id === id);
const workflowHold = (report: Report) => report.verdictReasonDetails.find((r) => r.code === 'verdict-held' && r.args?.check === 'workflow-safety');

describe('workflow-safety on a recorded repository', () => {
  it('its real workflows read: none runs on events outsiders cause, so the check is left out (no points), the verdict still YES, 2 requests more than before', async () => {
    const { report, requests, evidence } = await check();
    expect(report.checks.find((c) => c.id === 'workflow-safety')).toBeUndefined();
    const github = evidence.sources.github;
    expect(github.status === 'ok' ? github.facts.files?.workflowSafety : null).toMatchObject({ listed: 2, read: expect.any(Array), unread: [], outsiderTriggered: [], findings: [] });
    expect(report.verdict).toBe('YES');
    expect(workflowHold(report)).toBeUndefined();
    // 16 before the workflows were read, one REST request each without a token.
    expect(requests).toBe(18);
  });

  it('edit: ci.yml answered with spotbugs/sonar-findbugs\' vulnerable pull_request_target workflow: 0 and the verdict held below YES, with the code', async () => {
    const { report, evidence } = await check({ [CI]: { body: real('spotbugs-sonar-findbugs-sonarqube-a6e2787.yml') } });
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: 0, messageId: 'dangerous', evidence: { findingCodes: ['untrusted-checkout'] } });
    expect(report.verdict).toBe('CAUTION');
    const hold = workflowHold(report);
    expect(hold).toBeDefined();
    expect(String(hold?.args?.detail)).toMatch(/^untrusted-checkout in \.github\/workflows\/ci\.yml \(job build, step 2, on pull_request_target\)/);
    const github = evidence.sources.github;
    expect(github.status === 'ok' ? github.facts.files?.workflowSafety?.findings.map((f) => [f.code, f.path, f.job]) : null).toEqual([['untrusted-checkout', '.github/workflows/ci.yml', 'build']]);
  });

  it('edit: ci.yml carrying an issue title into a shell on `issues`: a script injection holds the verdict too', async () => {
    const text = 'on:\n  issues:\n    types: [opened]\njobs:\n  triage:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.issue.title }}" >> triage.log\n';
    const { report } = await check({ [CI]: { body: text } });
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: 0, evidence: { findingCodes: ['script-injection'] } });
    expect(report.verdict).not.toBe('YES');
    expect(workflowHold(report)).toBeDefined();
  });

  it.each([
    ['a 503', { status: 503 }],
    ['a 404', { status: 404 }],
  ] as const)('edit: ci.yml answered with %s: unknown (never a pass), nothing held, the other workflow still read', async (_name, response) => {
    const { report } = await check({ [CI]: response });
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: null, messageId: 'partly-read', evidence: { listed: 2, read: 1, unreadCount: 1 } });
    expect(workflowHold(report)).toBeUndefined();
  });

  it('edit: ci.yml an alias bomb: refused within the alias bound, unknown with the reason, never expanded', async () => {
    const levels = Array.from({ length: 12 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(10).fill(`*l${i}`).join(', ')}]`);
    const bomb = ['l0: &l0 "lol"', ...levels, 'on: issues', 'jobs: *l12'].join('\n');
    const { report } = await check({ [CI]: { body: bomb } });
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: null, messageId: 'partly-read' });
    expect(String(checkOf(report, 'workflow-safety')?.evidence?.firstUnread)).toContain('aliases');
  });

  it(`reads at most ${MAX_WORKFLOW_FILES_REST} workflows without a token: the rest listed unread, the check unknown`, async () => {
    // Edit: the recorded tree with 10 more workflow files listed (each answered as ci.yml is).
    const treeFile = new URL(`../../fixtures/http/github/repos/${PLAYWRIGHT}/git/trees/${recordOf(PLAYWRIGHT).recordedCommit.tree}.json`, import.meta.url);
    const tree = JSON.parse(readFileSync(treeFile, 'utf8').replaceAll('{{ORIGIN}}', server.origin)) as { tree: Array<Record<string, unknown>> };
    const extra = Array.from({ length: 10 }, (_, i) => `.github/workflows/extra-${String(i).padStart(2, '0')}.yml`);
    tree.tree.push(...extra.map((p) => ({ path: p, mode: '100644', type: 'blob', sha: '0'.repeat(40), size: 100 })));
    const ciText = readFileSync(new URL(`../../fixtures/http/github/repos/${PLAYWRIGHT}/contents/.github/workflows/ci.yml`, import.meta.url), 'utf8');
    const override: Record<string, FixtureResponse> = { [`/git/trees/${recordOf(PLAYWRIGHT).defaultBranch}`]: { body: tree } };
    for (const p of extra) override[`/contents/${p}`] = { body: ciText };
    const { report, requests } = await check(override);
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: null, evidence: { listed: 12, read: MAX_WORKFLOW_FILES_REST, unreadCount: 12 - MAX_WORKFLOW_FILES_REST } });
    expect(requests).toBe(16 + MAX_WORKFLOW_FILES_REST);
  });
});
