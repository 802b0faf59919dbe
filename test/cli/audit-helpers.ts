/**
 * Set-up for the `nerq audit` end-to-end tests: synthetic npm packages served from route
 * handlers (packument — full or abbreviated by `Accept` —, tarball with its sha512 integrity,
 * download counts), a package-lock.json v3 generated for them, OSV answering from a table of
 * synthetic advisories, temporary project directories, and readers of the request log.
 *
 * The advisory records are SYNTHETIC (ids in the reserved `GHSA-test-…` range) in OSV's real
 * schema; the package names are in the `nerq-audit-` namespace, which is not a real package.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { AuditReportSchema, type AuditReportJson } from '../../src/audit/report-schema.js';
import { afterAll, beforeAll } from 'vitest';
import { useSharedFixtureServer, type FixtureServer, type RecordedRequest, type RouteHandler } from '../support/fixture-server.js';
import { CLI_BIN, cliEnv, recordCliRun, REPO_ROOT, type CliResult, type RunCliOptions } from '../support/run-cli.js';
import { makeTarball } from '../support/tarball.js';
import { downloadsPath, requireBuiltCli } from './helpers.js';

// ---------------------------------------------------------------------------------------------
// Synthetic packages

export interface SyntheticPackage {
  name: string;
  version: string;
  /** `owner/name` of a github.com repository the package declares, or null for none. */
  repository?: string | null;
  license?: string;
  /** Dependencies the version's manifest declares (never resolved by an audit). */
  dependencies?: Record<string, string>;
  /** Weekly downloads the stats API reports. */
  weekly?: number;
  /** The deprecation message of `version`, when deprecated. */
  deprecated?: string;
  /** Older versions also published (each with its own tarball); `version` stays the latest. */
  also?: string[];
  /** The manifest's keywords (default: format, numbers). */
  keywords?: string[];
  /** The manifest's `mcpName` (the MCP Registry server the package says it is), when it has one. */
  mcpName?: string;
  /**
   * `owner/name` of the github.com repository whose workflow built `version`, per a SLSA v1
   * provenance statement npm lists in `dist.attestations` and answers at its attestations
   * endpoint (the shape of test/npm-source/npm-attestations.test.ts); none when absent.
   */
  provenance?: string;
}

/** `nerq-audit-dep-007` for 7. */
export const depName = (index: number): string => `nerq-audit-dep-${String(index).padStart(3, '0')}`;

/** The package's tarball, laid out as `npm pack` does: manifest, README, licence, code. */
export function syntheticTarball(pkg: SyntheticPackage): Buffer {
  const manifest = {
    name: pkg.name,
    version: pkg.version,
    description: `Synthetic package ${pkg.name} for the audit tests`,
    license: pkg.license ?? 'MIT',
    main: 'index.js',
    types: 'index.d.ts',
    ...(pkg.repository ? { repository: { type: 'git', url: `git+https://github.com/${pkg.repository}.git` } } : {}),
    ...(pkg.dependencies ? { dependencies: pkg.dependencies } : {}),
    ...(pkg.mcpName === undefined ? {} : { mcpName: pkg.mcpName }),
  };
  const readme = [
    `# ${pkg.name}`,
    '',
    'A small synthetic library used by the nerq audit tests. It formats numbers and dates the',
    'same way in every locale, so reports stay byte-identical from one machine to the next.',
    '',
    '## Install',
    '',
    '```sh',
    `npm install ${pkg.name}`,
    '```',
    '',
    '## Usage',
    '',
    '```js',
    `import { format } from '${pkg.name}';`,
    'format(1234.5); // "1,234.5"',
    '```',
    '',
    '## API',
    '',
    '`format(value)` returns the value as text.',
    '',
    '## License',
    '',
    pkg.license ?? 'MIT',
    '',
  ].join('\n');
  return makeTarball([
    { path: 'package.json', content: `${JSON.stringify(manifest, null, 2)}\n` },
    { path: 'README.md', content: readme },
    { path: 'LICENSE', content: 'MIT License\n\nCopyright (c) 2024 Nerq Tests\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software.\n' },
    { path: 'CHANGELOG.md', content: `# Changelog\n\n## ${pkg.version}\n\n- first stable release\n` },
    { path: 'index.js', content: 'export function format(value) { return String(value); }\n' },
    { path: 'index.d.ts', content: 'export declare function format(value: number): string;\n' },
  ]);
}

