/**
 * An audit of 200 npm dependencies through the built CLI against the fixture server,
 * with the request log proving the batching: exactly one OSV querybatch (plus one record
 * request per distinct advisory), every packument fetched once and in full, no resolution of
 * each package's own dependencies, and GitHub asked once per repository — over REST without a
 * token, through GraphQL batches with one.
 *
 * The wall time and the request counts are printed (for the closing note), never asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveRepo, TOKEN } from '../github/helpers.js';
import { useFixtureServers, type FixtureServer } from '../support/fixture-server.js';
import type { CliResult } from '../support/run-cli.js';
import {
  countByKind,
  CVSS_CRITICAL,
  CVSS_MODERATE,
  depName,
  graphqlBatchSizes,
  kindOf,
  osvQueries,
  osvRecord,
  packageLockV3,
  parseAudit,
  repeated,
  runCliWithin,
  serveGraphqlRepositories,
  serveOsv,
  serveSynthetic,
  TempDirs,
  type SyntheticPackage,
  bulkDownloadRequests,
} from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

const COUNT = 200;
const REPOSITORIES = 12;
const repositoryOf = (i: number): string | null => (i < REPOSITORIES ? `acme/audit-repo-${i}` : null);

const PACKAGES: SyntheticPackage[] = Array.from({ length: COUNT }, (_, i) => ({
  name: depName(i),
  version: `1.${i % 7}.${i % 3}`,
  repository: repositoryOf(i),
  // Each package's own dependencies: an audit never resolves them (every one is audited itself).
  dependencies: { 'nerq-audit-unlisted': '^1.0.0', [depName((i + 1) % COUNT)]: '^1.0.0' },
}));

const ADVISORIES = [
  // One record naming two packages: fetched once, applied to both.
  osvRecord('GHSA-test-crit-0001', [depName(10), depName(11)], CVSS_CRITICAL),
  osvRecord('GHSA-test-crit-0002', [depName(150)], CVSS_CRITICAL),
  osvRecord('GHSA-test-mod-0003', [depName(100)], CVSS_MODERATE),
];
const CRITICAL = [depName(10), depName(11), depName(150)];
const DEADLINE_MS = 120_000;

const dirs = new TempDirs();
const startServer = useFixtureServers();

/** A server answering everything the 200-package audit asks; GitHub over REST or GraphQL. */
async function auditServer(github: 'rest' | 'graphql'): Promise<FixtureServer> {
  const server = await startServer();
  for (const pkg of PACKAGES) serveSynthetic(server, pkg);
  serveOsv(server, ADVISORIES);
  const repos = PACKAGES.flatMap((p) => (p.repository ? [[p.repository, p] as const] : []));
  if (github === 'rest') {
    for (const [repo] of repos) serveRepo(server, repo);
  } else {
    const manifest = (p: SyntheticPackage) =>
      `${JSON.stringify({ name: p.name, version: p.version, license: 'MIT', repository: { type: 'git', url: `git+https://github.com/${p.repository}.git` } }, null, 2)}\n`;
    serveGraphqlRepositories(server, Object.fromEntries(repos.map(([repo, p]) => [repo, manifest(p)])));
  }
  return server;
}

beforeAll(() => requireBuiltCli());

/** The project: 40 direct production dependencies, 10 direct dev ones, 150 transitive; resolved from `server`'s registry. */
function project200(server: FixtureServer): string {
  const { lock, manifest } = packageLockV3(
    PACKAGES.map((p, i) => ({ name: p.name, version: p.version, direct: i < 50, dev: i >= 40 && i < 50 })),
    server.url('npm'),
  );
  return dirs.project({ 'package-lock.json': lock, 'package.json': manifest });
}


afterAll(() => dirs.cleanUp());

async function timedAudit(server: FixtureServer, env: Record<string, string> = {}, args: string[] = []): Promise<CliResult & { wallMs: number }> {
  const started = performance.now();
  const result = await runCliWithin(['audit', project200(server), '--json', ...args], { server, env }, DEADLINE_MS);
  return { ...result, wallMs: Math.round(performance.now() - started) };
}

