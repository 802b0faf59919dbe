/** Standing and alternatives (report/comparison.ts): pure rules over evaluated reports. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { alternativesOf, betterDimensions, compareToPeers, MIN_STANDING_PEERS, quantile, standing, type PeerEvaluation } from '../../src/report/comparison.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { sideBySide } from '../../src/report/side-by-side.js';

const sample = (): Report => ReportSchema.parse(JSON.parse(readFileSync(new URL('../../fixtures/reports/chalk-5.3.0.json', import.meta.url), 'utf8')));

/** A report named `name` scoring `score`, its dimensions at `dims` (security first), of `category`. */
function report(name: string, score: number | null, options: { dims?: (number | null)[]; verdictCode?: Report['verdictCode']; category?: string; provisional?: boolean; coverage?: number; repository?: string | null; checks?: Report['checks'] } = {}): Report {
  const base = sample();
  return {
    ...base,
    // Each its own repository: a peer sharing the target's is the same package under another name.
    target: { ...base.target, name, version: '1.0.0', repository: options.repository === undefined ? `https://github.com/test/${name}` : options.repository },
    checks: options.checks ?? base.checks,
    score,
    verdictCode: options.verdictCode ?? (score !== null && score >= 70 ? 'yes' : 'caution'),
    provisional: options.provisional ?? false,
    coverage: options.coverage ?? base.coverage,
    category: { id: options.category ?? 'library', reason: 'default' },
    dimensions: base.dimensions.map((d, i) => ({ ...d, score: options.dims?.[i] ?? d.score })),
  };
}

const peer = (r: Report, keywords: string[] = ['color'], curated = false): PeerEvaluation => ({
  report: r,
  sharedKeywords: keywords,
  curated: curated ? { source: 'module-replacements', url: null } : null,
});

const SAMPLE = { sources: ['npm-search'], query: 'keywords:color', candidates: 4, skipped: 0, evaluatedAt: '2026-11-30T00:00:00.000Z', notes: [] };

describe('quantile and standing', () => {
  it.each([
    [[10], 0.5, 10],
    [[10, 20], 0.5, 15],
    [[10, 20, 30, 40], 0.25, 17.5],
    [[10, 20, 30, 40], 0.75, 32.5],
    [[1, 2, 3, 4, 5], 0.5, 3],
  ])('quantile(%j, %s) = %s', (values, q, expected) => {
    expect(quantile(values, q)).toBe(expected);
  });

  it('rank counts peers strictly higher; the percentile counts ties as half', () => {
    expect(standing(50, [40, 50, 60, 70])).toEqual({ rank: 3, percentile: 38, median: 55, p25: 47.5, p75: 62.5 });
    expect(standing(99, [10, 20])).toMatchObject({ rank: 1, percentile: 100 });
    expect(standing(5, [10, 20])).toMatchObject({ rank: 3, percentile: 0 });
    // Judged as printed: 80.04 and 80.01 both read 80.0, a tie, not a rank above.
    expect(standing(80.01, [80.04, 70])).toMatchObject({ rank: 1, percentile: 75 });
    expect(standing(80.04, [80.01, 70])).toMatchObject({ rank: 1, percentile: 75 });
    expect(standing(80.01, [80.06, 70])).toMatchObject({ rank: 2, percentile: 50 });
  });
});

