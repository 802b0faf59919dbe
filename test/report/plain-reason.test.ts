import { describe, expect, it } from 'vitest';
import { plainReason } from '../../src/util/plain-reason.js';

describe('plainReason', () => {
  it.each([
    ['package metadata: HTTP 503', 'HTTP 503'],
    // A reason saved in evidence by an older nerq, which named the registry's document by its internal name.
    ['packument: HTTP 503', 'HTTP 503'],
    ['OSV querybatch: connect ECONNREFUSED; tarball: HTTP 500', 'connect ECONNREFUSED; HTTP 500'],
  ])('%s → %s', (reason, plain) => {
    expect(plainReason(reason)).toBe(plain);
  });
});
