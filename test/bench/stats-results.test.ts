import { describe, expect, it } from 'vitest';
import { parseGnuTimeRss } from '../../bench/child.js';
import { firstLine, type WorkloadResult } from '../../bench/context.js';
import { BEGIN_MARKER, END_MARKER, mergeResults, onlyMarkers, redactPaths, renderGenerated, renderStdout, rowsOf, selectionKey, type Environment } from '../../bench/results.js';
import { parseCli } from '../../bench/run.js';
import { readComparedReport } from '../../bench/workloads/audit-compare.js';
import { upstreamCounts } from '../../bench/workloads/serve-alternatives.js';
import { formatMs, formatSummary, growth, isLinearOrBetter, median, summarise } from '../../bench/stats.js';
import { countRequests } from '../../bench/workloads/audit.js';
import { byRoute, routeOf } from '../../bench/requests.js';
import type { RequestRecord } from '../../bench/server.js';

describe('stats', () => {
  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(Number.isNaN(median([]))).toBe(true);
  });

  it('summarises and formats median (min–max)', () => {
    const s = summarise([1200, 900, 1500]);
    expect(s).toEqual({ median: 1200, min: 900, max: 1500, runs: 3 });
    expect(formatSummary(s)).toBe('1.20 s (900 ms–1.50 s)');
    expect(formatSummary(summarise([42]))).toBe('42 ms');
    expect(formatMs(Number.NaN)).toBe('–');
  });

  it('judges growth against linear, with a tolerance', () => {
    const steps = growth([
      { size: 1000, ms: 8000 },
      { size: 100, ms: 1000 },
      { size: 5000, ms: 42000 },
    ]);
    expect(steps.map((s) => [s.fromSize, s.toSize])).toEqual([
      [100, 1000],
      [1000, 5000],
    ]);
    expect(steps[0]!.exponentFactor).toBeCloseTo(0.8);
    expect(steps[1]!.exponentFactor).toBeCloseTo(1.05);
    expect(isLinearOrBetter(steps)).toBe(true);
    expect(isLinearOrBetter(steps, 0.01)).toBe(false);
    expect(isLinearOrBetter([])).toBeNull();
  });
});

describe('GNU time output', () => {
  it('reads the peak RSS line, after an exit-status line', () => {
    expect(parseGnuTimeRss('123456\n')).toBe(123456);
    expect(parseGnuTimeRss('Command exited with non-zero status 1\n98765\n')).toBe(98765);
    expect(parseGnuTimeRss('garbage')).toBeNull();
  });
});

describe('reason lines', () => {
  it("prefer nerq's own message, then an error line over a stack position", () => {
    expect(firstLine('\nnerq: no lockfile found in .\n')).toBe('nerq: no lockfile found in .');
    expect(firstLine('node:internal/modules/esm/resolve:272\n    throw new ERR_MODULE_NOT_FOUND(\nError [ERR_MODULE_NOT_FOUND]: Cannot find module x\n')).toBe('Error [ERR_MODULE_NOT_FOUND]: Cannot find module x');
    expect(firstLine('something odd\nmore')).toBe('something odd');
    expect(firstLine('')).toBe('');
  });
});

describe('routes', () => {
  it('take names and ids out of request paths', () => {
    expect(routeOf('/github/repos/acme/acme/contributors?per_page=100')).toBe('/github/repos/{owner}/{repo}/contributors');
    expect(routeOf('/github/repos/acme/acme')).toBe('/github/repos/{owner}/{repo}');
    expect(routeOf('/github/graphql')).toBe('/github/graphql');
    expect(routeOf('/npm/@acme%2fhttp')).toBe('/npm/{name}');
    expect(routeOf('/npm/x/-/x-1.0.0.tgz')).toBe('/npm/{tarball or attestation}');
    expect(routeOf('/npm-api/downloads/point/last-week/x')).toBe('/npm-api/downloads/point/{period}/{name}');
    expect(routeOf('/osv/v1/vulns/GHSA-1')).toBe('/osv/v1/vulns/{id}');
    expect(routeOf('/osv/v1/querybatch')).toBe('/osv/v1/querybatch');
  });
});

