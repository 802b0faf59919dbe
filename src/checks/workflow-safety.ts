/**
 * workflow-safety: whether the repository's GitHub Actions workflows let an outsider run code
 * with its secrets — a `pull_request_target` / `workflow_run` workflow that checks out a pull
 * request's code and runs it, or attacker-written text (a title, a branch name, a comment)
 * spliced into a script of a workflow anyone can trigger (sources/github/workflow-analysis.ts).
 * Whoever takes such a workflow can publish a release the package's users then install, so a
 * finding holds the verdict (docs/scoring.md §6a). Reads the `workflows` view: a `github:`
 * target's own workflow files — or, with a GitHub token, a package's verified repository's —
 * and the reusable workflows and composite actions of the repository their outsider-triggered
 * jobs call, read within a budget (sources/github/workflow-files.ts, workflow-calls.ts).
 */
import type { GithubWorkflowSafety } from '../evidence/schema.js';
import { defineCheck } from './define.js';

type Finding = GithubWorkflowSafety['findings'][number];

const WHAT: Record<Finding['code'], string> = {
  'untrusted-checkout': "checks out a pull request's code and runs it",
  'script-injection': 'splices attacker-written text into a script',
};

function describe(f: Finding): string {
  const via = f.via === undefined || f.via.length === 0 ? '' : `, called from ${f.via.join(' → ')}`;
  return `${f.code} in ${f.path} (job ${f.job}, ${f.step}, on ${f.triggers.join('/')}${via}): ${WHAT[f.code]} — ${f.excerpt}`;
}

