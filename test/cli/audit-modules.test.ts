/**
 * `nerq audit` on Go and Rust projects (README.md, "nerq audit [dir]"): go.mod's and
 * Cargo.lock's dependencies are listed as entries of ecosystem `go` / `cargo` with their package
 * URLs, asked of OSV in one batch per ecosystem, and never scored (score and grade null, error
 * `no-registry-adapter`). A clean OSV answer leaves them incomplete (exit 3, exit 0 with
 * --allow-incomplete); an advisory affecting a pinned version fails the run (exit 1); a
 * known-malicious record fails it whatever an ignore entry says; OSV down leaves them unchecked.
 * The go.mod is the real one recorded under fixtures/lockfiles/real (fixtures/PROVENANCE.md); the
 * Cargo.lock is synthetic (a crates.io crate, a git crate, the project's own package), and so are
 * the OSV records (OSV is not reachable to record Go or crates.io ones): their shape is the
 * recorded npm records' (fixtures/http/osv/v1/vulns).
 */
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/report/schema.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';
import { packageLockV3, parseAudit, serveSynthetic, TempDirs } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

const GO_MOD = path.join(REPO_ROOT, 'fixtures', 'lockfiles', 'real', 'mark3labs__mcp-go', 'go.mod');
const QUERYBATCH = '/osv/v1/querybatch';

/** Synthetic: the project `demo`, one crates.io crate, one crate from a git repository. */
const CARGO_LOCK = `version = 4

[[package]]
name = "demo"
version = "0.1.0"
dependencies = [
 "forked",
 "small_crate",
]

[[package]]
name = "forked"
version = "0.3.0"
source = "git+https://github.com/example/forked?rev=abc#0123456789abcdef0123456789abcdef01234567"

[[package]]
name = "small_crate"
version = "1.2.3"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "0000000000000000000000000000000000000000000000000000000000000000"
`;

interface OsvQuery {
  package: { name: string; ecosystem: string };
  version: string;
}

function record(id: string, ecosystem: string, name: string, fixed: string, severity: string) {
  return {
    id,
    aliases: [],
    summary: `Synthetic advisory ${id}`,
    published: '2099-01-01T00:00:00Z',
    modified: '2099-01-02T00:00:00Z',
    database_specific: { severity },
    affected: [{ package: { name, ecosystem }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed }] }] }],
  };
}

const TEXT_ADVISORY = record('GO-2099-0001', 'Go', 'golang.org/x/text', '0.15.0', 'HIGH');
const LOW_ADVISORY = record('GO-2099-0002', 'Go', 'golang.org/x/text', '0.15.0', 'LOW');
const MALICIOUS = { ...record('MAL-2099-0001', 'crates.io', 'small_crate', '99.0.0', 'CRITICAL'), affected: [{ package: { name: 'small_crate', ecosystem: 'crates.io' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] }] };

/** OSV answering with `records` by ecosystem and name (status ≠ 200: that status for every batch). */
function serveOsv(server: FixtureServer, records: readonly ReturnType<typeof record>[], status = 200): void {
  server.route('POST', QUERYBATCH, (_req, res, { body }) => {
    if (status !== 200) {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{"error":"unavailable"}');
      return;
    }
    const queries = (JSON.parse(body.toString('utf8')) as { queries: OsvQuery[] }).queries;
    const results = queries.map((q) => {
      const ids = records.filter((r) => r.affected.some((a) => a.package.ecosystem === q.package.ecosystem && a.package.name === q.package.name)).map((r) => r.id);
      return ids.length === 0 ? {} : { vulns: ids.map((id) => ({ id, modified: '2099-01-02T00:00:00Z' })) };
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ results }));
  });
  for (const r of records) server.route('GET', `/osv/v1/vulns/${r.id}`, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(r));
  });
}

const batches = (server: FixtureServer): OsvQuery[][] =>
  server.requests.filter((r) => r.method === 'POST' && r.path === QUERYBATCH).map((r) => (JSON.parse(r.body) as { queries: OsvQuery[] }).queries);

const dirs = new TempDirs();
let server: FixtureServer;
let goProject: string;
let rustProject: string;

beforeAll(() => {
  requireBuiltCli();
  goProject = dirs.project({});
  copyFileSync(GO_MOD, path.join(goProject, 'go.mod'));
  rustProject = dirs.project({ 'Cargo.lock': CARGO_LOCK });
});

