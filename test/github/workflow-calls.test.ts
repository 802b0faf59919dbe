/**
 * A repository's workflows judged together with what their outsider-triggered jobs call in the
 * same repository (sources/github/workflow-calls.ts, workflow-analysis.ts, workflow-expressions.ts):
 * real files first (fixtures/workflows, provenance in fixtures/PROVENANCE.md), then synthetic
 * workflows for the edge cases; an edit of a real file says so.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { actionManifestOf, judgeWorkflowCalls, MAX_CALL_DEPTH, type CallGraphInput } from '../../src/sources/github/workflow-calls.js';
import { usesTarget } from '../../src/sources/github/workflow-analysis.js';
import { expressionNamesHead, expressionUntrusted, injectedLine, normaliseExpression } from '../../src/sources/github/workflow-expressions.js';

const real = (file: string): string => readFileSync(new URL(`../../fixtures/workflows/${file}`, import.meta.url), 'utf8');

/** Judge `files` (path → text) as the whole listing of `repo`; `failed` paths could not be read. */
function judge(files: Record<string, string>, options: { repo?: string; failed?: Record<string, string>; listed?: string[] } = {}) {
  const [owner = 'acme', name = 'widget'] = (options.repo ?? 'acme/widget').split('/');
  const paths = [...Object.keys(files), ...Object.keys(options.failed ?? {}), ...(options.listed ?? [])];
  const input: CallGraphInput = {
    repo: { owner, name },
    workflows: paths.filter((p) => p.startsWith('.github/workflows/')),
    actionManifests: new Set(paths.filter((p) => /(?:^|\/)action\.ya?ml$/.test(p))),
    texts: new Map(Object.entries(files)),
    failed: new Map(Object.entries(options.failed ?? {})),
    treeTruncated: false,
  };
  return judgeWorkflowCalls(input);
}
const codes = (r: ReturnType<typeof judge>) => r.findings.map((f) => `${f.code}:${f.path}:${f.step}`);

