import check from '../../src/checks/changelog.js';
import { evidence } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';

checkTable(check, [
  { name: 'CHANGELOG.md shipped', evidence: evidence(), score: 100, messageId: 'present', data: { path: 'CHANGELOG.md' } },
  { name: 'HISTORY.md shipped', evidence: evidence({ tarball: { changelogFile: 'HISTORY.md' } }), score: 100, messageId: 'present', message: ['HISTORY.md'] },
  {
    name: 'none',
    evidence: evidence({ tarball: { changelogFile: null } }),
    score: 40,
    messageId: 'missing',
    data: { path: null },
    message: ['release notes may live in the repository'],
  },
]);
