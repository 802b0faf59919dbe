/**
 * An MCP Registry entry's repository is read as a `github:` target's is (docs/scoring.md §8a):
 * real entries (fixtures/mcp-registry/real) whose repositories are recorded
 * (fixtures/github-repos, served as test/repository/recorded-repos.ts serves them).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { runCli } from '../support/run-cli.js';
import { osvRecord, RECORDED_CASES, serveRecordedRepo, useRepositoryHarness, type RecordedCase } from '../repository/recorded-repos.js';
import { githubAnswers, osvNoRecords, parseReport } from './helpers.js';
import { NOT_RECORDED, realEntry, serveEntry, serveRecordedNpm, type ServerJson } from './mcp-helpers.js';

const harness = useRepositoryHarness();

const PLAYWRIGHT = 'io.github.microsoft__playwright-mcp.server.json';
const GITHUB_MCP = 'io.github.github__github-mcp-server.server.json';

/** Serve the entry (and its repository's recording when `repository` is given; GitHub otherwise out of budget), run `nerq check mcp:… --json`. */
async function checkEntry(entry: ServerJson, repository: string | null, options: Partial<RecordedCase> = {}, extra: string[] = []): Promise<{ report: Report; paths: string[] }> {
  const { server } = harness;
  // A real entry whose version is its release workflow's placeholder (`${VERSION}`) is asked for as the latest.
  const pinned = /^\d/.test(entry.version);
  serveEntry(server, entry, {}, pinned ? entry.version : 'latest');
  if (repository !== null) serveRecordedRepo(server, repository, { ...(RECORDED_CASES[repository] as RecordedCase), ...options });
  server.route('POST', '/osv/v1/query', osvNoRecords);
  githubAnswers(server);
  server.fallback('POST', '/osv/', NOT_RECORDED);
  for (const prefix of ['/npm/', '/npm-api/', '/pypi/']) server.fallback('GET', prefix, NOT_RECORDED);
  const result = await runCli(['check', `mcp:${entry.name}${pinned ? `@${entry.version}` : ''}`, '--json', ...extra], { server });
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).toBe('');
  return { report: parseReport(result.stdout), paths: server.requests.map((r) => `${r.method} ${r.path}`) };
}

const checkOf = (report: Report, id: string) => report.checks.find((c) => c.id === id);
const dimensionScore = (report: Report, id: string) => report.dimensions.find((d) => d.id === id)?.score;

