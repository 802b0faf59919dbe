/**
 * Shared set-up for the CLI integration tests: the fixture packages, the routes each one
 * requests (packument, tarball, download counts, its dependencies' packuments, OSV) and
 * small assertions over CLI output.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { expect } from 'vitest';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import type { FixtureResponse, FixtureServer, RouteHandler } from '../support/fixture-server.js';
import { REPO_ROOT, type CliResult } from '../support/run-cli.js';
import { validate } from '../schema/structural-validator.js';

/** The built CLI the tests run; `npm test` builds it before vitest. */
export const DIST_CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

/** Fail the suite with a clear message when dist/ was not built. */
export function requireBuiltCli(): void {
  if (!existsSync(DIST_CLI)) {
    throw new Error('dist/cli.js does not exist: run `npm run build` (npm test builds it) before the CLI tests');
  }
}

export interface FixturePackage {
  name: string;
  /** The `latest` version the packument resolves to. */
  version: string;
  /** Tarball file name under `fixtures/http/npm/<name>/-/`. */
  tarball: string;
  /** Whether fixtures/http/npm-api holds download counts for it. */
  downloads: boolean;
}

/** The 11 fixture packages under fixtures/http/npm. */
export const PACKAGES: readonly FixturePackage[] = [
  { name: 'chalk', version: '4.1.0', tarball: 'chalk-4.1.0.tgz', downloads: true },
  { name: 'express', version: '4.17.1', tarball: 'express-4.17.1.tgz', downloads: true },
  { name: 'debug', version: '4.2.0', tarball: 'debug-4.2.0.tgz', downloads: false },
  { name: 'request', version: '2.88.2', tarball: 'request-2.88.2.tgz', downloads: true },
  { name: 'crossenv', version: '0.0.2-security', tarball: 'crossenv-0.0.2-security.tgz', downloads: false },
  { name: 'esbuild', version: '0.28.2', tarball: 'esbuild-0.28.2.tgz', downloads: false },
  { name: 'bufferutil', version: '4.1.0', tarball: 'bufferutil-4.1.0.tgz', downloads: false },
  { name: '@types/semver', version: '7.8.0', tarball: 'semver-7.8.0.tgz', downloads: true },
  { name: 'jsonify', version: '0.0.1', tarball: 'jsonify-0.0.1.tgz', downloads: false },
  { name: 'json-schema', version: '0.4.0', tarball: 'json-schema-0.4.0.tgz', downloads: false },
  { name: 'nerq-fixture-bare', version: '1.0.0', tarball: 'nerq-fixture-bare-1.0.0.tgz', downloads: false },
];

/** Synthetic release-anomaly fixtures: one anomaly each in 1.4.0 against 1.3.0. */
export const ANOMALY_PACKAGES: readonly FixturePackage[] = ['provenance-dropped', 'new-publisher', 'postinstall'].map((kind) => ({
  name: `nerq-fixture-${kind}`,
  version: '1.4.0',
  tarball: `nerq-fixture-${kind}-1.4.0.tgz`,
  downloads: false,
}));

/** Synthetic verdict fixtures: a compromise-shaped release, a README-deprecated, a stale and a finished package. */
export const VERDICT_PACKAGES: readonly FixturePackage[] = [
  { name: 'nerq-fixture-compromise', version: '1.4.0', tarball: 'nerq-fixture-compromise-1.4.0.tgz', downloads: false },
  { name: 'nerq-fixture-readme-deprecated', version: '1.4.0', tarball: 'nerq-fixture-readme-deprecated-1.4.0.tgz', downloads: false },
  { name: 'nerq-fixture-stale', version: '0.9.0', tarball: 'nerq-fixture-stale-0.9.0.tgz', downloads: false },
  { name: 'nerq-fixture-finished', version: '1.4.0', tarball: 'nerq-fixture-finished-1.4.0.tgz', downloads: false },
];

