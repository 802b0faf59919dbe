/**
 * Hostile world, category 28: a repository's workflow and action files written to make the workflow-safety
 * analysis (sources/github/workflow-calls.ts, workflow-analysis.ts, workflow-expressions.ts)
 * hang, blow up or call outside the repository. Expressions are read in time linear in their
 * length (an unclosed `${{`, runs of brackets, quotes and whitespace, a long `inputs.` chain,
 * growing 8× must not take more than 32× as long, best of three, with slack); a fan-out of calls
 * and a cycle are bounded; `..` in a `uses:` path is refused; an alias bomb in an action.yml is
 * refused, never expanded; a `uses:` with control characters comes out flattened; github-script outputs and the commands a script runs, attacker text passed through step and job outputs and through `env:` variables expanded as `${{ env.NAME }}` (written to `$GITHUB_ENV`, or exported by a github-script `core.exportVariable`, too), and permission and author-association gates and checks that fail unless the actor is permitted (their shell comparison read), and an issue_comment job's head (a `pull/N/head` refspec, a `--jq .head.sha` lookup assigned to a variable) and a script's head or text read from the payload (judged by the triggers whose payload carries it) are followed in linear time, also in a job of many steps reading earlier steps (each earlier step and output judged once per job); an overlong `if:`
 * is not read for the events it admits. Times are this
 * thread's CPU time.
 */
import { describe, expect, it } from 'vitest';
import { analyseWorkflow, eventsAdmitted } from '../../src/sources/github/workflow-analysis.js';
import { judgeWorkflowCalls, MAX_CALLS_JUDGED, type CallGraphInput } from '../../src/sources/github/workflow-calls.js';
import { expressionUntrusted, injectedLine } from '../../src/sources/github/workflow-expressions.js';
import { permissionExit } from '../../src/sources/github/permission-exit.js';
import { noteCases, noteTime } from './support/metrics.js';
import { growth } from './support/linear-time.js';

function judge(files: Record<string, string>): ReturnType<typeof judgeWorkflowCalls> {
  const paths = Object.keys(files);
  const input: CallGraphInput = {
    repo: { owner: 'acme', name: 'widget' },
    workflows: paths.filter((p) => p.startsWith('.github/workflows/')),
    actionManifests: new Set(paths.filter((p) => /(?:^|\/)action\.ya?ml$/.test(p))),
    texts: new Map(Object.entries(files)),
    failed: new Map(),
    treeTruncated: false,
  };
  return judgeWorkflowCalls(input);
}

