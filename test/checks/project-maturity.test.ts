import check from '../../src/checks/project-maturity.js';
import { daysAgo } from '../support/evidence-builder.js';
import { repoFiles, repositoryEvidence } from '../support/repository-evidence.js';
import { checkTable } from './check-table.js';

checkTable(check, [
  {
    name: 'a 14-day-old repository: history too short to judge, said in days, not a pass',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(14) }, files: repoFiles({ tags: { count: 0, complete: true } }) }),
    score: 20,
    messageId: 'too-young',
    data: { days: 14 },
    message: ['14 days of history'],
  },
  {
    name: '31 version tags in two weeks: churn on top of youth',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(14) }, files: repoFiles({ tags: { count: 31, complete: true } }) }),
    score: 20,
    messageId: 'too-young',
    data: { days: 14, tags: '31', perWeek: 15.5 },
  },
  {
    name: 'a 60-day-old repository is young',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(60) } }),
    score: 50,
    messageId: 'young',
    data: { days: 60 },
  },
  {
    name: 'a year old with more than 3 tags a week (a full first page: at least 100)',
    evidence: repositoryEvidence({ repository: { createdAt: daysAgo(200) }, files: repoFiles({ tags: { count: 100, complete: false } }) }),
    score: 40,
    messageId: 'churn',
    data: { days: 200, tags: '100+', perWeek: 3.5 },
  },
  {
    name: 'an established repository with a steady pace',
    evidence: repositoryEvidence(),
    score: 100,
    messageId: 'established',
    data: { days: 1500, tags: '12' },
  },
  {
    name: 'tags that could not be listed leave churn out, the age stands',
    evidence: repositoryEvidence({ files: repoFiles({ tags: null }) }),
    score: 100,
    messageId: 'established',
    data: { tags: null, perWeek: null },
  },
  {
    name: 'no creation date: unknown, never a pass',
    evidence: repositoryEvidence({ repository: { createdAt: null } }),
    score: null,
    messageId: 'age-unknown',
  },
]);
