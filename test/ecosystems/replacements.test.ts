/** Curated replacements (ecosystems/npm/replacements.ts) read from module-replacements' preferred manifest. */
import { describe, expect, it } from 'vitest';
import { curatedReplacementsFor } from '../../src/ecosystems/npm/replacements.js';

describe('curatedReplacementsFor', () => {
  it.each([
    ['request', { packages: ['ofetch', 'ky'], native: ['fetch'], url: 'https://e18e.dev/docs/replacements/fetch' }],
    ['chalk', { packages: ['picocolors', 'ansis'], native: ['util.styleText'], url: 'https://e18e.dev/docs/replacements/chalk' }],
  ])('%s → %j', (name, expected) => {
    expect(curatedReplacementsFor(name)).toEqual(expected);
  });

  it.each(['express-nonexistent-x', 'constructor', '__proto__', 'toString'])('%s is not mapped', (name) => {
    expect(curatedReplacementsFor(name)).toBeNull();
  });
});

describe('the shipped copy', () => {
  it('is the recorded manifest and licence, byte for byte (fixtures/PROVENANCE.md)', async () => {
    const { readFileSync } = await import('node:fs');
    for (const file of ['preferred.json', 'LICENSE']) {
      const shipped = readFileSync(new URL(`../../src/ecosystems/npm/module-replacements/${file}`, import.meta.url));
      const recorded = readFileSync(new URL(`../../fixtures/module-replacements/${file}`, import.meta.url));
      expect(shipped.equals(recorded), file).toBe(true);
    }
  });
});
