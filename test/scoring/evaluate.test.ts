import { describe, expect, it } from 'vitest';
import { defineCheck, type AnyCheck, type Dimension } from '../../src/checks/define.js';
import { EvidenceSchema, type Evidence } from '../../src/evidence/schema.js';
import installScripts from '../../src/checks/install-scripts.js';
import manifestConfusion from '../../src/checks/manifest-confusion.js';
import { evaluate, runCheck } from '../../src/scoring/evaluate.js';
import { evidence as builtEvidence } from '../support/evidence-builder.js';
import { PROFILES } from '../../src/scoring/profiles.js';

const now = new Date('2026-11-30T00:00:00Z');

function bareEvidence(registryOk = true): Evidence {
  return {
    evidenceVersion: 3,
    capturedAt: now.toISOString(),
    tool: { name: 'nerq', version: '0.0.0' },
    target: { input: 'x', ecosystem: 'npm', name: 'x', version: '1.0.0', purl: null, repository: null },
    categoryOverride: null,
    sources: {
      // The engine only hands facts through; synthetic checks below never read them.
      registry: registryOk ? ({ status: 'ok', facts: {} } as never) : { status: 'unavailable', reason: 'timeout' },
      tarball: { status: 'unavailable', reason: 'HTTP 404' },
      downloads: { status: 'ok', facts: { lastWeek: 1, lastMonth: null, lastYear: 2 } },
      dependencies: { status: 'unavailable', reason: 'not collected' },
      vulnerabilities: { status: 'unavailable', reason: 'no vulnerability source yet' },
      attestations: { status: 'unavailable', reason: 'not collected' },
      pypi: { status: 'not-applicable', reason: 'not a PyPI project' },
      github: { status: 'not-applicable', reason: 'no GitHub repository' },
    },
  };
}

function fixed(id: string, dimension: Dimension, weight: number, score: number | null, extra: Partial<AnyCheck> = {}): AnyCheck {
  return {
    ...defineCheck({
      id,
      dimension,
      weight,
      needs: ['downloads'],
      title: id,
      description: id,
      messages: { m: 'score {s}' },
      evaluate: () => ({ score, messageId: 'm', data: { s: score } }),
    }),
    ...extra,
  } as AnyCheck;
}

