/**
 * `nerq check mcp:…` reads the owner of an `io.github.<owner>` entry's repository from GitHub's
 * answer for the entry's URL too (mcp-namespace-owner): a repository renamed or transferred is
 * answered by GitHub with a 301 to `/repositories/<id>`, whose answer carries the repository's
 * current name (the shape of test/github/github-rest.test.ts's recorded rename). The entry is the
 * real `io.github.executeautomation/mcp-playwright` of the registry's 2025-09-29 seed
 * (fixtures/mcp-registry) with its repository URL changed by the test; GitHub serves acme/widget's
 * recorded REST answers renamed (test/github/helpers.ts serveRepo); the npm package answers 404.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { checkOf, parseReport, schemaViolations } from './helpers.js';
import { repoBody, serveRepo } from '../github/helpers.js';
import { GITHUB_NOW } from './github-helpers.js';
import { serveEntry, SEED_2025, startMcpFixtureServer } from './mcp-helpers.js';
import { useMcpSandbox } from './mcp-sandbox.js';

const NAME = 'io.github.executeautomation/mcp-playwright';
const ID = 898077246;
const NPM_NOT_FOUND = { status: 404, body: { error: 'Not found' } };

const sandbox = useMcpSandbox(startMcpFixtureServer);

/** The entry with its repository URL naming `urlName`, which GitHub answers (moved) as `currentName`. */
async function checkMoved(urlName: string, currentName: string) {
  const server = await sandbox.start();
  const entry = structuredClone(SEED_2025.find((e) => e.name === NAME));
  if (entry === undefined) throw new Error(`no seed entry ${NAME}`);
  (entry.repository as { url: string }).url = `https://github.com/${urlName}`;
  serveEntry(server, entry);
  server.fallback('GET', '/npm/', NPM_NOT_FOUND);
  const moved = `${server.url('github')}/repositories/${ID}`;
  server.expect('GET', `/github/repos/${urlName}`, { status: 301, headers: { location: moved }, body: { message: 'Moved Permanently', url: moved } });
  server.expect('GET', `/github/repositories/${ID}`, { body: repoBody(currentName, { id: ID }) });
  serveRepo(server, currentName, { skip: ['repo', 'manifest'] });
  const result = await runCli(['check', `mcp:${NAME}`, '--json'], { server, env: { NERQ_NOW: GITHUB_NOW } });
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
  return parseReport(result.stdout);
}

describe('mcp-namespace-owner with GitHub\'s current name', () => {
  it('a repository transferred to the namespace\'s account (the URL naming its former owner) → 100 "moved", no namespace cap', async () => {
    const report = await checkMoved('formerowner/mcp-playwright', 'executeautomation/mcp-playwright');
    expect(checkOf(report, 'mcp-namespace-owner')).toMatchObject({ score: 100, messageId: 'moved' });
    expect(checkOf(report, 'mcp-namespace-owner').evidence).toMatchObject({ url: 'formerowner/mcp-playwright', repository: 'executeautomation/mcp-playwright' });
    expect(report.caps.map((c) => c.id)).not.toContain('mcp-namespace-mismatch');
  });

  it('a URL naming the namespace\'s account whose repository GitHub now has under another → still 100, the message naming where it is', async () => {
    const report = await checkMoved('executeautomation/mcp-playwright', 'playwright-community/mcp-playwright');
    expect(checkOf(report, 'mcp-namespace-owner')).toMatchObject({ score: 100, messageId: 'match-moved-away' });
    expect(checkOf(report, 'mcp-namespace-owner').evidence).toMatchObject({ owner: 'executeautomation', repository: 'playwright-community/mcp-playwright' });
    expect(report.caps.map((c) => c.id)).not.toContain('mcp-namespace-mismatch');
  });

  it('a repository GitHub has under neither (moved from one stranger to another) → 0, capped, naming where it is now', async () => {
    const report = await checkMoved('formerowner/mcp-playwright', 'third-party/mcp-playwright');
    expect(checkOf(report, 'mcp-namespace-owner')).toMatchObject({ score: 0, messageId: 'mismatch' });
    expect(checkOf(report, 'mcp-namespace-owner').evidence).toMatchObject({ owner: 'third-party' });
    expect(report.caps.find((c) => c.id === 'mcp-namespace-mismatch')?.limit).toBe(29.9);
  });
});
