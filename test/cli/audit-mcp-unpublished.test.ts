/**
 * `nerq audit --mcp-config` of a client configuration that launches a name its public registry
 * does not have (`npx -y <name>`, `uvx <name>`): whoever publishes that name next is what the
 * client runs at its next start, with the secrets in `env` — a finding that fails the run
 * (`mcp-package-missing`, as `nerq check mcp:` caps such an entry), in every output. A registry
 * that could not answer leaves it not evaluated (never a finding from missing data), and a name the
 * user's npm configuration routes to another registry is not judged by the public one's answer.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import { useFixtureServers, type FixtureServer } from '../support/fixture-server.js';
import { serveOsv } from './audit-helpers.js';
import { runAuditIn, useMcpSandbox, writeInHome } from './mcp-sandbox.js';

const sandbox = useMcpSandbox();
/** A second registry (the one a user's .npmrc names), checked and closed after each test too. */
const startSecond = useFixtureServers();

const config = (servers: Record<string, { command: string; args: string[] }>) =>
  `${JSON.stringify({ mcpServers: Object.fromEntries(Object.entries(servers).map(([k, v]) => [k, { ...v, env: { API_TOKEN: 'x' } }])) }, null, 2)}\n`;

const NOT_FOUND = { status: 404, body: { error: 'Not found' } };

async function setUp(files: Record<string, string>): Promise<FixtureServer> {
  sandbox.home(files);
  const server = await sandbox.start();
  serveOsv(server, []);
  return server;
}

const run = (args: string[], env: Record<string, string> = {}) => runAuditIn(sandbox.where!, args, sandbox.server, env);
const entryOf = (report: AuditReport, name: string) => report.entries.find((e) => e.subject.name === name)!;