/** `sha512-…` of a tarball, as a packument's `dist.integrity` carries it. */
export const integrityOf = (tarball: Buffer): string => `sha512-${createHash('sha512').update(tarball).digest('base64')}`;

const tarballName = (pkg: Pick<SyntheticPackage, 'name' | 'version'>): string => `${pkg.name.split('/').pop() ?? pkg.name}-${pkg.version}.tgz`;

/** `/npm/<name>/-/<basename>-<version>.tgz` (a scoped name keeps its scope in the path). */
export const syntheticTarballPath = (pkg: Pick<SyntheticPackage, 'name' | 'version'>): string => `/npm/${pkg.name}/-/${tarballName(pkg)}`;

/** The versions with a tarball: `version` (the latest) and the `also` ones. */
const publishedVersions = (pkg: SyntheticPackage): string[] => [pkg.version, ...(pkg.also ?? [])];

/** `dist.integrity` of every published version's tarball. */
export function integritiesOf(pkg: SyntheticPackage): Record<string, string> {
  return Object.fromEntries(publishedVersions(pkg).map((version) => [version, integrityOf(syntheticTarball({ ...pkg, version }))]));
}

const PEOPLE = [
  { name: 'alice', email: 'alice@example.com' },
  { name: 'bob', email: 'bob@example.com' },
];

/**
 * Two release candidates, the `also` versions, then `pkg.version` (the latest), a few months
 * apart and published by the same person.
 */
function releases(pkg: SyntheticPackage): { version: string; time: string }[] {
  const [major] = pkg.version.split('.');
  const also = [...(pkg.also ?? [])].sort(semver.compare).map((version, i) => ({ version, time: new Date(Date.UTC(2025, 9, 1 + i)).toISOString() }));
  return [
    { version: `${major}.0.0-rc.1`, time: '2025-03-01T10:00:00.000Z' },
    { version: `${major}.0.0-rc.2`, time: '2025-08-01T10:00:00.000Z' },
    ...also,
    { version: pkg.version, time: '2026-09-15T10:00:00.000Z' },
  ].filter((r, i, all) => all.findIndex((o) => o.version === r.version) === i);
}

const tarballUrl = (pkg: SyntheticPackage, version: string): string => `{{REGISTRY}}/${pkg.name}/-/${tarballName({ name: pkg.name, version })}`;

/** The full packument (`Accept: application/json`), `{{REGISTRY}}` in tarball URLs; `integrities` by version. */
function fullPackument(pkg: SyntheticPackage, integrities: Record<string, string>): Record<string, unknown> {
  const list = releases(pkg);
  const repository = pkg.repository ? { type: 'git', url: `git+https://github.com/${pkg.repository}.git` } : undefined;
  const manifest = (version: string) => ({
    name: pkg.name,
    version,
    description: `Synthetic package ${pkg.name} for the audit tests`,
    license: pkg.license ?? 'MIT',
    keywords: pkg.keywords ?? ['format', 'numbers'],
    homepage: `https://example.com/${pkg.name}`,
    main: 'index.js',
    types: 'index.d.ts',
    ...(repository ? { repository, bugs: { url: `https://github.com/${pkg.repository}/issues` } } : {}),
    ...(pkg.dependencies ? { dependencies: pkg.dependencies } : {}),
    ...(version === pkg.version && pkg.deprecated ? { deprecated: pkg.deprecated } : {}),
    ...(pkg.mcpName === undefined ? {} : { mcpName: pkg.mcpName }),
    _id: `${pkg.name}@${version}`,
    _npmUser: PEOPLE[0],
    maintainers: PEOPLE,
    dist: {
      ...(integrities[version] === undefined ? {} : { integrity: integrities[version] }),
      tarball: tarballUrl(pkg, version),
      ...(version === pkg.version && pkg.provenance !== undefined
        ? { attestations: { url: `{{REGISTRY}}${attestationsPath(pkg)}`, provenance: { predicateType: SLSA_PROVENANCE_V1 } } }
        : {}),
    },
  });
  return {
    _id: pkg.name,
    name: pkg.name,
    description: `Synthetic package ${pkg.name} for the audit tests`,
    'dist-tags': { latest: pkg.version },
    versions: Object.fromEntries(list.map((r) => [r.version, manifest(r.version)])),
    time: { created: list[0]?.time, ...Object.fromEntries(list.map((r) => [r.version, r.time])), modified: list.at(-1)?.time },
    maintainers: PEOPLE,
    ...(repository ? { repository } : {}),
    license: pkg.license ?? 'MIT',
    readme: '',
  };
}