afterEach(async () => {
  await server?.close();
});

afterAll(() => dirs.cleanUp());

async function serve(records: readonly ReturnType<typeof record>[], status = 200): Promise<void> {
  server = await startFixtureServer();
  serveOsv(server, records, status);
}

describe('a Go project (the real mark3labs/mcp-go go.mod)', () => {
  it('clean OSV: 13 Go modules in one Go batch, not scored, incomplete: exit 3, exit 0 with --allow-incomplete', async () => {
    await serve([]);
    const strict = await runCli(['audit', goProject, '--json'], { server });
    expect(strict.code, strict.stderr).toBe(3);
    const result = await runCli(['audit', goProject, '--json', '--allow-incomplete'], { server });
    expect(result.code, result.stderr).toBe(0);
    const report = parseAudit(result.stdout);
    expect(report.inputs).toEqual([{ file: 'go.mod', format: 'go.mod (github.com/mark3labs/mcp-go)' }]);
    expect(report.outcome).toEqual({ result: 'pass', exitCode: 0, allowIncomplete: true });
    expect(report.summary).toMatchObject({ total: 13, incomplete: 13, passed: 0, failed: 0, errors: 0 });
    const text = report.entries.find((e) => e.subject.name === 'golang.org/x/text');
    expect(text?.subject).toMatchObject({ ecosystem: 'go', version: 'v0.14.0', direct: false, declaredIn: [{ file: 'go.mod', line: 18, workspace: null }] });
    expect(text?.report.target).toMatchObject({ ecosystem: 'go', purl: 'pkg:golang/golang.org/x/text@v0.14.0' });
    for (const entry of report.entries) {
      expect(ReportSchema.safeParse(entry.report).success).toBe(true);
      expect([entry.report.score, entry.report.grade, entry.report.error?.code]).toEqual([null, null, 'no-registry-adapter']);
      expect(entry.report.sources).toEqual([{ id: 'vulnerabilities', status: 'ok', reason: null }]);
      expect(entry.policy.failures.map((f) => f.rule)).toEqual(['not-scored']);
    }
    expect(report.entries.find((e) => e.subject.name === 'github.com/google/uuid')?.subject.via).toEqual([]);
    // One batch per run, Go's, with the versions as OSV's Go records write them (no `v`).
    const asked = batches(server);
    expect(asked).toHaveLength(2);
    expect(asked[1]?.every((q) => q.package.ecosystem === 'Go')).toBe(true);
    expect(asked[1]?.find((q) => q.package.name === 'golang.org/x/text')?.version).toBe('0.14.0');
  });

  it('an advisory at high severity on a pinned module fails the run (exit 1, rule advisory) even with --allow-incomplete', async () => {
    await serve([TEXT_ADVISORY]);
    const result = await runCli(['audit', goProject, '--json', '--allow-incomplete'], { server });
    expect(result.code, result.stderr).toBe(1);
    const report = parseAudit(result.stdout);
    expect(report.summary).toMatchObject({ failed: 1, incomplete: 12 });
    const failing = report.entries[0];
    expect(failing?.subject.name).toBe('golang.org/x/text');
    expect(failing?.policy.status).toBe('fail');
    expect(failing?.policy.failures.map((f) => f.rule)).toEqual(['advisory']);
    expect(failing?.report.advisories.map((a) => [a.id, a.ecosystem, a.package, a.version, a.fixed, a.severity])).toEqual([
      ['GO-2099-0001', 'go', 'golang.org/x/text', 'v0.14.0', '0.15.0', 'high'],
    ]);
    const table = await runCli(['audit', goProject, '--allow-incomplete'], { server });
    expect(table.code).toBe(1);
    expect(table.stdout).toContain('golang.org/x/text@v0.14.0');
  });

  it('a low advisory is listed but fails only at --fail-on low', async () => {
    await serve([LOW_ADVISORY]);
    const listed = parseAudit((await runCli(['audit', goProject, '--json', '--allow-incomplete'], { server })).stdout);
    expect(listed.outcome.exitCode).toBe(0);
    expect(listed.entries.find((e) => e.subject.name === 'golang.org/x/text')?.report.advisories.map((a) => a.id)).toEqual(['GO-2099-0002']);
    const strict = await runCli(['audit', goProject, '--json', '--allow-incomplete', '--fail-on', 'low'], { server });
    expect(strict.code, strict.stderr).toBe(1);
    expect(parseAudit(strict.stdout).entries[0]?.policy.failures.map((f) => f.rule)).toEqual(['advisory']);
  });

  it('OSV answering 503: every module unchecked (rule not-checked), exit 3', async () => {
    await serve([], 503);
    const result = await runCli(['audit', goProject, '--json'], { server });
    expect(result.code, result.stderr).toBe(3);
    const report = parseAudit(result.stdout);
    expect(report.entries.every((e) => e.policy.status === 'incomplete' && e.policy.failures[0]?.rule === 'not-checked')).toBe(true);
    expect(report.entries[0]?.report.sources[0]?.status).toBe('unavailable');
    expect(report.warnings.map((w) => w.code)).toContain('source-unavailable');
  });

  it('every format renders the entries: table, Markdown, SARIF', async () => {
    await serve([TEXT_ADVISORY]);
    const table = await runCli(['audit', goProject], { server });
    expect(table.code).toBe(1);
    expect(table.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
    expect(table.stdout).toMatch(/\nNOT SCORED +github\.com\/google\/uuid@v1\.6\.0 /);
    expect(table.stdout).toContain('12 not scored (Go modules and crates:');
    const markdown = await runCli(['audit', goProject, '--format', 'markdown'], { server });
    expect(markdown.code, markdown.stderr).toBe(1);
    expect(markdown.stdout).toContain('golang.org/x/text@v0.14.0');
    const sarif = await runCli(['audit', goProject, '--format', 'sarif'], { server });
    expect(sarif.code, sarif.stderr).toBe(1);
    const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; level: string; properties?: { ecosystem?: string; package?: string } }[] }[] };
    const results = log.runs[0]?.results ?? [];
    expect(results.every((r) => r.properties?.ecosystem === 'go')).toBe(true);
    expect(results.filter((r) => r.level === 'error').map((r) => [r.ruleId, r.properties?.package])).toEqual([['policy/advisory-high', 'golang.org/x/text']]);
    expect(new Set(results.filter((r) => r.level === 'warning').map((r) => r.ruleId))).toEqual(new Set(['policy/not-scored']));
  });
});

