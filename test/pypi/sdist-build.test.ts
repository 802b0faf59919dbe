/**
 * The sdist reader against the fixture server's file host: a generated `.tar.gz` holding a real
 * setup.py (fixtures/setup-py/, fixtures/PROVENANCE.md) and a hostile edit of it, and the
 * failures — a 500, a truncated body, a gzip bomb, a .zip sdist, a foreign host.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PypiFile } from '../../src/evidence/schema.js';
import { readSdistBuild, SDIST_CAPS } from '../../src/sources/pypi/sdist-build.js';
import { servePypiFiles } from '../support/pypi-files.js';
import { makeTarball } from '../support/tarball.js';
import { usePypiServer } from './helpers.js';

const GSUTIL = readFileSync(new URL('../../fixtures/setup-py/gsutil.setup.py', import.meta.url), 'utf8');
const PYPROJECT = '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n';

const sdistFile = (filename: string, url = `https://files.pythonhosted.org/packages/aa/bb/${filename}`): PypiFile => ({
  filename,
  packagetype: 'sdist',
  size: 1000,
  uploadTime: null,
  yanked: false,
  hasProvenance: null,
  url,
});

describe('reading an sdist\'s build files', () => {
  const ctx = usePypiServer();
  const endpoints = () => ({ pypi: ctx.pypi, pypiFiles: ctx.server.url('pypi-files') });
  const serve = (name: string, body: Buffer, options: { status?: number } = {}) => servePypiFiles(ctx.server, { files: { [`packages/aa/bb/${name}`]: body }, ...options });
  const NAME = 'example-1.0.tar.gz';

  it('the top-level setup.py, pyproject.toml and setup.cfg; nested ones ignored', async () => {
    serve(
      NAME,
      makeTarball(
        [
          { path: 'setup.py', content: GSUTIL },
          { path: 'pyproject.toml', content: PYPROJECT },
          { path: 'setup.cfg', content: '[metadata]\nname = example\n' },
          { path: 'tests/setup.py', content: 'import os; os.system("id")' },
          { path: 'example/__init__.py', content: '' },
        ],
        { root: 'example-1.0' },
      ),
    );
    const build = await readSdistBuild(ctx.http, endpoints(), [sdistFile(NAME)], false);
    expect(build.unavailable).toBeNull();
    expect(build.files.map((f) => [f.path, f.truncated])).toEqual([
      ['setup.py', false],
      ['pyproject.toml', false],
      ['setup.cfg', false],
    ]);
    expect(build.files[0]?.text).toBe(GSUTIL);
  });

  it('a setup.py over the cap is kept truncated', async () => {
    serve(NAME, makeTarball([{ path: 'setup.py', content: `# ${'x'.repeat(200_000)}` }], { root: 'example-1.0' }));
    const build = await readSdistBuild(ctx.http, endpoints(), [sdistFile(NAME)], false);
    expect(build.files).toEqual([{ path: 'setup.py', text: expect.any(String), truncated: true }]);
    expect(build.files[0]?.text.length).toBe(SDIST_CAPS.fileChars);
  });

  it('HTTP 500: unavailable', async () => {
    serve(NAME, Buffer.alloc(0), { status: 500 });
    expect((await readSdistBuild(ctx.http, endpoints(), [sdistFile(NAME)], false)).unavailable).toMatch(/could not be read/);
  });

  it('a truncated .tar.gz: unavailable', async () => {
    const body = makeTarball([{ path: 'setup.py', content: GSUTIL }], { root: 'example-1.0' });
    serve(NAME, body.subarray(0, Math.floor(body.length / 2)));
    expect((await readSdistBuild(ctx.http, endpoints(), [sdistFile(NAME)], false)).unavailable).toMatch(/not a readable/);
  });

  it('a gzip bomb stops at the decompressed cap', async () => {
    serve(NAME, makeTarball([{ path: 'big.bin', content: Buffer.alloc(8 * 1024 * 1024) }], { root: 'example-1.0' }));
    const build = await readSdistBuild(ctx.http, endpoints(), [sdistFile(NAME)], false, { ...SDIST_CAPS, decompressedBytes: 1024 * 1024 });
    expect(build.unavailable).toMatch(/decompressed/);
  });

  it('a .zip sdist and a foreign host are not requested', async () => {
    expect((await readSdistBuild(ctx.http, endpoints(), [sdistFile('example-1.0.zip')], false)).unavailable).toMatch(/only \.tar\.gz/);
    expect((await readSdistBuild(ctx.http, endpoints(), [sdistFile(NAME, 'https://evil.example/x.tar.gz')], false)).unavailable).toMatch(/neither/);
    expect(ctx.server.requests).toEqual([]);
  });
});
