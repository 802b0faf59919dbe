import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { TarballFactsSchema } from '../../src/evidence/schema.js';
import { createHash } from 'node:crypto';
import { DEFAULT_TARBALL_CAPS, fetchTarballFacts, integrityMismatch, readTarball, safeComponents } from '../../src/sources/npm/tarball.js';
import { fakeHttp } from './fake-http.js';
import { loadTarball } from './fixtures.js';
import { chunked, gzipBomb, makeTar, makeTgz, type TarEntry } from './make-tgz.js';

const KiB = 1024;
const MiB = 1024 * KiB;

async function okFacts(data: Buffer | AsyncIterable<Buffer>, caps?: Parameters<typeof readTarball>[1]) {
  const result = await readTarball(data, caps);
  if (result.status !== 'ok') throw new Error(`expected ok, got: ${result.reason}`);
  expect(TarballFactsSchema.safeParse(result.facts).success).toBe(true);
  return result.facts;
}

async function failure(data: Buffer | AsyncIterable<Buffer>, caps?: Parameters<typeof readTarball>[1]) {
  const result = await readTarball(data, caps);
  if (result.status !== 'unavailable') throw new Error('expected unavailable');
  expect(result.reason).not.toMatch(/\n/);
  return result.reason;
}

describe('readTarball over the recorded tarballs', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['chalk', '4.1.0', { root: 'package', fileCount: 7, unpackedSize: 33631, readmePath: 'readme.md', licenses: [{ path: 'license', spdx: 'MIT' }], declarationFiles: 1, changelogFile: null }],
    ['express', '4.17.1', { fileCount: 16, unpackedSize: 208133, readmePath: 'Readme.md', licenses: [{ path: 'LICENSE', spdx: 'MIT' }], changelogFile: 'History.md' }],
    ['request', '2.88.2', { readmePath: 'README.md', licenses: [{ path: 'LICENSE', spdx: 'Apache-2.0' }], changelogFile: 'CHANGELOG.md' }],
    ['debug', '4.2.0', { readmePath: 'README.md', licenses: [{ path: 'LICENSE', spdx: 'MIT' }] }],
    ['crossenv', '0.0.2-security', { fileCount: 2, readmePath: 'README.md', licenses: [] }],
    ['esbuild', '0.28.2', { readmePath: 'README.md', licenses: [{ path: 'LICENSE.md', spdx: 'MIT' }], declarationFiles: 1, bindingGyp: false }],
    ['bufferutil', '4.1.0', { bindingGyp: true, nativeFiles: 6, licenses: [{ path: 'LICENSE', spdx: 'MIT' }] }],
    ['@types/semver', '7.8.0', { root: 'semver', fileCount: 45, declarationFiles: 42, licenses: [{ path: 'LICENSE', spdx: 'MIT' }] }],
    ['jsonify', '0.0.1', { readmePath: 'README.md', licenses: [], changelogFile: 'CHANGELOG.md' }],
    ['json-schema', '0.4.0', { licenses: [{ path: 'LICENSE', spdx: 'BSD-3-Clause' }] }],
    ['json-schema', '0.2.3', { fileCount: 31, licenses: [] }],
    ['nerq-fixture-bare', '1.0.0', { fileCount: 2, unpackedSize: 126, readmePath: null, licenses: [] }],
  ];

  test.each(cases)('%s@%s', async (name, version, expected) => {
    const facts = await okFacts(loadTarball(name, version));
    const { readmePath, licenses, ...rest } = expected;
    expect(facts).toMatchObject(rest);
    if (readmePath !== undefined) expect(facts.readme?.path ?? null).toBe(readmePath);
    if (licenses !== undefined) expect(facts.licenseFiles).toEqual(licenses);
    if (!('root' in expected)) expect(facts.root).toBe('package');
    expect(facts.securityFile).toBeNull();
  });

  test('README text is read (chalk) and not truncated', async () => {
    const facts = await okFacts(loadTarball('chalk', '4.1.0'));
    expect(facts.readme?.text).toContain('Terminal string styling done right');
    expect(facts.readme?.size).toBe(11949);
    expect(facts.readme?.truncated).toBe(false);
  });

  test('a streamed body gives the same facts as a buffer', async () => {
    const tgz = loadTarball('express', '4.17.1');
    expect(await okFacts(chunked(tgz, 777))).toEqual(await okFacts(tgz));
  });
});

