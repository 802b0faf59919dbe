/**
 * The sources the fault suite breaks, one row each: which routes the source requests for the
 * healthy target, how to point the source alone at another origin, what its healthy answer
 * looks like, and which checks it feeds. Adding a source is one more row here; the fault
 * matrix in faults.test.ts is generated from it.
 *
 * Three healthy worlds:
 * - npm rows: chalk 4.1.0 as `test/cli/helpers.ts` `expectPackage` serves it, with two
 *   additions so that every npm source has something to answer: a provenance attestation
 *   listed in its packument (and served), and one low-severity OSV advisory (it holds the
 *   verdict at CAUTION but caps nothing). GitHub goes to support/github-stub.ts (404).
 * - PyPI rows (support/pypi-world.ts): `pypi:flask` as `test/cli/check-pypi.test.ts` serves it.
 *   GitHub goes to the stub too.
 * - GitHub rows (support/github-world.ts): the npm package `widget` claiming acme/widget, with
 *   a healthy GitHub world on the fixture server — REST without a token, GraphQL with one —
 *   as `test/cli/check-github.test.ts` serves it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES_ROOT, type FixtureResponse, type FixtureServer, type RecordedRequest, type RouteHandler } from '../../support/fixture-server.js';
import { downloadsPath, expectPackage, fixturePackage, packumentPath, tarballPath, type RouteOverrides } from '../../cli/helpers.js';
import { CHECKS } from '../../../src/checks/index.js';
import type { Report } from '../../../src/report/schema.js';
import type { FaultId } from './faults.js';
import { fill } from './recorded.js';
import { GITHUB_REST_ROUTES, GITHUB_TOKEN_ROUTES, githubEnv, githubRestWorld, githubSample, githubTokenWorld, WIDGET_PACKAGE } from './github-world.js';
import { FLASK, flaskDependencyPaths, flaskWorld, PROVENANCE_PATH, pypiSample } from './pypi-world.js';
import { pypistatsPath, projectJsonPath, simplePath } from '../../cli/pypi-helpers.js';

export const PACKAGE = 'chalk';
export const VERSION = '4.1.0';
const pkg = fixturePackage(PACKAGE);

type Packument = { versions: Record<string, { dist: Record<string, unknown> }> } & Record<string, unknown>;

/** The recorded packument (placeholders kept), as an object to modify. */
export function recordedPackument(name = PACKAGE): Packument {
  return JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'npm', `${name}.json`), 'utf8')) as Packument;
}

function distOf(packument: Packument, version = VERSION): Record<string, unknown> {
  const dist = packument.versions[version]?.dist;
  if (dist === undefined) throw new Error(`the packument has no version ${version}`);
  return dist;
}

export { fill };

// ── provenance: a SLSA v1 statement about chalk@4.1.0 ───────────────────────────────────

export const ATTESTATIONS_PATH = `/npm/-/npm/v1/attestations/${PACKAGE}@${VERSION}`;
const SLSA_V1 = 'https://slsa.dev/provenance/v1';

/** An attestations answer as the registry gives it, with one SLSA v1 provenance statement. */
export function attestationsBody(name = PACKAGE, version = VERSION): object {
  const statement = {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name: `pkg:npm/${name}@${version}`, digest: { sha512: 'ab'.repeat(64) } }],
    predicateType: SLSA_V1,
    predicate: {
      buildDefinition: {
        buildType: 'https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1',
        externalParameters: { workflow: { ref: `refs/tags/v${version}`, repository: 'https://github.com/chalk/chalk', path: '.github/workflows/release.yml' } },
        resolvedDependencies: [{ uri: `git+https://github.com/chalk/chalk@refs/tags/v${version}`, digest: { gitCommit: '1'.repeat(40) } }],
      },
      runDetails: { builder: { id: 'https://github.com/actions/runner/github-hosted' } },
    },
  };
  const payload = Buffer.from(JSON.stringify(statement)).toString('base64');
  return {
    attestations: [
      { predicateType: 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1', bundle: { dsseEnvelope: { payload: Buffer.from('{}').toString('base64'), payloadType: 'application/vnd.in-toto+json', signatures: [] } } },
      { predicateType: SLSA_V1, bundle: { dsseEnvelope: { payload, payloadType: 'application/vnd.in-toto+json', signatures: [{ sig: 'MEUCIQ', keyid: '' }] } } },
    ],
  };
}