describe('real repositories', () => {
  const FORMAT_JUNE = real('ultralytics-actions-format-d65d483.yml');
  const ACTION_JUNE = real('ultralytics-actions-action-d65d483.yml');

  it('ultralytics/actions in June 2024: its pull_request_target workflow runs the repository\'s own composite action, which splices the branch name into a script and checks out the pull request\'s head', () => {
    const r = judge({ '.github/workflows/format.yml': FORMAT_JUNE, 'action.yml': ACTION_JUNE }, { repo: 'ultralytics/actions' });
    expect(codes(r)).toEqual(['script-injection:action.yml:Print Action Information', 'untrusted-checkout:action.yml:Checkout Repository']);
    expect(r.findings.every((f) => f.triggers.join() === 'pull_request_target')).toBe(true);
    expect(r.findings[0]?.via).toEqual(['.github/workflows/format.yml (job format, Run Ultralytics Formatting)']);
    expect(r.findings[0]?.job).toBe('format');
    expect(r.actionsRead).toEqual(['action.yml']);
    expect(r.calls).toEqual(['.github/workflows/format.yml (job format, Run Ultralytics Formatting) → action.yml']);
  });

  it('the same workflow in another repository: ultralytics/actions@main is someone else\'s action, named, not read, no finding claimed either way', () => {
    const r = judge({ '.github/workflows/format.yml': FORMAT_JUNE }, { repo: 'ultralytics/ultralytics' });
    expect(r.findings).toEqual([]);
    expect(r.remoteActions).toContain('ultralytics/actions@main');
    expect(r.actionsRead).toEqual([]);
    expect(r.wanted).toEqual([]);
  });

  const FORMAT_DEC = real('ultralytics-actions-format-63d2cd9.yml');
  const ACTION_DEC = real('ultralytics-actions-action-63d2cd9.yml');

  it('ultralytics/actions on 5 December 2024 (before its fix): its own workflow runs on `issues` and fork `pull_request` only, where `github.head_ref` is empty or has no secrets: nothing found', () => {
    const r = judge({ '.github/workflows/format.yml': FORMAT_DEC, 'action.yml': ACTION_DEC }, { repo: 'ultralytics/actions' });
    expect(r.outsiderTriggered).toEqual(['.github/workflows/format.yml']);
    expect(r.actionsRead).toEqual(['action.yml']);
    expect(r.findings).toEqual([]);
  });

  it('edit: the same action called from a pull_request_target workflow, as the compromised repository called it: `git pull origin ${{ github.head_ref || github.ref }}` is a script injection', () => {
    const caller = FORMAT_DEC.replace('  pull_request:\n', '  pull_request_target:\n');
    const r = judge({ '.github/workflows/format.yml': caller, 'action.yml': ACTION_DEC }, { repo: 'ultralytics/actions' });
    expect(codes(r)).toContain('script-injection:action.yml:Commit and Push Changes');
    const f = r.findings.find((x) => x.step === 'Commit and Push Changes');
    expect(f?.excerpt).toContain('git pull origin ${{ github.head_ref || github.ref }}');
    expect(f?.via).toEqual(['.github/workflows/format.yml (job format, Run Ultralytics Formatting)']);
  });

  it('vitejs/vite: an `issues` / pull_request_target bot calling the repository\'s composite action (`$/…`), inputs passed through env: read, judged, nothing found', () => {
    const r = judge(
      {
        '.github/workflows/bot.yml': real('vitejs-vite-bot-a98c8d9.yml'),
        '.github/workflows/issue-labeled.yml': real('vitejs-vite-issue-labeled-a98c8d9.yml'),
        '.github/actions/issues-helper/action.yml': real('vitejs-vite-issues-helper-action-a98c8d9.yml'),
      },
      { repo: 'vitejs/vite' },
    );
    expect(r.findings).toEqual([]);
    expect(r.actionsRead).toEqual(['.github/actions/issues-helper/action.yml']);
    expect(r.calls.length).toBeGreaterThan(1);
    expect(r.unreadCalled).toEqual([]);
  });

  it('astral-sh/uv: an `issues` workflow calls two reusable workflows with `secrets: inherit`, which call composite actions: all judged as the issue event runs them, nothing found', () => {
    const r = judge(
      {
        '.github/workflows/issue-triage.yml': real('astral-sh-uv-issue-triage-26a9dd4.yml'),
        '.github/workflows/reproduce-bug.yml': real('astral-sh-uv-reproduce-bug-26a9dd4.yml'),
        '.github/workflows/fix-bug.yml': real('astral-sh-uv-fix-bug-26a9dd4.yml'),
        '.github/actions/load-issue-context/action.yml': real('astral-sh-uv-load-issue-context-action-26a9dd4.yml'),
        '.github/actions/load-codex-thread/action.yml': real('astral-sh-uv-load-codex-thread-action-26a9dd4.yml'),
      },
      { repo: 'astral-sh/uv' },
    );
    expect(r.findings).toEqual([]);
    // Only workflow_call: judged as the `issues` workflow calls them.
    expect(r.outsiderTriggered).toEqual(expect.arrayContaining(['.github/workflows/issue-triage.yml', '.github/workflows/reproduce-bug.yml', '.github/workflows/fix-bug.yml']));
    expect(r.calls).toContain('.github/workflows/issue-triage.yml (job fix-bug) with secrets: inherit → .github/workflows/fix-bug.yml');
    expect(r.actionsRead).toEqual(expect.arrayContaining(['.github/actions/load-issue-context/action.yml', '.github/actions/load-codex-thread/action.yml']));
  });
});

const CALLER_PRT = (uses: string, withBlock = '') => `on: pull_request_target\njobs:\n  call:\n    uses: ${uses}\n${withBlock}`;
const CALLEE = (run: string) => `on:\n  workflow_call:\n    inputs:\n      title:\n        type: string\njobs:\n  inner:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Use\n        run: ${run}\n`;

