/**
 * Probe shapes: one member of a real seed entry (fixtures/mcp-registry/seed.json) written in an
 * unexpected shape, each read through the registry answer's schema. A member nerq only shows is
 * read as absent or cut; a member a check judges is read so that the check says it could not
 * judge it (tolerant-fields.test.ts and the tests named below prove what each reading gives).
 *
 * The shapes that still make the whole entry unreadable (`registry-unavailable`), and why:
 *
 * - an argument's value over 2048 characters or its name over 256, an argument written as a bare
 *   word, arguments written as a map: the arguments are what a client runs (the runner's own
 *   flags, a container's reach, a proxy's URL); reading around one argument could hide the very
 *   flag that widens its reach or makes the runner run other code, so an entry whose arguments
 *   cannot be read whole is not read at all;
 * - over 64 packages: every package is judged; reading only the first 64 would leave the 65th,
 *   which the client still installs, unjudged;
 * - a server version over 255 characters: the version names which entry this is (it is compared
 *   with the version asked for, and keys the history); a cut one would name another entry, and
 *   the registry's own schema allows at most 255.
 */
import { describe, expect, it } from 'vitest';
import { McpServerResponseSchema } from '../../src/sources/mcp-registry/schema.js';
import { seedEntry } from '../cli/mcp-helpers.js';

type Entry = Record<string, unknown> & { packages: Record<string, unknown>[]; remotes?: Record<string, unknown>[] };
type Edit = (entry: Entry) => void;

const NAME = 'io.github.domdomegg/airtable-mcp-server';
const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const REMOTE = { type: 'streamable-http', url: 'https://airtable.example/mcp' };
const x = (n: number) => 'x'.repeat(n);
const pkg = (e: Entry) => e.packages[0]!;

function parse(edit: Edit, official: Record<string, unknown> = { status: 'active' }) {
  const entry = seedEntry(NAME, '1.7.3') as unknown as Entry;
  edit(entry);
  return McpServerResponseSchema.safeParse({ server: entry, _meta: { [OFFICIAL]: official } });
}

/** Each shape: read (the entry readable) or refused (the entry unavailable; justified above). */
const SHAPES: [string, Edit, 'read' | 'refused'][] = [
  ['an argument default written as a number', (e) => { pkg(e).packageArguments = [{ type: 'named', name: '--port', default: 8080 }]; }, 'read'],
  ['an argument value over 2048 characters', (e) => { pkg(e).packageArguments = [{ type: 'positional', value: x(3000) }]; }, 'refused'],
  ['an argument isSecret written as text', (e) => { pkg(e).packageArguments = [{ type: 'named', name: '--k', isSecret: 'true' }]; }, 'read'],
  ['an argument name over 256 characters', (e) => { pkg(e).packageArguments = [{ type: 'named', name: x(300) }]; }, 'refused'],
  ['an environment variable with no name', (e) => { pkg(e).environmentVariables = [{ description: 'x' }]; }, 'read'],
  ['an environment variable isRequired written as text', (e) => { pkg(e).environmentVariables = [{ name: 'A', isRequired: 'yes' }]; }, 'read'],
  ['an environment variable description over 4096 characters', (e) => { pkg(e).environmentVariables = [{ name: 'A', description: x(5000) }]; }, 'read'],
  ['a remote header with no name', (e) => { e.remotes = [{ ...REMOTE, headers: [{ description: 'x' }] }]; }, 'read'],
  ['a remote\'s headers written as a map', (e) => { e.remotes = [{ ...REMOTE, headers: { Authorization: 'x' } }]; }, 'read'],
  ['a remote\'s variables', (e) => { e.remotes = [{ ...REMOTE, variables: { t: { isRequired: true } } }]; }, 'read'],
  ['a description over 4096 characters', (e) => { e.description = x(5000); }, 'read'],
  ['a title over 256 characters', (e) => { e.title = x(300); }, 'read'],
  ['a websiteUrl over 2048 characters', (e) => { e.websiteUrl = `https://a.example/${x(3000)}`; }, 'read'],
  ['a repository written as a URL string', (e) => { e.repository = 'https://github.com/domdomegg/airtable-mcp-server'; }, 'read'],
  ['a repository written as another string', (e) => { e.repository = 'domdomegg/airtable-mcp-server'; }, 'read'],
  ['a repository written as a list', (e) => { e.repository = ['https://github.com/domdomegg/airtable-mcp-server']; }, 'read'],
  ['a repository url written as a number', (e) => { e.repository = { url: 7, source: 'github' }; }, 'read'],
  ['a repository url over 2048 characters', (e) => { e.repository = { url: `https://github.com/${x(3000)}`, source: 'github' }; }, 'read'],
  ['a repository source over 64 characters', (e) => { e.repository = { url: 'https://github.com/a/b', source: x(100) }; }, 'read'],
  ['over 64 packages', (e) => { e.packages = Array.from({ length: 65 }, () => pkg(e)); }, 'refused'],
  ['a runtimeHint over 64 characters', (e) => { pkg(e).runtimeHint = x(100); }, 'read'],
  ['a runtimeHint written as a number', (e) => { pkg(e).runtimeHint = 7; }, 'read'],
  ['a fileSha256 over 128 characters', (e) => { pkg(e).fileSha256 = x(200); }, 'read'],
  ['a fileSha256 written as a number', (e) => { pkg(e).fileSha256 = 12345; }, 'read'],
  ['a package version written as a number', (e) => { pkg(e).version = 1; }, 'read'],
  ['a package version over 255 characters', (e) => { pkg(e).version = x(300); }, 'read'],
  ['package arguments written as a map', (e) => { pkg(e).packageArguments = { a: 1 }; }, 'refused'],
  ['a package argument written as a bare word', (e) => { pkg(e).packageArguments = ['--x']; }, 'refused'],
  ['a server version over 255 characters', (e) => { e.version = x(300); }, 'refused'],
  ['a registryBaseUrl over 512 characters', (e) => { pkg(e).registryBaseUrl = `https://${x(600)}`; }, 'read'],
  ['a registryBaseUrl written as an object', (e) => { pkg(e).registryBaseUrl = { url: 'https://registry.example' }; }, 'read'],
  ['icons written as text', (e) => { e.icons = 'x'; }, 'read'],
];

