/**
 * Hostile package tarballs, built in memory on `test/support/tarball.ts`'s ustar headers:
 * entries whose paths escape the package (`../`, absolute), symbolic and hard links, a gzip
 * bomb, archives with very many entries or a huge README, and broken archives. Nothing here
 * touches the disk.
 */
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { makeTarball, tarHeader } from '../../support/tarball.js';

const BLOCK = 512;
export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

export interface RawEntry {
  /** The path exactly as stored in the header (no root folder added). */
  path: string;
  /** ustar type flag: '0' file, '1' hard link, '2' symbolic link, '5' directory. */
  type: '0' | '1' | '2' | '5';
  content?: string | Buffer;
  linkname?: string;
}

/** A header with another type flag (test/support/tarball.ts writes files, folders and symlinks only). */
function headerWithType(header: Buffer, type: string): Buffer {
  header.write(type, 156, 1, 'latin1');
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
  return header;
}

const pad = (size: number): Buffer => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** A tar (not gzipped) of entries written exactly as given: paths are not cleaned up. */
export function rawTar(entries: readonly RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const data = entry.type === '0' ? (Buffer.isBuffer(entry.content) ? entry.content : Buffer.from(entry.content ?? '')) : Buffer.alloc(0);
    const base = tarHeader({ path: entry.path, type: entry.type === '5' ? 'dir' : entry.type === '0' ? 'file' : 'symlink', size: data.length, linkname: entry.linkname ?? '' });
    parts.push(entry.type === '1' ? headerWithType(base, '1') : base, data, pad(data.length));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

/** The SRI hash the registry would list for these bytes. */
export function integrityOf(bytes: Buffer): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

const README = '# hostile\n\nA package built to attack the tool that reads it.\n\n## Usage\n\n```js\nrequire("hostile")\n```\n';
const MIT = 'MIT License\n\nCopyright (c) hostile\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files, to deal in the Software without restriction.\n\nThe above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.\n';

/** Entries that try to leave the package folder, or to make the reader follow a link. */
export function pathTricks(): Buffer {
  return zlib.gzipSync(
    rawTar([
      { path: 'package/package.json', type: '0', content: '{"name":"chalk","version":"4.1.0"}' },
      { path: 'package/README.md', type: '0', content: README },
      { path: 'package/../../../../nerq-escaped-dotdot.txt', type: '0', content: 'escaped with ../' },
      { path: '../nerq-escaped-parent.txt', type: '0', content: 'escaped with a leading ../' },
      { path: '/nerq-escaped-absolute.txt', type: '0', content: 'escaped with an absolute path' },
      { path: 'package/LICENSE', type: '2', linkname: '/etc/passwd' },
      { path: 'package/CHANGELOG.md', type: '1', linkname: '../../../../etc/passwd' },
      { path: 'package/SECURITY.md', type: '2', linkname: '../../../../../.ssh/id_rsa' },
      { path: 'package/docs', type: '2', linkname: '/' },
      { path: 'package/docs/CONTRIBUTING.md', type: '0', content: 'through a symlinked folder' },
      { path: 'C:\\Windows\\nerq-escaped-drive.txt', type: '0', content: 'a drive letter' },
      { path: 'package/lib\\..\\..\\nerq-escaped-backslash.txt', type: '0', content: 'backslashes' },
    ]),
  );
}

/**
 * A gzip bomb: a tar holding one file of `bytes` zeros, as concatenated gzip members (gunzip
 * reads them as one stream). One 64 MiB member of zeros is compressed once and repeated, so
 * building gigabytes costs one small compression and a few MiB of memory.
 */
export function gzipBomb(bytes: number): Buffer {
  const chunk = 64 * MiB;
  if (bytes % chunk !== 0) throw new Error('the bomb is built of 64 MiB members');
  const header = tarHeader({ path: 'package/README.md', type: 'file', size: bytes });
  const zeros = zlib.gzipSync(Buffer.alloc(chunk), { level: 9 });
  const members = [zlib.gzipSync(header), ...Array.from({ length: bytes / chunk }, () => zeros), zlib.gzipSync(Buffer.alloc(BLOCK * 2))];
  return Buffer.concat(members);
}

/** An archive of `count` empty files (and a README), gzipped. */
export function manyEntries(count: number): Buffer {
  const entries = [{ path: 'README.md', content: README }, ...Array.from({ length: count }, (_, i) => ({ path: `lib/f${i}.js`, content: '' }))];
  return makeTarball(entries);
}

/** A README of `bytes` bytes (Markdown text, compressible). */
export function hugeReadme(bytes: number): Buffer {
  const line = '## Section\n\nSome text about the package, repeated to make the README enormous.\n\n';
  const text = line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
  return makeTarball([{ path: 'README.md', content: text }, { path: 'LICENSE', content: MIT }, { path: 'index.js', content: 'module.exports = 1;\n' }]);
}

/** `count` licence files of `bytes` each at the root: each one is kept (up to the per-file cap) to be identified. */
export function manyLicenseFiles(count: number, bytes: number): Buffer {
  const body = MIT + ' '.repeat(Math.max(0, bytes - MIT.length));
  return makeTarball([
    { path: 'README.md', content: README },
    ...Array.from({ length: count }, (_, i) => ({ path: `LICENSE-${String(i).padStart(4, '0')}`, content: body })),
  ]);
}

/** A tar that is not gzipped at all. */
export function notGzip(): Buffer {
  return makeTarball([{ path: 'README.md', content: README }], { gzip: false });
}

/** A well-formed .tgz cut in the middle. */
export function truncatedArchive(): Buffer {
  const whole = makeTarball([{ path: 'README.md', content: README }, { path: 'index.js', content: 'x'.repeat(200_000) }, { path: 'LICENSE', content: MIT }]);
  return whole.subarray(0, Math.floor(whole.length / 2));
}

/** A gzip stream holding another gzip stream (the reader must not inflate it twice). */
export function nestedGzip(): Buffer {
  return zlib.gzipSync(zlib.gzipSync(rawTar([{ path: 'package/README.md', type: '0', content: README }])));
}