describe('reusable workflows of the repository', () => {
  it('an input filled with the pull request title is tainted inside the called workflow; the finding names the chain', () => {
    const r = judge({
      '.github/workflows/caller.yml': CALLER_PRT('./.github/workflows/callee.yml', '    with:\n      title: ${{ github.event.pull_request.title }}\n    secrets: inherit\n'),
      '.github/workflows/callee.yml': CALLEE('echo "${{ inputs.title }}"'),
    });
    expect(codes(r)).toEqual(['script-injection:.github/workflows/callee.yml:Use']);
    expect(r.findings[0]).toMatchObject({ job: 'inner', triggers: ['pull_request_target'], via: ['.github/workflows/caller.yml (job call) with secrets: inherit'] });
    expect(r.outsiderTriggered).toEqual(['.github/workflows/caller.yml', '.github/workflows/callee.yml']);
  });

  it('the same callee called by a fork `pull_request` workflow (no secrets), or with a number: nothing', () => {
    const callee = CALLEE('echo "${{ inputs.title }}"');
    expect(judge({ '.github/workflows/caller.yml': `on: pull_request\njobs:\n  call:\n    uses: ./.github/workflows/callee.yml\n    with:\n      title: \${{ github.event.pull_request.title }}\n`, '.github/workflows/callee.yml': callee }).findings).toEqual([]);
    expect(judge({ '.github/workflows/caller.yml': CALLER_PRT('./.github/workflows/callee.yml', '    with:\n      title: ${{ github.event.pull_request.number }}\n'), '.github/workflows/callee.yml': callee }).findings).toEqual([]);
  });

  it('`owner/repo/.github/workflows/x.yml@ref` naming the repository itself, and `$/…`, are the repository\'s own', () => {
    for (const uses of ['acme/widget/.github/workflows/callee.yml@main', 'Acme/Widget/.github/workflows/callee.yml@v1', '$/.github/workflows/callee.yml']) {
      const r = judge({ '.github/workflows/caller.yml': CALLER_PRT(uses), '.github/workflows/callee.yml': CALLEE('echo "${{ github.head_ref }}"') });
      expect(codes(r)).toEqual(['script-injection:.github/workflows/callee.yml:Use']);
    }
    const other = judge({ '.github/workflows/caller.yml': CALLER_PRT('other/repo/.github/workflows/callee.yml@main'), '.github/workflows/callee.yml': CALLEE('echo "${{ github.head_ref }}"') });
    expect(other.findings).toEqual([]);
    expect(other.remoteActions).toEqual(['other/repo/.github/workflows/callee.yml@main']);
  });

  it('a checkout of the head passed in as an input, then a build, inside the called workflow: untrusted-checkout under pull_request_target, not under issue_comment', () => {
    const callee = 'on: workflow_call\njobs:\n  build:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ inputs.sha }}\n      - run: npm ci && npm test\n';
    const withSha = '    with:\n      sha: ${{ github.event.pull_request.head.sha }}\n';
    const prt = judge({ '.github/workflows/caller.yml': CALLER_PRT('./.github/workflows/build.yml', withSha), '.github/workflows/build.yml': callee });
    expect(codes(prt)).toEqual(['untrusted-checkout:.github/workflows/build.yml:step 1']);
    const comment = judge({ '.github/workflows/caller.yml': `on: issue_comment\njobs:\n  call:\n    uses: ./.github/workflows/build.yml\n${withSha}`, '.github/workflows/build.yml': callee });
    expect(comment.findings).toEqual([]);
  });

  it('a callee also triggered directly is judged on its own triggers and as called', () => {
    const callee = 'on:\n  workflow_call:\n  issues:\njobs:\n  j:\n    runs-on: x\n    steps:\n      - name: Issue\n        run: echo "${{ github.event.issue.title }}"\n      - name: Branch\n        run: echo "${{ github.head_ref }}"\n';
    const r = judge({ '.github/workflows/caller.yml': CALLER_PRT('./.github/workflows/callee.yml'), '.github/workflows/callee.yml': callee });
    expect(codes(r).sort()).toEqual(['script-injection:.github/workflows/callee.yml:Branch', 'script-injection:.github/workflows/callee.yml:Issue']);
    expect(r.findings.find((f) => f.step === 'Issue')?.via).toBeUndefined();
    expect(r.findings.find((f) => f.step === 'Branch')?.via).toEqual(['.github/workflows/caller.yml (job call)']);
  });

  it('workflows calling each other in a cycle end, each judged once per set of triggers and inputs', () => {
    const a = 'on:\n  pull_request_target:\n  workflow_call:\njobs:\n  to-b:\n    uses: ./.github/workflows/b.yml\n';
    const b = 'on: workflow_call\njobs:\n  to-a:\n    uses: ./.github/workflows/a.yml\n  run:\n    runs-on: x\n    steps:\n      - run: echo "${{ github.event.pull_request.body }}"\n';
    const r = judge({ '.github/workflows/a.yml': a, '.github/workflows/b.yml': b });
    expect(codes(r)).toEqual(['script-injection:.github/workflows/b.yml:step 1']);
    expect(r.calls.length).toBeLessThanOrEqual(4);
  });

  it(`a chain deeper than ${MAX_CALL_DEPTH} calls is not followed further: unknown, never safe`, () => {
    const files: Record<string, string> = { '.github/workflows/w0.yml': 'on: pull_request_target\njobs:\n  j:\n    uses: ./.github/workflows/w1.yml\n' };
    for (let i = 1; i <= MAX_CALL_DEPTH + 1; i += 1) files[`.github/workflows/w${i}.yml`] = `on: workflow_call\njobs:\n  j:\n    uses: ./.github/workflows/w${i + 1}.yml\n`;
    files[`.github/workflows/w${MAX_CALL_DEPTH + 2}.yml`] = CALLEE('echo "${{ github.head_ref }}"');
    const r = judge(files);
    expect(r.findings).toEqual([]);
    expect(r.unreadCalled.map((u) => u.path)).toHaveLength(1);
  });

  it('a guarded caller job (own branches only) is not followed; a called workflow not in the listing is unknown', () => {
    const guarded = 'on: pull_request_target\njobs:\n  call:\n    if: github.event.pull_request.head.repo.full_name == github.repository\n    uses: ./.github/workflows/callee.yml\n';
    expect(judge({ '.github/workflows/caller.yml': guarded, '.github/workflows/callee.yml': CALLEE('echo "${{ github.head_ref }}"') }).calls).toEqual([]);
    const missing = judge({ '.github/workflows/caller.yml': CALLER_PRT('./.github/workflows/gone.yml') });
    expect(missing.unreadCalled).toEqual([{ path: '.github/workflows/gone.yml', reason: 'called, but not in the repository listing', cause: 'missing' }]);
  });
});

