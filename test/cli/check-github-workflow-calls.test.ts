/**
 * `nerq check github:…` end to end through the built CLI when a repository's outsider-triggered
 * workflow calls the repository's own composite action (sources/github/workflow-files.ts,
 * workflow-calls.ts, checks/workflow-safety.ts). The repository is acme/widget's recorded answers
 * renamed (test/github/helpers.ts `serveRepo`) with its tree's workflows replaced and a README of
 * its own — synthetic edits — by real files (fixtures/workflows, provenance in fixtures/PROVENANCE.md):
 *  - ultralytics/actions at d65d483 (June 2024): `format.yml` on pull_request_target runs
 *    `ultralytics/actions@main`, the repository's own `action.yml`, which echoes
 *    `${{ github.head_ref }}` and checks out the pull request's head: 0 and the verdict held;
 *  - vitejs/vite at a98c8d9: two of its 13 workflows (`bot.yml` on issues / pull_request_target,
 *    `issue-labeled.yml`) calling its composite `issues-helper` action, which takes its inputs
 *    through env: 100, nothing held.
 * Without a token: one REST request per workflow, one for the called action.yml.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { expectNoUnexpected, FIXTURES_ROOT, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { serveRepo } from '../github/helpers.js';
import { GITHUB_NOW, serveAdvertisedWidget } from './github-helpers.js';
import { checkOf, parseReport, requireBuiltCli } from './helpers.js';

const README = '# Actions\n\nShared GitHub Actions for formatting code and documentation in pull requests.\nEvery input is described in action.yml; see the workflows for how they are called.\n';
const real = (file: string): string => readFileSync(new URL(`../../fixtures/workflows/${file}`, import.meta.url), 'utf8');

/** acme/widget's tree with its workflows replaced by `files` (path → text). */
function treeWith(files: Record<string, string>): Record<string, unknown> {
  const recorded = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github/repos/acme/widget/git/trees/main.json'), 'utf8')) as { tree: Array<{ path: string }> };
  const kept = recorded.tree.filter((e) => !e.path.startsWith('.github/workflows/'));
  const added = Object.entries(files).map(([p, text]) => ({ path: p, mode: '100644', type: 'blob', sha: '0'.repeat(40), size: Buffer.byteLength(text) }));
  return { ...recorded, tree: [...kept, ...added], truncated: false };
}

let server: FixtureServer;
beforeEach(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
});
afterEach(async () => {
  expectNoUnexpected(server);
  await server.close();
});

async function check(fullName: string, files: Record<string, string>): Promise<{ report: Report; github: string[] }> {
  // The recorded README advertises acme/widget's npm package, which does not link back to a renamed repository: a README of its own.
  serveRepo(server, fullName, { skip: ['workflowCi', 'workflowCodeql', 'workflowRelease'], override: { files: { body: treeWith(files) }, readme: { body: README } } });
  // Its package.json names `widget`: the registry is asked for it.
  serveAdvertisedWidget(server);
  for (const [p, text] of Object.entries(files)) server.expect('GET', `/github/repos/${fullName}/contents/${p}`, { body: text });
  const before = server.requests.length;
  const result = await runCli(['check', `github:${fullName}`, '--json'], { server, env: { NERQ_NOW: GITHUB_NOW } });
  expect(result.stderr).toBe('');
  const github = server.requests
    .slice(before)
    .filter((r) => r.path.includes('/contents/') && Object.keys(files).some((p) => r.path.endsWith(p)))
    .map((r) => r.path.split('/contents/')[1] ?? '');
  const report = parseReport(result.stdout);
  return { report, github };
}

const workflowHold = (report: Report) => report.verdictReasonDetails.find((r) => r.code === 'verdict-held' && r.args?.check === 'workflow-safety');

