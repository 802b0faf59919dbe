import fc from 'fast-check';
import validateNpmName from 'validate-npm-package-name';
import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../src/target/parse.js';
import type { Target } from '../../src/target/types.js';
import { npmName, semverVersion } from './arbitraries.js';
import { TargetError } from '../../src/target/types.js';

const RUNS = 2000;
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029\\]/u;

/** parseTarget's answer, or the TargetError it threw; anything else thrown escapes. */
function attempt(input: string): Target | TargetError {
  try {
    return parseTarget(input);
  } catch (error) {
    if (error instanceof TargetError) return error;
    throw error;
  }
}

/** Characters that matter to the parser, plus hostile ones. */
const interesting = fc.constantFrom(
  ...'aZ09-._~@/:%!*\'()^<>=,+ #?[];"&',
  '\u0000', '\u0007', '\u007f', '\u0085', '\u200b', '\u202e', '\u2066', '\ufeff', '\ud800', 'é', '\u{1F600}',
);
const prefixes = fc.constantFrom(
  '', 'npm:', 'pypi:', 'github:', 'pkg:', 'pkg:npm/', 'pkg:npm/%40', 'pkg:pypi/', 'pkg:github/', 'pkg:maven/',
  'https://github.com/', 'http://github.com/', 'github.com/', 'https://evil.example/', 'git+ssh://', 'file:',
  '@scope/', 'express@', '../', '%2e%2e/',
);
const targeted = fc
  .tuple(prefixes, fc.string({ unit: interesting, maxLength: 40 }))
  .map(([prefix, tail]) => prefix + tail);

describe('parseTarget never throws anything but TargetError', () => {
  it.each([
    ['ascii strings', fc.string({ maxLength: 260 })],
    ['any code points, lone surrogates included', fc.string({ unit: 'binary', maxLength: 260 })],
    ['graphemes', fc.string({ unit: 'grapheme', maxLength: 100 })],
    ['prefixed hostile strings', targeted],
  ])('%s', (_label, arbitrary) => {
    fc.assert(
      fc.property(arbitrary, (input) => {
        const result = attempt(input);
        if (result instanceof TargetError) {
          // one printable line, whatever the input was
          expect(result.message).toMatch(/^[\x20-\x7e]+$/);
        } else {
          expect(result.input).toBe(input);
          expect(result.name.length).toBeGreaterThan(0);
          expect(UNSAFE.test(result.name)).toBe(false);
          if (result.spec !== undefined) expect(UNSAFE.test(result.spec)).toBe(false);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('accepted npm targets', () => {
  it('have names valid for existing packages and free of control characters', () => {
    const nameish = fc.string({ unit: fc.constantFrom(...'abcXYZ019-._~@/!*\'()%: ^<>=', '\u0007', '\u202e'), maxLength: 30 });
    let accepted = 0;
    fc.assert(
      fc.property(nameish, (input) => {
        const result = attempt(input);
        if (result instanceof TargetError || result.ecosystem !== 'npm') return;
        accepted += 1;
        expect(validateNpmName(result.name).validForOldPackages).toBe(true);
        expect(result.name.length).toBeLessThanOrEqual(214);
        expect(UNSAFE.test(result.name)).toBe(false);
      }),
      { numRuns: RUNS },
    );
    expect(accepted).toBeGreaterThan(0);
  });
});

describe('name@version round trip', () => {
  it('parseTarget(n + "@" + v) gives back n and v', () => {
    fc.assert(
      fc.property(npmName, semverVersion, (name, version) => {
        expect(parseTarget(`${name}@${version}`)).toEqual({
          input: `${name}@${version}`,
          ecosystem: 'npm',
          name,
          spec: version,
        });
        expect(parseTarget(`npm:${name}@${version}`)).toMatchObject({ name, spec: version });
      }),
      { numRuns: RUNS },
    );
  });
});