/**
 * Moves chalk 4.0.0 and 4.1.0 to 2024: a version that lists provenance was published after the
 * registry offered it (2023-04-19), and before that date the provenance check does not apply
 * (docs/scoring.md §6a).
 */
export function publishedAfterProvenance(packument: Packument): Packument {
  const time = packument.time as Record<string, string>;
  time['4.0.0'] = '2024-01-09T10:00:00.000Z';
  time[VERSION] = '2024-03-12T10:00:00.000Z';
  time.modified = '2024-03-12T10:00:01.000Z';
  return packument;
}

/** chalk's packument listing the attestation for 4.1.0 (placeholders kept), published in 2024. */
export function packumentWithAttestation(): Packument {
  const packument = publishedAfterProvenance(recordedPackument());
  distOf(packument).attestations = { url: `{{REGISTRY}}/-/npm/v1/attestations/${PACKAGE}@${VERSION}`, provenance: { predicateType: SLSA_V1 } };
  return packument;
}

// ── OSV: one low-severity advisory for chalk 4.1.0 ──────────────────────────────────────

export const ADVISORY_ID = 'GHSA-hst1-0000-0001';
export const ADVISORY_PATH = `/osv/v1/vulns/${ADVISORY_ID}`;

export const ADVISORY_RECORD = {
  id: ADVISORY_ID,
  summary: 'Low-severity flaw in chalk 4.0.0 to 4.1.0 (synthetic)',
  modified: '2024-01-02T00:00:00Z',
  published: '2024-01-01T00:00:00Z',
  aliases: [],
  affected: [{ package: { ecosystem: 'npm', name: PACKAGE }, ranges: [{ type: 'SEMVER', events: [{ introduced: '4.0.0' }, { fixed: '4.1.1' }] }] }],
  severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:N/A:L' }],
  database_specific: { severity: 'LOW' },
};

/** OSV's batch answers: the advisory for chalk's query, nothing for any other (its dependencies, asked in a batch of their own). */
export const osvOneAdvisory: RouteHandler = (_req, res, { body }) => {
  const queries = (JSON.parse(body.toString('utf8')) as { queries: { package: { name: string } }[] }).queries;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ results: queries.map((q) => (q.package.name === PACKAGE ? { vulns: [{ id: ADVISORY_ID, modified: ADVISORY_RECORD.modified }] } : {})) }));
};

/** Bodies the attestations endpoint serves that are no attestations list: the listing is hollow. */
const ATTESTATIONS_ANSWERED: readonly FaultId[] = ['truncated JSON', 'invalid JSON', 'valid JSON of the wrong shape', 'HTML error page with 200'];

// ── the rows ────────────────────────────────────────────────────────────────────────────

/** A route a fault is installed on (a path alone is a route of the row's `method`). */
export type RouteSpec = string | { method: 'GET' | 'POST'; path: string };

