/**
 * Workflows that let outsiders run code with the repository's secrets (pure analysis): real
 * workflows first (fixtures/workflows, provenance in fixtures/PROVENANCE.md), then synthetic
 * edits of them for the edge cases, each said to be an edit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyseWorkflow, workflowTriggers, type WorkflowAnalysis } from '../../src/sources/github/workflow-analysis.js';

const real = (file: string): string => readFileSync(new URL(`../../fixtures/workflows/${file}`, import.meta.url), 'utf8');
const ok = (a: WorkflowAnalysis) => {
  if (!a.ok) throw new Error(`expected a parsed workflow, got: ${a.reason}`);
  return a;
};
const codes = (a: WorkflowAnalysis) => ok(a).findings.map((f) => `${f.code}:${f.job}:${f.step}`);

const SPOTBUGS_VULNERABLE = 'spotbugs-sonar-findbugs-sonarqube-a6e2787.yml';
const SPOTBUGS_FIXED = 'spotbugs-sonar-findbugs-sonarqube-904df97.yml';
const ULTRALYTICS_CLA = 'ultralytics-actions-cla-2900885.yml';
const ULTRALYTICS_FORMAT = 'ultralytics-actions-format-d65d483.yml';
const NX_TITLE = 'nrwl-nx-pr-title-validation-1558e97.yml';

describe('analyseWorkflow on real workflows', () => {
  it('spotbugs/sonar-findbugs before its April 2025 fix: pull_request_target checks out refs/pull/N/merge through a step output, then builds it', () => {
    const a = ok(analyseWorkflow('.github/workflows/sonarqube.yml', real(SPOTBUGS_VULNERABLE)));
    expect(a.triggers).toEqual(['push', 'pull_request_target', 'release']);
    expect(a.outsider).toBe(true);
    expect(codes(a)).toEqual(['untrusted-checkout:build:step 2']);
    const [finding] = a.findings;
    expect(finding?.triggers).toEqual(['pull_request_target']);
    expect(finding?.excerpt).toContain('steps.condval.outputs.value');
    expect(finding?.excerpt).toContain('Build');
    // The branch name reaches the shell only through env (PR_BRANCH): not an injection.
    expect(a.findings.some((f) => f.code === 'script-injection')).toBe(false);
  });

  it('spotbugs/sonar-findbugs today: no outsider trigger, nothing found', () => {
    const a = ok(analyseWorkflow('.github/workflows/sonarqube.yml', real(SPOTBUGS_FIXED)));
    expect(a.outsider).toBe(false);
    expect(a.findings).toEqual([]);
  });

  it('a pull_request_target CLA workflow that checks out nothing and reads comment.body only in `if:` is safe', () => {
    const a = ok(analyseWorkflow('.github/workflows/cla.yml', real(ULTRALYTICS_CLA)));
    expect(a.triggers).toEqual(['issue_comment', 'pull_request_target']);
    expect(a.outsider).toBe(true);
    expect(a.findings).toEqual([]);
    expect(a.unpinnedActions).toBe(1);
  });

  it('a pull_request_target workflow calling a remote action is not judged by the action it calls (a stated limit)', () => {
    const a = ok(analyseWorkflow('.github/workflows/format.yml', real(ULTRALYTICS_FORMAT)));
    expect(a.outsider).toBe(true);
    expect(a.findings).toEqual([]);
  });

  it('nx PR title validation on `pull_request`: the title reaches the shell, but a fork pull request carries no secrets', () => {
    const a = ok(analyseWorkflow('.github/workflows/pr-title-validation.yml', real(NX_TITLE)));
    expect(a.triggers).toEqual(['pull_request']);
    expect(a.findings).toEqual([]);
  });

  it('edit: the same nx workflow with `pull_request_target` added is a script injection', () => {
    const edited = real(NX_TITLE).replace('on:\n  pull_request:\n', 'on:\n  pull_request:\n    types: [opened]\n  pull_request_target:\n');
    const a = ok(analyseWorkflow('.github/workflows/pr-title-validation.yml', edited));
    expect(a.triggers).toEqual(['pull_request', 'pull_request_target']);
    expect(codes(a)).toEqual(['script-injection:validate-pr-title:Create PR message file', 'script-injection:validate-pr-title:Validate PR title']);
    expect(a.findings[1]?.excerpt).toBe('echo "Validating PR title: ${{ github.event.pull_request.title }}"');
    // Checking out the base ref is not an untrusted checkout.
    expect(a.findings.some((f) => f.code === 'untrusted-checkout')).toBe(false);
  });

  it('edit: the nx workflow on pull_request_target with the title passed through env is the safe form', () => {
    const edited = real(NX_TITLE)
      .replace('on:\n  pull_request:\n', 'on:\n  pull_request_target:\n')
      .replace(/      - name: Create PR message file[\s\S]*$/, '      - name: Validate PR title\n        env:\n          TITLE: ${{ github.event.pull_request.title }}\n        run: |\n          echo "Validating PR title: $TITLE"\n');
    const a = ok(analyseWorkflow('x.yml', edited));
    expect(a.outsider).toBe(true);
    expect(a.findings).toEqual([]);
  });

  it('edit: the vulnerable spotbugs workflow on `pull_request` (not target) checks out the head without secrets: no finding', () => {
    const edited = real(SPOTBUGS_VULNERABLE).replace('  pull_request_target:\n', '  pull_request:\n');
    expect(ok(analyseWorkflow('x.yml', edited)).findings).toEqual([]);
  });

  it('edit: the vulnerable spotbugs workflow with its build steps removed: a checkout with nothing run after it is not a finding', () => {
    const edited = real(SPOTBUGS_VULNERABLE).replace(/      - name: Set up JDK 17[\s\S]*$/, '');
    expect(ok(analyseWorkflow('x.yml', edited)).findings).toEqual([]);
  });

  it('edit: the vulnerable spotbugs job gated on the head being the repository itself is not flagged', () => {
    const edited = real(SPOTBUGS_VULNERABLE).replace(
      "if: github.repository == 'spotbugs/sonar-findbugs'",
      'if: github.event.pull_request.head.repo.full_name == github.repository',
    );
    expect(ok(analyseWorkflow('x.yml', edited)).findings).toEqual([]);
  });
});

describe('analyseWorkflow follows a checkout ref through a job output (two levels of `needs`)', () => {
  const PYTHON_SDK_PREVIEW = 'modelcontextprotocol-python-sdk-docs-preview-57394b0.yml';
  /** A pull_request_target workflow whose job `meta` outputs `sha` (set as given), checked out by job `build` and run. */
  const twoJobs = (outputs: string, steps: string, env = '') =>
    `on: pull_request_target\njobs:\n  meta:\n    runs-on: x\n${env}    outputs:\n${outputs}    steps:\n${steps}  build:\n    needs: meta\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ needs.meta.outputs.sha }}\n      - run: npm ci && npm test\n`;
  const HEAD = '${{ github.event.pull_request.head.sha }}';
  const BASE = '${{ github.event.pull_request.base.sha }}';

  it('the output set straight from the head sha: an untrusted checkout in the job that needs it', () => {
    const text = twoJobs(`      sha: ${HEAD}\n`, '      - run: echo ok\n');
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['untrusted-checkout:build:step 1']);
  });

  it.each([
    ['echo "sha=<head>" >> $GITHUB_OUTPUT', `echo "sha=${HEAD}" >> $GITHUB_OUTPUT`, ''],
    ['echo sha=<head> >> "$GITHUB_OUTPUT" after another write', `echo "base=${BASE}" >> "$GITHUB_OUTPUT"; echo sha=${HEAD} >> "$GITHUB_OUTPUT"`, ''],
    ['the head through the step\'s env', 'echo "sha=$HEAD_SHA" >> "$GITHUB_OUTPUT"', `        env:\n          HEAD_SHA: ${HEAD}\n`],
  ])('a step output written to $GITHUB_OUTPUT (%s), passed on as the job output: an untrusted checkout', (_name, run, env) => {
    const text = twoJobs('      sha: ${{ steps.s.outputs.sha }}\n', `      - id: s\n${env}        run: ${JSON.stringify(run)}\n`);
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['untrusted-checkout:build:step 1']);
  });

  it('a safe output stays safe: the base sha written beside the head, the job output the base', () => {
    const run = `echo "sha=${BASE}" >> "$GITHUB_OUTPUT"\necho "head=${HEAD}" >> "$GITHUB_OUTPUT"`;
    const text = twoJobs('      sha: ${{ steps.s.outputs.sha }}\n      head: ${{ steps.s.outputs.head }}\n', `      - id: s\n        run: ${JSON.stringify(run)}\n`);
    expect(ok(analyseWorkflow('x.yml', text)).findings).toEqual([]);
    // The same workflow checking out the head output instead is flagged.
    expect(codes(analyseWorkflow('x.yml', text.replace('needs.meta.outputs.sha', "needs['meta'].outputs['head']")))).toEqual(['untrusted-checkout:build:step 1']);
    // Within one job too: a step output written from the base is safe though the step names the head.
    const sameJob = `on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n      - id: s\n        run: ${JSON.stringify(run)}\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ steps.s.outputs.sha }}\n      - run: npm test\n`;
    expect(ok(analyseWorkflow('x.yml', sameJob)).findings).toEqual([]);
    expect(codes(analyseWorkflow('x.yml', sameJob.replace('steps.s.outputs.sha', 'steps.s.outputs.head')))).toEqual(['untrusted-checkout:j:step 2']);
  });

  it('a job output from a job not defined (or not carrying the head) is not followed', () => {
    const text = twoJobs('      sha: ${{ needs.first.outputs.sha }}\n', '      - run: echo ok\n');
    expect(ok(analyseWorkflow('x.yml', text)).findings).toEqual([]);
  });

  it('two levels of `needs`: a job output passed on from the job it needs is followed; a third level is not', () => {
    const first = (outputs: string) => `  first:\n    runs-on: x\n    outputs:\n${outputs}    steps:\n      - run: echo ok\n`;
    const level2 = twoJobs('      sha: ${{ needs.first.outputs.sha }}\n', '      - run: echo ok\n').replace('jobs:\n', `jobs:\n${first(`      sha: ${HEAD}\n`)}`);
    expect(codes(analyseWorkflow('x.yml', level2))).toEqual(['untrusted-checkout:build:step 1']);
    // A safe output passed on stays safe.
    expect(ok(analyseWorkflow('x.yml', level2.replace(HEAD, BASE))).findings).toEqual([]);
    // Three levels (zero -> first -> meta -> build): not followed.
    const level3 = level2.replace(`      sha: ${HEAD}\n`, '      sha: ${{ needs.zero.outputs.sha }}\n').replace('jobs:\n', `jobs:\n  zero:\n    runs-on: x\n    outputs:\n      sha: ${HEAD}\n    steps:\n      - run: echo ok\n`);
    expect(ok(analyseWorkflow('x.yml', level3)).findings).toEqual([]);
  });

  it('modelcontextprotocol/python-sdk docs-preview: its head sha comes from a github-script `core.setOutput`, followed; the build job is gated on the admin check of job authorize: gated, not a finding', () => {
    const a = ok(analyseWorkflow('.github/workflows/docs-preview.yml', real(PYTHON_SDK_PREVIEW)));
    expect(a.triggers).toEqual(['pull_request_target', 'issue_comment']);
    expect(a.findings).toEqual([]);
    expect(a.gated.map((g) => `${g.code}:${g.job}:${g.step}`)).toEqual(['untrusted-checkout:build:step 1']);
    // Under issue_comment the script fetches the pull request (pulls.get) and sets its head sha: the head there too.
    expect(a.gated[0]?.triggers).toEqual(['pull_request_target', 'issue_comment']);
    expect(a.gated[0]?.excerpt).toContain('needs.authorize.outputs.head_sha');
    expect(a.gated[0]?.gate).toContain("needs.authorize.outputs.authorized == 'true'");
    expect(a.gated[0]?.gate).toContain('job authorize, step check');
    expect(a.gated[0]?.gate).toContain('getCollaboratorPermissionLevel');
  });

  it('edit: the same workflow with the authorize step setting head_sha from the base sha: a safe value stays safe', () => {
    const text = real(PYTHON_SDK_PREVIEW).replace('headSha = context.payload.pull_request.head.sha;', 'headSha = context.payload.pull_request.base.sha;').replace('headSha = pr.head.sha;', 'headSha = pr.base.sha;');
    expect(ok(analyseWorkflow('.github/workflows/docs-preview.yml', text)).findings).toEqual([]);
  });

  it('edit: the same workflow with the authorize step writing the head sha to $GITHUB_OUTPUT: the build job checks it out through needs.authorize.outputs.head_sha and runs it', () => {
    const text = real(PYTHON_SDK_PREVIEW);
    const from = text.indexOf('        uses: actions/github-script@');
    const to = text.indexOf('  build:');
    const edited = `${text.slice(0, from)}        run: |\n          echo "authorized=true" >> "$GITHUB_OUTPUT"\n          echo "head_sha=\${{ github.event.pull_request.head.sha }}" >> "$GITHUB_OUTPUT"\n\n${text.slice(to)}`;
    const a = ok(analyseWorkflow('.github/workflows/docs-preview.yml', edited));
    expect(codes(a)).toEqual(['untrusted-checkout:build:step 1']);
    expect(a.findings[0]?.triggers).toEqual(['pull_request_target']);
    expect(a.findings[0]?.excerpt).toContain('needs.authorize.outputs.head_sha');
  });
});

