import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { AdvisoryFactsSchema, type AdvisoryFacts } from '../../src/evidence/schema.js';
import {
  OsvRecordSchema,
  affectsEveryVersion,
  aliasLookupOrder,
  everyVersionAdvisory,
  compareNpmVersions,
  compareNumericDotted,
  firstFixedAbove,
  isMalicious,
  isWithdrawn,
  mergeTwins,
  normaliseAdvisory,
  ownSeverity,
  sortAdvisories,
  summaryOf,
  type AdvisoryQuery,
  type OsvRecord,
} from '../../src/sources/osv/advisory.js';
import { pep503 } from '../../src/ecosystems/pypi/name.js';
import { loadCvssCalculator } from '../../src/sources/osv/cvss.js';
import { advisory } from '../support/evidence-builder.js';

// Severities are scored from CVSS vectors: the calculator loads before any record is normalised.
beforeAll(loadCvssCalculator);

/** A recorded advisory from fixtures/http/osv/v1/vulns/. */
function recorded(id: string): OsvRecord {
  const text = readFileSync(new URL(`../../fixtures/http/osv/v1/vulns/${id}.json`, import.meta.url), 'utf8');
  return OsvRecordSchema.parse(JSON.parse(text));
}

/** A minimal record, as OSV shapes one. */
function record(fields: Record<string, unknown>): OsvRecord {
  return OsvRecordSchema.parse({ id: 'GHSA-aaaa-bbbb-cccc', ...fields });
}

const npm = (name: string, version: string): AdvisoryQuery => ({ ecosystem: 'npm', name, version, compare: compareNpmVersions });
const pypi = (name: string, version: string): AdvisoryQuery => ({ ecosystem: 'PyPI', name, version, compare: compareNumericDotted });

const V3_HIGH = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N';
const V4_CRITICAL = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N';
const V2_HIGH = 'AV:N/AC:L/Au:N/C:P/I:P/A:P';

describe('OsvRecordSchema', () => {
  test('reads every recorded fixture', () => {
    for (const id of ['GHSA-35jh-r3h4-6jhm', 'GHSA-v7q8-wvvh-c97p', 'PYSEC-2023-62', 'MAL-2024-2929', 'NERQ-SYNTH-2025-191025']) {
      expect(recorded(id).id).toBe(id);
    }
  });

  test('drops malformed optional parts instead of failing the record', () => {
    const parsed = record({
      aliases: ['CVE-2026-1', 7, null],
      summary: 12,
      severity: [{ type: 'CVSS_V3', score: V3_HIGH }, { type: 'CVSS_V3' }, 'x'],
      affected: [{ package: { name: 'a', ecosystem: 'npm' }, ranges: [{ type: 'SEMVER', events: [{ fixed: 2 }, { fixed: '1.0.1' }] }, 'x'] }, 5],
      database_specific: 'nope',
    });
    expect(parsed.aliases).toEqual(['CVE-2026-1']);
    expect(parsed.summary).toBeUndefined();
    expect(parsed.severity).toEqual([{ type: 'CVSS_V3', score: V3_HIGH }]);
    expect(parsed.affected).toHaveLength(1);
    expect(parsed.affected[0]?.ranges[0]?.events).toEqual([{}, { fixed: '1.0.1' }]);
    expect(parsed.database_specific).toEqual({});
  });

  test.each([
    ['no id', {}],
    ['an empty id', { id: '' }],
    ['a numeric id', { id: 5 }],
    ['not an object', 'GHSA-x'],
  ])('%s → rejected', (_label, body) => {
    expect(OsvRecordSchema.safeParse(body).success).toBe(false);
  });
});