describe('nerq check: a pull_request_target workflow calling the repository\'s own composite action', () => {
  it('ultralytics/actions (June 2024): the action\'s script injection and head checkout score 0 and hold the verdict, naming the chain', async () => {
    const { report, github } = await check('ultralytics/actions', {
      '.github/workflows/format.yml': real('ultralytics-actions-format-d65d483.yml'),
      'action.yml': real('ultralytics-actions-action-d65d483.yml'),
    });
    expect(github.sort()).toEqual(['.github/workflows/format.yml', 'action.yml']);
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: 0, messageId: 'dangerous', evidence: { findingCodes: ['script-injection', 'untrusted-checkout'], actionsRead: 1 } });
    expect(report.verdict).toBe('CAUTION');
    expect(report.verdictReasonDetails.filter((r) => r.code === 'verdict-held').map((r) => r.args?.check)).toEqual(['workflow-safety']);
    const hold = workflowHold(report);
    expect(String(hold?.args?.detail)).toMatch(/^script-injection in action\.yml \(job format, Print Action Information, on pull_request_target, called from \.github\/workflows\/format\.yml/);
  });

  it('vitejs/vite (two of its workflows): the composite action takes its inputs through env: read, 100, nothing held', async () => {
    const { report, github } = await check('vitejs/vite', {
      '.github/workflows/bot.yml': real('vitejs-vite-bot-a98c8d9.yml'),
      '.github/workflows/issue-labeled.yml': real('vitejs-vite-issue-labeled-a98c8d9.yml'),
      '.github/actions/issues-helper/action.yml': real('vitejs-vite-issues-helper-action-a98c8d9.yml'),
    });
    expect(github.sort()).toEqual(['.github/actions/issues-helper/action.yml', '.github/workflows/bot.yml', '.github/workflows/issue-labeled.yml']);
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: 100, messageId: 'safe', evidence: { read: 2, actionsRead: 1, outsider: 2 } });
    expect(workflowHold(report)).toBeUndefined();
    expect(report.verdict).toBe('YES');
  });
});

describe('nerq check: a workflow file GitHub fails to give (a fault) is read again by the next run with the same store', () => {
  it('a 503 on one workflow: unknown as a fault in the first run; the second run asks for it again and judges it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-wf-fault-'));
    try {
      const files = { '.github/workflows/bot.yml': real('vitejs-vite-bot-a98c8d9.yml'), '.github/actions/issues-helper/action.yml': real('vitejs-vite-issues-helper-action-a98c8d9.yml') };
      const failing = '.github/workflows/bot.yml';
      serveRepo(server, 'vitejs/vite', { skip: ['workflowCi', 'workflowCodeql', 'workflowRelease'], override: { files: { body: treeWith(files) }, readme: { body: README } } });
      serveAdvertisedWidget(server);
      let fail = true;
      server.route('GET', `/github/repos/vitejs/vite/contents/${failing}`, (_req, res) => {
        res.writeHead(fail ? 503 : 200, { 'content-type': fail ? 'application/json' : 'text/plain' });
        res.end(fail ? '{"message":"Service Unavailable"}' : files[failing]);
      });
      server.expect('GET', '/github/repos/vitejs/vite/contents/.github/actions/issues-helper/action.yml', { body: files['.github/actions/issues-helper/action.yml'] });
      const store = { XDG_CACHE_HOME: path.join(dir, 'cache'), XDG_DATA_HOME: path.join(dir, 'data'), XDG_STATE_HOME: path.join(dir, 'state') };
      const asked = () => server.requests.filter((r) => r.path.split('?')[0]?.endsWith(failing)).length;
      const run = async () => parseReport((await runCli(['check', 'github:vitejs/vite', '--json'], { server, env: { NERQ_NOW: GITHUB_NOW, ...store } })).stdout);

      const first = await run();
      const askedFirst = asked();
      expect(askedFirst).toBeGreaterThan(0);
      expect(checkOf(first, 'workflow-safety')).toMatchObject({ score: null, messageId: 'partly-read', evidence: { unreadCauses: ['fault'] } });

      fail = false;
      const second = await run();
      expect(asked()).toBeGreaterThan(askedFirst);
      expect(checkOf(second, 'workflow-safety')).toMatchObject({ score: 100, messageId: 'safe', evidence: { read: 1, unreadCount: 0 } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
