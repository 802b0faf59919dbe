/**
 * `--include-package` on `github:owner/repo` targets (docs/scoring.md §9), in process against the
 * fixture server replaying recorded public repositories (test/repository/recorded-repos.ts): the
 * verified package's registry sources are folded in and its package checks scored; no verified
 * package leaves a coded note and the package checks out; naming a package that does not verify
 * is a usage error; saved evidence re-scores to the same report.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { createRuntime } from '../../src/app/runtime.js';
import { evidenceFromJson, rescoreEvidence } from '../../src/app/score.js';
import type { Evidence } from '../../src/evidence/schema.js';
import { renderJson } from '../../src/render/json.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { cliEnv } from '../support/run-cli.js';
import { makeTarball } from '../support/tarball.js';
import { PUBLISHED, recordOf, serveRecordedRepo, servePublished, useRepositoryHarness } from './recorded-repos.js';

const harness = useRepositoryHarness();
const PLAYWRIGHT = 'microsoft/playwright-mcp';
const PACKAGE = '@playwright/mcp';

/** The checks a package's registry, tarball and downloads give, absent from a repository alone. */
const PACKAGE_CHECKS = ['deprecation', 'install-scripts', 'release-anomalies', 'manifest-confusion', 'weekly-downloads', 'release-recency', 'provenance', 'known-vulnerabilities'];

/** `@playwright/mcp` as the registry serves it: one version linking to the repository, its tarball and weekly downloads. */
function servePlaywrightPackage(options: { deprecated?: string } = {}): void {
  const { server } = harness;
  const tarball = makeTarball([
    { path: 'package.json', content: JSON.stringify({ name: PACKAGE, version: '1.0.0', license: 'Apache-2.0', repository: 'github:microsoft/playwright-mcp' }) },
    { path: 'README.md', content: '# Playwright MCP\n\nA Model Context Protocol server for browser automation.\n' },
    { path: 'LICENSE', content: 'Apache License\nVersion 2.0, January 2004\n' },
  ]);
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  const repository = { type: 'git', url: 'git+https://github.com/microsoft/playwright-mcp.git' };
  const manifest = {
    name: PACKAGE,
    version: '1.0.0',
    license: 'Apache-2.0',
    repository,
    ...(options.deprecated === undefined ? {} : { deprecated: options.deprecated }),
    dist: { tarball: `{{REGISTRY}}/${PACKAGE}/-/mcp-1.0.0.tgz`, integrity },
  };
  server.expect('GET', `/npm/${PACKAGE.replace('/', '%2f')}`, {
    body: {
      _id: PACKAGE,
      name: PACKAGE,
      'dist-tags': { latest: '1.0.0' },
      versions: { '1.0.0': manifest },
      time: { created: '2025-03-22T00:00:00.000Z', modified: '2025-03-22T00:00:00.000Z', '1.0.0': '2025-03-22T00:00:00.000Z' },
      repository,
      license: 'Apache-2.0',
    },
  });
  server.expect('GET', `/npm/${PACKAGE}/-/mcp-1.0.0.tgz`, { body: tarball, headers: { 'content-type': 'application/octet-stream' } });
  server.expect('GET', `/npm-api/downloads/point/last-week/${PACKAGE}`, { body: { downloads: 250_000, start: '2026-07-31', end: '2026-08-06', package: PACKAGE } });
  server.expect('GET', `/npm-api/downloads/point/last-year/${PACKAGE}`, { body: { downloads: 9_000_000, start: '2025-08-07', end: '2026-08-06', package: PACKAGE } });
  servePublished(server, {});
}

