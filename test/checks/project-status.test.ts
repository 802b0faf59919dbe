import { describe, expect, it } from 'vitest';
import check, { STAGE_SCORES } from '../../src/checks/project-status.js';
import type { PypiFacts } from '../../src/evidence/schema.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, outcomeOf } from './check-table.js';

const project = (status: PypiFacts['status'], developmentStatus: string | null = '5 - Production/Stable') =>
  pypiEvidence({ pypi: { status, developmentStatus } });
const active = { status: 'active', reason: null };

/** A project whose long description is `text`. */
const describedAs = (text: string) =>
  pypiEvidence({ pypi: { description: { text, contentType: 'text/markdown', length: text.length, truncated: false } } });

checkTable(check, [
  {
    name: 'a long description that opens by declaring the project unmaintained',
    evidence: describedAs('# example\n\nThis project is no longer maintained; use `other` instead.\n'),
    score: 20,
    messageId: 'readme-declared',
    data: { where: 'first paragraph' },
  },
  {
    name: 'active and Production/Stable',
    evidence: pypiEvidence(),
    score: 100,
    messageId: 'stage',
    data: { status: 'active', developmentStatus: '5 - Production/Stable' },
    message: ['Development Status: 5 - Production/Stable'],
  },
  { name: '6 - Mature', evidence: project(active, '6 - Mature'), score: 100, messageId: 'stage' },
  { name: '4 - Beta', evidence: project(active, '4 - Beta'), score: 90, messageId: 'stage' },
  { name: '3 - Alpha', evidence: project(active, '3 - Alpha'), score: 70, messageId: 'stage' },
  { name: '2 - Pre-Alpha', evidence: project(active, '2 - Pre-Alpha'), score: 50, messageId: 'stage' },
  { name: '1 - Planning', evidence: project(null, '1 - Planning'), score: 40, messageId: 'stage', data: { status: null } },
  {
    name: '7 - Inactive caps at 49.9',
    evidence: project(active, '7 - Inactive'),
    score: 20,
    messageId: 'inactive',
    caps: [{ id: 'inactive', limit: 49.9, reason: 'the project declares Development Status 7 - Inactive' }],
  },
  {
    name: 'archived (PEP 792) caps at 49.9',
    evidence: project({ status: 'archived', reason: 'superseded by example2' }),
    score: 0,
    messageId: 'archived',
    data: { status: 'archived', reason: 'superseded by example2' },
    caps: [{ id: 'project-archived', limit: 49.9, reason: 'the project is archived on PyPI: superseded by example2' }],
    message: ['Archived on PyPI: no further updates expected (superseded by example2)'],
  },
  {
    name: 'deprecated (PEP 792) caps at 49.9',
    evidence: project({ status: 'deprecated', reason: null }),
    score: 0,
    messageId: 'deprecated',
    caps: [{ id: 'project-deprecated', limit: 49.9, reason: 'the project is deprecated on PyPI' }],
  },
  {
    name: 'quarantined: do not use',
    evidence: project({ status: 'quarantined', reason: null }, '7 - Inactive'),
    score: 0,
    messageId: 'quarantined',
    caps: [{ id: 'quarantined', limit: 9.9, doNotUse: true, reason: 'PyPI quarantined the project (reported as malicious)' }],
    message: ['Quarantined by PyPI', '(no reason given)'],
  },
  { name: 'active, no classifier: the classifier is optional', evidence: project(active, null), score: 100, messageId: 'active' },
  { name: 'no status from PyPI and no classifier: unknown', evidence: project(null, null), score: null, messageId: 'unknown' },
  {
    name: 'an unrecognised status value is read as none',
    evidence: project({ status: 'frozen', reason: null }, null),
    score: null,
    messageId: 'unknown',
    data: { status: 'frozen' },
  },
]);

describe('project-status', () => {
  it('scores every non-inactive development stage', () => {
    expect(Object.keys(STAGE_SCORES)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('puts quarantine above every other signal', () => {
    const outcome = outcomeOf(check, project({ status: 'quarantined', reason: 'malware report' }, '1 - Planning'));
    expect(outcome.caps).toEqual([
      {
        id: 'quarantined',
        limit: 9.9,
        doNotUse: true,
        reason: 'PyPI quarantined the project (reported as malicious): malware report',
        args: { statusReason: 'malware report' },
      },
    ]);
  });
});

describe('project-status: the long description', () => {
  it('holds the verdict when the description declares the project deprecated, and a mention further down does not', () => {
    expect(outcomeOf(check, describedAs('# Deprecated\n\nSee `other`.')).holdVerdict).toMatch(/project description's title declares/);
    expect(outcomeOf(check, describedAs('# example\n\nParses.\n\n## History\n\nThe old API is deprecated.')).holdVerdict).toBeUndefined();
  });
});