describe('readTarball: which files count', () => {
  const tree: TarEntry[] = [
    { path: 'node-thing/', type: 'dir' },
    { path: 'node-thing/package.json', body: '{}' },
    { path: 'node-thing/README.markdown', body: '# thing\n' },
    { path: 'node-thing/readme.txt', body: 'second readme' },
    { path: 'node-thing/LICENSE-MIT', body: 'Permission is hereby granted, free of charge, to any person obtaining a copy … The above copyright notice and this permission notice shall be included …' },
    { path: 'node-thing/COPYING', body: 'nothing recognisable' },
    { path: 'node-thing/license.js', body: 'module.exports = "MIT"' },
    { path: 'node-thing/lib/LICENSE', body: 'nested, not a root licence' },
    { path: 'node-thing/.github/SECURITY.md', body: 'report to …' },
    { path: 'node-thing/docs/CONTRIBUTING.md', body: 'how to …' },
    { path: 'node-thing/lib/deep/CHANGELOG.md', body: 'nested, not the changelog' },
    { path: 'node-thing/CHANGES', body: '1.0.0' },
    { path: 'node-thing/binding.gyp', body: '{}' },
    { path: 'node-thing/src/a.cc', body: '' },
    { path: 'node-thing/src/a.h', body: '' },
    { path: 'node-thing/build/Release/a.node', body: 'bin' },
    { path: 'node-thing/src/extra.gyp', body: '{}' },
    { path: 'node-thing/index.d.ts', body: '' },
    { path: 'node-thing/esm/index.d.mts', body: '' },
    { path: 'node-thing/cjs/index.d.cts', body: '' },
    { path: 'node-thing/cjs/index.ts', body: '' },
    { path: 'node-thing/link', type: 'symlink', linkpath: 'README.markdown' },
  ];

  test('root, README, licences, community files, declarations and native code', async () => {
    const facts = await okFacts(makeTgz(tree));
    expect(facts.root).toBe('node-thing');
    expect(facts.fileCount).toBe(20); // the directory and the symlink are not files
    expect(facts.readme).toEqual({ path: 'README.markdown', size: 8, text: '# thing\n', truncated: false });
    expect(facts.licenseFiles).toEqual([
      { path: 'LICENSE-MIT', spdx: 'MIT' },
      { path: 'COPYING', spdx: null },
    ]);
    expect(facts.securityFile).toBe('.github/SECURITY.md');
    expect(facts.contributingFile).toBe('docs/CONTRIBUTING.md');
    expect(facts.changelogFile).toBe('CHANGES');
    expect(facts.bindingGyp).toBe(true);
    expect(facts.nativeFiles).toBe(3);
    expect(facts.declarationFiles).toBe(3);
  });

  test('a symlink named README is not read as the README', async () => {
    const facts = await okFacts(
      makeTgz([
        { path: 'package/index.js', body: '' },
        { path: 'package/README.md', type: 'symlink', linkpath: '/etc/passwd' },
      ]),
    );
    expect(facts.readme).toBeNull();
    expect(facts.fileCount).toBe(1);
  });

  test('path tricks are counted but never matched as root files', async () => {
    const facts = await okFacts(
      makeTgz([
        { path: 'package/index.js', body: 'x' },
        { path: 'package/../README.md', body: 'evil readme' },
        { path: '../README.md', body: 'evil readme' },
        { path: '/README.md', body: 'evil readme' },
        { path: '../package/LICENSE', body: 'MIT evil' },
        { path: 'package/..', type: 'dir' },
        { path: 'C:/package/SECURITY.md', body: 'evil' },
      ]),
    );
    expect(facts.root).toBe('package');
    expect(facts.readme).toBeNull();
    expect(facts.licenseFiles).toEqual([]);
    expect(facts.securityFile).toBeNull();
    expect(facts.fileCount).toBe(6);
    expect(facts.unpackedSize).toBe(1 + 11 * 3 + 8 + 4);
  });

  test('the root comes from the first entry even if it is not `package`', async () => {
    const facts = await okFacts(makeTgz([{ path: 'weird-root/README', body: 'hello' }, { path: 'package/LICENSE', body: 'x' }]));
    expect(facts.root).toBe('weird-root');
    expect(facts.readme?.path).toBe('README');
    expect(facts.licenseFiles).toEqual([]);
  });

  test.each(safeTable())('safeComponents(%j) → %j', (path, expected) => {
    expect(safeComponents(path)).toEqual(expected);
  });
});