describe('request counts', () => {
  const r = (method: string, path: string, service: RequestRecord['service'], known = true): RequestRecord => ({ method, path, service, status: 200, bytes: 1, start: 0, end: 1, known, aborted: false });
  it('counts OSV batches, records and GitHub requests, and lists unknown routes once', () => {
    const counts = countRequests([
      r('POST', '/osv/v1/querybatch', 'osv'),
      r('GET', '/osv/v1/vulns/GHSA-1', 'osv'),
      r('GET', '/osv/v1/vulns/GHSA-2', 'osv'),
      r('POST', '/github/graphql', 'github'),
      r('GET', '/github/repos/a/b/nope', 'github', false),
      r('GET', '/github/repos/a/b/nope', 'github', false),
      r('GET', '/npm/x', 'npm'),
      r('GET', '/npm-api/downloads/point/last-week/x', 'npm-api'),
    ]);
    expect(byRoute([r('GET', '/npm/a', 'npm'), r('GET', '/npm/b', 'npm'), r('POST', '/github/graphql', 'github')])).toBe('`GET /npm/{name}` ×2, `POST /github/graphql` ×1');
    expect(counts).toEqual({ total: 8, osvBatches: 1, osvRecords: 2, github: 3, npm: 1, downloads: 1, unknown: ['GET /github/repos/a/b/nope'] });
  });
});

describe('results', () => {
  const env: Environment = {
    cores: 2,
    cpu: 'Test CPU',
    node: '24.0.0',
    date: '2026-11-30 12:00 UTC',
    latencyMs: 40,
    connectLatencyMs: 40,
    seed: 9,
    githubToken: true,
    generated: 'Generated 3 packages.',
    benchSeconds: 12,
    command: 'npm run bench',
    load: [0.5, 3.5],
  };
  const results: WorkloadResult[] = [
    { id: 'startup', title: 'start-up', status: 'ok', figures: [{ workload: 'start-up', figure: 'ratio', target: '≤ 1.5', value: '1.20', met: true }], details: ['detail | with pipe'] },
    { id: 'check-warm', title: 'one check, warm store', status: 'ok', figures: [{ workload: 'one check, warm store', figure: 'wall', target: '≤ 250 ms', value: '400 ms', met: false }], details: [] },
    { id: 'audit-cold', title: 'audit, cold', status: 'not-available', reason: 'no audit command', figures: [], details: [] },
  ];

  it('gives a workload that did not run one row with its reason', () => {
    expect(rowsOf(results).at(-1)).toMatchObject({ workload: 'audit, cold', value: 'not available: no audit command', met: null });
  });

  it('prints a table and a closing line', () => {
    const text = renderStdout(results, env);
    expect(text).toContain('NOT MET');
    expect(text).toContain('1 of 2 targets met; 1 workloads not available');
  });

  it('replaces only the generated block of an existing RESULTS.md', () => {
    const generated = renderGenerated(results, env);
    expect(generated.startsWith(BEGIN_MARKER)).toBe(true);
    expect(generated.endsWith(END_MARKER)).toBe(true);
    expect(generated).toContain('Not met: one check, warm store — wall (400 ms against ≤ 250 ms)');
    expect(generated).toContain('load average 0.5 at the start, 3.5 at the end (other work competed for the CPU');
    const previous = `# Title\n\nintro\n\n${BEGIN_MARKER}\nold numbers\n${END_MARKER}\n\n## Optimisations\n\n| a | 1 → 2 |\n`;
    const merged = mergeResults(previous, generated);
    expect(merged).not.toContain('old numbers');
    expect(merged.startsWith('# Title\n\nintro\n\n')).toBe(true);
    expect(merged.endsWith('## Optimisations\n\n| a | 1 → 2 |\n')).toBe(true);
    // A fresh file gets the skeleton around the block.
    const fresh = mergeResults(null, generated);
    expect(fresh).toContain('# nerq benchmark results');
    expect(fresh).toContain('## Optimisations (before → after)');
    expect(mergeResults(fresh, generated)).toBe(fresh);
  });

  it('keeps the figures of an --only run in a block of its own, beside the main one', () => {
    const main = mergeResults(null, renderGenerated(results, env));
    const only = renderGenerated(results.slice(0, 1), { ...env, command: 'npm run bench -- --only startup' }, 'startup');
    expect(only.startsWith(onlyMarkers('startup').begin)).toBe(true);
    expect(only.endsWith(onlyMarkers('startup').end)).toBe(true);
    expect(only).toContain('## Only startup');
    // Written after the main block, which keeps its rows.
    const withOnly = mergeResults(main, only, 'startup');
    expect(withOnly).toContain(renderGenerated(results, env));
    expect(withOnly.indexOf(END_MARKER)).toBeLessThan(withOnly.indexOf(onlyMarkers('startup').begin));
    expect(withOnly.endsWith('| --- | --- | --- | --- |\n')).toBe(true);
    // The next run of the same selection replaces its block; another selection adds its own.
    const again = renderGenerated(results.slice(0, 1), { ...env, date: '2026-12-02 09:00 UTC', command: 'npm run bench -- --only startup' }, 'startup');
    const replaced = mergeResults(withOnly, again, 'startup');
    expect(replaced).toContain('2026-12-02 09:00 UTC');
    expect(replaced.split(onlyMarkers('startup').begin)).toHaveLength(2);
    const two = mergeResults(replaced, renderGenerated(results.slice(1), env, 'check'), 'check');
    expect(two).toContain(onlyMarkers('check').end);
    expect(two).toContain(onlyMarkers('startup').end);
    // A run of every workload drops both and leaves the main block and the hand-written parts.
    expect(mergeResults(two, renderGenerated(results, env))).toBe(main);
    expect(selectionKey(['serve', 'audit-compare', 'serve'])).toBe('audit-compare,serve');
  });

  it('takes machine paths out', () => {
    const text = 'file:///repo/root/dist/chunk.js and /repo/root/src/x.ts in /scratch/t/home-1 under /users/me';
    expect(redactPaths(text, { repoRoot: '/repo/root', tmp: '/scratch/t', home: '/users/me' })).toBe('dist/chunk.js and src/x.ts in $TMPDIR/home-1 under ~');
    expect(redactPaths('GET /users/meta and /users/me.', { repoRoot: '/r', tmp: '/scratch/t', home: '/users/me' })).toBe('GET /users/meta and ~.');
  });
});

