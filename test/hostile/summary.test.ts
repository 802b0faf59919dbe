/** The summary script (scripts/hostile-summary.ts) over made-up outcomes. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, formatSummary, outcomesFromJson, summarise, type TestOutcome } from '../../scripts/hostile-summary.js';

const MiB = 1024 * 1024;
const outcome = (file: string, state: TestOutcome['state'], cases: number, wallMs: number | null, boundMs: number | null, rss: number | null): TestOutcome => ({
  file: `/repo/test/hostile/${file}`,
  name: `${file} ${state} ${cases}`,
  state,
  meta: { cases, wallMs, boundMs, peakRssBytes: rss },
});

describe('the hostile summary', () => {
  const rows = summarise([
    outcome('faults.test.ts', 'passed', 1, 3500, 4000, 150 * MiB),
    outcome('faults.test.ts', 'passed', 1, 9000, 11000, 160 * MiB),
    outcome('faults.test.ts', 'failed', 1, 1000, 4000, 400 * MiB),
    outcome('bad-input.test.ts', 'passed', 266, null, null, 90 * MiB),
    { file: '/repo/test/hostile/fuzz.test.ts', name: 'no meta', state: 'passed', meta: undefined },
    outcome('other.test.ts', 'passed', 5, 1, 1, 1),
    // A known finding (it.fails): no case of its own, counted apart.
    { file: '/repo/test/hostile/faults.test.ts', name: 'finding', state: 'passed', meta: { cases: 0, wallMs: null, boundMs: null, peakRssBytes: null, knownFailures: 1 } },
    // The fuzzing category spans several files.
    outcome('fuzz-lockfiles.test.ts', 'passed', 10_000, 2000, 60_000, 200 * MiB),
  ]);

  it('sums cases per category, counts passed ones, keeps the time closest to its bound and the peak RSS', () => {
    const faults = rows.find((r) => r.category === '1 network faults');
    expect(faults).toMatchObject({ tests: 4, testsPassed: 3, cases: 3, casesPassed: 2, knownFailures: 1, largest: { wallMs: 3500, boundMs: 4000 }, peakRssBytes: 400 * MiB });
    expect(rows.find((r) => r.category === '4 bad input')).toMatchObject({ cases: 266, casesPassed: 266, knownFailures: 0, largest: null });
    expect(rows.find((r) => r.category === '5 property-based fuzzing')).toMatchObject({ tests: 2, cases: 10_000, casesPassed: 10_000 });
    expect(rows).toHaveLength(new Set(CATEGORIES.map(([, category]) => category)).size);
    expect(rows.map((r) => r.category)).toContain('18 output channels');
    // The package-manager classes and the pull-request policy have categories of their own.
    expect(rows.map((r) => r.category)).toEqual(expect.arrayContaining(['7 manifest confusion', '8 lockfile injection', '9 dependencies no registry vouches for', '10 hollow provenance', '11 odd field types', '12 starjacking by path', '16 memory on real projects', '17 the policy a pull request can rewrite']));
  });

  it('prints one line per category and a total', () => {
    const text = formatSummary(rows);
    expect(text).toMatch(/1 network faults\s+3\s+2 \(1 tests failed\) \(1 known findings\)\s+3\.5 s \/ 4\.0 s \(88%\)\s+400 MiB/);
    expect(text).toMatch(/total\s+10269\s+10268 \(1 known findings\)\s+400 MiB/);
  });

  it('counts every test file of the hostile suite in a category (a file left out would run unseen in the summary)', () => {
    const files = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.test.ts') && f !== 'summary.test.ts');
    const categorised = new Set(CATEGORIES.map(([file]) => file));
    expect(files.filter((f) => !categorised.has(f))).toEqual([]);
    expect(files.length).toBeGreaterThan(30);
  });

  it('reads Vitest JSON reports', () => {
    const outcomes = outcomesFromJson({ testResults: [{ name: '/r/test/hostile/secrets.test.ts', assertionResults: [{ title: 't', status: 'passed', meta: { hostile: { cases: 19, wallMs: null, boundMs: null, peakRssBytes: MiB } } }] }] });
    expect(summarise(outcomes).find((r) => r.category === '6 secrets')).toMatchObject({ cases: 19, casesPassed: 19, peakRssBytes: MiB });
  });
});
