import check from '../../src/checks/version-maturity.js';
import { evidence } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';

const at = (version: string) => evidence({ registry: { version } });

checkTable(check, [
  { name: '1.0.0', evidence: at('1.0.0'), score: 100, messageId: 'stable', data: { version: '1.0.0', major: 1 } },
  { name: '12.3.4', evidence: at('12.3.4'), score: 100, messageId: 'stable' },
  { name: '1.0.0+build.5 (build metadata is not a pre-release)', evidence: at('1.0.0+build.5'), score: 100, messageId: 'stable' },
  { name: '0.9.9', evidence: at('0.9.9'), score: 50, messageId: 'initial', data: { major: 0 } },
  { name: '0.0.1', evidence: at('0.0.1'), score: 50, messageId: 'initial' },
  { name: '1.0.0-beta.1', evidence: at('1.0.0-beta.1'), score: 30, messageId: 'prerelease', data: { prerelease: true } },
  { name: '0.0.1-security', evidence: at('0.0.1-security'), score: 30, messageId: 'prerelease' },
  { name: 'not semver', evidence: at('latest'), score: null, messageId: 'invalid', data: { version: 'latest' } },
]);
