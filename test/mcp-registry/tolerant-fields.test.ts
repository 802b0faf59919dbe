/**
 * A member the MCP Registry client only shows or lists, of an unexpected shape, never makes the
 * whole entry unreadable (it is read as absent, or cut), while a member a check judges keeps its
 * strict shape: an entry whose arguments cannot be read is unavailable, never read without them.
 * Each case is an edit of a real seed entry (fixtures/mcp-registry/seed.json), said so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fetchServerEntry, type EntryResult } from '../../src/sources/mcp-registry/read.js';
import { useFixtureServers, type FixtureServer } from '../support/fixture-server.js';
import { testClient } from '../github/helpers.js';
import { entryPath, seedEntry } from '../cli/mcp-helpers.js';

const NAME = 'io.github.domdomegg/airtable-mcp-server';
const OFFICIAL = 'io.modelcontextprotocol.registry/official';

let server: FixtureServer | undefined;
const startServer = useFixtureServers();
afterEach(() => {
  server = undefined;
});

type Entry = Record<string, unknown> & { packages: Record<string, unknown>[]; remotes?: Record<string, unknown>[] };

async function read(edit: (entry: Entry) => void, official: Record<string, unknown> = { status: 'active' }): Promise<EntryResult> {
  server = await startServer();
  const entry = seedEntry(NAME, '1.7.3') as unknown as Entry;
  edit(entry);
  server.expect('GET', entryPath(NAME), { body: { server: entry, _meta: { [OFFICIAL]: official } } });
  return fetchServerEntry({ http: testClient().http, base: server.url('mcp-registry') }, NAME, 'latest');
}

function ok(result: EntryResult) {
  if (result.status !== 'ok') throw new Error(`${result.status}: ${result.reason}`);
  return result.entry;
}

const LONG = 'x'.repeat(5000);
const REMOTE = { type: 'streamable-http', url: 'https://airtable.example/mcp' };

describe('members nerq only shows or lists, of an unexpected shape', () => {
  it.each([
    ['a description over 4096 characters: cut', (e: Entry) => { e.description = LONG; }, (r: ReturnType<typeof ok>) => r.server.description?.length, 4096],
    ['a title of another type: absent', (e: Entry) => { e.title = { en: 'Airtable' }; }, (r: ReturnType<typeof ok>) => r.server.title, undefined],
    ['a websiteUrl over 2048 characters: absent', (e: Entry) => { e.websiteUrl = `https://example.com/${LONG}`; }, (r: ReturnType<typeof ok>) => r.server.websiteUrl, undefined],
    ['a repository source of another type: absent, its URL still read', (e: Entry) => { e.repository = { ...(e.repository as object), source: 7 }; }, (r: ReturnType<typeof ok>) => [r.server.repository?.source, r.server.repository?.url], [undefined, 'https://github.com/domdomegg/airtable-mcp-server.git']],
    ['an argument default written as a number: its decimal text (the schema\'s rule for inputs)', (e: Entry) => { e.packages[0]!.packageArguments = [{ type: 'named', name: '--port', default: 8080 }]; }, (r: ReturnType<typeof ok>) => r.server.packages?.[0]?.packageArguments?.[0]?.default, '8080'],
    ['an argument isSecret written as text: absent', (e: Entry) => { e.packages[0]!.packageArguments = [{ type: 'named', name: '--key', isSecret: 'yes' }]; }, (r: ReturnType<typeof ok>) => r.server.packages?.[0]?.packageArguments?.[0]?.isSecret, undefined],
    ['an environment variable with no name (it cannot be set): left out, the others read', (e: Entry) => { e.packages[0]!.environmentVariables = [{ description: 'orphan' }, { name: 'AIRTABLE_API_KEY', isSecret: true }]; }, (r: ReturnType<typeof ok>) => r.server.packages?.[0]?.environmentVariables?.map((v) => [v.name, v.isSecret]), [['AIRTABLE_API_KEY', true]]],
    ['an environment variable isRequired written as text: absent', (e: Entry) => { e.packages[0]!.environmentVariables = [{ name: 'A', isRequired: 'true' }]; }, (r: ReturnType<typeof ok>) => r.server.packages?.[0]?.environmentVariables?.[0]?.isRequired, undefined],
    ['a remote\'s headers written as a map: none', (e: Entry) => { e.remotes = [{ ...REMOTE, headers: { Authorization: 'Bearer {token}' } }]; }, (r: ReturnType<typeof ok>) => [r.server.remotes?.[0]?.url, r.server.remotes?.[0]?.headers], [REMOTE.url, undefined]],
    ['a remote\'s header with no name: left out', (e: Entry) => { e.remotes = [{ ...REMOTE, headers: [{ description: 'x' }, { name: 'X-Key', isSecret: true }] }]; }, (r: ReturnType<typeof ok>) => r.server.remotes?.[0]?.headers?.map((h) => h.name), ['X-Key']],
  ])('%s', async (_label, edit, pick, expected) => {
    expect(pick(ok(await read(edit)))).toEqual(expected);
  });

  it('a status word over 64 characters: cut (the status check names it as unknown to nerq), not refused', async () => {
    const entry = ok(await read(() => undefined, { status: `retired-${LONG}` }));
    expect(entry.official?.status).toHaveLength(64);
  });
});

describe('members a check judges keep their shape: the entry is unavailable, never read without them', () => {
  it.each([
    ['an argument written as a bare word', (e: Entry) => { e.packages[0]!.runtimeArguments = ['--privileged']; }],
    ['arguments written as a map', (e: Entry) => { e.packages[0]!.runtimeArguments = { '--privileged': true }; }],
    ['a package with no identifier', (e: Entry) => { delete e.packages[0]!.identifier; }],
  ])('%s', async (_label, edit) => {
    expect((await read(edit)).status).toBe('unavailable');
  });
});