/** What every run must show in its request log, whatever the GitHub path. */
function expectBatchedRequests(server: FixtureServer): void {
  const lines = server.requests.map((r) => `${r.method} ${r.path}`);
  expect(repeated(server.requests), 'no request is sent twice').toEqual([]);

  // ONE querybatch holding every pinned package at its lockfile version; one record per advisory.
  const batches = osvQueries(server.requests);
  expect(batches).toHaveLength(1);
  expect(batches[0]?.map((q) => `${q.package.ecosystem}:${q.package.name}@${q.version}`).sort()).toEqual(
    PACKAGES.map((p) => `npm:${p.name}@${p.version}`).sort(),
  );
  expect(lines.filter((l) => l.startsWith('GET /osv/v1/vulns/')).sort()).toEqual(ADVISORIES.map((a) => `GET /osv/v1/vulns/${a.id as string}`).sort());

  // Every packument once, in full; no abbreviated document (nothing resolved a dependency).
  const packuments = server.requests.filter((r) => kindOf(r) === 'packument-full').map((r) => r.path);
  expect(packuments.sort()).toEqual(PACKAGES.map((p) => `/npm/${p.name}`).sort());
  expect(server.requests.filter((r) => kindOf(r) === 'packument-abbreviated')).toEqual([]);
  expect(lines.filter((l) => l.includes('nerq-audit-unlisted'))).toEqual([]);
  // One tarball per package; the download counts of every unscoped name in bulk queries of at
  // most 128 names (2 per period for 200 names), one request per period for a scoped one; the
  // public registry is never asked.
  expect(server.requests.filter((r) => kindOf(r) === 'tarball')).toHaveLength(COUNT);
  const scoped = PACKAGES.filter((p) => p.name.startsWith('@')).length;
  const unscoped = COUNT - scoped;
  const bulk = bulkDownloadRequests(server.requests);
  expect(bulk).toHaveLength(2 * Math.ceil(unscoped / 128));
  expect(bulk.flatMap((r) => decodeURIComponent(r.path).split('/').at(-1)!.split(',')).sort()).toEqual(
    PACKAGES.filter((p) => !p.name.startsWith('@')).flatMap((p) => [p.name, p.name]).sort(),
  );
  expect(server.requests.filter((r) => kindOf(r) === 'downloads')).toHaveLength(bulk.length + 2 * scoped);
  expect(server.requests.filter((r) => kindOf(r) === 'npm-public' || kindOf(r) === 'other')).toEqual([]);
}

function expectCriticalFailuresFirst(result: CliResult): void {
  expect(result.code, result.stderr).toBe(1);
  const report = parseAudit(result.stdout);
  expect(report.summary).toEqual({ total: COUNT, passed: COUNT - CRITICAL.length, failed: CRITICAL.length, ignored: 0, errors: 0, incomplete: 0 });
  // Worst first: the three packages a critical advisory affects, capped at 49.9 and failing.
  const failing = report.entries.slice(0, CRITICAL.length);
  expect(failing.map((e) => e.subject.name).sort()).toEqual([...CRITICAL].sort());
  for (const entry of failing) {
    expect(entry.policy.status).toBe('fail');
    expect(entry.report.score).toBeLessThanOrEqual(49.9);
    expect(entry.report.caps.map((c) => c.id)).toContain('vulnerable-version');
    expect(entry.policy.failures.map((f) => f.rule)).toContain('capped');
    expect(entry.report.advisories.map((a) => a.severity)).toContain('critical');
  }
  // The moderate advisory lowers its package's check but caps nothing.
  const moderate = report.entries.find((e) => e.subject.name === depName(100));
  expect(moderate?.policy.status).toBe('pass');
  expect(moderate?.report.advisories.map((a) => a.id)).toEqual(['GHSA-test-mod-0003']);
  expect(moderate?.report.caps).toEqual([]);
  // Every other package passes; the passing ones follow, lowest score first.
  const rest = report.entries.slice(CRITICAL.length);
  expect(rest.every((e) => e.policy.status === 'pass')).toBe(true);
  const scores = rest.map((e) => e.report.score ?? -1);
  expect(scores).toEqual([...scores].sort((a, b) => a - b));
  // Each package was evaluated on its own: no report has a dependencies source (not applicable in an audit).
  expect(report.entries.filter((e) => e.report.sources.some((s) => s.id === 'dependencies'))).toEqual([]);
}

