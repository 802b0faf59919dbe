/**
 * The import-time modules of a wheel, read with its `.pth` files (src/sources/pypi/wheel-hooks.ts)
 * against the fixture server's file host: flask's real wheel (fixtures/PROVENANCE.md), then
 * synthetic archives (test/support/zip.ts) for which modules are chosen, how ranges are joined,
 * and every way an entry can refuse to be read — each one names the module unread, never a
 * crash and never "clean".
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_CALLS } from '../../src/checks/lib/import-code.js';
import type { PypiFile } from '../../src/evidence/schema.js';
import { importTimeModules, readWheelContents, WHEEL_CAPS } from '../../src/sources/pypi/wheel-hooks.js';
import { centralDirectoryEntries } from '../../src/sources/pypi/zip-directory.js';
import { servePypiFiles, type PypiFilesOptions } from '../support/pypi-files.js';
import { makeZip, type ZipInput } from '../support/zip.js';
import { usePypiServer } from './helpers.js';

const FLASK = 'flask-3.1.3-py3-none-any.whl';
const flaskWheel = (): Buffer =>
  readFileSync(new URL(`../../fixtures/http/pypi-files/packages/7f/9c/34f6962f9b9e9c71f6e5ed806e0d0ff03c9d1b0b2340088a0cf4bce09b18/${FLASK}`, import.meta.url));

const file = (filename: string): PypiFile => ({
  filename,
  packagetype: 'bdist_wheel',
  size: 1000,
  uploadTime: null,
  yanked: false,
  hasProvenance: null,
  url: `https://files.pythonhosted.org/packages/aa/bb/${filename}`,
});

const MALICIOUS_INIT = 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n';
const WHEEL = 'pkg-1.0-py3-none-any.whl';

/** Offsets of each central-directory record in `zip`, in order. */
function centralRecords(zip: Buffer): number[] {
  const found: number[] = [];
  for (let at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at !== -1; at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) found.push(at);
  return found;
}

describe('which modules an import runs first', () => {
  const entries = (names: string[]) => {
    const zip = makeZip(names.map((name) => ({ name, data: '' })));
    const start = centralRecords(zip)[0] as number;
    const listed = centralDirectoryEntries(zip.subarray(start, zip.length - 22), 1000);
    if (!listed.ok) throw new Error(listed.reason);
    return listed.value;
  };

  it('top-level __init__.py and .py modules; the distribution\'s own first, tests last; nothing deeper', () => {
    const chosen = importTimeModules(
      entries(['tests/__init__.py', 'helper.py', 'my_pkg/__init__.py', 'my_pkg/sub/__init__.py', 'my_pkg/core.py', 'my_pkg-1.0.dist-info/RECORD', 'my_pkg-1.0.data/purelib/extra.py', 'native.cpython-311-x86_64-linux-gnu.so']),
      'my.pkg-1.0-py3-none-any.whl',
    );
    expect(chosen.map((e) => e.name)).toEqual(['my_pkg/__init__.py', 'helper.py', 'my_pkg-1.0.data/purelib/extra.py', 'tests/__init__.py']);
  });
});