const STEP_CALLER = (on: string, uses: string, withBlock = '') => `on: ${on}\njobs:\n  j:\n    runs-on: x\n    steps:\n      - name: Call\n        uses: ${uses}\n${withBlock}`;
const COMPOSITE = (run: string) => `name: a\nruns:\n  using: composite\n  steps:\n    - name: Inner\n      shell: bash\n      run: ${run}\n`;

describe('composite actions of the repository', () => {
  it('sees the caller\'s github context: `${{ github.head_ref }}` in its script is attacker text under pull_request_target', () => {
    const r = judge({ '.github/workflows/w.yml': STEP_CALLER('pull_request_target', './.github/actions/setup'), '.github/actions/setup/action.yml': COMPOSITE('git pull origin ${{ github.head_ref }}') });
    expect(codes(r)).toEqual(['script-injection:.github/actions/setup/action.yml:Inner']);
    expect(r.findings[0]?.via).toEqual(['.github/workflows/w.yml (job j, Call)']);
  });

  it('inputs filled with an issue body (bracket form too) are tainted; the same input filled with a constant is not', () => {
    const withBody = '        with:\n          text: ${{ github.event.issue.body }}\n';
    for (const run of ['echo "${{ inputs.text }}"', "echo \"${{ inputs['text'] }}\"", 'echo "${{ toJSON(inputs) }}"']) {
      const r = judge({ '.github/workflows/w.yml': STEP_CALLER('issues', './act', withBody), 'act/action.yaml': COMPOSITE(run) });
      expect(codes(r)).toEqual(['script-injection:act/action.yaml:Inner']);
    }
    const constant = judge({ '.github/workflows/w.yml': STEP_CALLER('issues', './act', '        with:\n          text: hello\n'), 'act/action.yaml': COMPOSITE('echo "${{ inputs.text }}"') });
    expect(constant.findings).toEqual([]);
  });

  it('an input filled from an env: variable holding the issue body (`${{ env.T }}`) is tainted; from one holding a constant it is not', () => {
    const caller = (value: string) => STEP_CALLER('issues', './act', '        with:\n          text: ${{ env.T }}\n').replace('jobs:\n', `env:\n  T: ${value}\njobs:\n`);
    const r = judge({ '.github/workflows/w.yml': caller('${{ github.event.issue.body }}'), 'act/action.yaml': COMPOSITE('echo "${{ inputs.text }}"') });
    expect(codes(r)).toEqual(['script-injection:act/action.yaml:Inner']);
    const constant = judge({ '.github/workflows/w.yml': caller('hello'), 'act/action.yaml': COMPOSITE('echo "${{ inputs.text }}"') });
    expect(constant.findings).toEqual([]);
  });

  it('an action called only from a fork `pull_request` workflow is not read (no secrets there)', () => {
    const r = judge({ '.github/workflows/w.yml': STEP_CALLER('pull_request', './act'), 'act/action.yml': COMPOSITE('echo "${{ github.head_ref }}"') });
    expect(r.findings).toEqual([]);
    expect(r.calls).toEqual([]);
  });

  it('an action.yml that could not be read, or is not in the listing, is unknown; one listed and not read yet is wanted', () => {
    const caller = STEP_CALLER('pull_request_target', './act');
    expect(judge({ '.github/workflows/w.yml': caller }, { failed: { 'act/action.yml': 'GitHub answered 404 for the file' } }).unreadCalled).toEqual([{ path: 'act/action.yml', reason: 'GitHub answered 404 for the file' }]);
    expect(judge({ '.github/workflows/w.yml': caller }).unreadCalled).toEqual([{ path: 'act/action.yml', reason: 'called, but not in the repository listing', cause: 'missing' }]);
    const wanted = judge({ '.github/workflows/w.yml': caller }, { listed: ['act/action.yml'] });
    expect(wanted.wanted).toEqual(['act/action.yml']);
    expect(wanted.unreadCalled).toEqual([]);
  });

  it('a JavaScript action of the repository is named as not judged; an action that does not parse is unknown', () => {
    const caller = STEP_CALLER('issues', './act');
    expect(judge({ '.github/workflows/w.yml': caller, 'act/action.yml': "runs:\n  using: node20\n  main: index.js\n" }).notJudged).toEqual(['act/action.yml: runs using node20']);
    expect(judge({ '.github/workflows/w.yml': caller, 'act/action.yml': 'runs: [\n' }).unreadCalled).toEqual([{ path: 'act/action.yml', reason: 'the action is not valid YAML', cause: 'unparsed' }]);
  });

  it('a composite action calling another local action passes the taint on', () => {
    const outer = "runs:\n  using: composite\n  steps:\n    - uses: ./inner\n      with:\n        t: ${{ inputs.title }}\n";
    const r = judge({
      '.github/workflows/w.yml': STEP_CALLER('pull_request_target', './outer', '        with:\n          title: ${{ github.event.pull_request.title }}\n'),
      'outer/action.yml': outer,
      'inner/action.yml': COMPOSITE('echo ${{ inputs.t }}'),
    });
    expect(codes(r)).toEqual(['script-injection:inner/action.yml:Inner']);
    expect(r.findings[0]?.via).toHaveLength(2);
  });

  it('`uses:` paths: ./ and $/ are the repository\'s, `..` is refused, another repository\'s is remote', () => {
    const repo = { owner: 'acme', name: 'widget' };
    expect(usesTarget('./', repo)).toEqual({ local: '' });
    expect(usesTarget('$/.github/actions/x', repo)).toEqual({ local: '.github/actions/x' });
    expect(usesTarget('acme/widget@v2', repo)).toEqual({ local: '' });
    expect(usesTarget('acme/widget/sub/dir@main', repo)).toEqual({ local: 'sub/dir' });
    expect(usesTarget('./../other', repo)).toEqual({ invalid: true });
    expect(usesTarget('actions/checkout@v4', repo)).toEqual({ remote: 'actions/checkout@v4' });
    expect(usesTarget('docker://alpine:3', repo)).toEqual({ image: true });
    expect(actionManifestOf('', new Set(['action.yaml']))).toBe('action.yaml');
    expect(actionManifestOf('a', new Set(['a/action.yml', 'a/action.yaml']))).toBe('a/action.yml');
  });
});

