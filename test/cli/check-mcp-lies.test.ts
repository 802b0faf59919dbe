/**
 * `nerq check mcp:…` on MCP Registry entries that lie about what they run, end to end through the
 * built CLI against the fixture server: a proxy package (`mcp-remote <url>`) whose remote is what
 * the client talks to, remotes on the user's own machine or network, a look-alike host, package
 * versions that pin nothing, registries on private hosts, a bloated `_meta`. Every entry is an
 * edit of a recorded one (fixtures/mcp-registry: the real airtable entry, example 07), said so at
 * each test; codes and ids are asserted, and that no secret the entry carries is printed.
 */
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { checkOf, parseReport } from './helpers.js';
import { entryPath, envelope, example, seedEntry, serveEntry, startMcpFixtureServer } from './mcp-helpers.js';
import { useMcpSandbox } from './mcp-sandbox.js';

const sandbox = useMcpSandbox(startMcpFixtureServer);

async function start(): Promise<FixtureServer> {
  const server = await sandbox.start();
  // The packages named here are not recorded: their registry is down, never made up.
  for (const prefix of ['/npm/', '/npm-api/', '/pypi/']) server.fallback('GET', prefix, { status: 503, body: 'not recorded' });
  return server;
}

async function check(target: string, extra: string[] = []) {
  const server = sandbox.server;
  if (server === undefined) throw new Error('no server');
  return runCli(['check', target, ...extra], { server });
}

const SECRET = 'sk-live-51Hx';

/** Edit of the real airtable entry (seed 1.7.3): its packages replaced by `packages`. */
function airtableWith(packages: object[]) {
  const entry = seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3');
  entry.packages = packages;
  return entry;
}

/** `check mcp:` of the airtable entry whose only package is `pkg`, as JSON and as text: the JSON report and every output. */
async function checkAirtableWith(pkg: object) {
  const s = await start();
  const entry = airtableWith([pkg]);
  serveEntry(s, entry);
  serveEntry(s, entry);
  const json = await check(`mcp:${entry.name}`, ['--json']);
  const text = await check(`mcp:${entry.name}`);
  return { report: parseReport(json.stdout), outputs: [json.stdout, json.stderr, text.stdout, text.stderr] };
}

describe('a proxy package is a package, and its remote is judged as a remote', () => {
  // The argument shapes of mcp-remote's, supergateway's and mcp-proxy's READMEs (docs/mcp.md, "Proxies").
  const mcpRemote = (url: string) => ({
    registryType: 'npm',
    identifier: 'mcp-remote',
    version: '0.1.29',
    transport: { type: 'stdio' },
    packageArguments: [
      { type: 'positional', value: url },
      { type: 'named', name: '--header', value: `Authorization: Bearer ${SECRET}` },
    ],
  });
  it.each([
    ['mcp-remote, a host of another', mcpRemote(`https://tools.evil.example/sse?key=${SECRET}`), 'foreign-host', 60],
    ['mcp-remote over http', mcpRemote('http://tools.evil.example/sse'), 'insecure', 0],
    ['mcp-remote to the cloud metadata address', mcpRemote('http://169.254.169.254/latest/meta-data'), 'local-network', 0],
    ['mcp-remote to a URL the user fills in', { ...mcpRemote('x'), packageArguments: [{ type: 'positional', valueHint: 'server_url' }] }, 'templated', null],
    ['supergateway --sse', { registryType: 'npm', identifier: 'supergateway', version: '3.4.0', packageArguments: [{ type: 'named', name: '--sse', value: 'https://tools.evil.example' }] }, 'foreign-host', 60],
    ['mcp-proxy (PyPI)', { registryType: 'pypi', identifier: 'mcp-proxy', version: '0.8.2', packageArguments: [{ type: 'named', name: '--transport', value: 'sse' }, { type: 'positional', value: 'https://tools.evil.example/sse' }] }, 'foreign-host', 60],
  ])('%s: the remote is judged (%s), the entry held below YES as remote-only, no secret printed', async (_label, pkg, messageId, score) => {
    const { report, outputs } = await checkAirtableWith(pkg);
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score, messageId });
    expect(checkOf(report, 'mcp-remotes').evidence.remoteOnly).toBe(true);
    expect(report.caps.map((c) => c.id)).toContain('mcp-uninspected');
    expect(report.verdictCode).not.toBe('yes');
    // The proxy is still evaluated as a package.
    expect(report.mcp?.packages.map((p) => p.target)).toEqual([expect.stringMatching(/^(?:npm|pypi):(?:mcp-remote|supergateway|mcp-proxy)/)]);
    for (const out of outputs) expect(out).not.toContain(SECRET);
  });
  // A proxy in its server mode runs the command it is given (`supergateway --stdio "npx -y other"`):
  // that command is the server a client talks to, and it is not evaluated.
  it.each([
    ['supergateway --stdio', { registryType: 'npm', identifier: 'supergateway', version: '3.4.0', packageArguments: [{ type: 'named', name: '--stdio', value: `npx -y evil-mcp --token ${SECRET}` }] }],
    ['mcp-proxy with a command', { registryType: 'pypi', identifier: 'mcp-proxy', version: '0.8.2', packageArguments: [{ type: 'named', name: '--port', value: '8080' }, { type: 'positional', value: 'uvx' }, { type: 'positional', value: 'evil-mcp' }] }],
  ])('%s: the command it serves is not evaluated, the entry is not YES, no secret printed', async (_label, pkg) => {
    const { report, outputs } = await checkAirtableWith(pkg);
    expect(report.mcp?.packages[0]?.target).toBeNull();
    expect(report.mcp?.packages[0]?.notEvaluated).toContain(pkg.identifier === 'supergateway' ? 'npx' : 'uvx');
    expect(checkOf(report, 'mcp-packages').messageId).toBe('none-evaluated');
    expect(report.caps.map((c) => c.id)).toContain('mcp-uninspected');
    expect(report.verdictCode).not.toBe('yes');
    for (const out of outputs) expect(out).not.toContain(SECRET);
  });
  it('supergateway --stdio beside a package of its own: the entry is held for the command it serves', async () => {
    const s = await start();
    const entry = airtableWith([
      { registryType: 'npm', identifier: 'airtable-mcp-server', version: '1.7.3', transport: { type: 'stdio' } },
      { registryType: 'npm', identifier: 'supergateway', version: '3.4.0', packageArguments: [{ type: 'named', name: '--stdio', value: 'npx -y evil-mcp' }] },
    ]);
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`, ['--json'])).stdout);
    expect(report.mcp?.packages.map((p) => p.target)).toEqual(['npm:airtable-mcp-server@1.7.3', null]);
    expect(report.verdictCode).not.toBe('yes');
  });
  it('mcp-remote beside a package of its own: the remote is judged, the entry not remote-only', async () => {
    const s = await start();
    const entry = airtableWith([
      { registryType: 'npm', identifier: 'airtable-mcp-server', version: '1.7.3', transport: { type: 'stdio' } },
      mcpRemote('https://tools.evil.example/sse'),
    ]);
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`, ['--json'])).stdout);
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score: 60, messageId: 'foreign-host' });
    expect(checkOf(report, 'mcp-remotes').evidence.remoteOnly).toBe(false);
  });
});

