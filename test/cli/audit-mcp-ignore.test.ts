/**
 * MCP ignore entries end to end through the built CLI (`nerq audit --mcp`): real client
 * configurations (fixtures/mcp-clients: the GitHub MCP server's Claude Desktop container launch,
 * given the Docker socket, and its Windsurf remote URL, both keyed "github") and a policy file.
 * The container launch is two findings: its widened reach (fails) and its image, code nerq cannot
 * inspect (incomplete). An ignored finding is listed with its reason and no longer decides the
 * exit code (1 → 3 → 0); an expired entry fails the run naming it; a malformed entry is bad input (exit 2);
 * an entry matching nothing is warned about; a registry entry is ignored by its name; and in
 * pull-request mode the policy at the base decides, so a pull request cannot ignore its own
 * findings.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { githubAnswers } from './helpers.js';
import { example, searchHandler, SEED, serveEntry } from './mcp-helpers.js';
import { runAuditIn, useMcpSandbox, writeInHome } from './mcp-sandbox.js';

const CLIENTS = path.join(REPO_ROOT, 'fixtures', 'mcp-clients');
const WINDSURF = '~/.codeium/windsurf/mcp_config.json';

/** The GitHub MCP server as its install guide configures it for Claude Desktop, given the Docker socket. */
function containerConfig(): string {
  const config = JSON.parse(readFileSync(path.join(CLIENTS, 'claude-desktop', 'github-mcp-server.install-claude.L179.json'), 'utf8')) as {
    mcpServers: { github: { args: string[] } };
  };
  config.mcpServers.github.args.splice(3, 0, '-v', '/var/run/docker.sock:/var/run/docker.sock');
  return JSON.stringify(config, null, 2);
}

/** Its install guide's Windsurf configuration: the remote URL no registry entry sharing a word with its host declares. */
const remoteConfig = () => readFileSync(path.join(CLIENTS, 'windsurf', 'github-mcp-server.install-windsurf.L16.json'), 'utf8');

const sandbox = useMcpSandbox();
/** The running test's home folder and project (its latest `setUp`). */
let home = '';
let project = '';

const write = (file: string, text: string) => writeInHome({ home, project }, file, text);

function setUp(files: Record<string, string>): void {
  ({ home, project } = sandbox.home(files, 'nerq-mcp-ignore-'));
  // The project is a repository of its own: the policy search stops at its root.
  mkdirSync(path.join(project, '.git'));
}

const policy = (ignore: object[]) => JSON.stringify({ ignore }, null, 2);

const run = (args: string[]) => runAuditIn({ home, project }, args, sandbox.server);

async function audit(args: string[] = []): Promise<{ code: number | null; report: AuditReport; stderr: string }> {
  const result = await run(['--mcp', '--json', ...args]);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return { code: result.code, report: JSON.parse(result.stdout) as AuditReport, stderr: result.stderr };
}

const findings = (report: AuditReport) =>
  report.warnings.filter((w) => w.code.startsWith('mcp-')).map((w) => [w.code, w.details.file, w.details.server, w.ignoredBy?.reason ?? null]);

async function registry(): Promise<void> {
  const server = await sandbox.start();
  server.route('GET', '/mcp-registry/v0.1/servers', searchHandler([...SEED], 100));
}

