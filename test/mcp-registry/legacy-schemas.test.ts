/**
 * MCP Registry entries of every server.json schema version the registry has published, read as
 * `mcp:` targets in process against the fixture server (every source but the registry down):
 * the real seed entries the registry served in each shape (fixtures/mcp-registry/legacy/, their
 * sources in fixtures/PROVENANCE.md) — pre-release (2025-05: `registry_name`, package `name`,
 * `version_detail`, remote `transport_type`), 2025-09-01 (snake_case, `version_detail`),
 * schema 2025-07-09 (snake_case) and 2025-09-16 (camelCase, status inside server.json) — each
 * served both in the current answer (`{ server, _meta }`) and as the registry answered then
 * (the bare entry, its registry metadata inside its own `_meta`). Each entry is evaluated (never
 * an unreadable answer), its packages and remotes read in the current spelling, its verdict the
 * one the same entry in the current schema gets.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { DEFAULT_NOW, REPO_ROOT } from '../support/run-cli.js';
import { envelope, entryPath, example, type ServerJson } from '../cli/mcp-helpers.js';

const NOW = new Date(DEFAULT_NOW);
const LEGACY = path.join(REPO_ROOT, 'fixtures', 'mcp-registry', 'legacy');
const seed = (file: string): ServerJson[] => JSON.parse(readFileSync(path.join(LEGACY, file), 'utf8')) as ServerJson[];

let harness: AppHarness;
beforeEach(async () => {
  harness = await startAppHarness('nerq-legacy-schemas-', NOW);
  for (const prefix of ['npm', 'npm-api', 'pypi', 'pypistats', 'github', 'osv']) {
    harness.server.fallback('GET', `/${prefix}/`, { status: 503, body: 'down' });
    harness.server.fallback('POST', `/${prefix}/`, { status: 503, body: 'down' });
  }
});
afterEach(() => harness.stop());

async function evaluate(name: string): Promise<Report> {
  const [outcome] = await checkTargets(harness.runtime(), { targets: [parseTarget(`mcp:${name}`)], gate: DEFAULT_GATE, now: NOW });
  const parsed = ReportSchema.safeParse(JSON.parse(JSON.stringify(outcome!.report)));
  expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues[0])}`).toBe(true);
  return parsed.data!;
}

const capIds = (report: Report): string[] => report.caps.map((c) => c.id);
const check = (report: Report, id: string) => report.checks.find((c) => c.id === id);

interface Expected {
  name: string;
  version: string;
  packages: [registryType: string, identifier: string, version: string | null][];
  remotes: [type: string, url: string][];
  /** The cap the world of this test puts on it (nothing inspected, or a remote on this machine). */
  cap: string;
}

const MAGIC: Expected = { name: 'io.github.21st-dev/magic-mcp', version: '0.0.1-seed', packages: [['npm', '@21st-dev/magic', '0.0.46']], remotes: [], cap: 'mcp-package-unavailable' };
const IOTDB: Expected = { name: 'io.github.apache/iotdb', version: '0.0.1-seed', packages: [['oci', 'apache/iotdb', '2.0.5']], remotes: [], cap: 'mcp-uninspected' };
const CLOUDFLARE_SSE: [string, string][] = [
  ['sse', 'https://observability.mcp.cloudflare.com/sse'],
  ['sse', 'https://bindings.mcp.cloudflare.com/sse'],
];

const ERAS: { file: string; shape: string; entries: Expected[]; statusInside: boolean }[] = [
  {
    file: 'seed-2025-05-16.json',
    shape: 'pre-release: registry_name, package name, version_detail, transport_type',
    statusInside: false,
    entries: [
      MAGIC,
      { name: 'io.github.adfin-engineering/mcp-server-adfin', version: '0.0.1-seed', packages: [['pypi', 'adfinmcp', '0.1.0']], remotes: [], cap: 'mcp-package-unavailable' },
      // `docker` was the registry's name for an OCI image on Docker Hub.
      { name: 'io.github.its-dart/dart-mcp-server', version: '0.0.1-seed', packages: [['oci', 'dart-mcp-server', '0.1.13']], remotes: [], cap: 'mcp-uninspected' },
      // A registry type nerq does not know, and a remote on this machine: a failure, not a pass.
      { name: 'io.github.azure/azure-mcp', version: '0.0.1-seed', packages: [['unknown', 'Azure/azure-mcp', null]], remotes: [['sse', 'http://localhost:5008/sse']], cap: 'mcp-remote-local-network' },
      { name: 'io.github.cloudflare/mcp-server-cloudflare', version: '0.0.1-seed', packages: [['npm', '@cloudflare/mcp-server-cloudflare', '1.0.0']], remotes: CLOUDFLARE_SSE, cap: 'mcp-package-unavailable' },
    ],
  },
  {
    file: 'seed-2025-09-01.json',
    shape: 'snake_case, version_detail, transport_type, metadata under io.modelcontextprotocol.registry',
    statusInside: true,
    entries: [
      MAGIC,
      // Its image version written empty (the registry's seed of the time): read as none.
      { ...IOTDB, packages: [['oci', 'apache/iotdb', null]] },
      { name: 'io.github.cloudflare/mcp-server-cloudflare', version: '0.0.1-seed', packages: [['npm', '@cloudflare/mcp-server-cloudflare', '1.0.0']], remotes: CLOUDFLARE_SSE, cap: 'mcp-package-unavailable' },
      { name: 'io.github.sooperset/mcp-atlassian', version: '0.0.1-seed', packages: [['pypi', 'mcp-atlassian', '0.10.6']], remotes: [['sse', 'http://localhost:9000/sse']], cap: 'mcp-remote-local-network' },
    ],
  },
  {
    file: 'seed-2025-09-11.json',
    shape: 'schema 2025-07-09: snake_case, package transport, status and snake_case metadata inside the entry',
    statusInside: true,
    entries: [
      MAGIC,
      { name: 'io.github.aliyun/alibaba-cloud-ops-mcp-server', version: '0.0.1-seed', packages: [['pypi', 'alibaba-cloud-ops-mcp-server', '0.8.6']], remotes: [], cap: 'mcp-package-unavailable' },
      IOTDB,
      { name: 'com.cloudflare/mcp-server-cloudflare', version: '0.0.1-seed', packages: [['npm', '@cloudflare/mcp-server-cloudflare', '1.0.0']], remotes: CLOUDFLARE_SSE, cap: 'mcp-package-unavailable' },
    ],
  },
  {
    file: 'seed-2025-09-21.json',
    shape: 'schema 2025-09-16: camelCase, status inside the entry',
    statusInside: true,
    entries: [
      MAGIC,
      IOTDB,
      { name: 'com.cloudflare/mcp-server-cloudflare', version: '0.0.1-seed', packages: [['npm', '@cloudflare/mcp-server-cloudflare', '1.0.0']], remotes: CLOUDFLARE_SSE, cap: 'mcp-package-unavailable' },
    ],
  },
];