describe('readTarball: caps and corrupt input', () => {
  test('per-file cap: a long README is truncated, not an error', async () => {
    const body = 'a'.repeat(5000);
    const facts = await okFacts(makeTgz([{ path: 'package/README.md', body }]), { perFileBytes: 1000 });
    expect(facts.readme).toMatchObject({ size: 5000, truncated: true });
    expect(facts.readme?.text).toBe('a'.repeat(1000));
  });

  test('a README past 64 KiB: the headings and fenced blocks of the rest are read as it streams, the fences followed from the start', async () => {
    // A fence opened before the cut holds a `# comment` past it; a two-byte character straddles the cut.
    const head = `# pkg\n\n## Install\n\n${'Some text. '.repeat(5950)}\n\n\`\`\`sh\n`;
    const pad = 'x'.repeat(64 * KiB - Buffer.byteLength(head) - 1);
    const body = `${head}${pad}é\n# a comment in the shell block\n\`\`\`\n\n## API\n\n\`\`\`js\nrun()\n\`\`\`\n\n## License ##\n\nMIT\n`;
    const tgz = makeTgz([{ path: 'package/README.md', body }]);
    for (const facts of [await okFacts(tgz), await okFacts(chunked(tgz, 777)), await okFacts(chunked(tgz, 3))]) {
      expect(facts.readme).toMatchObject({ size: Buffer.byteLength(body), truncated: true, tailHeadings: ['API', 'License'], tailCodeBlocks: 1 });
      expect(facts.readme?.text).toBe(`${head}${pad}`);
    }
  });

  test('a real long README (ajv 6.12.6, 85,598 bytes): its `## License` and 2 code blocks past the cut are read, as they were scored absent before', async () => {
    // Its heading and fence lines at their own byte offsets (fixtures/readme-skeletons/, PROVENANCE.md), filler between.
    const skeleton = JSON.parse(readFileSync(new URL('../../fixtures/readme-skeletons/ajv-6.12.6.json', import.meta.url), 'utf8')) as { size: number; lines: [number, string][] };
    let body = '';
    for (const [offset, line] of skeleton.lines) {
      const gap = offset - Buffer.byteLength(body);
      body += gap > 0 ? `${'a'.repeat(gap - 1)}\n` : '';
      body += `${line}\n`;
    }
    body += 'a'.repeat(skeleton.size - Buffer.byteLength(body));
    expect(Buffer.byteLength(body)).toBe(skeleton.size);
    const facts = await okFacts(chunked(makeTgz([{ path: 'package/README.md', body }]), 4096));
    expect(facts.readme).toMatchObject({ size: 85_598, truncated: true, tailCodeBlocks: 2 });
    expect(facts.readme?.tailHeadings).toHaveLength(17);
    expect(facts.readme?.tailHeadings?.slice(-3)).toEqual(['Code of conduct', 'Open-source software support', 'License']);
  });

  test('a README within 64 KiB has no tail; a README under a smaller per-file cap is cut there, its tail read past it', async () => {
    const facts = await okFacts(makeTgz([{ path: 'package/README.md', body: '# p\n\n## License\n' }]));
    expect(facts.readme).not.toHaveProperty('tailHeadings');
    const small = await okFacts(makeTgz([{ path: 'package/README.md', body: `${'a'.repeat(2000)}\n## Usage\n` }]), { perFileBytes: 1000 });
    expect(small.readme).toMatchObject({ text: 'a'.repeat(1000), truncated: true, tailHeadings: ['Usage'], tailCodeBlocks: 0 });
  });

  test('the README text is capped at 64 KiB even under a larger per-file cap', async () => {
    const facts = await okFacts(makeTgz([{ path: 'package/README.md', body: 'b'.repeat(100 * KiB) }]));
    expect(facts.readme?.text.length).toBe(64 * KiB);
    expect(facts.readme?.truncated).toBe(true);
    expect(facts.readme?.size).toBe(100 * KiB);
  });

  test('a multi-byte character cut by the cap is dropped, not garbled', async () => {
    const facts = await okFacts(makeTgz([{ path: 'package/README.md', body: 'é'.repeat(10) }]), { perFileBytes: 5 });
    expect(facts.readme?.text).toBe('éé');
  });

  test('a licence longer than the per-file cap is identified from its beginning', async () => {
    const text = `MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software. The above copyright notice and this permission notice shall be included in all copies.\n${'\n'.repeat(4000)}`;
    const facts = await okFacts(makeTgz([{ path: 'package/LICENSE', body: text }]), { perFileBytes: 1024 });
    expect(facts.licenseFiles).toEqual([{ path: 'LICENSE', spdx: 'MIT' }]);
  });

  test('a gzip bomb stops at the decompressed cap, long before it is fully inflated', async () => {
    const bomb = await gzipBomb(128 * MiB);
    expect(bomb.length).toBeLessThan(256 * KiB);
    const chunkSize = 1024;
    const totalChunks = Math.ceil(bomb.length / chunkSize);
    let pulled = 0;
    async function* counting(): AsyncGenerator<Buffer> {
      for await (const chunk of chunked(bomb, chunkSize)) {
        pulled += 1;
        yield chunk;
      }
    }
    const reason = await failure(counting(), { decompressedBytes: 1 * MiB });
    expect(reason).toBe('tarball exceeds 1 MiB decompressed');
    // The cap is 1/128 of the inflated size: reading must stop long before the input ends
    // (what was pulled is at most the cap's share plus the gunzip stream's input buffer).
    expect(pulled).toBeLessThan(totalChunks / 2);
  });

  test('the decompressed cap is named in the reason', async () => {
    const reason = await failure(makeTgz([{ path: 'package/a', body: Buffer.alloc(3 * MiB) }]), { decompressedBytes: 2 * MiB });
    expect(reason).toMatch(/exceeds 2 MiB decompressed/);
  });

  test('too many entries → unavailable naming the cap, the rest unread', async () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({ path: `package/f${i}.js`, body: 'x' }));
    expect(await failure(makeTgz(entries), { entries: 10 })).toBe('tarball has more than 10 entries');
    expect(await readTarball(makeTgz(entries), { entries: 10 })).toMatchObject({ unread: true });
    expect((await okFacts(makeTgz(entries), { entries: 30 })).fileCount).toBe(30);
  });

  test('compressed cap is counted here too', async () => {
    const tgz = loadTarball('express', '4.17.1');
    expect(await failure(chunked(tgz), { compressedBytes: 10 * KiB })).toBe('tarball exceeds 10 KiB compressed');
  });

  test.each([
    ['random bytes', Buffer.from('this is not gzip at all, not even close'), /gzip/],
    ['empty input', Buffer.alloc(0), /gzip|tarball/],
    ['a gzip header then garbage', Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0]), Buffer.alloc(40, 0x41)]), /gzip/],
    ['gzip cut in half', loadTarball('chalk', '4.1.0').subarray(0, 5000), /gzip/],
    ['valid gzip of non-tar data', gzipSync(Buffer.from('hello world '.repeat(100))), /tar/],
    ['valid gzip of nothing', gzipSync(Buffer.alloc(0)), /tar/],
    ['a tar entry whose body is cut short', gzipSync(makeTar([{ path: 'package/a.js', body: 'x'.repeat(100), size: 5000 }]).subarray(0, 1024)), /tar/],
    ['a bad header checksum', gzipSync(corruptChecksum(makeTar([{ path: 'package/a.js', body: 'x' }]))), /tar/],
    ['gzip inside the gzip', gzipSync(makeTgz([{ path: 'package/a.js', body: 'x' }])), /nested compression/],
    ['zstd inside the gzip', gzipSync(Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(600)])), /nested compression/],
    ['three bytes of tar', gzipSync(Buffer.from('abc')), /tar/],
  ])('%s → unavailable (not "unread": npm cannot extract it either)', async (_label, data, reason) => {
    expect(await failure(data)).toMatch(reason);
    expect(await readTarball(data)).not.toHaveProperty('unread');
  });

  test('nested gzip is refused even when the inflated stream arrives a byte at a time', async () => {
    // A stored (level 0) gzip of a gzip, fed one byte at a time: the inner magic reaches the
    // reader split across chunks.
    const inner = makeTgz([{ path: 'package/a.js', body: 'x' }]);
    expect(await failure(chunked(gzipSync(inner, { level: 0 }), 1))).toMatch(/nested compression/);
  });

  test('a body stream that fails midway → unavailable, no unhandled rejection', async () => {
    async function* broken(): AsyncGenerator<Buffer> {
      yield loadTarball('chalk', '4.1.0').subarray(0, 2000);
      throw new Error('socket hang up');
    }
    expect(await failure(broken())).toMatch(/socket hang up/);
  });
});

