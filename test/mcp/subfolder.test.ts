/**
 * An MCP Registry entry in a monorepo is judged on its own folder (`repository.subfolder`,
 * docs/scoring.md §8a, §9): the real entry io.github.modelcontextprotocol/server-everything
 * (fixtures/mcp-registry/real) in modelcontextprotocol/servers at `src/everything`, whose
 * repository is recorded (fixtures/github-repos/modelcontextprotocol__servers, served as
 * test/repository/recorded-repos.ts serves the recorded repositories).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { normaliseFolder } from '../../src/target/folder.js';
import { runCli } from '../support/run-cli.js';
import type { FixtureResponse } from '../support/fixture-server.js';
import { osvRecord, recordOf, serveRecordedRepo, useRepositoryHarness } from '../repository/recorded-repos.js';
import { githubAnswers, osvNoRecords, parseReport } from '../cli/helpers.js';
import { NOT_RECORDED, realEntry, serveEntry, type ServerJson } from '../cli/mcp-helpers.js';

const harness = useRepositoryHarness();
const REPO = 'modelcontextprotocol/servers';
const ENTRY = 'io.github.modelcontextprotocol__server-everything.server.json';
const BASE = `/github/repos/${REPO}`;

type Ends = { newest: Array<[string, string, string]>; oldest: Array<[string, string, string]> };

/** The two commit listings that date its history: the recorded newest and oldest commits (record.json `historyEnds`), 4158 in all. */
function historyOverride(): Record<string, FixtureResponse> {
  const record = recordOf(REPO) as ReturnType<typeof recordOf> & { historyEnds: Ends };
  const listed = ([sha, authorDate, committerDate]: [string, string, string]) => ({
    sha,
    commit: { author: { name: 'a', email: 'a@example.com', date: authorDate }, committer: { name: 'a', email: 'a@example.com', date: committerDate } },
    author: null,
    parents: [],
  });
  const last = Math.ceil(record.commitCount / 2);
  const link = (p: number) => `<https://api.github.com/repositories/1/commits?sha=main&per_page=2&page=${p}>`;
  return {
    '/commits?per_page=2&sha=main': { body: record.historyEnds.newest.map(listed), headers: { link: `${link(2)}; rel="next", ${link(last)}; rel="last"` } },
    [`/commits?page=${last}&per_page=2&sha=main`]: { body: record.historyEnds.oldest.map(listed), headers: { link: `${link(last - 1)}; rel="prev", ${link(1)}; rel="first"` } },
  };
}

function entryWith(subfolder: string | undefined): ServerJson {
  const entry = realEntry(ENTRY);
  const repository = { ...(entry.repository as Record<string, unknown>) };
  if (subfolder === undefined) delete repository.subfolder;
  else repository.subfolder = subfolder;
  return { ...entry, repository };
}

/** Serve the entry and its recorded repository; run `nerq check mcp:… --json` (with `extra`). */
async function checkEntry(entry: ServerJson, extra: string[] = [], override: Record<string, FixtureResponse> = {}, osv: Record<string, unknown>[] = []): Promise<{ report: Report; github: string[] }> {
  const { server } = harness;
  serveEntry(server, entry, {}, entry.version);
  serveRecordedRepo(server, REPO, { license: 'NOASSERTION', stars: 80_000, override: { ...historyOverride(), ...override }, osv });
  server.route('POST', '/osv/v1/query', osvNoRecords);
  githubAnswers(server);
  server.fallback('POST', '/osv/', NOT_RECORDED);
  for (const prefix of ['/npm/', '/npm-api/', '/pypi/']) server.fallback('GET', prefix, NOT_RECORDED);
  const result = await runCli(['check', `mcp:${entry.name}@${entry.version}`, '--json', ...extra], { server });
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return { report: parseReport(result.stdout), github: server.requests.filter((r) => r.path.startsWith('/github')).map((r) => `${r.method} ${r.path}`) };
}

const checkOf = (report: Report, id: string) => report.checks.find((c) => c.id === id);
const contents = (github: string[]) => github.filter((p) => p.includes('/contents/')).map((p) => p.slice(p.indexOf('/contents/') + '/contents/'.length)).sort();