describe('evaluate', () => {
  it('a dimension is the weighted mean of its known checks; unknown checks are excluded and lower coverage', () => {
    const checks = [
      fixed('a', 'security', 3, 100),
      fixed('b', 'security', 1, 0),
      fixed('c', 'security', 4, null),
      fixed('d', 'maintenance', 1, 60),
    ];
    const result = evaluate(bareEvidence(), checks, 'library', { now });
    const security = result.dimensions.find((d) => d.id === 'security')!;
    expect(security.score).toBe(75);
    expect(security.coverage).toBe(0.5);
    // Overall: profile-weighted over the dimensions with coverage (security 0.3, maintenance 0.25).
    const expected = (0.3 * 75 + 0.25 * 60) / 0.55;
    expect(result.score).toBe(Math.round(expected * 10) / 10);
    expect(result.coverage).toBe(Math.round((0.3 * 0.5 + 0.25 * 1) * 1000) / 1000);
    expect(result.dimensions.map((d) => d.id)).toEqual(['security', 'maintenance', 'documentation', 'compliance', 'community']);
    expect(result.dimensions.find((d) => d.id === 'community')).toMatchObject({ score: null, coverage: 0 });
  });

  it('a check whose needed source is unavailable is unknown with that reason, not zero', () => {
    const check = { ...fixed('needs-tarball', 'documentation', 1, 100), needs: ['tarball'] } as AnyCheck;
    const result = evaluate(bareEvidence(), [check, fixed('x', 'documentation', 1, 40)], 'library', { now });
    expect(result.checks[0]).toMatchObject({ status: 'unknown', score: null, messageId: 'source-unavailable' });
    expect(result.checks[0]!.message).toContain('HTTP 404');
    expect(result.score).toBe(40);
  });

  it('status follows the score: 70 pass, 40 warn, below fail', () => {
    const result = evaluate(bareEvidence(), [fixed('p', 'security', 1, 70), fixed('w', 'security', 1, 40), fixed('f', 'security', 1, 39.9)], 'library', { now });
    expect(result.checks.map((c) => c.status)).toEqual(['pass', 'warn', 'fail']);
  });

  it('caps override the mean and are explained; the lowest wins', () => {
    const capped = {
      ...fixed('dep', 'security', 1, 100),
      evaluate: () => ({ score: 100, messageId: 'm', caps: [{ id: 'deprecated', limit: 49.9, reason: 'deprecated: use y' }] }),
    } as AnyCheck;
    const result = evaluate(bareEvidence(), [capped, fixed('good', 'maintenance', 10, 100)], 'library', { now });
    expect(result.score).toBe(49.9);
    expect(result.grade).toBe('D');
    expect(result.verdict.code).toBe('no');
    expect(result.caps).toEqual([{ id: 'deprecated', limit: 49.9, reason: 'deprecated: use y', args: {}, dimension: null }]);
    expect(result.verdict.reasons.map((r) => [r.code, r.args])).toEqual([['capped', { cap: 'deprecated', limit: 49.9, reason: 'deprecated: use y' }]]);
  });

  it('a dimension cap bounds that dimension only, is reported with its dimension, and holds the verdict at CAUTION', () => {
    const archived = {
      ...fixed('repository-archived', 'maintenance', 1, 0),
      evaluate: () => ({
        score: 100,
        messageId: 'm',
        caps: [{ id: 'repository-archived', limit: 10, dimension: 'maintenance', reason: 'the repository is archived' }],
      }),
    } as AnyCheck;
    const result = evaluate(bareEvidence(), [archived, fixed('fresh', 'maintenance', 1, 100), fixed('safe', 'security', 1, 100)], 'library', { now });
    expect(result.dimensions.find((d) => d.id === 'maintenance')!.score).toBe(10);
    expect(result.dimensions.find((d) => d.id === 'security')!.score).toBe(100);
    // Overall: (0.3 × 100 + 0.25 × 10) / 0.55 = 59.1 — lowered through the dimension, not capped itself.
    expect(result.score).toBe(59.1);
    expect(result.caps).toEqual([{ id: 'repository-archived', limit: 10, reason: 'the repository is archived', args: {}, dimension: 'maintenance' }]);
    expect(result.verdict.code).toBe('caution');
    expect(result.verdict.reasons.map((r) => [r.code, r.args])).toEqual([
      ['dimension-capped', { cap: 'repository-archived', dimension: 'maintenance', limit: 10, reason: 'the repository is archived' }],
    ]);
  });

  it('not-applicable sources leave the checks that need them out of the report and of coverage', () => {
    const pypiOnly = { ...fixed('pypi-only', 'security', 5, 0), needs: ['pypi'] } as AnyCheck;
    const result = evaluate(bareEvidence(), [pypiOnly, fixed('good', 'security', 1, 90)], 'library', { now });
    expect(result.checks.map((c) => c.id)).toEqual(['good']);
    expect(result.dimensions.find((d) => d.id === 'security')).toMatchObject({ score: 90, coverage: 1 });
  });

  it('an entry that names no source repository nerq can read: the repository checks are unknown and count against coverage, never left out', () => {
    const repoCheck = { ...fixed('repo', 'maintenance', 3, 100), needs: ['github'] } as AnyCheck;
    const checks = [repoCheck, fixed('good', 'maintenance', 1, 90)];
    const undeclared = bareEvidence();
    undeclared.sources.github = { status: 'not-applicable', reason: 'the entry names no source repository', undeclared: true };
    const result = evaluate(undeclared, checks, 'library', { now });
    expect(result.checks.map((c) => [c.id, c.status, c.messageId])).toEqual([
      ['repo', 'unknown', 'no-source-repository'],
      ['good', 'pass', 'm'],
    ]);
    expect(result.checks[0]?.evidence).toEqual({ source: 'github', reason: 'the entry names no source repository' });
    // Unknown, not zero: the mean is the known check's alone, the coverage a quarter.
    expect(result.dimensions.find((d) => d.id === 'maintenance')).toMatchObject({ score: 90, coverage: 0.25 });
    // Saved evidence keeps the mark: `nerq score` recomputes the same result.
    const savedGithub = EvidenceSchema.shape.sources.shape.github.parse(JSON.parse(JSON.stringify(undeclared.sources.github)));
    expect(savedGithub).toEqual(undeclared.sources.github);
    expect(evaluate({ ...undeclared, sources: { ...undeclared.sources, github: savedGithub } }, checks, 'library', { now })).toEqual(result);
    // The same source merely not applicable (a package, evidence saved before the mark): left out as before.
    const plain = evaluate(bareEvidence(), checks, 'library', { now });
    expect(plain.checks.map((c) => c.id)).toEqual(['good']);
    expect(plain.dimensions.find((d) => d.id === 'maintenance')).toMatchObject({ score: 90, coverage: 1 });
  });

  it('too little evidence because no source repository is declared says so, not that a source was unavailable', () => {
    const repoChecks = ['r1', 'r2', 'r3'].map((id) => ({ ...fixed(id, 'security', 3, 100), needs: ['github'] }) as AnyCheck);
    const undeclared = bareEvidence();
    undeclared.sources.github = { status: 'not-applicable', reason: 'the entry names no source repository', undeclared: true };
    const result = evaluate(undeclared, [...repoChecks, fixed('good', 'security', 1, 95)], 'library', { now });
    expect(result.verdict.provisional).toBe(true);
    expect(result.verdict.code).toBe('caution');
    expect(result.verdict.reasons.map((r) => [r.code, r.args.sourcesUnavailable])).toEqual([['provisional-no-repository', false]]);
  });

  it('a check that says its question does not apply to the facts is left out of the report and of coverage', () => {
    const inapplicable = {
      ...fixed('old-news', 'security', 5, null),
      evaluate: () => ({ score: null, messageId: 'm', data: { s: null }, notApplicable: true as const }),
    } as AnyCheck;
    const result = evaluate(bareEvidence(), [inapplicable, fixed('good', 'security', 1, 90)], 'library', { now });
    expect(result.checks.map((c) => c.id)).toEqual(['good']);
    expect(result.dimensions.find((d) => d.id === 'security')).toMatchObject({ score: 90, coverage: 1 });
  });

  it('a risky category is never scored above a library on the same facts; a safer profile scores as its own', () => {
    const checks = [fixed('s', 'security', 1, 100), fixed('d', 'documentation', 1, 40), fixed('m', 'maintenance', 1, 60)];
    const library = evaluate(bareEvidence(), checks, 'library', { now }).score as number;
    // code-execution weighs security 45 %: its own mean would be higher than the library's.
    const ownMean = (0.45 * 100 + 0.1 * 40 + 0.25 * 60) / 0.8;
    expect(ownMean).toBeGreaterThan(library);
    expect(evaluate(bareEvidence(), checks, 'code-execution', { now }).score).toBe(library);
    expect(evaluate(bareEvidence(), checks, 'mcp-server', { now }).score).toBe(library);
    // Weak security: the risky profile's own (lower) mean stands.
    const weak = [fixed('s', 'security', 1, 20), fixed('d', 'documentation', 1, 90), fixed('m', 'maintenance', 1, 90)];
    const weakOwn = Math.round(((0.45 * 20 + 0.1 * 90 + 0.25 * 90) / 0.8) * 10) / 10;
    expect(evaluate(bareEvidence(), weak, 'code-execution', { now }).score).toBe(weakOwn);
    expect(weakOwn).toBeLessThan(evaluate(bareEvidence(), weak, 'library', { now }).score as number);
  });

  it('a do-not-use cap gives F and NO — DO NOT USE', () => {
    const placeholder = {
      ...fixed('ph', 'security', 1, 0),
      evaluate: () => ({ score: 0, messageId: 'm', caps: [{ id: 'security-placeholder', limit: 9.9, doNotUse: true, reason: 'placeholder' }] }),
    } as AnyCheck;
    const result = evaluate(bareEvidence(), [placeholder, fixed('good', 'community', 1, 100)], 'library', { now });
    expect(result).toMatchObject({ grade: 'F', verdict: { code: 'do-not-use', word: 'NO — DO NOT USE' } });
    expect(result.verdict.reasons.map((r) => [r.code, r.args.cap])).toEqual([['do-not-use-cap', 'security-placeholder']]);
    expect(result.score).toBeLessThanOrEqual(9.9);
  });

  it('unknown never hides danger: a guarding check unknown keeps the verdict at CAUTION', () => {
    const vuln = { ...fixed('known-vulnerabilities', 'security', 5, null), needs: ['vulnerabilities'], guardsDanger: true } as AnyCheck;
    // (Coverage is low here, 25 %: the gate's minimum is set to 0 to see this rule alone.)
    const result = evaluate(bareEvidence(), [vuln, fixed('good', 'maintenance', 1, 95)], 'library', { now }, { minCoverage: 0 });
    expect(result.score).toBe(95);
    expect(result.verdict.code).toBe('caution');
    expect(result.verdict.reasons.map((r) => [r.code, r.args.check])).toEqual([['danger-unchecked', 'known-vulnerabilities']]);
  });

  it('a held verdict stops at CAUTION without moving the score or adding a cap', () => {
    const moderate = {
      ...fixed('known-vulnerabilities', 'security', 1, 80),
      evaluate: () => ({ score: 80, messageId: 'm', holdVerdict: 'GHSA-x affects 1.0.0' }),
    } as AnyCheck;
    const result = evaluate(bareEvidence(), [moderate, fixed('good', 'maintenance', 1, 100)], 'library', { now });
    expect(result.score).toBeGreaterThanOrEqual(70);
    expect(result.caps).toEqual([]);
    expect(result.verdict.code).toBe('caution');
    expect(result.verdict.reasons.map((r) => [r.code, r.args])).toEqual([
      ['verdict-held', { check: 'known-vulnerabilities', title: 'known-vulnerabilities', detail: 'GHSA-x affects 1.0.0' }],
    ]);
  });

  it('a throwing check becomes unknown instead of crashing the run', () => {
    const broken = { ...fixed('broken', 'security', 1, 1), evaluate: () => { throw new TypeError('bad shape'); } } as AnyCheck;
    const result = evaluate(bareEvidence(), [broken], 'library', { now });
    expect(result.checks[0]).toMatchObject({ status: 'unknown', messageId: 'check-error' });
    expect(result.score).toBeNull();
    expect(result.verdict.code).toBe('unknown');
    expect(result.verdict.reasons.map((r) => r.code)).toEqual(['nothing-evaluated']);
  });

  it('scores are clamped to 0–100 and rounded to one decimal', () => {
    const result = evaluate(bareEvidence(), [fixed('hi', 'security', 1, 140), fixed('lo', 'community', 1, 33.333)], 'library', { now });
    expect(result.checks.map((c) => c.score)).toEqual([100, 33.3]);
  });

  it('profiles sum to 1 and weigh the same dimensions', () => {
    for (const profile of Object.values(PROFILES)) {
      expect(Object.values(profile).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    }
  });

  it('is deterministic: same evidence, same result', () => {
    const checks = [fixed('a', 'security', 1, 50), fixed('b', 'community', 2, 80)];
    expect(JSON.stringify(evaluate(bareEvidence(), checks, 'cli', { now }))).toBe(JSON.stringify(evaluate(bareEvidence(), checks, 'cli', { now })));
  });
});

describe('a source read only in part (unread)', () => {
  const reason = 'tarball has more than 20000 entries';
  const cases = [
    ['needed (manifest-confusion)', manifestConfusion],
    ['optional (install-scripts)', installScripts],
  ] as const;
  it.each(cases)('%s: unknown, and the verdict held with the reason', (_label, check) => {
    const ran = runCheck(check, builtEvidence({ tarball: { status: 'unavailable', reason, unread: true } }), { now });
    expect(ran.score).toBeNull();
    expect(ran.holdVerdict).toContain(reason);
  });
  it.each(cases)('%s: a tarball unavailable otherwise holds nothing', (_label, check) => {
    const ran = runCheck(check, builtEvidence({ tarball: { status: 'unavailable', reason: 'HTTP 404' } }), { now });
    expect(ran.holdVerdict).toBeNull();
  });
});