describe('fetchTarballFacts', () => {
  const url = 'http://127.0.0.1:9/npm/chalk/-/chalk-4.1.0.tgz';

  test('downloads with the compressed cap (auth is the HTTP client job), then reads', async () => {
    const http = fakeHttp({ [url]: { status: 200, body: loadTarball('chalk', '4.1.0') } });
    const result = await fetchTarballFacts(http, url);
    expect(result.status).toBe('ok');
    expect(http.requests).toHaveLength(1);
    expect(http.requests[0]?.maxBytes).toBe(DEFAULT_TARBALL_CAPS.compressedBytes);
    expect(http.requests[0]?.headers).toBeUndefined();
  });

  test('bytes matching the registry integrity are read; a mismatch is not read', async () => {
    const body = loadTarball('chalk', '4.1.0');
    const sha512 = `sha512-${createHash('sha512').update(body).digest('base64')}`;
    const good = await fetchTarballFacts(fakeHttp({ [url]: { status: 200, body } }), url, { integrity: sha512 });
    expect(good.status).toBe('ok');
    const tampered = Buffer.from(body);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 1) ^ 0xff, tampered.length - 1);
    const bad = await fetchTarballFacts(fakeHttp({ [url]: { status: 200, body: tampered } }), url, { integrity: sha512 });
    expect(bad).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'integrity-mismatch' });
  });

  test.each([
    ['no hash', null, null],
    ['unknown algorithm only', 'md5-abc', null],
    ['the strongest algorithm decides', `sha1-${createHash('sha1').update('x').digest('base64')} sha512-AAAA`, 'sha512'],
    ['sha1 alone (old packages)', `sha1-${createHash('sha1').update('x').digest('base64')}`, null],
  ])('integrityMismatch: %s', (_name, integrity, failing) => {
    const result = integrityMismatch(Buffer.from('x'), integrity);
    if (failing === null) expect(result).toBeNull();
    else expect(result).toContain(failing);
  });

  test('a 404 tarball is unknown (unavailable), not absent', async () => {
    const result = await fetchTarballFacts(fakeHttp({ [url]: { status: 404 } }), url);
    expect(result).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'not-found' });
  });

  test('an over-size download names the compressed cap, and says the rest was not read', async () => {
    const http = fakeHttp({ [url]: { status: 200, body: loadTarball('chalk', '4.1.0') } });
    const result = await fetchTarballFacts(http, url, { caps: { compressedBytes: 4 * KiB } });
    expect(result).toEqual({ status: 'unavailable', reason: 'tarball exceeds 4 KiB compressed', code: 'too-large', unread: true });
  });

  test.each(['not a url', 'file:///etc/passwd', 'ftp://127.0.0.1/x.tgz'])('%s → unavailable without a request', async (bad) => {
    const http = fakeHttp({});
    expect(await fetchTarballFacts(http, bad)).toMatchObject({ status: 'unavailable', code: 'not-asked' });
    expect(http.requests).toHaveLength(0);
  });

  test('network failures → unavailable with the reason', async () => {
    const result = await fetchTarballFacts(fakeHttp({ [url]: { fail: 'timeout', reason: 'body timeout after 30s' } }), url);
    expect(result).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'timeout' });
  });
});

