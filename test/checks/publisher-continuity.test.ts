import check from '../../src/checks/publisher-continuity.js';
import { evidence, versionsAgo } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';

checkTable(check, [
  { name: 'same publisher', evidence: evidence(), score: 100, messageId: 'same', data: { publisher: 'alice', previousPublisher: 'alice' } },
  {
    name: 'publisher changed to an account neither listed nor seen before',
    evidence: evidence({ registry: { publisher: 'mallory', previousPublisher: 'alice', priorPublishers: ['alice'], maintainerNames: ['alice'] } }),
    score: 60,
    messageId: 'changed',
    data: { publisher: 'mallory', previousPublisher: 'alice' },
    message: ['alice', 'mallory'],
  },
  {
    name: 'publisher changed, maintainers and history unknown: as changed',
    evidence: evidence({ registry: { publisher: 'mallory', previousPublisher: 'alice', priorPublishers: null, maintainerNames: null } }),
    score: 60,
    messageId: 'changed',
  },
  {
    name: 'publisher changed to one who published earlier versions',
    evidence: evidence({ registry: { publisher: 'bob', previousPublisher: 'alice', priorPublishers: ['bob', 'alice'], maintainerNames: [] } }),
    score: 100,
    messageId: 'earlier-publisher',
  },
  {
    name: 'publisher changed to a listed maintainer publishing for the first time',
    evidence: evidence({ registry: { publisher: 'carol', previousPublisher: 'alice', priorPublishers: ['alice'], maintainerNames: ['alice', 'carol'] } }),
    score: 100,
    messageId: 'listed-maintainer',
    message: ['carol, a listed maintainer'],
  },
  {
    name: 'first version: no previous publisher',
    evidence: evidence({ registry: { version: '1.0.0', versions: versionsAgo([['1.0.0', 10]]), previousPublisher: null } }),
    score: 100,
    messageId: 'first',
  },
  {
    name: 'publisher unknown (trimmed packument)',
    evidence: evidence({ registry: { publisher: null, previousPublisher: null, trimmed: true } }),
    score: null,
    messageId: 'unknown',
  },
  {
    name: 'previous version has no recorded publisher',
    evidence: evidence({ registry: { previousPublisher: null } }),
    score: null,
    messageId: 'previous-unknown',
    data: { publisher: 'alice' },
  },
]);