describe('nerq audit --mcp-config: a launch of a name nobody has published', () => {
  it('npm answers 404 for the name npx runs: mcp-package-missing fails the run (exit 1) at the server\'s line, in JSON, SARIF and Markdown', async () => {
    const fixtures = await setUp({ 'mcp.json': config({ ghost: { command: 'npx', args: ['-y', 'nerq-fixture-unclaimed'] } }) });
    fixtures.expect('GET', '/npm/nerq-fixture-unclaimed', NOT_FOUND);
    const json = await run(['--mcp-config', 'mcp.json', '--json']);
    expect(json.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(json.stdout) as AuditReport;
    const entry = entryOf(report, 'nerq-fixture-unclaimed');
    expect(entry.policy.status).toBe('fail');
    expect(entry.policy.failures.map((f) => f.rule)).toEqual(['mcp-package-missing']);
    expect(entry.policy.failures[0]!.at).toEqual({ file: 'mcp.json', line: 3 });
    expect(report.outcome).toMatchObject({ result: 'fail', exitCode: 1 });
    expect(json.code).toBe(1);

    const sarif = await run(['--mcp-config', 'mcp.json', '--format', 'sarif']);
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout) as { runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[] }[] }[] };
    expect(log.runs[0]!.tool.driver.rules.map((r) => r.id)).toContain('policy/mcp-package-missing');
    const result = log.runs[0]!.results.find((r) => r.ruleId === 'policy/mcp-package-missing');
    expect(result?.level).toBe('error');
    expect(result?.locations[0]?.physicalLocation).toMatchObject({ artifactLocation: { uri: 'mcp.json' }, region: { startLine: 3 } });

    const markdown = await run(['--mcp-config', 'mcp.json', '--format', 'markdown']);
    expect(markdown.code).toBe(1);
    expect(markdown.stdout).toContain('(rule `mcp-package-missing`)');
  });

  it('PyPI answers 404 for the project uvx runs: the same finding', async () => {
    const fixtures = await setUp({ 'mcp.json': config({ ghost: { command: 'uvx', args: ['nerq-fixture-unclaimed-py'] } }) });
    fixtures.expect('GET', '/pypi/pypi/nerq-fixture-unclaimed-py/json', NOT_FOUND);
    const result = await run(['--mcp-config', 'mcp.json', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    const entry = entryOf(report, 'nerq-fixture-unclaimed-py');
    expect(entry.subject.ecosystem).toBe('pypi');
    expect(entry.policy.failures.map((f) => f.rule)).toEqual(['mcp-package-missing']);
    expect(result.code).toBe(1);
  });

  it('a registry that could not answer (503) leaves the launch not evaluated (exit 3): no finding from missing data', async () => {
    const fixtures = await setUp({ 'mcp.json': config({ down: { command: 'npx', args: ['-y', 'nerq-fixture-unanswered'] } }) });
    fixtures.fallback('GET', '/npm/', { status: 503, body: 'down' });
    const result = await run(['--mcp-config', 'mcp.json', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    const entry = entryOf(report, 'nerq-fixture-unanswered');
    expect(entry.policy.status).toBe('error');
    expect(entry.policy.failures.map((f) => f.rule)).toEqual(['not-evaluated']);
    expect(result.code).toBe(3);
  });

  it('a scoped name the user\'s .npmrc routes to another registry, which answers 404: not judged by the public registry, not evaluated (exit 3)', async () => {
    const fixtures = await setUp({ 'mcp.json': config({ corp: { command: 'npx', args: ['-y', '@corp/nerq-fixture-internal'] } }) });
    const second = await startSecond();
    second.expect('GET', '/npm/@corp%2fnerq-fixture-internal', NOT_FOUND);
    // The dependency-confusion check asks the public registry whether the name exists there too: it does not.
    fixtures.expect('GET', '/npm-public/@corp%2fnerq-fixture-internal', NOT_FOUND);
    writeInHome(sandbox.where!, '~/.npmrc', `@corp:registry=${second.url('npm')}/\n`);
    const result = await run(['--mcp-config', 'mcp.json', '--json']);
    const report = JSON.parse(result.stdout) as AuditReport;
    const entry = entryOf(report, '@corp/nerq-fixture-internal');
    expect(entry.policy.status).toBe('error');
    expect(entry.policy.failures.map((f) => f.rule)).toEqual(['not-evaluated']);
    expect(result.code).toBe(3);
    expect(second.requests.map((r) => r.path)).toContain('/npm/@corp%2fnerq-fixture-internal');
    expect(fixtures.requests.filter((r) => r.path.startsWith('/npm/'))).toEqual([]);
  });

  describe('acknowledged by an MCP ignore entry, server by server', () => {
    const twoServers = () => config({
      ghost: { command: 'npx', args: ['-y', 'nerq-fixture-unclaimed'] },
      other: { command: 'npx', args: ['-y', 'nerq-fixture-unclaimed'] },
    });
    const REASON = 'our own name, publishing this week: reviewed';
    const ignoreEntry = (mcp: string, extra: object = {}) => ({ mcp, file: 'mcp.json', finding: 'mcp-package-missing', reason: REASON, expires: '2099-12-31', ...extra });

    async function auditWith(ignore: object[]) {
      const fixtures = await setUp({ 'mcp.json': twoServers(), '.nerqrc.json': JSON.stringify({ ignore }) });
      // The project is a repository of its own: the policy search stops at its root.
      mkdirSync(path.join(sandbox.where!.project, '.git'));
      fixtures.expect('GET', '/npm/nerq-fixture-unclaimed', NOT_FOUND);
      const json = await run(['--mcp-config', 'mcp.json', '--json']);
      expect(json.stderr).not.toMatch(/\n\s+at /);
      return { code: json.code, report: JSON.parse(json.stdout) as AuditReport };
    }

    it('each server that launches the name is its own failure, at its own line', async () => {
      const { code, report } = await auditWith([]);
      const entry = entryOf(report, 'nerq-fixture-unclaimed');
      expect(entry.policy.status).toBe('fail');
      expect(entry.policy.failures.map((f) => [f.rule, f.at])).toEqual([
        ['mcp-package-missing', { file: 'mcp.json', line: 3 }],
        ['mcp-package-missing', { file: 'mcp.json', line: 13 }],
      ]);
      expect(code).toBe(1);
    });

    it('an entry for one server does not silence the other that launches the same name (exit 1), and is not reported unused', async () => {
      const { code, report } = await auditWith([ignoreEntry('ghost')]);
      const entry = entryOf(report, 'nerq-fixture-unclaimed');
      expect(entry.policy.status).toBe('fail');
      expect(entry.policy.ignoredBy).toBeNull();
      expect(report.warnings.map((w) => w.code)).not.toContain('ignore-unused');
      expect(code).toBe(1);
    });

    it('entries for every server that launches it: ignored with the reason and expiry (exit 0), in JSON, SARIF and Markdown', async () => {
      const { code, report } = await auditWith([ignoreEntry('ghost'), ignoreEntry('other')]);
      const entry = entryOf(report, 'nerq-fixture-unclaimed');
      expect(entry.policy.status).toBe('ignored');
      expect(entry.policy.failures.map((f) => f.rule)).toEqual(['mcp-package-missing', 'mcp-package-missing']);
      expect(entry.policy.ignoredBy).toEqual({ mcp: 'ghost', file: 'mcp.json', reason: REASON, expires: '2099-12-31' });
      expect(report.outcome).toMatchObject({ result: 'pass', exitCode: 0 });
      expect(report.warnings.map((w) => w.code)).not.toContain('ignore-unused');
      expect(code).toBe(0);

      const sarif = await run(['--mcp-config', 'mcp.json', '--format', 'sarif']);
      expect(sarif.code).toBe(0);
      const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; suppressions?: { kind: string; status: string; justification: string }[] }[] }[] };
      const results = log.runs[0]!.results.filter((r) => r.ruleId === 'policy/mcp-package-missing');
      expect(results.length).toBeGreaterThan(0);
      for (const result of results) expect(result.suppressions).toEqual([{ kind: 'external', status: 'accepted', justification: REASON }]);

      const markdown = await run(['--mcp-config', 'mcp.json', '--format', 'markdown']);
      expect(markdown.code).toBe(0);
      expect(markdown.stdout).toContain(REASON);
      expect(markdown.stdout).toContain('2099-12-31');
    });

    it('an entry for another finding, or another file, covers nothing and is reported unused (exit 1)', async () => {
      const { code, report } = await auditWith([
        ignoreEntry('ghost', { finding: 'mcp-uninspected' }),
        ignoreEntry('other', { file: '.cursor/mcp.json' }),
      ]);
      expect(entryOf(report, 'nerq-fixture-unclaimed').policy.status).toBe('fail');
      expect(report.warnings.filter((w) => w.code === 'ignore-unused').map((w) => w.details.index)).toEqual([0, 1]);
      expect(code).toBe(1);
    });

    it('an expired entry covers nothing, and fails the run naming it (exit 1)', async () => {
      const { code, report } = await auditWith([ignoreEntry('ghost', { expires: '2020-01-01' }), ignoreEntry('other')]);
      expect(entryOf(report, 'nerq-fixture-unclaimed').policy.status).toBe('fail');
      expect(report.warnings.map((w) => w.code)).toContain('ignore-expired');
      expect(code).toBe(1);
    });
  });
});