describe('expressions in other spellings', () => {
  it.each([
    "github.event['issue']['title']",
    'github.event["pull_request"]["body"]',
    "github['head_ref']",
    'github . event . comment . body',
    "format('{0} by {1}', github.event.comment.body, github.actor)",
    'join(github.event.commits.*.message, \', \')',
    "github.event.commits[0].message",
    'toJSON(github.event.pull_request)',
    'toJSON(github.event)',
    'toJSON(github)',
    "github.head_ref || 'main'",
  ])('%s carries attacker text', (e) => {
    expect(expressionUntrusted(e)).toBe(true);
  });

  it.each(['github.event.pull_request.number', "github.event['issue']['number']", 'toJSON(github.event.pull_request.number)', 'github.repository', 'format(\'{0}\', github.sha)', 'github.event.pull_request.title_length'])(
    '%s does not',
    (e) => {
      expect(expressionUntrusted(e)).toBe(false);
    },
  );

  it('head refs in bracket form name the pull request\'s code', () => {
    expect(expressionNamesHead("github.event['pull_request']['head']['sha']")).toBe(true);
    expect(expressionNamesHead('github.event.pull_request.base.sha')).toBe(false);
    expect(normaliseExpression("a [ 'b' ] [0]")).toBe('a.b.0');
  });

  it('hostile shapes end with an answer: unclosed expressions, long bracket runs', () => {
    const unclosed = `echo ${'${{ '.repeat(20_000)}`;
    expect(injectedLine(unclosed)).toBeNull();
    expect(expressionUntrusted(`${"['".repeat(20_000)}github.head_ref`)).toBe(true);
    expect(expressionUntrusted(`${' '.repeat(50_000)}x`)).toBe(false);
  });
});

