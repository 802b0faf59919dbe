/**
 * The wheel reader against the fixture server's file host: real wheels (fixtures/wheels/,
 * fixtures/PROVENANCE.md) read by range requests, and synthetic archives (test/support/zip.ts)
 * for ZIP64, a server that ignores Range, errors, truncation and a zip-bomb entry.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PypiFile } from '../../src/evidence/schema.js';
import { fileUrlFor, isStartupHookPath, pickWheel, readWheelContents, WHEEL_CAPS } from '../../src/sources/pypi/wheel-hooks.js';
import { servePypiFiles } from '../support/pypi-files.js';
import { makeZip } from '../support/zip.js';
import { usePypiServer } from './helpers.js';

const wheelFixture = (name: string): Buffer => readFileSync(new URL(`../../fixtures/wheels/${name}`, import.meta.url));
const COVERAGE = 'coverage-7.16.2-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl';
const CMEEL = 'cmeel-0.61.0-py3-none-any.whl';
const JSMATH = 'sphinxcontrib_jsmath-1.0.1-py2.py3-none-any.whl';

const file = (filename: string, extra: Partial<PypiFile> = {}): PypiFile => ({
  filename,
  packagetype: filename.endsWith('.whl') ? 'bdist_wheel' : 'sdist',
  size: 1000,
  uploadTime: null,
  yanked: false,
  hasProvenance: null,
  url: `https://files.pythonhosted.org/packages/aa/bb/${filename}`,
  ...extra,
});

describe('which wheel is read', () => {
  it('a pure wheel first, then CPython manylinux x86_64, then the first', () => {
    const sdist = file('x-1.0.tar.gz');
    const mac = file('x-1.0-cp312-cp312-macosx_11_0_arm64.whl');
    const linux = file('x-1.0-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl');
    const pure = file('x-1.0-py3-none-any.whl');
    expect(pickWheel([sdist, mac, linux, pure], false)?.filename).toBe(pure.filename);
    expect(pickWheel([sdist, mac, linux], false)?.filename).toBe(linux.filename);
    expect(pickWheel([sdist, mac], false)?.filename).toBe(mac.filename);
    expect(pickWheel([sdist], false)).toBeUndefined();
    // A yanked wheel is not installed unless the release is yanked (then every file is).
    expect(pickWheel([file('x-1.0-py3-none-any.whl', { yanked: true }), mac], false)?.filename).toBe(mac.filename);
  });

  it('.pth files at a site-packages root only', () => {
    expect(['a.pth', 'x-1.0.data/purelib/b.pth', 'x-1.0.data/platlib/c.pth'].every(isStartupHookPath)).toBe(true);
    expect(['pkg/a.pth', 'x-1.0.data/scripts/a.pth', 'x-1.0.data/purelib/pkg/a.pth', 'a.pth.txt', 'x-1.0.dist-info/a.pth'].some(isStartupHookPath)).toBe(false);
    // Names an installer joins to site-packages at its root all the same.
    expect(['./a.pth', 'pkg/../a.pth', 'pkg\\..\\a.pth', 'x-1.0.data/purelib/./b.pth'].every(isStartupHookPath)).toBe(true);
  });

  it('file URLs: PyPI\'s file host is rebased on the configured one; other hosts are not read', () => {
    const endpoints = { pypi: 'http://127.0.0.1:1/pypi', pypiFiles: 'http://127.0.0.1:1/pypi-files' };
    expect(fileUrlFor('https://files.pythonhosted.org/packages/aa/x.whl', endpoints)).toBe('http://127.0.0.1:1/pypi-files/packages/aa/x.whl');
    expect(fileUrlFor('http://127.0.0.1:1/packages/aa/x.whl', endpoints)).toBe('http://127.0.0.1:1/packages/aa/x.whl');
    expect(fileUrlFor('https://evil.example/x.whl', endpoints)).toBeUndefined();
    expect(fileUrlFor('file:///etc/passwd', endpoints)).toBeUndefined();
    expect(fileUrlFor('https://files.pythonhosted.org/x.whl', { pypi: 'https://pypi.org' })).toBeUndefined();
  });
});

describe('reading a wheel by range requests', () => {
  const ctx = usePypiServer();
  const endpoints = () => ({ pypi: ctx.pypi, pypiFiles: ctx.server.url('pypi-files') });
  const serve = (bodies: Record<string, Buffer>, options: { ignoreRange?: boolean; status?: number } = {}) =>
    servePypiFiles(ctx.server, { files: Object.fromEntries(Object.entries(bodies).map(([name, body]) => [`packages/aa/bb/${name}`, body])), ...options });
  const read = (name: string, caps = WHEEL_CAPS) => readWheelContents(ctx.http, endpoints(), [file(name)], false, { caps });

  it('coverage (real): a1_coverage.pth read from the tail and one entry range, a fraction of the file', async () => {
    const body = wheelFixture(COVERAGE);
    serve({ [COVERAGE]: body });
    const contents = await read(COVERAGE);
    expect(contents.unavailable).toBeNull();
    expect(contents.hooks.map((h) => h.path)).toEqual(['a1_coverage.pth']);
    expect(contents.hooks[0]?.text).toMatch(/^import sys; exec\(/);
    expect(contents.size).toBe(body.length);
    expect(contents.bytesRead).toBeLessThan(body.length);
    // The tail, then one range for a1_coverage.pth with coverage/__init__.py; the ranges after
    // those are the modules coverage/__init__.py imports (import-time-code, wheel-import-code.test.ts).
    expect(ctx.server.requests.map((r) => r.headers.range).slice(0, 2)).toEqual(['bytes=-32768', expect.stringMatching(/^bytes=\d+-\d+$/)]);
    expect(contents.importCode?.files[0]).toMatchObject({ path: 'coverage/__init__.py', unread: null, flags: [] });
  });

  it('cmeel and sphinxcontrib-jsmath (real, smaller than the tail): one request each', async () => {
    serve({ [CMEEL]: wheelFixture(CMEEL), [JSMATH]: wheelFixture(JSMATH) });
    const cmeel = await read(CMEEL);
    expect(cmeel.hooks.map((h) => [h.path, h.text])).toEqual([['cmeel.pth', 'import cmeel_pth\n']]);
    const jsmath = await read(JSMATH);
    expect(jsmath.hooks.map((h) => h.path)).toEqual(['sphinxcontrib_jsmath-1.0.1-py3.7-nspkg.pth']);
    expect(jsmath.hooks[0]?.text).toMatch(/^import sys, types, os;has_mfs/);
    expect(ctx.server.requests).toHaveLength(2);
  });

  it('a wheel without .pth files: entries counted, no hook', async () => {
    const wheel = makeZip([{ name: 'pkg/__init__.py', data: 'x = 1\n' }, { name: 'pkg-1.0.dist-info/RECORD', data: '' }]);
    serve({ 'pkg-1.0-py3-none-any.whl': wheel });
    const contents = await read('pkg-1.0-py3-none-any.whl');
    expect(contents).toMatchObject({ unavailable: null, entries: 2, hooks: [], hooksUnread: 0 });
  });

  it('ZIP64 archives and .data/purelib hooks', async () => {
    const wheel = makeZip([{ name: 'pkg/__init__.py', data: '' }, { name: 'pkg-1.0.data/purelib/evil.pth', data: 'import os; os.system("id")\n', deflate: false }], { zip64: true });
    serve({ 'pkg-1.0-py3-none-any.whl': wheel });
    const contents = await read('pkg-1.0-py3-none-any.whl');
    expect(contents.unavailable).toBeNull();
    expect(contents.hooks.map((h) => [h.path, h.text])).toEqual([['pkg-1.0.data/purelib/evil.pth', 'import os; os.system("id")\n']]);
  });

  it('an archive comment that puts the end record beyond the first tail: one longer tail', async () => {
    const wheel = makeZip([{ name: 'pkg/data.bin', data: Buffer.alloc(100_000, 1), deflate: false }, { name: 'x.pth', data: 'src\n' }], { comment: 'c'.repeat(40_000) });
    serve({ 'pkg-1.0-py3-none-any.whl': wheel });
    const contents = await read('pkg-1.0-py3-none-any.whl');
    expect(contents.hooks.map((h) => [h.path, h.text])).toEqual([['x.pth', 'src\n']]);
    expect(ctx.server.requests.map((r) => r.headers.range)).toEqual(['bytes=-32768', 'bytes=-65557']);
  });

  it('a central directory larger than the tail: one more range for it, then the entry', async () => {
    const many = Array.from({ length: 800 }, (_, i) => ({ name: `pkg/module_${String(i).padStart(4, '0')}_with_a_long_name.py`, data: '' }));
    const wheel = makeZip([...many, { name: 'z.pth', data: 'import z\n' }]);
    serve({ 'pkg-1.0-py3-none-any.whl': wheel });
    const contents = await read('pkg-1.0-py3-none-any.whl');
    expect(contents.entries).toBe(801);
    expect(contents.hooks.map((h) => h.text)).toEqual(['import z\n']);
    expect(ctx.server.requests.map((r) => r.headers.range)).toEqual(['bytes=-32768', expect.stringMatching(/^bytes=\d+-\d+$/), expect.stringMatching(/^bytes=\d+-\d+$/)]);
  });

  it('a server that ignores Range: the whole file once, under the cap', async () => {
    const body = wheelFixture(CMEEL);
    serve({ [CMEEL]: body }, { ignoreRange: true });
    const contents = await read(CMEEL);
    expect(contents.hooks.map((h) => h.path)).toEqual(['cmeel.pth']);
    expect(contents.bytesRead).toBe(body.length);
    expect(ctx.server.requests).toHaveLength(1);
  });

  it('a server that ignores Range, and a wheel over the whole-file cap: unavailable', async () => {
    serve({ [COVERAGE]: wheelFixture(COVERAGE) }, { ignoreRange: true });
    const contents = await read(COVERAGE, { ...WHEEL_CAPS, wholeFileBytes: 100_000 });
    expect(contents.unavailable).toMatch(/ignored the range request/);
    expect(contents.hooks).toEqual([]);
  });

  it('HTTP 500 from the file host: unavailable, never "no hooks"', async () => {
    serve({}, { status: 500 });
    const contents = await read(CMEEL);
    expect(contents.unavailable).toMatch(/could not be read/);
  });

  it('a central directory with a damaged record part-way: unavailable, not the entries before it', async () => {
    const wheel = makeZip([{ name: 'a.py', data: '' }, { name: 'evil.pth', data: 'import os; os.system("id")\n' }]);
    // The edit: the second record's signature broken.
    const second = wheel.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    wheel.writeUInt32LE(0, second);
    serve({ 'pkg-1.0-py3-none-any.whl': wheel });
    expect((await read('pkg-1.0-py3-none-any.whl')).unavailable).toMatch(/lists 2 entries but holds 1/);
  });

  it('a truncated archive (no end record): unavailable', async () => {
    serve({ [CMEEL]: wheelFixture(CMEEL).subarray(0, 10_000) });
    expect((await read(CMEEL)).unavailable).toMatch(/end-of-central-directory/);
  });

  it('a zip-bomb .pth: listed unread, inflated no further than the cap', async () => {
    const bomb = Buffer.alloc(50 * 1024 * 1024, 0x61);
    const wheel = makeZip([{ name: 'bomb.pth', data: bomb, statedSize: 10 }]);
    expect(wheel.length).toBeLessThan(200_000);
    serve({ 'pkg-1.0-py3-none-any.whl': wheel });
    const contents = await read('pkg-1.0-py3-none-any.whl');
    expect(contents.hooks).toEqual([{ path: 'bomb.pth', size: 10, text: null, truncated: false, unread: expect.stringMatching(/KiB/) }]);
  });

  it('a .pth stated larger than the cap is not fetched', async () => {
    const wheel = makeZip([{ name: 'big.pth', data: 'import x\n'.repeat(10_000) }]);
    serve({ 'pkg-1.0-py3-none-any.whl': wheel });
    const contents = await read('pkg-1.0-py3-none-any.whl');
    expect(contents.hooks[0]).toMatchObject({ path: 'big.pth', text: null, unread: 'over 64 KiB' });
    expect(ctx.server.requests).toHaveLength(1);
  });

  it('a wheel on a host that is neither PyPI\'s nor the index: not requested', async () => {
    const contents = await readWheelContents(ctx.http, endpoints(), [file('x-1.0-py3-none-any.whl', { url: 'https://evil.example/x-1.0-py3-none-any.whl' })], false);
    expect(contents).toMatchObject({ wheel: 'x-1.0-py3-none-any.whl', unavailable: expect.stringMatching(/neither/) });
    expect(ctx.server.requests).toEqual([]);
  });

  it('no wheel: nothing read', async () => {
    expect(await readWheelContents(ctx.http, endpoints(), [file('x-1.0.tar.gz')], false)).toMatchObject({ wheel: null, unavailable: null, bytesRead: 0 });
  });
});