describe('analyseWorkflow: a job or step gated on a check of the actor\'s permission is recorded as gated, not counted', () => {
  const PYTHON_SDK_PREVIEW = 'modelcontextprotocol-python-sdk-docs-preview-57394b0.yml';
  const BUILD_IF = "    if: needs.authorize.outputs.authorized == 'true'\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n";
  const preview = (): string => {
    const text = real(PYTHON_SDK_PREVIEW);
    if (!text.includes(BUILD_IF)) throw new Error('the fixture changed: the build job\'s if: is not where the edits expect it');
    return text;
  };
  const withBuildIf = (ifValue: string) => preview().replace(BUILD_IF, BUILD_IF.replace("needs.authorize.outputs.authorized == 'true'", ifValue));
  const judged = (text: string) => {
    const a = ok(analyseWorkflow('.github/workflows/docs-preview.yml', text));
    return { findings: codes(a), gated: a.gated.map((g) => `${g.code}:${g.job}:${g.step}`) };
  };
  const FLAGGED = { findings: ['untrusted-checkout:build:step 1'], gated: [] };
  const GATED = { findings: [], gated: ['untrusted-checkout:build:step 1'] };

  it.each([
    ['the real workflow', preview(), GATED],
    ['edit: the gate in ${{ }}, reversed, beside an event test', withBuildIf("${{ github.event_name != 'push' && ('true' == needs.authorize.outputs.authorized) }}"), GATED],
    ['edit: the output compared under ||', withBuildIf("needs.authorize.outputs.authorized == 'true' || github.event_name == 'pull_request_target'"), FLAGGED],
    ['edit: the && gate itself one side of an ||', withBuildIf("needs.authorize.outputs.authorized == 'true' && github.event_name == 'issue_comment' || github.event_name == 'pull_request_target'"), FLAGGED],
    ['edit: != instead of ==', withBuildIf("needs.authorize.outputs.authorized != 'false'"), FLAGGED],
    ['edit: compared with the empty string', withBuildIf("needs.authorize.outputs.authorized == ''"), FLAGGED],
    ['edit: always()', withBuildIf('always()'), FLAGGED],
    ['edit: always() beside the gate', withBuildIf("always() && needs.authorize.outputs.authorized == 'true'"), FLAGGED],
    ['edit: the gate on another job only (deploy keeps it, build loses it)', withBuildIf("github.event_name != 'push'"), FLAGGED],
    [
      'edit: the output set by a step that never asks for the permission',
      preview().replace('const { data } = await github.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username });', "const data = { permission: 'admin', role_name: 'admin' };"),
      FLAGGED,
    ],
    ['edit: the job output passed through more than one plain expression', preview().replace('authorized: ${{ steps.check.outputs.authorized }}', "authorized: ${{ steps.check.outputs.authorized || 'true' }}"), FLAGGED],
    ['edit: the compared output not set by the permission step', withBuildIf("needs.authorize.outputs.slash_attempt == 'true'").replace("core.setOutput('slash_attempt', String(slashAttempt));", ''), FLAGGED],
  ])('%s', (_name, text, expected) => {
    expect(judged(text)).toEqual(expected);
  });

  /** A pull_request_target workflow: job `perm` (steps as given, outputs `ok` from step `p`), job `build` needing it, checking out the head and running it. */
  const gatedBuild = (permSteps: string, buildIf: string, extra = '') =>
    `on: pull_request_target\njobs:\n  perm:\n    runs-on: x\n    outputs:\n      ok: \${{ steps.p.outputs.ok }}\n    steps:\n${permSteps}${extra}  build:\n    needs: [perm]\n    if: ${JSON.stringify(buildIf)}\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ github.event.pull_request.head.sha }}\n      - run: npm ci && npm test\n`;
  const GH_API = '      - id: p\n        run: |\n          level=$(gh api "repos/${{ github.repository }}/collaborators/${{ github.actor }}/permission" --jq .permission)\n          echo "ok=$([ "$level" = admin ] && echo true || echo false)" >> "$GITHUB_OUTPUT"\n';
  const COOL = (require: string) => `      - id: p\n        uses: actions-cool/check-user-permission@v2\n        with:\n          require: ${require}\n`;
  const coolOutputs = (text: string) => text.replace('${{ steps.p.outputs.ok }}', '${{ steps.p.outputs.require-result }}');

  it.each([
    ['a run: step asking gh api for the permission', gatedBuild(GH_API, "needs.perm.outputs.ok == 'true'"), { findings: [], gated: ['untrusted-checkout:build:step 1'] }],
    ['a gh api step that asks nothing (writes ok=true)', gatedBuild('      - id: p\n        run: echo "ok=true" >> "$GITHUB_OUTPUT"\n', "needs.perm.outputs.ok == 'true'"), { findings: ['untrusted-checkout:build:step 1'], gated: [] }],
    ['a github-script step calling checkCollaborator', gatedBuild("      - id: p\n        uses: actions/github-script@v7\n        with:\n          script: |\n            const r = await github.rest.repos.checkCollaborator({ ...context.repo, username: context.actor }).then(() => true, () => false);\n            core.setOutput('ok', String(r));\n", "needs.perm.outputs.ok == 'true'"), { findings: [], gated: ['untrusted-checkout:build:step 1'] }],
    ['a github-script step requesting the permission path', gatedBuild("      - id: p\n        uses: actions/github-script@v7\n        with:\n          script: |\n            const r = await github.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', { ...context.repo, username: context.actor });\n            core.setOutput('ok', String(r.data.permission === 'admin'));\n", "needs.perm.outputs.ok == 'true'"), { findings: [], gated: ['untrusted-checkout:build:step 1'] }],
    ['actions-cool/check-user-permission requiring write', coolOutputs(gatedBuild(COOL('write'), "needs.perm.outputs.ok == 'true'")), { findings: [], gated: ['untrusted-checkout:build:step 1'] }],
    ['actions-cool/check-user-permission requiring read (everyone)', coolOutputs(gatedBuild(COOL('read'), "needs.perm.outputs.ok == 'true'")), { findings: ['untrusted-checkout:build:step 1'], gated: [] }],
    ['actions-cool/check-user-permission v1 under check-bot (`result` says whether the user is a bot)', gatedBuild(`${COOL('write')}          check-bot: true\n`, "needs.perm.outputs.ok == 'true'").replace('${{ steps.p.outputs.ok }}', '${{ steps.p.outputs.result }}'), { findings: ['untrusted-checkout:build:step 1'], gated: [] }],
    ['actions-cool/check-user-permission v1 `result` on the actor', gatedBuild(`${COOL('admin')}          username: \${{ github.actor }}\n`, "needs.perm.outputs.ok == 'true'").replace('${{ steps.p.outputs.ok }}', '${{ steps.p.outputs.result }}'), { findings: [], gated: ['untrusted-checkout:build:step 1'] }],
    ['prince-chrismc/check-actor-permissions-action requiring maintain', gatedBuild('      - id: p\n        uses: prince-chrismc/check-actor-permissions-action@v3\n        with:\n          permission: maintain\n', "needs.perm.outputs.ok == 'true'").replace('${{ steps.p.outputs.ok }}', '${{ steps.p.outputs.permitted }}'), { findings: [], gated: ['untrusted-checkout:build:step 1'] }],
    ['prince-chrismc/check-actor-permissions-action requiring read', gatedBuild('      - id: p\n        uses: prince-chrismc/check-actor-permissions-action@v3\n        with:\n          permission: read\n', "needs.perm.outputs.ok == 'true'").replace('${{ steps.p.outputs.ok }}', '${{ steps.p.outputs.permitted }}'), { findings: ['untrusted-checkout:build:step 1'], gated: [] }],
    ['actions-cool/check-user-permission on the pull request\'s author', coolOutputs(gatedBuild(`${COOL('write')}          username: \${{ github.event.pull_request.user.login }}\n`, "needs.perm.outputs.ok == 'true'")), { findings: ['untrusted-checkout:build:step 1'], gated: [] }],
    [
      'two levels: the permission output passed on by a job the gated job needs',
      gatedBuild(GH_API, "needs.relay.outputs.ok == 'true'", '  relay:\n    needs: perm\n    runs-on: x\n    outputs:\n      ok: ${{ needs.perm.outputs.ok }}\n    steps:\n      - run: echo relay\n').replace('needs: [perm]', 'needs: [relay]'),
      { findings: [], gated: ['untrusted-checkout:build:step 1'] },
    ],
    ['the gate names a job the gated job does not need', gatedBuild(GH_API, "needs.perm.outputs.ok == 'true'").replace('needs: [perm]', 'needs: []'), { findings: ['untrusted-checkout:build:step 1'], gated: [] }],
  ])('%s', (_name, text, expected) => {
    const a = ok(analyseWorkflow('x.yml', text));
    expect({ findings: codes(a), gated: a.gated.map((g) => `${g.code}:${g.job}:${g.step}`) }).toEqual(expected);
  });

  /** One pull_request_target job: a permission step `p`, a checkout of the head, a build (each `if:` as given), then another run. */
  const oneJob = (checkoutIf: string, buildIf: string, after = '') =>
    `on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n${GH_API}      - uses: actions/checkout@v4\n${checkoutIf}        with:\n          ref: \${{ github.event.pull_request.head.sha }}\n      - run: npm ci\n${buildIf}${after}`;
  const STEP_IF = "        if: steps.p.outputs.ok == 'true'\n";

  it('step-level: the checkout gated on an earlier step\'s permission output is gated; on a later step\'s, or a step asking nothing, flagged', () => {
    const gated = ok(analyseWorkflow('x.yml', oneJob(STEP_IF, '')));
    expect(gated.findings).toEqual([]);
    expect(gated.gated.map((g) => `${g.code}:${g.job}:${g.step}`)).toEqual(['untrusted-checkout:j:step 2']);
    expect(gated.gated[0]?.gate).toContain('step p: gh api');
    expect(codes(analyseWorkflow('x.yml', oneJob(STEP_IF.replace('steps.p', 'steps.q'), '')))).toEqual(['untrusted-checkout:j:step 2']);
    expect(codes(analyseWorkflow('x.yml', oneJob(STEP_IF, '').replace('/permission"', '"')))).toEqual(['untrusted-checkout:j:step 2']);
  });

  it('step-level: a gated build step is recorded once; a later ungated step that runs the checkout is still a finding', () => {
    const onlyGated = ok(analyseWorkflow('x.yml', oneJob('', STEP_IF)));
    expect(onlyGated.findings).toEqual([]);
    expect(onlyGated.gated.map((g) => `${g.code}:${g.step}`)).toEqual(['untrusted-checkout:step 2']);
    const later = ok(analyseWorkflow('x.yml', oneJob('', STEP_IF, '      - run: make\n')));
    expect(codes(later)).toEqual(['untrusted-checkout:j:step 2']);
    expect(later.gated).toHaveLength(1);
  });

  it('a script injection in a gated job is gated too; the same job ungated is a finding', () => {
    const text = gatedBuild(GH_API, "needs.perm.outputs.ok == 'true'")
      .replace('      - run: npm ci && npm test\n', '      - run: echo "${{ github.event.pull_request.title }}"\n')
      .replace('        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n', '');
    const a = ok(analyseWorkflow('x.yml', text));
    expect(codes(a)).toEqual([]);
    expect(a.gated.map((g) => g.code)).toEqual(['script-injection']);
    expect(codes(analyseWorkflow('x.yml', text.replace("needs.perm.outputs.ok == 'true'", "needs.perm.outputs.ok != 'true'")))).toEqual(['script-injection:build:step 2']);
  });
});