describe('nerq audit --mcp with MCP ignore entries', () => {
  it('a reviewed container finding is ignored (exit 1 → 3), then its image and the unverified remote too (3 → 0), each in its own file', async () => {
    setUp({ '.mcp.json': containerConfig(), [WINDSURF]: remoteConfig() });
    await registry();
    const before = await audit();
    expect(findings(before.report)).toEqual([
      ['mcp-widened-reach', '.mcp.json', 'github', null],
      ['mcp-uninspected', '.mcp.json', 'github', null],
      ['mcp-remote-unverified', WINDSURF, 'github', null],
    ]);
    // The image reference as the registry entry's image is read (mcp-oci-images): no tag, so whatever was pushed last.
    expect(before.report.warnings.find((w) => w.code === 'mcp-uninspected')?.details).toMatchObject({ kind: 'oci', image: 'ghcr.io/github/github-mcp-server', registry: 'ghcr.io', pinning: 'latest' });
    expect(before.code).toBe(1);

    write('.nerqrc.json', policy([{ mcp: 'github', file: '.mcp.json', finding: 'mcp-widened-reach', reason: 'the socket is for its container tools: reviewed', expires: '2099-12-31' }]));
    const one = await audit();
    expect(findings(one.report)).toEqual([
      ['mcp-widened-reach', '.mcp.json', 'github', 'the socket is for its container tools: reviewed'],
      ['mcp-uninspected', '.mcp.json', 'github', null],
      ['mcp-remote-unverified', WINDSURF, 'github', null],
    ]);
    expect(one.report.warnings[0]?.ignoredBy).toEqual({ mcp: 'github', file: '.mcp.json', reason: 'the socket is for its container tools: reviewed', expires: '2099-12-31' });
    expect(one.report.outcome).toMatchObject({ result: 'incomplete', exitCode: 3 });
    expect(one.code).toBe(3);

    write('.nerqrc.json', policy([
      { mcp: 'github', file: '.mcp.json', finding: ['mcp-widened-reach', 'mcp-uninspected'], reason: 'the socket is for its container tools: reviewed' },
      { mcp: 'github', file: WINDSURF, finding: 'mcp-remote-unverified', reason: "GitHub's own endpoint" },
    ]));
    const both = await audit();
    expect(findings(both.report).map((f) => f[3])).toEqual(['the socket is for its container tools: reviewed', 'the socket is for its container tools: reviewed', "GitHub's own endpoint"]);
    expect(both.report.outcome).toMatchObject({ result: 'pass', exitCode: 0 });
    expect(both.code).toBe(0);

    // The table lists them with their reasons; SARIF carries them as suppressed results.
    const table = await run(['--mcp']);
    expect(table.code).toBe(0);
    const flat = table.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('ignored: the socket is for its container tools: reviewed');
    expect(flat).toContain('PASS: 3 MCP server findings ignored');
    const sarifText = (await run(['--mcp', '--format', 'sarif'])).stdout;
    const sarif = JSON.parse(sarifText) as {
      runs: { results: { ruleId: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string } } }[]; suppressions?: { kind: string; status: string; justification: string }[] }[] }[];
    };
    expect(sarif.runs[0]?.results.map((r) => [r.ruleId, r.suppressions?.[0]?.status, r.suppressions?.[0]?.justification])).toEqual([
      ['finding/mcp-widened-reach', 'accepted', 'the socket is for its container tools: reviewed'],
      ['finding/mcp-uninspected', 'accepted', 'the socket is for its container tools: reviewed'],
      ['finding/mcp-remote-unverified', 'accepted', "GitHub's own endpoint"],
    ]);
    // Every result keeps a location (code scanning rejects an upload with a result without one); the
    // user-scope configuration's message says it is outside the repository, never the home path.
    expect(sarif.runs[0]?.results.map((r) => r.locations.length)).toEqual([1, 1, 1]);
    expect(sarif.runs[0]?.results[2]?.message.text).toContain(`${WINDSURF}`);
    expect(sarif.runs[0]?.results[2]?.message.text).toContain('outside the repository');
    expect(sarifText).not.toContain(home);
    for (const text of [table.stdout, table.stderr]) expect(text).not.toContain('YOUR_GITHUB_PAT');
  });

  it('an entry without "file" covers the key in every configuration file; without "finding", every finding a review may accept', async () => {
    setUp({ '.mcp.json': containerConfig(), [WINDSURF]: remoteConfig(), '.nerqrc.json': policy([{ mcp: 'github', reason: 'our GitHub servers' }]) });
    await registry();
    const { code, report } = await audit();
    expect(findings(report).map((f) => f[3])).toEqual(['our GitHub servers', 'our GitHub servers', 'our GitHub servers']);
    expect(code).toBe(0);
  });

  it('matching is exact: another key, another file or another code covers nothing, and the entry is reported unused', async () => {
    setUp({
      '.mcp.json': containerConfig(),
      '.nerqrc.json': policy([
        { mcp: 'GitHub', reason: 'wrong case' },
        { mcp: 'git', reason: 'a prefix' },
        { mcp: 'github', file: '.cursor/mcp.json', reason: 'another file' },
        { mcp: 'github', finding: 'mcp-remote-unverified', reason: 'another code' },
      ]),
    });
    const { code, report } = await audit();
    expect(findings(report)).toEqual([
      ['mcp-widened-reach', '.mcp.json', 'github', null],
      ['mcp-uninspected', '.mcp.json', 'github', null],
    ]);
    expect(report.warnings.filter((w) => w.code === 'ignore-unused').map((w) => w.details.index)).toEqual([0, 1, 2, 3]);
    expect(code).toBe(1);
  });

  it('an expired entry covers nothing and fails the run naming it', async () => {
    setUp({ '.mcp.json': containerConfig(), '.nerqrc.json': policy([{ mcp: 'github', reason: 'until the image drops the socket', expires: '2020-01-31' }]) });
    const { code, report } = await audit();
    expect(findings(report)).toEqual([
      ['mcp-widened-reach', '.mcp.json', 'github', null],
      ['mcp-uninspected', '.mcp.json', 'github', null],
    ]);
    expect(report.warnings.find((w) => w.code === 'ignore-expired')?.message).toBe(
      '.nerqrc.json: ignore[0] mcp "github" expired on 2020-01-31 (reason: until the image drops the socket); renew or remove it',
    );
    expect(code).toBe(1);
    // Expired, it fails even the run its finding alone would not fail.
    setUp({ '.mcp.json': JSON.stringify({ mcpServers: { github: { command: 'node', args: ['/opt/x.js'] } } }), '.nerqrc.json': policy([{ mcp: 'github', reason: 'x', expires: '2020-01-31' }]) });
    expect((await audit()).code).toBe(1);
  });

  it('a registry entry a remote server was matched to is ignored by its registry name: its uninspected outcome no longer leaves the run incomplete (exit 3 → 0)', async () => {
    const fs = example('07-remote-server-example.json');
    setUp({ '.mcp.json': JSON.stringify({ mcpServers: { fs: { type: 'http', url: 'https://mcp-fs.anonymous.modelcontextprotocol.io/http' } } }) });
    const server = await sandbox.start();
    githubAnswers(server);
    server.route('GET', '/mcp-registry/v0.1/servers', searchHandler([fs, ...SEED], 100));
    serveEntry(server, fs, {}, fs.version);
    const before = await audit();
    const entry = before.report.entries.find((e) => e.subject.ecosystem === 'mcp');
    // Remote-only: its code cannot be inspected — not evaluated (as `nerq check` leaves it incomplete), never a pass, and its bound is not a failure.
    expect(entry?.policy.status).toBe('error');
    expect(entry?.policy.failures.map((f) => f.rule)).toEqual(['uninspected']);
    expect(before.code).toBe(3);

    write('.nerqrc.json', policy([{ mcp: fs.name, finding: 'mcp-entry-policy', reason: 'remote-only by design; vendor reviewed' }]));
    serveEntry(server, fs, {}, fs.version);
    const after = await audit(['--no-cache']);
    const ignored = after.report.entries.find((e) => e.subject.ecosystem === 'mcp');
    expect(ignored?.policy).toMatchObject({ status: 'ignored', ignoredBy: { mcp: fs.name, file: null, reason: 'remote-only by design; vendor reviewed' } });
    expect(ignored?.policy.ignoredBy).not.toHaveProperty('package');
    expect(ignored?.policy.failures.map((f) => f.rule)).toEqual(['uninspected']);
    expect(after.report.warnings.filter((w) => w.code === 'ignore-unused')).toEqual([]);
    expect(after.code).toBe(after.report.outcome.exitCode);
    expect(after.code).toBe(0);
  });
});

