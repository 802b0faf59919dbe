import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../src/render/json-chunks.js';

const joined = (value: Record<string, unknown>, pretty: boolean, mapElement?: (e: unknown, k: string) => unknown): string =>
  [...jsonChunks(value, { pretty, ...(mapElement ? { mapElement } : {}) })].join('');

describe('jsonChunks', () => {
  it('joins to exactly what JSON.stringify writes, pretty and compact, for any JSON object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (value, pretty) => {
        expect(joined(value, pretty)).toBe(pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves out undefined members and writes unwritable elements as null, as JSON.stringify does', () => {
    const value = { a: undefined, b: [1, undefined, () => 0, 'x'], c: {}, d: [], e: 'line\nbreak "quoted"', f: () => 1 };
    for (const pretty of [true, false]) {
      expect(joined(value, pretty)).toBe(pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value));
    }
    expect(joined({}, true)).toBe('{}');
    expect(joined({ a: undefined }, false)).toBe('{}');
  });

  it('writes one piece per element of an array member, each mapped only when written', () => {
    const seen: string[] = [];
    const chunks = jsonChunks({ head: 1, items: [{ n: 1 }, { n: 2 }], tail: [3] }, {
      pretty: false,
      mapElement: (element, key) => {
        seen.push(key);
        return key === 'items' ? { ...(element as object), mapped: true } : element;
      },
    });
    const first = chunks.next().value;
    expect(first).toBe('{');
    expect(seen).toEqual([]);
    const rest = [...chunks];
    expect([first, ...rest].join('')).toBe('{"head":1,"items":[{"n":1,"mapped":true},{"n":2,"mapped":true}],"tail":[3]}');
    expect(rest).toContain('{"n":1,"mapped":true},');
    expect(seen).toEqual(['items', 'items', 'tail']);
  });
});