describe('analyseWorkflow: a job or step gated on the author association is recorded as gated, not counted', () => {
  /** An issue_comment workflow: job `j` (its `if:` as given) echoes the comment into a script; `stepIf` on that step. */
  const commented = (jobIf: string, stepIf = '') =>
    `on: issue_comment\njobs:\n  j:\n${jobIf === '' ? '' : `    if: ${JSON.stringify(jobIf)}\n`}    runs-on: x\n    steps:\n      - run: echo "\${{ github.event.comment.body }}"\n${stepIf === '' ? '' : `        if: ${JSON.stringify(stepIf)}\n`}`;
  const judged = (text: string) => {
    const a = ok(analyseWorkflow('x.yml', text));
    return { findings: codes(a), gated: a.gated.map((g) => `${g.code}:${g.job}:${g.step}`) };
  };
  const FLAGGED = { findings: ['script-injection:j:step 1'], gated: [] };
  const GATED = { findings: [], gated: ['script-injection:j:step 1'] };
  const LIST = `contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association)`;

  it.each([
    ['no gate', commented(''), FLAGGED],
    ['contains(fromJSON(list), comment association) beside a command test', commented(`github.event.issue.pull_request && startsWith(github.event.comment.body, '/run') && ${LIST}`), GATED],
    ['the same in ${{ }}, on the step', commented('', `\${{ ${LIST} }}`), GATED],
    ["== 'OWNER'", commented("github.event.comment.author_association == 'OWNER'"), GATED],
    ["an || of == 'MEMBER' and == 'OWNER', in parentheses, one && term", commented("(github.event.comment.author_association == 'MEMBER' || 'OWNER' == github.event.comment.author_association) && github.event.issue.pull_request"), GATED],
    ["the whole if: an || of == 'OWNER' and == 'MEMBER'", commented("${{ github.event.comment.author_association == 'OWNER' || github.event.comment.author_association == 'MEMBER' }}"), GATED],
    ['the list admits CONTRIBUTOR (anyone with a merged commit)', commented(LIST.replace('"COLLABORATOR"', '"COLLABORATOR", "CONTRIBUTOR"')), FLAGGED],
    ["!= 'NONE'", commented("github.event.comment.author_association != 'NONE'"), FLAGGED],
    ['the association one side of an ||', commented(`${LIST} || github.event.comment.user.login == 'bot'`), FLAGGED],
    ['always() beside it', commented(`always() && ${LIST}`), FLAGGED],
    ['contains on a string (the empty association is in every string)', commented("contains('OWNER,MEMBER', github.event.comment.author_association)"), FLAGGED],
  ])('%s', (_name, text, expected) => {
    expect(judged(text)).toEqual(expected);
  });

  /** A workflow on `on` (its triggers as given): job `j` (its `if:` as given) splices `text` into a script. */
  const onEvents = (on: string, jobIf: string, text: string) =>
    `on: ${on}\njobs:\n  j:\n    if: ${JSON.stringify(jobIf)}\n    runs-on: x\n    steps:\n      - run: echo "\${{ ${text} }}"\n`;
  const member = (object: string) => `github.event.${object}.author_association == 'MEMBER'`;

  it.each([
    ['issue_comment: the issue author\'s association (an outsider commenting on a member\'s issue passes)', onEvents('issue_comment', member('issue'), 'github.event.comment.body'), FLAGGED],
    ['issue_comment: the issue\'s and the comment\'s, both required', onEvents('issue_comment', `${member('issue')} && ${member('comment')}`, 'github.event.comment.body'), GATED],
    ['issue_comment: the issue\'s or the comment\'s', onEvents('issue_comment', `${member('comment')} || ${member('issue')}`, 'github.event.comment.body'), FLAGGED],
    ['issue_comment: the pull request\'s (not carried: empty, runs for nobody)', onEvents('issue_comment', member('pull_request'), 'github.event.comment.body'), GATED],
    ['pull_request_review_comment: the pull request author\'s', onEvents('pull_request_review_comment', member('pull_request'), 'github.event.comment.body'), FLAGGED],
    ['pull_request_review_comment: the comment\'s', onEvents('pull_request_review_comment', member('comment'), 'github.event.comment.body'), GATED],
    ['pull_request_review: the pull request author\'s', onEvents('pull_request_review', member('pull_request'), 'github.event.review.body'), FLAGGED],
    ['pull_request_review: the review\'s', onEvents('pull_request_review', member('review'), 'github.event.review.body'), GATED],
    ['discussion_comment: the discussion author\'s', onEvents('discussion_comment', member('discussion'), 'github.event.comment.body'), FLAGGED],
    ['discussion: the discussion author\'s', onEvents('discussion', member('discussion'), 'github.event.discussion.body'), GATED],
    ['issues: the issue author\'s', onEvents('issues', member('issue'), 'github.event.issue.title'), GATED],
    ['pull_request_target: the pull request author\'s', onEvents('pull_request_target', member('pull_request'), 'github.event.pull_request.title'), GATED],
    ['issues and issue_comment: the issue\'s (the commenter\'s under issue_comment)', onEvents('[issues, issue_comment]', member('issue'), 'github.event.issue.title'), FLAGGED],
    ["issues and issue_comment: the issue's, the job narrowed to `issues`", onEvents('[issues, issue_comment]', `github.event_name == 'issues' && ${member('issue')}`, 'github.event.issue.title'), GATED],
    [
      'issues and issue_comment: per event, the issue\'s under issues, the comment\'s under issue_comment',
      onEvents('[issues, issue_comment]', `(github.event_name == 'issues' && ${member('issue')}) || (github.event_name == 'issue_comment' && startsWith(github.event.comment.body, '/run') && ${member('comment')})`, 'github.event.issue.title'),
      GATED,
    ],
    [
      'issues and issue_comment: per event, the issue\'s under both',
      onEvents('[issues, issue_comment]', `(github.event_name == 'issues' && ${member('issue')}) || (github.event_name == 'issue_comment' && ${member('issue')})`, 'github.event.issue.title'),
      FLAGGED,
    ],
    [
      'issues and issue_comment: one alternative with no association',
      onEvents('[issues, issue_comment]', `(github.event_name == 'issues' && ${member('issue')}) || (github.event_name == 'issue_comment' && startsWith(github.event.comment.body, '/run'))`, 'github.event.issue.title'),
      FLAGGED,
    ],
    ["issue_comment: workflow_dispatch or the comment's (the dispatch alternative admits no outsider)", onEvents('[issue_comment, workflow_dispatch]', `github.event_name == 'workflow_dispatch' || ${member('comment')}`, 'github.event.comment.body'), GATED],
    ['issue_comment: workflow_dispatch or a command test (no association)', onEvents('[issue_comment, workflow_dispatch]', "github.event_name == 'workflow_dispatch' || startsWith(github.event.comment.body, '/run')", 'github.event.comment.body'), FLAGGED],
  ])('%s', (_name, text, expected) => {
    expect(judged(text)).toEqual(expected);
  });

  it('the gate is named in the gated finding', () => {
    const a = ok(analyseWorkflow('x.yml', commented(LIST)));
    expect(a.gated[0]?.gate).toContain('github.event.comment.author_association');
    expect(a.gated[0]?.gate).toContain('OWNER, MEMBER, COLLABORATOR');
  });
});

describe('analyseWorkflow: a job that needs a job failing unless the actor is permitted, or a step after such a step, is gated', () => {
  const LANNONBR = (permission = 'write', extra = '') => `      - uses: lannonbr/repo-permission-check-action@2.0.2\n        with:\n          permission: ${permission}\n${extra}        env:\n          GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}\n`;
  const GH_EXIT = '      - run: |\n          perm=$(gh api "repos/${{ github.repository }}/collaborators/${{ github.actor }}/permission" --jq .permission)\n          if [ "$perm" != admin ] && [ "$perm" != write ]; then exit 1; fi\n';
  /** A pull_request_target workflow: job `check` (steps as given, job keys as given), job `build` needing it (`if:` as given) that checks out the head and runs it. */
  const needing = (checkSteps: string, buildIf = '', checkKeys = '', needs = 'check') =>
    `on: pull_request_target\njobs:\n  check:\n    runs-on: x\n${checkKeys}    steps:\n${checkSteps}  build:\n    needs: ${needs}\n${buildIf === '' ? '' : `    if: ${JSON.stringify(buildIf)}\n`}    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ github.event.pull_request.head.sha }}\n      - run: npm ci && npm test\n`;
  const judged = (text: string) => {
    const a = ok(analyseWorkflow('x.yml', text));
    return { findings: codes(a), gated: a.gated.map((g) => `${g.code}:${g.job}:${g.step}`) };
  };
  const FLAGGED = { findings: ['untrusted-checkout:build:step 1'], gated: [] };
  const GATED = { findings: [], gated: ['untrusted-checkout:build:step 1'] };

  it.each([
    ['lannonbr/repo-permission-check-action requiring write', needing(LANNONBR()), GATED],
    ['requiring admin, the build if: success() && an event test', needing(LANNONBR('admin'), "success() && github.event_name == 'pull_request_target'"), GATED],
    ['requiring read (everyone with read passes)', needing(LANNONBR('read')), FLAGGED],
    ['requiring maintain (not among the levels it ranks: everyone passes)', needing(LANNONBR('maintain')), FLAGGED],
    ['requiring Write (spelt otherwise: everyone passes)', needing(LANNONBR('Write')), FLAGGED],
    ["with fail: 'false' (succeeds, only sets an output)", needing(LANNONBR('write', "          fail: 'false'\n")), FLAGGED],
    ['the check step continue-on-error', needing(LANNONBR().replace('      - uses:', '      - continue-on-error: true\n        uses:')), FLAGGED],
    ['the check step under an if:', needing(LANNONBR().replace('      - uses:', "      - if: github.event_name == 'push'\n        uses:")), FLAGGED],
    ['the check job continue-on-error', needing(LANNONBR(), '', '    continue-on-error: true\n'), FLAGGED],
    ['the build if: always()', needing(LANNONBR(), 'always()'), FLAGGED],
    ['the build if: !cancelled()', needing(LANNONBR(), '${{ !cancelled() }}'), FLAGGED],
    ['the build if: failure()', needing(LANNONBR(), 'failure()'), FLAGGED],
    ['a needed job that merely runs', needing('      - run: echo checked\n'), FLAGGED],
    ['the build does not need the check', needing(LANNONBR(), '', '', '[]'), FLAGGED],
    ['gh api for the actor\'s permission, then exit 1', needing(GH_EXIT), GATED],
    ['gh api for the actor\'s permission, no exit', needing(GH_EXIT.replace('exit 1', 'echo no')), FLAGGED],
    ['gh api for the actor\'s permission, exit 1 when admin (inverted)', needing(GH_EXIT.replace('[ "$perm" != admin ] && [ "$perm" != write ]', '[ "$perm" = admin ]')), FLAGGED],
    ['gh api for the actor\'s permission, exit 1 only when read (triage and none pass)', needing(GH_EXIT.replace('[ "$perm" != admin ] && [ "$perm" != write ]', '[ "$perm" = read ]')), FLAGGED],
    ['gh api for the actor\'s permission, [[ == admin || == write ]] || exit 1', needing(GH_EXIT.replace('if [ "$perm" != admin ] && [ "$perm" != write ]; then exit 1; fi', '[[ "$perm" == admin || "$perm" == write ]] || exit 1')), GATED],
    ['gh api for the pull request author\'s permission', needing(GH_EXIT.replace('github.actor', 'github.event.pull_request.user.login')), FLAGGED],
    [
      'two levels: build needs relay, relay needs the check',
      needing(LANNONBR(), '', '', 'relay').replace('  build:', '  relay:\n    needs: check\n    runs-on: x\n    steps:\n      - run: echo relay\n  build:'),
      GATED,
    ],
    [
      'two levels, relay runs always()',
      needing(LANNONBR(), '', '', 'relay').replace('  build:', '  relay:\n    needs: check\n    if: always()\n    runs-on: x\n    steps:\n      - run: echo relay\n  build:'),
      FLAGGED,
    ],
  ])('%s', (_name, text, expected) => {
    expect(judged(text)).toEqual(expected);
  });

  /** One pull_request_target job: the steps before the checkout as given, then a checkout of the head and a build (`if:` as given). */
  const oneJob = (before: string, buildIf = '') =>
    `on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n${before}      - uses: actions/checkout@v4\n        with:\n          ref: \${{ github.event.pull_request.head.sha }}\n      - run: npm ci\n${buildIf}`;

  it('step-level: a check step before the checkout gates it; after it, or under continue-on-error, or with the build run always(), it does not', () => {
    const a = ok(analyseWorkflow('x.yml', oneJob(LANNONBR())));
    expect(codes(a)).toEqual([]);
    expect(a.gated.map((g) => `${g.code}:${g.job}:${g.step}`)).toEqual(['untrusted-checkout:j:step 2']);
    expect(a.gated[0]?.gate).toContain('lannonbr/repo-permission-check-action');
    const after = `on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ github.event.pull_request.head.sha }}\n      - run: npm ci\n${LANNONBR()}`;
    expect(codes(analyseWorkflow('x.yml', after))).toEqual(['untrusted-checkout:j:step 1']);
    expect(codes(analyseWorkflow('x.yml', oneJob(LANNONBR().replace('      - uses:', '      - continue-on-error: true\n        uses:'))))).toEqual(['untrusted-checkout:j:step 2']);
    // The build alone run always() finds nothing checked out (the checkout was skipped): still gated; both run always(): flagged.
    expect(ok(analyseWorkflow('x.yml', oneJob(LANNONBR(), '        if: always()\n'))).findings).toEqual([]);
    const bothAlways = oneJob(LANNONBR(), '        if: always()\n').replace('      - uses: actions/checkout@v4\n', '      - uses: actions/checkout@v4\n        if: always()\n');
    expect(codes(analyseWorkflow('x.yml', bothAlways))).toEqual(['untrusted-checkout:j:step 2']);
  });

  it('the gate names the needed job and the check', () => {
    const a = ok(analyseWorkflow('x.yml', needing(GH_EXIT)));
    expect(a.gated[0]?.gate).toContain('needs: check');
    expect(a.gated[0]?.gate).toContain('gh api');
  });
});