describe('malformed MCP ignore entries are bad input: exit 2, one line naming the file and key', () => {
  it.each([
    [{ mcp: 'github', finding: 'mcp-widend-reach', reason: 'x' }, /^nerq: \.nerqrc\.json: ignore\[0\]\.finding: unknown code 'mcp-widend-reach' \(expected 'mcp-widened-reach', 'mcp-remote-unverified', 'mcp-fetched-script', 'mcp-uninspected', 'mcp-package-missing', 'mcp-entry-policy'\)$/],
    [{ mcp: 'github', finding: ['mcp-widened-reach', 'mcp-remote-insecure'], reason: 'x' }, /^nerq: \.nerqrc\.json: ignore\[0\]\.finding\[1\]: mcp-remote-insecure cannot be ignored: /],
    [{ mcp: 'github' }, /^nerq: \.nerqrc\.json: ignore\[0\]\.reason: required$/],
    [{ mcp: 'github', package: 'x', reason: 'x' }, /^nerq: \.nerqrc\.json: ignore\[0\]\.package: unknown key$/],
  ])('%j', async (entry, message) => {
    setUp({ '.mcp.json': containerConfig(), '.nerqrc.json': policy([entry]) });
    const result = await run(['--mcp']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('pull-request mode: --changed-since reads the policy at REF', () => {
  function git(...args: string[]): void {
    execFileSync('git', ['-c', 'user.name=Nerq Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd: project,
      stdio: 'ignore',
      env: { PATH: process.env.PATH ?? '', HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
    });
  }

  /** A repository whose base commit configures the container with `basePolicy`, and whose checkout holds `headPolicy`. */
  function pullRequest(basePolicy: object[] | null, headPolicy: object[]): void {
    setUp({ '.mcp.json': containerConfig() });
    rmSync(path.join(project, '.git'), { recursive: true });
    if (basePolicy !== null) write('.nerqrc.json', policy(basePolicy));
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    git('tag', 'base');
    write('.nerqrc.json', policy(headPolicy));
  }

  const ADDED = { mcp: 'github', finding: ['mcp-widened-reach', 'mcp-uninspected'], reason: 'trust me' };

  it('a pull request adding an MCP ignore entry for its own finding: the entry does not apply, and the change fails the run', async () => {
    pullRequest(null, [ADDED]);
    const { code, report, stderr } = await audit(['--changed-since', 'base']);
    expect(findings(report)).toEqual([
      ['mcp-widened-reach', '.mcp.json', 'github', null],
      ['mcp-uninspected', '.mcp.json', 'github', null],
    ]);
    expect(report.warnings.find((w) => w.code === 'policy-changed')?.message).toMatch(/^policy-changed: the checkout adds a policy \(\.nerqrc\.json\) since base/);
    expect(stderr).toMatch(/policy-changed/);
    expect(code).toBe(1);
  });

  it('an entry already in the base policy applies; one the checkout adds to it does not, unless --policy-from-head', async () => {
    pullRequest([ADDED], [ADDED]);
    const based = await audit(['--changed-since', 'base']);
    expect(findings(based.report).map((f) => f[3])).toEqual(['trust me', 'trust me']);
    expect(based.code).toBe(0);
    pullRequest([], [ADDED]);
    const base = await audit(['--changed-since', 'base']);
    expect(findings(base.report).map((f) => f[3])).toEqual([null, null]);
    expect(base.report.warnings.find((w) => w.code === 'policy-changed')?.message).toMatch(/changes ignore in the policy \(\.nerqrc\.json\)/);
    expect(base.code).toBe(1);
    const head = await audit(['--changed-since', 'base', '--policy-from-head']);
    expect(findings(head.report).map((f) => f[3])).toEqual(['trust me', 'trust me']);
    expect(head.code).toBe(0);
  });
});
