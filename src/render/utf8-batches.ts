/**
 * Text pieces as UTF-8 buffers of about `batchChars` characters each: the bytes of the batches
 * joined are exactly `Buffer.from(pieces.join(''))`.
 *
 * Why: `stream.write(string)` converts its string with `Buffer.from`, which for a large string
 * (and a joined one: a rope of pieces it must flatten first) costs several times what encoding
 * each piece into one buffer does (`buffer.write`). A 21 MB audit report spent a quarter of a
 * second there. Each batch is a new buffer unless `allocate` gives one: a writer reuses a
 * buffer only once the stream is done with it (see writeInPieces in cli/run-audit.ts).
 */

/** Characters per batch by default (about 1 MiB of ASCII text). */
export const BATCH_CHARS = 1 << 20;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

export interface Utf8BatchOptions {
  /** Characters per batch (default BATCH_CHARS). */
  batchChars?: number;
  /** A buffer of at least `size` bytes to encode the next batch into (default: a new one); the batch is its start. */
  allocate?: (size: number) => Buffer;
}

export function* utf8Batches(pieces: Iterable<string>, options: Utf8BatchOptions = {}): Generator<Buffer> {
  const batchChars = options.batchChars ?? BATCH_CHARS;
  const allocate = options.allocate ?? ((size: number) => Buffer.allocUnsafe(size));
  let batch: string[] = [];
  let chars = 0;
  const encode = (): Buffer => {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4).
    const buffer = allocate(chars * 3);
    let used = 0;
    for (const piece of batch) used += buffer.write(piece, used);
    batch = [];
    chars = 0;
    return buffer.subarray(0, used);
  };
  // A piece ending in the first half of a surrogate pair waits for the next piece's second half.
  let carry = '';
  for (const next of pieces) {
    let piece = carry === '' ? next : carry + next;
    carry = '';
    if (piece.length > 0 && isHighSurrogate(piece.charCodeAt(piece.length - 1))) {
      carry = piece.slice(-1);
      piece = piece.slice(0, -1);
    }
    if (piece.length === 0) continue;
    batch.push(piece);
    chars += piece.length;
    if (chars >= batchChars) yield encode();
  }
  if (carry !== '') {
    batch.push(carry);
    chars += carry.length;
  }
  if (chars > 0) yield encode();
}
