import { describe, expect, it } from 'vitest';
import { applyGate, DEFAULT_GATE, exitCodeOf } from '../../src/scoring/gate.js';
import type { DimensionResult, Gate } from '../../src/report/schema.js';

const dims = (security: number | null): DimensionResult[] => [
  { id: 'security', title: 'Security', score: security, weight: 0.3, coverage: security === null ? 0 : 1 },
];

describe('applyGate', () => {
  describe('code nerq cannot inspect (an MCP server whose only package is an image, a remote-only one)', () => {
    const uninspectedCap = { id: 'mcp-uninspected', limit: 69.9, reason: 'no package of the MCP server could be evaluated (oci:ghcr.io/acme/box:1.0)', ceiling: true };
    const uninspected = [{ title: 'Packages of the MCP server', reason: 'no package could be evaluated (not evaluated: oci:ghcr.io/acme/box:1.0)' }];
    it.each([
      ['the default bar', DEFAULT_GATE],
      ['a bar set low (--min-score 10)', { ...DEFAULT_GATE, threshold: 10 }],
      ['--allow-incomplete', { ...DEFAULT_GATE, allowIncomplete: true }],
      ['both', { ...DEFAULT_GATE, threshold: 10, allowIncomplete: true }],
    ])('is incomplete, never passed nor failed by its bound, under %s', (_label, options) => {
      const gate = applyGate({ score: 69.9, coverage: 0.8, caps: [uninspectedCap], dimensions: [], uninspected }, options);
      expect(gate.passed).toBeNull();
      expect(gate.reasonDetails.map((r) => r.code)).toEqual(['uninspected']);
    });
    it('what is known still decides: below the bar, or a finding cap, fails', () => {
      expect(applyGate({ score: 42.5, coverage: 0.8, caps: [{ ...uninspectedCap, limit: 42.5 }], dimensions: [], uninspected }, DEFAULT_GATE).passed).toBe(false);
      const widened = { id: 'mcp-widened-reach', limit: 49.9, reason: 'oci:ghcr.io/acme/box:1.0 is started with --privileged' };
      const gate = applyGate({ score: 49.9, coverage: 0.8, caps: [widened, uninspectedCap], dimensions: [], uninspected }, { ...DEFAULT_GATE, threshold: 10 });
      expect(gate.passed).toBe(false);
      expect(gate.reasonDetails.map((r) => [r.code, r.args.cap ?? null])).toEqual([['capped', 'mcp-widened-reach']]);
    });
  });
  it('passes a good score with enough coverage', () => {
    expect(applyGate({ score: 72, coverage: 0.8, caps: [], dimensions: [] }, DEFAULT_GATE)).toMatchObject({ passed: true, reasons: [], reasonDetails: [] });
  });
  it('fails below the threshold, comparing the shown (rounded) score', () => {
    const below = applyGate({ score: 49.94, coverage: 1, caps: [], dimensions: [] }, DEFAULT_GATE);
    expect(below.passed).toBe(false);
    expect(below.reasonDetails.map((r) => [r.code, r.args])).toEqual([['below-minimum', { score: 49.9, threshold: 50 }]]);
    expect(applyGate({ score: 49.95, coverage: 1, caps: [], dimensions: [] }, DEFAULT_GATE).passed).toBe(true);
  });
  it('fails when capped even if the score clears the bar', () => {
    const gate = applyGate({ score: 69.9, coverage: 1, caps: [{ id: 'archived', limit: 69.9, reason: 'archived' }], dimensions: [] }, DEFAULT_GATE);
    expect(gate.passed).toBe(false);
    expect(gate.reasonDetails.map((r) => [r.code, r.args])).toEqual([['capped', { cap: 'archived', limit: 69.9, reason: 'archived' }]]);
    // The plain strings are the details' texts, in the same order.
    expect(gate.reasons).toEqual(gate.reasonDetails.map((r) => r.text));
  });
  it('a ceiling (an MCP server held to its weakest package) does not fail the gate by itself; the threshold still applies to the score it bounds', () => {
    const ceiling = { id: 'mcp-package-weakest', limit: 89.3, reason: 'weakest package 89.3', ceiling: true };
    expect(applyGate({ score: 89.3, coverage: 0.8, caps: [ceiling], dimensions: [] }, { ...DEFAULT_GATE, threshold: 70 })).toMatchObject({ passed: true, reasonDetails: [] });
    const low = applyGate({ score: 42.5, coverage: 0.8, caps: [{ ...ceiling, limit: 42.5 }], dimensions: [] }, DEFAULT_GATE);
    expect(low.reasonDetails.map((r) => [r.code, r.args])).toEqual([['below-minimum', { score: 42.5, threshold: 50 }]]);
    // Without the flag the same cap is a finding.
    expect(applyGate({ score: 89.3, coverage: 0.8, caps: [{ ...ceiling, ceiling: undefined }], dimensions: [] }, DEFAULT_GATE).passed).toBe(false);
  });
  it('fails a broken dimension floor', () => {
    const gate = applyGate({ score: 80, coverage: 1, caps: [], dimensions: dims(55) }, { ...DEFAULT_GATE, floors: { security: 60 } });
    expect(gate).toMatchObject({ passed: false });
    expect(gate.reasonDetails.map((r) => [r.code, r.args])).toEqual([['below-floor', { dimension: 'security', score: 55, floor: 60 }]]);
  });
  it('could not evaluate: low coverage and not failed', () => {
    const gate = applyGate({ score: 80, coverage: 0.4, caps: [], dimensions: [] }, DEFAULT_GATE);
    expect(gate.passed).toBeNull();
    expect(gate.reasonDetails.map((r) => [r.code, r.args])).toEqual([['low-coverage', { coverage: 0.4, minCoverage: 0.5 }]]);
  });
  it('a failure wins over low coverage', () => {
    expect(applyGate({ score: 20, coverage: 0.1, caps: [], dimensions: [] }, DEFAULT_GATE).passed).toBe(false);
  });
  it('an error is not evaluated', () => {
    const gate = applyGate({ score: null, coverage: 0, caps: [], dimensions: [], error: { code: 'not-found', message: 'x' } }, DEFAULT_GATE);
    expect(gate.passed).toBeNull();
    expect(gate.reasonDetails.map((r) => [r.code, r.args])).toEqual([['evaluation-failed', { error: 'not-found', message: 'x' }]]);
  });
  it('no score and no failure is not evaluated', () => {
    const gate = applyGate({ score: null, coverage: 0, caps: [], dimensions: [] }, DEFAULT_GATE);
    expect(gate.passed).toBeNull();
    expect(gate.reasonDetails.map((r) => r.code)).toEqual(['no-score']);
  });
});

describe('exitCodeOf', () => {
  const g = (passed: boolean | null): Gate => ({ threshold: 50, minCoverage: 0.5, passed, reasons: [], reasonDetails: [] });
  it.each([
    [[g(true)], 0],
    [[g(true), g(null)], 3],
    [[g(null), g(false)], 1],
    [[g(false)], 1],
    [[], 0],
  ] as const)('%#', (gates, code) => expect(exitCodeOf(gates)).toBe(code));
});