describe('workload selection', () => {
  it('runs every workload by default, all but the comparisons with --quick, and keys an --only run', () => {
    expect([...parseCli([]).only]).toContain('audit-compare');
    expect(parseCli([]).selection).toBeNull();
    expect(parseCli(['--quick']).only.has('audit-compare')).toBe(false);
    expect(parseCli(['--quick']).only.has('serve-alternatives')).toBe(false);
    expect(parseCli(['--quick', '--only', 'serve-alternatives']).only.has('serve-alternatives')).toBe(true);
    expect(parseCli(['--quick']).only.has('serve')).toBe(true);
    expect(parseCli(['--only', 'serve,audit-compare']).selection).toBe('audit-compare,serve');
    expect(parseCli(['--only', 'startup,check,compare,audit,audit-compare,serve,serve-alternatives,outage,heavy']).selection).toBeNull();
    expect(() => parseCli(['--only', 'audit-comparison'])).toThrow(/unknown workload audit-comparison/);
  });
});

describe('readComparedReport', () => {
  it('counts the compared entries, their peers and the cap', () => {
    const entry = (status: string, report: Record<string, unknown>) => ({ policy: { status }, report });
    const stdout = JSON.stringify({
      entries: [
        entry('fail', { comparison: { peers: 7 } }),
        entry('fail', { comparison: null, comparisonUnavailable: { code: 'no-peers' } }),
        entry('fail', { comparison: { peers: 12 } }),
        entry('fail', {}),
        entry('pass', {}),
      ],
      warnings: [{ code: 'compare-limited', details: { compared: 3, skipped: 1 } }],
    });
    expect(readComparedReport(stdout)).toEqual({ entries: 5, failing: 4, compared: 3, peers: 19, skipped: 1 });
    expect(readComparedReport(JSON.stringify({ entries: [entry('pass', {})], warnings: [] }))).toEqual({ entries: 1, failing: 0, compared: 0, peers: 0, skipped: null });
    expect(readComparedReport('not json')).toBeNull();
    expect(readComparedReport('{}')).toBeNull();
  });
});

describe('upstreamCounts', () => {
  it('counts search requests and packument fetches by name, leaving tarballs, attestations and other services out', () => {
    const r = (path: string, service: RequestRecord['service'] = 'npm', method = 'GET'): RequestRecord => ({ method, path, service, status: 200, bytes: 1, start: 0, end: 1, known: true, aborted: false });
    const log = [
      r('/npm/-/v1/search?text=keywords:a&size=20'),
      r('/npm/-/v1/search?text=keywords:b&size=20'),
      r('/npm/left-pad'),
      r('/npm/left-pad'),
      r('/npm/%40scope%2Fname'),
      r('/npm/left-pad/-/left-pad-1.0.0.tgz'),
      r('/npm/-/npm/v1/attestations/left-pad@1.0.0'),
      r('/npm-api/downloads/point/last-week/left-pad', 'npm-api'),
      r('/npm/left-pad', 'npm', 'HEAD'),
    ];
    expect(upstreamCounts(log)).toEqual({ searches: 2, packuments: 3, maxPerName: 2 });
    expect(upstreamCounts([])).toEqual({ searches: 0, packuments: 0, maxPerName: 0 });
  });
});
