import check from '../../src/checks/metadata-completeness.js';
import { evidence } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable } from './check-table.js';

checkTable(check, [
  { name: 'all six fields', evidence: evidence(), score: 100, messageId: 'complete', data: { present: 6, total: 6, missing: [] } },
  {
    name: 'homepage and bugs missing',
    evidence: evidence({ registry: { homepage: null, bugs: null } }),
    score: 66.7,
    messageId: 'partial',
    data: { present: 4, missing: ['homepage', 'bugs'] },
    message: ['missing: homepage, bugs'],
  },
  {
    name: 'blank strings and empty keywords are missing',
    evidence: evidence({ registry: { description: '   ', keywords: [''] } }),
    score: 66.7,
    messageId: 'partial',
    data: { missing: ['description', 'keywords'] },
  },
  {
    name: 'nothing',
    evidence: evidence({
      registry: { description: null, repository: null, homepage: null, bugs: null, keywords: [], license: null },
    }),
    score: 0,
    messageId: 'partial',
    data: { present: 0, missing: ['description', 'repository', 'homepage', 'bugs', 'keywords', 'license'] },
  },
  {
    name: 'one missing',
    evidence: evidence({ registry: { repository: null } }),
    score: 83.3,
    messageId: 'partial',
    data: { missing: ['repository'] },
  },
  // PyPI core metadata, missing fields named as PyPI calls them.
  { name: 'PyPI: all six', evidence: pypiEvidence(), score: 100, messageId: 'complete', data: { present: 6, missing: [] } },
  {
    name: 'PyPI: no summary and no issue tracker URL',
    evidence: pypiEvidence({ pypi: { summary: null, issuesUrl: null } }),
    score: 66.7,
    messageId: 'partial',
    data: { present: 4, missing: ['summary', 'issue-tracker'] },
    message: ['missing: summary, issue-tracker'],
  },
  {
    name: 'PyPI: a licence named only by a classifier is declared',
    evidence: pypiEvidence({
      pypi: {
        keywords: [],
        license: { expression: null, classifiers: ['License :: OSI Approved :: BSD License'], text: null, spdx: null, source: null, files: null },
      },
    }),
    score: 83.3,
    messageId: 'partial',
    data: { missing: ['keywords'] },
  },
]);