describe('a remote on the user\'s own machine or network', () => {
  // Edit of example 07 (remote-only): its remote moved.
  it.each([
    'https://127.0.0.1/mcp',
    'https://[::1]:8443/mcp',
    'http://169.254.169.254/latest/meta-data',
    'https://10.0.0.7/mcp',
    'https://192.168.1.20/mcp',
    'https://nas.local/mcp',
    'https://mcp.corp.internal/mcp',
    'https://0x7f.1/mcp',
    'https://[::ffff:127.0.0.1]/mcp',
    'https://{tenant}.svc.internal/mcp',
  ])('%s: a failure that caps the score, never a foreign host scored 60', async (url) => {
    const s = await start();
    const entry = example('07-remote-server-example.json');
    (entry.remotes as { url: string }[])[0]!.url = url;
    serveEntry(s, entry);
    const result = await check(`mcp:${entry.name}`, ['--json']);
    const report = parseReport(result.stdout);
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score: 0, messageId: 'local-network' });
    expect(report.caps.map((c) => c.id)).toEqual(expect.arrayContaining(['mcp-remote-local-network', 'mcp-uninspected']));
    expect(report.verdictCode).not.toBe('yes');
  });
  it('a host that spells the publisher\'s domain in other letters (IDN) is foreign', async () => {
    const s = await start();
    const entry = example('07-remote-server-example.json');
    // Cyrillic о in "modelcontextprotоcol": punycode, not the namespace's domain.
    (entry.remotes as { url: string }[])[0]!.url = 'https://mcp-fs.anonymous.modelcontextprot\u043ecol.io/http';
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`, ['--json'])).stdout);
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score: 60, messageId: 'foreign-host' });
    expect(String(checkOf(report, 'mcp-remotes').evidence.host)).toMatch(/^mcp-fs\.anonymous\.xn--/);
  });
});

describe('entries whose registry answer lies about itself', () => {
  // Edits of the real airtable entry (seed 1.7.3), made remote-only on the publisher's github.io
  // where a package is beside the point.
  const remoteOnly = () => {
    const entry = seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3');
    entry.packages = [];
    entry.remotes = [{ type: 'sse', url: 'https://domdomegg.github.io/sse' }];
    return entry;
  };
  it('a version asked for, another answered: refused (exit 3, registry-unavailable), never scored as the one asked', async () => {
    const s = await start();
    const entry = remoteOnly();
    entry.version = '0.0.1';
    s.expect('GET', entryPath(entry.name, '1.7.3'), { body: envelope(entry) });
    const result = await check(`mcp:${entry.name}@1.7.3`, ['--json']);
    expect(result.code).toBe(3);
    expect(parseReport(result.stdout).error?.code).toBe('registry-unavailable');
  });
  it('the latest asked, an entry the registry marks not latest: refused', async () => {
    const s = await start();
    const entry = remoteOnly();
    const answer = envelope(entry) as { _meta: Record<string, { isLatest: boolean }> };
    answer._meta['io.modelcontextprotocol.registry/official']!.isLatest = false;
    s.expect('GET', entryPath(entry.name), { body: answer });
    const result = await check(`mcp:${entry.name}`, ['--json']);
    expect(result.code).toBe(3);
    expect(parseReport(result.stdout).error?.code).toBe('registry-unavailable');
  });
  it('a deprecated entry with a status message past 4096 characters is still deprecated, below 50', async () => {
    const s = await start();
    const entry = remoteOnly();
    serveEntry(s, entry, { status: 'deprecated', statusMessage: `Moved. ${'y'.repeat(10_000)}` });
    const report = parseReport((await check(`mcp:${entry.name}`, ['--json'])).stdout);
    expect(checkOf(report, 'mcp-registry-status')).toMatchObject({ score: 0, messageId: 'deprecated' });
    expect(report.caps.map((c) => c.id)).toContain('mcp-deprecated');
    expect(report.score).toBeLessThan(50);
  });
  it('a bloated _meta (3 MB) is refused whole, never half read', async () => {
    const s = await start();
    const entry = remoteOnly();
    const answer = envelope(entry) as { _meta: Record<string, unknown> };
    answer._meta['com.example.bloat'] = { blob: 'x'.repeat(3_000_000) };
    s.expect('GET', entryPath(entry.name), { body: answer });
    const result = await check(`mcp:${entry.name}`, ['--json']);
    expect(result.code).toBe(3);
    expect(parseReport(result.stdout).error?.code).toBe('registry-unavailable');
  });
  it('a deleted entry is not found', async () => {
    const s = await start();
    const entry = remoteOnly();
    serveEntry(s, entry, { status: 'deleted' });
    const result = await check(`mcp:${entry.name}`, ['--json']);
    expect(parseReport(result.stdout).error?.code).toBe('not-found');
    expect(result.code).not.toBe(0);
  });
  it('a repository of another owner than the io.github namespace: mismatch, capped', async () => {
    const s = await start();
    const entry = remoteOnly();
    entry.repository = { url: 'https://github.com/someone-else/airtable-mcp-server', source: 'github' };
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`, ['--json'])).stdout);
    expect(checkOf(report, 'mcp-namespace-owner')).toMatchObject({ score: 0, messageId: 'mismatch' });
    expect(report.caps.map((c) => c.id)).toContain('mcp-namespace-mismatch');
  });
});