describe('an MCP Registry entry in a monorepo: its folder, read from the one tree listing', () => {
  it('the README, manifest and dependency set are src/everything\'s (pinned by the root lockfile); the licence, security policy and workflows the repository\'s', async () => {
    const { report, github } = await checkEntry(realEntry(ENTRY));
    expect(report.error).toBeNull();
    expect(report.target.folder).toBe('src/everything');
    expect([report.score, report.grade, report.verdictCode, report.advisories]).toEqual([69.9, 'C', 'caution', []]);
    expect(checkOf(report, 'readme')).toMatchObject({ evidence: expect.objectContaining({ source: 'repository', path: 'src/everything/README.md' }) });
    expect(checkOf(report, 'readme')?.status).not.toBe('unknown');
    // src/everything has no LICENSE: the root's is read.
    expect(checkOf(report, 'license-file')?.status).not.toBe('unknown');
    // The folder's files and the root's repository-wide ones; never the root README or another server's manifest.
    expect(contents(github)).toEqual(expect.arrayContaining(['LICENSE', 'SECURITY.md', 'package-lock.json', 'src/everything/README.md', 'src/everything/package.json']));
    expect(contents(github)).not.toContain('README.md');
    expect(contents(github).filter((p) => /^src\/(?!everything\/)/.test(p))).toEqual([]);
    // One tree listing of the branch (the `.github/` subtree is the repository facts' own listing, as for any repository).
    expect(github.filter((p) => p.includes('/git/trees/main'))).toEqual([`GET ${BASE}/git/trees/main?recursive=1`]);
  });

  it('the folder\'s README unread (GitHub fails it): unknown with the reason, never missing', async () => {
    const { report } = await checkEntry(realEntry(ENTRY), [], { '/contents/src/everything/README.md': { status: 503 } });
    expect(checkOf(report, 'readme')).toMatchObject({ status: 'unknown', score: null });
  });

  it('a folder the listing does not hold: the folder\'s signals unknown with the reason, no file of the root read in its place', async () => {
    const { report, github } = await checkEntry(entryWith('src/nowhere'));
    expect(report.error).toBeNull();
    expect(report.target.folder).toBe('src/nowhere');
    for (const id of ['readme', 'license-file']) expect(checkOf(report, id), id).toMatchObject({ status: 'unknown', score: null });
    expect(JSON.stringify(report)).toContain('the repository has no folder src/nowhere');
    expect(contents(github)).toEqual([]);
    expect(report.verdictCode).not.toBe('yes');
  });

  it.each(['../../other/repo', '%2e%2e/%2e%2e/other/repo', 'src/../../other', '//evil.example/x', 'src\\everything', 'src/everything?ref=x', `src/\u0000x`, 'a'.repeat(300)])(
    'a hostile subfolder (%j) is refused: no request outside the repository, no file read, the folder\'s signals unknown',
    async (subfolder) => {
      const { report, github } = await checkEntry(entryWith(subfolder));
      expect(report.error).toBeNull();
      expect(github.filter((p) => !p.startsWith(`GET ${BASE}`) && !p.startsWith('POST /github/graphql'))).toEqual([]);
      expect(github.filter((p) => p.includes('/git/trees/main') || p.includes('/contents/'))).toEqual([]);
      expect(checkOf(report, 'readme')).toMatchObject({ status: 'unknown', score: null });
      expect(JSON.stringify(report)).toContain('subfolder is refused');
    },
  );

  it('saved evidence re-scores to the same report, folder included', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-subfolder-'));
    try {
      const file = path.join(dir, 'evidence.json');
      const { report: live } = await checkEntry(realEntry(ENTRY), ['--save-evidence', file]);
      const same = parseReport((await runCli(['score', file, '--json'])).stdout);
      expect([same.target.folder, same.score, same.verdictCode, same.caps, same.checks, same.advisories]).toEqual([live.target.folder, live.score, live.verdictCode, live.caps, live.checks, live.advisories]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an evaluated package's entry: the repository's own advisories listed, not counted", () => {
  // A synthesised OSV answer for jszip 3.10.1, which the root lockfile pins for src/everything.
  it('an advisory in the folder\'s dependency set is in advisories[] marked as the repository\'s; the score and checks are the same as without it', async () => {
    const advisory = osvRecord('GHSA-nerq-subf-0001', 'jszip', '3.0.0', '3.10.2', 'HIGH');
    const { report } = await checkEntry(realEntry(ENTRY), [], {}, [advisory]);
    expect(report.mcp?.packages[0]?.target).not.toBeNull();
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'GHSA-nerq-subf-0001', package: 'jszip', version: '3.10.1', repository: true })]);
    expect(checkOf(report, 'vulnerable-dependencies')).toBeUndefined();
    // Not counted: no check, reason or cap names it (the same entry without it scores 69.9 C, CAUTION: the first test's run).
    expect(JSON.stringify([report.checks, report.verdictReasonDetails, report.caps])).not.toContain('GHSA-nerq-subf-0001');
    expect([report.score, report.grade, report.verdictCode]).toEqual([69.9, 'C', 'caution']);
  });
});

