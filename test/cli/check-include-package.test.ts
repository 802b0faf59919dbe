/**
 * `nerq check github:owner/repo --include-package` through the built CLI against the fixture
 * server (acme/widget, whose README advertises the npm package `widget` that links back to it):
 * the package folded in with its registry checks and the one report line that says so; a name that
 * does not verify and the flag on a package target are usage errors (exit 2, one line). `nerq
 * compare` and `nerq check --compare` take it for the targets named: the same score as the check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { serveRepo } from '../github/helpers.js';
import { GITHUB_NOW, serveNpmWidget, serveWidgetTopicSearch } from './github-helpers.js';
import { checkOf, expectUsageError, parseReport, requireBuiltCli, schemaViolations } from './helpers.js';
import { REPORT_SCHEMA_VERSION, ReportSchema } from '../../src/report/schema.js';

let server: FixtureServer;
beforeAll(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
  serveRepo(server, 'acme/widget', {});
  serveRepo(server, 'acme/gadget', {});
  serveNpmWidget(server, 'widget');
  serveWidgetTopicSearch(server);
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
    expect(report.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
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
    // Why, in words: the code (`named`) is the JSON's.
    expect(markdown.stdout).toContain('(named with --include-package)');
    expect(table.stdout).not.toContain('(named)');
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

describe('--include-package where targets are compared or ranked: one target, one score', () => {
  const scoreOf = async (args: string[]) => {
    const result = await run([...args, '--json', '--no-history']);
    expect(result.code, result.stderr).toBe(0);
    return parseReport(result.stdout);
  };

  it('nerq compare: each target has the score nerq check gives it with the same choice', async () => {
    const folded = await scoreOf(['check', 'github:acme/widget', '--include-package']);
    const plain = await scoreOf(['check', 'github:acme/widget']);
    expect(folded.score).not.toBe(plain.score);
    const result = await run(['compare', 'github:acme/widget', 'widget', '--include-package', '--json', '--no-history']);
    expect(result.code, result.stderr).toBe(0);
    const { reports } = JSON.parse(result.stdout) as { reports: unknown[] };
    const [repository, npmPackage] = reports.map((r) => ReportSchema.parse(r));
    expect(repository!.score).toBe(folded.score);
    expect(repository!.includedPackage).toEqual(folded.includedPackage);
    expect(npmPackage!.includedPackage).toBeUndefined();
    const alone = JSON.parse((await run(['compare', 'github:acme/widget', 'widget', '--json', '--no-history'])).stdout) as { reports: Array<{ score: number }> };
    expect(alone.reports[0]!.score).toBe(plain.score);
  });

  it('nerq check --compare: the target ranked with its folded score; the peers evaluated as they are', async () => {
    const folded = await scoreOf(['check', 'github:acme/widget', '--include-package']);
    const gadget = await scoreOf(['check', 'github:acme/gadget']);
    const compared = await scoreOf(['check', 'github:acme/widget', '--include-package', '--compare']);
    expect(compared.score).toBe(folded.score);
    expect(compared.includedPackage?.code).toBe('root-manifest');
    // One peer: too few for a standing; the peer is kept, evaluated as it is.
    expect(compared.comparison).toBeNull();
    expect(compared.comparisonUnavailable?.members).toEqual([expect.objectContaining({ target: expect.stringMatching(/^acme\/gadget/), score: gadget.score })]);
  });

  it('nerq compare: no repository target, or a name that does not verify, is exit 2', async () => {
    const before = server.requests.length;
    expectUsageError(await run(['compare', 'widget', 'pypi:requests', '--include-package']));
    expect(server.requests.length).toBe(before);
    const refused = await run(['compare', 'github:acme/widget', 'widget', '--include-package', 'left-pad']);
    expectUsageError(refused);
    expect(refused.stderr).toContain('npm:widget');
  });
});