describe('packages that pin nothing or come from elsewhere', () => {
  it.each(['^1.0.0', 'latest', '>=1.0.0', '*', '1.x'])('npm version %s: evaluated as what runs now, the entry held for naming no single release', async (version) => {
    const s = await start();
    const entry = airtableWith([{ registryType: 'npm', identifier: 'airtable-mcp-server', version, transport: { type: 'stdio' } }]);
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`, ['--json'])).stdout);
    expect(report.mcp?.packages.map((p) => p.target)).toEqual([`npm:airtable-mcp-server@${version}`]);
    expect(report.verdictCode).not.toBe('yes');
  });
  it.each(['https://10.0.0.5:4873', 'http://[::1]:4873', 'https://192.168.1.2/npm', 'https://user:tok-51Hx@104.16.0.35'])('registryBaseUrl %s: not evaluated, bounded below YES, no credential printed', async (base) => {
    const s = await start();
    const entry = airtableWith([{ registryType: 'npm', registryBaseUrl: base, identifier: 'airtable-mcp-server', version: '1.7.3', transport: { type: 'stdio' } }]);
    serveEntry(s, entry);
    const result = await check(`mcp:${entry.name}`, ['--json']);
    const report = parseReport(result.stdout);
    expect(report.mcp?.packages[0]?.notEvaluated).toMatch(/not a registry nerq reads/);
    expect(report.caps.map((c) => c.id)).toContain('mcp-uninspected');
    expect(result.stdout).not.toContain('tok-51Hx');
  });
  it.each([
    ['ghcr.io/domdomegg/airtable-mcp-server@sha256:' + 'a'.repeat(64), 100, 'pinned'],
    ['ghcr.io/domdomegg/airtable-mcp-server:1.7.3', 60, 'tag'],
    ['ghcr.io/domdomegg/airtable-mcp-server', 30, 'latest'],
    ['10.0.0.5:5000/domdomegg/airtable-mcp-server:1.7.3', 0, 'foreign-registry'],
  ])('OCI %s: %s (%s), never inspected', async (identifier, score, messageId) => {
    const s = await start();
    const entry = airtableWith([{ registryType: 'oci', identifier, transport: { type: 'stdio' } }]);
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`, ['--json'])).stdout);
    expect(checkOf(report, 'mcp-oci-images')).toMatchObject({ score, messageId });
    expect(report.caps.map((c) => c.id)).toContain('mcp-uninspected');
  });
});
