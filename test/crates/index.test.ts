/**
 * crates.io's sparse index source (sources/crates/index.ts) against the loopback fixture server
 * serving recorded index files (fixtures/http/crates-index): each requirement resolved as cargo
 * would, and every fault (a failing service, a missing crate, garbage lines, an oversize file)
 * leaves the crates it touches unresolved with the reason — never a version.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/sources/http/client.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { CRATE_INDEX_MAX_BYTES, crateIndexPath, indexVersions, resolveCrateRequirements } from '../../src/sources/crates/index.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

let server: FixtureServer;
let http: HttpClient;
let index: string;
beforeEach(async () => {
  server = await startFixtureServer();
  http = createHttpClient({ timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 }, retry: { baseDelayMs: 1 }, sleep: async () => {} });
  index = server.url('crates-index');
});
/** The recorded index files, by path (after the faults a test declares). */
const serveRecorded = (): void => void server.fallback('GET', '/crates-index/');
afterEach(async () => {
  expectNoUnexpected(server);
  await http.close();
  await server.close();
});

describe('crateIndexPath (cargo\'s sparse index layout)', () => {
  it.each([
    ['a', '1/a'],
    ['cc', '2/cc'],
    ['url', '3/u/url'],
    ['syn', '3/s/syn'],
    ['serde', 'se/rd/serde'],
    ['Serde_JSON', 'se/rd/serde_json'],
    ['tokio-stream', 'to/ki/tokio-stream'],
  ])('%s → %s', (name, expected) => expect(crateIndexPath(name)).toBe(expected));
});

describe('resolveCrateRequirements', () => {
  it('resolves each requirement from the recorded index files, in the order asked; a yanked version is passed over', async () => {
    serveRecorded();
    const result = await resolveCrateRequirements(http, index, [
      { name: 'tokio-stream', requirement: '=0.1.13' },
      { name: 'tokio-stream', requirement: '0.1' },
      { name: 'serde', requirement: '1.0' },
      { name: 'url', requirement: '~2.4' },
      { name: 'thiserror', requirement: '1.0' },
    ]);
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.facts.dependencies.map((d) => [d.name, d.range, d.version])).toEqual([
      ['tokio-stream', '=0.1.13', null],
      ['tokio-stream', '0.1', '0.1.15'],
      ['serde', '1.0', '1.0.218'],
      ['url', '~2.4', '2.4.1'],
      ['thiserror', '1.0', '1.0.61'],
    ]);
    expect(result.facts.dependencies[0]?.reason).toBe('only yanked versions match =0.1.13');
    // One request per crate, at cargo's paths.
    expect(server.requests.map((r) => r.path).sort()).toEqual(['/crates-index/3/u/url', '/crates-index/se/rd/serde', '/crates-index/th/is/thiserror', '/crates-index/to/ki/tokio-stream']);
  });

  it('a crate the index does not hold (404) is unresolved, "not found", and the others still resolve', async () => {
    server.expect('GET', '/crates-index/no/t-/not-a-crate', { status: 404 });
    serveRecorded();
    const result = await resolveCrateRequirements(http, index, [
      { name: 'not-a-crate', requirement: '1' },
      { name: 'serde', requirement: '1' },
    ]);
    expect(result.status === 'ok' && result.facts.dependencies.map((d) => [d.version, d.reason])).toEqual([
      [null, 'not found in the crates.io index'],
      ['1.0.218', null],
    ]);
  });

  it('a failing index (500) for one of three crates: that one unknown with the reason, never a version', async () => {
    server.expect('GET', '/crates-index/se/rd/serde', { status: 500 });
    serveRecorded();
    const result = await resolveCrateRequirements(http, index, [
      { name: 'serde', requirement: '1' },
      { name: 'url', requirement: '2' },
      { name: 'tokio', requirement: '1' },
    ]);
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.facts.dependencies[0]).toMatchObject({ name: 'serde', version: null, reason: expect.stringMatching(/^crates\.io index: /) });
    expect(result.facts.dependencies.slice(1).map((d) => d.version)).toEqual(['2.5.0', '1.48.0']);
  });

  it('a failing index for most crates: the whole answer unavailable with the failure code', async () => {
    server.fallback('GET', '/crates-index/', { status: 503 });
    const result = await resolveCrateRequirements(http, index, [
      { name: 'serde', requirement: '1' },
      { name: 'url', requirement: '2' },
    ]);
    expect(result).toMatchObject({ status: 'unavailable', code: 'http-status', reason: expect.stringMatching(/^2 of 2 crates could not be looked up/) });
  });

  it('lines that are not JSON, not an object, or another crate\'s are skipped; the rest still count', async () => {
    const body = [
      'not json at all',
      '{"name":"serde","vers":"1.0.300","yanked":false',
      '[1,2,3]',
      '{"name":"other","vers":"1.9.0","yanked":false}',
      '{"name":"serde","yanked":false}',
      '{"name":"serde","vers":"1.0.1","yanked":false}',
      '\u0000\u0001',
      '{"name":"serde","vers":"1.0.2","yanked":true}',
      '',
    ].join('\n');
    server.expect('GET', '/crates-index/se/rd/serde', { body });
    const result = await resolveCrateRequirements(http, index, [{ name: 'serde', requirement: '1' }]);
    expect(result.status === 'ok' && result.facts.dependencies[0]).toMatchObject({ version: '1.0.1', reason: null });
  });

  it('an index file over the size cap: that crate unresolved (too large), never read whole', async () => {
    const line = '{"name":"serde","vers":"1.0.0","yanked":false}\n';
    server.expect('GET', '/crates-index/se/rd/serde', { body: line.repeat(Math.ceil((CRATE_INDEX_MAX_BYTES + 1) / line.length)) });
    serveRecorded();
    const result = await resolveCrateRequirements(http, index, [
      { name: 'serde', requirement: '1' },
      { name: 'url', requirement: '2' },
      { name: 'tokio', requirement: '1' },
    ]);
    expect(result.status === 'ok' && result.facts.dependencies.map((d) => d.version)).toEqual([null, '2.5.0', '1.48.0']);
    expect(result.status === 'ok' && result.facts.dependencies[0]?.reason).toMatch(/^crates\.io index: /);
  });

  it('a name crates.io could not hold is not asked for', async () => {
    const result = await resolveCrateRequirements(http, index, [{ name: '../../etc/passwd', requirement: '1' }]);
    expect(result.status === 'ok' && result.facts.dependencies[0]).toMatchObject({ version: null, reason: 'not a crates.io crate name' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('indexVersions', () => {
  it('reads vers and yanked of each line of its crate (names compared without case)', () => {
    expect(indexVersions('{"name":"Serde","vers":"1.0.0","yanked":true}\n{"name":"serde","vers":"1.0.1"}', 'serde')).toEqual([
      { vers: '1.0.0', yanked: true },
      { vers: '1.0.1', yanked: false },
    ]);
  });
});
