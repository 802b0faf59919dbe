/**
 * The sources the fault suite breaks, one row each: which routes the source requests for the
 * healthy package, how to point the source alone at another origin, what its healthy answer
 * looks like, and which checks it feeds. Adding a source (PyPI, pypistats, GitHub REST and
 * GraphQL…) is one more row here; the fault matrix in faults.test.ts is generated from it.
 *
 * The healthy package is chalk 4.1.0 as `test/cli/helpers.ts` `expectPackage` serves it, with
 * two additions so that every npm source has something to answer: a provenance attestation
 * listed in its packument (and served), and one low-severity OSV advisory (it holds the
 * verdict at CAUTION but caps nothing).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES_ROOT, type FixtureResponse, type FixtureServer, type RouteHandler } from '../../support/fixture-server.js';
import { downloadsPath, expectPackage, fixturePackage, packumentPath, tarballPath, type RouteOverrides } from '../../cli/helpers.js';
import { CHECKS } from '../../../src/checks/index.js';
import type { Report } from '../../../src/report/schema.js';
import type { FaultId } from './faults.js';

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

/** Fill the fixture server's placeholders as it does for text bodies. */
export function fill(text: string, server: FixtureServer): string {
  return text.replaceAll('{{REGISTRY}}', `${server.origin}/npm`).replaceAll('{{ORIGIN}}', server.origin);
}

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

/** chalk's packument listing the attestation for 4.1.0 (placeholders kept). */
export function packumentWithAttestation(): Packument {
  const packument = recordedPackument();
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

/** OSV's batch answer: the advisory for chalk (the first query), nothing for the dependencies. */
export const osvOneAdvisory: RouteHandler = (_req, res, { body }) => {
  const queries = (JSON.parse(body.toString('utf8')) as { queries: { package: { name: string } }[] }).queries;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ results: queries.map((q) => (q.package.name === PACKAGE ? { vulns: [{ id: ADVISORY_ID, modified: ADVISORY_RECORD.modified }] } : {})) }));
};

// ── the rows ────────────────────────────────────────────────────────────────────────────

export interface SourceRow {
  /** Row name (the API as users know it). */
  id: string;
  /** The source's id in the report's `sources[]`. */
  reportSource: string;
  method: 'GET' | 'POST';
  /** The routes the fault is installed on (every one the source requests for the package). */
  routes: string[];
  contentType: string;
  /** The healthy answer of `route`, placeholders filled for `server`. */
  sample(server: FixtureServer, route: string): Buffer;
  /** A well-formed answer of the wrong shape. */
  wrongShape: string;
  /** Declare the healthy world on `server`; `overrides` replace some of its answers. */
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
  /** Further assertions on a report whose source failed. */
  also?: (report: Report) => void;
}

const fixtureBytes = (file: string, server: FixtureServer): Buffer => Buffer.from(fill(readFileSync(path.join(FIXTURES_ROOT, file), 'utf8'), server));

/** The healthy world of every row: chalk with its attestation and its advisory. */
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

const VULNERABILITY_CHECKS = ['known-vulnerabilities', 'vulnerable-dependencies', 'malicious-package'];

/**
 * Checks fed by the GitHub source. It waits for the attestations (a provenance statement that
 * names the repository verifies the package's link to it), so a source that holds the
 * attestations up to the deadline leaves GitHub no time either.
 */
const GITHUB_CHECKS = CHECKS.filter((check) => (check.needs as readonly string[]).includes('github')).map((check) => check.id);

/** While the vulnerability source is unknown the verdict is at most CAUTION (DESIGN.md §4). */
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
    unknownChecks: ['readme', 'changelog', 'license-file', 'type-declarations'],
    mayChange: ['install-scripts'],
    reasons: {
      'truncated JSON': /corrupt (gzip|tar)|unexpected end/i,
      'invalid JSON': /corrupt gzip/,
      'valid JSON of the wrong shape': /corrupt gzip/,
      'HTML error page with 200': /corrupt gzip/,
      '100 MB body': /exceeds \d+ MiB compressed/,
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
    // provenance still knows the attestation is listed (the packument says so): it scores it as
    // "details unavailable", never as built from the declared repository.
    unknownChecks: [],
    mayChange: ['provenance', 'release-anomalies', ...GITHUB_CHECKS],
    reasons: { 'valid JSON of the wrong shape': /no "attestations" list/ },
    also: (report) => {
      const provenance = report.checks.find((c) => c.id === 'provenance');
      if (provenance?.messageId !== 'details-unavailable') {
        throw new Error(`provenance says ${provenance?.messageId} while the attestations could not be read`);
      }
    },
  },
  {
    id: 'OSV querybatch',
    reportSource: 'vulnerabilities',
    method: 'POST',
    routes: ['/osv/v1/querybatch'],
    contentType: 'application/json',
    sample: () => Buffer.from(JSON.stringify({ results: [{ vulns: [{ id: ADVISORY_ID, modified: ADVISORY_RECORD.modified }] }, {}, {}] })),
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