const SLSA_PROVENANCE_V1 = 'https://slsa.dev/provenance/v1';

/** The attestations endpoint of the package's latest version, under the registry. */
const attestationsPath = (pkg: SyntheticPackage): string => `/-/npm/v1/attestations/${pkg.name.replace('/', '%2f')}@${pkg.version}`;

/** npm's answer at that endpoint: a SLSA v1 statement naming `pkg.provenance`'s workflow, as npm publishes it from GitHub Actions. */
function attestationsAnswer(pkg: SyntheticPackage): object {
  const statement = {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name: `pkg:npm/${pkg.name.replace('@', '%40')}@${pkg.version}`, digest: { sha512: 'ab'.repeat(64) } }],
    predicateType: SLSA_PROVENANCE_V1,
    predicate: {
      buildDefinition: {
        buildType: 'https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1',
        externalParameters: { workflow: { ref: `refs/tags/v${pkg.version}`, repository: `https://github.com/${pkg.provenance ?? ''}`, path: '.github/workflows/release.yml' } },
      },
      runDetails: { builder: { id: 'https://github.com/actions/runner/github-hosted' } },
    },
  };
  const payload = Buffer.from(JSON.stringify(statement)).toString('base64');
  return { attestations: [{ predicateType: SLSA_PROVENANCE_V1, bundle: { dsseEnvelope: { payloadType: 'application/vnd.in-toto+json', payload } } }] };
}

/** The abbreviated install document (`application/vnd.npm.install-v1+json`). */
export function abbreviatedPackument(pkg: SyntheticPackage, integrities: Record<string, string>): Record<string, unknown> {
  const list = releases(pkg);
  return {
    name: pkg.name,
    modified: list.at(-1)?.time,
    'dist-tags': { latest: pkg.version },
    versions: Object.fromEntries(
      list.map((r) => [
        r.version,
        {
          name: pkg.name,
          version: r.version,
          ...(pkg.dependencies ? { dependencies: pkg.dependencies } : {}),
          dist: { ...(integrities[r.version] === undefined ? {} : { integrity: integrities[r.version] }), tarball: tarballUrl(pkg, r.version) },
        },
      ]),
    ),
  };
}

const ABBREVIATED = 'application/vnd.npm.install-v1+json';

/** Whether a request's `Accept` asks for the abbreviated document first, as npm does. */
export function wantsAbbreviated(accept: string | string[] | undefined): boolean {
  const first = (Array.isArray(accept) ? accept.join(',') : (accept ?? '')).split(',')[0]?.trim() ?? '';
  return first.startsWith(ABBREVIATED);
}

