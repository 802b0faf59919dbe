/**
 * A pinned release the registry no longer serves, which OSV knows to be malicious
 * (pipeline/removed-malicious.ts): npm removes such a version, PyPI the whole project. In
 * process against the fixture server: such a target is `NO — DO NOT USE` and fails the gate on
 * the record alone; without a malicious record, for a range, or with OSV down it stays not
 * evaluated, as before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import { exitCodeOf, DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { pinnedVersion } from '../../src/pipeline/removed-malicious.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { DEFAULT_NOW } from '../support/run-cli.js';
import { CVSS_CRITICAL, osvRecord, serveOsv, serveSynthetic } from '../cli/audit-helpers.js';

const NOW = new Date(DEFAULT_NOW);
const NAME = 'nerq-removed-release';
let harness: AppHarness;

beforeEach(async () => {
  harness = await startAppHarness('nerq-removed-', NOW);
  // The package is served at 1.0.0 only: 1.0.1 was removed.
  serveSynthetic(harness.server, { name: NAME, version: '1.0.0', repository: null });
  harness.server.fallback('GET', '/github/', { status: 503, body: 'down' });
});
afterEach(() => harness.stop());

const malicious = (id: string, name: string, ecosystem = 'npm') => ({
  ...osvRecord(id, [name], CVSS_CRITICAL),
  affected: [{ package: { ecosystem, name }, ranges: [{ type: ecosystem === 'npm' ? 'SEMVER' : 'ECOSYSTEM', events: [{ introduced: '0' }] }] }],
});

async function check(input: string) {
  const [outcome] = await checkTargets(harness.runtime(), { targets: [parseTarget(input)], gate: DEFAULT_GATE, now: NOW });
  return outcome!;
}
const osvAsked = () => harness.server.requests.filter((r) => r.path.startsWith('/osv/')).length;

describe('a removed release that OSV knows to be malicious', () => {
  it('npm: a version the registry no longer serves, named by a MAL- record → NO — DO NOT USE, the gate fails, the registry said why it is unknown', async () => {
    serveOsv(harness.server, [malicious('MAL-2026-1001', NAME)]);
    const { report, evidence } = await check(`${NAME}@1.0.1`);
    expect(report.error).toBeNull();
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.caps.map((c) => c.id)).toContain('malicious');
    expect(report.checks.find((c) => c.id === 'malicious-package')?.score).toBe(0);
    expect(report.target).toMatchObject({ name: NAME, version: '1.0.1', purl: `pkg:npm/${NAME}@1.0.1` });
    expect(report.gate.passed).toBe(false);
    expect(exitCodeOf([report.gate])).toBe(1);
    expect(evidence?.sources.registry).toMatchObject({ status: 'unavailable' });
    expect(evidence?.sources.registry.status === 'unavailable' && evidence.sources.registry.reason).toMatch(/1\.0\.1/);
  });

  it('PyPI: a project PyPI removed, pinned with ==, named by a MAL- record → NO — DO NOT USE', async () => {
    harness.server.fallback('GET', '/pypi/', { status: 404, body: '{"message": "Not Found"}' });
    serveOsv(harness.server, [malicious('MAL-2026-2002', 'nerq-removed-project', 'PyPI')]);
    const { report } = await check('pypi:nerq-removed-project==0.3.1');
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.target).toMatchObject({ ecosystem: 'pypi', version: '0.3.1' });
    expect(report.gate.passed).toBe(false);
  });

  it('no malicious record: still not evaluated (version-not-found), after one OSV look-up', async () => {
    serveOsv(harness.server, []);
    const { report } = await check(`${NAME}@1.0.1`);
    expect(report.error?.code).toBe('version-not-found');
    expect(report.verdictCode).toBe('unknown');
    expect(osvAsked()).toBe(1);
  });

  it('an ordinary advisory is not a malicious record: not evaluated', async () => {
    serveOsv(harness.server, [osvRecord('GHSA-xxxx-yyyy-zzzz', [NAME], CVSS_CRITICAL)]);
    const { report } = await check(`${NAME}@1.0.1`);
    expect(report.error?.code).toBe('version-not-found');
  });

  it('OSV down: not evaluated, never guessed either way', async () => {
    harness.server.fallback('POST', '/osv/', { status: 503, body: 'down' });
    const { report } = await check(`${NAME}@1.0.1`);
    expect(report.error?.code).toBe('version-not-found');
  });

  it('a range or a tag names no release: OSV is not asked', async () => {
    serveOsv(harness.server, [malicious('MAL-2026-1001', NAME)]);
    const { report } = await check(`${NAME}@^2.0.0`);
    expect(report.error?.code).toBe('version-not-found');
    expect(osvAsked()).toBe(0);
  });

  it.each([
    ['npm:x@1.2.3', '1.2.3'],
    ['x@=1.2.3', '1.2.3'],
    ['x@^1.2.3', null],
    ['x@latest', null],
    ['x', null],
    ['pypi:x==1.0.post1', '1.0.post1'],
    ['pypi:x>=1.0', null],
  ])('the pinned version of %s: %s', (input, version) => {
    expect(pinnedVersion(parseTarget(input))).toBe(version);
  });
});
