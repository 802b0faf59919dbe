/** The nesting bound of request bodies (docs/security.md): brackets inside strings do not count. */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, namesAKeyTwice, nestsDeeperThan } from '../../src/front/json-depth.js';

const nested = (depth: number): string => `${'{"a":['.repeat(depth / 2)}1${']}'.repeat(depth / 2)}`;

describe('nestsDeeperThan', () => {
  it('counts objects and arrays open at once, not in sequence', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(nestsDeeperThan(nested(64), 64)).toBe(false);
    expect(nestsDeeperThan(nested(66), 64)).toBe(true);
    expect(nestsDeeperThan(`[${'[1],'.repeat(10_000)}[2]]`, 2)).toBe(false);
    expect(nestsDeeperThan('['.repeat(1_000_000), 64)).toBe(true);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ content: '[[[[{{{{'.repeat(1000) }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ content: 'a\\"[[[[\\\\' }), 1)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\"","b":[[[1]]]}`, 3)).toBe(true);
  });
});

describe('namesAKeyTwice', () => {
  it('finds a key named twice in one object, escapes decoded, at any depth', () => {
    expect(namesAKeyTwice('{"a":1,"a":2}')).toBe(true);
    expect(namesAKeyTwice('{"a":1,"\\u0061":2}')).toBe(true);
    expect(namesAKeyTwice('{"x":[{"b":1},{"c":{"d":1,"d":1}}]}')).toBe(true);
  });

  it('the same key in sibling or nested objects, and keys inside strings, are no repeat', () => {
    expect(namesAKeyTwice('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toBe(false);
    expect(namesAKeyTwice(JSON.stringify({ content: '{"a":1,"a":2}' }))).toBe(false);
    expect(namesAKeyTwice('[1,"a","a"]')).toBe(false);
  });
});