describe('analyseWorkflow follows a checkout ref through an actions/github-script output (synthetic)', () => {
  /** A pull_request_target job: a github-script step `s` (script as given, env as given), a checkout of its output `out`, then a build. */
  const job = (script: string, out = 'sha', env = '') =>
    `on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n      - id: s\n        uses: actions/github-script@v7\n${env}        with:\n          script: ${JSON.stringify(script)}\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ steps.s.outputs.${out} }}\n      - run: npm ci && npm test\n`;

  it.each([
    ['the payload\'s head sha', "core.setOutput('sha', context.payload.pull_request.head.sha)", 'sha', ''],
    ['an expression naming the head', "core.setOutput(\"sha\", '${{ github.event.pull_request.head.sha }}');", 'sha', ''],
    ['a fetched pull request\'s head ref', "const pr = await github.rest.pulls.get({ ...context.repo, pull_number: 1 });\ncore.setOutput(`sha`, pr.data.head.ref);", 'sha', ''],
    ['an identifier assigned the head', "let sha = '';\nif (x) { sha = context.payload.pull_request.head.sha; }\ncore.setOutput('sha', String(sha));", 'sha', ''],
    ['process.env set from the head', "core.setOutput('sha', process.env.HEAD_SHA)", 'sha', '        env:\n          HEAD_SHA: ${{ github.event.pull_request.head.sha }}\n'],
    ['the returned head (the `result` output)', 'return context.payload.pull_request.head.sha;', 'result', ''],
  ])('%s: an untrusted checkout', (_name, script, out, env) => {
    expect(codes(analyseWorkflow('x.yml', job(script, out, env)))).toEqual(['untrusted-checkout:j:step 2']);
  });

  it('a safe value stays safe: the base sha set beside the head, an identifier assigned the base, a number returned', () => {
    const both = "core.setOutput('sha', context.payload.pull_request.base.sha);\ncore.setOutput('head', context.payload.pull_request.head.sha);";
    expect(ok(analyseWorkflow('x.yml', job(both))).findings).toEqual([]);
    expect(codes(analyseWorkflow('x.yml', job(both, 'head')))).toEqual(['untrusted-checkout:j:step 2']);
    expect(ok(analyseWorkflow('x.yml', job("const sha = context.payload.pull_request.base.sha;\nconst head = context.payload.pull_request.head.sha;\ncore.setOutput('sha', sha)"))).findings).toEqual([]);
    expect(ok(analyseWorkflow('x.yml', job('return 42;', 'result'))).findings).toEqual([]);
    expect(ok(analyseWorkflow('x.yml', job("core.setOutput('sha', process.env.BASE)", 'sha', '        env:\n          BASE: ${{ github.event.pull_request.base.sha }}\n'))).findings).toEqual([]);
  });

  it('an output set in a form not read (a computed name) from a script that names the head: taken as the head', () => {
    expect(codes(analyseWorkflow('x.yml', job("const k = 'sha';\ncore.setOutput(k, context.payload.pull_request.head.sha)")))).toEqual(['untrusted-checkout:j:step 2']);
    expect(ok(analyseWorkflow('x.yml', job("const k = 'sha';\ncore.setOutput(k, context.payload.pull_request.base.sha)"))).findings).toEqual([]);
  });
});

describe('analyseWorkflow follows attacker text through step and job outputs into a script (synthetic)', () => {
  const TITLE = '${{ github.event.pull_request.title }}';
  /** A pull_request_target job: step `t` (as given), then a step whose run reads `steps.t.outputs.title` as given. */
  const job = (writer: string, reader = '      - run: echo "${{ steps.t.outputs.title }}"\n') =>
    `on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n      - id: t\n${writer}${reader}`;
  const runWriter = (run: string, env = '') => `${env}        run: ${JSON.stringify(run)}\n`;
  const TITLE_ENV = `        env:\n          T: ${TITLE}\n`;
  const script = (s: string, env = '') => `        uses: actions/github-script@v7\n${env}        with:\n          script: ${JSON.stringify(s)}\n`;

  it.each([
    ['written from an env variable holding the title', runWriter('echo "title=$T" >> "$GITHUB_OUTPUT"', TITLE_ENV)],
    ['written from the job\'s env variable', runWriter('echo "title=${T}" >> "$GITHUB_OUTPUT"')],
    ['written through tee -a "$GITHUB_OUTPUT"', runWriter('echo "title=$T" | tee -a "$GITHUB_OUTPUT"', TITLE_ENV)],
    ['written by printf to "${GITHUB_OUTPUT}"', runWriter('printf \'title=%s\\n\' "$T" >> "${GITHUB_OUTPUT}"', TITLE_ENV)],
    ['written with >>$GITHUB_OUTPUT (no space)', runWriter('echo "title=$T" >>$GITHUB_OUTPUT', TITLE_ENV)],
    ['set by github-script from the payload', script("core.setOutput('title', context.payload.pull_request.title)")],
    ['set by github-script from process.env holding the title', script("core.setOutput('title', process.env.T)", TITLE_ENV)],
    ['set by github-script through an identifier', script("const t = context.payload.pull_request.title;\ncore.setOutput('title', t)")],
    ['an action whose with: carries the title (its outputs unknown)', `        uses: some/action@v1\n        with:\n          text: ${TITLE}\n`],
  ])('step output %s, read as ${{ }} in a later run: a script injection in the reading step', (_name, writer) => {
    const text = job(writer).replace('    runs-on: x\n', `    runs-on: x\n    env:\n      T: ${TITLE}\n`);
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['script-injection:j:step 2']);
  });

  it.each([
    ['an expression spanning lines', '      - run: |\n          echo "${{\n            steps.t.outputs.title\n          }}"\n'],
    ["format('{0}', …)", "      - run: echo \"${{ format('{0}', steps.t.outputs.title) }}\"\n"],
    ["an || default", "      - run: echo \"${{ steps.t.outputs.title || 'none' }}\"\n"],
    ['a github-script expression spanning lines', '      - uses: actions/github-script@v7\n        with:\n          script: |\n            console.log(`${{\n              steps.t.outputs.title }}`)\n'],
  ])('the output read in %s: a script injection', (_name, reader) => {
    const text = job(runWriter('echo "title=$T" >> "$GITHUB_OUTPUT"', TITLE_ENV), reader);
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['script-injection:j:step 2']);
    // The same reading of an output written from a constant: nothing.
    expect(codes(analyseWorkflow('x.yml', job(runWriter('echo "title=fixed" >> "$GITHUB_OUTPUT"', TITLE_ENV), reader)))).toEqual([]);
  });

  it("a needed job's output read in an expression spanning lines: a script injection", () => {
    const text = `on: pull_request_target\njobs:\n  a:\n    runs-on: x\n    outputs:\n      title: \${{ steps.t.outputs.title }}\n    steps:\n      - id: t\n${runWriter('echo "title=$T" >> "$GITHUB_OUTPUT"', TITLE_ENV)}  b:\n    needs: a\n    runs-on: x\n    steps:\n      - run: |\n          echo "\${{\n            needs.a.outputs.title || 'none'\n          }}"\n`;
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['script-injection:b:step 1']);
  });

  it.each([
    ['a fetched pull request\'s title', "const pr = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });\ncore.setOutput('title', pr.data.title);", true],
    ['a fetched issue\'s body through an identifier', "const issue = await github.issues.get({ ...context.repo, issue_number: 1 });\nconst b = issue.data.body;\ncore.setOutput('title', b);", true],
    ['`{ data: pr }` destructured, its title', "const { data: pr } = await github.rest.pulls.get({ ...context.repo, pull_number: 1 });\ncore.setOutput('title', pr.title);", true],
    ['`{ data }` destructured, its head ref', "const { data } = await github.rest.pulls.get({ ...context.repo, pull_number: 1 });\ncore.setOutput('title', data.head.ref);", true],
    ['a fetched pull request\'s number', "const pr = await github.rest.pulls.get({ ...context.repo, pull_number: 1 });\ncore.setOutput('title', String(pr.data.number));", false],
    ['the title of something not fetched', "const pr = { title: 'fixed' };\ncore.setOutput('title', pr.title);", false],
  ])('github-script sets the output from %s: read in a later run, a script injection (or nothing)', (_name, code, flagged) => {
    const text = job(script(code));
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(flagged ? ['script-injection:j:step 2'] : []);
  });

  it('read in a github-script script: a script injection', () => {
    const text = job(runWriter('echo "title=$T" >> "$GITHUB_OUTPUT"', TITLE_ENV), '      - uses: actions/github-script@v7\n        with:\n          script: console.log(`${{ steps.t.outputs.title }}`)\n');
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['script-injection:j:step 2']);
  });

  it('written straight from ${{ }}: the writing step is flagged (as before), and the reading step too', () => {
    const text = job(runWriter(`echo "title=${TITLE}" >> "$GITHUB_OUTPUT"`));
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['script-injection:j:t', 'script-injection:j:step 2']);
  });

  it.each([
    ['the output read through env: and "$VAR" (the safe form)', runWriter('echo "title=$T" >> "$GITHUB_OUTPUT"', TITLE_ENV), '      - env:\n          TITLE: ${{ steps.t.outputs.title }}\n        run: echo "$TITLE"\n'],
    ['a number written beside the title, the number read', runWriter('echo "n=${{ github.event.pull_request.number }}" >> "$GITHUB_OUTPUT"; echo "title=$T" >> "$GITHUB_OUTPUT"', TITLE_ENV), '      - run: echo "${{ steps.t.outputs.n }}"\n'],
    ['a constant written', runWriter('echo "title=fixed" >> "$GITHUB_OUTPUT"'), ''],
    ['a constant written through tee -a "$GITHUB_OUTPUT"', runWriter('echo "title=fixed" | tee -a "$GITHUB_OUTPUT"', TITLE_ENV), ''],
    ['the base sha written', runWriter('echo "title=$B" >> "$GITHUB_OUTPUT"', '        env:\n          B: ${{ github.event.pull_request.base.sha }}\n'), ''],
    ['github-script setting a number', script("core.setOutput('title', String(context.payload.pull_request.number))"), ''],
    ['an action whose with: carries nothing untrusted', '        uses: some/action@v1\n        with:\n          text: ${{ github.event.pull_request.number }}\n', ''],
    ['a later step\'s output (not an earlier one)', '        run: echo ok\n', '      - id: u\n        env:\n          T: ${{ github.event.pull_request.title }}\n        run: echo "title=$T" >> "$GITHUB_OUTPUT"\n'],
  ])('safe: %s', (_name, writer, reader) => {
    const text = job(writer, reader === '' ? undefined : reader);
    expect(ok(analyseWorkflow('x.yml', text)).findings).toEqual([]);
  });

  it('the same step output under `pull_request` (no secrets): not a finding', () => {
    const text = job(runWriter('echo "title=$T" >> "$GITHUB_OUTPUT"', TITLE_ENV)).replace('pull_request_target', 'pull_request');
    expect(ok(analyseWorkflow('x.yml', text)).findings).toEqual([]);
  });

  /** Job `meta` sets output `title` (as given); job `use` needs it and reads `needs.meta.outputs.title` in a run. */
  const twoJobs = (outputs: string, steps: string, reader = 'echo "${{ needs.meta.outputs.title }}"') =>
    `on: pull_request_target\njobs:\n  meta:\n    runs-on: x\n    outputs:\n${outputs}    steps:\n${steps}  use:\n    needs: meta\n    runs-on: x\n    steps:\n      - run: ${JSON.stringify(reader)}\n`;

  it.each([
    ['set straight from the title', `      title: ${TITLE}\n`, '      - run: echo ok\n'],
    ['set from a step output written from an env variable', '      title: ${{ steps.t.outputs.title }}\n', `      - id: t\n${runWriter('echo "title=$T" >> "$GITHUB_OUTPUT"', TITLE_ENV)}`],
    ['set from a github-script output', '      title: ${{ steps.t.outputs.title }}\n', `      - id: t\n${script("core.setOutput('title', context.payload.pull_request.title)")}`],
  ])('a job output %s, read as ${{ needs.meta.outputs.title }} in a later job\'s run: a script injection', (_name, outputs, steps) => {
    expect(codes(analyseWorkflow('x.yml', twoJobs(outputs, steps)))).toEqual(['script-injection:use:step 1']);
  });

  it('job outputs: the safe forms stay safe (env: + "$VAR", a number, a constant)', () => {
    expect(ok(analyseWorkflow('x.yml', twoJobs(`      title: ${TITLE}\n`, '      - run: echo ok\n', 'echo "$TITLE"'))).findings).toEqual([]);
    expect(ok(analyseWorkflow('x.yml', twoJobs('      title: ${{ github.event.pull_request.number }}\n', '      - run: echo ok\n'))).findings).toEqual([]);
    expect(ok(analyseWorkflow('x.yml', twoJobs('      title: ${{ steps.t.outputs.title }}\n', `      - id: t\n${runWriter('echo "title=fixed" >> "$GITHUB_OUTPUT"')}`))).findings).toEqual([]);
  });

  it('two levels of `needs`: a job output passed on is followed; a third level is not', () => {
    const level2 = twoJobs('      title: ${{ needs.first.outputs.title }}\n', '      - run: echo ok\n').replace('jobs:\n', `jobs:\n  first:\n    runs-on: x\n    outputs:\n      title: ${TITLE}\n    steps:\n      - run: echo ok\n`);
    expect(codes(analyseWorkflow('x.yml', level2))).toEqual(['script-injection:use:step 1']);
    const level3 = level2.replace(`      title: ${TITLE}\n`, '      title: ${{ needs.zero.outputs.title }}\n').replace('jobs:\n', `jobs:\n  zero:\n    runs-on: x\n    outputs:\n      title: ${TITLE}\n    steps:\n      - run: echo ok\n`);
    expect(ok(analyseWorkflow('x.yml', level3)).findings).toEqual([]);
  });

  it('under issue_comment, a job output from the comment body is followed; a pull request title (not carried) is not', () => {
    const text = twoJobs('      title: ${{ github.event.comment.body }}\n', '      - run: echo ok\n').replace('pull_request_target', 'issue_comment');
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['script-injection:use:step 1']);
    expect(ok(analyseWorkflow('x.yml', text.replace('github.event.comment.body', 'github.event.pull_request.title'))).findings).toEqual([]);
  });
});

