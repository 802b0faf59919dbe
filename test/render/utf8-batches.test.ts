import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Batches } from '../../src/render/utf8-batches.js';

/** Any UTF-16 code units, often surrogates (paired or lone) and non-ASCII. */
const codeUnit = fc.oneof(
  { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 0xffff }), weight: 2 },
  { arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }), weight: 2 },
  { arbitrary: fc.constantFrom(0x2014, 0xe9, 0xfffd, 0xfeff), weight: 1 },
);
const piece = fc.array(codeUnit, { maxLength: 40 }).map((codes) => String.fromCharCode(...codes));
const pair = fc.constantFrom('😀', '𝄞', '\u{10ffff}');

describe('utf8Batches', () => {
  it('gives exactly the bytes of Buffer.from(pieces joined), for any pieces and batch size', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, pair), { maxLength: 60 }), fc.integer({ min: 1, max: 200 }), (pieces, batchChars) => {
        const batches = [...utf8Batches(pieces, { batchChars })];
        expect(Buffer.concat(batches).equals(Buffer.from(pieces.join('')))).toBe(true);
        for (const batch of batches) expect(batch.length).toBeGreaterThan(0);
      }),
      { numRuns: 5000, seed: 20261201 },
    );
  });

  it('keeps a surrogate pair split between two pieces whole', () => {
    const [high, low] = ['😀'.charAt(0), '😀'.charAt(1)];
    for (const batchChars of [1, 2, 100]) {
      const bytes = Buffer.concat([...utf8Batches(['a', high, low, 'b', `c${high}`, `${low}d`], { batchChars })]);
      expect(bytes.toString('utf8')).toBe('a😀bc😀d');
    }
    expect(Buffer.concat([...utf8Batches(['x', high])]).equals(Buffer.from(`x${high}`))).toBe(true);
  });

  it('makes batches of about the given size and nothing for no text', () => {
    expect([...utf8Batches([])]).toEqual([]);
    expect([...utf8Batches(['', ''])]).toEqual([]);
    const batches = [...utf8Batches(['aaaa', 'bbbb', 'cccc', 'dd'], { batchChars: 8 })];
    expect(batches.map((b) => b.toString())).toEqual(['aaaabbbb', 'ccccdd']);
  });

  it('encodes each batch into the start of the buffer it is given', () => {
    const given: Buffer[] = [];
    const allocate = (size: number): Buffer => {
      const buffer = Buffer.alloc(size + 5, 0x21);
      given.push(buffer);
      return buffer;
    };
    const batches = [...utf8Batches(['héllo', ' ', 'wörld'], { batchChars: 6, allocate })];
    expect(batches.map((b) => b.toString())).toEqual(['héllo ', 'wörld']);
    batches.forEach((batch, i) => {
      expect(batch.buffer).toBe(given[i]!.buffer);
      expect(batch.byteOffset).toBe(given[i]!.byteOffset);
    });
  });
});
