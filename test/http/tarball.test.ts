import { Header, Parser } from 'tar';
import type { ReadEntry } from 'tar';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeTarball, makeZeroBomb, tarHeader } from '../support/tarball.js';

interface Listed {
  path: string;
  type: string;
  size: number;
  linkpath: string | undefined;
  content: string;
}

/** List a tarball with node-tar's own parser (an independent reader). */
function list(archive: Buffer): Promise<Listed[]> {
  return new Promise((resolve, reject) => {
    const entries: Listed[] = [];
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () =>
          entries.push({
            path: entry.path,
            type: entry.type,
            size: entry.size ?? 0,
            linkpath: entry.linkpath,
            content: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    });
    parser.on('error', reject);
    parser.on('warn', (code: string, message: string) => reject(new Error(`${code}: ${message}`)));
    parser.on('end', () => resolve(entries));
    parser.end(archive);
  });
}

describe('makeTarball', () => {
  it('builds a gzipped ustar archive that node-tar reads back exactly', async () => {
    const longPath = `${'deep/'.repeat(25)}file.txt`;
    const archive = makeTarball([
      { path: 'package.json', content: '{"name":"demo","version":"1.0.0"}' },
      { path: 'README.md', content: '# Demo\n\nÜnïcode ✓\n' },
      { path: 'lib', type: 'dir' },
      { path: 'lib/index.js', content: Buffer.from('module.exports = 1;\n') },
      { path: 'lib/link.js', type: 'symlink', content: 'index.js' },
      { path: longPath, content: 'x'.repeat(1000) },
    ]);
    expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const entries = await list(archive);
    expect(entries.map((e) => [e.path, e.type])).toEqual([
      ['package/package.json', 'File'],
      ['package/README.md', 'File'],
      ['package/lib/', 'Directory'],
      ['package/lib/index.js', 'File'],
      ['package/lib/link.js', 'SymbolicLink'],
      [`package/${longPath}`, 'File'],
    ]);
    expect(entries[1]?.content).toBe('# Demo\n\nÜnïcode ✓\n');
    expect(entries[4]?.linkpath).toBe('index.js');
    expect(entries[5]?.size).toBe(1000);
  });

  it('can skip gzip and use another root folder', async () => {
    const archive = makeTarball([{ path: 'a.txt', content: 'a' }], { gzip: false, root: 'node' });
    expect(archive.length % 512).toBe(0);
    expect(archive.subarray(257, 262).toString()).toBe('ustar');
    expect((await list(archive)).map((e) => e.path)).toEqual(['node/a.txt']);
  });

  it('is deterministic', () => {
    const entries = [{ path: 'a.txt', content: 'same' }];
    expect(makeTarball(entries).equals(makeTarball(entries))).toBe(true);
  });
});

describe('tarHeader', () => {
  it.each([0, 1, 0o77777777777, 64 * 1024 ** 3])('encodes a size of %i bytes that node-tar decodes', (size) => {
    const header = new Header(tarHeader({ path: 'package/big.bin', type: 'file', size }));
    expect(header.cksumValid).toBe(true);
    expect(header.size).toBe(size);
    expect(header.path).toBe('package/big.bin');
  });
});

describe('makeZeroBomb', () => {
  it('streams a small gzip that expands into one huge file of zeros', async () => {
    const size = 8 * 1024 * 1024 + 3;
    const chunks: Buffer[] = [];
    for await (const chunk of makeZeroBomb(size)) chunks.push(chunk as Buffer);
    const compressed = Buffer.concat(chunks);
    expect(compressed.length).toBeLessThan(size / 100);
    const tar = gunzipSync(compressed);
    const entries = await list(tar);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.path).toBe('package/zeros.bin');
    expect(entries[0]?.size).toBe(size);
    expect(/^\0*$/.test(entries[0]?.content ?? 'x')).toBe(true);
  });

  it('stops generating when the reader stops', async () => {
    const stream = makeZeroBomb(64 * 1024 * 1024 * 1024);
    let read = 0;
    for await (const chunk of stream) {
      read += (chunk as Buffer).length;
      if (read > 1024) break;
    }
    expect(stream.destroyed).toBe(true);
  });
});
