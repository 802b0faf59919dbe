/**
 * The verdict policy (src/scoring/verdict.ts), rule by rule and at each boundary: what moves
 * the verdict, in which order the reasons come, and when the score is provisional.
 */
import { describe, expect, it } from 'vitest';
import type { CapRequest } from '../../src/checks/define.js';
import type { VerdictCode } from '../../src/report/schema.js';
import { decideVerdict, type VerdictCheck, type VerdictInput } from '../../src/scoring/verdict.js';

const check = (id: string, overrides: Partial<VerdictCheck> = {}): VerdictCheck => ({
  id,
  title: id,
  dimension: 'security',
  guardsDanger: false,
  score: 100,
  messageId: 'fine',
  message: 'fine',
  holdVerdict: null,
  ...overrides,
});

const input = (overrides: Partial<VerdictInput> = {}): VerdictInput => ({
  score: 85,
  overallCaps: [],
  dimensionCaps: [],
  checks: [check('known-vulnerabilities', { guardsDanger: true })],
  unverifiedLink: null,
  category: 'library',
  coverage: 0.8,
  minCoverage: 0.5,
  ...overrides,
});

const stale: CapRequest = { id: 'stale-release', limit: 10, dimension: 'maintenance', reason: 'no stable release for 1,500 days' };
const anomalies: CapRequest = { id: 'release-anomalies', limit: 49.9, reason: '3 release anomalies' };
const weakest: CapRequest = { id: 'mcp-package-weakest', limit: 89.3, ceiling: true, reason: 'its weakest package scores 89.3' };
/** A check left unknown because its source did not answer (scoring/evaluate.ts). */
const unavailable = (id: string) => check(id, { dimension: 'community', score: null, messageId: 'source-unavailable', message: 'Unknown: downloads unavailable (HTTP 503)' });
/** A repository check left unknown because the target declares no source repository nerq can read (scoring/evaluate.ts). */
const noRepository = (id: string) => check(id, { dimension: 'maintenance', score: null, messageId: 'no-source-repository', message: 'Unknown: no source repository nerq can read (the entry names no source repository)' });
const held = (id: string, dimension: VerdictCheck['dimension'], detail: string) => check(id, { dimension, holdVerdict: detail });

