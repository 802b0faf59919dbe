/**
 * `nerq check github:owner/repo --include-package` through the built CLI against the fixture
 * server (acme/widget, whose README advertises the npm package `widget` that links back to it):
 * the package folded in with its registry checks and the one report line that says so; a name that
 * does not verify and the flag on a package target are usage errors (exit 2, one line).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { serveRepo } from '../github/helpers.js';
import { GITHUB_NOW, serveNpmWidget } from './github-helpers.js';
import { checkOf, parseReport, requireBuiltCli, schemaViolations } from './helpers.js';

let server: FixtureServer;
beforeAll(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
  serveRepo(server, 'acme/widget', {});
  serveNpmWidget(server, 'widget');
});
afterAll(async () => {
  expectNoUnexpected(server);
  await server.close();
});

const run = (args: string[]) => runCli(args, { server, env: { NERQ_NOW: GITHUB_NOW } });

describe('nerq check github:acme/widget --include-package', () => {
  it('folds in the verified package widget: its registry checks scored, the report member valid', async () => {
    const result = await run(['check', 'github:acme/widget', '--include-package', '--json', '--no-history']);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as unknown;
    expect(schemaViolations(json)).toEqual([]);
    const report = parseReport(result.stdout);
    expect(report.schemaVersion).toBe('1.10.0');
    expect(report.includedPackage).toMatchObject({ included: true, code: 'root-manifest', ecosystem: 'npm', name: 'widget' });
    for (const id of ['deprecation', 'install-scripts', 'weekly-downloads', 'known-vulnerabilities', 'manifest-confusion']) {
      expect(checkOf(report, id)?.status, id).toMatch(/^(pass|warn|fail)$/);
    }
  });

  it('the terminal table and Markdown say which package in one line', async () => {
    const table = await run(['check', 'github:acme/widget', '--include-package', 'npm:widget', '--no-color', '--no-history']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n').filter((l) => l.includes('Package folded in: npm:widget@'))).toHaveLength(1);
    const markdown = await run(['check', 'github:acme/widget', '--include-package', 'widget', '--format', 'markdown', '--no-history']);
    expect(markdown.stdout).toContain('(named)');
  });

  it('a name that does not verify is exit 2 with one line naming the verified ones', async () => {
    const result = await run(['check', 'github:acme/widget', '--include-package', 'left-pad']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('npm:widget');
  });

  it('on a package target it is exit 2 before any request', async () => {
    const before = server.requests.length;
    const result = await run(['check', 'widget', '--include-package']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(server.requests.length).toBe(before);
  });
});
