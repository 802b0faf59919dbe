/** The outage workload's pure parts (bench/workloads/outage.ts): what counts as asked again. */
import { describe, expect, it } from 'vitest';
import { askedAfterDown, OUTAGE_TARGETS, UNRESOLVABLE_ENV } from '../../bench/workloads/outage.js';
import { REPEATED_FAULTS } from '../../src/sources/http/host-health.js';

describe('askedAfterDown', () => {
  it('counts the requests that arrived after the third 503 had been answered (plus slack), per service', () => {
    const log = new Map([
      // Three answered at 10, 20, 30 ms: down from 30; in flight before (40 ms, within the slack) is not asked again; 500 ms is.
      ['osv', { arrived: [0, 5, 9, 40, 500], answered: [10, 20, 30, 45, 505] }],
      // Found down, never asked again.
      ['github', { arrived: [0, 1, 2], answered: [3, 4, 5] }],
      // Fewer than three failures: never down.
      ['npm-api', { arrived: [0, 900], answered: [1, 901] }],
    ]);
    expect(askedAfterDown(log)).toEqual([
      { service: 'github', total: 3, after: 0 },
      { service: 'npm-api', total: 2, after: 0 },
      { service: 'osv', total: 5, after: 1 },
    ]);
    // The bench judges with the client's own threshold.
    expect(OUTAGE_TARGETS.repeatedFaults).toBe(REPEATED_FAULTS);
  });

  it('points every public API at a host that cannot resolve', () => {
    for (const url of Object.values(UNRESOLVABLE_ENV)) expect(new URL(url).hostname.endsWith('.invalid')).toBe(true);
  });
});