/** A handler answering a packument, full or abbreviated by the request's `Accept`, with `{{REGISTRY}}` → `registry`. */
function packumentHandler(pkg: SyntheticPackage, integrities: Record<string, string>, registry: (server: FixtureServer) => string): RouteHandler {
  return (req, res, { server }) => {
    const abbreviated = wantsAbbreviated(req.headers.accept);
    const doc = abbreviated ? abbreviatedPackument(pkg, integrities) : fullPackument(pkg, integrities);
    const body = JSON.stringify(doc).replaceAll('{{REGISTRY}}', registry(server));
    res.writeHead(200, { 'content-type': abbreviated ? ABBREVIATED : 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  };
}

export interface ServeOptions {
  /** Path prefix of the registry on the server (default `npm`). */
  prefix?: string;
  /** The server answering the download counts (default: the registry's server; the CLI asks its NERQ_NPM_API_URL). */
  stats?: FixtureServer;
}

/**
 * Declare every route an audit of `pkg` requests from the registry and the stats API: its
 * packument (full or abbreviated by `Accept`), each published version's tarball, both download
 * counts.
 */
export function serveSynthetic(server: FixtureServer, pkg: SyntheticPackage, options: ServeOptions = {}): void {
  const prefix = options.prefix ?? 'npm';
  const escaped = pkg.name.replace('/', '%2f');
  server.route('GET', `/${prefix}/${escaped}`, packumentHandler(pkg, integritiesOf(pkg), (s) => s.url(prefix)));
  for (const version of publishedVersions(pkg)) {
    const tarball = syntheticTarball({ ...pkg, version });
    server.route('GET', syntheticTarballPath({ name: pkg.name, version }).replace(/^\/npm\//, `/${prefix}/`), (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(tarball.length) });
      res.end(tarball);
    });
  }
  if (pkg.provenance !== undefined) server.expect('GET', `/${prefix}${attestationsPath(pkg)}`, { body: attestationsAnswer(pkg) });
  const weekly = pkg.weekly ?? 250_000;
  const stats = options.stats ?? server;
  stats.expect('GET', downloadsPath('last-week', pkg.name), { body: { downloads: weekly, start: '2026-11-22', end: '2026-11-28', package: pkg.name } });
  stats.expect('GET', downloadsPath('last-year', pkg.name), { body: { downloads: weekly * 50, start: '2025-11-29', end: '2026-11-28', package: pkg.name } });
  serveBulkDownloads(stats, pkg.name, weekly);
}

/** The weekly count of every synthetic package served by each stats server (for bulk queries). */
const weeklyByServer = new WeakMap<FixtureServer, Map<string, number>>();

/**
 * npm's bulk download counts (`/downloads/point/{period}/a,b,c`, up to 128 unscoped names), as
 * an audit asks them: each name served on this server gets its count, any other `null` (the
 * API's answer for a package it does not know).
 */
function serveBulkDownloads(stats: FixtureServer, name: string, weekly: number): void {
  let known = weeklyByServer.get(stats);
  if (known === undefined) {
    const table = new Map<string, number>();
    weeklyByServer.set(stats, (known = table));
    stats.routePrefix('GET', '/npm-api/downloads/point/', (req, res) => {
      const parts = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).split('/');
      const period = parts.at(-2);
      const names = (parts.at(-1) ?? '').split(',');
      if (names.length < 2 || (period !== 'last-week' && period !== 'last-year')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'package not found' }));
        return;
      }
      const factor = period === 'last-week' ? 1 : 50;
      const body = Object.fromEntries(
        names.map((n) => {
          const count = table.get(n);
          return [n, count === undefined ? null : { downloads: count * factor, start: '2026-11-22', end: '2026-11-28', package: n }];
        }),
      );
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  }
  known.set(name, weekly);
}

/** The bulk download-count requests in a log (their last path segment lists several names). */
export function bulkDownloadRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.path.startsWith('/npm-api/downloads/point/') && decodeURIComponent(r.path).split('/').at(-1)!.includes(','));
}

// ---------------------------------------------------------------------------------------------
// OSV

interface OsvQuery {
  package: { name: string; ecosystem: string };
  version: string;
}

export const CVSS_CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'; // 9.8
export const CVSS_MODERATE = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N'; // 4.2

/** A synthetic OSV record affecting `packages` (every version below `fixed`), with a CVSS vector. */
export function osvRecord(id: string, packages: readonly string[], cvss: string, fixed = '99.0.0'): Record<string, unknown> {
  return {
    id,
    modified: '2026-10-01T00:00:00Z',
    published: '2026-09-20T00:00:00Z',
    aliases: [],
    summary: `Synthetic advisory ${id}`,
    severity: [{ type: 'CVSS_V3', score: cvss }],
    affected: packages.map((name) => ({
      package: { ecosystem: 'npm', name },
      ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed }] }],
    })),
  };
}

/**
 * OSV on `server`: querybatch answers, for each query, the ids of `records` that list the
 * package (none for the rest); `/v1/vulns/<id>` serves each record; `/v1/query` (a package with
 * no version) answers the whole records that list the package, as OSV does (no `vulns` key when
 * there are none).
 */
