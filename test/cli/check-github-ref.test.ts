/**
 * `nerq check github:owner/repo@ref` end to end through the built CLI against the fixture server:
 * the ref is resolved to its commit once (`GET …/commits/{ref}`, the sha media type) and the tree,
 * the history and every file are read at that commit — never at the default branch — with the
 * commit in the report and its header; a ref the repository does not have is a target not found.
 * acme/widget's tree at the pinned commit has no SECURITY.md (its default branch has one), so the
 * report shows which tree was read.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer, type RecordedRequest } from '../support/fixture-server.js';
import { runCli, type CliResult } from '../support/run-cli.js';
// GH_SHA: the repository lookup's own listing of `.github` by its tree sha (the repository's facts, not its files).
import { GH_SHA } from '../github/helpers.js';
import { GITHUB_NOW, PINNED, PINNED_WORKFLOWS as WORKFLOWS, servePinnedWidget, serveWidgetGraphql, TOKEN, WIDGET_API as WIDGET } from './github-helpers.js';
import { checkOf, parseReport, requireBuiltCli, schemaViolations } from './helpers.js';

interface Run extends CliResult {
  requests: RecordedRequest[];
}

let server: FixtureServer | undefined;
const serverOf = (): FixtureServer => {
  if (server === undefined) throw new Error('fixture server not started');
  return server;
};
async function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const before = serverOf().requests.length;
  const result = await runCli(args, { server: serverOf(), env: { NERQ_NOW: GITHUB_NOW, ...env } });
  return { ...result, requests: serverOf().requests.slice(before) };
}

function jsonReport(result: CliResult): Report {
  expect(result.stderr).toBe('');
  expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
  return parseReport(result.stdout);
}

beforeAll(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
  servePinnedWidget(server);
  // With a token: the repository's facts query, and the files' NerqFiles queries answered from the recorded files.
  serveWidgetGraphql(server);
});
afterAll(async () => {
  if (server === undefined) return;
  expectNoUnexpected(server);
  await server.close();
});

describe('github:acme/widget@release/3.x without a token', () => {
  let dir: string;
  let pinned: Run;
  let report: Report;
  let evidenceFile: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-ref-'));
    evidenceFile = path.join(dir, 'evidence.json');
    pinned = await run(['check', 'github:acme/widget@release/3.x', '--json', '--save-evidence', evidenceFile]);
    report = jsonReport(pinned);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves the ref once, with the sha media type, and reads the tree and its history at that commit, never at the default branch', () => {
    const resolving = pinned.requests.filter((r) => r.path.startsWith(`${WIDGET}/commits/`));
    expect(resolving.map((r) => [r.path, r.headers.accept])).toEqual([[`${WIDGET}/commits/release%2f3.x`, 'application/vnd.github.sha']]);
    // The recursive listing is the commit's; the repository lookup's own `.github` listing (by its tree sha) is not a file read.
    const recursive = pinned.requests.filter((r) => r.path.startsWith(`${WIDGET}/git/trees/`) && !r.path.includes(GH_SHA)).map((r) => r.path);
    expect(recursive).toEqual([`${WIDGET}/git/trees/${PINNED}?recursive=1`]);
    expect(pinned.requests.filter((r) => r.path.startsWith(`${WIDGET}/git/trees/main`))).toEqual([]);
    const history = pinned.requests.filter((r) => r.path.startsWith(`${WIDGET}/commits?`) && r.path.includes('per_page=2')).map((r) => new URL(r.path, 'http://x').searchParams.get('sha'));
    expect(history).toEqual([PINNED, PINNED]);
  });

  it('reads every file at the commit: REST contents with ref=<sha>, the workflows from raw hosting at <sha>', () => {
    const contents = pinned.requests.filter((r) => r.path.startsWith(`${WIDGET}/contents/`));
    expect(contents.map((r) => r.path.split('?')[0]).sort()).toEqual([`${WIDGET}/contents/LICENSE`, `${WIDGET}/contents/README.md`, `${WIDGET}/contents/package.json`]);
    for (const r of contents) expect(new URL(r.path, 'http://x').searchParams.get('ref'), r.path).toBe(PINNED);
    const raw = pinned.requests.filter((r) => r.path.startsWith('/github-raw/')).map((r) => r.path).sort();
    expect(raw).toEqual(WORKFLOWS.map((f) => `/github-raw/acme/widget/${PINNED}/${f}`));
  });

  it('reports the ref as the version and the commit it named; the files read are the commit\'s (no security policy there)', () => {
    expect(report.target).toEqual({
      input: 'github:acme/widget@release/3.x',
      ecosystem: 'github',
      name: 'acme/widget',
      version: 'release/3.x',
      purl: 'pkg:github/acme/widget@release%2F3.x',
      repository: 'https://github.com/acme/widget',
      commit: PINNED,
    });
    expect(report.error).toBeNull();
    // The default branch has .github/SECURITY.md (security-policy 100 there); the pinned tree does not.
    expect(checkOf(report, 'security-policy').score).toBe(0);
    // Its history counted from the pinned commit: 9 commits, the oldest the repository's first.
    expect(checkOf(report, 'project-maturity').evidence).toMatchObject({ firstCommitAt: '2024-12-03T12:00:00.000Z', commits: 9 });
    const evidence = JSON.parse(readFileSync(evidenceFile, 'utf8')) as { target: { commit?: string }; sources: { github: { facts: { files: { branch: string; commit?: string } } } } };
    expect(evidence.target.commit).toBe(PINNED);
    expect(evidence.sources.github.facts.files).toMatchObject({ branch: 'release/3.x', commit: PINNED });
  });

  it('the terminal header names the ref and its commit', async () => {
    const table = await run(['check', 'github:acme/widget@release/3.x', '--no-color']);
    expect(table.stderr).toBe('');
    expect(table.stdout.split('\n')[0]).toMatch(/^acme\/widget@release\/3\.x \(commit c3c3c3c\) {2}/);
  });

  it('saved evidence re-scores to the same report; evidence saved before the commit was recorded still loads', async () => {
    const again = jsonReport(await runCli(['score', evidenceFile, '--json'], { env: { NERQ_NOW: GITHUB_NOW } }));
    expect({ target: again.target, score: again.score, verdict: again.verdict }).toEqual({ target: report.target, score: report.score, verdict: report.verdict });
    const old = JSON.parse(readFileSync(evidenceFile, 'utf8')) as { target: Record<string, unknown>; sources: { github: { facts: { files: Record<string, unknown> } } } };
    delete old.target.commit;
    delete old.sources.github.facts.files.commit;
    const oldFile = path.join(dir, 'before.json');
    writeFileSync(oldFile, JSON.stringify(old));
    const before = jsonReport(await runCli(['score', oldFile, '--json'], { env: { NERQ_NOW: GITHUB_NOW } }));
    expect(before.target).not.toHaveProperty('commit');
    expect({ score: before.score, verdict: before.verdict }).toEqual({ score: report.score, verdict: report.verdict });
  });
});

describe('github:acme/widget@release/3.x with a token (GraphQL)', () => {
  it('asks for every file, workflows too, as <commit>:<path>, never HEAD or the branch', async () => {
    const json = await run(['check', 'github:acme/widget@release/3.x', '--json'], { GITHUB_TOKEN: TOKEN });
    const report = jsonReport(json);
    expect(report.target).toMatchObject({ version: 'release/3.x', commit: PINNED });
    const expressions = json.requests
      .filter((r) => r.method === 'POST' && r.body.includes('NerqFiles'))
      .flatMap((r) => Object.entries((JSON.parse(r.body) as { variables: Record<string, string> }).variables).filter(([key]) => /^p\d+$/.test(key)).map(([, value]) => value));
    expect(expressions.length).toBeGreaterThan(0);
    for (const expression of expressions) expect(expression.startsWith(`${PINNED}:`), expression).toBe(true);
    expect(expressions.map((e) => e.slice(PINNED.length + 1)).sort()).toEqual(['LICENSE', 'README.md', 'package.json', ...WORKFLOWS].sort());
    expect(json.requests.filter((r) => r.path.includes('recursive=') && !r.path.includes(GH_SHA)).map((r) => r.path)).toEqual([`${WIDGET}/git/trees/${PINNED}?recursive=1`]);
    expect(checkOf(report, 'security-policy').score).toBe(0);
  });
});

describe('a ref the repository does not have', () => {
  it('is a target not found (exit 3, one line), with no tree or file read at the default branch in its place', async () => {
    const json = await run(['check', 'github:acme/widget@no-such-ref', '--json']);
    expect(json.code).toBe(3);
    const report = jsonReport(json);
    expect(report.error).toEqual({ code: 'not-found', message: 'acme/widget has no ref "no-such-ref" on GitHub' });
    expect(report.verdict).toBe('UNKNOWN');
    expect(json.requests.filter((r) => (r.path.includes('/git/trees/') && !r.path.includes(GH_SHA)) || r.path.includes('/contents/') || r.path.startsWith('/github-raw/'))).toEqual([]);

    const table = await run(['check', 'github:acme/widget@no-such-ref', '--no-color']);
    expect(table).toMatchObject({ code: 3, stderr: '', stdout: 'acme/widget@no-such-ref  NOT EVALUATED\nerror not-found: acme/widget has no ref "no-such-ref" on GitHub\n' });
  });
});

describe('a ref GitHub does not resolve (HTTP 403)', () => {
  it('leaves what the files at the ref would show unknown — the policy, community files and CI too — never the default branch\'s', async () => {
    const json = await run(['check', 'github:acme/widget@refused-ref', '--json']);
    const report = jsonReport(json);
    expect(report.target.version).toBe('refused-ref');
    expect(report.target).not.toHaveProperty('commit');
    for (const id of ['security-policy', 'ci-present', 'dependency-update-tool', 'community-files', 'readme', 'license-file']) {
      expect(checkOf(report, id).status, id).toBe('unknown');
    }
    expect(json.requests.filter((r) => (r.path.includes('/git/trees/') && !r.path.includes(GH_SHA)) || r.path.includes('/contents/') || r.path.startsWith('/github-raw/'))).toEqual([]);
  });
});

describe('without a ref', () => {
  it('reads the default branch as before: no ref resolved, no commit in the report', async () => {
    const json = await run(['check', 'github:acme/widget', '--json']);
    const report = jsonReport(json);
    expect(report.target).not.toHaveProperty('commit');
    expect(json.requests.filter((r) => r.path.startsWith(`${WIDGET}/commits/`))).toEqual([]);
    expect(json.requests.filter((r) => r.path.includes('/git/trees/') && !r.path.includes(GH_SHA)).map((r) => r.path)).toEqual([`${WIDGET}/git/trees/main?recursive=1`]);
    expect(checkOf(report, 'security-policy').score).toBe(100);
  });
});