async function check(
  fullName: string,
  includePackage: { name: string | null } | undefined,
  osv: readonly Record<string, unknown>[] = [],
): Promise<{ report: Report; evidence: Evidence }> {
  const { server, home } = harness;
  serveRecordedRepo(server, fullName, { license: 'Apache-2.0', stars: 20_000, topics: ['mcp'], osv });
  const at = new Date(new Date(recordOf(fullName).recordedCommit.committerDate).getTime() + 86_400_000);
  const runtime = createRuntime({ env: cliEnv(home, { server, env: { NERQ_NOW: at.toISOString() } }), cwd: home, clock: () => at });
  harness.runtimes.push(runtime);
  const [outcome] = await checkTargets(runtime, {
    targets: [parseTarget(`github:${fullName}`)],
    gate: DEFAULT_GATE,
    ...(includePackage === undefined ? {} : { includePackage }),
  });
  if (outcome?.evidence === undefined || outcome.evidence === null) throw new Error(`no evidence: ${JSON.stringify(outcome?.report.error)}`);
  return { report: outcome.report, evidence: outcome.evidence };
}

const checkOf = (report: Report, id: string) => report.checks.find((c) => c.id === id);

describe('--include-package with a verified package (microsoft/playwright-mcp, @playwright/mcp)', () => {
  it('folds in the package checks, scored, and says which package and why', async () => {
    servePlaywrightPackage();
    const { report, evidence } = await check(PLAYWRIGHT, { name: null });
    expect(ReportSchema.safeParse(JSON.parse(renderJson(report, { pretty: false }))).success).toBe(true);
    expect(report.includedPackage).toEqual({
      included: true,
      code: 'root-manifest',
      ecosystem: 'npm',
      name: PACKAGE,
      version: '1.0.0',
      reason: expect.stringContaining('microsoft/playwright-mcp') as unknown as string,
    });
    for (const id of PACKAGE_CHECKS) expect(checkOf(report, id)?.status, `${id} ${JSON.stringify(checkOf(report, id))}`).not.toBe('unknown');
    expect(checkOf(report, 'deprecation')).toMatchObject({ messageId: 'not-deprecated', score: 100 });
    expect(checkOf(report, 'weekly-downloads')?.score).toBeGreaterThan(0);
    expect(checkOf(report, 'known-vulnerabilities')).toMatchObject({ messageId: 'none', score: 100 });
    // The repository's own checks stay: its documents are its files, not the tarball's copy, and
    // its category is read from the repository (the package's bare registry entry would say library).
    expect(report.category?.id).toBe('mcp-server');
    expect(checkOf(report, 'readme')?.evidence.source).toBe('repository');
    expect(checkOf(report, 'advertised-packages')).toBeDefined();
    // The package's repository is the target: not looked up again.
    expect(evidence.sources.github.status).toBe('ok');
    expect(evidence.sources.registry.status).toBe('ok');
    expect(evidence.sources.tarball.status).toBe('ok');
  });

  it('without the flag none of the package checks is there (the repository alone)', async () => {
    servePlaywrightPackage();
    const { report } = await check(PLAYWRIGHT, undefined);
    expect(report.includedPackage).toBeUndefined();
    for (const id of ['deprecation', 'install-scripts', 'weekly-downloads', 'manifest-confusion']) expect(checkOf(report, id), id).toBeUndefined();
  });

  it('a deprecated folded package caps and holds the repository verdict as it would the package', async () => {
    servePlaywrightPackage({ deprecated: 'use @playwright/mcp-next instead' });
    const { report } = await check(PLAYWRIGHT, { name: `npm:${PACKAGE}` });
    expect(report.includedPackage).toMatchObject({ included: true, code: 'named', name: PACKAGE });
    expect(checkOf(report, 'deprecation')).toMatchObject({ messageId: 'deprecated', score: 0 });
    expect(report.verdictCode).not.toBe('yes');
    expect(report.score).toBeLessThan(50);
  });

  it('a malicious folded package is NO — DO NOT USE, as the package would be', async () => {
    servePlaywrightPackage();
    const mal = {
      schema_version: '1.7.3',
      id: 'MAL-2026-0100',
      modified: '2026-04-01T00:00:00Z',
      published: '2026-04-01T00:00:00Z',
      summary: `Malicious code in ${PACKAGE} (npm)`,
      details: 'Synthesised for a test.',
      affected: [{ package: { ecosystem: 'npm', name: PACKAGE }, versions: ['1.0.0'] }],
    };
    const { report } = await check(PLAYWRIGHT, { name: null }, [mal]);
    expect(checkOf(report, 'malicious-package')).toMatchObject({ score: 0 });
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.advisories.map((a) => a.id)).toContain('MAL-2026-0100');
  });

  it('saved evidence re-scores to the same report', async () => {
    servePlaywrightPackage();
    const { report, evidence } = await check(PLAYWRIGHT, { name: PACKAGE });
    const [again] = rescoreEvidence(evidenceFromJson(JSON.parse(JSON.stringify(evidence))), { gate: DEFAULT_GATE });
    expect(renderJson(again!, { pretty: true })).toBe(renderJson({ ...report, previous: null }, { pretty: true }));
    expect(again?.includedPackage?.name).toBe(PACKAGE);
  });
});