function corruptChecksum(tar: Buffer): Buffer {
  const copy = Buffer.from(tar);
  copy.write('0000001\0', 148, 'ascii');
  return copy;
}

function safeTable(): [string, string[] | null][] {
  return [
    ['package/README.md', ['package', 'README.md']],
    ['./package/README.md', ['package', 'README.md']],
    ['package//lib/', ['package', 'lib']],
    ['package/../x', null],
    ['../x', null],
    ['/etc/passwd', null],
    ['C:/x', null],
    ['package\\..\\x', null],
    ['', null],
  ];
}

describe('readTarball: packages bundled under node_modules/', () => {
  const pkg = (manifest: Record<string, unknown>) => JSON.stringify(manifest);
  const own = (extra: Record<string, unknown> = {}) => ({ path: 'package/package.json', body: pkg({ name: 'evil', version: '1.0.0', ...extra }) });

  test('reads each bundled package.json (nested and scoped too), its binding.gyp, and whether the manifest declares it', async () => {
    const facts = await okFacts(
      makeTgz([
        own({ bundleDependencies: ['lodash', '@s/gyp'] }),
        { path: 'package/node_modules/lodash/package.json', body: pkg({ name: 'lodash', version: '4.17.21', scripts: { postinstall: 'node steal.js', test: 'x' } }) },
        { path: 'package/node_modules/lodash/node_modules/ms/package.json', body: pkg({ name: 'ms', version: '2.1.3' }) },
        { path: 'package/node_modules/@s/gyp/package.json', body: pkg({ name: '@s/gyp', version: '1.0.0' }) },
        { path: 'package/node_modules/@s/gyp/binding.gyp', body: '{}' },
        { path: 'package/node_modules/hidden/package.json', body: pkg({ name: 'hidden', version: '0.0.1' }) },
        { path: 'package/node_modules/lodash/lib/package.json', body: pkg({ name: 'not-a-package-root' }) },
      ]),
    );
    expect(facts.manifest?.bundleDependencies).toEqual(['lodash', '@s/gyp']);
    expect(facts.bundled.map((b) => [b.path, b.manifest?.name ?? null, b.declared, b.bindingGyp])).toEqual([
      ['node_modules/lodash', 'lodash', true, false],
      ['node_modules/lodash/node_modules/ms', 'ms', true, false],
      ['node_modules/@s/gyp', '@s/gyp', true, true],
      ['node_modules/hidden', 'hidden', false, false],
    ]);
    // Only what npm acts on at install is kept of a bundled package.json.
    expect(facts.bundled[0]?.manifest).toEqual({ name: 'lodash', version: '4.17.21', installScripts: { postinstall: 'node steal.js' } });
    expect(facts.bundledUnread).toBe(0);
  });

  test('keeps at most 8 MiB of bundled package.json text in all; past it they are counted as unread', { timeout: 30_000 }, async () => {
    const body = (i: number) => pkg({ name: `p${String(i).padStart(2, '0')}`, pad: 'x'.repeat(120 * KiB) });
    const facts = await okFacts(makeTgz([own(), ...Array.from({ length: 70 }, (_, i) => ({ path: `package/node_modules/p${i}/package.json`, body: body(i) }))]));
    const read = Math.floor((8 * MiB) / Buffer.byteLength(body(0)));
    expect(facts.bundled.filter((b) => b.manifest !== null)).toHaveLength(read);
    expect(facts.bundledUnread).toBe(70 - read);
  });

  test('a bundled package under another first folder is read too: npm strips the first component of every path', async () => {
    const facts = await okFacts(makeTgz([own({ bundleDependencies: ['a'] }), { path: 'other/node_modules/a/package.json', body: pkg({ name: 'a', version: '1.0.0', scripts: { install: 'node x.js' } }) }]));
    expect(facts.bundled.map((b) => [b.path, b.manifest?.installScripts])).toEqual([['node_modules/a', { install: 'node x.js' }]]);
  });

  test('what a listed bundled package needs (dependencies, optional ones), placed at the top of the bundle, is bundled too', async () => {
    const facts = await okFacts(
      makeTgz([
        own({ bundleDependencies: ['a'] }),
        { path: 'package/node_modules/a/package.json', body: pkg({ name: 'a', version: '1.0.0', dependencies: { b: '1' }, optionalDependencies: { c: '1' } }) },
        { path: 'package/node_modules/b/package.json', body: pkg({ name: 'b', version: '1.0.0', dependencies: { d: '1' } }) },
        { path: 'package/node_modules/c/package.json', body: pkg({ name: 'c', version: '1.0.0' }) },
        { path: 'package/node_modules/d/package.json', body: pkg({ name: 'd', version: '1.0.0' }) },
        { path: 'package/node_modules/stray/package.json', body: pkg({ name: 'stray', version: '1.0.0' }) },
      ]),
    );
    expect(facts.bundled.map((b) => [b.path, b.declared])).toEqual([
      ['node_modules/a', true],
      ['node_modules/b', true],
      ['node_modules/c', true],
      ['node_modules/d', true],
      ['node_modules/stray', false],
    ]);
  });

  test('`bundleDependencies: true` bundles every dependency; the older `bundledDependencies` spelling counts', async () => {
    const all = await okFacts(makeTgz([own({ dependencies: { a: '1' }, bundleDependencies: true }), { path: 'package/node_modules/a/package.json', body: pkg({ name: 'a', version: '1.0.0' }) }]));
    expect(all.bundled.map((b) => b.declared)).toEqual([true]);
    const old = await okFacts(makeTgz([own({ bundledDependencies: ['a'] }), { path: 'package/node_modules/a/package.json', body: pkg({ name: 'a', version: '1.0.0' }) }]));
    expect(old.bundled.map((b) => b.declared)).toEqual([true]);
  });

  test('reads at most 1000 bundled package.json files and counts the rest; one over 128 KiB is not read', { timeout: 30_000 }, async () => {
    const many = Array.from({ length: 1005 }, (_, i) => ({ path: `package/node_modules/p${i}/package.json`, body: pkg({ name: `p${i}`, version: '1.0.0' }) }));
    const facts = await okFacts(makeTgz([own(), ...many, { path: 'package/node_modules/big/package.json', body: pkg({ name: 'big', pad: 'x'.repeat(130 * KiB) }) }]));
    expect(facts.bundled.filter((b) => b.manifest !== null)).toHaveLength(1000);
    expect(facts.bundledUnread).toBe(6);
    const big = await okFacts(makeTgz([own(), { path: 'package/node_modules/big/package.json', body: pkg({ name: 'big', pad: 'x'.repeat(130 * KiB) }) }]));
    expect(big.bundled).toEqual([{ path: 'node_modules/big', manifest: null, problem: 'package.json is larger than 128 KiB', bindingGyp: false, declared: false }]);
  });
});
