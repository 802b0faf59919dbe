/**
 * `compareFailing` (app/audit-compare.ts): only failing packages are compared, the lowest scores
 * first, at most AUDIT_COMPARE_LIMIT, the rest counted in one `compare-limited` warning. The
 * packages here have no evidence (no keywords) and no curated replacement, so no request is
 * made: each comparison answers `search-unavailable` with its reason.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AUDIT_COMPARE_LIMIT, compareFailing } from '../../src/app/audit-compare.js';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { deprecated, entryOf, healthy } from '../audit/policy/reports.js';
import { POLICY } from '../render/audit/sample.js';

let home: string;
let runtime: Runtime | undefined;

afterEach(async () => {
  await runtime?.close();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

function offlineRuntime(): Runtime {
  home = mkdtempSync(path.join(os.tmpdir(), 'nerq-audit-compare-'));
  // Every host unreachable: a request would fail, and the test asserts none is needed.
  runtime = createRuntime({ env: { HOME: home, NERQ_CACHE_DIR: home, npm_config_registry: 'http://127.0.0.1:9/' }, cwd: home, clock: () => new Date('2026-12-01T00:00:00Z') });
  return runtime;
}

describe('compareFailing', () => {
  it('compares only failing packages, and says why there is no comparison', async () => {
    const entries = [entryOf(healthy('fine', '1.0.0'), POLICY), entryOf(deprecated('old-thing', '1.0.0'), POLICY)];
    expect(entries.map((e) => e.policy.status)).toEqual(['pass', 'fail']);
    const { entries: out, warnings } = await compareFailing(offlineRuntime(), entries, [null, null], { gate: DEFAULT_GATE });
    expect('comparison' in out[0]!.report).toBe(false);
    expect(out[1]!.report.comparison).toBeNull();
    expect(out[1]!.report.comparisonUnavailable?.code).toBe('search-unavailable');
    expect(out[1]!.report.alternatives).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it(`compares at most ${AUDIT_COMPARE_LIMIT}, the lowest scores first, and counts the rest in one warning`, async () => {
    const entries = Array.from({ length: AUDIT_COMPARE_LIMIT + 3 }, (_, i) => {
      const entry = entryOf(deprecated(`old-${i}`, '1.0.0'), POLICY);
      // Scores 49.9 down to 37.9: the last ones are the worst.
      return { ...entry, report: { ...entry.report, score: 49.9 - i } };
    });
    const { entries: out, warnings } = await compareFailing(offlineRuntime(), entries, entries.map(() => null), { gate: DEFAULT_GATE });
    const compared = out.filter((e) => 'comparison' in e.report).map((e) => e.subject.name);
    expect(compared).toHaveLength(AUDIT_COMPARE_LIMIT);
    expect(compared).not.toContain('old-0');
    expect(compared).not.toContain('old-2');
    expect(compared).toContain('old-3');
    expect(compared).toContain(`old-${AUDIT_COMPARE_LIMIT + 2}`);
    expect(warnings.map((w) => [w.code, w.details])).toEqual([['compare-limited', { compared: AUDIT_COMPARE_LIMIT, skipped: 3 }]]);
  });
});