export function fixturePackage(name: string): FixturePackage {
  const anomaly = [...ANOMALY_PACKAGES, ...VERDICT_PACKAGES].find((p) => p.name === name);
  if (anomaly) return anomaly;
  const found = PACKAGES.find((p) => p.name === name);
  if (found === undefined) throw new Error(`no fixture package ${name}`);
  return found;
}

/** `/npm/<escapedName>` (scoped: `/npm/@types%2fsemver`). */
export function packumentPath(name: string): string {
  return `/npm/${name.replace('/', '%2f')}`;
}

export function tarballPath(pkg: FixturePackage): string {
  return `/npm/${pkg.name}/-/${pkg.tarball}`;
}

export function downloadsPath(period: 'last-week' | 'last-year', name: string): string {
  return `/npm-api/downloads/point/${period}/${name}`;
}

export interface RouteOverrides {
  packument?: FixtureResponse;
  tarball?: FixtureResponse;
  /** A handler generating the tarball response instead (it wins over `tarball`). */
  tarballHandler?: RouteHandler;
  /** Both download periods (fixtures when recorded, else a 404 as the stats API answers). */
  downloads?: FixtureResponse;
  /** Every direct dependency's packument (default: a synthetic one holding the range's lowest version). */
  dependencies?: FixtureResponse;
  /** OSV's querybatch: a handler or a fixed answer / fault (default: no advisory for any query). */
  osv?: RouteHandler | FixtureResponse;
  /**
   * Every GitHub API request (default: the unauthenticated rate limit is spent — one 403 and
   * the GitHub checks are unknown with that reason, as a user without a token sees after a while).
   */
  github?: FixtureResponse;
}

/** GitHub's answer when the hourly budget is gone (a 403 with remaining 0 and the reset time). */
export const GITHUB_RATE_LIMITED: FixtureResponse = {
  status: 403,
  headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1796036400', 'x-ratelimit-resource': 'core' },
  body: { message: 'API rate limit exceeded for 127.0.0.1. (But here\'s the good news: Authenticated requests get a higher rate limit.)', documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting' },
};

/** Every GitHub request (REST and GraphQL) no route of the test takes answered with `response` (default: the rate limit spent). */
export function githubAnswers(server: FixtureServer, response: FixtureResponse = GITHUB_RATE_LIMITED): void {
  server.fallback('GET', '/github/', response);
  server.fallback('POST', '/github/', response);
}

/** The resolved version's direct dependencies, from the fixture packument. */
export function fixtureDependencies(pkg: FixturePackage): Record<string, string> {
  const file = path.join(REPO_ROOT, 'fixtures', 'http', 'npm', `${pkg.name}.json`);
  const packument = JSON.parse(readFileSync(file, 'utf8')) as { versions: Record<string, { dependencies?: Record<string, string> }> };
  return packument.versions[pkg.version]?.dependencies ?? {};
}

/**
 * A minimal abbreviated packument for a dependency, holding just the lowest version its
 * range accepts: enough for nerq to resolve it as npm would, with no real fixture needed.
 */
export function syntheticDependency(name: string, range: string): FixtureResponse {
  const version = semver.minVersion(range)?.version ?? '1.0.0';
  return {
    status: 200,
    headers: { 'content-type': 'application/vnd.npm.install-v1+json' },
    body: JSON.stringify({ name, 'dist-tags': { latest: version }, versions: { [version]: { name, version, dist: { tarball: `{{REGISTRY}}/${name}/-/${name}-${version}.tgz` } } } }),
  };
}

/** OSV with no advisory for anything: one empty result per query, as the real API answers. */
export const osvNoAdvisories: RouteHandler = (_req, res, { body }) => {
  const queries = (JSON.parse(body.toString('utf8')) as { queries: unknown[] }).queries;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ results: queries.map(() => ({})) }));
};

/** OSV asked about a package with no version (`/v1/query`, a package its registry no longer serves): no record, `{}` as the real API answers. */
export const osvNoRecords: RouteHandler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{}');
};