describe('an `if:` on github.event_name narrows the triggers a job or step is judged under', () => {
  it('reads the events a condition admits, and says nothing when it does not only compare them', async () => {
    const { eventsAdmitted } = await import('../../src/sources/github/workflow-analysis.js');
    expect(eventsAdmitted("(github.event_name == 'pull_request' || github.event_name == 'pull_request_target') && github.event.action != 'closed'")).toEqual(new Set(['pull_request', 'pull_request_target']));
    expect(eventsAdmitted("${{ 'issues' == github.event_name }}")).toEqual(new Set(['issues']));
    expect(eventsAdmitted("github.event_name == 'push' || github.actor == 'x'")).toBeNull();
    expect(eventsAdmitted("github.event_name != 'issues'")).toBeNull();
    expect(eventsAdmitted("!(github.event_name == 'issues')")).toBeNull();
    expect(eventsAdmitted("github.event_name == 'a' && github.event_name == 'b'")).toEqual(new Set());
    expect(eventsAdmitted(undefined)).toBeNull();
  });

  it('a step that runs only on fork pull_request, in an issues + pull_request workflow, is not judged under issues; the same step on issues is', () => {
    const wf = (event: string) =>
      `on: [issues, pull_request]\njobs:\n  j:\n    runs-on: x\n    steps:\n      - if: github.event_name == '${event}'\n        run: echo "\${{ github.event.issue.title }}"\n`;
    expect(judge({ '.github/workflows/w.yml': wf('pull_request') }).findings).toEqual([]);
    expect(codes(judge({ '.github/workflows/w.yml': wf('issues') }))).toEqual(['script-injection:.github/workflows/w.yml:step 1']);
  });

  it('a job admitted only on issue_comment does not call its reusable workflow under pull_request_target', () => {
    const caller = "on: [pull_request_target, issue_comment]\njobs:\n  call:\n    if: github.event_name == 'issue_comment'\n    uses: ./.github/workflows/callee.yml\n";
    const r = judge({ '.github/workflows/caller.yml': caller, '.github/workflows/callee.yml': CALLEE('echo "${{ github.head_ref }}"') });
    expect(r.findings).toEqual([]);
    expect(r.calls).toHaveLength(1);
  });
});

