/**
 * Hostile world: odd field types. npm reads a packument's fields its own way — `deprecated`,
 * `hasInstallScript` and install scripts by truthiness, whatever their type — and nerq must read
 * them the same way: a `deprecated: true`, a whitespace-only deprecation message or an object is
 * a deprecation; a numeric postinstall runs; a publish time in the future is no publish time (a
 * registry cannot publish tomorrow), never "released an hour ago".
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
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
    // The release's recency comes from a real time or none: never from the future one.
    expect(JSON.stringify(checkOf(report, 'release-recency').evidence), label).not.toContain('2099');
  });
});