/** Serve the recorded repository alone; run `nerq check <target> --json`. */
async function checkRepository(target: string): Promise<{ report: Report; code: number; stderr: string; github: string[] }> {
  const { server } = harness;
  serveRecordedRepo(server, REPO, { license: 'NOASSERTION', stars: 80_000, override: historyOverride() });
  server.route('POST', '/osv/v1/query', osvNoRecords);
  githubAnswers(server);
  server.fallback('POST', '/osv/', NOT_RECORDED);
  for (const prefix of ['/npm/', '/npm-api/', '/pypi/']) server.fallback('GET', prefix, NOT_RECORDED);
  const result = await runCli(['check', target, '--json'], { server });
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return { report: parseReport(result.stdout), code: result.code, stderr: result.stderr, github: server.requests.filter((r) => r.path.startsWith('/github')).map((r) => `${r.method} ${r.path}`) };
}

describe('a github: target naming a folder of a monorepo (github:owner/repo/folder, a /tree/<ref>/<folder> URL): read as an entry\'s subfolder is', () => {
  it.each([`github:${REPO}/src/everything`, `https://github.com/${REPO}/tree/main/src/everything`])('%s: the folder\'s README and manifest, the root\'s licence and policy; the folder in the report', async (target) => {
    const { report, github } = await checkRepository(target);
    expect(report.error).toBeNull();
    expect([report.target.ecosystem, report.target.name, report.target.folder]).toEqual(['github', REPO, 'src/everything']);
    expect(checkOf(report, 'readme')).toMatchObject({ evidence: expect.objectContaining({ source: 'repository', path: 'src/everything/README.md' }) });
    expect(contents(github)).toEqual(expect.arrayContaining(['LICENSE', 'SECURITY.md', 'src/everything/README.md', 'src/everything/package.json']));
    expect(contents(github)).not.toContain('README.md');
    expect(contents(github).filter((p) => /^src\/(?!everything\/)/.test(p))).toEqual([]);
  });

  it('a folder the repository does not have: not found (incomplete, exit 3), no file read', async () => {
    const { report, github, stderr, code } = await checkRepository(`github:${REPO}/src/nowhere`);
    expect(report.error).toMatchObject({ code: 'not-found' });
    expect(code).toBe(3);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(contents(github)).toEqual([]);
  });
});

describe('normaliseFolder', () => {
  it.each([
    ['src/everything', 'src/everything'],
    ['/src/everything/', 'src/everything'],
    ['./src/./everything', 'src/everything'],
    ['/', undefined],
  ])('%j → %j', (raw, folder) => expect(normaliseFolder(raw)).toEqual({ ok: true, folder }));
  it.each(['..', 'a/../b', 'C:/x', '//x', 'a//b', 'a%2fb', 'a\\b', 'a#b', 'a?b', 'a\tb', 'x'.repeat(257)])('%j is refused', (raw) => expect(normaliseFolder(raw).ok).toBe(false));
});