export default defineCheck({
  id: 'workflow-safety',
  dimension: 'security',
  // A pass is weak evidence (nothing found in the files read): it weighs little; a finding acts through the hold.
  weight: 1,
  needs: ['workflows'],
  title: 'Workflows outsiders can trigger',
  description:
    "For a `github:` target, and with a GitHub token for a package's verified repository (its workflow files come with the repository facts query, no request more; a called composite action of the repository outside that folder takes one query, both manifest names asked): reads the GitHub Actions workflows (without a token at most 30 of a github.com repository's from GitHub's raw file hosting, at the listed tree's commit, else 8 through REST; 30 with one; each at most 128 KiB; when more are listed, names suggesting events outsiders cause — `pull-request`, `comment`, `issue`, `label`, `bot`, `review`, a run's `failure` or `coverage` report … — go first, then ones suggesting a release or publishing) and the `action.yml` of the repository's own composite actions their outsider-triggered jobs call (without a token at most 10 more from raw hosting, else 4 through REST; with one, the workflows and up to 10 action files are one GraphQL query, and one more when over 30 workflows are listed or a called file was not among them) for the two ways an outsider runs code with the repository's secrets — a `pull_request_target` or `workflow_run` workflow, or an `issue_comment` job (a `/test` command), that checks out the pull request's code — its ref named directly, through a step's output, or through an output of a job it needs (or of a job that job needs) set from one (written to `$GITHUB_OUTPUT`, or set by a `github-script` `core.setOutput` or `return` from a fetched pull request's head, or from the payload's under a trigger whose payload carries it — none under `issue_comment`) — and then runs something (`untrusted-checkout`), and an issue, pull request, comment or commit text or a branch name spliced into a `run:` or `github-script` script of a workflow an outsider can trigger, directly, through a step's or a job's output that carries it, or through an `env:` variable (of the workflow, job or step, or written to `$GITHUB_ENV` or by a `github-script` `core.exportVariable`) expanded as `${{ env.NAME }}` (`script-injection`; passing it through `env:` and reading it as the shell's `\"$NAME\"` is the safe form; `github.event['issue']['title']`, `toJSON(github.event.pull_request)` and the like count too) — judging the repository's reusable workflows (`uses: ./.github/workflows/x.yml`) and composite actions (`uses: ./path`) as their callers run them, with the caller's triggers, `github` context and tainted inputs, and naming the chain of files; actions of other repositories are named in the data, never read or judged safe. " +
    'A finding scores 0 and holds the verdict; all read, some run on events outsiders can cause and none found 100; a workflow or a called action file not read (cap, failure, does not parse) makes it unknown, never a pass. ' +
    'Not applicable without workflows or when none of them runs on such events (nothing to judge, so no points); unpinned actions are counted as context, not scored, and a finding in a job or step whose `if:` requires an output set by a step that asks GitHub for the actor\'s permission (a `github-script` or `gh api` call of the collaborator-permission API, actions-cool/check-user-permission or prince-chrismc/check-actor-permissions-action), an author association of owners, members or collaborators, or that needs a job (or follows a step) failing unless the actor may write, is listed as gated, not counted, and so is one in a reusable workflow or action such a job or step calls.',
  messages: {
    safe: '{read} workflows and {actionsRead} called actions read: none lets an outsider run code with the secrets ({outsider} run on events outsiders can cause; {gatedCount} gated on a check of the actor\'s permission; {remoteCount} actions of other repositories they use not read)',
    dangerous: 'Dangerous workflow ({count} findings): {first}',
    'partly-read': 'Unknown: {unreadCount} workflow or called action files not read ({firstUnread}); none of the {read} of {listed} workflows read lets an outsider run code with the secrets',
    'not-read': 'Unknown: the workflows were not read (evidence saved before nerq read them)',
    none: 'No GitHub Actions workflows',
    'no-outsider-trigger': '{read} workflows read: none runs on events outsiders can cause',
  },
  evaluate: ({ workflows }) => {
    const safety = workflows.safety;
    if (safety === undefined) return { score: null, messageId: 'not-read' };
    if (safety.listed === 0 && !workflows.treeTruncated) return { score: null, messageId: 'none', notApplicable: true };
    const data = {
      of: workflows.of,
      listed: safety.listed,
      read: safety.read.length,
      unreadCount: safety.unread.length,
      unread: safety.unread.map((u) => `${u.path}: ${u.reason}`),
      // Why they are unread, in kind: `limit` (the read budget: the same next run), `fault` (a failure: the next run may read them), `missing`, `unparsed`; `unknown` in evidence saved before it was recorded.
      unreadCauses: [...new Set(safety.unread.map((u) => u.cause ?? 'unknown'))].sort(),
      outsider: safety.outsiderTriggered.length,
      unpinnedActions: safety.unpinnedActions,
      actionsRead: safety.actionsRead?.length ?? 0,
      calls: safety.calls ?? [],
      remoteActions: safety.remoteActions ?? [],
      remoteCount: safety.remoteActions?.length ?? 0,
      notJudged: safety.notJudged ?? [],
      findingCodes: [...new Set(safety.findings.map((f) => f.code))],
      findings: safety.findings.map(describe),
      gatedCount: safety.gated?.length ?? 0,
      gated: (safety.gated ?? []).map((g) => `${describe(g)}; gated on ${g.gate}`),
    };
    const first = safety.findings[0];
    if (first !== undefined) {
      return {
        score: 0,
        messageId: 'dangerous',
        data: { ...data, count: safety.findings.length, first: describe(first) },
        holdVerdict: `${describe(first)}${safety.findings.length > 1 ? ` (${safety.findings.length} findings: ${data.findingCodes.join(', ')})` : ''}; whoever opens an issue or pull request can run code with the repository's secrets and publish a release users install — a fixed workflow would lift this`,
      };
    }
    if (safety.unread.length > 0 || safety.listed === 0) {
      const u = safety.unread[0];
      return { score: null, messageId: 'partly-read', data: { ...data, firstUnread: u === undefined ? 'the tree listing was cut short' : `${u.path}: ${u.reason}` } };
    }
    if (safety.outsiderTriggered.length === 0) return { score: null, messageId: 'no-outsider-trigger', data, notApplicable: true };
    return { score: 100, messageId: 'safe', data };
  },
});