/** Declare every route one `check <name>` requests; overrides replace a route's answer. */
export function expectPackage(server: FixtureServer, name: string, overrides: RouteOverrides = {}): FixturePackage {
  const pkg = fixturePackage(name);
  server.expect('GET', packumentPath(name), overrides.packument);
  if (overrides.tarballHandler !== undefined) server.route('GET', tarballPath(pkg), overrides.tarballHandler);
  else server.expect('GET', tarballPath(pkg), overrides.tarball);
  const downloads = overrides.downloads ?? (pkg.downloads ? undefined : { status: 404, body: { error: `package ${name} not found` } });
  for (const period of ['last-week', 'last-year'] as const) server.expect('GET', downloadsPath(period, name), downloads);
  for (const [dependency, range] of Object.entries(fixtureDependencies(pkg))) {
    // A dependency with a recorded packument (express → debug) is served from it, the same
    // answer its own `check` gets; the others get a synthetic one.
    const recorded = existsSync(path.join(REPO_ROOT, 'fixtures', 'http', 'npm', `${dependency}.json`));
    server.expect('GET', packumentPath(dependency), overrides.dependencies ?? (recorded ? undefined : syntheticDependency(dependency, range)));
  }
  githubAnswers(server, overrides.github);
  const osv = overrides.osv ?? osvNoAdvisories;
  if (typeof osv === 'function') server.route('POST', '/osv/v1/querybatch', osv);
  else server.expect('POST', '/osv/v1/querybatch', osv);
  // A target the registry does not know (another one on the same server) is asked about by name.
  server.route('POST', '/osv/v1/query', osvNoRecords);
  return pkg;
}

/** Parse one pretty JSON report from stdout, validated with the zod contract. */
export function parseReport(stdout: string): Report {
  return ReportSchema.parse(JSON.parse(stdout));
}

/** Parse NDJSON stdout: one compact report per line. */
export function parseNdjson(stdout: string): Report[] {
  expect(stdout.endsWith('\n'), 'NDJSON ends with a newline').toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => ReportSchema.parse(JSON.parse(line)));
}

export const ANSI = /\u001b\[/;

/** A usage error: exit 2, nothing on stdout, one `nerq:` line on stderr, no stack frames. */
export function expectUsageError(result: CliResult): void {
  const context = JSON.stringify(result);
  expect(result.code, context).toBe(2);
  expect(result.stdout, context).toBe('');
  const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines, context).toHaveLength(1);
  expect(lines[0], context).toMatch(/^nerq: /);
  expect(result.stderr, context).not.toMatch(/^\s+at /m);
}

/** A check's status as docs/scoring.md §2 derives it from the score. */
export function statusForScore(score: number | null): 'pass' | 'warn' | 'fail' | 'unknown' {
  if (score === null) return 'unknown';
  if (score >= 70) return 'pass';
  if (score >= 40) return 'warn';
  return 'fail';
}

export function checkOf(report: Report, id: string): Report['checks'][number] {
  const check = report.checks.find((c) => c.id === id);
  if (check === undefined) throw new Error(`report has no check ${id}: ${report.checks.map((c) => c.id).join(', ')}`);
  return check;
}

export function sourceOf(report: Report, id: string): Report['sources'][number] {
  const source = report.sources.find((s) => s.id === id);
  if (source === undefined) throw new Error(`report has no source ${id}`);
  return source;
}

export function dimensionOf(report: Report, id: string): Report['dimensions'][number] {
  const dimension = report.dimensions.find((d) => d.id === id);
  if (dimension === undefined) throw new Error(`report has no dimension ${id}`);
  return dimension;
}

export const DIMENSION_IDS = ['security', 'maintenance', 'documentation', 'compliance', 'community'] as const;

/** The shipped JSON schema (schema/report.schema.json). */
export const REPORT_JSON_SCHEMA = JSON.parse(
  readFileSync(new URL('../../schema/report.schema.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

/** Violations of the shipped JSON schema (required keys included), as readable lines. */
export function schemaViolations(json: unknown): string[] {
  return validate(REPORT_JSON_SCHEMA, json);
}
