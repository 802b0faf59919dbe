/**
 * `nerq check <package>` with a GitHub token judges the workflows of the package's verified
 * repository (docs/checks.md `workflow-safety`): they come with the repository facts query. The
 * package is the fixture world's `widget`; its repository's recorded answer carries, as an edit
 * made here, spotbugs/sonar-findbugs' real `pull_request_target` workflow from before its fix
 * (fixtures/workflows, fixtures/PROVENANCE.md) — or the same file after the fix, or ultralytics/actions'
 * safe `pull_request_target` workflow.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { startFixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { GITHUB_NOW, serveNpmWidget, serveWidgetGraphql, TOKEN } from './github-helpers.js';
import { checkOf, parseReport, requireBuiltCli } from './helpers.js';

requireBuiltCli();

const workflow = (file: string) => readFileSync(new URL(`../../fixtures/workflows/${file}`, import.meta.url), 'utf8');
const files = (text: string) => ({
  workflowFiles: { entries: [{ name: 'sonarqube.yml', type: 'blob', object: { byteSize: Buffer.byteLength(text), text, isTruncated: false, isBinary: false } }] },
});

const workflowHeld = (report: Report) => report.verdictReasonDetails.some((r) => r.code === 'verdict-held' && r.args?.check === 'workflow-safety');

async function check(extra: Record<string, unknown>, env: Record<string, string>): Promise<{ code: number; report: Report }> {
  const server = await startFixtureServer();
  try {
    serveNpmWidget(server, 'widget');
    serveWidgetGraphql(server, extra);
    const run = await runCli(['check', 'widget', '--json'], { server, env: { NERQ_NOW: GITHUB_NOW, ...env } });
    return { code: run.code, report: parseReport(run.stdout) };
  } finally {
    await server.close();
  }
}

describe("nerq check <package>: the package's repository's workflows", () => {
  it('a pull request built with the secrets in the verified repository holds the verdict', async () => {
    const { report } = await check(files(workflow('spotbugs-sonar-findbugs-sonarqube-a6e2787.yml')), { GITHUB_TOKEN: TOKEN });
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: 0, messageId: 'dangerous', evidence: { of: 'package-repository', findingCodes: ['untrusted-checkout'] } });
    expect(report.verdictCode).not.toBe('yes');
    expect(workflowHeld(report)).toBe(true);
  });

  it("a pull_request_target workflow that runs none of the pull request's code: read, judged safe, nothing held", async () => {
    const { report } = await check(files(workflow('ultralytics-actions-cla-2900885.yml')), { GITHUB_TOKEN: TOKEN });
    expect(checkOf(report, 'workflow-safety')).toMatchObject({ score: 100, messageId: 'safe', evidence: { of: 'package-repository' } });
    expect(workflowHeld(report)).toBe(false);
  });

  it('the fixed workflow runs on no event an outsider causes: nothing to judge, the check is left out', async () => {
    const { report } = await check(files(workflow('spotbugs-sonar-findbugs-sonarqube-904df97.yml')), { GITHUB_TOKEN: TOKEN });
    expect(report.checks.map((c) => c.id)).not.toContain('workflow-safety');
  });

  it('without a token the workflows are not read: the check is left out, not scored', async () => {
    const { report } = await check({}, {});
    expect(report.checks.map((c) => c.id)).not.toContain('workflow-safety');
    expect(report.checks.map((c) => c.id)).toContain('commit-activity');
  });
});

describe("nerq check <package>: the package's repository's SECURITY.md", () => {
  /** blazickjp/arxiv-mcp-server's recorded SECURITY.md, whose only address is `maintainer@example.com`, placed at widget's `.github/SECURITY.md`. */
  const placeholder = readFileSync(new URL('../../fixtures/http/github/repos/blazickjp/arxiv-mcp-server/contents/SECURITY.md', import.meta.url), 'utf8');
  const policy = (text: string) => ({ securityPolicy1: { byteSize: Buffer.byteLength(text), text, isTruncated: false, isBinary: false } });

  it('with a token its text comes with the facts query: a placeholder policy points nowhere (40), no longer 100 by its presence', async () => {
    const { report } = await check(policy(placeholder), { GITHUB_TOKEN: TOKEN });
    expect(checkOf(report, 'security-policy')).toMatchObject({ score: 40, messageId: 'dangling', evidence: { file: '.github/SECURITY.md', placeholders: ['maintainer@example.com'] } });
  });
});