export function serveOsv(server: FixtureServer, records: readonly Record<string, unknown>[]): void {
  const idsFor = (name: string): string[] =>
    records
      .filter((r) => (r.affected as { package: { name: string } }[]).some((a) => a.package.name === name))
      .map((r) => r.id as string);
  server.route('POST', '/osv/v1/querybatch', (_req, res, { body }) => {
    const queries = (JSON.parse(body.toString('utf8')) as { queries: OsvQuery[] }).queries;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        results: queries.map((q) => {
          const ids = idsFor(q.package.name);
          return ids.length === 0 ? {} : { vulns: ids.map((id) => ({ id, modified: '2026-10-01T00:00:00Z' })) };
        }),
      }),
    );
  });
  server.route('POST', '/osv/v1/query', (_req, res, { body }) => {
    const query = JSON.parse(body.toString('utf8')) as { package: { name: string } };
    const ids = idsFor(query.package.name);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ids.length === 0 ? {} : { vulns: records.filter((r) => ids.includes(r.id as string)) }));
  });
  for (const record of records) server.expect('GET', `/osv/v1/vulns/${record.id as string}`, { body: record });
}

/** A recorded OSV record (fixtures/http/osv/v1/vulns/<id>.json). */
export function recordedOsvRecord(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../fixtures/http/osv/v1/vulns/${id}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

/** The queries of every querybatch request among `requests`. */
export function osvQueries(requests: readonly RecordedRequest[]): OsvQuery[][] {
  return requests
    .filter((r) => r.method === 'POST' && r.path === '/osv/v1/querybatch')
    .map((r) => (JSON.parse(r.body) as { queries: OsvQuery[] }).queries);
}

// ---------------------------------------------------------------------------------------------
// GitHub GraphQL (with a token)

/**
 * GitHub's GraphQL endpoint answering every repository a query names (`$o<i>` / `$n<i>`) with
 * acme/widget's recorded node, renamed, and its `HEAD:package.json` blob the manifest
 * `manifests[owner/name]` (other files: null, as GitHub answers for a missing path); plus each
 * repository's REST community profile, which a GraphQL run never asks for.
 */
export function serveGraphqlRepositories(server: FixtureServer, manifests: Record<string, string>): void {
  const recorded = JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures', 'http', 'github', 'graphql', 'acme-widget.json'), 'utf8')) as {
    data: { r0: Record<string, unknown> };
  };
  server.route('POST', '/github/graphql', (_req, res, { body }) => {
    const { query, variables } = JSON.parse(body.toString('utf8')) as { query: string; variables: Record<string, string> };
    const data: Record<string, unknown> = {};
    for (const [, alias, index] of query.matchAll(/(r\d+): repository\(owner: \$o(\d+), name: \$n\d+\)/g)) {
      const fullName = `${variables[`o${index}`]}/${variables[`n${index}`]}`;
      const node: Record<string, unknown> = { ...recorded.data.r0, nameWithOwner: fullName, url: `https://github.com/${fullName}` };
      for (const key of Object.keys(node)) if (/^f\d+$/.test(key)) delete node[key];
      for (const [name, value] of Object.entries(variables)) {
        const file = new RegExp(`^f${index}_(\\d+)$`).exec(name);
        if (file === null) continue;
        const manifest = manifests[fullName];
        node[`f${file[1]}`] = value === 'HEAD:package.json' && manifest !== undefined ? { text: manifest, isTruncated: false, isBinary: false } : null;
      }
      data[alias as string] = node;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data }));
  });
  for (const fullName of Object.keys(manifests)) {
    server.expect('GET', `/github/repos/${fullName}/community/profile`, { fixture: 'github/repos/acme/widget/community/profile' });
  }
}