describe('reading import-time modules by range requests', () => {
  const ctx = usePypiServer();
  const endpoints = () => ({ pypi: ctx.pypi, pypiFiles: ctx.server.url('pypi-files') });
  const serve = (bodies: Record<string, Buffer>, options: Omit<PypiFilesOptions, 'files'> = {}) =>
    servePypiFiles(ctx.server, { files: Object.fromEntries(Object.entries(bodies).map(([name, body]) => [`packages/aa/bb/${name}`, body])), ...options });
  const read = (name: string, caps = WHEEL_CAPS) => readWheelContents(ctx.http, endpoints(), [file(name)], false, { caps });
  const ranges = () => ctx.server.requests.map((r) => r.headers.range);

  it('flask (real): flask/__init__.py, then the modules it imports from flask, all clean; one range for each round', async () => {
    serve({ [FLASK]: flaskWheel() });
    const contents = await read(FLASK);
    expect(contents.unavailable).toBeNull();
    const files = contents.importCode?.files ?? [];
    expect(files[0]).toEqual({ path: 'flask/__init__.py', size: 2701, unread: null, flags: [], excerpts: [] });
    // flask/__init__.py imports `from . import json`, `from .app import Flask`, `from .blueprints …` and more.
    expect(files.slice(1).map((f) => f.path)).toEqual(['flask/json/__init__.py', 'flask/app.py', 'flask/blueprints.py', 'flask/config.py', 'flask/ctx.py', 'flask/globals.py']);
    expect(files.every((f) => f.unread === null && f.flags.length === 0)).toBe(true);
    expect(contents.importCode?.skipped).toBeGreaterThan(0);
    expect(ranges()).toEqual(['bytes=-32768', 'bytes=0-1079', expect.stringMatching(/^bytes=\d+-\d+$/)]);
  });

  it('a payload one import away: the module __init__.py imports is read and flagged; one it does not import is not read', async () => {
    const zip = makeZip([
      { name: 'pkg/__init__.py', data: 'from ._version import __version__\nfrom . import core as _core\n' },
      { name: 'pkg/_version.py', data: '__version__ = "1.0"\n' },
      { name: 'pkg/core.py', data: MALICIOUS_INIT },
      { name: 'pkg/unused.py', data: MALICIOUS_INIT },
    ]);
    serve({ [WHEEL]: zip });
    const contents = await read(WHEEL);
    expect(contents.importCode?.files.map((f) => [f.path, f.flags])).toEqual([['pkg/__init__.py', []], ['pkg/_version.py', []], ['pkg/core.py', ['exec-decoded']]]);
  });

  it('a followed module past the budget is counted as skipped, not named unread', async () => {
    const zip = makeZip([{ name: 'pkg/__init__.py', data: 'from .big import x\n', deflate: false }, { name: 'pkg/big.py', data: 'x = 1\n'.repeat(100), deflate: false }]);
    serve({ [WHEEL]: zip });
    const contents = await read(WHEEL, { ...WHEEL_CAPS, importBudgetBytes: 100 });
    expect(contents.importCode).toEqual({ files: [expect.objectContaining({ path: 'pkg/__init__.py', unread: null })], skipped: 1 });
  });

  it('flask edited: a payload in flask/__init__.py is flagged with its line', async () => {
    const zip = makeZip([{ name: 'flask/__init__.py', data: MALICIOUS_INIT }, { name: 'flask/app.py', data: 'x = 1\n' }]);
    serve({ [FLASK]: zip });
    const contents = await read(FLASK);
    expect(contents.importCode?.files).toEqual([{ path: 'flask/__init__.py', size: MALICIOUS_INIT.length, unread: null, flags: ['exec-decoded'], excerpts: ['exec(base64.b64decode("cHJpbnQoMSk="))'] }]);
  });

  it('entries close together come in one range', async () => {
    const padding = Buffer.alloc(100_000, 7);
    const near = makeZip([{ name: 'pkg/__init__.py', data: 'x = 1\n' }, { name: 'a.pth', data: 'import os\n' }, { name: 'pkg/blob.bin', data: padding, deflate: false }, { name: 'pkg-1.0.dist-info/RECORD', data: '' }]);
    serve({ [WHEEL]: near });
    const first = await read(WHEEL);
    expect(first.importCode?.files.map((f) => f.unread)).toEqual([null]);
    expect(first.hooks.map((h) => h.text)).toEqual(['import os\n']);
    expect(ranges()).toHaveLength(2);
  });

  it('an entry far from the others: one more range', async () => {
    const padding = Buffer.alloc(100_000, 7);
    const far = makeZip([{ name: 'pkg/__init__.py', data: 'x = 1\n' }, { name: 'pkg/blob.bin', data: padding, deflate: false }, { name: 'helper.py', data: 'y = 2\n' }, { name: 'pkg/blob2.bin', data: padding, deflate: false }]);
    serve({ 'far-1.0-py3-none-any.whl': far });
    const second = await read('far-1.0-py3-none-any.whl');
    expect(second.importCode?.files.map((f) => [f.path, f.unread])).toEqual([['pkg/__init__.py', null], ['helper.py', null]]);
    expect(ranges()).toHaveLength(3);
  });

  it('more modules than the cap: the first read, the rest counted', async () => {
    const inputs: ZipInput[] = Array.from({ length: 9 }, (_, i) => ({ name: `mod${i}.py`, data: `v = ${i}\n` }));
    serve({ [WHEEL]: makeZip(inputs) });
    const contents = await read(WHEEL);
    expect(contents.importCode?.files).toHaveLength(WHEEL_CAPS.importFiles);
    expect(contents.importCode?.skipped).toBe(9 - WHEEL_CAPS.importFiles);
  });

  it('a module over the size cap is named unread and not fetched', async () => {
    serve({ [WHEEL]: makeZip([{ name: 'pkg/__init__.py', data: '#'.repeat(300_000), deflate: false }]) });
    const contents = await read(WHEEL);
    expect(contents.importCode?.files).toEqual([{ path: 'pkg/__init__.py', size: 300_000, unread: 'over 256 KiB', flags: [], excerpts: [] }]);
    expect(ranges()).toEqual(['bytes=-32768']);
  });

  it('past the byte budget: named unread', async () => {
    serve({ [WHEEL]: makeZip([{ name: 'pkg/__init__.py', data: 'a = 1\n'.repeat(50), deflate: false }, { name: 'other.py', data: 'b = 2\n'.repeat(50), deflate: false }]) });
    const contents = await read(WHEEL, { ...WHEEL_CAPS, importBudgetBytes: 400 });
    expect(contents.importCode?.files.map((f) => [f.path, f.unread])).toEqual([['pkg/__init__.py', null], ['other.py', 'over the wheel\'s 0 KiB budget']]);
  });

  it('a deflate bomb: inflated no further than the cap, named unread', async () => {
    const bomb = Buffer.alloc(20 * 1024 * 1024, 0x20);
    const zip = makeZip([{ name: 'pkg/__init__.py', data: bomb, statedSize: 100 }]);
    expect(zip.length).toBeLessThan(100_000);
    serve({ [WHEEL]: zip });
    const contents = await read(WHEEL);
    expect(contents.importCode?.files[0]).toMatchObject({ path: 'pkg/__init__.py', unread: 'does not inflate within 256 KiB', flags: [] });
  });

  it('a size the archive misstates: named unread, not classified', async () => {
    serve({ [WHEEL]: makeZip([{ name: 'pkg/__init__.py', data: MALICIOUS_INIT, statedSize: 10 }]) });
    const contents = await read(WHEEL);
    expect(contents.importCode?.files[0]).toMatchObject({ unread: `holds ${MALICIOUS_INIT.length} bytes where the archive states 10`, flags: [] });
  });

  it('a compressed size larger than the archive: the entry\'s range is refused, named unread', async () => {
    const zip = makeZip([{ name: 'pkg/__init__.py', data: MALICIOUS_INIT }]);
    // The edit: the central record's compressed size set to 200 KiB, past the archive's end.
    zip.writeUInt32LE(200 * 1024, (centralRecords(zip)[0] as number) + 20);
    serve({ [WHEEL]: zip });
    const contents = await read(WHEEL);
    expect(contents.unavailable).toBeNull();
    expect(contents.importCode?.files[0]).toMatchObject({ unread: 'an entry lies past the end of the archive' });
  });

  it('encrypted entries and other compression methods: named unread, not fetched', async () => {
    const zip = makeZip([{ name: 'pkg/__init__.py', data: MALICIOUS_INIT }, { name: 'other.py', data: MALICIOUS_INIT }]);
    const [first, second] = centralRecords(zip) as [number, number];
    // The edits: the first record's encryption flag set, the second's method set to bzip2 (12).
    zip.writeUInt16LE(1, first + 8);
    zip.writeUInt16LE(12, second + 10);
    serve({ [WHEEL]: zip });
    const contents = await read(WHEEL);
    expect(contents.importCode?.files.map((f) => f.unread)).toEqual(['encrypted', 'compression method 12']);
    expect(ranges()).toEqual(['bytes=-32768']);
  });

  it('a file host that fails after the tail: the modules are named unread, the wheel still read', async () => {
    const padding = Buffer.alloc(60_000, 7);
    serve({ [WHEEL]: makeZip([{ name: 'pkg/__init__.py', data: MALICIOUS_INIT }, { name: 'pkg/blob.bin', data: padding, deflate: false }]) }, { failAfter: 1 });
    const contents = await read(WHEEL);
    expect(contents.unavailable).toBeNull();
    expect(contents.importCode?.files[0]).toMatchObject({ path: 'pkg/__init__.py', unread: expect.stringMatching(/could not be read/), flags: [] });
  });

  it('a module padded past the classifier\'s call limit: read, flagged `padded`, never clean', async () => {
    serve({ [WHEEL]: makeZip([{ name: 'pkg/__init__.py', data: 'eval("1")\n'.repeat(MAX_CALLS + 1) }]) });
    const contents = await read(WHEEL);
    expect(contents.importCode?.files[0]).toMatchObject({ unread: null, flags: ['padded'] });
  });

  it('a server that ignores Range: the modules come from the one whole body', async () => {
    serve({ [FLASK]: flaskWheel() }, { ignoreRange: true });
    const contents = await read(FLASK);
    expect(contents.importCode?.files[0]).toMatchObject({ path: 'flask/__init__.py', unread: null });
    expect(contents.importCode?.files.every((f) => f.unread === null)).toBe(true);
    expect(ctx.server.requests).toHaveLength(1);
  });

  it('the inflated text is the module\'s own (a stored and a deflated entry read alike)', async () => {
    const zip = makeZip([{ name: 'pkg/__init__.py', data: MALICIOUS_INIT, deflate: false }, { name: 'two.py', data: MALICIOUS_INIT }]);
    serve({ [WHEEL]: zip });
    const contents = await read(WHEEL);
    expect(contents.importCode?.files.map((f) => f.flags)).toEqual([['exec-decoded'], ['exec-decoded']]);
  });
});