export interface SourceRow {
  /** Row name (the API as users know it). */
  id: string;
  /** The source's id in the report's `sources[]`. */
  reportSource: string;
  method: 'GET' | 'POST';
  /** The routes the fault is installed on (every one the source requests for the target). */
  routes: RouteSpec[];
  contentType: string;
  /** The healthy answer of `route` (a path), placeholders filled for `server`. */
  sample(server: FixtureServer, route: string): Buffer;
  /**
   * The healthy answers of the routes, for the second origin of the cross-origin redirect, when
   * one fixed `sample` cannot give them (OSV's two batches hold different queries). Default: `sample`.
   */
  answer?: RouteHandler;
  /** A well-formed answer of the wrong shape. */
  wrongShape: string;
  /** What follows `nerq check` (default: the npm package chalk). */
  target?: string;
  /** Variables every run of this row gets (its clock, GitHub's endpoints on `server`, a token). */
  env?: (server: FixtureServer) => Record<string, string>;
  /** The world answers GitHub itself (else GitHub goes to the stub and its state is its own). */
  servesGithub?: boolean;
  /** Declare the healthy world on `server`; `overrides` (npm worlds only) replace some of its answers. */
  world(server: FixtureServer, overrides?: RouteOverrides): void;
  /**
   * Point this source alone at `origin` (a closed port, an unresolvable host): environment
   * variables or route overrides. Absent when the source shares its origin with another one.
   */
  pointAt?: (origin: string) => { env?: Record<string, string>; overrides?: RouteOverrides };
  /** Why `pointAt` is absent. */
  sharedOrigin?: string;
  /** The target cannot be evaluated without this source: an error report, exit 3. */
  fatal?: boolean;
  /** Checks that must be unknown when the source fails. */
  unknownChecks: string[];
  /** Checks that read the source when it is there (`optional`): they may change. */
  mayChange: string[];
  /** The reason the report gives, per fault, when it differs from the default pattern. */
  reasons?: Partial<Record<FaultId, RegExp>>;
  /**
   * Faults whose body is an answer for this source, not a failure: the source is `ok` and its
   * facts say what was wrong (attestations: a served body that is no provenance is hollow).
   */
  answeredFaults?: readonly FaultId[];
  /** Known findings (see `Finding`). */
  findings?: readonly Finding[];
  /** Further assertions on a report whose source failed (`requests`: what the faulted server saw). */
  also?: (report: Report, run: { fault: FaultId; requests: readonly RecordedRequest[] }) => void;
}

/**
 * A bug a row's cases found outside this suite's files, reported to the lead: the case keeps
 * every other assertion (and, with `othersMayBeUnknown`, checks that other sources' checks are
 * as in the healthy run or unknown, never another value); `assert` is the contract that fails
 * today, run as its own `it.fails` test on the same run until the fix lands.
 */
export interface Finding {
  /** One line: what breaks, and where. */
  title: string;
  faults: readonly FaultId[];
  /** The other sources' checks may be unknown meanwhile (the finding holds them back). */
  othersMayBeUnknown?: boolean;
  /**
   * Faults under which the same finding shows only when the machine is slow (the source then
   * runs into the deadline): their cases get the relaxed comparison, with no strict twin (it
   * would pass or fail by machine speed). Strict again once the finding is fixed.
   */
  slowMachineFaults?: readonly FaultId[];
  assert(outcome: { report: Report; baseline: Report; requests: readonly RecordedRequest[]; leaveOut: readonly string[] }): void;
}

/** A row's routes with their methods. */
export function routeSpecs(row: SourceRow): { method: 'GET' | 'POST'; path: string }[] {
  return row.routes.map((route) => (typeof route === 'string' ? { method: row.method, path: route } : route));
}

const fixtureBytes = (file: string, server: FixtureServer): Buffer => Buffer.from(fill(readFileSync(path.join(FIXTURES_ROOT, file), 'utf8'), server));

/** The healthy world of every npm row: chalk with its attestation and its advisory. */
function healthyWorld(server: FixtureServer, overrides: RouteOverrides = {}): void {
  expectPackage(server, PACKAGE, { packument: { body: packumentWithAttestation() }, osv: osvOneAdvisory, ...overrides });
  server.expect('GET', ATTESTATIONS_PATH, { body: attestationsBody() });
  server.expect('GET', ADVISORY_PATH, { body: ADVISORY_RECORD });
}

/** chalk's packument with 4.1.0's tarball URL replaced (and its integrity, when `integrity` is false, removed). */
function packumentWith(change: { tarball?: string; integrity?: boolean }): FixtureResponse {
  const packument = packumentWithAttestation();
  const dist = distOf(packument);
  if (change.tarball !== undefined) dist.tarball = change.tarball;
  if (change.integrity === false) {
    delete dist.integrity;
    delete dist.shasum;
  }
  return { body: packument };
}

/**
 * How the GitHub source words what the generic patterns expect: a body that is not JSON, an
 * answer of another shape, and every 429 — a rate limit, which stops GitHub for the run.
 */