describe('analyseWorkflow rules (synthetic)', () => {
  const wf = (on: string, steps: string) => `on: ${on}\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;

  it.each([
    ['github.event.pull_request.head.sha', 'pull_request_target'],
    ['github.head_ref', 'pull_request_target'],
    ['refs/pull/${{ github.event.number }}/head', 'pull_request_target'],
    ['${{ github.event.workflow_run.head_sha }}', 'workflow_run'],
  ])('checkout of %s under %s, then a local action, is an untrusted checkout', (ref, on) => {
    const text = wf(on, `      - uses: actions/checkout@v4\n        with:\n          ref: ${ref.startsWith('$') || ref.startsWith('refs') ? ref : `\${{ ${ref} }}`}\n      - uses: ./.github/actions/build\n`);
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['untrusted-checkout:j:step 1']);
  });

  it('`gh pr checkout` then a build in the same script is an untrusted checkout', () => {
    const text = wf('pull_request_target', '      - run: |\n          gh pr checkout ${{ github.event.number }}\n          npm ci && npm test\n');
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['untrusted-checkout:j:step 1']);
  });

  it('checkout of the base (no ref) under pull_request_target, then a build, is not flagged', () => {
    const text = wf('pull_request_target', '      - uses: actions/checkout@v4\n      - run: npm ci && npm test\n');
    expect(ok(analyseWorkflow('x.yml', text)).findings).toEqual([]);
  });

  it.each([
    ['issues', 'github.event.issue.title'],
    ['issue_comment', 'github.event.issue.title'],
    ['discussion', 'github.event.discussion.title'],
    ['pull_request_review', 'github.event.review.body'],
    ['[push, issues]', 'github.event.issue.title'],
    ['{ issues: { types: [opened] } }', 'github.event.issue.title'],
  ])('under %s, %s in a run script is a script injection', (on, context) => {
    const text = wf(on, `      - run: echo "\${{ ${context} }}"\n`);
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['script-injection:j:step 1']);
  });

  it.each([
    ['discussion', 'github.event.issue.title'],
    ['issues', 'github.head_ref'],
    ['issue_comment', 'github.event.pull_request.title'],
    ['workflow_run', 'github.event.comment.body'],
  ])('under %s alone, %s is empty (the event does not carry it): not a finding', (on, context) => {
    const text = wf(on, `      - run: echo "\${{ ${context} }}"\n`);
    expect(codes(analyseWorkflow('x.yml', text))).toEqual([]);
  });

  it('a comment body in an actions/github-script script is a script injection; in `with:` of another action it is not', () => {
    const text = wf(
      'issue_comment',
      '      - uses: actions/github-script@v7\n        with:\n          script: |\n            const body = `${{ github.event.comment.body }}`\n      - uses: some/action@v1\n        with:\n          text: ${{ github.event.comment.body }}\n',
    );
    expect(codes(analyseWorkflow('x.yml', text))).toEqual(['script-injection:j:step 1']);
  });

  it('trusted contexts (numbers, the repository, secrets) in run scripts are not flagged', () => {
    const text = wf('pull_request_target', '      - run: echo ${{ github.event.pull_request.number }} ${{ github.repository }} ${{ github.event.pull_request.head.sha }}\n');
    expect(ok(analyseWorkflow('x.yml', text)).findings).toEqual([]);
  });

  it('counts unpinned third-party actions as context: SHA pins and local actions are not counted', () => {
    const text = wf('push', `      - uses: actions/checkout@v4\n      - uses: a/b@${'0'.repeat(40)}\n      - uses: ./local\n      - uses: docker://alpine:3\n`);
    expect(ok(analyseWorkflow('x.yml', text)).unpinnedActions).toBe(1);
  });

  it('reads the trigger in its string, list and map forms', () => {
    expect(workflowTriggers('push')).toEqual(['push']);
    expect(workflowTriggers(['push', 'issues'])).toEqual(['push', 'issues']);
    expect(workflowTriggers({ issues: null, workflow_run: { workflows: ['CI'] } })).toEqual(['issues', 'workflow_run']);
    expect(workflowTriggers(null)).toEqual([]);
  });

  it('a file that is not YAML, not a mapping, or an alias bomb is unread with a reason, never safe', () => {
    expect(analyseWorkflow('x.yml', 'on: [push\njobs: {').ok).toBe(false);
    expect(analyseWorkflow('x.yml', '- a\n- b\n').ok).toBe(false);
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`), 'on: push'].join('\n');
    const a = analyseWorkflow('x.yml', bomb);
    expect(a.ok).toBe(false);
    expect(a.ok ? '' : a.reason).toContain('aliases');
  });
});

describe('analyseWorkflow output is network text', () => {
  it('flattens and cuts job ids, step names and excerpts (control and bidirectional characters out)', () => {
    const text = `on: issues\njobs:\n  "evil\\u202Ejob\\u0007":\n    runs-on: x\n    steps:\n      - name: "step\\u001b[31m"\n        run: echo "\${{ github.event.issue.body }}" ${'x'.repeat(400)}\n`;
    const [finding] = ok(analyseWorkflow('x.yml', text)).findings;
    expect(finding?.job).toBe('evil job');
    expect(finding?.step).toBe('step [31m');
    expect(Array.from(finding?.excerpt ?? '').length).toBeLessThanOrEqual(160);
    expect(finding?.excerpt.endsWith('…')).toBe(true);
  });
});

describe('analyseWorkflow: commands a github-script script runs with attacker text (synthetic)', () => {
  /** An outsider-triggered workflow (`on` as given): one github-script step (its script as given, `env:` as given), then a build. */
  const scripted = (on: string, script: string, env = '') =>
    `on: ${on}\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: actions/github-script@v7\n${env}        with:\n          script: ${JSON.stringify(script)}\n      - run: npm ci && npm test\n`;
  const judged = (text: string) => {
    const a = ok(analyseWorkflow('x.yml', text));
    return { findings: codes(a), gated: a.gated.map((g) => `${g.code}:${g.job}:${g.step}`) };
  };
  const FETCH_PR = 'const { data: pr } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });\n';
  const INJECTED = { findings: ['script-injection:j:step 1'], gated: [] };
  const SAFE = { findings: [], gated: [] };

  it.each([
    // The head checked out under issue_comment and built by the next step: an untrusted checkout as well.
    ['exec.exec with a fetched head ref in a template', 'issue_comment', `${FETCH_PR}await exec.exec(\`git checkout \${pr.head.ref}\`);`, '', { findings: ['script-injection:j:step 1', 'untrusted-checkout:j:step 1'], gated: [] }],
    ["require('child_process').execSync with the comment body concatenated", 'issue_comment', "require('child_process').execSync('echo ' + context.payload.comment.body);", '', INJECTED],
    ['execSync destructured, the fetched title through an identifier', 'issue_comment', `const { execSync } = require('child_process');\n${FETCH_PR}const title = pr.title;\nexecSync(\`./notify "\${title}"\`);`, '', INJECTED],
    ['exec.getExecOutput with the issue title', 'issues', 'await exec.getExecOutput(`gh issue edit --title ${context.payload.issue.title}`);', '', INJECTED],
    ["exec.exec('bash', ['-c', body]): a shell named as the program", 'issue_comment', "await exec.exec('bash', ['-c', context.payload.comment.body]);", '', INJECTED],
    ['execSync with a process.env variable set from the title', 'issues', "require('child_process').execSync(`echo ${process.env.TITLE}`);", '        env:\n          TITLE: ${{ github.event.issue.title }}\n', INJECTED],
    // No injection; but the head checked out and built by the next step is an untrusted checkout.
    ["the argument array (no shell): exec.exec('git', ['checkout', ref]) under issue_comment", 'issue_comment', `${FETCH_PR}await exec.exec('git', ['checkout', pr.head.ref]);`, '', { findings: ['untrusted-checkout:j:step 1'], gated: [] }],
    ["the argument array (no shell): exec.exec('git', ['checkout', ref]) under issues (no pull request)", 'issues', `${FETCH_PR}await exec.exec('git', ['checkout', pr.head.ref]);`, '', SAFE],
    ['a RegExp exec on the comment body is no command', 'issue_comment', 'const m = /^\\/deploy (\\w+)/.exec(context.payload.comment.body);\nconsole.log(m);', '', SAFE],
    ['exec.exec with a number', 'issue_comment', 'await exec.exec(`gh pr view ${context.issue.number}`);', '', SAFE],
    ['execSync with a constant', 'issue_comment', "require('child_process').execSync('git status');", '', SAFE],
    ['execSync with the comment body under `pull_request` (no secrets)', 'pull_request', "require('child_process').execSync('echo ' + context.payload.comment.body);", '', SAFE],
  ])('%s', (_name, on, script, env, expected) => {
    expect(judged(scripted(on, script, env))).toEqual(expected);
  });

  it('the argument array under pull_request_target: the head ref fetched and checked out by the script, then built, is an untrusted checkout', () => {
    const text = scripted('pull_request_target', "await exec.exec('git', ['fetch', 'origin', context.payload.pull_request.head.ref]);\nawait exec.exec('git', ['checkout', 'FETCH_HEAD']);");
    expect(judged(text)).toEqual({ findings: ['untrusted-checkout:j:step 1'], gated: [] });
    expect(ok(analyseWorkflow('x.yml', text)).findings[0]?.excerpt).toContain('exec.exec(');
    // The base fetched instead: nothing.
    expect(judged(text.replace('pull_request.head.ref', 'pull_request.base.ref'))).toEqual(SAFE);
  });
});