describe('alternativesOf', () => {
  const target = report('old', 60, { dims: [60, 20, 60, 60, 60] });

  it('only strictly higher scores, never a worse verdict, never provisional, best first, at most 3', () => {
    const peers = [
      peer(report('equal', 60)),
      peer(report('lower', 55)),
      peer(report('held', 75, { verdictCode: 'no' })),
      peer(report('thin', 80, { provisional: true })),
      peer(report('a', 71)),
      peer(report('b', 90)),
      peer(report('c', 85)),
      peer(report('d', 72)),
    ];
    expect(alternativesOf(target, peers).map((a) => a.target)).toEqual(['b@1.0.0', 'c@1.0.0', 'd@1.0.0']);
  });

  it('an alternative is one nerq would let you use: for a YES target a YES, for a NO or DO NOT USE target at least a CAUTION', () => {
    const yes = report('yes-target', 72, { verdictCode: 'yes' });
    expect(alternativesOf(yes, [peer(report('caution', 90, { verdictCode: 'caution' })), peer(report('better', 80, { verdictCode: 'yes' }))]).map((a) => a.target)).toEqual(['better@1.0.0']);
    // A deprecated target (NO, capped at 49.9): a peer nerq also says NO to is no way out.
    const deprecated = report('deprecated', 49.9, { verdictCode: 'no' });
    const peers = [peer(report('also-no', 60, { verdictCode: 'no' })), peer(report('dnu', 65, { verdictCode: 'do-not-use' })), peer(report('fine', 55, { verdictCode: 'caution' }))];
    expect(alternativesOf(deprecated, peers).map((a) => a.target)).toEqual(['fine@1.0.0']);
    const malicious = report('malicious', 10, { verdictCode: 'do-not-use' });
    expect(alternativesOf(malicious, peers).map((a) => a.target)).toEqual(['fine@1.0.0']);
  });

  it('an alternative carries no finding the target does not: a verdict held, a dimension capped or a guard unchecked is never what to use instead', () => {
    const deprecated = report('deprecated', 49.9, { verdictCode: 'no' });
    const held = (name: string, code: string, key: Record<string, string>, text: string) => ({ ...report(name, 70, { verdictCode: 'caution' }), verdictReasonDetails: [{ code, args: key, text }] });
    const peers = [
      peer(held('stale', 'verdict-held', { check: 'release-recency' }, 'Recent release: no stable release for 1,400 days')),
      peer(held('archived', 'dimension-capped', { cap: 'repository-archived' }, 'maintenance capped at 10: the repository is archived')),
      peer(held('unchecked', 'danger-unchecked', { check: 'malicious-package' }, 'Not a known malicious package: not checked')),
      // Not a finding: an MCP server below its category's bar for YES.
      peer(held('bar', 'category-bar', {}, 'an MCP server needs 80 for YES')),
    ];
    expect(alternativesOf(deprecated, peers).map((a) => a.target)).toEqual(['bar@1.0.0']);
    // A finding the target carries too is no step down: an unchecked guard on both sides.
    const unchecked = { ...deprecated, verdictReasonDetails: [{ code: 'danger-unchecked', args: { check: 'malicious-package' }, text: 'not checked' }] };
    expect(alternativesOf(unchecked, peers).map((a) => a.target)).toEqual(['bar@1.0.0', 'unchecked@1.0.0']);
    const note = compareToPeers(deprecated, peers.map((p) => ({ ...p, curated: { source: 'module-replacements', url: null } })), SAMPLE).comparison!.sample.notes.at(-1)!;
    expect(note).toContain('stale@1.0.0 (its verdict is held: Recent release: no stable release for 1,400 days)');
  });

  it('another category needs the curated list; shared keywords alone do not do', () => {
    const peers = [peer(report('mcp', 90, { category: 'mcp-server' })), peer(report('curated', 80, { category: 'cli' }), [], true), peer(report('nokw', 85), [])];
    const alternatives = alternativesOf(target, peers);
    expect(alternatives.map((a) => a.target)).toEqual(['curated@1.0.0']);
    expect(alternatives[0]!.why).toEqual([{ code: 'curated-replacement', keywords: [], source: 'module-replacements', url: null, text: 'named as a replacement by module-replacements' }]);
  });

  it('better: the dimensions where the peer is higher, by margin', () => {
    expect(betterDimensions(target, report('p', 80, { dims: [70, 90, 50, 60, 61] }))).toEqual(['maintenance', 'security', 'community']);
  });

  it('never the same package under another name, a name confusable with the target, nor a peer nerq holds as a likely typosquat', () => {
    const deprecated = report('widgetry', 49.9, { verdictCode: 'no', repository: 'https://github.com/acme/widgetry' });
    const typosquatCheck = { ...sample().checks[0]!, id: 'typosquat', status: 'fail' as const, messageId: 'likely-typosquat', score: 15 };
    const peers = [
      // The same repository, published under another name.
      peer(report('widgetry-next', 92, { repository: 'git+https://github.com/Acme/widgetry.git' })),
      // One character from the target's name.
      peer(report('widgetri', 91)),
      // nerq's own typosquat check holds it (it imitates some popular package).
      peer(report('wigdets', 90, { verdictCode: 'caution', checks: [typosquatCheck] })),
      peer(report('sprockets', 80)),
    ];
    expect(alternativesOf(deprecated, peers).map((a) => a.target)).toEqual(['sprockets@1.0.0']);
    // A scoped mirror or a rename, its repository spelled another way, or dropped: the same package.
    const mirrors = [
      peer(report('@mirror/widgetry', 93, { repository: 'git@github.com:acme/widgetry.git' })),
      peer(report('widgetry2', 94, { repository: 'https://www.github.com/acme/widgetry/' })),
      peer(report('@fork/widgetry', 95, { repository: null })),
    ];
    expect(alternativesOf(deprecated, [...mirrors, ...peers]).map((a) => a.target)).toEqual(['sprockets@1.0.0']);
    // A fork under a scope with a repository of its own is another package (as @cypress/request is to request).
    expect(alternativesOf(deprecated, [peer(report('@keeper/widgetry', 95, { repository: 'https://github.com/keeper/widgetry' }))]).map((a) => a.target)).toEqual(['@keeper/widgetry@1.0.0']);
    // The curated list's note says why each it names is not offered.
    const curated = compareToPeers(deprecated, peers.map((p) => ({ ...p, curated: { source: 'module-replacements', url: null } })), SAMPLE);
    const note = curated.comparison!.sample.notes.at(-1)!;
    expect(note).toContain('widgetry-next@1.0.0 (the same repository');
    expect(compareToPeers(deprecated, [peer(report('@fork/widgetry', 95, { repository: null }), [], true), ...peers], SAMPLE).comparison!.sample.notes.at(-1)).toContain('@fork/widgetry@1.0.0 (widgetry under another scope');
    expect(note).toContain('widgetri@1.0.0 (its name can be mistaken for widgetry');
    expect(note).toContain('wigdets@1.0.0 (a likely typosquat');
    // A target that imitates a popular name: the popular package itself is offered.
    const squat = report('lodahs', 30, { verdictCode: 'no' });
    expect(alternativesOf(squat, [peer(report('lodash', 95))]).map((a) => a.target)).toEqual(['lodash@1.0.0']);
  });

  it('a higher score resting on less evidence is no alternative: a peer with lower coverage than the target, or provisional, is never offered', () => {
    const known = report('known', 60, { coverage: 0.9 });
    const peers = [
      // Coverage 0.3, provisional: its 95 is mostly unknowns.
      peer(report('thin', 95, { coverage: 0.3, provisional: true })),
      // Above the gate's minimum, yet below the target's: the unknowns may be what lifts it.
      peer(report('thinner', 90, { coverage: 0.7 })),
      peer(report('as-known', 80, { coverage: 0.9 })),
      peer(report('nearly-as-known', 78, { coverage: 0.86 })),
      peer(report('better-known', 75, { coverage: 1 })),
    ];
    expect(alternativesOf(known, peers).map((a) => a.target)).toEqual(['as-known@1.0.0', 'nearly-as-known@1.0.0', 'better-known@1.0.0']);
    const note = compareToPeers(known, peers.map((p) => ({ ...p, curated: { source: 'module-replacements', url: null } })), SAMPLE).comparison!.sample.notes.at(-1)!;
    expect(note).toContain('thinner@1.0.0 (coverage 0.70, below');
  });

  it('a deprecated peer is never an alternative, even to a target deprecated the same way', () => {
    const deprecation = (messageId: 'deprecated' | 'readme-declared' | 'description-declared') => ({ ...sample().checks[0]!, id: 'deprecation', status: 'fail' as const, messageId, score: messageId === 'deprecated' ? 0 : 20 });
    const readmeHeld = { code: 'verdict-held', args: { check: 'deprecation' }, text: "the README's title declares the package deprecated" };
    // A target whose README declares it unmaintained (held at CAUTION) and a peer saying the same: the same finding, so no new one.
    const target = { ...report('old', 40, { verdictCode: 'caution', checks: [deprecation('readme-declared')] }), verdictReasonDetails: [readmeHeld] };
    const peers = [
      peer({ ...report('also-old', 45, { verdictCode: 'caution', checks: [deprecation('readme-declared')] }), verdictReasonDetails: [readmeHeld] }),
      peer(report('registry-deprecated', 48, { verdictCode: 'caution', checks: [deprecation('deprecated')] })),
      peer(report('renamed', 60, { verdictCode: 'caution', checks: [deprecation('description-declared')] })),
      peer(report('maintained', 70, { verdictCode: 'yes' })),
    ];
    expect(alternativesOf(target, peers).map((a) => a.target)).toEqual(['maintained@1.0.0']);
    const note = compareToPeers(target, peers.map((p) => ({ ...p, curated: { source: 'module-replacements', url: null } })), SAMPLE).comparison!.sample.notes.at(-1)!;
    expect(note).toContain('also-old@1.0.0 (deprecated');
    expect(note).toContain('registry-deprecated@1.0.0 (deprecated');
    expect(note).toContain('renamed@1.0.0 (deprecated');
  });

  it.each([
    // Both print 80.0: no difference a reader sees.
    [80.01, 80.04, false],
    [80.04, 80.01, false],
    [80.0, 80.049, false],
    // One decimal higher as printed.
    [80.04, 80.06, true],
    [80.0, 80.1, true],
    [79.96, 80.1, true],
  ])('strictly higher as printed: target %s, peer %s → offered %s', (mine, theirs, offered) => {
    const alternatives = alternativesOf(report('old', mine), [peer(report('near', theirs))]);
    expect(alternatives.map((a) => a.target)).toEqual(offered ? ['near@1.0.0'] : []);
  });

  it('ties as printed are ordered by the curated list, then by name, not by unprinted decimals', () => {
    const peers = [peer(report('b', 85.04)), peer(report('a', 85.01)), peer(report('c', 85.02), ['color'], true)];
    expect(alternativesOf(report('old', 60), peers).map((a) => a.target)).toEqual(['c@1.0.0', 'a@1.0.0', 'b@1.0.0']);
  });

  it('an unscored target has no alternatives', () => {
    expect(alternativesOf(report('x', null), [peer(report('b', 90))])).toEqual([]);
  });
});