const GITHUB_REASONS: Partial<Record<FaultId, RegExp>> = {
  'truncated JSON': /not valid JSON/,
  'invalid JSON': /not valid JSON/,
  'HTML error page with 200': /not valid JSON/,
  'valid JSON of the wrong shape': /unexpected shape/,
  '429 with Retry-After': /rate limit/,
  '429 without Retry-After': /rate limit/,
};

/**
 * A rate limit stops GitHub for the run (docs/security.md): the refused request
 * is the last one, never retried after a wait. Today a REST GET answered 429 is retried by the
 * HTTP client (its bounded retries: after `Retry-After`, or a backoff) before the limiter
 * trips — src/sources/github/request.ts keeps those retries for 429.
 */
function githubAskedOnce(requests: readonly RecordedRequest[]): void {
  const github = requests.filter((r) => r.path.startsWith('/github/')).map((r) => `${r.method} ${r.path.split('?')[0]}`);
  if (github.length !== 1) throw new Error(`after a 429, GitHub was asked ${github.length} times (${github.join(', ')}): it must stop at once, never wait and retry`);
}

const GITHUB_429_FAULTS: readonly FaultId[] = ['429 with Retry-After', '429 without Retry-After'];


const VULNERABILITY_CHECKS = ['known-vulnerabilities', 'vulnerable-dependencies', 'malicious-package'];

/**
 * Checks fed by the GitHub source. It waits for the attestations (a provenance statement that
 * names the repository verifies the package's link to it), so a source that holds the
 * attestations up to the deadline leaves GitHub no time either.
 */
const GITHUB_CHECKS = CHECKS.filter((check) => (check.needs as readonly string[]).includes('github')).map((check) => check.id);

/** While the vulnerability source is unknown the verdict is at most CAUTION (docs/scoring.md §3). */
function verdictHeldBack(report: Report): void {
  if (!['caution', 'no', 'do-not-use', 'unknown'].includes(report.verdictCode)) {
    throw new Error(`verdict ${report.verdictCode} while the vulnerability checks are unknown`);
  }
  if (report.advisories.length !== 0) throw new Error('advisories listed although OSV could not answer');
}