describe('analyseWorkflow: an issue_comment job that checks out the pull request\'s code and runs it is an untrusted checkout', () => {
  const KODELET_E2E = 'jingkaihe-kodelet-e2e-tests-d210c4a.yml';
  const SVELTE_AUTOFIX = 'sveltejs-svelte-autofix-15720b1.yml';
  /** An issue_comment job `test` (its `if:` as given): the steps given, then `npm ci && npm test`. */
  const commentJob = (steps: string, jobIf = '', on = 'issue_comment') =>
    `on: ${on}\njobs:\n  test:\n${jobIf === '' ? '' : `    if: ${JSON.stringify(jobIf)}\n`}    runs-on: x\n    steps:\n${steps}      - run: npm ci && npm test\n`;
  const checkout = (ref: string) => `      - uses: actions/checkout@v4\n        with:\n          ref: ${ref}\n`;
  const judged = (text: string) => {
    const a = ok(analyseWorkflow('.github/workflows/test.yml', text));
    return { findings: codes(a), gated: a.gated.map((g) => `${g.code}:${g.job}:${g.step}`) };
  };
  const FETCH_HEAD = "      - id: pr\n        uses: actions/github-script@v7\n        with:\n          script: |\n            const pr = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });\n            core.setOutput('sha', pr.data.head.sha);\n";
  const MEMBER = "github.event.issue.pull_request && startsWith(github.event.comment.body, '/test') && contains(fromJSON('[\"OWNER\", \"MEMBER\", \"COLLABORATOR\"]'), github.event.comment.author_association)";
  const PERMISSION_EXIT =
    '      - run: |\n          perm=$(gh api "repos/${{ github.repository }}/collaborators/${{ github.actor }}/permission" --jq .permission)\n          if [ "$perm" != "admin" ] && [ "$perm" != "write" ]; then exit 1; fi\n';

  it.each([
    ['refs/pull/<issue number>/head', checkout('refs/pull/${{ github.event.issue.number }}/head'), 'untrusted-checkout:test:step 1'],
    ['refs/pull/<issue number>/merge', checkout('refs/pull/${{ github.event.issue.number }}/merge'), 'untrusted-checkout:test:step 1'],
    ["format('refs/pull/{0}/head', github.event.issue.number)", checkout("${{ format('refs/pull/{0}/head', github.event.issue.number) }}"), 'untrusted-checkout:test:step 1'],
    ["a github-script pulls.get's head.sha through the step output", `${FETCH_HEAD}${checkout('${{ steps.pr.outputs.sha }}')}`, 'untrusted-checkout:test:step 2'],
    [
      'a gh api lookup of .head.sha written to $GITHUB_OUTPUT',
      `      - id: pr\n        run: echo "sha=$(gh api repos/\${{ github.repository }}/pulls/\${{ github.event.issue.number }} --jq .head.sha)" >> "$GITHUB_OUTPUT"\n${checkout('${{ steps.pr.outputs.sha }}')}`,
      'untrusted-checkout:test:step 2',
    ],
    [
      'gh pr view --json headRefOid into a variable, then written',
      `      - id: pr\n        run: |\n          SHA=$(gh pr view \${{ github.event.issue.number }} --json headRefOid -q .headRefOid)\n          echo "sha=$SHA" >> "$GITHUB_OUTPUT"\n${checkout('${{ steps.pr.outputs.sha }}')}`,
      'untrusted-checkout:test:step 2',
    ],
    ['gh pr checkout <issue number>', '      - uses: actions/checkout@v4\n      - run: gh pr checkout ${{ github.event.issue.number }}\n', 'untrusted-checkout:test:step 2'],
    ['git fetch origin pull/<issue number>/head', '      - uses: actions/checkout@v4\n      - run: git fetch origin pull/${{ github.event.issue.number }}/head:pr && git checkout pr\n', 'untrusted-checkout:test:step 2'],
  ])('%s, then npm test: flagged under issue_comment', (_name, steps, finding) => {
    const a = ok(analyseWorkflow('.github/workflows/test.yml', commentJob(steps)));
    expect(codes(a)).toEqual([finding]);
    expect(a.findings[0]?.triggers).toEqual(['issue_comment']);
  });

  it('a needed job\'s output set from a pulls.get head sha, checked out and run: flagged', () => {
    const text = `on: issue_comment\njobs:\n  meta:\n    runs-on: x\n    outputs:\n      sha: \${{ steps.pr.outputs.sha }}\n    steps:\n${FETCH_HEAD}  test:\n    needs: meta\n    runs-on: x\n    steps:\n${checkout('${{ needs.meta.outputs.sha }}')}      - run: make test\n`;
    expect(judged(text)).toEqual({ findings: ['untrusted-checkout:test:step 1'], gated: [] });
  });

  it.each([
    ['a checkout of the default branch', '      - uses: actions/checkout@v4\n'],
    ['a pull request read through the API only (no checkout of it)', `${FETCH_HEAD}      - uses: actions/checkout@v4\n`],
    ["the pull_request payload's head sha (empty under issue_comment: the default branch)", checkout('${{ github.event.pull_request.head.sha }}')],
    ['github.head_ref (empty under issue_comment)', checkout('${{ github.head_ref }}')],
  ])('%s, then npm test: safe', (_name, steps) => {
    expect(judged(commentJob(steps))).toEqual({ findings: [], gated: [] });
  });

  it('a checkout of the pull request with nothing run after it: safe', () => {
    const text = `on: issue_comment\njobs:\n  test:\n    runs-on: x\n    steps:\n${checkout('refs/pull/${{ github.event.issue.number }}/head')}      - uses: actions/upload-artifact@v4\n`;
    expect(judged(text)).toEqual({ findings: [], gated: [] });
  });

  it('review events run a fork\'s pull request without secrets: their checkout of it is not counted', () => {
    for (const on of ['pull_request_review', 'pull_request_review_comment']) {
      expect(judged(commentJob(checkout('refs/pull/${{ github.event.pull_request.number }}/head'), '', on))).toEqual({ findings: [], gated: [] });
    }
  });

  it('on pull_request and issue_comment, the pull_request payload\'s head is the fork\'s without secrets, and empty under issue_comment: safe', () => {
    expect(judged(commentJob(checkout('${{ github.event.pull_request.head.sha }}'), '', '[pull_request, issue_comment]'))).toEqual({ findings: [], gated: [] });
  });

  it('on pull_request_target and issue_comment, the finding names the triggers under which the ref is the head', () => {
    const payloadHead = ok(analyseWorkflow('x.yml', commentJob(checkout('${{ github.event.pull_request.head.sha }}'), '', '[pull_request_target, issue_comment]')));
    expect(payloadHead.findings.map((f) => f.triggers)).toEqual([['pull_request_target']]);
    const refsPull = ok(analyseWorkflow('x.yml', commentJob(checkout('refs/pull/${{ github.event.number || github.event.issue.number }}/head'), '', '[pull_request_target, issue_comment]')));
    expect(refsPull.findings.map((f) => f.triggers)).toEqual([['pull_request_target', 'issue_comment']]);
  });

  it.each([
    ["the commenter's association (OWNER, MEMBER, COLLABORATOR)", commentJob(checkout('refs/pull/${{ github.event.issue.number }}/head'), MEMBER), { findings: [], gated: ['untrusted-checkout:test:step 1'] }],
    [
      "the issue author's association (an outsider commenting on a member's pull request passes)",
      commentJob(checkout('refs/pull/${{ github.event.issue.number }}/head'), MEMBER.replace('github.event.comment.author_association', 'github.event.issue.author_association')),
      { findings: ['untrusted-checkout:test:step 1'], gated: [] },
    ],
    ['a gh api permission check that exits 1 below write', commentJob(`${PERMISSION_EXIT}${checkout('refs/pull/${{ github.event.issue.number }}/head')}`), { findings: [], gated: ['untrusted-checkout:test:step 2'] }],
  ])('gate: %s', (_name, text, expected) => {
    expect(judged(text)).toEqual(expected);
  });

  it('jingkaihe/kodelet e2e-tests: a /e2e-test comment checks out refs/pull/N/head and runs it, behind the commenter\'s association: gated', () => {
    const text = real(KODELET_E2E);
    expect(judged(text)).toEqual({ findings: [], gated: ['untrusted-checkout:e2e-tests:Checkout code'] });
    const a = ok(analyseWorkflow('.github/workflows/e2e-tests.yml', text));
    expect(a.gated[0]?.triggers).toEqual(['issue_comment']);
    expect(a.gated[0]?.excerpt).toContain('Install dependencies');
    // Edit: the association test removed, any commenter runs the pull request's code with the secrets.
    const open = text.replace(/ &&\n\s+\(github\.event\.comment\.author_association[\s\S]*?'COLLABORATOR'\)/, '');
    expect(open).not.toContain('author_association');
    expect(judged(open)).toEqual({ findings: ['untrusted-checkout:e2e-tests:Checkout code'], gated: [] });
  });

  it("sveltejs/svelte autofix: a /autofix comment checks out the pulls.get head ref and runs it, behind the commenter's association: gated", () => {
    const text = real(SVELTE_AUTOFIX);
    expect(judged(text)).toEqual({ findings: [], gated: ['untrusted-checkout:autofix-lint:step 2'] });
    // Edit: the association test removed: counted.
    const open = text.replace(/ &&\n\s+contains\(fromJSON\('\["OWNER", "MEMBER", "COLLABORATOR"\]'\), github\.event\.comment\.author_association\)/, '');
    expect(open).not.toContain('author_association');
    expect(judged(open)).toEqual({ findings: ['untrusted-checkout:autofix-lint:step 2'], gated: [] });
  });
});

