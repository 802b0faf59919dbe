/**
 * How the HTTP cache stores a body: large bodies gzip-compressed at level 1, the rest
 * as they came. A 16 MB packument was ~0.25 s to write and as long to read back; level 1 shrinks
 * JSON 5–10× for a few tens of ms. gzip rather than raw deflate for its CRC: a damaged row
 * fails to decode (a miss) instead of decoding to garbage.
 */
import zlib from 'node:zlib';

/**
 * Bodies longer than this are stored compressed. Measured on the 1,000-package bench (bench/RESULTS.md):
 * 64 KiB spent ~4× the zlib CPU of 256 KiB for ~15% less disk; 1 MiB saved little CPU and kept
 * ~20% more on disk.
 */
export const COMPRESS_ABOVE_BYTES = 256 * 1024;

/**
 * No compressed body inflates past this: larger bodies are stored as they came. It is nerq's
 * largest response cap (packuments, PyPI JSON), so a body inflating past it is a damaged or
 * hostile row, never a real answer.
 */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/** The `encoding` column: null for a body stored as it came. */
export type BodyEncoding = 'gzip' | null;

export interface StoredBody {
  body: Uint8Array;
  encoding: BodyEncoding;
}

/** A gzip stream's first two bytes: a tarball (`.tgz`) is compressed already. */
function isGzip(body: Uint8Array): boolean {
  return body.byteLength >= 2 && body[0] === 0x1f && body[1] === 0x8b;
}

/**
 * The body as it goes in the table: compressed when above `threshold` and when that shrinks it.
 * `wireGzip` is the gzip stream the body came in over the network (the HTTP client keeps it when
 * gzip was the only content coding): kept as it is, it costs no compression at all — level 1 of a
 * cold 1,000-package audit's packuments was about half a second of CPU. A body that is a gzip
 * stream itself (a tarball) is kept as it came: compressing it again would not shrink it.
 */
export function encodeBody(body: Uint8Array, threshold: number = COMPRESS_ABOVE_BYTES, wireGzip?: Uint8Array): StoredBody {
  if (body.byteLength <= threshold || body.byteLength > MAX_INFLATED_BYTES || isGzip(body)) return { body, encoding: null };
  if (wireGzip !== undefined && isGzip(wireGzip) && wireGzip.byteLength < body.byteLength) return { body: wireGzip, encoding: 'gzip' };
  const gz = zlib.gzipSync(body, { level: 1 });
  return gz.byteLength < body.byteLength ? { body: gz, encoding: 'gzip' } : { body, encoding: null };
}

/**
 * The body a row holds, or undefined when it cannot be read: an unknown encoding, a damaged
 * compressed body, or one that would inflate past `maxBytes` (bounded while inflating, so a
 * hostile row cannot balloon; the request then goes to the network, whose own cap answers it).
 * A body stored as it came is returned whatever its length: the caller compares it to its cap.
 */
export function decodeBody(stored: Uint8Array, encoding: string | null, maxBytes: number = MAX_INFLATED_BYTES): Buffer | undefined {
  if (encoding === null) return Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (encoding !== 'gzip') return undefined;
  try {
    return zlib.gunzipSync(stored, { maxOutputLength: Math.max(1, Math.min(maxBytes, MAX_INFLATED_BYTES)) });
  } catch {
    return undefined; // damaged, truncated, or over the cap
  }
}
