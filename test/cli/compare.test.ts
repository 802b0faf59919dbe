/**
 * `nerq check --compare` and `nerq compare` end to end (the built CLI against the fixture
 * server): the JSON contract with its comparison, the table's and Markdown's "Compared with"
 * block, the side-by-side table, Markdown and JSON, and bad input.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/report/schema.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { searchAnswer, searchRequests, serveSearch } from '../support/npm-search.js';
import { runCli } from '../support/run-cli.js';
import { serveOsv, serveSynthetic } from './audit-helpers.js';
import { expectPackage, expectUsageError, parseReport, requireBuiltCli, schemaViolations } from './helpers.js';

let server: FixtureServer;

const PEERS: { name: string; keywords: string[]; deprecated?: string }[] = [
  { name: 'nerq-peer-fetch', keywords: ['http', 'fetch'] },
  { name: 'nerq-peer-util', keywords: ['util'] },
  { name: 'nerq-peer-old', keywords: ['http'], deprecated: 'no longer maintained' },
];

beforeAll(() => requireBuiltCli());
useSharedFixtureServer((started) => {
  server = started;
  expectPackage(server, 'request');
  expectPackage(server, 'chalk');
  for (const peer of [...PEERS, { name: 'ofetch', keywords: ['fetch'] }, { name: 'ky', keywords: ['fetch'] }]) serveSynthetic(server, { version: '2.0.0', ...peer });
  serveOsv(server, []);
  serveSearch(server, searchAnswer(PEERS, { hostile: true }));
});

describe('nerq check --compare', () => {
  it('--json: the report carries comparison and alternatives, valid against the shipped schema', async () => {
    const result = await runCli(['check', 'request', '--compare', '--json'], { server });
    expect(result.stderr).toBe('');
    const report = parseReport(result.stdout);
    expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
    expect(report.comparison).toMatchObject({ category: 'library', peers: 4, sample: { sources: ['npm-search', 'module-replacements'], query: 'keywords:http' } });
    expect(report.alternatives?.length).toBe(3);
    expect(report.alternatives?.map((a) => a.target)).not.toContain('nerq-peer-old@2.0.0');
    // The comparison never changes the score, the verdict or the exit code.
    expect(report).toMatchObject({ score: 49.9, verdictCode: 'no' });
    expect(result.code).toBe(1);
  });

  it('without --compare: no comparison member and no search', async () => {
    const before = searchRequests(server).length;
    const report = parseReport((await runCli(['check', 'request', '--json'], { server })).stdout);
    expect('comparison' in report).toBe(false);
    expect('alternatives' in report).toBe(false);
    expect(searchRequests(server).length).toBe(before);
  });

  it('table and Markdown: the "Compared with N peers" block and the alternatives', async () => {
    const table = await runCli(['check', 'request', '--compare', '--peers', '3'], { server });
    expect(table.stdout).toMatch(/^Compared with 4 peers \(library\)$/m);
    expect(table.stdout).toMatch(/rank 4 of 5 · percentile \d+ · median/);
    expect(table.stdout).toMatch(/Higher-scoring alternatives/);
    expect(table.stdout).toMatch(/named as a replacement by module-replacements/);
    const markdown = await runCli(['check', 'request', '--compare', '--format', 'markdown'], { server });
    expect(markdown.stdout).toMatch(/^### Compared with 4 peers \(library\)$/m);
    expect(markdown.stdout).toMatch(/^\| Alternative \| Score \| Grade \| Verdict \| Why \| Better in \|$/m);
  });

  it('search down: "Not compared with peers" and the reason; null comparison in JSON', async () => {
    serveSearch(server, { status: 500 });
    try {
      const json = parseReport((await runCli(['check', 'nerq-peer-fetch', '--compare', '--json'], { server })).stdout);
      expect(json.comparison).toBeNull();
      expect(json.comparisonUnavailable).toMatchObject({ code: 'search-unavailable', sourceCode: 'http-status', reason: expect.stringMatching(/^npm search: .*500/) });
      const table = await runCli(['check', 'nerq-peer-fetch', '--compare'], { server });
      expect(table.stdout).toMatch(/^Not compared with peers$/m);
    } finally {
      serveSearch(server, searchAnswer(PEERS, { hostile: true }));
    }
  });

  it.each([
    [['check', 'request', '--peers', '3']],
    [['check', 'request', '--compare', '--peers', '0']],
    [['check', 'request', '--compare', '--peers', '2.5']],
  ])('%j is a usage error', async (args) => {
    expectUsageError(await runCli(args, { server }));
  });
});

describe('nerq compare', () => {
  const targets = ['request', 'nerq-peer-fetch', 'chalk'];

  it('three packages side by side in the terminal', async () => {
    const result = await runCli(['compare', ...targets], { server });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/request@2\.88\.2\s+nerq-peer-fetch@2\.0\.0\s+chalk@4\.1\.0$/);
    for (const label of ['Score', 'Grade', 'Verdict', 'Security', 'Maintenance', 'Documentation', 'Compliance', 'Community', 'Coverage']) {
      expect(lines.some((l) => l.startsWith(label)), label).toBe(true);
    }
    expect(result.stdout).toMatch(/^Where they differ most$/m);
    expect(result.stdout).toMatch(/^Highest score: nerq-peer-fetch@2\.0\.0$/m);
  });

  it("the README's outputs are what nerq prints here (its section says they come from this fixture server)", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Compared with its peers'), readme.indexOf('### `nerq audit [dir]`'));
    const blocks = [...section.matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(2);
    // The "Compared with" block, as `nerq check request --compare` prints it.
    const check = await runCli(['check', 'request', '--compare'], { server });
    const start = check.stdout.indexOf('Compared with ');
    expect(check.stdout.slice(start, check.stdout.indexOf('\n\n', start) + 1)).toBe(blocks[0]);
    // The side-by-side table, as the command the block shows prints it.
    const [command, ...printed] = blocks[1]!.split('\n');
    const compare = await runCli(command!.replace(/^\$ nerq /, '').split(' '), { server });
    expect(compare.code).toBe(0);
    expect(compare.stdout).toBe(printed.join('\n'));
  });

  it('--json: the reports (each a valid report) and the side-by-side comparison', async () => {
    const result = await runCli(['compare', ...targets, '--json'], { server });
    const body = JSON.parse(result.stdout) as { reports: unknown[]; comparison: { targets: string[]; highest: string; differences: { id: string }[] } };
    expect(body.reports).toHaveLength(3);
    for (const report of body.reports) {
      expect(() => ReportSchema.parse(report)).not.toThrow();
      expect(schemaViolations(report)).toEqual([]);
    }
    expect(body.comparison.targets).toEqual(['request@2.88.2', 'nerq-peer-fetch@2.0.0', 'chalk@4.1.0']);
    expect(body.comparison.differences.map((d) => d.id)).toContain('deprecation');
  });

  it('Markdown for a pull request', async () => {
    const result = await runCli(['compare', 'request', 'nerq-peer-fetch', '--format', 'markdown'], { server });
    expect(result.stdout).toMatch(/^## nerq compare · 2 targets$/m);
    expect(result.stdout).toMatch(/^\| \| `request@2\.88\.2` \| `nerq-peer-fetch@2\.0\.0` \|$/m);
    expect(result.stdout).toMatch(/^\| Score \| 49\.9 \| \d+\.\d \|$/m);
  });

  it.each([[['compare', 'request']], [['compare', 'request', 'npm:request']], [['compare', 'request', 'NOT A NAME!']], [['compare', 'request', 'chalk', '--format', 'sarif']]])('%j is a usage error', async (args) => {
    expectUsageError(await runCli(args, { server }));
  });
});