describe('nerq audit of 200 npm dependencies', () => {
  it('without a token: one OSV batch, each packument once, GitHub over REST once per repository', async () => {
    const server = await auditServer('rest');
    const result = await timedAudit(server);
    expectCriticalFailuresFirst(result);
    expectBatchedRequests(server);

    // GitHub: every repository asked the same set of REST paths, each once; nothing else.
    const github = server.requests.filter((r) => kindOf(r) === 'github-rest').map((r) => r.path.split('?')[0] ?? '');
    const perRepo = Array.from({ length: REPOSITORIES }, (_, i) => github.filter((p) => p.startsWith(`/github/repos/acme/audit-repo-${i}/`) || p === `/github/repos/acme/audit-repo-${i}`));
    const shape = (paths: string[], i: number) => paths.map((p) => p.replace(`audit-repo-${i}`, 'R')).sort();
    expect(perRepo[0]?.length).toBeGreaterThan(0);
    for (const [i, paths] of perRepo.entries()) expect(shape(paths, i)).toEqual(shape(perRepo[0] ?? [], 0));
    expect(github).toHaveLength(REPOSITORIES * (perRepo[0]?.length ?? 0));
    expect(server.requests.filter((r) => kindOf(r) === 'github-graphql')).toEqual([]);
    expect(server.requests.filter((r) => r.headers.authorization !== undefined)).toEqual([]);

    console.log(`audit of ${COUNT} (no token): ${result.wallMs} ms, ${server.requests.length} requests ${JSON.stringify(countByKind(server.requests))}`);
  }, DEADLINE_MS + 10_000);

  it('with GITHUB_TOKEN and 2 evaluations in flight: a lookup waiting for its batch frees its slot, so batches grow past 2', async () => {
    const server = await auditServer('graphql');
    const result = await timedAudit(server, { GITHUB_TOKEN: TOKEN }, ['--concurrency', '2']);
    expectCriticalFailuresFirst(result);
    const sizes = graphqlBatchSizes(server);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(REPOSITORIES);
    // Were a waiting evaluation to keep its slot, at most 2 lookups could ever pend at once.
    expect(Math.max(...sizes)).toBeGreaterThan(2);
  }, DEADLINE_MS + 10_000);

  it('with GITHUB_TOKEN: GraphQL batches cover every repository once, the token goes to GitHub only', async () => {
    const server = await auditServer('graphql');
    const result = await timedAudit(server, { GITHUB_TOKEN: TOKEN });
    expectCriticalFailuresFirst(result);
    expectBatchedRequests(server);

    // Several repositories per query (at most 40): every repository asked exactly once in all.
    const sizes = graphqlBatchSizes(server);
    expect(sizes.length).toBeGreaterThanOrEqual(Math.ceil(REPOSITORIES / 40));
    expect(sizes.length).toBeLessThanOrEqual(REPOSITORIES);
    expect(sizes.every((n) => n >= 1 && n <= 40)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(REPOSITORIES);
    // GraphQL answers everything (community files and contributors included): no REST call.
    expect(server.requests.filter((r) => kindOf(r) === 'github-rest').map((r) => r.path)).toEqual([]);
    // The token reached GitHub's API on every request there, and nothing else.
    for (const request of server.requests) {
      const github = request.path.startsWith('/github/');
      expect(request.headers.authorization, `${request.method} ${request.path}`).toBe(github ? `Bearer ${TOKEN}` : undefined);
    }
    // The repositories' facts came through: the link to each package is verified by its manifest.
    const report = parseAudit(result.stdout);
    const withRepo = report.entries.filter((e) => PACKAGES.findIndex((p) => p.name === e.subject.name) < REPOSITORIES);
    expect(withRepo).toHaveLength(REPOSITORIES);
    for (const entry of withRepo) expect(entry.report.sources.find((s) => s.id === 'github')?.status).toBe('ok');

    console.log(
      `audit of ${COUNT} (token): ${result.wallMs} ms, ${server.requests.length} requests ${JSON.stringify(countByKind(server.requests))}, GraphQL batch sizes ${JSON.stringify(sizes)}`,
    );
  }, DEADLINE_MS + 10_000);
});
