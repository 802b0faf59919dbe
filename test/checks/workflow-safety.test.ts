import { describe, expect, it } from 'vitest';
import check from '../../src/checks/workflow-safety.js';
import type { GithubWorkflowSafety } from '../../src/evidence/schema.js';
import { evidence, githubFacts } from '../support/evidence-builder.js';
import { repoFiles, repositoryEvidence } from '../support/repository-evidence.js';
import { checkTable, outcomeOf, runCheck } from './check-table.js';

const safety = (overrides: Partial<GithubWorkflowSafety> = {}): GithubWorkflowSafety => ({
  listed: 2,
  read: ['.github/workflows/ci.yml', '.github/workflows/label.yml'],
  unread: [],
  outsiderTriggered: ['.github/workflows/label.yml'],
  findings: [],
  unpinnedActions: 3,
  ...overrides,
});
const injection: GithubWorkflowSafety['findings'][number] = {
  code: 'script-injection',
  path: '.github/workflows/title.yml',
  job: 'validate',
  step: 'Validate PR title',
  triggers: ['pull_request_target'],
  excerpt: 'echo "Validating PR title: ${{ github.event.pull_request.title }}"',
};
const withSafety = (s: GithubWorkflowSafety | undefined, files: Parameters<typeof repoFiles>[0] = {}) =>
  repositoryEvidence({ files: repoFiles({ workflows: s?.listed ?? 1, ...(s === undefined ? {} : { workflowSafety: s }), ...files }) });

checkTable(check, [
  { name: 'all read, none dangerous', evidence: withSafety(safety()), score: 100, messageId: 'safe', data: { read: 2, outsider: 1, unpinnedActions: 3, gatedCount: 0, gated: [] } },
  {
    name: 'all read, none runs on events outsiders cause: nothing to judge, no points',
    evidence: withSafety(safety({ outsiderTriggered: [] })),
    score: null,
    messageId: 'no-outsider-trigger',
    data: { read: 2, outsider: 0 },
  },
  {
    name: 'a script injection: 0, with its code',
    evidence: withSafety(safety({ findings: [injection] })),
    score: 0,
    messageId: 'dangerous',
    data: { findingCodes: ['script-injection'], count: 1 },
    message: ['.github/workflows/title.yml', 'script-injection'],
  },
  {
    name: 'a workflow not read and none dangerous: unknown, never a pass',
    evidence: withSafety(safety({ listed: 3, unread: [{ path: '.github/workflows/z.yml', reason: 'GitHub answered 404 for the file' }] })),
    score: null,
    messageId: 'partly-read',
    data: { unreadCount: 1, listed: 3 },
    // How many were read of how many listed: never "none dangerous" without the count of what was not looked at.
    message: ['2 of 3 workflows read'],
  },
  {
    name: 'a script injection in a called composite action: 0, the chain of files named',
    evidence: withSafety(safety({ findings: [{ ...injection, path: '.github/actions/setup/action.yml', via: ['.github/workflows/title.yml (job validate, Setup)'] }], actionsRead: ['.github/actions/setup/action.yml'] })),
    score: 0,
    messageId: 'dangerous',
    data: { findingCodes: ['script-injection'], actionsRead: 1 },
    message: ['.github/actions/setup/action.yml', 'called from .github/workflows/title.yml'],
  },
  {
    name: 'all read and judged safe, with actions of other repositories named (never judged safe themselves)',
    evidence: withSafety(safety({ actionsRead: ['a/action.yml'], remoteActions: ['other/action@v1'], calls: ['x → a/action.yml'] })),
    score: 100,
    messageId: 'safe',
    data: { actionsRead: 1, remoteCount: 1, remoteActions: ['other/action@v1'], calls: ['x → a/action.yml'] },
  },
  {
    name: 'a checkout behind a permission gate only: listed as gated, not counted (all read: a pass)',
    evidence: withSafety(
      safety({
        gated: [
          {
            code: 'untrusted-checkout',
            path: '.github/workflows/docs-preview.yml',
            job: 'build',
            step: 'step 1',
            triggers: ['pull_request_target'],
            excerpt: 'ref: ${{ needs.authorize.outputs.head_sha }} → then runs: step 3',
            gate: "needs.authorize.outputs.authorized == 'true' (job authorize, step check: actions/github-script calls getCollaboratorPermissionLevel and sets authorized)",
          },
        ],
      }),
    ),
    score: 100,
    messageId: 'safe',
    data: { gatedCount: 1, findingCodes: [] },
    message: ['1 gated'],
  },
  {
    name: 'a called action not read: unknown, never a pass',
    evidence: withSafety(safety({ unread: [{ path: 'a/action.yml', reason: 'GitHub answered 404 for the file' }] })),
    score: null,
    messageId: 'partly-read',
    data: { unreadCount: 1 },
  },
  { name: 'evidence saved before workflows were read: unknown', evidence: withSafety(undefined), score: null, messageId: 'not-read' },
  { name: 'no workflows: not applicable', evidence: withSafety(safety({ listed: 0, read: [], outsiderTriggered: [] })), score: null, messageId: 'none' },
]);

describe('workflow-safety', () => {
  it('a finding holds the verdict and names its code; a finding in an unread-partly set still scores 0', () => {
    const outcome = outcomeOf(check, withSafety(safety({ findings: [{ ...injection, code: 'untrusted-checkout' }], unread: [{ path: 'x.yml', reason: 'cap' }] })));
    expect(outcome.score).toBe(0);
    expect(outcome.holdVerdict).toMatch(/^untrusted-checkout in \.github\/workflows\/title\.yml \(job validate, Validate PR title, on pull_request_target\)/);
  });

  it('several findings: the first named, the count and codes after it', () => {
    const outcome = outcomeOf(check, withSafety(safety({ findings: [injection, { ...injection, code: 'untrusted-checkout', step: 'step 1' }] })));
    expect(outcome.holdVerdict).toMatch(/^script-injection in .*\(2 findings: script-injection, untrusted-checkout\);/);
  });

  it('a safe or unknown answer holds nothing', () => {
    expect(outcomeOf(check, withSafety(safety())).holdVerdict).toBeUndefined();
  });

  it('no workflows is left out of the report, not scored', () => {
    expect(outcomeOf(check, withSafety(safety({ listed: 0, read: [], outsiderTriggered: [] }))).notApplicable).toBe(true);
  });

  it("does not apply to a package whose repository's workflows were not read (no token, evidence saved before)", () => {
    expect(runCheck(check, evidence({}))).toEqual({ kind: 'unknown-source', source: 'workflows' });
  });

  it("judges a package's verified repository's workflows when they were read (a token)", () => {
    const outcome = outcomeOf(check, evidence({ github: githubFacts({ workflowSafety: safety({ findings: [injection] }) }) }));
    expect(outcome).toMatchObject({ score: 0, messageId: 'dangerous', data: { of: 'package-repository', findingCodes: ['script-injection'] } });
    expect(outcome.holdVerdict).toMatch(/^script-injection in \.github\/workflows\/title\.yml/);
    expect(outcomeOf(check, evidence({ github: githubFacts({ workflowSafety: safety() }) }))).toMatchObject({ score: 100, messageId: 'safe', data: { of: 'package-repository' } });
  });
});

describe('a pass only where there is something to judge', () => {
  it('is not applicable when no workflow runs on events outsiders cause, and scores 100 when one does', () => {
    expect(outcomeOf(check, withSafety(safety({ outsiderTriggered: [] }))).notApplicable).toBe(true);
    expect(outcomeOf(check, withSafety(safety())).notApplicable).toBeUndefined();
  });
});