describe('a Rust project (a synthetic Cargo.lock)', () => {
  it('the crates.io crate is an entry, the git one an unvouched remote; one crates.io batch', async () => {
    await serve([]);
    const result = await runCli(['audit', rustProject, '--json'], { server });
    expect(result.code, result.stderr).toBe(3);
    const report = parseAudit(result.stdout);
    expect(report.entries.map((e) => [e.subject.ecosystem, e.subject.name, e.subject.version, e.report.target.purl, e.subject.direct])).toEqual([
      ['cargo', 'small_crate', '1.2.3', 'pkg:cargo/small_crate@1.2.3', true],
    ]);
    expect(report.unvouched?.map((r) => [r.ecosystem, r.name, r.host, r.status])).toEqual([['cargo', 'forked', 'github.com', 'unvouched']]);
    expect(report.warnings.map((w) => w.code)).toContain('unvouched-remote');
    expect(batches(server).flat().map((q) => [q.package.ecosystem, q.package.name, q.version])).toEqual([['crates.io', 'small_crate', '1.2.3']]);
    const table = await runCli(['audit', rustProject], { server });
    expect(table.code).toBe(3);
    expect(table.stdout.replace(/\s+/g, ' ')).toContain("exit 3: review each dependency no registry vouches for and name it in the policy's ignore list with a reason; Go modules and crates are checked against OSV only");
  });

  it('a known-malicious crate fails the run, and a cargo: ignore entry naming it is refused', async () => {
    await serve([MALICIOUS]);
    const policy = { ignore: [{ package: 'cargo:small_crate@1.2.3', reason: 'reviewed', expires: '2099-01-01' }] };
    const project = dirs.project({ 'Cargo.lock': CARGO_LOCK, '.nerqrc.json': JSON.stringify(policy) });
    const result = await runCli(['audit', project, '--json', '--allow-incomplete'], { server });
    expect(result.code, result.stderr).toBe(1);
    const report = parseAudit(result.stdout);
    expect(report.entries[0]?.policy).toMatchObject({ status: 'fail', ignoredBy: null });
    expect(report.entries[0]?.policy.failures.map((f) => f.rule)).toEqual(['malicious']);
    expect(report.warnings.map((w) => w.code)).toContain('ignore-refused');
  });

  it('a cargo: ignore entry covers a crate that is only not scored', async () => {
    await serve([]);
    const policy = { ignore: [{ package: 'cargo:small_crate@1.2.3', reason: 'reviewed', expires: '2099-01-01' }, { package: 'cargo:forked', reason: 'our fork', expires: '2099-01-01' }] };
    const project = dirs.project({ 'Cargo.lock': CARGO_LOCK, '.nerqrc.json': JSON.stringify(policy) });
    const result = await runCli(['audit', project, '--json'], { server });
    expect(result.code, result.stderr).toBe(0);
    const report = parseAudit(result.stdout);
    expect(report.entries[0]?.policy.status).toBe('ignored');
    expect(report.unvouched?.map((r) => r.status)).toEqual(['ignored']);
  });
});