describe('--include-package with a verified PyPI project (blazickjp/arxiv-mcp-server)', () => {
  it('folds in the PyPI checks through the PyPI collector', async () => {
    const ARXIV = 'blazickjp/arxiv-mcp-server';
    servePublished(harness.server, PUBLISHED[ARXIV] ?? {});
    for (const file of ['setup.cfg', 'setup.py']) harness.server.expect('GET', `/github/repos/${ARXIV}/contents/${file}`, { status: 404 });
    harness.server.expect('GET', '/pypistats/packages/arxiv-mcp-server/recent', { body: { data: { last_day: 900, last_week: 6_300, last_month: 27_000 }, package: 'arxiv-mcp-server', type: 'recent_downloads' } });
    const { report, evidence } = await check(ARXIV, { name: 'pypi:Arxiv_MCP_Server' });
    expect(report.includedPackage).toMatchObject({ included: true, code: 'named', ecosystem: 'pypi', name: 'arxiv-mcp-server' });
    expect(evidence.sources.pypi.status).toBe('ok');
    expect(evidence.sources.registry.status).toBe('not-applicable');
    for (const id of ['known-vulnerabilities', 'yanked-release', 'weekly-downloads', 'release-recency']) expect(checkOf(report, id)?.status, id).toMatch(/^(pass|warn|fail)$/);
    expect(ReportSchema.safeParse(JSON.parse(renderJson(report, { pretty: false }))).success).toBe(true);
  });
});

describe('--include-package without a verified package', () => {
  it('is a no-op with the code no-verified-package (wong2/awesome-mcp-servers publishes none)', async () => {
    const { report, evidence } = await check('wong2/awesome-mcp-servers', { name: null });
    expect(report.includedPackage).toMatchObject({ included: false, code: 'no-verified-package', ecosystem: null, name: null, version: null });
    for (const id of ['deprecation', 'install-scripts', 'weekly-downloads']) expect(checkOf(report, id), id).toBeUndefined();
    expect(checkOf(report, 'known-vulnerabilities')).toBeUndefined();
    for (const id of ['registry', 'tarball', 'downloads', 'attestations'] as const) expect(evidence.sources[id].status, id).toBe('not-applicable');
    expect(ReportSchema.safeParse(JSON.parse(renderJson(report, { pretty: false }))).success).toBe(true);
  });

  it('naming a package that does not link here is a usage error (bad-option), never a borrowed score', async () => {
    const CODE_RUNNER = 'formulahendry/mcp-server-code-runner';
    servePublished(harness.server, PUBLISHED[CODE_RUNNER] ?? {});
    serveRecordedRepo(harness.server, CODE_RUNNER, { license: 'MIT' });
    const at = new Date(new Date(recordOf(CODE_RUNNER).recordedCommit.committerDate).getTime() + 86_400_000);
    const runtime = createRuntime({ env: cliEnv(harness.home, { server: harness.server }), cwd: harness.home, clock: () => at });
    harness.runtimes.push(runtime);
    const [outcome] = await checkTargets(runtime, { targets: [parseTarget(`github:${CODE_RUNNER}`)], gate: DEFAULT_GATE, includePackage: { name: '@smithery/cli' } });
    expect(outcome?.report.error?.code).toBe('bad-option');
    expect(outcome?.report.error?.message).toContain('npm:mcp-server-code-runner');
    expect(outcome?.evidence).toBeNull();
  });
});