describe("analyseWorkflow: the pull request's head read from the event payload is the head only under triggers whose payload carries it", () => {
  /** A workflow on `on`: the steps given, a checkout of `ref`, then a build. */
  const workflow = (on: string, steps: string, ref = '${{ steps.s.outputs.sha }}') =>
    `on: ${on}\njobs:\n  j:\n    runs-on: x\n    steps:\n${steps}      - uses: actions/checkout@v4\n        with:\n          ref: ${ref}\n      - run: npm ci && npm test\n`;
  /** A github-script step `s` (its script as given, `env:` as given). */
  const script = (body: string, env = '') => `      - id: s\n        uses: actions/github-script@v7\n${env}        with:\n          script: ${JSON.stringify(body)}\n`;
  const PAYLOAD_PR = script("core.setOutput('sha', context.payload.pull_request.head.sha)");
  const PAYLOAD_RUN = script("core.setOutput('sha', context.payload.workflow_run.head_sha)");
  const PAYLOAD_RUN_PRS = script("core.setOutput('sha', context.payload.workflow_run.pull_requests[0].head.sha)");
  const ASSIGNED = script("const sha = context.payload.pull_request.head.sha;\ncore.setOutput('sha', sha)");
  const RETURNED = script('return context.payload.pull_request.head.sha;');
  const EXPRESSION_IN_SCRIPT = script("core.setOutput('sha', '${{ github.event.pull_request.head.sha }}')");
  const ENV_IN_SCRIPT = script("core.setOutput('sha', process.env.HEAD_SHA)", '        env:\n          HEAD_SHA: ${{ github.event.pull_request.head.sha }}\n');
  const FETCHED = script("const { data: pr } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });\ncore.setOutput('sha', pr.head.sha)");
  const BRACKET = script("core.setOutput('sha', context.payload['pull_request'].head.sha)");
  const WRITTEN = '      - id: s\n        run: echo "sha=${{ github.event.pull_request.head.sha }}" >> "$GITHUB_OUTPUT"\n';
  const WRITTEN_FROM_ENV = '      - id: s\n        env:\n          HEAD: ${{ github.event.pull_request.head.sha }}\n        run: echo "sha=$HEAD" >> "$GITHUB_OUTPUT"\n';
  const GH_API = '      - id: s\n        run: echo "sha=$(gh api repos/${{ github.repository }}/pulls/${{ github.event.issue.number }} --jq .head.sha)" >> "$GITHUB_OUTPUT"\n';
  const triggersOf = (text: string) => ok(analyseWorkflow('x.yml', text)).findings.map((f) => `${f.code}:${f.triggers.join('+')}`);

  it.each([
    // github-script reading the payload: the head where the payload carries the object, nothing where it does not.
    ['issue_comment', 'the payload pull_request head sha (no pull_request in an issue_comment payload)', workflow('issue_comment', PAYLOAD_PR), []],
    ['pull_request_target', 'the payload pull_request head sha', workflow('pull_request_target', PAYLOAD_PR), ['untrusted-checkout:pull_request_target']],
    ['workflow_run', 'the payload pull_request head sha (a workflow_run payload has none)', workflow('workflow_run', PAYLOAD_PR), []],
    ['workflow_run', 'the payload workflow_run head_sha', workflow('workflow_run', PAYLOAD_RUN), ['untrusted-checkout:workflow_run']],
    ['workflow_run', "the payload workflow_run's pull_requests[0].head.sha", workflow('workflow_run', PAYLOAD_RUN_PRS), ['untrusted-checkout:workflow_run']],
    ['pull_request_target', 'the payload workflow_run head_sha (none in a pull_request_target payload)', workflow('pull_request_target', PAYLOAD_RUN), []],
    ['issue_comment', 'the payload workflow_run head_sha', workflow('issue_comment', PAYLOAD_RUN), []],
    ['issue_comment', 'an identifier assigned the payload head', workflow('issue_comment', ASSIGNED), []],
    ['pull_request_target', 'an identifier assigned the payload head', workflow('pull_request_target', ASSIGNED), ['untrusted-checkout:pull_request_target']],
    ['issue_comment', 'the payload head returned (the result output)', workflow('issue_comment', RETURNED, '${{ steps.s.outputs.result }}'), []],
    ['pull_request_target', 'the payload head returned (the result output)', workflow('pull_request_target', RETURNED, '${{ steps.s.outputs.result }}'), ['untrusted-checkout:pull_request_target']],
    ['issue_comment', 'an expression naming the payload head in the script', workflow('issue_comment', EXPRESSION_IN_SCRIPT), []],
    ['pull_request_target', 'an expression naming the payload head in the script', workflow('pull_request_target', EXPRESSION_IN_SCRIPT), ['untrusted-checkout:pull_request_target']],
    ['issue_comment', 'process.env set from the payload head expression', workflow('issue_comment', ENV_IN_SCRIPT), []],
    ['pull_request_target', 'process.env set from the payload head expression', workflow('pull_request_target', ENV_IN_SCRIPT), ['untrusted-checkout:pull_request_target']],
    ['pull_request_target', 'process.env.HEAD_SHA set from the base sha (a variable, not a head read)', workflow('pull_request_target', ENV_IN_SCRIPT.replace('head.sha', 'base.sha')), []],
    // A head the script fetches is the head under any trigger.
    ['issue_comment', 'a head fetched with pulls.get', workflow('issue_comment', FETCHED), ['untrusted-checkout:issue_comment']],
    ['workflow_run', 'a head fetched with pulls.get', workflow('workflow_run', FETCHED), ['untrusted-checkout:workflow_run']],
    ['[workflow_run, issue_comment]', 'a head fetched with pulls.get', workflow('[workflow_run, issue_comment]', FETCHED), ['untrusted-checkout:workflow_run+issue_comment']],
    ['[pull_request_target, issue_comment]', 'the payload pull_request head sha', workflow('[pull_request_target, issue_comment]', PAYLOAD_PR), ['untrusted-checkout:pull_request_target']],
    // A form not read (bracket property access in script code): taken as the head under any trigger (a stated limit).
    ['issue_comment', "context.payload['pull_request'].head.sha (not read: taken as the head)", workflow('issue_comment', BRACKET), ['untrusted-checkout:issue_comment']],
    ['issue_comment', 'the payload pull_request through an identifier (not followed: taken as the head)', workflow('issue_comment', script("const pr = context.payload.pull_request;\ncore.setOutput('sha', pr.head.sha)")), ['untrusted-checkout:issue_comment']],
    // Expressions: `with: ref:`, a `run:` writing the output, an `env:` variable written.
    ['issue_comment', 'ref: the pull_request head sha expression', workflow('issue_comment', '', '${{ github.event.pull_request.head.sha }}'), []],
    ['workflow_run', 'ref: the pull_request head sha expression', workflow('workflow_run', '', '${{ github.event.pull_request.head.sha }}'), []],
    ['pull_request_target', 'ref: the pull_request head sha expression', workflow('pull_request_target', '', '${{ github.event.pull_request.head.sha }}'), ['untrusted-checkout:pull_request_target']],
    ['workflow_run', 'ref: the workflow_run head_sha expression', workflow('workflow_run', '', '${{ github.event.workflow_run.head_sha }}'), ['untrusted-checkout:workflow_run']],
    ['pull_request_target', 'ref: the workflow_run head_sha expression', workflow('pull_request_target', '', '${{ github.event.workflow_run.head_sha }}'), []],
    ['workflow_run', 'ref: github.head_ref (set for pull request events only)', workflow('workflow_run', '', '${{ github.head_ref }}'), []],
    ['workflow_run', 'a run: writing the pull_request head sha to $GITHUB_OUTPUT', workflow('workflow_run', WRITTEN), []],
    ['pull_request_target', 'a run: writing the pull_request head sha to $GITHUB_OUTPUT', workflow('pull_request_target', WRITTEN), ['untrusted-checkout:pull_request_target']],
    ['workflow_run', 'a run: writing an env: variable set from the pull_request head sha', workflow('workflow_run', WRITTEN_FROM_ENV), []],
    ['pull_request_target', 'a run: writing an env: variable set from the pull_request head sha', workflow('pull_request_target', WRITTEN_FROM_ENV), ['untrusted-checkout:pull_request_target']],
    ['issue_comment', 'a gh api lookup of .head.sha', workflow('issue_comment', GH_API), ['untrusted-checkout:issue_comment']],
  ])('on %s, %s', (_on, _name, text, expected) => {
    expect(triggersOf(text)).toEqual(expected);
  });

  it("a needed job's output set from the payload head: followed under the triggers whose payload carries it", () => {
    const needing = (on: string, body: string) =>
      `on: ${on}\njobs:\n  meta:\n    runs-on: x\n    outputs:\n      sha: \${{ steps.s.outputs.sha }}\n    steps:\n${script(body)}  test:\n    needs: meta\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ needs.meta.outputs.sha }}\n      - run: make test\n`;
    expect(triggersOf(needing('workflow_run', "core.setOutput('sha', context.payload.pull_request.head.sha)"))).toEqual([]);
    expect(triggersOf(needing('workflow_run', "core.setOutput('sha', context.payload.workflow_run.head_sha)"))).toEqual(['untrusted-checkout:workflow_run']);
    expect(triggersOf(needing('issue_comment', "core.setOutput('sha', context.payload.pull_request.head.sha)"))).toEqual([]);
    expect(triggersOf(needing('pull_request_target', "core.setOutput('sha', context.payload.pull_request.head.sha)"))).toEqual(['untrusted-checkout:pull_request_target']);
  });

  it('a git fetch of the payload head run by the script itself: under pull_request_target, not under issue_comment', () => {
    const fetching = (on: string) =>
      `on: ${on}\njobs:\n  j:\n    runs-on: x\n    steps:\n${script("await exec.exec('git', ['fetch', 'origin', context.payload.pull_request.head.sha]);\nawait exec.exec('git', ['checkout', 'FETCH_HEAD']);")}      - run: npm ci && npm test\n`;
    expect(triggersOf(fetching('pull_request_target'))).toEqual(['untrusted-checkout:pull_request_target']);
    expect(triggersOf(fetching('issue_comment'))).toEqual([]);
  });
});

describe('analyseWorkflow: review events (pull_request_review, pull_request_review_comment) run a fork\'s pull request like pull_request', () => {
  /** A job on `on`: the steps given. */
  const job = (on: string, steps: string) => `on: ${on}\njobs:\n  j:\n    runs-on: x\n    steps:\n${steps}`;
  const findings = (text: string) => ok(analyseWorkflow('x.yml', text)).findings.map((f) => `${f.code}:${f.triggers.join('+')}`);
  const CHECKOUT_HEAD = '      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: npm ci && npm test\n';

  it.each([
    // The head is a collaborator's branch (secrets) or a fork's (no secrets): its checkout is not counted.
    ['pull_request_review', 'a checkout of the head, then a build', CHECKOUT_HEAD, []],
    ['pull_request_review_comment', 'a checkout of the head, then a build', CHECKOUT_HEAD, []],
    // Anyone may review or comment on a pull request of the repository's own branch, which runs with the secrets: their text is attacker text.
    ['pull_request_review', 'the review body in a run:', '      - run: echo "${{ github.event.review.body }}"\n', ['script-injection:pull_request_review']],
    ['pull_request_review_comment', 'the comment body in a run:', '      - run: echo "${{ github.event.comment.body }}"\n', ['script-injection:pull_request_review_comment']],
    ['pull_request_review', 'the pull request title in a github-script', "      - uses: actions/github-script@v7\n        with:\n          script: console.log('${{ github.event.pull_request.title }}')\n", ['script-injection:pull_request_review']],
    ['pull_request_review', 'the issue title (not in a review payload)', '      - run: echo "${{ github.event.issue.title }}"\n', []],
    ['[pull_request_review, pull_request_target]', 'a checkout of the head, then a build: counted under pull_request_target only', CHECKOUT_HEAD, ['untrusted-checkout:pull_request_target']],
  ])('on %s, %s', (on, _name, steps, expected) => {
    expect(findings(job(on, steps))).toEqual(expected);
  });
});

