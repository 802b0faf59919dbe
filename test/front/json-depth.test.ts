/** The nesting bound of request bodies (docs/security.md): brackets inside strings do not count. */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, namesAKeyTwice, namesAPrototypeKey, nestsDeeperThan } from '../../src/front/json-depth.js';

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

describe('namesAPrototypeKey', () => {
  it('finds __proto__ anywhere and constructor.prototype, escapes decoded', () => {
    for (const text of ['{"__proto__":{}}', '{"a":[{"b":{"__proto__":1}}]}', '{"\\u005f_proto__":1}', '{"constructor":{"prototype":{}}}', '{"x":{"constructor":{"a":1,"prototype":1}}}']) {
      expect(namesAPrototypeKey(text), text).toBe(true);
    }
  });

  it('a constructor or prototype key alone, under another key, or inside a string is none', () => {
    for (const text of ['{"constructor":1}', '{"prototype":{}}', '{"constructor":[{"prototype":1}]}', '{"constructor":{"a":{"prototype":1}}}', '{"a":"__proto__"}', '{"constructor":{},"prototype":1}']) {
      expect(namesAPrototypeKey(text), text).toBe(false);
    }
  });
});
