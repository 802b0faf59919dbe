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
import { evidenceFromJson, rescoreEvidence } from '../../src/app/score.js';
import { CVSS_CRITICAL, osvRecord, recordedOsvRecord, serveOsv, serveSynthetic } from '../cli/audit-helpers.js';

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
/** The bodies of the version-less `/v1/query` requests. */
const packageQueries = () => harness.server.requests.filter((r) => r.method === 'POST' && r.path === '/osv/v1/query').map((r) => JSON.parse(r.body) as unknown);

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

/**
 * The package itself is gone (PyPI removes a malicious project whole; npm may remove a whole
 * package) and the target names a range, a tag or no version: OSV is asked about the package
 * with no version, and only a malicious-package record that affects every version counts.
 */
describe('a removed package named by a range, a tag or no version', () => {
  const AIOHTT = recordedOsvRecord('MAL-2023-1578'); // PyPI aiohtt, affected from 0, no fix
  const AIOCPA = recordedOsvRecord('MAL-2024-11518'); // PyPI aiocpa, versions 0.1.13 and 0.1.14 only
  const FLATMAP = recordedOsvRecord('MAL-2025-20690'); // npm flatmap-stream, affected from 0, no fix
  const pypiGone = () => harness.server.fallback('GET', '/pypi/', { status: 404, body: '{"message": "Not Found"}' });
  const npmGone = (name: string) => harness.server.expect('GET', `/npm/${name}`, { status: 404, body: '{"error":"Not found"}' });

  it.each(['pypi:aiohtt', 'pypi:aiohtt>=2.0', 'pypi:AioHTT~=1.0'])('PyPI, %s: the project page 404s, a MAL- record affects every version → NO — DO NOT USE on it alone, one OSV query', async (input) => {
    pypiGone();
    serveOsv(harness.server, [AIOHTT]);
    const { report, evidence } = await check(input);
    expect(report.error).toBeNull();
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.caps.map((c) => c.id)).toContain('malicious');
    const malicious = report.checks.find((c) => c.id === 'malicious-package');
    expect(malicious?.score).toBe(0);
    expect(malicious?.messageId).toBe('malicious');
    expect(report.target).toMatchObject({ ecosystem: 'pypi', version: null, purl: 'pkg:pypi/aiohtt', repository: null });
    expect(report.gate.passed).toBe(false);
    expect(exitCodeOf([report.gate])).toBe(1);
    expect(evidence?.sources.pypi).toMatchObject({ status: 'unavailable' });
    expect(evidence?.sources.vulnerabilities).toMatchObject({ status: 'ok', facts: { versionless: true, advisories: [expect.objectContaining({ id: 'MAL-2023-1578', malicious: true, version: null, fixed: null })] } });
    // Only the malicious records were read: no version's other advisories are known, never "none".
    expect(report.checks.find((c) => c.id === 'known-vulnerabilities')).toMatchObject({ status: 'unknown', score: null, messageId: 'no-version' });
    // One request: the package, with no version; no batch, no record read.
    expect(packageQueries()).toEqual([{ package: { name: 'aiohtt', ecosystem: 'PyPI' } }]);
    expect(osvAsked()).toBe(1);
  });

  it('the evidence re-scores to the same verdict (nerq score)', async () => {
    pypiGone();
    serveOsv(harness.server, [AIOHTT]);
    const { report, evidence } = await check('pypi:aiohtt');
    const [again] = rescoreEvidence(evidenceFromJson(JSON.parse(JSON.stringify(evidence))), { gate: DEFAULT_GATE });
    expect(again?.verdictCode).toBe('do-not-use');
    expect(again?.score).toBe(report.score);
    expect(again?.caps.map((c) => c.id)).toEqual(report.caps.map((c) => c.id));
  });

  it.each(['flatmap-stream', 'flatmap-stream@^0.1.0', 'flatmap-stream@latest'])('npm, %s: the whole packument 404s, a MAL- record affects every version → NO — DO NOT USE', async (input) => {
    npmGone('flatmap-stream');
    serveOsv(harness.server, [FLATMAP]);
    const { report } = await check(input);
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.caps.map((c) => c.id)).toContain('malicious');
    expect(report.target).toMatchObject({ ecosystem: 'npm', name: 'flatmap-stream', version: null, purl: 'pkg:npm/flatmap-stream' });
    expect(exitCodeOf([report.gate])).toBe(1);
    expect(packageQueries()).toEqual([{ package: { name: 'flatmap-stream', ecosystem: 'npm' } }]);
  });

  it('a malicious record with a fixed version does not cover every version: not found, after the one query', async () => {
    npmGone('nerq-gone');
    serveOsv(harness.server, [{ ...malicious('MAL-2026-4004', 'nerq-gone'), affected: [{ package: { ecosystem: 'npm', name: 'nerq-gone' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.0.1' }] }] }] }]);
    const { report } = await check('nerq-gone@^1.0.0');
    expect(report.error?.code).toBe('not-found');
    expect(report.verdictCode).toBe('unknown');
    expect(exitCodeOf([report.gate])).toBe(3);
    expect(packageQueries()).toHaveLength(1);
  });

  it('a malicious record that lists versions only (the recorded aiocpa) does not cover every version: not found', async () => {
    pypiGone();
    serveOsv(harness.server, [AIOCPA]);
    const { report } = await check('pypi:aiocpa>=0.1');
    expect(report.error?.code).toBe('not-found');
    expect(packageQueries()).toHaveLength(1);
  });

  it('an ordinary advisory affecting every version is not a malicious record: not found', async () => {
    npmGone('nerq-gone');
    serveOsv(harness.server, [{ ...osvRecord('GHSA-aaaa-bbbb-cccc', ['nerq-gone'], CVSS_CRITICAL), affected: [{ package: { ecosystem: 'npm', name: 'nerq-gone' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] }] }]);
    const { report } = await check('nerq-gone');
    expect(report.error?.code).toBe('not-found');
    expect(packageQueries()).toHaveLength(1);
  });

  it('a withdrawn malicious record (the recorded MAL-2024-2929) does not count: not found', async () => {
    npmGone('react');
    serveOsv(harness.server, [recordedOsvRecord('MAL-2024-2929')]);
    const { report } = await check('react@^18.0.0');
    expect(report.error?.code).toBe('not-found');
    expect(packageQueries()).toHaveLength(1);
  });

  it.each([
    ['503', { status: 503, body: 'down' }],
    ['malformed JSON', { status: 200, body: '{"vulns": [' }],
    ['the wrong shape', { status: 200, body: '{"vulns": "MAL-2023-1578"}' }],
  ])('OSV answers %s: not found (exit 3), never guessed either way', async (_case, answer) => {
    pypiGone();
    harness.server.fallback('POST', '/osv/', answer);
    const { report } = await check('pypi:aiohtt>=2.0');
    expect(report.error?.code).toBe('not-found');
    expect(exitCodeOf([report.gate])).toBe(3);
    expect(packageQueries().length).toBeGreaterThan(0);
  });

  it('a record on a second page is read (next_page_token followed)', async () => {
    pypiGone();
    harness.server.route('POST', '/osv/v1/query', (_req, res, { body }) => {
      const query = JSON.parse(body.toString('utf8')) as { page_token?: string };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(query.page_token === 'p2' ? { vulns: [AIOHTT] } : { vulns: [AIOCPA], next_page_token: 'p2' }));
    });
    const { report } = await check('pypi:aiohtt');
    expect(report.verdictCode).toBe('do-not-use');
    expect(packageQueries()).toEqual([{ package: { name: 'aiohtt', ecosystem: 'PyPI' } }, { package: { name: 'aiohtt', ecosystem: 'PyPI' }, page_token: 'p2' }]);
  });

  it('the package exists but no version matches the range: OSV is not asked (only a package gone is)', async () => {
    serveOsv(harness.server, [malicious('MAL-2026-1001', NAME)]);
    const { report } = await check(`${NAME}@^3.0.0`);
    expect(report.error?.code).toBe('version-not-found');
    expect(osvAsked()).toBe(0);
  });
});