describe('hostile workflows: expressions are read in linear time', () => {
  it.for<[string, (k: number) => string]>([
    ['an unclosed `${{` repeated', (k) => `echo ${'${{ github.'.repeat(k)}`],
    ['`[\'` runs', (k) => `\${{ github${"['".repeat(k)}head_ref }}`],
    ['`["` and `]` runs', (k) => `\${{ ${'["x"]'.repeat(k)}${'['.repeat(k)} }}`],
    ['whitespace between dots', (k) => `\${{ github${' '.repeat(k)}.${' '.repeat(k)}head_ref }}`],
    ['a long inputs chain', (k) => `\${{ ${'inputs.a'.repeat(k)} }}`],
    ['toJSON( repeated', (k) => `\${{ ${'toJSON(github.event'.repeat(k)} }}`],
  ])('%s', ([, make], ctx) => {
    const taint = { text: new Set(['a', 'b']), head: new Set<string>() };
    const g = growth((k) => injectedLine(make(k), taint, ['pull_request_target']));
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: job and step outputs are followed in linear time', () => {
  const wf = (outputs: string, run: string) =>
    `on: pull_request_target\njobs:\n  meta:\n    runs-on: x\n    env:\n      A: \${{ github.event.pull_request.base.sha }}\n    outputs:\n      sha: ${JSON.stringify(outputs)}\n    steps:\n      - id: s\n        run: ${JSON.stringify(run)}\n  build:\n    needs: meta\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ needs.meta.outputs.sha }}\n      - run: make\n`;
  it.for<[string, (k: number) => string]>([
    ['`name=` runs in one $GITHUB_OUTPUT command', (k) => wf('${{ steps.s.outputs.sha }}', `echo "${'a='.repeat(k)}" >> $GITHUB_OUTPUT`)],
    ['a word run with no `=` before the redirection', (k) => wf('${{ steps.s.outputs.sha }}', `echo "${'a'.repeat(k)} >> $GITHUB_OUTPUT`)],
    ['`;`-separated writes of shell variables', (k) => wf('${{ steps.s.outputs.sha }}', `${'echo sha=$A$A >> $GITHUB_OUTPUT;'.repeat(k)}`)],
    ['a long `steps.x.outputs.` chain in a job output', (k) => wf(`\${{ ${'steps.s.outputs.'.repeat(k)}sha }}`, 'echo sha=1 >> $GITHUB_OUTPUT')],
  ])('%s', ([, make], ctx) => {
    const g = growth((k) => analyseWorkflow('.github/workflows/w.yml', make(k)));
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: issue_comment head checkouts are read in linear time', () => {
  /** An issue_comment job: step `s` runs the script given and writes `sha`, the checkout reads it, then a build; a last step runs `last`. */
  const wf = (run: string, last = 'make') =>
    `on: issue_comment\njobs:\n  j:\n    runs-on: x\n    steps:\n      - id: s\n        run: ${JSON.stringify(run)}\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ steps.s.outputs.sha }}\n      - run: ${JSON.stringify(last)}\n`;
  it.for<[string, (k: number) => string]>([
    ['`pull/` runs in a git fetch line (no `/head`)', (k) => wf('echo sha=1 >> $GITHUB_OUTPUT', `git fetch origin ${'pull/'.repeat(k)}x`)],
    ['`pull/a` runs with no closing `/head`', (k) => wf('echo sha=1 >> $GITHUB_OUTPUT', `git fetch origin ${'pull/a'.repeat(k)}`)],
    ['`--jq` runs with no head in the written value', (k) => wf(`echo "sha=$(${'gh api x --jq .a '.repeat(k)})" >> $GITHUB_OUTPUT`)],
    ['many variables assigned lookups and read in one write', (k) => wf(`B=$(gh api x --jq .head.sha)\n${'A=$(gh api x --jq .base.sha)\n'.repeat(k)}echo "sha=${'$A'.repeat(k)}" >> $GITHUB_OUTPUT`)],
  ])('%s', ([, make], ctx) => {
    const g = growth((k) => analyseWorkflow('.github/workflows/w.yml', make(k)));
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: env: variables expanded as ${{ env.NAME }} are followed in linear time', () => {
  /** A pull_request_target workflow with `env:` at the workflow and job level as given, and the steps given. */
  const wf = (workflowEnv: string, jobEnv: string, steps: string, jobs = '') =>
    `on: pull_request_target\nenv:\n  W: fixed\n${workflowEnv}jobs:\n  j:\n    runs-on: x\n    env:\n      X: fixed\n${jobEnv}    steps:\n${steps}${jobs}`;
  const step = (run: string, env = '') => `      - ${env === '' ? '' : `env:\n          ${env}\n        `}run: ${JSON.stringify(run)}\n`;
  const exporter = (script: string) => `      - uses: actions/github-script@v7\n        with:\n          script: ${JSON.stringify(script)}\n`;
  it.for<[string, (k: number) => string]>([
    ['k steps each writing T to $GITHUB_ENV and expanding it', (k) => wf('', '', step('echo "T=$X" >> "$GITHUB_ENV"; echo "${{ env.T }}"').repeat(k))],
    ['k heredoc writes to $GITHUB_ENV, then k steps expanding k names', (k) => wf('', '', `${step('{ echo "T<<E"; echo "$X"; echo E; } >> "$GITHUB_ENV"').repeat(k)}${Array.from({ length: k }, (_, i) => step(`echo "\${{ env.N${i} }}"`)).join('')}`)],
    ['k workflow variables, k jobs each expanding toJSON(env)', (k) => wf(Array.from({ length: k }, (_, i) => `  V${i}: fixed ${i}\n`).join(''), '', step('echo ok'), Array.from({ length: k }, (_, i) => `  k${i}:\n    runs-on: x\n    steps:\n${step('echo "${{ toJSON(env) }}"')}`).join(''))],
    ['a job variable k long read by k steps through their own env', (k) => wf('', `      A: ${'a'.repeat(k)}\n`, step('echo "${{ env.B }}"', 'B: ${{ env.A }}').repeat(k))],
    ['k names expanded in one line', (k) => wf('', '', step(Array.from({ length: k }, (_, i) => `\${{ env.V${i} }}`).join(' ')))],
    ['an unclosed `${{ env.` repeated', (k) => wf('', '', step(`echo ${'${{ env.'.repeat(k)}`))],
    ['`env.` runs in one expression', (k) => wf('', '', step(`echo \${{ ${'env.'.repeat(k)}T }}`))],
    ['k github-script steps each exporting T (core.exportVariable) and a step expanding it', (k) => wf('', '', `${exporter("core.exportVariable('T', process.env.X)")}${step('echo "${{ env.T }}"')}`.repeat(k))],
    ['`core.exportVariable(` runs, unclosed, then a step expanding toJSON(env)', (k) => wf('', '', `${exporter('core.exportVariable('.repeat(k))}${step('echo "${{ toJSON(env) }}"')}`)],
  ])('%s', ([, make], ctx) => {
    const g = growth((k) => analyseWorkflow('.github/workflows/w.yml', make(k)), 500);
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: github-script outputs are followed in linear time', () => {
  const wf = (script: string) =>
    `on: pull_request_target\njobs:\n  meta:\n    runs-on: x\n    outputs:\n      sha: \${{ steps.s.outputs.sha }}\n      result: \${{ steps.s.outputs.result }}\n    steps:\n      - id: s\n        uses: actions/github-script@v7\n        with:\n          script: ${JSON.stringify(script)}\n  build:\n    needs: meta\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ needs.meta.outputs.sha }}\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ needs.meta.outputs.result }}\n      - run: make\n`;
  it.for<[string, (k: number) => string]>([
    ['`core.setOutput(` runs with no name', (k) => wf('core.setOutput('.repeat(k))],
    ["`core.setOutput('sha', ` runs, unclosed", (k) => wf("core.setOutput('sha', ".repeat(k))],
    ['`(` runs in a value', (k) => wf(`core.setOutput('sha', ${'('.repeat(k)}`)],
    ['`return` runs', (k) => wf('return '.repeat(k))],
    ['`returnreturn…` (no word boundary)', (k) => wf('return'.repeat(k))],
    ['`a = ` assignment runs', (k) => wf('a = '.repeat(k))],
    ['`pull_request.` / `.head.` runs (the attacker-text pattern)', (k) => wf(`core.setOutput('sha', ${'pull_request.head.'.repeat(k)})`)],
    ['one long identifier before `=`-less blanks', (k) => wf(`${'a'.repeat(k)}${' '.repeat(k)}b`)],
    ['the output set k times from an identifier assigned k times', (k) => wf(`${'x = y;\n'.repeat(k)}${"core.setOutput('sha', x);\n".repeat(k)}`)],
    ['`exec.exec(` runs, unclosed', (k) => wf('exec.exec('.repeat(k))],
    ["`require('child_process').execSync(` runs", (k) => wf("require('child_process').execSync(".repeat(k))],
    ["`exec.exec('bash', [` runs (a shell program: the second argument read)", (k) => wf("exec.exec('bash', [".repeat(k))],
    ['k command calls each with a template of k identifiers', (k) => wf(`${'x = y;\n'.repeat(k)}${'execSync(`echo ${x} ${x}`);\n'.repeat(k)}`)],
    ['`git fetch` calls with the base ref', (k) => wf("exec.exec('git', ['fetch', context.payload.pull_request.base.ref]);\n".repeat(k))],
    ['values of k identifiers each assigned once', (k) => wf(`${Array.from({ length: k }, (_, i) => `v${i} = w;`).join('\n')}\ncore.setOutput('sha', ${Array.from({ length: 40 }, (_, i) => `v${i}`).join(' + ')});\n`.repeat(1))],
  ])('%s', ([, make], ctx) => {
    const g = growth((k) => analyseWorkflow('.github/workflows/w.yml', make(k)));
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: a head read from the event payload is judged by trigger in linear time', () => {
  /** A workflow on `on`: github-script step `s` (script as given), a checkout of its output `sha` and of its `result`, then a build. */
  const wf = (script: string, on = '[issue_comment, workflow_run, pull_request_target]') =>
    `on: ${on}\njobs:\n  j:\n    runs-on: x\n    steps:\n      - id: s\n        uses: actions/github-script@v7\n        with:\n          script: ${JSON.stringify(script)}\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ steps.s.outputs.sha }}\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ steps.s.outputs.result }}\n      - run: make\n`;
  it.for<[string, (k: number) => string]>([
    ['k payload head reads no trigger carries, in one output', (k) => wf(`core.setOutput('sha', ${'context.payload.discussion.head_sha + '.repeat(k)}1)`)],
    ['k payload head reads in an output set in a form not read', (k) => wf(`core.setOutput(n, ${'payload.issue.head.sha + '.repeat(k)}1)`, 'issue_comment')],
    ['`payload.` runs before one head read', (k) => wf(`core.setOutput('sha', ${'payload.'.repeat(k)}issue.head.sha)`, 'issue_comment')],
    ['`payload.x.head_sha` runs (a head read behind each lookback)', (k) => wf(`return ${'payload.x.head_sha'.repeat(k)};`, 'issue_comment')],
    ['`.pull_requests[` runs before head reads', (k) => wf(`core.setOutput('sha', ${'payload.issue.pull_requests[.head.sha '.repeat(k)})`, 'issue_comment')],
    ['k payload text reads no trigger carries, in a command', (k) => wf(`require('child_process').execSync(${'context.payload.discussion.title + '.repeat(k)}1)`)],
    ['`payload.x.head_branch` runs in a command', (k) => wf(`execSync(${'payload.x.head_branch'.repeat(k)})`, 'issue_comment')],
    ['`payload.` runs before one title read, set in a form not read', (k) => wf(`core.setOutput(n, ${'payload.'.repeat(k)}review.title)`, 'issue_comment')],
  ])('%s', ([, make], ctx) => {
    const g = growth((k) => analyseWorkflow('.github/workflows/w.yml', make(k)));
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: attacker text is followed through outputs into a script in linear time', () => {
  /** Step `t` (its run as given) then a step whose run is `reader`; job `meta` outputs `title` for job `use`, whose run is `needsReader`. */
  const wf = (writer: string, reader: string, needsReader = 'echo ok') =>
    `on: pull_request_target\njobs:\n  meta:\n    runs-on: x\n    outputs:\n      title: \${{ steps.t.outputs.title }}\n    steps:\n      - id: t\n        env:\n          T: \${{ github.event.pull_request.title }}\n        run: ${JSON.stringify(writer)}\n      - run: ${JSON.stringify(reader)}\n  use:\n    needs: meta\n    runs-on: x\n    steps:\n      - run: ${JSON.stringify(needsReader)}\n`;
  /** Step `t` a github-script step (script as given), then a run reading its output `title`. */
  const gs = (script: string) =>
    `on: issue_comment\njobs:\n  j:\n    runs-on: x\n    steps:\n      - id: t\n        uses: actions/github-script@v7\n        with:\n          script: ${JSON.stringify(script)}\n      - run: echo "\${{ steps.t.outputs.title }}"\n`;
  it.for<[string, (k: number) => string]>([
    ['k reads of one output of a step whose run is k lines', (k) => wf('echo "n=1" >> "$GITHUB_OUTPUT"\n'.repeat(k), 'echo "${{ steps.t.outputs.n }}"\n'.repeat(k))],
    ['k reads of k different outputs, none written, from a run of k expressions', (k) => wf('echo "${{ github.event.number }}"\n'.repeat(k), Array.from({ length: k }, (_, i) => `echo "\${{ steps.t.outputs.o${i} }}"`).join('\n'))],
    ['a long `steps.t.outputs.` chain in a run', (k) => wf('echo "title=$T" >> "$GITHUB_OUTPUT"', `echo "\${{ ${'steps.t.outputs.'.repeat(k)}title }}"`)],
    ['`outputs` runs with no expression', (k) => wf('echo "title=$T" >> "$GITHUB_OUTPUT"', 'outputs '.repeat(k))],
    ['one expression spanning k lines, each reading an output', (k) => wf('echo "n=1" >> "$GITHUB_OUTPUT"', `echo "\${{\n${'steps.t.outputs.n ||\n'.repeat(k)}'x' }}"`)],
    ['k expressions each spanning lines, each reading a different output', (k) => wf('echo "n=1" >> "$GITHUB_OUTPUT"', Array.from({ length: k }, (_, i) => `echo "\${{\n steps.t.outputs.o${i}\n }}"`).join('\n'))],
    ['`{ data: x } = …pulls.get(` runs in a github-script writer', (k) => gs(`${'{ data: x } = github.pulls.get(); '.repeat(k)}core.setOutput('title', x.title)`)],
    ['`x.data.` runs before `title` in a github-script writer', (k) => gs(`const x = github.rest.pulls.get();\ncore.setOutput('title', ${'x.data.'.repeat(k)}title)`)],
    ['k fetched identifiers and a value naming each', (k) => gs(`${Array.from({ length: k }, (_, i) => `const p${i} = github.issues.get();`).join('\n')}\n${Array.from({ length: k }, (_, i) => `core.setOutput('o${i}', p${i}.body);`).join('\n')}`)],
    ['`${{` and a newline, unclosed, repeated', (k) => wf('echo "n=1" >> "$GITHUB_OUTPUT"', '${{\noutputs '.repeat(k))],
    ['k reads of a needed job\'s output', (k) => wf('echo "n=1" >> "$GITHUB_OUTPUT"', 'echo ok', 'echo "${{ needs.meta.outputs.n }}"\n'.repeat(k))],
    [
      'k outputs each written from one `env:` variable of k expressions, each read',
      (k) =>
        `on: pull_request_target\njobs:\n  meta:\n    runs-on: x\n    steps:\n      - id: t\n        env:\n          BIG: ${JSON.stringify('${{ github.event.number }} '.repeat(k))}\n        run: ${JSON.stringify(Array.from({ length: k }, (_, i) => `echo "o${i}=$BIG" >> "$GITHUB_OUTPUT"`).join('\n'))}\n      - run: ${JSON.stringify(Array.from({ length: k }, (_, i) => `echo "\${{ steps.t.outputs.o${i} }}"`).join('\n'))}\n`,
    ],
  ])('%s', ([, make], ctx) => {
    const g = growth((k) => analyseWorkflow('.github/workflows/w.yml', make(k)));
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: permission and author-association gates are read in linear time', () => {
  /** A pull_request_target build gated (`if:` as given) on output `ok` of job `perm`, whose step `p` is as given. */
  const wf = (step: string, ifValue: string, stepIf = '') =>
    `on: pull_request_target\njobs:\n  perm:\n    runs-on: x\n    outputs:\n      ok: \${{ steps.p.outputs.ok }}\n    steps:\n      - id: p\n${step}  build:\n    needs: perm\n    if: ${JSON.stringify(ifValue)}\n    runs-on: x\n    steps:\n      - id: p\n${step}      - uses: actions/checkout@v4\n${stepIf}        with:\n          ref: \${{ github.event.pull_request.head.sha }}\n      - run: make\n`;
  const run = (text: string) => `        run: ${JSON.stringify(text)}\n`;
  const script = (text: string) => `        uses: actions/github-script@v7\n        with:\n          script: ${JSON.stringify(text)}\n`;
  const GATE = "needs.perm.outputs.ok == 'true'";
  const STEP_GATE = "        if: steps.p.outputs.ok == 'true'\n";
  it.for<[string, (k: number) => string]>([
    ['`gh api /collaborators/` runs on one line, no `/permission`', (k) => wf(run(`${'gh api /collaborators/'.repeat(k)}\necho ok=1 >> $GITHUB_OUTPUT`), GATE)],
    ['`/collaborators/x` runs before one `/permission`', (k) => wf(run(`gh api ${'/collaborators/x'.repeat(k)}/permission\necho ok=1 >> $GITHUB_OUTPUT`), GATE, STEP_GATE)],
    ['`ok=` runs on a $GITHUB_OUTPUT line', (k) => wf(run(`gh api /collaborators/u/permission\necho "${'ok='.repeat(k)}" >> $GITHUB_OUTPUT`), GATE)],
    ['`/collaborators/` runs in a github-script script', (k) => wf(script(`${'github.request("/collaborators/'.repeat(k)}\ncore.setOutput('ok', 'true')`), GATE, STEP_GATE)],
    ['`core.setOutput(` runs beside the permission call', (k) => wf(script(`getCollaboratorPermissionLevel();\n${"core.setOutput('ok', ".repeat(k)}`), GATE)],
    ['`(` runs in the `if:`', (k) => wf(run('echo ok=1 >> $GITHUB_OUTPUT'), `${'('.repeat(k)}${GATE}`)],
    ['`&&` terms in the `if:`', (k) => wf(run('gh api /collaborators/u/permission\necho ok=1 >> $GITHUB_OUTPUT'), `${"needs.perm.outputs.x == 'y' && ".repeat(k)}${GATE}`)],
    ['`"OWNER",` runs in a fromJSON list of associations', (k) => wf(run('echo ok=1'), `contains(fromJSON('[${'"OWNER",'.repeat(k)}"MEMBER"]'), github.event.comment.author_association)`)],
    ['`||` runs of author-association comparisons', (k) => wf(run('echo ok=1'), `${"github.event.comment.author_association == 'OWNER' || ".repeat(k)}x`)],
    ['unclosed `contains(fromJSON(\'[` runs', (k) => wf(run('echo ok=1'), `${"contains(fromJSON('[".repeat(k)}`)],
    ['a job output of a long `needs.` chain', (k) => wf(run('echo ok=1 >> $GITHUB_OUTPUT'), GATE).replace('${{ steps.p.outputs.ok }}', `\${{ ${'needs.perm.outputs.'.repeat(k)}ok }}`)],
  ])('%s', ([, make], ctx) => {
    const g = growth((k) => analyseWorkflow('.github/workflows/w.yml', make(k)));
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: checks that fail unless the actor is permitted are read in linear time', () => {
  /** A pull_request_target workflow: job `check` (its run as given), job `build` needing it (and `more` needs), checking out the head and running it. */
  const wf = (run: string, more = '') =>
    `on: pull_request_target\njobs:\n  check:\n    runs-on: x\n    steps:\n      - run: ${JSON.stringify(run)}\n${more}  build:\n    needs: [check]\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: \${{ github.event.pull_request.head.sha }}\n      - run: make\n`;
  const manyJobs = (k: number): string => {
    const ids = Array.from({ length: Math.ceil(Math.sqrt(k)) }, (_, i) => `j${i}`);
    const jobs = ids.map((id) => `  ${id}:\n    needs: [${ids.join(', ')}]\n    runs-on: x\n    steps:\n      - run: echo ${id}\n`).join('');
    return wf('echo ok', jobs).replace('needs: [check]', `needs: [${ids.join(', ')}]`);
  };
  it.for<[string, (k: number) => string]>([
    ['`/collaborators/${{` and blanks runs on a gh api line', (k) => wf(`gh api ${'/collaborators/${{ '.repeat(k)}${' '.repeat(k)}\nexit 1 # write`)],
    ['`exit ` runs', (k) => wf(`gh api /collaborators/$GITHUB_ACTOR/permission\n${'exit '.repeat(k)}`)],
    ['√k jobs each needing all √k (the needs followed once per job)', manyJobs],
  ])('%s', ([, make], ctx) => {
    const g = growth((k) => analyseWorkflow('.github/workflows/w.yml', make(k)));
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: the comparison of a permission check is read in linear time', () => {
  const ASK = 'perm=$(gh api /collaborators/$GITHUB_ACTOR/permission --jq .permission)\n';
  it.for<[string, (k: number) => string]>([
    ['blanks before `|| exit 1`', (k) => `${ASK}[ "$perm" = admin ]${' '.repeat(k)}|| exit 1`],
    ['blanks before a closing bracket', (k) => `${ASK}[ "$perm" != admin${' '.repeat(k)}x ] && exit 1`],
    ['`! ` runs', (k) => `${ASK}${'! '.repeat(k)}[ "$perm" = admin ] || exit 1`],
    ['`[ ` runs', (k) => `${ASK}${'[ '.repeat(k)}"$perm" = admin ] || exit 1`],
    ['`&&` terms in one `[[ ]]`', (k) => `${ASK}if [[ ${'"$perm" != admin && '.repeat(k)}"$perm" != write ]]; then exit 1; fi`],
    ['`|| ` runs before the exit', (k) => `${ASK}[ "$perm" = admin ] ${'|| '.repeat(k)}exit 1`],
    ['`|| {` runs', (k) => `${ASK}[ "$perm" = admin ] ${'|| {'.repeat(k)} exit 1; }`],
    ['nested `if` frames', (k) => `${ASK}${'if [ "$perm" != admin ]; then\n'.repeat(k)}exit 1\n`],
    ['an unclosed quote', (k) => `${ASK}echo "${'a;'.repeat(k)}\nexit 1`],
    ['`$(` runs', (k) => `${ASK}${'$('.repeat(k)}\nexit 1`],
    ['pipeline stages', (k) => `${ASK}${'echo "$perm" | '.repeat(k)}grep -q admin || exit 1`],
    ['`> /dev/null` runs', (k) => `${ASK}${'grep -q admin > /dev/null '.repeat(k)}<<< "$perm" || exit 1`],
    ['grep flag runs', (k) => `${ASK}echo "$perm" | grep${' -q'.repeat(k)} || exit 1`],
    ['jq ` or ` terms', (k) => `gh api /collaborators/$GITHUB_ACTOR/permission | jq -e '${'.permission == "admin" or '.repeat(k)}.permission == "write"' || exit 1`],
  ])('%s', ([, make], ctx) => {
    const g = growth((k) => permissionExit(make(k)));
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: a job of k steps is judged in linear time', () => {
  /** A pull_request_target job `j` (its `env:` as given) of the steps given (each a YAML list item). */
  const job = (steps: string[], env = '') => `on: pull_request_target\njobs:\n  j:\n    runs-on: x\n${env}    steps:\n${steps.join('')}`;
  const run = (text: string, id = '', ifValue = '') => `      - ${id === '' ? '' : `id: ${id}\n        `}${ifValue === '' ? '' : `if: ${JSON.stringify(ifValue)}\n        `}run: ${JSON.stringify(text)}\n`;
  const checkout = (ref: string) => `      - uses: actions/checkout@v4\n        with:\n          ref: ${JSON.stringify(ref)}\n`;
  const range = (k: number) => Array.from({ length: k }, (_, i) => i);
  const HEAD = '${{ github.event.pull_request.head.sha }}';
  const TITLE = '${{ github.event.pull_request.title }}';
  /** Smaller than the default K (a quadratic walk over 8K steps takes minutes), large enough that one shows over the YAML parse. */
  const STEPS = 500;
  it.for<[string, (k: number) => string]>([
    ['k steps before a checkout of the head', (k) => job([...range(k).map((i) => run(`echo ${i}`)), checkout(HEAD), run('make')])],
    ['k steps writing outputs, then one step reading them all', (k) => job([...range(k).map((i) => run('echo "o=1" >> "$GITHUB_OUTPUT"', `s${i}`)), run(range(k).map((i) => `echo "\${{ steps.s${i}.outputs.o }}"`).join('\n'))])],
    ['k steps each reading the previous step\'s output', (k) => job([run(`echo "o=${TITLE}" >> "$GITHUB_OUTPUT"`, 's0'), ...range(k).map((i) => run(`echo "o=\${{ steps.s${i}.outputs.o }}" >> "$GITHUB_OUTPUT"`, `s${i + 1}`))])],
    ['k checkouts each reading the previous step\'s output', (k) => job([run('echo "o=1" >> "$GITHUB_OUTPUT"', 's0'), ...range(k).map((i) => checkout(`\${{ steps.s${i}.outputs.o }}`).replace('      - ', `      - id: s${i + 1}\n        `)), run('make')])],
    ['k permission-check steps, each gated on the one before', (k) => job([run('gh api /collaborators/u/permission\necho ok=1 >> "$GITHUB_OUTPUT"', 'p0'), ...range(k).map((i) => run(`gh api /collaborators/u/permission\necho ok=1 >> "$GITHUB_OUTPUT"\necho "${TITLE}"`, `p${i + 1}`, `steps.p${i}.outputs.ok == 'true'`))])],
    ['k steps gated on one permission step of k lines', (k) => job([run(`gh api /collaborators/u/permission\n${'echo ok=1 >> "$GITHUB_OUTPUT"\n'.repeat(k)}`, 'p'), ...range(k).map(() => run(`echo "${TITLE}"`, '', "steps.p.outputs.ok == 'true'"))])],
    ['k steps gated on one github-script permission step of k lines', (k) => job([`      - id: p\n        uses: actions/github-script@v7\n        with:\n          script: ${JSON.stringify(`getCollaboratorPermissionLevel();\n${"core.setOutput('ok', 'true');\n".repeat(k)}`)}\n`, ...range(k).map(() => run(`echo "${TITLE}"`, '', "steps.p.outputs.ok == 'true'"))])],
    ['k checkouts each reading an output of one step of k lines', (k) => job([run('echo "x"\n'.repeat(k), 't'), ...range(k).map(() => checkout('${{ steps.t.outputs.o }}')), run('make')])],
    ['k steps each reading an output of one step of k lines', (k) => job([run('echo "x"\n'.repeat(k), 't'), ...range(k).map(() => run('echo "${{ steps.t.outputs.o }}"'))])],
    ['k steps calling a local action, then a run', (k) => job([...range(k).map(() => '      - uses: ./act\n'), run('make')])],
    ['a job of k outputs, each set from a different one of its k steps', (k) => `${job(range(k).map((i) => run('echo "o=1" >> "$GITHUB_OUTPUT"', `s${i}`)))}`.replace('    runs-on: x\n', `    runs-on: x\n    outputs:\n${range(k).map((i) => `      o${i}: \${{ steps.s${i}.outputs.o }}\n`).join('')}`)],
    [
      'k jobs each gated on an output of one job of k outputs',
      (k) =>
        `${job([run('gh api /collaborators/u/permission\necho ok=1 >> "$GITHUB_OUTPUT"', 'p')]).replace('    runs-on: x\n', `    runs-on: x\n    outputs:\n${range(k).map((i) => `      o${i}: \${{ steps.p.outputs.ok }}\n`).join('')}`)}${range(k)
          .map((i) => `  b${i}:\n    needs: j\n    if: needs.j.outputs.o${k - 1} == 'true'\n    runs-on: x\n    steps:\n${run(`echo "${TITLE}"`)}`)
          .join('')}`,
    ],
    ['a job `env:` of k variables and k steps each reading a different output', (k) => job([run('echo "x"', 't'), ...range(k).map((i) => run(`echo "\${{ steps.t.outputs.o${i} }}"`))], `    env:\n${range(k).map((i) => `      V${i}: x\n`).join('')}`)],
  ])('%s', ([, make], ctx) => {
    const g = growth((k) => analyseWorkflow('.github/workflows/w.yml', make(k)), STEPS);
    noteCases(ctx.task, 2);
    noteTime(ctx.task, g.large, g.bound);
    expect(g.large).toBeLessThanOrEqual(g.bound);
  });
});

describe('hostile workflows: calls are bounded', () => {
  it(`a workflow with many jobs calling one reusable workflow with different inputs judges at most ${MAX_CALLS_JUDGED} calls, the rest unknown`, () => {
    const jobs = Array.from({ length: MAX_CALLS_JUDGED + 20 }, (_, i) => `  j${i}:\n    uses: ./.github/workflows/callee.yml\n    with:\n      in${i}: \${{ github.event.pull_request.title }}\n`).join('');
    const callee = 'on: workflow_call\njobs:\n  k:\n    runs-on: x\n    steps:\n      - run: echo ok\n';
    const r = judge({ '.github/workflows/caller.yml': `on: pull_request_target\njobs:\n${jobs}`, '.github/workflows/callee.yml': callee });
    expect(r.findings).toEqual([]);
    expect(r.unreadCalled.map((u) => u.path)).toEqual(['.github/workflows/callee.yml']);
    expect(r.calls.length).toBeLessThanOrEqual(30);
  });

  it('two composite actions calling each other end', () => {
    const a = 'runs:\n  using: composite\n  steps:\n    - uses: ./b\n';
    const b = 'runs:\n  using: composite\n  steps:\n    - uses: ./a\n    - shell: bash\n      run: echo "${{ github.head_ref }}"\n';
    const r = judge({ '.github/workflows/w.yml': 'on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: ./a\n', 'a/action.yml': a, 'b/action.yml': b });
    expect(r.findings.map((f) => f.path)).toEqual(['b/action.yml']);
  });

  it('`..` in a `uses:` path is refused (never read), and a `uses:` with control characters comes out flattened', () => {
    const r = judge({ '.github/workflows/w.yml': 'on: issues\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: ./../../etc\n      - uses: "evil/\\u001b[31mred@v1"\n' });
    expect(r.wanted).toEqual([]);
    expect(r.unreadCalled).toEqual([]);
    expect(r.remoteActions.every((a) => !/[\u0000-\u001f]/.test(a))).toBe(true);
  });

  it('an `if:` of a million parentheses is not read for the events it admits (over the length read)', () => {
    const deep = `${'('.repeat(500_000)}github.event_name == 'issues'${')'.repeat(500_000)}`;
    expect(eventsAdmitted(deep)).toBeNull();
    const r = judge({ '.github/workflows/w.yml': `on: issues\njobs:\n  j:\n    runs-on: x\n    steps:\n      - if: "${deep}"\n        run: echo "\${{ github.event.issue.title }}"\n` });
    expect(r.findings).toHaveLength(1);
  });

  it('an alias bomb in a called action.yml is refused with a reason, never expanded', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`), 'runs:\n  using: composite\n  steps: *i'].join('\n');
    const r = judge({ '.github/workflows/w.yml': 'on: issues\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: ./act\n', 'act/action.yml': bomb });
    expect(r.unreadCalled).toHaveLength(1);
    expect(r.unreadCalled[0]?.path).toBe('act/action.yml');
    expect(expressionUntrusted('github.head_ref')).toBe(true);
  });
});