describe('decideVerdict', () => {
  it.each<[string, Partial<VerdictInput>, VerdictCode, string[], boolean]>([
    ['a score of 85 with nothing against it: YES', {}, 'yes', [], false],
    ['a score of 70.0 (shown): YES', { score: 69.95 }, 'yes', [], false],
    ['a score of 69.9: CAUTION by the score alone, no reason needed', { score: 69.9 }, 'caution', [], false],
    ['coverage exactly at the gate\'s minimum: not provisional', { coverage: 0.5 }, 'yes', [], false],
    ['coverage just under it, a source unavailable: provisional, CAUTION', { coverage: 0.499, checks: [unavailable('weekly-downloads')] }, 'caution', ['provisional'], true],
    ['coverage just under it, every source answered: provisional, CAUTION, the thin-evidence reason', { coverage: 0.499 }, 'caution', ['provisional-thin'], true],
    [
      "an MCP entry's package whose registry did not answer is an unavailable source, not thin evidence",
      { coverage: 0.47, checks: [check('mcp-packages', { dimension: 'security', score: null, messageId: 'unavailable', message: 'Unknown: package pypi:x==1.0 could not be evaluated' })] },
      'caution',
      ['provisional'],
      true,
    ],
    ['another check unknown as `unavailable` is not a source that did not answer', { coverage: 0.47, checks: [check('contributors', { score: null, messageId: 'unavailable' })] }, 'caution', ['provisional-thin'], true],
    ['a check unknown for a fact its answered source lacks is thin evidence, not an unavailable source', { coverage: 0.4, checks: [check('contributors', { score: null, messageId: 'too-few-commits' })] }, 'caution', ['provisional-thin'], true],
    ['coverage under it with no source repository declared: provisional, the no-repository reason', { coverage: 0.33, checks: [noRepository('commit-activity')] }, 'caution', ['provisional-no-repository'], true],
    ['no source repository and a source unavailable: the no-repository reason, which no source answering lifts', { coverage: 0.3, checks: [noRepository('commit-activity'), unavailable('weekly-downloads')] }, 'caution', ['provisional-no-repository'], true],
    ['no source repository with enough evidence otherwise: YES, nothing said', { coverage: 0.74, checks: [noRepository('commit-activity')] }, 'yes', [], false],
    ['provisional below 50 stays NO, and says it is provisional', { score: 40, coverage: 0.3, checks: [unavailable('weekly-downloads')] }, 'no', ['provisional'], true],
    ['an MCP server at 79.9: below its bar, CAUTION', { category: 'mcp-server', score: 79.9 }, 'caution', ['category-bar'], false],
    ['an MCP server at 80: YES', { category: 'mcp-server', score: 80 }, 'yes', [], false],
    ['a code-execution tool at 75: CAUTION', { category: 'code-execution', score: 75 }, 'caution', ['category-bar'], false],
    ['a library at 75: YES', { score: 75 }, 'yes', [], false],
    ['a finding holds the verdict', { checks: [held('typosquat', 'security', 'close to cross-env')] }, 'caution', ['verdict-held'], false],
    ['a hold is listed even when the score alone gives CAUTION', { score: 60, checks: [held('typosquat', 'security', 'close to cross-env')] }, 'caution', ['verdict-held'], false],
    ['a maintenance cap holds', { dimensionCaps: [stale] }, 'caution', ['dimension-capped'], false],
    ['a guarding check unknown holds, at any score', { score: 60, checks: [check('known-vulnerabilities', { guardsDanger: true, score: null, message: 'Unknown: OSV unavailable' })] }, 'caution', ['danger-unchecked'], false],
    ['a cap: NO below 50, with its reason', { score: 49.9, overallCaps: [anomalies] }, 'no', ['capped'], false],
    ['a cap decides, however little else is known: not provisional', { score: 49.9, overallCaps: [anomalies], coverage: 0.2 }, 'no', ['capped'], false],
    ['a ceiling (an MCP server\'s weakest package) with enough evidence: YES, the bound named', { category: 'mcp-server', score: 89.3, overallCaps: [weakest], coverage: 0.6 }, 'yes', ['capped'], false],
    ['a ceiling is no fact: thin evidence under it is still provisional', { category: 'mcp-server', score: 89.3, overallCaps: [weakest], coverage: 0.378, checks: [unavailable('stars-forks')] }, 'caution', ['capped', 'provisional'], true],
    ['a fact cap beside a ceiling decides: not provisional', { category: 'mcp-server', score: 49.9, overallCaps: [anomalies, weakest], coverage: 0.2 }, 'no', ['capped', 'capped'], false],
    ['do-not-use wins over everything', { score: 9.9, overallCaps: [{ id: 'malicious', limit: 9.9, doNotUse: true, reason: 'MAL-1' }], coverage: 0.1 }, 'do-not-use', ['do-not-use-cap'], false],
    ['nothing scored: UNKNOWN, never provisional', { score: null, coverage: 0 }, 'unknown', ['nothing-evaluated'], false],
  ])('%s', (_name, overrides, code, reasons, provisional) => {
    const verdict = decideVerdict(input(overrides));
    expect(verdict.code).toBe(code);
    expect(verdict.reasons.map((r) => r.code)).toEqual(reasons);
    expect(verdict.provisional).toBe(provisional);
  });

  it('lists every cap and hold, findings first: caps, security holds, other holds, dimension caps, the evidence, the link', () => {
    const verdict = decideVerdict(
      input({
        score: 49.9,
        overallCaps: [anomalies],
        dimensionCaps: [stale],
        category: 'mcp-server',
        coverage: 0.8,
        checks: [
          held('release-recency', 'maintenance', 'no stable release for 1,500 days; a new release would lift this'),
          held('typosquat', 'security', 'close to cross-env'),
          check('known-vulnerabilities', { guardsDanger: true, score: null, message: 'Unknown: OSV unavailable' }),
        ],
        unverifiedLink: { repository: 'github.com/x/y', detail: 'package.json names z' },
      }),
    );
    expect(verdict.reasons.map((r) => [r.code, r.args.check ?? r.args.cap ?? null])).toEqual([
      ['capped', 'release-anomalies'],
      ['verdict-held', 'typosquat'],
      ['verdict-held', 'release-recency'],
      ['dimension-capped', 'stale-release'],
      ['danger-unchecked', 'known-vulnerabilities'],
      ['link-unverified', null],
    ]);
    expect(verdict.code).toBe('no');
  });

  it('says what would lift each hold', () => {
    const verdict = decideVerdict(input({ coverage: 0.26, checks: [held('release-recency', 'maintenance', 'no stable release for 900 days; a new release would lift this'), unavailable('weekly-downloads')] }));
    expect(verdict.reasons.map((r) => r.text)).toEqual([
      'release-recency: no stable release for 900 days; a new release would lift this',
      'not enough evidence: coverage 26% is below the 50% a verdict needs, so the score is provisional; the missing sources answering would lift this',
    ]);
  });

  it('names the missing repository, and whether a source also did not answer', () => {
    const both = decideVerdict(input({ coverage: 0.3, checks: [noRepository('commit-activity'), unavailable('weekly-downloads')] }));
    expect(both.reasons.map((r) => r.args)).toEqual([{ coverage: 0.3, minCoverage: 0.5, sourcesUnavailable: true }]);
    const alone = decideVerdict(input({ coverage: 0.3, checks: [noRepository('commit-activity')] }));
    expect(alone.reasons.map((r) => r.args)).toEqual([{ coverage: 0.3, minCoverage: 0.5, sourcesUnavailable: false }]);
    expect(alone.reasons[0]?.text).not.toMatch(/sources answering/);
  });

  it('never promises that sources answering would lift a provisional score when every source answered', () => {
    const verdict = decideVerdict(input({ coverage: 0.26 }));
    const [reason] = verdict.reasons;
    expect(reason?.code).toBe('provisional-thin');
    expect(reason?.args).toEqual({ coverage: 0.26, minCoverage: 0.5 });
    expect(reason?.text).not.toMatch(/sources answering/);
  });
});