export const SOURCES: readonly SourceRow[] = [
  {
    id: 'npm packument',
    reportSource: 'registry',
    method: 'GET',
    routes: [packumentPath(PACKAGE)],
    contentType: 'application/json',
    sample: (server) => Buffer.from(fill(JSON.stringify(packumentWithAttestation()), server)),
    wrongShape: JSON.stringify([{ name: PACKAGE, versions: ['4.1.0'] }]),
    world: healthyWorld,
    pointAt: (origin) => ({ env: { NERQ_NPM_REGISTRY: `${origin}/npm/` } }),
    fatal: true,
    unknownChecks: [],
    mayChange: [],
    reasons: { 'valid JSON of the wrong shape': /not a JSON object/ },
  },
  {
    id: 'npm tarball',
    reportSource: 'tarball',
    method: 'GET',
    routes: [tarballPath(pkg)],
    contentType: 'application/octet-stream',
    sample: () => readFileSync(path.join(FIXTURES_ROOT, tarballPath(pkg).slice(1))),
    wrongShape: JSON.stringify({ tarball: 'chalk-4.1.0.tgz', files: ['index.js'] }),
    // Without an integrity hash in the packument, every bad body reaches the tarball reader
    // (with one, a changed body is refused unread: packages.test.ts covers that).
    world: (server, overrides = {}) => healthyWorld(server, { packument: packumentWith({ integrity: false }), ...overrides }),
    pointAt: (origin) => ({ overrides: { packument: packumentWith({ integrity: false, tarball: `${origin}${tarballPath(pkg)}` }) } }),
    unknownChecks: ['readme', 'changelog', 'license-file', 'type-declarations', 'manifest-confusion'],
    // agent-directed-text reads the README: without the tarball's (and no packument readme) it is unknown.
    mayChange: ['install-scripts', 'release-anomalies', 'unvouched-dependencies', 'load-time-code', 'entry-points', 'agent-directed-text'],
    reasons: {
      'truncated JSON': /corrupt (gzip|tar)|unexpected end/i,
      'invalid JSON': /corrupt gzip/,
      'valid JSON of the wrong shape': /corrupt gzip/,
      'HTML error page with 200': /corrupt gzip/,
      // Read as it streams: a body that is not gzip is refused at its first bytes, before the
      // compressed cap is reached (its rest is never downloaded).
      '100 MB body': /exceeds \d+ MiB compressed|corrupt gzip/,
    },
  },
  {
    id: 'npm downloads API',
    reportSource: 'downloads',
    method: 'GET',
    routes: [downloadsPath('last-week', PACKAGE), downloadsPath('last-year', PACKAGE)],
    contentType: 'application/json',
    sample: (server, route) => fixtureBytes(`${route.slice(1)}.json`, server),
    wrongShape: JSON.stringify({ downloads: 'a lot', start: '2026-11-22', end: '2026-11-28', package: PACKAGE }),
    world: healthyWorld,
    pointAt: (origin) => ({ env: { NERQ_NPM_API_URL: `${origin}/npm-api` } }),
    unknownChecks: ['weekly-downloads'],
    mayChange: ['typosquat'],
    reasons: { 'valid JSON of the wrong shape': /no download count/ },
  },
  {
    id: 'npm attestations',
    reportSource: 'attestations',
    method: 'GET',
    routes: [ATTESTATIONS_PATH],
    contentType: 'application/json',
    sample: () => Buffer.from(JSON.stringify(attestationsBody())),
    wrongShape: JSON.stringify({ attestations: { provenance: true } }),
    world: healthyWorld,
    sharedOrigin: 'the attestations URL is on the registry origin, so refusing it refuses the packument too',
    // When no answer came, provenance still knows the attestation is listed (the packument says
    // so): "details unavailable", never built from the declared repository. A body that came but
    // is no attestations list makes the listing hollow: no provenance at all.
    unknownChecks: [],
    mayChange: ['provenance', 'release-anomalies', ...GITHUB_CHECKS],
    answeredFaults: ATTESTATIONS_ANSWERED,
    also: (report, { fault }) => {
      const provenance = report.checks.find((c) => c.id === 'provenance');
      const expected = ATTESTATIONS_ANSWERED.includes(fault) ? 'none' : 'details-unavailable';
      if (provenance?.messageId !== expected) {
        throw new Error(`provenance says ${provenance?.messageId} (expected ${expected}) after ${fault}`);
      }
    },
  },
  {
    id: 'OSV querybatch',
    reportSource: 'vulnerabilities',
    method: 'POST',
    routes: ['/osv/v1/querybatch'],
    contentType: 'application/json',
    // The target's own batch (chalk alone); its dependencies are asked in a second one.
    sample: () => Buffer.from(JSON.stringify({ results: [{ vulns: [{ id: ADVISORY_ID, modified: ADVISORY_RECORD.modified }] }] })),
    answer: osvOneAdvisory,
    wrongShape: JSON.stringify({ results: { chalk: [] } }),
    world: healthyWorld,
    pointAt: (origin) => ({ env: { NERQ_OSV_API_URL: `${origin}/osv` } }),
    unknownChecks: VULNERABILITY_CHECKS,
    mayChange: [],
    reasons: { 'valid JSON of the wrong shape': /unexpected response shape/, '100 MB body': /limit/ },
    also: verdictHeldBack,
  },
  {
    id: 'OSV vulns record',
    reportSource: 'vulnerabilities',
    method: 'GET',
    routes: [ADVISORY_PATH],
    contentType: 'application/json',
    sample: () => Buffer.from(JSON.stringify(ADVISORY_RECORD)),
    wrongShape: JSON.stringify({ id: 42, affected: 'chalk' }),
    world: healthyWorld,
    sharedOrigin: 'the record URL is on the querybatch origin, so refusing it refuses the batch too',
    unknownChecks: VULNERABILITY_CHECKS,
    mayChange: [],
    reasons: { 'valid JSON of the wrong shape': /not an OSV record/ },
    also: verdictHeldBack,
  },
  // ── PyPI: pypi:flask ──────────────────────────────────────────────────────────────────
  {
    id: 'PyPI project JSON',
    reportSource: 'pypi',
    method: 'GET',
    routes: [projectJsonPath(FLASK.project)],
    contentType: 'application/json',
    sample: pypiSample,
    wrongShape: JSON.stringify({ info: { name: 'flask', version: 3.1 }, releases: ['3.1.3'] }),
    target: FLASK.input,
    world: flaskWorld,
    // Every PyPI request (the Simple and Integrity APIs, the dependencies' JSON) goes there too.
    pointAt: (origin) => ({ env: { NERQ_PYPI_URL: `${origin}/pypi` } }),
    fatal: true,
    unknownChecks: [],
    mayChange: [],
    reasons: { 'valid JSON of the wrong shape': /unexpected JSON shape at info\.version/ },
  },
  {
    id: 'PyPI Simple API',
    reportSource: 'attestations',
    method: 'GET',
    routes: [simplePath(FLASK.project)],
    contentType: 'application/vnd.pypi.simple.v1+json',
    sample: pypiSample,
    wrongShape: JSON.stringify({ meta: { 'api-version': '1.4' }, name: 'flask', files: { 'flask-3.1.3.tar.gz': true } }),
    target: FLASK.input,
    world: flaskWorld,
    sharedOrigin: 'the Simple API is on the PyPI origin, so refusing it refuses the project JSON too',
    // Without the Simple API nerq cannot tell whether the files carry provenance: unknown, never "none".
    unknownChecks: ['provenance'],
    // The PEP 792 status comes from it too (flask's classifier still gives its stage); the
    // GitHub link check waits for the provenance it would have read. Nothing else waits for it
    // (src/ecosystems/pypi/collect.ts): a stall holds no other source to the deadline.
    mayChange: ['project-status', 'release-anomalies', ...GITHUB_CHECKS],
    reasons: {
      'valid JSON of the wrong shape': /Simple API: unexpected JSON shape at files/,
      'HTML error page with 200': /Simple API: the index answered HTML/,
    },
    also: (report) => {
      const reason = report.sources.find((s) => s.id === 'attestations')?.reason ?? '';
      if (!reason.startsWith('provenance unknown: Simple API:')) throw new Error(`the attestations reason does not name the Simple API: ${reason}`);
    },
  },
  {
    id: 'PyPI Integrity API',
    reportSource: 'attestations',
    method: 'GET',
    routes: [PROVENANCE_PATH],
    contentType: 'application/vnd.pypi.integrity.v1+json',
    sample: pypiSample,
    wrongShape: JSON.stringify({ version: 1, attestation_bundles: { publisher: 'pallets' } }),
    target: FLASK.input,
    world: flaskWorld,
    sharedOrigin: 'the Integrity API is on the PyPI origin, so refusing it refuses the project JSON too',
    // The Simple API said the sdist has provenance: scored as "details unavailable", never as
    // built from the declared repository. As with the Simple API, only GitHub waits for it.
    unknownChecks: [],
    mayChange: ['provenance', 'release-anomalies', ...GITHUB_CHECKS],
    reasons: { 'valid JSON of the wrong shape': /provenance: unexpected JSON shape at attestation_bundles/ },
    also: (report) => {
      const provenance = report.checks.find((c) => c.id === 'provenance');
      if (provenance?.messageId !== 'details-unavailable') {
        throw new Error(`provenance says ${provenance?.messageId} while the provenance object could not be read`);
      }
    },
  },
  {
    id: 'PyPI dependency project JSON',
    reportSource: 'dependencies',
    method: 'GET',
    routes: flaskDependencyPaths(),
    contentType: 'application/json',
    sample: pypiSample,
    wrongShape: JSON.stringify({ info: { name: 'click' }, releases: ['8.1.8'] }),
    target: FLASK.input,
    world: flaskWorld,
    sharedOrigin: "the dependencies' project JSON is on the PyPI origin, so refusing it refuses flask's too",
    // With no dependency resolved, OSV cannot be asked about them; flask's own OSV batch does not
    // wait for them (src/pipeline/vulnerabilities-for.ts), so its advisories stay known.
    unknownChecks: ['vulnerable-dependencies'],
    mayChange: ['malicious-package', 'dependency-footprint'],
    reasons: { 'valid JSON of the wrong shape': /7 of 7 dependency projects could not be fetched \(.*unexpected JSON shape at releases/ },
  },
  {
    id: 'pypistats',
    reportSource: 'downloads',
    method: 'GET',
    routes: [pypistatsPath(FLASK.project)],
    contentType: 'application/json',
    sample: pypiSample,
    wrongShape: JSON.stringify({ data: { last_week: '1.2M', last_month: -5 }, package: 'flask', type: 'recent_downloads' }),
    target: FLASK.input,
    world: flaskWorld,
    pointAt: (origin) => ({ env: { NERQ_PYPISTATS_URL: `${origin}/pypistats` } }),
    unknownChecks: ['weekly-downloads'],
    mayChange: ['typosquat'],
    reasons: { 'valid JSON of the wrong shape': /pypistats: unexpected JSON shape at data\.last_week/ },
  },
  // ── GitHub: the npm package widget claiming acme/widget ───────────────────────────────────
  {
    id: 'GitHub REST',
    reportSource: 'github',
    method: 'GET',
    routes: [...GITHUB_REST_ROUTES],
    contentType: 'application/json',
    sample: githubSample,
    wrongShape: JSON.stringify({ id: 'acme/widget', full_name: ['acme', 'widget'], stargazers_count: '15k' }),
    target: WIDGET_PACKAGE,
    env: (server) => githubEnv(server, false),
    servesGithub: true,
    world: githubRestWorld,
    pointAt: (origin) => ({ env: { NERQ_GITHUB_API_URL: `${origin}/github` } }),
    unknownChecks: GITHUB_CHECKS,
    mayChange: [],
    reasons: GITHUB_REASONS,
    // Found by this suite (REST GETs retried a 429 after sleeping), fixed: a 429 stops GitHub at once.
    also: (_report, { fault, requests }) => {
      if (GITHUB_429_FAULTS.includes(fault)) githubAskedOnce(requests);
    },
  },
  {
    id: 'GitHub GraphQL (token)',
    reportSource: 'github',
    method: 'POST',
    routes: [...GITHUB_TOKEN_ROUTES],
    contentType: 'application/json',
    sample: githubSample,
    wrongShape: JSON.stringify({ data: [{ nameWithOwner: 'acme/widget', stargazerCount: '15k' }] }),
    target: WIDGET_PACKAGE,
    env: (server) => githubEnv(server, true),
    servesGithub: true,
    world: githubTokenWorld,
    pointAt: (origin) => ({ env: { NERQ_GITHUB_API_URL: `${origin}/github`, NERQ_GITHUB_GRAPHQL_URL: `${origin}/github/graphql` } }),
    unknownChecks: GITHUB_CHECKS,
    mayChange: [],
    reasons: GITHUB_REASONS,
    // The query is never retried: a 429 stops GitHub at once.
    also: (_report, { fault, requests }) => {
      if (GITHUB_429_FAULTS.includes(fault)) githubAskedOnce(requests);
    },
  },
];

/** The default reason pattern of each fault (rows override where their source words it differently). */
export const DEFAULT_REASONS: Record<FaultId, RegExp> = {
  'connection refused': /connection refused/,
  'DNS failure': /DNS lookup failed/,
  'timeout before headers': /deadline|timeout/,
  'stall mid-body': /deadline|timeout/,
  'reset mid-body': /connection reset|closed before the response was complete/,
  'truncated JSON': /malformed JSON/,
  'invalid JSON': /malformed JSON/,
  'valid JSON of the wrong shape': /./,
  'HTML error page with 200': /malformed JSON/,
  'HTTP 500': /HTTP 500/,
  'HTTP 502': /HTTP 502/,
  'HTTP 503': /HTTP 503/,
  '429 with Retry-After': /HTTP 429/,
  '429 without Retry-After': /HTTP 429/,
  'redirect loop': /too many redirects/,
  'redirect to another origin': /^$/,
  '100 MB body': /limit|exceeds/,
};