/** How many repositories each GraphQL request the server saw asked for. */
export function graphqlBatchSizes(server: FixtureServer): number[] {
  return server.requests
    .filter((r) => r.method === 'POST' && r.path === '/github/graphql')
    .map((r) => [...(JSON.parse(r.body) as { query: string }).query.matchAll(/r\d+: repository\(/g)].length);
}

// ---------------------------------------------------------------------------------------------
// Lockfiles and project directories

export interface LockEntry {
  name: string;
  version: string;
  /** Declared by the root package.json (`dependencies`, or `devDependencies` with `dev`). */
  direct?: boolean;
  dev?: boolean;
  /** `resolved` URL; default: the tarball on `registry`. */
  resolved?: string;
}

/** A package-lock.json v3 (and its package.json) for `entries`, as npm writes them. */
export function packageLockV3(entries: readonly LockEntry[], registry: string): { lock: string; manifest: string } {
  const deps = Object.fromEntries(entries.filter((e) => e.direct && !e.dev).map((e) => [e.name, `^${e.version}`]));
  const devDeps = Object.fromEntries(entries.filter((e) => e.direct && e.dev).map((e) => [e.name, `^${e.version}`]));
  const root = {
    name: 'audited-app',
    version: '1.0.0',
    ...(Object.keys(deps).length > 0 ? { dependencies: deps } : {}),
    ...(Object.keys(devDeps).length > 0 ? { devDependencies: devDeps } : {}),
  };
  const packages: Record<string, unknown> = { '': root };
  for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    packages[`node_modules/${entry.name}`] = {
      version: entry.version,
      resolved: entry.resolved ?? `${registry.replace(/\/+$/, '')}/${entry.name}/-/${tarballName(entry)}`,
      ...(entry.dev ? { dev: true } : {}),
      license: 'MIT',
    };
  }
  const lock = { name: 'audited-app', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
  const manifest = { ...root, private: true };
  return { lock: `${JSON.stringify(lock, null, 2)}\n`, manifest: `${JSON.stringify(manifest, null, 2)}\n` };
}

/** Temporary directories, removed by `cleanUp`. */
export class TempDirs {
  readonly #dirs: string[] = [];

  make(prefix = 'nerq-audit-'): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    this.#dirs.push(dir);
    return dir;
  }

  /** A new directory holding `files` (relative path → content). */
  project(files: Record<string, string>): string {
    const dir = this.make();
    for (const [name, content] of Object.entries(files)) writeIn(dir, name, content);
    return dir;
  }

  /**
   * A copy of `fixtures/lockfiles/<fixture>`, `{{REGISTRY}}` filled in with `registry` when given.
   * `integrities` (`name@version` → SRI) pins those packages to the hashes the test's registry
   * publishes, in place of the fixtures' placeholders (sha512 of `name@version`, and yarn's sha1
   * fragment of it, dropped): a lockfile pinning other bytes would be lockfile injection.
   */
  fixtureCopy(fixture: string, registry?: string, integrities: Record<string, string> = {}): string {
    const dir = this.make();
    cpSync(path.join(REPO_ROOT, 'fixtures', 'lockfiles', fixture), dir, { recursive: true });
    if (registry !== undefined) {
      for (const name of ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock']) {
        const file = path.join(dir, name);
        if (!existsSync(file)) continue;
        let text = readFileSync(file, 'utf8').replaceAll('{{REGISTRY}}', registry.replace(/\/+$/, ''));
        for (const [key, integrity] of Object.entries(integrities)) {
          text = text
            .replaceAll(`sha512-${createHash('sha512').update(key).digest('base64')}`, integrity)
            .replaceAll(`#${createHash('sha1').update(key).digest('hex')}`, '');
        }
        writeFileSync(file, text);
      }
    }
    return dir;
  }

  cleanUp(): void {
    for (const dir of this.#dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

export function writeIn(dir: string, name: string, content: string): void {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** The 1-based line of the first line of `text` containing `needle` (throws when none). */
export function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`no line containing ${JSON.stringify(needle)}`);
  return index + 1;
}

// ---------------------------------------------------------------------------------------------
// One server for a whole file

export interface AuditServerOptions {
  /** Routes declared ahead of the packages' and OSV's, so they answer in their place. */
  before?: (server: FixtureServer) => void;
  /** Synthetic packages served (serveSynthetic), in this order. */
  packages?: readonly SyntheticPackage[];
  /** OSV's records (serveOsv), served after the packages; none by default. */
  advisories?: readonly Record<string, unknown>[];
}

/**
 * The set-up the audit files share: before the file's tests, the built CLI is required and a
 * fixture server is started serving `options` (its `before` routes, the packages, then OSV), and
 * `ready` is given the server and the file's temporary directories to declare the rest (still
 * before any test); after each test, no unexpected request; after the file, the server is closed
 * and the directories (also returned) removed.
 */
export function useAuditServer(options: AuditServerOptions, ready: (server: FixtureServer, dirs: TempDirs) => void): TempDirs {
  const dirs = new TempDirs();
  beforeAll(() => requireBuiltCli());
  useSharedFixtureServer((server) => {
    options.before?.(server);
    for (const pkg of options.packages ?? []) serveSynthetic(server, pkg);
    serveOsv(server, options.advisories ?? []);
    ready(server, dirs);
  });
  afterAll(() => dirs.cleanUp());
  return dirs;
}

/** A new project directory holding the package-lock.json v3 and package.json of `entries`, resolved on `server`'s registry. */
export function lockProject(dirs: TempDirs, entries: readonly LockEntry[], server: FixtureServer): string {
  const { lock, manifest } = packageLockV3(entries, server.url('npm'));
  return dirs.project({ 'package-lock.json': lock, 'package.json': manifest });
}

// ---------------------------------------------------------------------------------------------
// Running the CLI

/**
 * `runCli` with a longer deadline: the 200-package audit writes ~600 cache entries and scores
 * 200 reports, which on a loaded two-core machine can come near runCli's fixed 30 s. Same
 * from-scratch environment (cliEnv), same temporary HOME handling.
 */
export async function runCliWithin(args: string[], options: RunCliOptions, timeoutMs: number): Promise<CliResult> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'nerq-home-'));
  for (const dir of ['.config', '.cache', path.join('.local', 'share'), path.join('.local', 'state')]) mkdirSync(path.join(home, dir), { recursive: true });
  try {
    return await new Promise<CliResult>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: options.cwd ?? home, env: cliEnv(home, options), stdio: ['ignore', 'pipe', 'pipe'] });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        const out = Buffer.concat(stdout).toString('utf8');
        const err = Buffer.concat(stderr).toString('utf8');
        if (signal === 'SIGKILL') reject(new Error(`nerq ${args.join(' ')} was killed after ${timeoutMs / 1000} s\nstderr:\n${err}`));
        else {
          const result = { code: code ?? 128, stdout: out, stderr: err };
          recordCliRun(args, options, home, result);
          resolve(result);
        }
      });
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Output and the request log

