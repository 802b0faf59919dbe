/**
 * npm-style tarballs built in memory for tests: a real ustar archive (512-byte headers
 * written here), gzipped with node:zlib. Nothing touches the disk.
 *
 * `makeZeroBomb` streams a gzip of a tar holding one huge file of zeros, generated on the fly
 * (never held in memory), for the decompressed-size cap tests.
 */
import { Readable, pipeline } from 'node:stream';
import zlib from 'node:zlib';

export interface TarEntry {
  /** Path inside the package root (`README.md`, `lib/index.js`). */
  path: string;
  /** File content, or the link target of a symlink; ignored for directories. */
  content?: string | Buffer;
  type?: 'file' | 'dir' | 'symlink';
  mode?: number;
}

export interface TarOptions {
  /** Gzip the archive (default true). */
  gzip?: boolean;
  /** Top folder every entry is put in (default `package`; '' for none). */
  root?: string;
}

const BLOCK = 512;
/** npm's fixed mtime for packed files (1985-10-26T08:15:00Z). */
const MTIME = 499162500;
const TYPE_FLAG = { file: '0', symlink: '2', dir: '5' } as const;
const OCTAL_SIZE_LIMIT = 0o77777777777;

function writeString(header: Buffer, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) throw new Error(`tar header field too long: ${value}`);
  bytes.copy(header, offset);
}

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  writeString(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

/** Size field: octal when it fits, else GNU base-256 (for the multi-GiB bomb). */
function writeSize(header: Buffer, size: number): void {
  if (size <= OCTAL_SIZE_LIMIT) {
    writeOctal(header, 124, 12, size);
    return;
  }
  header[124] = 0x80;
  let rest = BigInt(size);
  for (let i = 135; i > 124; i--) {
    header[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
}

/** Split a long path into ustar `prefix` (≤155) and `name` (≤100) at a slash. */
function splitPath(fullPath: string): { name: string; prefix: string } {
  if (Buffer.byteLength(fullPath) <= 100) return { name: fullPath, prefix: '' };
  for (let i = fullPath.lastIndexOf('/'); i > 0; i = fullPath.lastIndexOf('/', i - 1)) {
    const prefix = fullPath.slice(0, i);
    const name = fullPath.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== '') return { name, prefix };
  }
  throw new Error(`path too long for a ustar header: ${fullPath}`);
}

/** One 512-byte ustar header. */
export function tarHeader(entry: { path: string; type: 'file' | 'dir' | 'symlink'; size: number; mode?: number; linkname?: string }): Buffer {
  const header = Buffer.alloc(BLOCK);
  const { name, prefix } = splitPath(entry.path);
  writeString(header, 0, 100, name);
  writeOctal(header, 100, 8, entry.mode ?? (entry.type === 'dir' ? 0o755 : entry.type === 'symlink' ? 0o777 : 0o644));
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeSize(header, entry.size);
  writeOctal(header, 136, 12, MTIME);
  header.fill(0x20, 148, 156); // checksum is computed with its own field as spaces
  writeString(header, 156, 1, TYPE_FLAG[entry.type]);
  writeString(header, 157, 100, entry.linkname ?? '');
  writeString(header, 257, 6, 'ustar\0');
  writeString(header, 263, 2, '00');
  writeString(header, 345, 155, prefix);
  let sum = 0;
  for (const byte of header) sum += byte;
  writeString(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest);
}

/** Build a tarball (gzipped by default) holding `entries` under `root/`. */
export function makeTarball(entries: TarEntry[], options: TarOptions = {}): Buffer {
  const { gzip = true, root = 'package' } = options;
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const type = entry.type ?? 'file';
    const inner = entry.path.replace(/^\/+/, '');
    let fullPath = root === '' ? inner : `${root}/${inner}`;
    if (type === 'dir' && !fullPath.endsWith('/')) fullPath += '/';
    if (type === 'file') {
      const data = Buffer.isBuffer(entry.content) ? entry.content : Buffer.from(entry.content ?? '', 'utf8');
      parts.push(tarHeader({ path: fullPath, type, size: data.length, ...(entry.mode === undefined ? {} : { mode: entry.mode }) }), data, padding(data.length));
    } else {
      const linkname = type === 'symlink' ? String(entry.content ?? '') : '';
      parts.push(tarHeader({ path: fullPath, type, size: 0, linkname, ...(entry.mode === undefined ? {} : { mode: entry.mode }) }));
    }
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  const tar = Buffer.concat(parts);
  return gzip ? zlib.gzipSync(tar) : tar;
}

const ZEROS = Buffer.alloc(64 * 1024);

/**
 * A gzip stream of a tar holding one file of `decompressedBytes` zeros (`<root>/<name>`),
 * generated while it is read: a few KiB on the wire, as big as asked once decompressed.
 */
export function makeZeroBomb(decompressedBytes: number, options: { root?: string; name?: string } = {}): Readable {
  const { root = 'package', name = 'zeros.bin' } = options;
  const header = tarHeader({ path: root === '' ? name : `${root}/${name}`, type: 'file', size: decompressedBytes });
  // After the header: the file's zeros, its padding, and the two zero end blocks.
  const zeroCount = decompressedBytes + padding(decompressedBytes).length + BLOCK * 2;
  function* chunks(): Generator<Buffer> {
    yield header;
    let left = zeroCount;
    while (left > 0) {
      const size = Math.min(left, ZEROS.length);
      yield size === ZEROS.length ? ZEROS : ZEROS.subarray(0, size);
      left -= size;
    }
  }
  return pipeline(Readable.from(chunks(), { objectMode: false }), zlib.createGzip(), () => {
    // errors (a consumer that stops early) end the stream; nothing to report
  });
}
