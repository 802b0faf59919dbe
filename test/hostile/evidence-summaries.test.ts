/**
 * Hostile world: evidence that claims more than it holds. `nerq score` re-scores a file someone
 * else may have written. An `mcp:` entry's evidence holds each package's own evidence
 * (`mcpPackages`) and, beside it, the summary the entry's checks read (`evaluation`, `claim`):
 * a summary edited to claim a better score, or a server name the package never claimed, does not
 * raise the entry's score — it is made again from the package's own evidence, as `nerq check`
 * made it — and package evidence that does not line up with the packages the entry names (one
 * left out, another target's put in its place) is bad input: exit 2, one line naming where.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { evidence as packageEvidence } from '../support/evidence-builder.js';
import { runCli } from '../support/run-cli.js';
import { checkOf, expectPackage, parseReport } from '../cli/helpers.js';
import { entryWithBarePackage, nerqFixtureBareWith, serveEntry, startMcpFixtureServer } from '../cli/mcp-helpers.js';
import { useMcpSandbox } from '../cli/mcp-sandbox.js';
import { expectOneLineRefusal } from './support/expect.js';
import { noteCases } from './support/metrics.js';

const sandbox = useMcpSandbox(startMcpFixtureServer);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-evidence-summaries-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Evidence as `--save-evidence` writes it for an entry whose one npm package claims `claimed` (a real entry, edited), and the live report. */
async function saved(server: string, claimed: string): Promise<{ live: Report; evidence: Record<string, any> }> {
  const s = await sandbox.start();
  serveEntry(s, entryWithBarePackage(server));
  expectPackage(s, 'nerq-fixture-bare', { packument: { body: nerqFixtureBareWith(claimed) } });
  const file = path.join(dir, `${server.replaceAll('/', '_')}-${claimed.replaceAll('/', '_')}.json`);
  const live = parseReport((await runCli(['check', `mcp:${server}`, '--json', '--save-evidence', file], { server: s })).stdout);
  return { live, evidence: JSON.parse(readFileSync(file, 'utf8')) as Record<string, any> };
}

async function score(evidence: unknown, name: string) {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(evidence));
  return runCli(['score', file, '--json']);
}

const SERVER = 'io.github.domdomegg/airtable-mcp-server';
const LOOK_ALIKE = 'io.github.domdomegg-tools/airtable-mcp-server';

describe("nerq score: an entry's package summaries are made again from the packages' own evidence", () => {
  it('a summary edited to claim a higher score and YES re-scores to the report nerq check gave', async ({ task, expect }) => {
    noteCases(task);
    const { live, evidence } = await saved(SERVER, SERVER);
    const pkg = evidence.sources.mcp.facts.packages[0];
    expect(pkg.evaluation.score).toBe(live.mcp?.packages[0]?.report?.score);
    expect(pkg.evaluation.score).toBeLessThan(100);
    pkg.evaluation = { ...pkg.evaluation, score: 100, grade: 'A', verdictCode: 'yes', coverage: 1, unchecked: [], doNotUse: false };
    const run = await score(evidence, 'summary-raised');
    const rescored = parseReport(run.stdout);
    expect([rescored.score, rescored.verdictCode, rescored.caps, checkOf(rescored, 'mcp-packages')]).toEqual([
      live.score,
      live.verdictCode,
      live.caps,
      checkOf(live, 'mcp-packages'),
    ]);
  });

  it("a claim edited to name the look-alike's own server does not lift the ownership cap", async ({ task, expect }) => {
    noteCases(task);
    const { live, evidence } = await saved(LOOK_ALIKE, SERVER);
    expect(checkOf(live, 'mcp-package-ownership')).toMatchObject({ score: 0, messageId: 'mismatch' });
    evidence.sources.mcp.facts.packages[0].claim = { known: true, name: LOOK_ALIKE, where: 'package.json mcpName' };
    const rescored = parseReport((await score(evidence, 'claim-edited')).stdout);
    expect(checkOf(rescored, 'mcp-package-ownership')).toMatchObject({ score: 0, messageId: 'mismatch' });
    expect([rescored.score, rescored.caps.map((c) => c.id)]).toEqual([live.score, live.caps.map((c) => c.id)]);
  });
});

describe("nerq score: package evidence that does not line up with the entry's packages is bad input", () => {
  const edits: [label: string, where: RegExp, edit: (e: Record<string, any>) => void][] = [
    ['the package evidence left out (an empty list)', /mcpPackages/, (e) => {
      e.mcpPackages = [];
    }],
    ["another target's evidence in the package's place", /mcpPackages\.0\.evidence\.target\.input/, (e) => {
      e.mcpPackages[0].evidence.target.input = 'npm:left-pad@1.3.0';
    }],
    ['no outcome for the evaluated package', /mcpPackages\.0/, (e) => {
      e.mcpPackages[0] = null;
    }],
    ['package evidence beside a target that is no MCP entry', /mcpPackages/, (e) => {
      e.sources.mcp = { status: 'not-applicable', reason: 'edited' };
    }],
  ];
  it.for(edits)('%s: exit 2, one line', async ([label, where, edit], { task, expect }) => {
    noteCases(task);
    const { evidence } = await saved(SERVER, SERVER);
    edit(evidence);
    const run = await score(evidence, `mismatch-${edits.findIndex(([l]) => l === label)}`);
    const context = `${label}: exit ${run.code}, stderr ${run.stderr}`;
    expectOneLineRefusal(run, where, context);
  });
});

/**
 * A summary in evidence saved before the packages' own evidence was recorded is read as written,
 * and a share or a score no collector can write is bad input: a package score of -5 would make the
 * entry's score -5, a top contributor's share of -1 would pass a one-person project as shared.
 */
describe('nerq score: fractions and scores outside their range are bad input', () => {
  it.for([
    ['a package summary score of -5', /evaluation\.score/, -5],
    ['a package summary score of 1000', /evaluation\.score/, 1000],
    ['a package summary coverage of 7', /evaluation\.coverage/, 7],
  ] as [string, RegExp, number][])('%s: exit 2, one line', async ([label, where, value], { task, expect }) => {
    noteCases(task);
    const { evidence } = await saved(SERVER, SERVER);
    delete evidence.mcpPackages;
    const field = label.includes('coverage') ? 'coverage' : 'score';
    evidence.sources.mcp.facts.packages[0].evaluation[field] = value;
    const run = await score(evidence, `range-${field}-${value}`);
    const context = `${label}: exit ${run.code}, stderr ${run.stderr}`;
    expect(run.code, context).toBe(2);
    expect(run.stderr.trim().split('\n'), context).toHaveLength(1);
    expect(run.stderr, context).toMatch(where);
    expect(run.stdout, context).toBe('');
  });

  it.for([-1, 1.5])("a top contributor's share of %d: exit 2, one line", async (share, { task, expect }) => {
    noteCases(task);
    const hostile = packageEvidence({ github: {} }) as Record<string, any>;
    hostile.sources.github.facts.contributors.topShare = share;
    const run = await score(hostile, `top-share-${share}`);
    const context = `topShare ${share}: exit ${run.code}, stderr ${run.stderr}`;
    expect(run.code, context).toBe(2);
    expect(run.stderr.trim().split('\n'), context).toHaveLength(1);
    expect(run.stderr, context).toMatch(/topShare/);
  });
});