/** Parse `nerq audit --json` stdout with the audit contract. */
export function parseAudit(stdout: string): AuditReportJson {
  return AuditReportSchema.parse(JSON.parse(stdout));
}

/** `name@version status score` rows of an audit, in report order. */
export function resultRows(report: AuditReportJson): string[] {
  return report.entries.map((e) => `${e.subject.name}@${e.report.target.version ?? e.subject.version} ${e.policy.status} ${e.report.score}`);
}

export type RequestKind =
  | 'packument-full'
  | 'packument-abbreviated'
  | 'tarball'
  | 'downloads'
  | 'osv-querybatch'
  | 'osv-vulns'
  | 'github-graphql'
  | 'github-rest'
  | 'npm-public'
  | 'other';

/** What a recorded request was, by its path (and `Accept` for packuments). */
export function kindOf(request: RecordedRequest): RequestKind {
  const p = request.path.split('?')[0] ?? '';
  if (p.startsWith('/npm-public/')) return 'npm-public';
  if (p.startsWith('/npm/')) {
    if (p.includes('/-/')) return 'tarball';
    return wantsAbbreviated(request.headers.accept) ? 'packument-abbreviated' : 'packument-full';
  }
  if (p.startsWith('/npm-api/downloads/')) return 'downloads';
  if (p === '/osv/v1/querybatch') return 'osv-querybatch';
  if (p.startsWith('/osv/v1/vulns/')) return 'osv-vulns';
  if (p === '/github/graphql') return 'github-graphql';
  if (p.startsWith('/github/')) return 'github-rest';
  return 'other';
}

/** Request counts by kind (kinds with no request are left out). */
export function countByKind(requests: readonly RecordedRequest[]): Partial<Record<RequestKind, number>> {
  const counts: Partial<Record<RequestKind, number>> = {};
  for (const request of requests) {
    const kind = kindOf(request);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** Requests sent more than once (same method, path and body), as `METHOD path ×n`. */
export function repeated(requests: readonly RecordedRequest[]): string[] {
  const seen = new Map<string, { line: string; n: number }>();
  for (const r of requests) {
    const key = `${r.method} ${r.path} ${createHash('sha256').update(r.body).digest('hex')}`;
    const entry = seen.get(key) ?? { line: `${r.method} ${r.path}`, n: 0 };
    entry.n += 1;
    seen.set(key, entry);
  }
  return [...seen.values()].filter((e) => e.n > 1).map((e) => `${e.line} ×${e.n}`);
}

