/**
 * MCP Registry answers for the fixture server, built from the real entries recorded under
 * fixtures/mcp-registry (seed.json, server-json-examples, real/) wrapped in the envelopes of
 * the registry's openapi.yaml (`ServerResponse`, `ServerList`): the envelopes, statuses,
 * timestamps and edits (look-alike, namespace mismatch) are made up per test and say so.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { REPO_ROOT } from '../support/run-cli.js';
import { startFixtureServer, type FixtureResponse, type FixtureServer, type RouteHandler } from '../support/fixture-server.js';
import { githubAnswers } from './helpers.js';

export type ServerJson = { name: string; version: string; [key: string]: unknown };

const MCP_DIR = path.join(REPO_ROOT, 'fixtures', 'mcp-registry');

export const SEED: readonly ServerJson[] = JSON.parse(readFileSync(path.join(MCP_DIR, 'seed.json'), 'utf8')) as ServerJson[];
export const SEED_2025: readonly ServerJson[] = JSON.parse(gunzipSync(readFileSync(path.join(MCP_DIR, 'seed-2025-09-29.json.gz'))).toString('utf8')) as ServerJson[];

/** What the tests did not record answers 503: the signals it feeds are unavailable, never made up. */
export const NOT_RECORDED: FixtureResponse = { status: 503, body: 'not recorded' };

/**
 * A fixture server for `nerq check mcp:…`: GitHub's hourly budget spent and OSV not recorded, for
 * every request no route of the test takes. A package an entry pins that its registry does not
 * have is asked of OSV (a removed malicious release, pipeline/removed-malicious.ts): it stays not found.
 */
export async function startMcpFixtureServer(): Promise<FixtureServer> {
  const server = await startFixtureServer();
  githubAnswers(server);
  server.fallback('POST', '/osv/', NOT_RECORDED);
  return server;
}

export function example(file: string): ServerJson {
  return JSON.parse(readFileSync(path.join(MCP_DIR, 'server-json-examples', file), 'utf8')) as ServerJson;
}

/** An entry recorded from its project's own `server.json` (fixtures/mcp-registry/real). */
export function realEntry(file: string): ServerJson {
  return JSON.parse(readFileSync(path.join(MCP_DIR, 'real', file), 'utf8')) as ServerJson;
}

/**
 * A real entry's npm package as the tests can serve it: its packument as recorded
 * (fixtures/http/npm, trimmed to what nerq reads); what was not recorded — the tarball (the
 * project's code is not committed), its dependencies' packuments, download counts and OSV —
 * answers 503, so the signals it feeds are unavailable, never made up.
 */
export function serveRecordedNpm(server: FixtureServer, name: string, version: string): void {
  const packument = JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures', 'http', 'npm', `${name}.json`), 'utf8')) as {
    versions: Record<string, { dependencies?: Record<string, string> }>;
  };
  server.expect('GET', `/npm/${name.replace('/', '%2f')}`);
  server.expect('GET', `/npm/${name}/-/${name.split('/').pop()}-${version}.tgz`, NOT_RECORDED);
  for (const dependency of Object.keys(packument.versions[version]?.dependencies ?? {})) server.expect('GET', `/npm/${dependency.replace('/', '%2f')}`, NOT_RECORDED);
  server.fallback('GET', '/npm-api/', NOT_RECORDED);
  server.fallback('POST', '/osv/', NOT_RECORDED);
}

export function seedEntry(name: string, version?: string): ServerJson {
  const found = [...SEED].reverse().find((e) => e.name === name && (version === undefined || e.version === version));
  if (found === undefined) throw new Error(`no seed entry ${name}`);
  return structuredClone(found);
}

export interface Official {
  status?: 'active' | 'deprecated' | 'deleted';
  statusMessage?: string;
}

/** `ServerResponse`: the entry and the registry's metadata (times made up). */
export function envelope(server: ServerJson, official: Official = {}): object {
  return {
    server,
    _meta: {
      'io.modelcontextprotocol.registry/official': {
        status: official.status ?? 'active',
        ...(official.statusMessage === undefined ? {} : { statusMessage: official.statusMessage }),
        publishedAt: '2026-07-01T10:00:00Z',
        updatedAt: '2026-07-01T10:00:00Z',
        isLatest: true,
      },
    },
  };
}

/** The path the fixture server sees (decoded) for one entry. */
export function entryPath(name: string, version = 'latest'): string {
  return `/mcp-registry/v0.1/servers/${name}/versions/${version}`;
}

export function serveEntry(server: FixtureServer, entry: ServerJson, official: Official = {}, version = 'latest'): void {
  server.expect('GET', entryPath(entry.name, version), { body: envelope(entry, official) });
}

/**
 * `GET /v0.1/servers?search=…&version=latest`: a substring match on the name over `entries`,
 * `pageSize` per page, the cursor being the last entry's `name:version` (the docs' example).
 */
export function searchHandler(entries: readonly ServerJson[], pageSize: number): RouteHandler {
  return (_req, res, { url }) => {
    const word = url.searchParams.get('search') ?? '';
    const matching = entries.filter((e) => e.name.includes(word));
    const cursor = url.searchParams.get('cursor');
    const start = cursor === null ? 0 : matching.findIndex((e) => `${e.name}:${e.version}` === cursor) + 1;
    const page = matching.slice(start, start + pageSize);
    const last = page.at(-1);
    const more = start + pageSize < matching.length && last !== undefined;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ servers: page.map((e) => envelope(e)), metadata: { count: page.length, ...(more ? { nextCursor: `${last.name}:${last.version}` } : {}) } }));
  };
}

/**
 * An MCP Registry entry to compare, served with its registry search down: a real entry's shape
 * named `io.github.nerq-fixtures/weather-forecast`, its one npm package `nerq-alt-target`
 * (test/support/peers.ts), no repository. Returns the entry's name.
 */
export function serveEntryWithSearchDown(server: FixtureServer): string {
  const entry = seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3');
  entry.name = 'io.github.nerq-fixtures/weather-forecast';
  entry.description = 'Weather forecasts for any city';
  delete entry.repository;
  entry.packages = [{ registryType: 'npm', identifier: 'nerq-alt-target', version: '1.0.0', transport: { type: 'stdio' } }];
  serveEntry(server, entry);
  server.expect('GET', '/mcp-registry/v0.1/servers', { status: 503 });
  return entry.name;
}

/** The recorded nerq-fixture-bare packument, its 1.0.0 given `mcpName` (none: as recorded). */
export function nerqFixtureBareWith(mcpName: string | undefined): string {
  const packument = JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures', 'http', 'npm', 'nerq-fixture-bare.json'), 'utf8')) as {
    versions: Record<string, Record<string, unknown>>;
  };
  if (mcpName !== undefined) (packument.versions['1.0.0'] as Record<string, unknown>).mcpName = mcpName;
  return JSON.stringify(packument);
}

/** An edit of the real airtable entry: its npm package replaced by the recorded nerq-fixture-bare. */
export function entryWithBarePackage(name: string): ServerJson {
  const entry = seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3');
  entry.name = name;
  entry.packages = [{ registryType: 'npm', identifier: 'nerq-fixture-bare', version: '1.0.0', transport: { type: 'stdio' } }];
  return entry;
}