describe('a composite action that checks out the head and returns', () => {
  const CHECKOUT_ACTION = 'runs:\n  using: composite\n  steps:\n    - uses: actions/checkout@v4\n      with:\n        ref: ${{ github.event.pull_request.head.sha }}\n';
  it('is an untrusted checkout when the calling job runs something after it, under pull_request_target', () => {
    const caller = 'on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n      - name: Get PR\n        uses: ./.github/actions/checkout-pr\n      - name: Test\n        run: npm ci && npm test\n';
    const r = judge({ '.github/workflows/w.yml': caller, '.github/actions/checkout-pr/action.yml': CHECKOUT_ACTION });
    expect(codes(r)).toEqual(['untrusted-checkout:.github/actions/checkout-pr/action.yml:step 1']);
    expect(r.findings[0]?.excerpt).toContain('then the caller runs: Test');
  });

  it('is not when nothing runs after it, or under issue_comment', () => {
    const last = 'on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n      - run: echo first\n      - uses: ./.github/actions/checkout-pr\n';
    expect(judge({ '.github/workflows/w.yml': last, '.github/actions/checkout-pr/action.yml': CHECKOUT_ACTION }).findings).toEqual([]);
    const comment = 'on: issue_comment\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: ./.github/actions/checkout-pr\n      - run: npm test\n';
    expect(judge({ '.github/workflows/w.yml': comment, '.github/actions/checkout-pr/action.yml': CHECKOUT_ACTION }).findings).toEqual([]);
  });

  it('under issue_comment, an action checking out refs/pull/<issue number>/head, then the caller runs: an untrusted checkout', () => {
    const action = CHECKOUT_ACTION.replace('${{ github.event.pull_request.head.sha }}', 'refs/pull/${{ github.event.issue.number }}/head');
    const comment = 'on: issue_comment\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: ./.github/actions/checkout-pr\n      - run: npm test\n';
    const r = judge({ '.github/workflows/w.yml': comment, '.github/actions/checkout-pr/action.yml': action });
    expect(codes(r)).toEqual(['untrusted-checkout:.github/actions/checkout-pr/action.yml:step 1']);
    expect(r.findings[0]?.triggers).toEqual(['issue_comment']);
  });

  it('under issue_comment, a reusable workflow handed refs/pull/<issue number>/head checks it out and builds: an untrusted checkout', () => {
    const callee = 'on: workflow_call\njobs:\n  build:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ inputs.ref }}\n      - run: npm ci && npm test\n';
    const caller = 'on: issue_comment\njobs:\n  call:\n    uses: ./.github/workflows/build.yml\n    with:\n      ref: refs/pull/${{ github.event.issue.number }}/merge\n';
    const r = judge({ '.github/workflows/caller.yml': caller, '.github/workflows/build.yml': callee });
    expect(codes(r)).toEqual(['untrusted-checkout:.github/workflows/build.yml:step 1']);
    expect(r.findings[0]?.triggers).toEqual(['issue_comment']);
  });
});

