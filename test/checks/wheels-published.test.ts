import check, { SDIST_ONLY_SCORE } from '../../src/checks/wheels-published.js';
import type { PypiFile } from '../../src/evidence/schema.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';

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
]);
