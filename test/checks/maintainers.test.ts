import check from '../../src/checks/maintainers.js';
import { evidence } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';

const count = (maintainers: number | null) => evidence({ registry: { maintainers } });

checkTable(check, [
  { name: 'unknown (trimmed packument)', evidence: count(null), score: null, messageId: 'unknown', message: ['trimmed packument'] },
  { name: '0', evidence: count(0), score: 0, messageId: 'none', data: { maintainers: 0 } },
  { name: '1', evidence: count(1), score: 40, messageId: 'single', message: ['bus factor 1'] },
  { name: '2', evidence: count(2), score: 70, messageId: 'two' },
  { name: '3', evidence: count(3), score: 100, messageId: 'many', data: { maintainers: 3 } },
  { name: '25', evidence: count(25), score: 100, messageId: 'many', message: ['25 maintainers'] },
]);