describe("a Rust project (the real astral-sh/uv Cargo.lock)", () => {
  it('683 crates.io crates (its 70 own packages left out) asked in one crates.io batch; clean OSV with --allow-incomplete: exit 0', async () => {
    // Counted with grep: 753 [[package]] tables, 683 with a crates.io registry source, none from git.
    await serve([]);
    const project = dirs.project({});
    copyFileSync(path.join(REPO_ROOT, 'fixtures', 'lockfiles', 'real', 'astral-sh__uv', 'Cargo.lock'), path.join(project, 'Cargo.lock'));
    const result = await runCli(['audit', project, '--json', '--allow-incomplete'], { server });
    expect(result.code, result.stderr).toBe(0);
    const report = parseAudit(result.stdout);
    expect(report.inputs).toEqual([{ file: 'Cargo.lock', format: 'Cargo.lock@4' }]);
    expect(report.summary).toMatchObject({ total: 683, incomplete: 683 });
    expect(report.entries.every((e) => e.subject.ecosystem === 'cargo' && e.report.target.purl === `pkg:cargo/${e.subject.name}@${e.subject.version ?? ''}`)).toBe(true);
    expect(report.unvouched).toBeUndefined();
    const asked = batches(server);
    expect(asked.map((b) => b.length)).toEqual([683]);
    expect(new Set(asked.flat().map((q) => q.package.ecosystem))).toEqual(new Set(['crates.io']));
  });
});

describe('an npm package-lock and a go.mod in one folder', () => {
  it('both are audited: the npm package evaluated and scored, the Go modules checked against OSV, one batch per ecosystem', async () => {
    await serve([TEXT_ADVISORY]);
    const pkg = { name: 'nerq-audit-first', version: '1.0.0' };
    serveSynthetic(server, pkg);
    const { lock, manifest } = packageLockV3([{ ...pkg, direct: true }], server.url('npm'));
    const project = dirs.project({ 'package-lock.json': lock, 'package.json': manifest });
    copyFileSync(GO_MOD, path.join(project, 'go.mod'));
    const result = await runCli(['audit', project, '--json', '--allow-incomplete'], { server });
    expect(result.code, result.stderr).toBe(1);
    const report = parseAudit(result.stdout);
    expect(report.inputs.map((i) => i.file)).toEqual(['package-lock.json', 'go.mod']);
    const npm = report.entries.find((e) => e.subject.ecosystem === 'npm');
    expect(npm?.report.score).not.toBeNull();
    expect(report.entries.filter((e) => e.subject.ecosystem === 'go')).toHaveLength(13);
    expect(report.entries[0]?.subject.name).toBe('golang.org/x/text');
    expect(batches(server).map((b) => [...new Set(b.map((q) => q.package.ecosystem))]).sort()).toEqual([['Go'], ['npm']]);
    expectNoUnexpected(server);
  });
});

describe('go.mod named with --file', () => {
  it('is read like a detected one', async () => {
    await serve([]);
    const result = await runCli(['audit', goProject, '--file', 'go.mod', '--json', '--allow-incomplete'], { server });
    expect(result.code, result.stderr).toBe(0);
    expect(parseAudit(result.stdout).summary.total).toBe(13);
    expect(readFileSync(path.join(goProject, 'go.mod'), 'utf8')).toContain('module github.com/mark3labs/mcp-go');
  });
});