describe("analyseWorkflow: attacker text read from the event payload in a github-script is attacker text only under triggers whose payload carries it", () => {
  /** A workflow on `on`: github-script step `t` (script as given, `env:` as given), then — for a script setting `title` — a run reading that output. */
  const scripted = (on: string, script: string, env = '') =>
    `on: ${on}\njobs:\n  j:\n    runs-on: x\n    steps:\n      - id: t\n        uses: actions/github-script@v7\n${env}        with:\n          script: ${JSON.stringify(script)}\n${script.includes('setOutput') ? '      - run: echo "${{ steps.t.outputs.title }}"\n' : ''}`;
  const findings = (text: string) => ok(analyseWorkflow('x.yml', text)).findings.map((f) => `${f.code}:${f.step}`);
  const COMMAND = ['script-injection:t'];
  const OUTPUT = ['script-injection:step 2'];

  it.each([
    ['issue_comment', 'execSync with the payload pull_request title (none in an issue_comment payload)', "require('child_process').execSync('echo ' + context.payload.pull_request.title);", '', []],
    ['pull_request_target', 'execSync with the payload pull_request title', "require('child_process').execSync('echo ' + context.payload.pull_request.title);", '', COMMAND],
    ['issues', 'execSync with the payload comment body (none in an issues payload)', "require('child_process').execSync('echo ' + context.payload.comment.body);", '', []],
    ['pull_request_review', 'execSync with the payload review body', "require('child_process').execSync('echo ' + context.payload.review.body);", '', COMMAND],
    ['issue_comment', 'execSync with the payload review body', "require('child_process').execSync('echo ' + context.payload.review.body);", '', []],
    ['workflow_run', "execSync with the payload workflow_run's head_branch", "require('child_process').execSync(`echo ${context.payload.workflow_run.head_branch}`);", '', COMMAND],
    ['issue_comment', "execSync with the payload pull_request's head ref", "require('child_process').execSync(`echo ${context.payload.pull_request.head.ref}`);", '', []],
    ['issue_comment', 'execSync with a fetched pull request title: attacker text under any trigger', "const { data: pr } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });\nrequire('child_process').execSync('echo ' + pr.title);", '', COMMAND],
    ['pull_request_target', 'execSync with process.env.HEAD_BRANCH set from the base ref (a variable, not a branch name read)', "require('child_process').execSync(`echo ${process.env.HEAD_BRANCH}`);", '        env:\n          HEAD_BRANCH: ${{ github.event.pull_request.base.ref }}\n', []],
    ['issue_comment', 'an output set from the payload pull_request title, read in a run', "core.setOutput('title', context.payload.pull_request.title)", '', []],
    ['pull_request_target', 'an output set from the payload pull_request title, read in a run', "core.setOutput('title', context.payload.pull_request.title)", '', OUTPUT],
    ['issue_comment', 'an output set from the payload issue title, read in a run', "core.setOutput('title', context.payload.issue.title)", '', OUTPUT],
    ['[issues, issue_comment]', 'an output set from the payload comment body, read in a run', "core.setOutput('title', context.payload.comment.body)", '', OUTPUT],
  ])('on %s, %s', (on, _name, script, env, expected) => {
    expect(findings(scripted(on, script, env))).toEqual(expected);
  });
});

describe('analyseWorkflow: attacker text put in env: and expanded inline as ${{ env.NAME }} is a script injection (synthetic)', () => {
  const indent = (lines: string, by: string) => lines.split('\n').map((l) => `${by}${l}\n`).join('');
  /**
   * A workflow on `on`: `env:` at the workflow, job and step level as given (`NAME: value` lines),
   * earlier steps as given, then step `use` running `run`.
   */
  const layered = (on: string, env: { workflow?: string; job?: string; step?: string }, run: string, earlier = '') =>
    `on: ${on}\n${env.workflow === undefined ? '' : `env:\n${indent(env.workflow, '  ')}`}jobs:\n  j:\n    runs-on: x\n${env.job === undefined ? '' : `    env:\n${indent(env.job, '      ')}`}    steps:\n${earlier}      - name: use\n${env.step === undefined ? '' : `        env:\n${indent(env.step, '          ')}`}        run: ${JSON.stringify(run)}\n`;
  const findings = (text: string) => ok(analyseWorkflow('x.yml', text)).findings.map((f) => `${f.code}:${f.job}:${f.step}`);
  const TITLE = '${{ github.event.pull_request.title }}';
  /** An earlier step `t` that writes `line` with TITLE in its env (the safe form there). */
  const writer = (line: string) => `      - id: t\n        env:\n          TITLE: ${TITLE}\n        run: ${JSON.stringify(line)}\n`;
  /** An earlier `actions/github-script` step `t` running `script`. */
  const exporter = (script: string) => `      - id: t\n        uses: actions/github-script@v7\n        with:\n          script: ${JSON.stringify(script)}\n`;

  it.each([
    ['the workflow env holds the pull request title', 'pull_request_target', { workflow: `T: ${TITLE}` }, 'echo "${{ env.T }}"', ''],
    ['the job env holds the head branch name', 'pull_request_target', { job: 'T: ${{ github.head_ref }}' }, 'git push origin "${{ env.T }}"', ''],
    ["the step's own env holds the issue title", 'issues', { step: 'T: ${{ github.event.issue.title }}' }, 'echo "${{ env.T }}"', ''],
    ['the comment body, read by bracket', 'issue_comment', { job: 'BODY: ${{ github.event.comment.body }}' }, `echo "\${{ env['BODY'] }}"`, ''],
    ['a name read in another case (expressions ignore case)', 'pull_request_target', { workflow: 'Body: ${{ github.event.pull_request.body }}' }, 'echo "${{ env.BODY }}"', ''],
    ["inside format('{0}', …)", 'pull_request_target', { job: `T: ${TITLE}` }, "echo \"${{ format('{0}', env.T) }}\"", ''],
    ['a step env set from the job env that holds the title', 'pull_request_target', { job: `A: ${TITLE}`, step: 'B: ${{ env.A }}' }, 'echo "${{ env.B }}"', ''],
    ['a step env set from an earlier step output that carries the title', 'pull_request_target', { step: 'T: ${{ steps.t.outputs.title }}' }, 'echo "${{ env.T }}"', writer('echo "title=$TITLE" >> "$GITHUB_OUTPUT"')],
    ['written to $GITHUB_ENV by an earlier step from a variable holding the title', 'pull_request_target', {}, 'echo "${{ env.T }}"', writer('echo "T=$TITLE" >> "$GITHUB_ENV"')],
    ['written through tee -a "$GITHUB_ENV"', 'pull_request_target', {}, 'echo "${{ env.T }}"', writer('echo "T=$TITLE" | tee -a "$GITHUB_ENV"')],
    ['written by printf to "${GITHUB_ENV}"', 'pull_request_target', {}, 'echo "${{ env.T }}"', writer('printf \'T=%s\\n\' "$TITLE" >> "${GITHUB_ENV}"')],
    ['written with >>$GITHUB_ENV (no space)', 'pull_request_target', {}, 'echo "${{ env.T }}"', writer('echo "T=$TITLE" >>$GITHUB_ENV')],
    ['written by github-script core.exportVariable from the payload title', 'pull_request_target', {}, 'echo "${{ env.T }}"', exporter("core.exportVariable('T', context.payload.pull_request.title)")],
    ['written by github-script core.exportVariable from an identifier holding a fetched title', 'pull_request_target', {}, 'echo "${{ env.T }}"', exporter("const { data: pr } = await github.rest.pulls.get({ owner, repo, pull_number: 1 });\nconst t = pr.title;\ncore.exportVariable('T', t)")],
  ])('%s (on %s): the step that expands it', (_name, on, env, run, earlier) => {
    expect(findings(layered(on, env, run, earlier))).toEqual(['script-injection:j:use']);
  });

  it('github-script core.exportVariable from an expression naming the issue title: the writing script and the step that expands it', () => {
    const text = layered('issues', {}, 'echo "${{ env.T }}"', exporter("core.exportVariable('T', '${{ github.event.issue.title }}')"));
    expect(findings(text)).toEqual(['script-injection:j:t', 'script-injection:j:use']);
  });

  it('a github-script script expanding ${{ env.T }} that holds the title', () => {
    const text = `on: pull_request_target\nenv:\n  T: ${TITLE}\njobs:\n  j:\n    runs-on: x\n    steps:\n      - name: use\n        uses: actions/github-script@v7\n        with:\n          script: console.log(\`\${{ env.T }}\`)\n`;
    expect(findings(text)).toEqual(['script-injection:j:use']);
  });

  it("a step output written from the workflow env's title (the shell form there), expanded as ${{ steps.t.outputs.title }}", () => {
    const text = `on: pull_request_target\nenv:\n  T: ${TITLE}\njobs:\n  j:\n    runs-on: x\n    steps:\n      - id: t\n        run: echo "title=$T" >> "$GITHUB_OUTPUT"\n      - name: use\n        run: echo "\${{ steps.t.outputs.title }}"\n`;
    expect(findings(text)).toEqual(['script-injection:j:use']);
  });

  it("a job env set from a needed job's output that carries the title", () => {
    const text = `on: pull_request_target\njobs:\n  meta:\n    runs-on: x\n    outputs:\n      title: ${TITLE}\n    steps:\n      - run: echo ok\n  j:\n    needs: meta\n    runs-on: x\n    env:\n      T: \${{ needs.meta.outputs.title }}\n    steps:\n      - name: use\n        run: echo "\${{ env.T }}"\n`;
    expect(findings(text)).toEqual(['script-injection:j:use']);
  });

  it.each([
    ['the shell form "$T" (the safe one)', 'pull_request_target', { workflow: `T: ${TITLE}` }, 'echo "$T"', ''],
    ['a number in env', 'pull_request_target', { job: 'T: ${{ github.event.pull_request.number }}' }, 'echo "${{ env.T }}"', ''],
    ['a pull request run (no secrets)', 'pull_request', { workflow: `T: ${TITLE}` }, 'echo "${{ env.T }}"', ''],
    ['a discussion run: its payload carries no issue', 'discussion', { job: 'T: ${{ github.event.issue.title }}' }, 'echo "${{ env.T }}"', ''],
    ["the step's own env overriding the job's with a constant", 'pull_request_target', { job: `T: ${TITLE}`, step: 'T: fixed' }, 'echo "${{ env.T }}"', ''],
    ["an earlier step's own env (it ends with that step)", 'pull_request_target', {}, 'echo "${{ env.TITLE }}"', writer('echo "$TITLE"')],
    ['a constant written to $GITHUB_ENV', 'pull_request_target', {}, 'echo "${{ env.T }}"', writer('echo "T=fixed" >> "$GITHUB_ENV"')],
    ['a constant written through tee -a "$GITHUB_ENV"', 'pull_request_target', {}, 'echo "${{ env.T }}"', writer('echo "T=fixed" | tee -a "$GITHUB_ENV"')],
    ['a title written to $GITHUB_ENV, read by the shell as "$T"', 'pull_request_target', {}, 'echo "$T"', writer('echo "T=$TITLE" | tee -a "$GITHUB_ENV"')],
    ['github-script exporting a constant', 'pull_request_target', {}, 'echo "${{ env.T }}"', exporter("core.exportVariable('T', 'fixed')")],
    ['github-script exporting the title under another name', 'pull_request_target', {}, 'echo "${{ env.U }}"', exporter("core.exportVariable('T', context.payload.pull_request.title)")],
    ['github-script exporting the pull request title under issues (its payload has none)', 'issues', {}, 'echo "${{ env.T }}"', exporter("core.exportVariable('T', context.payload.pull_request.title)")],
    ['github-script exporting the title, read by the shell as "$T"', 'pull_request_target', {}, 'echo "$T"', exporter("core.exportVariable('T', context.payload.pull_request.title)")],
    ['another variable expanded', 'pull_request_target', { job: `T: ${TITLE}\nU: fixed` }, 'echo "${{ env.U }}"', ''],
  ])('safe: %s (on %s)', (_name, on, env, run, earlier) => {
    expect(findings(layered(on, env, run, earlier))).toEqual([]);
  });

  it("safe: the title in env expanded only in another action's with:, and another job's env", () => {
    const text = `on: pull_request_target\nenv:\n  T: ${TITLE}\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: some/action@v1\n        with:\n          text: \${{ env.T }}\n  k:\n    runs-on: x\n    env:\n      U: ${TITLE}\n    steps:\n      - run: echo ok\n  l:\n    runs-on: x\n    steps:\n      - run: echo "\${{ env.U }}"\n`;
    expect(findings(text)).toEqual([]);
  });
});