describe('probe shapes: which make the whole entry unreadable', () => {
  it.each(SHAPES)('%s', (_label, edit, expected) => {
    const result = parse(edit);
    expect(result.success ? 'read' : 'refused', result.success ? '' : JSON.stringify(result.error.issues[0]?.path)).toBe(expected);
  });

  it('a status word over 64 characters is read (cut)', () => {
    expect(parse(() => undefined, { status: x(100) }).success).toBe(true);
  });
});

describe('a repository written another way', () => {
  const repositoryOf = (edit: Edit) => {
    const result = parse(edit);
    if (!result.success) throw new Error(JSON.stringify(result.error.issues[0]));
    return result.data.server.repository;
  };
  it.each<[string, unknown, string | undefined]>([
    ['a URL string: its URL', 'https://github.com/domdomegg/airtable-mcp-server', 'https://github.com/domdomegg/airtable-mcp-server'],
    ['a URL string with spaces around: its URL, trimmed', '  https://github.com/domdomegg/airtable-mcp-server.git ', 'https://github.com/domdomegg/airtable-mcp-server.git'],
    ['owner/name, no URL: absent (never guessed to be on GitHub)', 'domdomegg/airtable-mcp-server', undefined],
    ['a scheme nerq does not read as a repository URL: absent', 'javascript:alert(1)', undefined],
    ['a list: absent', ['https://github.com/domdomegg/airtable-mcp-server'], undefined],
    ['a number: absent', 7, undefined],
    ['a URL string over 2048 characters: absent', `https://github.com/${x(3000)}`, undefined],
  ])('%s', (_label, written, url) => {
    expect(repositoryOf((e) => { e.repository = written; })?.url).toBe(url);
  });

  it('an object whose url is not text, or over 2048 characters: its url absent, its id still read', () => {
    expect(repositoryOf((e) => { e.repository = { url: 7, id: '12345' }; })).toMatchObject({ url: undefined, id: '12345' });
    expect(repositoryOf((e) => { e.repository = { url: `https://github.com/${x(3000)}`, id: '12345' }; })).toMatchObject({ url: undefined, id: '12345' });
  });
});

describe('a package member a check judges, of a shape nerq cannot read: named in unreadable, never cut nor defaulted', () => {
  const packageOf = (edit: Edit) => {
    const result = parse(edit);
    if (!result.success) throw new Error(JSON.stringify(result.error.issues[0]));
    return result.data.server.packages?.[0];
  };
  it.each<[string, Edit, Record<string, unknown>]>([
    ['a version written as a number', (e) => { pkg(e).version = 1; }, { version: undefined, unreadable: ['version (a number, not text)'] }],
    ['a version over 255 characters', (e) => { pkg(e).version = x(300); }, { version: undefined, unreadable: ['version (over 255 characters)'] }],
    ['a runtimeHint over 64 characters', (e) => { pkg(e).runtimeHint = x(100); }, { runtimeHint: undefined, unreadable: ['runtimeHint (over 64 characters)'] }],
    ['a registryBaseUrl written as a list', (e) => { pkg(e).registryBaseUrl = ['https://registry.example']; }, { registryBaseUrl: undefined, unreadable: ['registryBaseUrl (a list, not text)'] }],
    ['null members: absent, as before', (e) => { Object.assign(pkg(e), { version: null, runtimeHint: null, registryBaseUrl: null }); }, { version: undefined, unreadable: [] }],
    ['the seed as written: nothing unreadable', () => undefined, { version: '1.7.3', unreadable: [] }],
  ])('%s', (_label, edit, expected) => {
    expect(packageOf(edit)).toMatchObject(expected);
  });
});
