/**
 * `nerq check mcp:…` reads the repository id an MCP Registry entry records (`repository.id`) and
 * compares it with the id GitHub gives the repository at the entry's URL. The entry is the real
 * `io.github.executeautomation/mcp-playwright` of the registry's 2025-09-29 seed
 * (fixtures/mcp-registry), whose `repository.id` is 898077246. GitHub is not recorded for this
 * repository: it is served acme/widget's recorded REST answers renamed to it (test/github/helpers.ts
 * serveRepo) with the repository id set by this test; the npm package answers 404.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { checkOf, parseReport, schemaViolations } from './helpers.js';
import { repoBody, serveRepo } from '../github/helpers.js';
import { GITHUB_NOW } from './github-helpers.js';
import { seedEntry, serveEntry, SEED_2025, startMcpFixtureServer } from './mcp-helpers.js';
import { useMcpSandbox } from './mcp-sandbox.js';

const NAME = 'io.github.executeautomation/mcp-playwright';
const REPOSITORY = 'executeautomation/mcp-playwright';
const RECORDED_ID = '898077246';
/** The entry's npm package is not recorded: the registry answers it does not have it. */
const NPM_NOT_FOUND = { status: 404, body: { error: 'Not found' } };

const sandbox = useMcpSandbox(startMcpFixtureServer);

async function checkWithGithubId(id: number) {
  const server = await sandbox.start();
  const entry = SEED_2025.find((e) => e.name === NAME);
  if (entry === undefined) throw new Error(`no seed entry ${NAME}`);
  expect((entry.repository as { id?: string }).id).toBe(RECORDED_ID);
  serveEntry(server, structuredClone(entry));
  server.fallback('GET', '/npm/', NPM_NOT_FOUND);
  serveRepo(server, REPOSITORY, { skip: ['manifest'], override: { repo: { body: repoBody(REPOSITORY, { id }) } } });
  const result = await runCli(['check', `mcp:${NAME}`, '--json'], { server, env: { NERQ_NOW: GITHUB_NOW } });
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
  return parseReport(result.stdout);
}

describe('mcp-repository-id on a real entry', () => {
  it('GitHub gives the id the entry records → 100, no cap', async () => {
    const report = await checkWithGithubId(Number(RECORDED_ID));
    expect(checkOf(report, 'mcp-repository-id')).toMatchObject({ score: 100, messageId: 'match' });
    expect(checkOf(report, 'mcp-repository-id').evidence).toMatchObject({ id: RECORDED_ID });
    expect(report.caps.map((c) => c.id)).not.toContain('mcp-repository-replaced');
  });

  it('another repository at the same URL (deleted and created again) → 0 and capped at 29.9, naming both ids', async () => {
    const report = await checkWithGithubId(1017);
    expect(checkOf(report, 'mcp-repository-id')).toMatchObject({ score: 0, messageId: 'mismatch' });
    expect(checkOf(report, 'mcp-repository-id').evidence).toMatchObject({ actual: '1017', recorded: RECORDED_ID });
    expect(report.caps.find((c) => c.id === 'mcp-repository-replaced')?.limit).toBe(29.9);
    expect(report.verdictCode).toBe('no');
  });

  it('GitHub rate-limited: unknown for an entry that records an id; left out for the newest seed\'s entry, which records none', async () => {
    const server = await sandbox.start();
    const entry = SEED_2025.find((e) => e.name === NAME);
    const newest = seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3');
    if (entry === undefined) throw new Error(`no seed entry ${NAME}`);
    expect((newest.repository as { id?: string }).id).toBeUndefined();
    serveEntry(server, structuredClone(entry));
    serveEntry(server, newest);
    server.fallback('GET', '/npm/', NPM_NOT_FOUND);
    const recorded = parseReport((await runCli(['check', `mcp:${NAME}`, '--json'], { server })).stdout);
    expect(checkOf(recorded, 'mcp-repository-id')).toMatchObject({ score: null, messageId: 'unknown' });
    const none = parseReport((await runCli(['check', `mcp:${newest.name}`, '--json'], { server })).stdout);
    expect(none.checks.map((c) => c.id)).not.toContain('mcp-repository-id');
  });
});
