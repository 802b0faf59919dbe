/**
 * An MCP Registry entry that names no source repository (docs/scoring.md §1): its repository
 * checks are unknown, never left out, so it fares no better than an entry whose repository GitHub
 * could not serve. The registry's own example `io.snyk/cli-mcp` (fixtures/mcp-registry/
 * server-json-examples/14-…, no `repository`), its npm package healthy (a synthetic packument whose
 * `mcpName` names the entry, OSV with no advisory), evaluated in process against the fixture
 * server; beside it the same entry naming a GitHub repository while GitHub is down.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { DEFAULT_NOW } from '../support/run-cli.js';
import { serveOsv, serveSynthetic } from '../cli/audit-helpers.js';
import { envelope, entryPath, example, type ServerJson } from '../cli/mcp-helpers.js';

const NOW = new Date(DEFAULT_NOW);
const SNYK = example('14-embedded-mcp-inside-a-cli-tool.json');
/** The same entry naming a GitHub repository (an edit of the example: its package renamed so its `mcpName` can name this entry). */
const WITH_REPOSITORY: ServerJson = {
  ...SNYK,
  name: 'io.snyk/cli-mcp-with-repository',
  repository: { url: 'https://github.com/snyk/cli', source: 'github' },
  packages: (SNYK.packages as Record<string, unknown>[]).map((p) => ({ ...p, identifier: 'snyk-with-repository' })),
};
/**
 * The same entry writing its repository as a string (edits of the example, packages renamed as
 * above): a URL is read as the repository's URL; a word that is no URL names none.
 */
const REPOSITORY_URL_STRING: ServerJson = {
  ...SNYK,
  name: 'io.snyk/cli-mcp-repository-url-string',
  repository: 'https://github.com/snyk/cli',
  packages: (SNYK.packages as Record<string, unknown>[]).map((p) => ({ ...p, identifier: 'snyk-repository-url-string' })),
};
const REPOSITORY_WORD: ServerJson = {
  ...SNYK,
  name: 'io.snyk/cli-mcp-repository-word',
  repository: 'snyk/cli',
  packages: (SNYK.packages as Record<string, unknown>[]).map((p) => ({ ...p, identifier: 'snyk-repository-word' })),
};
/** The repository checks of an MCP Registry entry: they read the `github` source. */
const REPOSITORY_CHECKS = ['ci-present', 'commit-activity', 'community-files', 'contributors', 'dependency-update-tool', 'issue-responsiveness', 'license-consistency', 'pr-merge-rate', 'release-signing', 'repository-archived', 'security-policy', 'stars-forks'];

let harness: AppHarness;
beforeEach(async () => {
  harness = await startAppHarness('nerq-no-repository-', NOW);
  for (const entry of [SNYK, WITH_REPOSITORY, REPOSITORY_URL_STRING, REPOSITORY_WORD]) harness.server.expect('GET', entryPath(entry.name), { body: envelope(entry) });
  serveSynthetic(harness.server, { name: 'snyk', version: '1.1298.0', repository: null, mcpName: SNYK.name });
  serveSynthetic(harness.server, { name: 'snyk-with-repository', version: '1.1298.0', repository: null, mcpName: WITH_REPOSITORY.name });
  serveSynthetic(harness.server, { name: 'snyk-repository-url-string', version: '1.1298.0', repository: null, mcpName: REPOSITORY_URL_STRING.name });
  serveSynthetic(harness.server, { name: 'snyk-repository-word', version: '1.1298.0', repository: null, mcpName: REPOSITORY_WORD.name });
  serveOsv(harness.server, []);
  for (const prefix of ['npm-api', 'github']) {
    harness.server.fallback('GET', `/${prefix}/`, { status: 503, body: 'down' });
    harness.server.fallback('POST', `/${prefix}/`, { status: 503, body: 'down' });
  }
});
afterEach(() => harness.stop());

async function evaluate(name: string): Promise<{ report: Report; githubRequests: number }> {
  const before = harness.server.requests.length;
  const [outcome] = await checkTargets(harness.runtime(), { targets: [parseTarget(`mcp:${name}`)], gate: DEFAULT_GATE, now: NOW });
  const report = ReportSchema.parse(JSON.parse(JSON.stringify(outcome!.report)));
  return { report, githubRequests: harness.server.requests.slice(before).filter((r) => r.path.startsWith('/github/')).length };
}

describe('an MCP Registry entry naming no source repository', () => {
  it('has its repository checks unknown for that reason, and is provisional at best CAUTION with a reason saying so', async () => {
    const { report, githubRequests } = await evaluate(SNYK.name);
    expect(githubRequests).toBe(0);
    const repositoryChecks = report.checks.filter((c) => REPOSITORY_CHECKS.includes(c.id));
    expect(repositoryChecks.map((c) => c.id).sort()).toEqual([...REPOSITORY_CHECKS].sort());
    for (const c of repositoryChecks) expect([c.id, c.status, c.messageId]).toEqual([c.id, 'unknown', 'no-source-repository']);
    expect(report.coverage).toBeLessThan(DEFAULT_GATE.minCoverage);
    expect(report.provisional).toBe(true);
    expect(report.verdictCode).toBe('caution');
    const provisional = report.verdictReasonDetails.filter((r) => r.code.startsWith('provisional'));
    expect(provisional.map((r) => [r.code, r.args.sourcesUnavailable])).toEqual([['provisional-no-repository', false]]);
    expect(report.gate.reasonDetails.map((r) => r.code)).toContain('low-coverage');
  });

  it('fares no better than the same entry naming a repository GitHub cannot serve', async () => {
    const hidden = (await evaluate(SNYK.name)).report;
    const shown = (await evaluate(WITH_REPOSITORY.name)).report;
    expect(shown.verdictReasonDetails.map((r) => r.code)).toContain('provisional');
    expect([hidden.verdictCode, hidden.provisional, hidden.gate.passed]).toEqual([shown.verdictCode, shown.provisional, shown.gate.passed]);
    expect(hidden.score).toBe(shown.score);
  });
});

describe('an MCP Registry entry writing its repository as a string', () => {
  it('a word that is no URL names no repository: its repository checks unknown (no-source-repository), GitHub not asked, judged as the entry naming none', async () => {
    const { report, githubRequests } = await evaluate(REPOSITORY_WORD.name);
    expect(report.error).toBeNull();
    expect(githubRequests).toBe(0);
    for (const c of report.checks.filter((c) => REPOSITORY_CHECKS.includes(c.id))) expect([c.id, c.status, c.messageId]).toEqual([c.id, 'unknown', 'no-source-repository']);
    const none = (await evaluate(SNYK.name)).report;
    expect([report.verdictCode, report.score, report.provisional]).toEqual([none.verdictCode, none.score, none.provisional]);
  });

  it('a URL is read as the repository\'s URL: GitHub is asked for it, as for the entry writing it as repository.url', async () => {
    const { report, githubRequests } = await evaluate(REPOSITORY_URL_STRING.name);
    expect(report.error).toBeNull();
    expect(githubRequests).toBeGreaterThan(0);
    expect(report.target.repository).toBe('https://github.com/snyk/cli');
    const shown = (await evaluate(WITH_REPOSITORY.name)).report;
    expect([report.verdictCode, report.score]).toEqual([shown.verdictCode, shown.score]);
  });
});
