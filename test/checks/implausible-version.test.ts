import { describe, expect, it } from 'vitest';
import check, { IMPLAUSIBLE_CAP, JUMP_SCORE, implausibility } from '../../src/checks/implausible-version.js';
import { daysAgo, evidence, versionsAgo } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, outcomeOf } from './check-table.js';

const npm = (version: string, versions: readonly (readonly [string, number | null])[]) => evidence({ registry: { name: 'acme-internal-utils', version, versions: versionsAgo(versions) } });

describe('implausibility', () => {
  it.each([
    // Versions real dependency-confusion payloads were published with (fixtures/PROVENANCE.md, real malicious names).
    ['99.9.9', 'major'],
    ['999.9.9', 'major'],
    ['101.101.101', 'major'],
    ['157.1.5', 'major'],
    ['100.99.99', 'major'],
    ['0.999.999', 'nines'],
    ['2.64.99999999', 'nines'],
    ['0.0.9999', 'nines'],
    ['v99.0.0', 'major'],
  ])('%s is implausible (%s)', (version, why) => {
    expect(implausibility(version)).toBe(why);
  });

  it.each([
    '1.2.3',
    '89.3.5',
    '2024.1.0', // calendar: a year
    '202312.0.1', // year and month
    '20231201.0.0', // year, month and day
    '0.20230511.0', // workerd: a date in the minor
    '1.0.30000655', // caniuse-lite: a build number, not nines
    '0.0.1337',
    '3.3.3333',
    '1.0.99', // two nines are a real patch number
    'latest',
  ])('%s is plausible', (version) => {
    expect(implausibility(version)).toBeNull();
  });
});

checkTable(check, [
  {
    name: 'a single 99.9.9 published yesterday',
    evidence: npm('99.9.9', [['99.9.9', 1]]),
    score: 0,
    messageId: 'started-implausibly',
    data: { version: '99.9.9', implausible: 'major', first: '99.9.9' },
    caps: [{ id: 'implausible-version', limit: IMPLAUSIBLE_CAP, reason: expect.any(String) as unknown as string }],
  },
  {
    name: 'several releases, all high (a payload republished)',
    evidence: npm('99.99.103', [['99.99.99', 9], ['99.99.101', 5], ['99.99.103', 2]]),
    score: 0,
    messageId: 'started-implausibly',
    data: { version: '99.99.103', implausible: 'major', first: '99.99.99' },
    caps: [{ id: 'implausible-version', limit: IMPLAUSIBLE_CAP, reason: expect.any(String) as unknown as string, args: { version: '99.99.103', first: '99.99.99', implausible: 'major' } }],
  },
  {
    name: 'an established package that started high',
    evidence: npm('120.0.2', [['106.0.0', 1200], ['110.0.0', 900], ['112.0.0', 800], ['119.0.0', 300], ['120.0.2', 30]]),
    score: null,
    messageId: 'established',
  },
  {
    name: 'releases dated in the future do not make a package established',
    evidence: npm('1000.0.0', [['4.0.0', 1200], ['1000.0.0', 3], ['1000.0.1', -100], ['1000.0.2', -200], ['1000.0.3', -300]]),
    score: JUMP_SCORE,
    messageId: 'jump',
    data: { version: '1000.0.0', previous: '4.0.0' },
  },
  {
    name: 'a jump from ordinary numbers',
    evidence: npm('1000.0.0', [['4.0.0', 400], ['5.1.0', 200], ['1000.0.0', 3]]),
    score: JUMP_SCORE,
    messageId: 'jump',
    data: { version: '1000.0.0', implausible: 'major', previous: '5.1.0' },
  },
  {
    name: 'ordinary numbering',
    evidence: npm('2.1.0', [['1.0.0', 40], ['2.1.0', 2]]),
    score: null,
    messageId: 'plausible',
  },
  {
    name: 'a calendar version',
    evidence: npm('2024.3.1', [['2024.3.1', 2]]),
    score: null,
    messageId: 'plausible',
  },
  {
    name: 'a version with no release number',
    evidence: npm('next', [['next', 2]]),
    score: null,
    messageId: 'unreadable',
  },
]);

describe('the verdict', () => {
  it('caps a package whose numbering started implausibly high below the gate line', () => {
    const outcome = outcomeOf(check, npm('99.9.9', [['99.9.9', 1]]));
    expect(outcome.caps).toEqual([expect.objectContaining({ id: 'implausible-version', limit: IMPLAUSIBLE_CAP })]);
  });

  it('leaves a jump and an established package uncapped', () => {
    expect(outcomeOf(check, npm('1000.0.0', [['4.0.0', 400], ['1000.0.0', 3]])).caps).toBeUndefined();
    expect(outcomeOf(check, npm('120.0.2', [['106.0.0', 1200], ['110.0.0', 900], ['112.0.0', 800], ['119.0.0', 300], ['120.0.2', 30]])).caps).toBeUndefined();
  });

  it('is left out of the report unless it finds something, so it adds no points to an ordinary package', () => {
    expect(outcomeOf(check, npm('2.1.0', [['1.0.0', 40], ['2.1.0', 2]])).notApplicable).toBe(true);
    expect(outcomeOf(check, npm('next', [['next', 2]])).notApplicable).toBe(true);
    expect(outcomeOf(check, npm('1000.0.0', [['4.0.0', 400], ['1000.0.0', 3]])).notApplicable).toBeUndefined();
    expect(outcomeOf(check, npm('99.9.9', [['99.9.9', 1]])).notApplicable).toBeUndefined();
  });

  it('reads PyPI releases the same way', () => {
    const pypi = pypiEvidence({
      pypi: { name: 'acme-billing', version: '99.0.0', releases: [{ version: '99.0.0', time: daysAgo(2), prerelease: false, yanked: false, yankedReason: null, files: 1 }] },
    });
    const outcome = outcomeOf(check, pypi);
    expect(outcome.messageId).toBe('started-implausibly');
    expect(outcome.caps?.[0]?.id).toBe('implausible-version');
  });
});
