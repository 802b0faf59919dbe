/**
 * The sdist reader against the fixture server's file host: a generated `.tar.gz` holding a real
 * setup.py (fixtures/setup-py/, fixtures/PROVENANCE.md) and a hostile edit of it, and the
 * failures — a 500, a truncated body, a gzip bomb, a .zip sdist, a foreign host. Then the read
 * build files through the wheels-published check: a real setup.py, and real ones with a malicious
 * shape cut from DataDog/guarddog's rule tests (fixtures/import-code/guarddog/) appended — edits.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PypiFile } from '../../src/evidence/schema.js';
import { readSdistBuild, SDIST_CAPS } from '../../src/sources/pypi/sdist-build.js';
import { servePypiFiles } from '../support/pypi-files.js';
import { makeTarball } from '../support/tarball.js';
import check, { SDIST_ONLY_SCORE } from '../../src/checks/wheels-published.js';
import { INSTALL_CODE_CAP } from '../../src/checks/lib/install-code.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { outcomeOf } from '../checks/check-table.js';
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

describe('an sdist read from the file host, judged by wheels-published', () => {
  const ctx = usePypiServer();
  const endpoints = () => ({ pypi: ctx.pypi, pypiFiles: ctx.server.url('pypi-files') });
  const NAME = 'example-1.0.tar.gz';
  const real = (name: string): string => readFileSync(new URL(`../../fixtures/setup-py/${name}`, import.meta.url), 'utf8');
  /** Lines `from`–`to` (1-based) of a guarddog rule test. */
  const guarddog = (file: string, from: number, to: number): string =>
    readFileSync(new URL(`../../fixtures/import-code/guarddog/${file}`, import.meta.url), 'utf8').split('\n').slice(from - 1, to).join('\n');
  const judged = async (setupPy: string) => {
    servePypiFiles(ctx.server, { files: { [`packages/aa/bb/${NAME}`]: makeTarball([{ path: 'setup.py', content: setupPy }, { path: 'pyproject.toml', content: PYPROJECT }], { root: 'example-1.0' }) } });
    const file = sdistFile(NAME);
    const sdistBuild = await readSdistBuild(ctx.http, endpoints(), [file], false);
    expect(sdistBuild.unavailable).toBeNull();
    return outcomeOf(check, pypiEvidence({ pypi: { files: [file], sdistOnly: true, sdistBuild } }));
  };

  it('a real setup.py (pykerberos: a subprocess build): sdist-only, no hold', async () => {
    const outcome = await judged(real('pykerberos.setup.py'));
    expect(outcome).toMatchObject({ score: SDIST_ONLY_SCORE, messageId: 'sdist-only', data: { buildFiles: ['setup.py', 'pyproject.toml'] } });
    expect(outcome.holdVerdict).toBeUndefined();
  });

  it('edit of jsonnet with guarddog\'s tenserflow host-data send appended: hostile, capped', async () => {
    const text = `${real('jsonnet.setup.py')}\nimport getpass, platform, socket, json\n${guarddog('exfiltrate-sensitive-data.py', 101, 123)}\ndetect()\n`;
    const outcome = await judged(text);
    expect(outcome).toMatchObject({ score: 0, messageId: 'sdist-hostile', data: { flowFlags: ['exfiltration'], file: NAME } });
    expect(outcome.caps?.map((c) => [c.id, c.limit])).toEqual([['install-code', INSTALL_CODE_CAP.limit]]);
    expect(outcome.holdVerdict).toMatch(/exfiltration/);
  });

  it('edit of ruamel with guarddog\'s decoded data through variables appended: suspicious, held, not capped', async () => {
    const text = `${real('ruamel-yaml.setup.py')}\nimport base64\n${guarddog('exec-base64.py', 49, 52)}\n`;
    const outcome = await judged(text);
    expect(outcome).toMatchObject({ score: 10, messageId: 'sdist-suspicious', data: { flags: ['exec-decoded'] } });
    expect(outcome.caps).toBeUndefined();
  });
});