describe('calls from a gated job or step are followed, and what they call is gated too', () => {
  const ASSOCIATION = "    if: contains(fromJSON('[\"OWNER\", \"MEMBER\"]'), github.event.comment.author_association)\n";
  const gatedCaller = (ifLine: string) => `on: issue_comment\njobs:\n  call:\n${ifLine}    uses: ./.github/workflows/callee.yml\n    with:\n      title: \${{ github.event.comment.body }}\n`;
  const callee = CALLEE('echo "${{ inputs.title }}"');
  const gatedOf = (r: ReturnType<typeof judge>) => r.gated.map((f) => `${f.code}:${f.path}:${f.step}`);

  it('a reusable workflow called from a job behind an author-association gate: its injection is gated, with the caller\'s gate', () => {
    const r = judge({ '.github/workflows/caller.yml': gatedCaller(ASSOCIATION), '.github/workflows/callee.yml': callee });
    expect(codes(r)).toEqual([]);
    expect(gatedOf(r)).toEqual(['script-injection:.github/workflows/callee.yml:Use']);
    expect(r.gated[0]?.gate).toContain('author_association');
    expect(r.gated[0]?.via).toEqual(['.github/workflows/caller.yml (job call)']);
    const open = judge({ '.github/workflows/caller.yml': gatedCaller(''), '.github/workflows/callee.yml': callee });
    expect(codes(open)).toEqual(['script-injection:.github/workflows/callee.yml:Use']);
    expect(open.gated).toEqual([]);
  });

  it('the same callee called by a gated and an ungated job: a finding through the ungated one', () => {
    const both = `${gatedCaller(ASSOCIATION)}  open:\n    uses: ./.github/workflows/callee.yml\n    with:\n      title: \${{ github.event.comment.body }}\n`;
    const r = judge({ '.github/workflows/caller.yml': both, '.github/workflows/callee.yml': callee });
    expect(codes(r)).toEqual(['script-injection:.github/workflows/callee.yml:Use']);
  });

  it('a composite action called by a step after a check that fails unless the actor may write: its injection and the head checkout it leaves are gated', () => {
    const check = '      - uses: lannonbr/repo-permission-check-action@2.0.2\n        with:\n          permission: write\n';
    const text = `on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n${check}      - name: Call\n        uses: ./.github/actions/setup\n      - run: npm test\n`;
    const action = 'runs:\n  using: composite\n  steps:\n    - name: Inner\n      shell: bash\n      run: echo "${{ github.head_ref }}"\n    - uses: actions/checkout@v4\n      with:\n        ref: ${{ github.event.pull_request.head.sha }}\n';
    const r = judge({ '.github/workflows/w.yml': text, '.github/actions/setup/action.yml': action });
    expect(codes(r)).toEqual([]);
    expect(gatedOf(r)).toEqual(['script-injection:.github/actions/setup/action.yml:Inner', 'untrusted-checkout:.github/actions/setup/action.yml:step 2']);
    const open = judge({ '.github/workflows/w.yml': text.replace(check, ''), '.github/actions/setup/action.yml': action });
    expect(codes(open)).toEqual(['script-injection:.github/actions/setup/action.yml:Inner', 'untrusted-checkout:.github/actions/setup/action.yml:step 2']);
  });
});
