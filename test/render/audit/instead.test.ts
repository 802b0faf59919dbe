/** The "what to use instead" line of `audit --compare` (render/audit-labels.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { insteadText } from '../../../src/render/audit-labels.js';
import { ReportSchema, type Report } from '../../../src/report/schema.js';
import { entryOf } from '../../audit/policy/reports.js';

const chalk = (): Report => ReportSchema.parse(JSON.parse(readFileSync(new URL('../../../fixtures/reports/chalk-5.3.0.json', import.meta.url), 'utf8')));
const SAMPLE = { sources: ['npm-search'], query: 'keywords:color', candidates: 3, skipped: 2, excluded: 0, evaluatedAt: '2026-11-30T00:00:00.000Z', notes: [] };

describe('insteadText', () => {
  it('too few peers for a standing are still peers compared: "no higher-scoring alternative", not "not compared"', () => {
    const members = [{ target: 'kleur@4.1.5', score: 60, grade: 'C' as const, verdictCode: 'caution' as const }];
    const report = { ...chalk(), comparison: null, comparisonUnavailable: { code: 'no-peers' as const, reason: 'only 1 of the 1 peers evaluated scored', notes: [], members, sample: SAMPLE }, alternatives: [] };
    expect(insteadText(entryOf(report))).toBe('no higher-scoring alternative among 1 peer');
    // No peer at all: not compared, with the reason.
    const none = { ...report, comparisonUnavailable: { code: 'no-peers' as const, reason: 'no candidate peer', notes: [] } };
    expect(insteadText(entryOf(none))).toBe('not compared: no candidate peer');
  });
});
