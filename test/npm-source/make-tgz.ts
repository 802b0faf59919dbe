/**
 * Build tiny .tgz archives in memory for tests: a minimal ustar writer (names up to 100
 * bytes, regular files, directories and symlinks) plus node:zlib gzip. Nothing touches disk.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';

export interface TarEntry {
  path: string;
  /** File content; omit for directories and links. */
  body?: string | Buffer;
  type?: 'file' | 'dir' | 'symlink';
  linkpath?: string;
  /** Declared size, when a test wants it to differ from the body (corrupt archives). */
  size?: number;
}

const TYPE_FLAG = { file: '0', dir: '5', symlink: '2' } as const;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

export function tarHeader(entry: TarEntry, size: number): Buffer {
  const header = Buffer.alloc(512, 0);
  const name = Buffer.from(entry.path, 'utf8');
  if (name.length > 100) throw new Error(`name too long for this writer: ${entry.path}`);
  name.copy(header, 0);
  header.write(octal(entry.type === 'dir' ? 0o755 : 0o644, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii');
  header.write(octal(0, 8), 116, 'ascii');
  header.write(octal(size, 12), 124, 'ascii');
  header.write(octal(499162500, 12), 136, 'ascii');
  header.write('        ', 148, 'ascii');
  header.write(TYPE_FLAG[entry.type ?? 'file'], 156, 'ascii');
  if (entry.linkpath) header.write(entry.linkpath, 157, 'utf8');
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return header;
}

/** An uncompressed tar stream. */
export function makeTar(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = entry.body === undefined ? Buffer.alloc(0) : Buffer.from(entry.body);
    blocks.push(tarHeader(entry, entry.size ?? body.length));
    if (body.length > 0) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512, 0));
    }
  }
  blocks.push(Buffer.alloc(1024, 0));
  return Buffer.concat(blocks);
}

/** A gzipped tar, as npm publishes them. */
export function makeTgz(entries: TarEntry[]): Buffer {
  return gzipSync(makeTar(entries));
}

/** Split a buffer into chunks delivered as an async stream (like a network body). */
export async function* chunked(buf: Buffer, size = 1000): AsyncGenerator<Buffer> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

/**
 * A gzip bomb shaped like a package: one tar entry of `size` zero bytes, gzipped a MiB at
 * a time so the test never holds the inflated form in memory.
 */
export async function gzipBomb(size: number): Promise<Buffer> {
  const zeros = Buffer.alloc(1024 * 1024, 0);
  function* parts(): Generator<Buffer> {
    yield tarHeader({ path: 'package/zeros.bin' }, size);
    for (let left = size; left > 0; left -= zeros.length) yield left >= zeros.length ? zeros : zeros.subarray(0, left);
    yield Buffer.alloc(((512 - (size % 512)) % 512) + 1024, 0);
  }
  const out: Buffer[] = [];
  await pipeline(Readable.from(parts()), createGzip({ level: 9 }), async (gz: AsyncIterable<Buffer>) => {
    for await (const chunk of gz) out.push(chunk);
  });
  return Buffer.concat(out);
}