describe("an MCP Registry entry's repository, read as a github: target's", () => {
  it('a recorded repository gives the entry its documentation and compliance; its npm package keeps its own dependencies (not counted twice)', async () => {
    const entry = realEntry(PLAYWRIGHT);
    serveRecordedNpm(harness.server, '@playwright/mcp', '0.0.79');
    const { report, paths } = await checkEntry(entry, 'microsoft/playwright-mcp');
    expect(report.error).toBeNull();
    for (const id of ['readme', 'changelog', 'license-file', 'license-consistency']) {
      expect(checkOf(report, id), id).toBeDefined();
      expect(checkOf(report, id)?.status, id).not.toBe('unknown');
    }
    expect(checkOf(report, 'readme')?.evidence).toMatchObject({ source: 'repository' });
    expect(dimensionScore(report, 'documentation')).not.toBeNull();
    expect(dimensionScore(report, 'compliance')).not.toBeNull();
    // The repository's files are read: the tree, then the files that matter.
    expect(paths).toContain('GET /github/repos/microsoft/playwright-mcp/git/trees/main?recursive=1');
    expect(paths).toContain('GET /github/repos/microsoft/playwright-mcp/contents/README.md');
    // An evaluated package carries its dependencies in its nested report: the entry scores none of the repository's.
    expect(checkOf(report, 'vulnerable-dependencies')).toBeUndefined();
    expect(report.mcp?.packages[0]?.report).not.toBeNull();
  });

  // A synthesised OSV answer for one of go.mod's real direct requires, github.com/go-chi/chi/v5 v5.3.1.
  it('an OCI-only entry (no package nerq evaluates) is scored on its repository\'s dependencies: an advisory there is the entry\'s finding', async () => {
    const advisory = osvRecord('GHSA-nerq-gomd-0001', 'github.com/go-chi/chi/v5', '5.0.0', '5.3.2', 'HIGH', 'Go');
    const { report } = await checkEntry(realEntry(GITHUB_MCP), 'github/github-mcp-server', { osv: [advisory] });
    expect(report.error).toBeNull();
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ status: 'warn', messageId: 'repository-vulnerable', evidence: { ids: ['GHSA-nerq-gomd-0001'] } });
    expect(report.advisories).toEqual([expect.objectContaining({ id: 'GHSA-nerq-gomd-0001', package: 'github.com/go-chi/chi/v5', version: '5.3.1', fixed: '5.3.2' })]);
    for (const id of ['security', 'maintenance', 'documentation', 'compliance', 'community']) expect(dimensionScore(report, id), id).not.toBeNull();
    // Still no code of the image inspected: at most CAUTION.
    expect(report.verdictCode).not.toBe('yes');
  });

  it('an OCI-only entry whose repository is clean: the dependency checks pass on the repository\'s real set', async () => {
    const { report } = await checkEntry(realEntry(GITHUB_MCP), 'github/github-mcp-server');
    expect(checkOf(report, 'vulnerable-dependencies')).toMatchObject({ status: 'pass', messageId: 'repository-clean' });
    expect(checkOf(report, 'malicious-package')).toMatchObject({ status: 'pass', messageId: 'clean-repository' });
  });

  it('a repository GitHub does not answer for: documentation, compliance and dependencies stay unknown, never good', async () => {
    const { report, paths } = await checkEntry(realEntry(GITHUB_MCP), null);
    expect(report.error).toBeNull();
    for (const id of ['readme', 'changelog', 'license-file', 'vulnerable-dependencies', 'malicious-package']) {
      expect(checkOf(report, id), id).toMatchObject({ status: 'unknown', score: null });
    }
    expect(dimensionScore(report, 'documentation')).toBeNull();
    expect(dimensionScore(report, 'compliance')).toBeNull();
    expect(paths.filter((p) => p.includes('/git/trees/'))).toEqual([]);
    expect(report.verdictCode).not.toBe('yes');
  });

  it('saved evidence re-scores to the same report; evidence saved before the repository files were read (no `files`) still loads and re-scores as it was judged then: the repository-file checks left out', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-mcp-evidence-'));
    try {
      const file = path.join(dir, 'evidence.json');
      const { report: live } = await checkEntry(realEntry(GITHUB_MCP), 'github/github-mcp-server', {}, ['--save-evidence', file]);
      expect(checkOf(live, 'readme')).toBeDefined();
      // Saved with its repository's files, it re-scores to the same report.
      const same = parseReport((await runCli(['score', file, '--json'])).stdout);
      expect([same.score, same.verdictCode, same.caps, same.checks, same.advisories]).toEqual([live.score, live.verdictCode, live.caps, live.checks, live.advisories]);
      // As the previous version saved it: the repository's facts without its files, no dependency set.
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { evidence?: { sources: Record<string, unknown> }; sources?: Record<string, unknown> };
      const sources = (saved.evidence ?? saved).sources as Record<string, { status: string; reason?: string; facts?: Record<string, unknown> }>;
      const github = sources.github?.facts;
      expect(github?.files).toBeDefined();
      delete github?.files;
      delete github?.distribution;
      const none = { status: 'not-applicable', reason: 'an MCP Registry entry is scored through the packages it names (nested reports)' };
      sources.dependencies = none;
      sources.vulnerabilities = none;
      writeFileSync(file, JSON.stringify(saved));
      const rescored = await runCli(['score', file, '--json']);
      expect(rescored.stderr).toBe('');
      const report = parseReport(rescored.stdout);
      expect(report.target.ecosystem).toBe('mcp');
      for (const id of ['readme', 'changelog', 'license-file', 'project-maturity', 'advertised-packages', 'vulnerable-dependencies']) expect(checkOf(report, id), id).toBeUndefined();
      expect(checkOf(report, 'mcp-oci-images')).toBeDefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
