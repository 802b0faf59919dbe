/**
 * Checks are pure: the same facts and `now` give the same outcome whatever the real clock
 * says, without randomness; and on healthy evidence every check answers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { applies } from '../../src/scoring/evaluate.js';
import { evidence, NOW, unavailable } from '../support/evidence-builder.js';
import { runCheck } from './check-table.js';

// The package's entry module read (load-time-code), its entry points looked up (entry-points): healthy evidence of this version has them.
const HEALTHY = evidence({
  github: {},
  tarball: {
    loadCode: { entries: ['.'], files: [{ path: 'index.js', language: 'javascript', size: 20, text: 'module.exports = 1;\n', truncated: false }], missing: [], unread: [] },
    entryPoints: { declared: 1, missing: [], listedAll: true },
  },
});
const DEGRADED = evidence({
  registry: { trimmed: true, deprecated: null, maintainers: null, publisher: null, previousPublisher: null, license: null },
  tarball: unavailable('tarball exceeds the decompressed-size cap'),
  downloads: unavailable('HTTP 503'),
  dependencies: unavailable('HTTP 503'),
  vulnerabilities: unavailable('OSV: HTTP 503'),
  attestations: unavailable('HTTP 503'),
});

const runAll = (ev: typeof HEALTHY) => CHECKS.map((check) => [check.id, runCheck(check, ev, NOW)] as const);

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('check purity', () => {
  it('ignores the real clock and never draws random numbers', () => {
    vi.spyOn(Math, 'random').mockImplementation(() => {
      throw new Error('a check used Math.random');
    });
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2001-01-01T00:00:00Z'));
    const early = [runAll(HEALTHY), runAll(DEGRADED)];
    vi.setSystemTime(new Date('2099-12-31T00:00:00Z'));
    const late = [runAll(HEALTHY), runAll(DEGRADED)];
    expect(late).toEqual(early);
  });

  it('does not mutate the evidence', () => {
    const before = JSON.stringify(HEALTHY);
    runAll(HEALTHY);
    expect(JSON.stringify(HEALTHY)).toBe(before);
  });
});

describe('every check on example evidence', () => {
  it('answers on healthy evidence', () => {
    const unknown = runAll(HEALTHY)
      .filter(([id]) => applies(CHECKS.find((c) => c.id === id)!, HEALTHY))
      // Unknown, not "does not apply": a detector with nothing to find leaves itself out.
      .filter(([, ran]) => ran.kind !== 'outcome' || (ran.outcome.score === null && ran.outcome.notApplicable !== true))
      .map(([id]) => id);
    expect(unknown).toEqual([]);
  });

  it('degrades to unknown, not to errors, when sources are missing or trimmed', () => {
    const results = Object.fromEntries(runAll(DEGRADED));
    for (const id of ['readme', 'changelog', 'license-file', 'weekly-downloads', 'known-vulnerabilities', 'malicious-package', 'vulnerable-dependencies']) {
      expect(results[id]?.kind, id).toBe('unknown-source');
    }
    for (const id of ['deprecation', 'maintainers', 'publisher-continuity']) {
      const ran = results[id];
      expect(ran?.kind === 'outcome' && ran.outcome.score, id).toBeNull();
    }
    const provenance = results.provenance;
    expect(provenance?.kind === 'outcome' && provenance.outcome.messageId).toBe('details-unavailable');
    const anomalies = results['release-anomalies'];
    expect(anomalies?.kind === 'outcome' && anomalies.outcome.data?.notCompared).toEqual(['new-publisher']);
    const types = results['type-declarations'];
    expect(types?.kind === 'outcome' && types.outcome.messageId).toBe('declared');
  });
});
