/**
 * The MCP Registry client against the fixture server, with faults: every bad answer is
 * `unavailable` (or `not-found`) with a one-line reason, never a throw; the search follows the
 * cursor, stops on a repeated one and after five pages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ENTRY_MAX_BYTES, fetchServerEntry, searchServers, SEARCH_MAX_PAGES } from '../../src/sources/mcp-registry/read.js';
import { useFixtureServers, type FixtureServer } from '../support/fixture-server.js';
import { testClient } from '../github/helpers.js';
import { entryPath, envelope, searchHandler, seedEntry, SEED_2025, type ServerJson } from '../cli/mcp-helpers.js';

let server: FixtureServer | undefined;
const startServer = useFixtureServers();
afterEach(() => {
  server = undefined;
});

async function ctx() {
  server = await startServer();
  return { server, read: { http: testClient().http, base: server.url('mcp-registry') } };
}

const NAME = 'io.github.domdomegg/time-mcp-pypi';

describe('fetchServerEntry', () => {
  it('reads the entry and its status; the name travels as one encoded segment', async () => {
    const { server: s, read } = await ctx();
    s.expect('GET', entryPath(NAME), { body: envelope(seedEntry(NAME), { status: 'deprecated', statusMessage: 'moved' }) });
    const result = await fetchServerEntry(read, NAME, 'latest');
    expect(result).toMatchObject({ status: 'ok', entry: { server: { name: NAME, version: '1.0.6' }, official: { status: 'deprecated', statusMessage: 'moved' } } });
    expect(s.requests[0]?.path).toBe('/mcp-registry/v0.1/servers/io.github.domdomegg%2ftime-mcp-pypi/versions/latest');
  });

  it('null in an optional member is read as absent, and members nerq does not read (a transport written as a word, icons, publisher _meta) are ignored: the entry stays readable', async () => {
    const { server: s, read } = await ctx();
    // Edits of the real seed entry: nulls where the registry omits members, and an older transport shape.
    const entry = seedEntry(NAME) as unknown as Record<string, unknown> & { packages: Record<string, unknown>[] };
    const edited = {
      ...entry,
      description: null,
      websiteUrl: null,
      remotes: null,
      icons: [{ src: 'https://example.com/i.png', sizes: ['48x48'] }],
      _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tool: 'x' } },
      packages: entry.packages.map((p) => ({ ...p, registryBaseUrl: null, transport: 'stdio', environmentVariables: null, runtimeHint: null })),
    };
    s.expect('GET', entryPath(NAME), { body: { server: edited, _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', statusMessage: null, isLatest: null } } } });
    const result = await fetchServerEntry(read, NAME, 'latest');
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.entry.server.description).toBeUndefined();
    expect(result.entry.server.remotes).toBeUndefined();
    expect(result.entry.server.packages?.[0]).toMatchObject({ registryType: 'pypi', identifier: 'time-mcp-pypi' });
    expect(result.entry.server.packages?.[0]?.registryBaseUrl).toBeUndefined();
    expect(result.entry.official).toMatchObject({ status: 'active' });
    expect(result.entry.official?.statusMessage).toBeUndefined();
  });

  it('repository.id: the real seed\'s string is read as written, a number (edit) alike, another shape (edit) as absent — the entry stays readable', async () => {
    const { server: s, read } = await ctx();
    const real = SEED_2025.find((e) => e.name === 'io.github.executeautomation/mcp-playwright');
    if (real === undefined) throw new Error('no seed entry');
    // Each served as the version asked for (an answer for another version is refused).
    const withId = (version: string, id: unknown) => ({ ...structuredClone(real), version, repository: { ...(real.repository as object), id } });
    s.expect('GET', entryPath(real.name, '1'), { body: envelope({ ...structuredClone(real), version: '1' }) });
    s.expect('GET', entryPath(real.name, '2'), { body: envelope(withId('2', 898077246)) });
    s.expect('GET', entryPath(real.name, '3'), { body: envelope(withId('3', { forge: 898077246 })) });
    const ids = [];
    for (const version of ['1', '2', '3']) {
      const result = await fetchServerEntry(read, real.name, version);
      if (result.status !== 'ok') throw new Error(result.reason);
      ids.push(result.entry.server.repository?.id);
    }
    expect(ids).toEqual(['898077246', '898077246', undefined]);
  });

  it.each([
    ['404', { status: 404, body: { error: 'Server not found' } }, 'not-found'],
    ['500 after retries', { status: 500 }, 'unavailable'],
    ['malformed JSON', { malformed: true }, 'unavailable'],
    ['another shape', { body: { servers: [] } }, 'unavailable'],
    ['a body over the cap', { body: { server: seedEntry(NAME), pad: 'x'.repeat(ENTRY_MAX_BYTES) } }, 'unavailable'],
    ['a truncated body', { body: envelope(seedEntry(NAME)), truncate: 20 }, 'unavailable'],
    ['deleted', { body: envelope(seedEntry(NAME), { status: 'deleted' }) }, 'not-found'],
    ['an answer for another server', { body: envelope(seedEntry('io.github.domdomegg/time-mcp-nuget')) }, 'unavailable'],
    ['the latest asked, a version the registry marks not latest', { body: { server: seedEntry(NAME), _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', isLatest: false } } } }, 'unavailable'],
    ['a package list that is not a list', { body: { server: { ...seedEntry(NAME), packages: { registryType: 'npm' } } } }, 'unavailable'],
  ] as const)('%s → %s, one line', async (_name, response, status) => {
    const { server: s, read } = await ctx();
    s.expect('GET', entryPath(NAME), response);
    const result = await fetchServerEntry(read, NAME, 'latest');
    expect(result.status).toBe(status);
    if (result.status !== 'ok') expect(result.reason).not.toContain('\n');
  });
});

describe('searchServers', () => {
  it('follows the cursor to the end: 164 matches at 100 a page is two requests', async () => {
    const { server: s, read } = await ctx();
    s.route('GET', '/mcp-registry/v0.1/servers', searchHandler(SEED_2025, 100));
    const result = await searchServers(read, 'server');
    expect(result).toMatchObject({ status: 'ok', pages: 2, complete: true, cursorRepeated: false });
    if (result.status === 'ok') expect(result.entries).toHaveLength(164);
    expect(s.requests.map((r) => new URL(r.path, 'http://x').searchParams.get('version'))).toEqual(['latest', 'latest']);
  });

  it('stops after five pages and says the list is incomplete', async () => {
    const { server: s, read } = await ctx();
    s.route('GET', '/mcp-registry/v0.1/servers', searchHandler(SEED_2025, 10));
    const result = await searchServers(read, 'mcp');
    expect(result).toMatchObject({ status: 'ok', pages: SEARCH_MAX_PAGES, complete: false });
    expect(s.requests).toHaveLength(SEARCH_MAX_PAGES);
  });

  it('a cursor the registry repeats ends the search instead of looping, and the list is then not complete', async () => {
    const { server: s, read } = await ctx();
    s.route('GET', '/mcp-registry/v0.1/servers', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ servers: [envelope(seedEntry(NAME))], metadata: { nextCursor: 'same:1', count: 1 } }));
    });
    const result = await searchServers(read, 'time');
    expect(result).toMatchObject({ status: 'ok', pages: 2, complete: false, cursorRepeated: true });
    expect(s.requests).toHaveLength(2);
  });

  it('deleted entries are left out; a bad page makes the search unavailable', async () => {
    const { server: s, read } = await ctx();
    s.expect('GET', '/mcp-registry/v0.1/servers', {
      times: 1,
      body: { servers: [envelope(seedEntry(NAME), { status: 'deleted' }), envelope(seedEntry('io.github.domdomegg/time-mcp-nuget'))], metadata: { count: 2 } },
    });
    const result = await searchServers(read, 'time');
    expect(result.status === 'ok' ? result.entries.map((e) => e.server.name) : []).toEqual(['io.github.domdomegg/time-mcp-nuget']);
    s.expect('GET', '/mcp-registry/v0.1/servers', { body: { servers: 'nope' } });
    expect((await searchServers(read, 'time')).status).toBe('unavailable');
  });

  it('one entry of a page nerq cannot read is left out, not the whole search: the list is then not complete; a page of only such entries is unavailable', async () => {
    const { server: s, read } = await ctx();
    // Edit of a real seed entry: a remote without its URL (a shape nerq refuses for an entry it evaluates).
    const odd = { ...seedEntry(NAME), name: 'io.github.domdomegg/time-mcp-odd', remotes: [{ type: 'sse' }] } as unknown as ServerJson;
    s.expect('GET', '/mcp-registry/v0.1/servers', {
      times: 1,
      body: { servers: [envelope(odd), envelope(seedEntry('io.github.domdomegg/time-mcp-nuget'))], metadata: { count: 2 } },
    });
    const result = await searchServers(read, 'time');
    expect(result).toMatchObject({ status: 'ok', complete: false, unreadable: 1 });
    expect(result.status === 'ok' ? result.entries.map((e) => e.server.name) : []).toEqual(['io.github.domdomegg/time-mcp-nuget']);
    s.expect('GET', '/mcp-registry/v0.1/servers', { body: { servers: [envelope(odd)], metadata: { count: 1 } } });
    expect((await searchServers(read, 'time')).status).toBe('unavailable');
  });
});