describe('compareToPeers', () => {
  it('only scored peers of the category are members; the others are excluded and counted', () => {
    const result = compareToPeers(report('t', 70), [peer(report('a', 80)), peer(report('b', null)), peer(report('c', 60, { category: 'cli' })), peer(report('d', 50)), peer(report('e', 90))], SAMPLE);
    expect(result.comparison).toMatchObject({ peers: 3, rank: 3, percentile: 33, median: 80, sample: { ...SAMPLE, excluded: 2 } });
  });

  it(`fewer than ${MIN_STANDING_PEERS} scored peers of the category: no rank, percentile or quartiles, and the reason says how many`, () => {
    for (const scores of [[80], [80, 60]]) {
      // A peer that failed to evaluate is not counted, never as 0.
      const peers = [...scores.map((s, i) => peer(report(`p${i}`, s))), peer(report('failed', null))];
      const result = compareToPeers(report('t', 70), peers, SAMPLE);
      expect(result.comparison).toBeNull();
      expect(result.comparisonUnavailable).toMatchObject({ code: 'no-peers', reason: expect.stringContaining(`only ${scores.length} `) });
      // Alternatives do not need a standing.
      expect(result.alternatives.map((a) => a.target)).toEqual(['p0@1.0.0']);
    }
    expect(compareToPeers(report('t', 70), [80, 60, 50].map((s, i) => peer(report(`p${i}`, s))), SAMPLE).comparison).toMatchObject({ peers: 3, rank: 2 });
  });

  it('a curated replacement that is not offered as an alternative: the notes say which and why', () => {
    const target = report('old', 60);
    const peers = [
      peer(report('good', 90), [], true),
      peer(report('thin', 80, { provisional: true }), [], true),
      peer(report('low', 50), [], true),
      peer(report('held', 75, { verdictCode: 'no' }), [], true),
      peer(report('a', 70)),
    ];
    const result = compareToPeers(target, peers, SAMPLE);
    expect(result.alternatives.map((a) => a.target)).toEqual(['good@1.0.0', 'a@1.0.0']);
    const note = result.comparison!.sample.notes.at(-1)!;
    expect(note).toMatch(/^module-replacements names good, thin, low, held instead of old; not offered: /);
    expect(note).toContain('thin@1.0.0 (provisional');
    expect(note).toContain('low@1.0.0 (scores 50.0');
    expect(note).toContain('held@1.0.0 (verdict no');
    expect(note).not.toContain('good@1.0.0 (');
    // Every curated one offered, or none named: no note.
    expect(compareToPeers(target, [peer(report('good', 90), [], true)], SAMPLE).comparisonUnavailable!.notes).toEqual([]);
    // Without a standing (no member of the category) the note is still given.
    const alone = compareToPeers(target, [peer(report('thin', 80, { provisional: true, category: 'cli' }), [], true)], SAMPLE);
    expect(alone.comparisonUnavailable?.notes.at(-1)).toMatch(/thin@1\.0\.0 \(provisional/);
  });

  it('a provisional peer is no member of the standing: the median is of scores that rest on enough evidence, and the notes say who was left out', () => {
    const peers = [peer(report('a', 80)), peer(report('b', 60)), peer(report('c', 50)), peer(report('thin', 99, { provisional: true, coverage: 0.3 }))];
    const result = compareToPeers(report('t', 70), peers, SAMPLE);
    expect(result.comparison).toMatchObject({ peers: 3, rank: 2, median: 60, sample: { excluded: 1 } });
    expect(result.comparison!.members.map((m) => m.target)).not.toContain('thin@1.0.0');
    expect(result.comparison!.sample.notes).toContainEqual(expect.stringMatching(/^1 provisional peer left out of the standing: thin@1\.0\.0/));
    // Too few members once the provisional ones are left out: no standing, and the notes still say why.
    const few = compareToPeers(report('t', 70), [peer(report('a', 80)), peer(report('b', 60)), peer(report('thin', 99, { provisional: true }))], SAMPLE);
    expect(few.comparison).toBeNull();
    expect(few.comparisonUnavailable).toMatchObject({ code: 'no-peers', notes: [expect.stringMatching(/^1 provisional peer left out/)] });
  });

  it('no peer of the category: null with the reason, never a made-up average', () => {
    const result = compareToPeers(report('t', 70), [peer(report('c', 60, { category: 'cli' }))], SAMPLE);
    expect(result.comparison).toBeNull();
    expect(result.comparisonUnavailable?.code).toBe('no-peers');
    expect(compareToPeers(report('t', 70), [], SAMPLE).comparisonUnavailable?.code).toBe('no-peers');
  });
});

describe('sideBySide', () => {
  it('the highest target and the widest check gaps first', () => {
    const a = report('a', 60);
    const b = report('b', 80);
    b.checks = b.checks.map((c, i) => (i === 0 ? { ...c, score: (c.score ?? 0) - 50 } : i === 1 ? { ...c, score: (c.score ?? 0) - 10 } : c));
    const view = sideBySide([a, b]);
    expect(view.highest).toBe('b@1.0.0');
    expect(view.differences.map((d) => d.id)).toEqual([a.checks[0]!.id, a.checks[1]!.id]);
    expect(view.differences[0]!.spread).toBe(50);
  });

  it('a check one target fails is listed first even when the others could not be judged (request deprecated, axios and got unknown)', () => {
    const fail = (r: Report, id: string, score: number): Report => ({ ...r, checks: r.checks.map((c) => (c.id === id ? { ...c, status: 'fail', score } : c)) });
    const unknown = (r: Report, id: string): Report => ({ ...r, checks: r.checks.map((c) => (c.id === id ? { ...c, status: 'unknown', score: null } : c)) });
    const id = sample().checks.find((c) => c.id === 'deprecation')!.id;
    const request = fail(report('request', 85.5), id, 20);
    const b = report('axios', 100);
    b.checks = b.checks.map((c, i) => (i === 0 ? { ...c, score: (c.score ?? 0) - 50 } : c));
    const view = sideBySide([request, unknown(b, id), unknown(report('got', 93.5), id)]);
    expect(view.differences[0]).toMatchObject({ id: 'deprecation', scores: [20, null, null], spread: 0 });
    expect(view.differences[1]).toMatchObject({ id: request.checks[0]!.id, spread: 50 });
    // Failed by every target: not where they differ.
    expect(sideBySide([fail(report('x', 50), id, 0), fail(report('y', 50), id, 0)]).differences.map((d) => d.id)).not.toContain('deprecation');
  });
});
