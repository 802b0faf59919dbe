import check from '../../src/checks/version-maturity.js';
import { evidence } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';

const at = (version: string) => evidence({ registry: { version } });
const pypiAt = (version: string) => pypiEvidence({ pypi: { version } });

checkTable(check, [
  { name: '1.0.0', evidence: at('1.0.0'), score: 100, messageId: 'stable', data: { version: '1.0.0', major: 1 } },
  { name: '12.3.4', evidence: at('12.3.4'), score: 100, messageId: 'stable' },
  { name: '1.0.0+build.5 (build metadata is not a pre-release)', evidence: at('1.0.0+build.5'), score: 100, messageId: 'stable' },
  { name: '0.9.9', evidence: at('0.9.9'), score: 50, messageId: 'initial', data: { major: 0 } },
  { name: '0.0.1', evidence: at('0.0.1'), score: 50, messageId: 'initial' },
  { name: '1.0.0-beta.1', evidence: at('1.0.0-beta.1'), score: 30, messageId: 'prerelease', data: { prerelease: true } },
  { name: '0.0.1-security', evidence: at('0.0.1-security'), score: 30, messageId: 'prerelease' },
  { name: 'not semver', evidence: at('latest'), score: null, messageId: 'invalid', data: { version: 'latest' } },
  // PyPI: PEP 440.
  { name: 'PyPI 2.1.0', evidence: pypiAt('2.1.0'), score: 100, messageId: 'stable', data: { version: '2.1.0', major: 2, prerelease: false } },
  { name: 'PyPI 2024.1 (calendar version)', evidence: pypiAt('2024.1'), score: 100, messageId: 'stable', data: { major: 2024 } },
  { name: 'PyPI 1.0.post1 (a post-release is stable)', evidence: pypiAt('1.0.post1'), score: 100, messageId: 'stable' },
  { name: 'PyPI 1.0+local', evidence: pypiAt('1.0+ubuntu.1'), score: 100, messageId: 'stable' },
  { name: 'PyPI 0.9', evidence: pypiAt('0.9'), score: 50, messageId: 'initial', data: { major: 0 } },
  { name: 'PyPI 1.0rc1', evidence: pypiAt('1.0rc1'), score: 30, messageId: 'prerelease', data: { prerelease: true } },
  { name: 'PyPI 2.0.dev3 (a dev release is a pre-release)', evidence: pypiAt('2.0.dev3'), score: 30, messageId: 'prerelease' },
  { name: 'PyPI 1.0-beta.1 is not semver here but PEP 440 (1.0b1)', evidence: pypiAt('1.0-beta.1'), score: 30, messageId: 'prerelease' },
  {
    name: 'PyPI: not PEP 440',
    evidence: pypiAt('not a version'),
    score: null,
    messageId: 'invalid-pep440',
    message: ['not a valid PEP 440 version'],
  },
]);
