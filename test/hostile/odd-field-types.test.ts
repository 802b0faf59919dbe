/**
 * Hostile world: odd field types. npm reads a packument's fields its own way — `deprecated`,
 * `hasInstallScript` and install scripts by truthiness, whatever their type — and nerq must read
 * them the same way: a `deprecated: true`, a whitespace-only deprecation message or an object is
 * a deprecation; a numeric postinstall runs; a publish time in the future is no publish time (a
 * registry cannot publish tomorrow), never "released an hour ago". A licence declaration that
 * is no SPDX expression is corrected without dropping a licence it names: `MIT AND Commercial`
 * and `Apache 2.0 / GPL` are unreadable declarations, never the permissive MIT or Apache-2.0
 * that spdx-correct would guess from them.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { licenseFailures } from '../../src/audit/policy-license.js';
import { classifyLicenseId } from '../../src/checks/lib/license-class.js';
import { readDeclaredLicense } from '../../src/checks/lib/spdx.js';
import { spdxFromText } from '../../src/sources/pypi/license.js';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { check, FUZZ_TEST_TIMEOUT_MS } from './support/fuzz-kit.js';
import { noteCases } from './support/metrics.js';
import { closeWorlds, evaluate, version, type Packument } from './support/package-world.js';
import { recordedPackument } from './support/sources.js';

beforeAll(() => requireCli());
afterAll(() => closeWorlds());

function packumentWith(change: (p: Packument) => void): Packument {
  const p = recordedPackument();
  delete (version(p).dist as Record<string, unknown>).attestations;
  change(p);
  return p;
}

describe('deprecated as npm reads it', () => {
  const deprecated: [label: string, value: unknown][] = [
    ['true', true],
    ['a whitespace-only message', '   '],
    ['an object', { reason: 'use something else' }],
    ['a number', 1],
    ['an empty list (truthy in JavaScript, as npm tests it)', []],
  ];
  // Asked for by its exact version: npm (and nerq) resolve plain `chalk` to the newest version that is not deprecated.
  it.concurrent.for(deprecated)('deprecated: %s is a deprecation', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, value], { task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, { packument: { body: packumentWith((p) => void (version(p).deprecated = value)) }, osv: osvNoAdvisories }, { target: 'chalk@4.1.0' });
    sandbox.remove();
    const check = checkOf(report, 'deprecation');
    expect(check.score ?? 100, label).toBeLessThan(70);
    expect(report.verdictCode, label).not.toBe('yes');
  });

  it.concurrent.for(deprecated)('deprecated: %s on the latest: plain `chalk` resolves past it, as npm does', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, value], { task, expect }) => {
    noteCases(task);
    const extra = (server: FixtureServer): void => void server.expect('GET', '/npm/chalk/-/chalk-4.0.0.tgz', { status: 404, body: { error: 'not found' } });
    const { report, sandbox } = await evaluate(task, label, { packument: { body: packumentWith((p) => void (version(p).deprecated = value)) }, osv: osvNoAdvisories }, { extra });
    sandbox.remove();
    expect(report.target.version, label).toBe('4.0.0');
  });

  const notDeprecated: [label: string, value: unknown][] = [
    ['an empty string', ''],
    ['false', false],
    ['null', null],
    ['zero', 0],
  ];
  it.concurrent.for(notDeprecated)('deprecated: %s is no deprecation', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, value], { task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, { packument: { body: packumentWith((p) => void (version(p).deprecated = value)) }, osv: osvNoAdvisories });
    sandbox.remove();
    expect(report.target.version, label).toBe('4.1.0');
    expect(checkOf(report, 'deprecation').score, label).toBe(100);
  });
});

describe('install scripts and hasInstallScript as npm reads them', () => {
  const scripts: [label: string, change: (p: Packument) => void][] = [
    ['a numeric postinstall (npm runs its text)', (p) => void (version(p).scripts = { postinstall: 1 })],
    ['an object as the install script', (p) => void (version(p).scripts = { install: { cmd: 'node x.js' } })],
    ['hasInstallScript: "yes" (truthy)', (p) => void (version(p).hasInstallScript = 'yes')],
  ];
  it.concurrent.for(scripts)('%s: install-scripts does not say "none"', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, change], { task, expect }) => {
    noteCases(task);
    const { report, sandbox } = await evaluate(task, label, { packument: { body: packumentWith(change) }, osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'install-scripts').messageId, label).not.toBe('none');
  });
});

describe('publish times', () => {
  it('a publish time in the future is unknown, never fresh', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const label = 'future time';
    const body = packumentWith((p) => {
      (p.time as Record<string, string>)['4.1.0'] = '2099-01-01T00:00:00.000Z';
    });
    const { report, sandbox } = await evaluate(task, label, { packument: { body }, osv: osvNoAdvisories });
    sandbox.remove();
    const anomalies = checkOf(report, 'release-anomalies');
    expect(anomalies.evidence.published, label).toBeNull();
    expect(anomalies.evidence.anomalies, label).not.toContain('fresh-latest');
    // The newest release is dated in the future: its recency is unknown with a reason code, never fresh.
    const recency = checkOf(report, 'release-recency');
    expect(recency.score, label).toBeNull();
    expect(recency.messageId, label).toBe('future-time');
    expect(recency.evidence.version, label).toBe('4.1.0');
    // The other dates still count: the cadence counts the releases dated in the past.
    expect(checkOf(report, 'release-cadence').evidence.futureDated, label).toBe(1);
  });
});

describe('licence declarations that name several licences', () => {
  /** Texts naming more than one licence in a way SPDX does not define, another licence than the one they name, or a broken expression. */
  const SEVERAL = [
    'MIT AND Commercial',
    'Commercial MIT',
    'MIT-like',
    'custom BSD',
    'Apache 2.0 (modified)',
    'MIT OR Commercial',
    'Apache 2.0 / GPL',
    'Dual MIT/GPL',
    'MIT & GPL',
    'MIT + AGPL-3.0',
    'AGPL MIT',
    'GPL-3.0 MIT',
    'MIT (GPL-3.0)',
    'MIT (see LICENSE)',
    'MIT except GPL',
    'MIT licence, except for the AGPL parts',
    'MIT OR (',
    'MIT AND (GPL-3.0',
    'MIT AND',
    'MIT OR',
    'MIT WITH',
  ];
  it.for(SEVERAL)('%j: no correction that drops a licence (npm and PyPI free text)', (text, { task, expect }) => {
    noteCases(task);
    const read = readDeclaredLicense(text);
    expect(read.kind, `${text} → ${JSON.stringify(read)}`).toBe('invalid');
    expect(spdxFromText(text), text).toBeNull();
  });

  /** Corrections that keep every licence the text names still apply. */
  const READABLE: [text: string, npm: string][] = [
    ['Apache 2.0', 'Apache-2.0'],
    ['MIT OR Apache 2.0', 'MIT OR Apache-2.0'],
    ['mit and agpl-3.0', 'MIT AND AGPL-3.0'],
    ['Apache License, Version 2.0', 'Apache-2.0'],
    ['(MIT OR apache 2.0)', '(MIT OR Apache-2.0)'],
    // Known ids listed with a separator SPDX does not define: every one of them, the strictest reading.
    ['MIT/X11', '(MIT AND X11)'],
    ['MIT, GPL-3.0', '(MIT AND GPL-3.0)'],
    ['MIT;GPL-3.0', '(MIT AND GPL-3.0)'],
    ['mit | gpl-3.0-only', '(MIT AND GPL-3.0-only)'],
  ];
  it.for(READABLE)('%j is still read as %j', ([text, npm], { task, expect }) => {
    noteCases(task);
    expect(readDeclaredLicense(text)).toMatchObject({ kind: 'corrected', expression: npm });
  });

  /** Unreadable declarations and a licence each may mean: a deny list of that licence is not bypassed by the odd spelling. */
  const DENIED: [text: string, deny: string][] = [
    ['AGPL MIT', 'AGPL-3.0-only'],
    ['MIT, GPL-3.0', 'GPL-3.0-only'],
    ['MIT + AGPL-3.0', 'AGPL-3.0-only'],
    ['Apache 2.0 / GPL', 'GPL-3.0-only'],
    ['Dual MIT/GPL', 'GPL-3.0-only'],
  ];
  it.for(DENIED)('%j fails a policy that denies %s', ([text, denied], { task, expect }) => {
    noteCases(task);
    const failures = licenseFailures({ status: 'declared', expression: text }, { allow: null, deny: [denied] });
    expect(failures.map((f) => f.rule), text).toEqual(['license-denied']);
  });

  /** SPDX ids of a permissive family (`BSD-…`) whose terms ban uses or users: not permissive by their prefix. */
  const BANS = ['BSD-3-Clause-No-Military-License', 'BSD-3-Clause-No-Nuclear-License', 'BSD-3-Clause-No-Nuclear-License-2014', 'BSD-3-Clause-OpenWebUI'];
  it.for(BANS)('%s restricts its use: not classed permissive by its family name', (id, { task, expect }) => {
    noteCases(task);
    expect(classifyLicenseId(id)).toBe('restricted');
    expect(classifyLicenseId(id.toLowerCase())).toBe('restricted');
  });

  /** Licence names as declarations write them, with the SPDX id each means (null: none, such as "Commercial"). */
  const NAMES: [text: string, id: string | null][] = [
    ['MIT', 'MIT'], ['mit', 'MIT'], ['GPL-3.0-only', 'GPL-3.0-only'], ['gpl-3.0-only', 'GPL-3.0-only'], ['Apache-2.0', 'Apache-2.0'],
    ['Apache 2.0', 'Apache-2.0'], ['apache 2.0', 'Apache-2.0'], ['BSD-3-Clause', 'BSD-3-Clause'], ['ISC', 'ISC'], ['AGPL-3.0-only', 'AGPL-3.0-only'],
    ['Commercial', null], ['Proprietary', null], ['All rights reserved', null], ['custom', null],
  ];
  const JOINS = [' AND ', ' OR ', ' and ', ' or ', ' / ', '/', ', ', ' & ', ' + ', ' ', '; ', ' | ', ' AND (', ') OR '];
  it('any two or three licence names joined any way: a reading names every licence, or there is none', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    const declaration = fc.tuple(fc.array(fc.constantFrom(...NAMES), { minLength: 2, maxLength: 3 }), fc.array(fc.constantFrom(...JOINS), { minLength: 2, maxLength: 2 }));
    await check(
      task,
      fc.property(declaration, ([names, joins]) => {
        const text = names.map(([name], i) => (i === 0 ? name : `${joins[i - 1]}${name}`)).join('');
        const read = readDeclaredLicense(text);
        const pypi = spdxFromText(text);
        const meant = new Set(names.map(([, id]) => id));
        for (const [reader, ids] of [['npm', read.kind === 'spdx' || read.kind === 'corrected' ? read.ids : null], ['pypi', pypi === null ? null : readDeclaredLicense(pypi).kind === 'spdx' ? (readDeclaredLicense(pypi) as { ids: string[] }).ids : []]] as const) {
          if (ids === null) continue;
          // Read as a licence: then no name was an unknown one, and every id the text means is there.
          expect(meant.has(null), `${reader}: ${JSON.stringify(text)} → ${ids.join(', ')}`).toBe(false);
          for (const id of meant) expect(ids, `${reader}: ${JSON.stringify(text)}`).toContain(id);
        }
      }),
      2_000,
    );
  });

  const declarations = ['MIT AND Commercial', 'Apache 2.0 / GPL'];
  it.concurrent.for(declarations)('license: %j on the packument is not scored as a permissive licence', { timeout: CLI_TEST_TIMEOUT_MS }, async (text, { task, expect }) => {
    noteCases(task);
    const body = packumentWith((p) => void (version(p).license = text));
    const { report, sandbox } = await evaluate(task, text, { packument: { body }, osv: osvNoAdvisories });
    sandbox.remove();
    const permissiveness = checkOf(report, 'license-permissiveness');
    expect(permissiveness.evidence.class, text).not.toBe('permissive');
    expect(permissiveness.score ?? 0, text).toBeLessThan(100);
    expect(checkOf(report, 'license-declared').messageId, text).not.toBe('corrected');
  });
});