describe('ownSeverity', () => {
  test.each([
    ['CVSS v4 preferred over v3', { severity: [{ type: 'CVSS_V3', score: V3_HIGH }, { type: 'CVSS_V4', score: V4_CRITICAL }] }, { severity: 'critical', source: 'cvss', cvss: 9.3, cvssVector: V4_CRITICAL }],
    ['CVSS v3 preferred over v2', { severity: [{ type: 'CVSS_V2', score: 'AV:N/AC:L/Au:N/C:C/I:C/A:C' }, { type: 'CVSS_V3', score: V3_HIGH }] }, { severity: 'high', source: 'cvss', cvss: 7.5, cvssVector: V3_HIGH }],
    ['an unscorable v3 falls back to v2', { severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N' }, { type: 'CVSS_V2', score: V2_HIGH }] }, { severity: 'high', source: 'cvss', cvss: 7.5, cvssVector: V2_HIGH }],
    ['CVSS wins over the database label', { severity: [{ type: 'CVSS_V3', score: V3_HIGH }], database_specific: { severity: 'LOW' } }, { severity: 'high', source: 'cvss', cvss: 7.5, cvssVector: V3_HIGH }],
    ['a vector scoring 0 defers to the label', { severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N' }], database_specific: { severity: 'LOW' } }, { severity: 'low', source: 'database', cvss: null, cvssVector: null }],
    ['garbage vectors defer to the label', { severity: [{ type: 'CVSS_V3', score: 'garbage' }], database_specific: { severity: 'HIGH' } }, { severity: 'high', source: 'database', cvss: null, cvssVector: null }],
    ['label CRITICAL', { database_specific: { severity: 'CRITICAL' } }, { severity: 'critical', source: 'database', cvss: null, cvssVector: null }],
    ['label MODERATE', { database_specific: { severity: 'MODERATE' } }, { severity: 'moderate', source: 'database', cvss: null, cvssVector: null }],
    ['label MEDIUM', { database_specific: { severity: 'MEDIUM' } }, { severity: 'moderate', source: 'database', cvss: null, cvssVector: null }],
    ['label in lower case', { database_specific: { severity: 'low' } }, { severity: 'low', source: 'database', cvss: null, cvssVector: null }],
    ['an unknown label', { database_specific: { severity: 'UNKNOWN' } }, null],
    ['a non-string label', { database_specific: { severity: 9 } }, null],
    ['other severity types only', { severity: [{ type: 'Ubuntu', score: 'high' }] }, null],
    ['nothing', {}, null],
  ])('%s', (_label, fields, expected) => {
    expect(ownSeverity(record(fields))).toEqual(expected);
  });

  test('the recorded Zope2 advisory has only the database label', () => {
    expect(ownSeverity(recorded('GHSA-v7q8-wvvh-c97p'))).toEqual({ severity: 'moderate', source: 'database', cvss: null, cvssVector: null });
  });
});

describe('isMalicious (by id and source, never by words)', () => {
  test.each([
    ['a MAL- id', { id: 'MAL-2025-20690' }, true],
    ['malicious-packages origins', { id: 'OTHER-1', database_specific: { 'malicious-packages-origins': [{ source: 'ghsa-malware' }] } }, true],
    ['malicious-packages origins key present but null', { id: 'OTHER-2', database_specific: { 'malicious-packages-origins': null } }, true],
    ['"maliciously crafted input" in the summary', { id: 'GHSA-aaaa-bbbb-cccc', summary: 'Maliciously crafted input can crash the parser' }, false],
    ['"Malicious code" in the summary of a GHSA', { id: 'GHSA-aaaa-bbbb-cccc', summary: 'Malicious code in example (npm)' }, false],
    ['a MAL- alias of an ordinary id', { id: 'GHSA-aaaa-bbbb-cccc', aliases: ['MAL-2025-1'] }, false],
    ['"mal" lower case is not the MAL- prefix', { id: 'mal-2025-1' }, false],
  ])('%s → %s', (_label, fields, expected) => {
    expect(isMalicious(record(fields))).toBe(expected);
  });

  test('the recorded MAL-, origins and ordinary records', () => {
    expect(isMalicious(recorded('MAL-2025-20690'))).toBe(true);
    expect(isMalicious(recorded('NERQ-SYNTH-2025-191025'))).toBe(true);
    expect(isMalicious(recorded('GHSA-35jh-r3h4-6jhm'))).toBe(false);
  });
});

describe('affectsEveryVersion (a package removed whole: open from 0, conservative)', () => {
  const entry = (name: string, ranges: unknown[], extra: Record<string, unknown> = {}) => ({ package: { ecosystem: 'npm', name }, ranges, ...extra });
  const semver = (...events: Record<string, string>[]) => ({ type: 'SEMVER', events });
  test.each([
    ['introduced 0, nothing else', [entry('x', [semver({ introduced: '0' })])], true],
    ['introduced 0 and a versions list', [entry('x', [semver({ introduced: '0' })], { versions: ['1.0.0'] })], true],
    ['introduced 0, then fixed', [entry('x', [semver({ introduced: '0' }, { fixed: '1.0.1' })])], false],
    ['introduced 0, then last_affected', [entry('x', [semver({ introduced: '0' }, { last_affected: '1.0.0' })])], false],
    ['introduced 0, a limit', [entry('x', [semver({ introduced: '0' }, { limit: '2.0.0' })])], false],
    ['introduced above 0', [entry('x', [semver({ introduced: '1.0.0' })])], false],
    ['a versions list only', [entry('x', [], { versions: ['1.0.0', '1.0.1'] })], false],
    ['open for x, bounded in a second entry for x', [entry('x', [semver({ introduced: '0' })]), entry('x', [semver({ introduced: '0' }, { fixed: '2.0.0' })])], false],
    ['open for another package only', [entry('y', [semver({ introduced: '0' })])], false],
    ['a GIT range only', [entry('x', [{ type: 'GIT', events: [{ introduced: '0' }] }])], false],
  ])('%s → %s', (_label, affected, expected) => {
    expect(affectsEveryVersion(record({ id: 'MAL-2026-1', affected }), 'npm', 'x')).toBe(expected);
  });

  test('the recorded records: aiohtt and flatmap-stream open from 0; aiocpa lists versions only', () => {
    expect(affectsEveryVersion(recorded('MAL-2023-1578'), 'PyPI', 'aiohtt')).toBe(true);
    expect(affectsEveryVersion(recorded('MAL-2023-1578'), 'PyPI', 'AioHTT')).toBe(true);
    expect(affectsEveryVersion(recorded('MAL-2025-20690'), 'npm', 'flatmap-stream')).toBe(true);
    expect(affectsEveryVersion(recorded('MAL-2024-11518'), 'PyPI', 'aiocpa')).toBe(false);
    expect(affectsEveryVersion(recorded('MAL-2025-20690'), 'PyPI', 'flatmap-stream')).toBe(false);
  });

  test('its facts: matched against no version, no fix, malicious, valid evidence', () => {
    const facts = everyVersionAdvisory(recorded('MAL-2023-1578'), 'PyPI', 'aiohtt');
    expect(facts).toMatchObject({ id: 'MAL-2023-1578', package: 'aiohtt', version: null, fixed: null, malicious: true, affectsResolved: true, summary: 'Malicious code in aiohtt (PyPI)' });
    expect(AdvisoryFactsSchema.safeParse(facts).success).toBe(true);
  });
});

describe('isWithdrawn', () => {
  test.each([
    [{ withdrawn: '2024-07-01T03:32:00Z' }, true],
    [{ withdrawn: '' }, false],
    [{}, false],
  ])('%j → %s', (fields, expected) => {
    expect(isWithdrawn(record(fields))).toBe(expected);
  });
});

describe('summaryOf', () => {
  test.each([
    ['the summary, trimmed', { summary: '  Command Injection in lodash \n', details: 'x' }, 'Command Injection in lodash'],
    ['the first non-empty line of the details', { details: '\n\n  First line.  \nSecond line.' }, 'First line.'],
    ['an empty summary falls back to the details', { summary: '   ', details: 'From details' }, 'From details'],
    ['inner whitespace collapsed', { summary: 'a\t\tb   c' }, 'a b c'],
    ['nothing', {}, null],
  ])('%s', (_label, fields, expected) => {
    expect(summaryOf(record(fields))).toBe(expected);
  });

  test('a long text is cut to 300 characters, with an ellipsis', () => {
    const summary = summaryOf(record({ details: 'word '.repeat(200) }));
    expect(summary).toMatch(/^word word .* word…$/);
    expect(Array.from(summary ?? '').length).toBeGreaterThan(290);
    expect(Array.from(summary ?? '').length).toBeLessThanOrEqual(300);
  });

  test('cutting never splits a surrogate pair', () => {
    const summary = summaryOf(record({ summary: '😀'.repeat(400) })) ?? '';
    expect(Array.from(summary)).toHaveLength(300);
    expect(summary).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('version order', () => {
  test.each([
    ['1.2.6', '1.2.5', 1],
    ['1.2.5', '1.2.6', -1],
    ['4.17.21', '4.17.21', 0],
    ['v1.0.0', '1.0.0', 0],
    ['1.0.0-beta.1', '1.0.0', -1],
    ['', '1.0.0', null],
    ['not-a-version', '1.0.0', null],
  ])('npm %s vs %s → %s', (a, b, order) => {
    const result = compareNpmVersions(a, b);
    expect(result === null ? null : Math.sign(result)).toBe(order);
  });

  test.each([
    ['2.9.12', '2.9.5', 1],
    ['2.10.0', '2.9.12', 1],
    ['1.0', '1.0.0', 0],
    ['1.0.1', '1.0', 1],
    ['2023.7.22', '2023.07.22', 0],
    ['99999999999999999999.1', '99999999999999999998.9', 1],
    ['2.0.0rc1', '1.0', null],
    ['1!2.0', '1.0', null],
    ['', '1.0', null],
  ])('numeric-dotted %s vs %s → %s', (a, b, order) => {
    const result = compareNumericDotted(a, b);
    expect(result === null ? null : Math.sign(result)).toBe(order);
  });

  test.each([
    ['Zope2', 'zope2'],
    ['zope.interface', 'zope-interface'],
    ['Foo__Bar-.baz', 'foo-bar-baz'],
  ])('PEP 503 %s → %s', (name, normalised) => {
    expect(pep503(name)).toBe(normalised);
  });
});

describe('firstFixedAbove', () => {
  const ranges = (...events: object[][]) => events.map((e) => ({ type: 'ECOSYSTEM', events: e }));

  test.each([
    ['the recorded minimist advisory at 1.2.5: 1.2.6, not the lower 0.2.4', recorded('GHSA-xvch-5gv4-984h'), npm('minimist', '1.2.5'), '1.2.6'],
    ['the recorded minimist advisory at 0.1.0: 0.2.4', recorded('GHSA-xvch-5gv4-984h'), npm('minimist', '0.1.0'), '0.2.4'],
    ['the recorded lodash advisory for lodash-es', recorded('GHSA-35jh-r3h4-6jhm'), npm('lodash-es', '4.17.20'), '4.17.21'],
    ['another package of the same record does not count', recorded('GHSA-35jh-r3h4-6jhm'), npm('lodash.template', '4.5.0'), null],
    ['already at the fix', recorded('GHSA-35jh-r3h4-6jhm'), npm('lodash', '4.17.21'), null],
    ['last_affected only: no fix', recorded('GHSA-29mw-wpgm-hmr9'), npm('lodash.trim', '4.5.1'), null],
    ['PyPI, name normalised (Zope2 / zope2), release order', recorded('GHSA-v7q8-wvvh-c97p'), pypi('zope2', '2.9.5'), '2.9.12'],
    ['PyPI, GIT ranges (commit hashes) ignored', recorded('PYSEC-2023-62'), pypi('flask', '1.0.0'), '2.2.5'],
    ['PyPI, the second range', recorded('PYSEC-2023-62'), pypi('Flask', '2.3.1'), '2.3.2'],
    ['an empty fixed event is ignored', record({ affected: [{ package: { name: 'cal_rd', ecosystem: 'npm' }, ranges: ranges([{ introduced: '0.0.0' }, { fixed: '' }]) }] }), npm('cal_rd', '0.1.1'), null],
    ['SEMVER ranges count', record({ affected: [{ package: { name: 'a', ecosystem: 'npm' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '2.0.1' }] }] }] }), npm('a', '2.0.0'), '2.0.1'],
    ['another ecosystem with the same name does not count', record({ affected: [{ package: { name: 'a', ecosystem: 'PyPI' }, ranges: ranges([{ introduced: '0' }, { fixed: '9.9.9' }]) }] }), npm('a', '1.0.0'), null],
    ['npm names are compared exactly', record({ affected: [{ package: { name: 'A', ecosystem: 'npm' }, ranges: ranges([{ introduced: '0' }, { fixed: '9.9.9' }]) }] }), npm('a', '1.0.0'), null],
    ['a fix that cannot be compared is skipped', record({ affected: [{ package: { name: 'p', ecosystem: 'PyPI' }, ranges: ranges([{ introduced: '0' }, { fixed: '2.0.0rc1' }], [{ introduced: '0' }, { fixed: '2.0.1' }]) }] }), pypi('p', '1.0'), '2.0.1'],
    ['the lowest of several fixes above', record({ affected: [{ package: { name: 'a', ecosystem: 'npm' }, ranges: ranges([{ introduced: '0' }, { fixed: '3.0.0' }, { introduced: '3.1.0' }, { fixed: '3.1.5' }, { fixed: '2.5.0' }]) }] }), npm('a', '2.0.0'), '2.5.0'],
  ])('%s', (_label, rec, query, fixed) => {
    expect(firstFixedAbove(rec, query)).toBe(fixed);
  });
});

describe('aliasLookupOrder', () => {
  test('GHSA first, then the rest in record order, never itself', () => {
    const rec = record({ id: 'PYSEC-2021-66', aliases: ['CVE-2020-28493', 'SNYK-PYTHON-JINJA2-1012994', 'GHSA-g3rq-g295-4j3m', 'PYSEC-2021-66', 'CVE-2020-28493'] });
    expect(aliasLookupOrder(rec)).toEqual(['GHSA-g3rq-g295-4j3m', 'CVE-2020-28493', 'SNYK-PYTHON-JINJA2-1012994']);
  });
});

describe('normaliseAdvisory', () => {
  test('a recorded GHSA record with a CVSS vector and a fix', () => {
    const facts = normaliseAdvisory(recorded('GHSA-35jh-r3h4-6jhm'), npm('lodash', '4.17.20'));
    expect(facts).toEqual({
      id: 'GHSA-35jh-r3h4-6jhm',
      aliases: ['CVE-2021-23337'],
      summary: 'Command Injection in lodash',
      severity: 'high',
      severitySource: 'cvss',
      cvss: 7.2,
      cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H',
      package: 'lodash',
      ecosystem: 'npm',
      version: '4.17.20',
      affectsResolved: true,
      fixed: '4.17.21',
      published: '2021-05-06T16:05:51Z',
      malicious: false,
      url: 'https://osv.dev/vulnerability/GHSA-35jh-r3h4-6jhm',
    });
    expect(AdvisoryFactsSchema.safeParse(facts).success).toBe(true);
  });

  test.each([
    ['own severity beats a borrowed one', { severity: [{ type: 'CVSS_V3', score: V3_HIGH }] }, 'high', 'cvss', 7.5],
    ['a borrowed severity when there is none', {}, 'critical', 'alias', 9.3],
  ])('%s', (_label, fields, severity, source, cvss) => {
    const facts = normaliseAdvisory(record(fields), npm('a', '1.0.0'), { severity: 'critical', source: 'cvss', cvss: 9.3, cvssVector: V4_CRITICAL });
    expect([facts.severity, facts.severitySource, facts.cvss]).toEqual([severity, source, cvss]);
  });

  test('no severity anywhere → unknown, from nowhere', () => {
    const facts = normaliseAdvisory(recorded('PYSEC-2024-69'), pypi('django', '4.2.10'));
    expect([facts.severity, facts.severitySource, facts.cvss, facts.cvssVector]).toEqual(['unknown', 'none', null, null]);
    expect(facts.fixed).toBe('4.2.15');
    expect(facts.summary).toMatch(/^An issue was discovered in Django 5\.0 before 5\.0\.8/);
  });

  test('the id is encoded in the URL', () => {
    expect(normaliseAdvisory(record({ id: 'RHSA-2024:1234' }), npm('a', '1.0.0')).url).toBe('https://osv.dev/vulnerability/RHSA-2024%3A1234');
  });
});

describe('mergeTwins', () => {
  const base: Partial<AdvisoryFacts> = { package: 'flask', version: '1.0.0', aliases: [], severity: 'unknown', severitySource: 'none', cvss: null, cvssVector: null, fixed: null, malicious: false };
  const a = (overrides: Partial<AdvisoryFacts>) => advisory({ ...base, ...overrides });

  test('the recorded PYSEC / GHSA / CVE twins become one advisory under the GHSA id', () => {
    const pysec = normaliseAdvisory(recorded('PYSEC-2023-62'), pypi('flask', '1.0.0'));
    const ghsa = normaliseAdvisory(recorded('GHSA-m2qf-hxjv-5gpq'), pypi('flask', '1.0.0'));
    const merged = mergeTwins([pysec, ghsa], compareNumericDotted);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({
      id: 'GHSA-m2qf-hxjv-5gpq',
      aliases: ['CVE-2023-30861', 'PYSEC-2023-62'],
      severity: 'high',
      severitySource: 'cvss',
      cvss: 7.5,
      fixed: '2.2.5',
      published: '2023-05-01T19:22:20Z',
      url: 'https://osv.dev/vulnerability/GHSA-m2qf-hxjv-5gpq',
    });
  });

  test.each<[string, AdvisoryFacts[], string[][]]>([
    ['no overlap: kept apart', [a({ id: 'GHSA-1', aliases: ['CVE-1'] }), a({ id: 'GHSA-2', aliases: ['CVE-2'] })], [['GHSA-1', 'CVE-1'], ['GHSA-2', 'CVE-2']]],
    ['a shared alias', [a({ id: 'PYSEC-1', aliases: ['CVE-1'] }), a({ id: 'GHSA-1', aliases: ['CVE-1'] })], [['GHSA-1', 'CVE-1', 'PYSEC-1']]],
    ['one names the other', [a({ id: 'PYSEC-1', aliases: ['GHSA-1'] }), a({ id: 'GHSA-1', aliases: [] })], [['GHSA-1', 'PYSEC-1']]],
    [
      'transitively (A~B through CVE-1, B~C through CVE-2)',
      [a({ id: 'PYSEC-1', aliases: ['CVE-1'] }), a({ id: 'OSV-9', aliases: ['CVE-1', 'CVE-2'] }), a({ id: 'GHSA-3', aliases: ['CVE-2'] }), a({ id: 'GHSA-4', aliases: [] })],
      [['GHSA-3', 'CVE-1', 'CVE-2', 'OSV-9', 'PYSEC-1'], ['GHSA-4']],
    ],
    ['no GHSA: the first is primary', [a({ id: 'PYSEC-2', aliases: ['CVE-9'] }), a({ id: 'CVE-9', aliases: [] })], [['PYSEC-2', 'CVE-9']]],
    ['same ids, different packages: kept apart', [a({ id: 'GHSA-1' }), a({ id: 'GHSA-1', package: 'werkzeug' })], [['GHSA-1'], ['GHSA-1']]],
    ['same ids, different versions: kept apart', [a({ id: 'GHSA-1' }), a({ id: 'GHSA-1', version: '2.0.0' })], [['GHSA-1'], ['GHSA-1']]],
  ])('%s', (_label, input, groups) => {
    const merged = mergeTwins(input, compareNumericDotted);
    expect(merged.map((m) => [m.id, ...m.aliases])).toEqual(groups);
  });

  test('highest known severity, lowest known fix, malicious if any, earliest date', () => {
    const merged = mergeTwins(
      [
        a({ id: 'PYSEC-1', aliases: ['CVE-1'], severity: 'unknown', severitySource: 'none', fixed: '2.3.2', published: '2023-05-02T18:15:00Z' }),
        a({ id: 'GHSA-1', aliases: ['CVE-1'], severity: 'moderate', severitySource: 'database', fixed: null, published: '2023-05-01T19:22:20Z' }),
        a({ id: 'MAL-1', aliases: ['CVE-1'], severity: 'high', severitySource: 'cvss', cvss: 7.5, cvssVector: V3_HIGH, fixed: '2.2.5', malicious: true, published: null }),
      ],
      compareNumericDotted,
    );
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({
      id: 'GHSA-1',
      aliases: ['CVE-1', 'MAL-1', 'PYSEC-1'],
      severity: 'high',
      severitySource: 'cvss',
      cvss: 7.5,
      cvssVector: V3_HIGH,
      fixed: '2.2.5',
      malicious: true,
      published: '2023-05-01T19:22:20Z',
      url: 'https://osv.dev/vulnerability/GHSA-xxxx-yyyy-zzzz',
    });
  });

  test('all unknown stays unknown', () => {
    const merged = mergeTwins([a({ id: 'PYSEC-1', aliases: ['CVE-1'] }), a({ id: 'CVE-1' })], compareNumericDotted);
    expect([merged[0]?.severity, merged[0]?.severitySource]).toEqual(['unknown', 'none']);
  });
});

describe('sortAdvisories', () => {
  test('critical first, unknown last, then id, package and version', () => {
    const sorted = sortAdvisories([
      advisory({ id: 'B', severity: 'unknown' }),
      advisory({ id: 'B', severity: 'low' }),
      advisory({ id: 'Z', severity: 'critical' }),
      advisory({ id: 'A', severity: 'high', package: 'y' }),
      advisory({ id: 'A', severity: 'high', package: 'x' }),
      advisory({ id: 'C', severity: 'moderate' }),
    ]);
    expect(sorted.map((s) => `${s.severity}:${s.id}:${s.package}`)).toEqual([
      'critical:Z:example',
      'high:A:x',
      'high:A:y',
      'moderate:C:example',
      'low:B:example',
      'unknown:B:example',
    ]);
  });
});