function expectRead(report: Report, expected: Expected): void {
  expect(report.error ?? null, expected.name).toBeNull();
  expect(report.target.name, expected.name).toBe(expected.name);
  expect(report.mcp?.version, expected.name).toBe(expected.version);
  expect(report.mcp?.packages.map((p) => [p.registryType, p.identifier, p.version]), expected.name).toEqual(expected.packages);
  expect(report.mcp?.remotes.map((r) => [r.type, r.url]), expected.name).toEqual(expected.remotes);
  expect(report.verdictCode, expected.name).not.toBe('yes');
  expect(capIds(report), expected.name).toContain(expected.cap);
}

describe('MCP Registry entries of every schema version', () => {
  describe.each(ERAS)('$file ($shape)', ({ file, entries, statusInside }) => {
    const served = seed(file);
    const find = (name: string): ServerJson => {
      const entry = served.find((e) => e.name === name);
      if (entry === undefined) throw new Error(`${name} not in ${file}`);
      return entry;
    };

    it.each(entries)('in the current answer: $name read, its packages and remotes in the current spelling', async (expected) => {
      harness.server.expect('GET', entryPath(expected.name), { body: envelope(find(expected.name)) });
      const report = await evaluate(expected.name);
      expectRead(report, expected);
      expect(check(report, 'mcp-registry-status')?.messageId, expected.name).toBe('active');
    });

    it.each(entries)('as the registry answered then (the bare entry, its metadata inside): $name read, its status too', async (expected) => {
      harness.server.expect('GET', entryPath(expected.name), { body: find(expected.name) });
      const report = await evaluate(expected.name);
      expectRead(report, expected);
      // The pre-release answers carried no status: unknown, never read as active.
      expect(check(report, 'mcp-registry-status')?.messageId, expected.name).toBe(statusInside ? 'active' : 'unknown');
    });
  });

  it('a status written inside server.json (schema 2025-09-16 and before) is read when the registry\'s metadata gives none: deprecated caps the entry', async () => {
    const legacy = example('legacy/deprecated-server-example.2025-09-16.json');
    harness.server.expect('GET', entryPath(legacy.name), { body: { server: legacy, _meta: { 'io.modelcontextprotocol.registry/official': { isLatest: true } } } });
    const report = await evaluate(legacy.name);
    expect(check(report, 'mcp-registry-status')?.messageId).toBe('deprecated');
    expect(capIds(report)).toContain('mcp-deprecated');
  });

  it('the registry\'s own status wins over a status written inside server.json', async () => {
    const legacy = example('legacy/deprecated-server-example.2025-09-16.json');
    harness.server.expect('GET', entryPath(legacy.name), { body: envelope(legacy, { status: 'active' }) });
    const report = await evaluate(legacy.name);
    expect(check(report, 'mcp-registry-status')?.messageId).toBe('active');
  });

  it('a pre-release docker package wrote its `docker run` flags as package arguments: a flag that widens its reach is judged (edit: --privileged added to the real entry)', async () => {
    const entry = structuredClone(seed('seed-2025-05-16.json').find((e) => e.name === 'io.github.its-dart/dart-mcp-server')!);
    const [pkg] = entry.packages as { package_arguments: Record<string, unknown>[] }[];
    pkg!.package_arguments.unshift({ type: 'positional', value: '--privileged', value_hint: '--privileged' });
    harness.server.expect('GET', entryPath(entry.name), { body: envelope(entry) });
    const report = await evaluate(entry.name);
    expect(capIds(report)).toContain('mcp-widened-reach');
  });

  it('where an entry writes both spellings, the current one is read', async () => {
    const entry = structuredClone(find2025('io.github.apache/iotdb'));
    const [pkg] = entry.packages as Record<string, unknown>[];
    Object.assign(pkg!, { registryType: 'oci', identifier: 'apache/iotdb-current', registry_type: 'npm', name: 'old-name' });
    harness.server.expect('GET', entryPath(entry.name), { body: envelope(entry) });
    const report = await evaluate(entry.name);
    expect(report.mcp?.packages.map((p) => [p.registryType, p.identifier])).toEqual([['oci', 'apache/iotdb-current']]);
  });
});

function find2025(name: string): ServerJson {
  const entry = seed('seed-2025-09-11.json').find((e) => e.name === name);
  if (entry === undefined) throw new Error(name);
  return entry;
}
