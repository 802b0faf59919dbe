/**
 * Dated version tags (sources/github/tag-dates.ts, version-tags.ts) against the fixture server:
 * the one GraphQL query with a token, built from the recorded tags of microsoft/playwright-mcp
 * (72 lightweight tags) and modelcontextprotocol/typescript-sdk (161, annotated and per-package
 * ones among them), and every way GitHub can fail to date them — each leaves the dates unknown
 * with the reason, never a crash and never a made-up date.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GithubCall } from '../../src/sources/github/request.js';
import { graphqlTagDates, NO_TOKEN_TAG_DATES, TAG_DATES_FIRST, tagDatesFrom } from '../../src/sources/github/tag-dates.js';
import { isVersionTag } from '../../src/sources/github/version-tags.js';
import { expectNoUnexpected, startFixtureServer, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';
import { recordOf, tagDatesAnswer } from '../repository/recorded-repos.js';
import { limiterFor, rateHeaders, testClient, TOKEN } from './helpers.js';

const GRAPHQL = '/github/graphql';
/** The day after playwright-mcp's recorded commit. */
const AT = new Date('2026-08-08T12:00:00Z');

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  expectNoUnexpected(server);
  await server.close();
});

function call(tokenInUse = true, now = AT): GithubCall {
  const { http } = testClient((url) => (tokenInUse && url.startsWith(server.url('github')) ? `Bearer ${TOKEN}` : undefined));
  return { http, limiter: limiterFor(http), api: server.url('github'), graphql: `${server.url('github')}${GRAPHQL.slice('/github'.length)}`, tokenInUse, now, counter: { requests: 0 } };
}

async function dates(fullName: string, response: FixtureResponse, tokenInUse = true) {
  server.expect('POST', GRAPHQL, response);
  const c = call(tokenInUse);
  const [owner = '', name = ''] = fullName.split('/');
  const got = await graphqlTagDates(c, owner, name);
  return { got, requests: c.counter.requests, c };
}

/** A one-tag answer whose node is `node`. */
const oneTag = (node: unknown): FixtureResponse => ({ body: { data: { repository: { refs: { totalCount: 1, nodes: [node] } } } } });

describe('isVersionTag', () => {
  const cases: Array<[string, boolean]> = [
    ['v1.2.3', true],
    ['1.2.3', true],
    ['v0.0.79', true],
    ['v2.0.0-beta.1', true],
    ['1.2', true],
    ['2024.1', true],
    ['1.0rc1', true],
    ['release-1.2', true],
    ['release/1.2', true],
    ['nightly', false],
    ['latest', false],
    ['stable', false],
    ['@modelcontextprotocol/client@2.0.0', false],
    ['pkg@1.0.0', false],
    ['foo/1.2', false],
    ['deadbeef', false],
    ['', false],
  ];
  for (const [name, expected] of cases) it(`${JSON.stringify(name)} → ${expected}`, () => expect(isVersionTag(name)).toBe(expected));
});

describe('graphqlTagDates', () => {
  it('dates the recorded lightweight tags by their commits: one query, with the token, newest first', async () => {
    const { got, requests } = await dates('microsoft/playwright-mcp', { body: tagDatesAnswer('microsoft/playwright-mcp') });
    expect(requests).toBe(1);
    expect(got.reason).toBeNull();
    expect(got.complete).toBe(true);
    expect(got.tags).toHaveLength(72);
    // v0.0.79 on 2026-08-05T17:13:38-07:00 (recorded), as UTC.
    expect(got.tags?.[0]).toEqual({ name: 'v0.0.79', at: '2026-08-06T00:13:38.000Z', source: 'commit' });
    const request = server.requests.find((r) => r.path === GRAPHQL);
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const body = JSON.parse(request?.body ?? '{}') as { query: string; variables: Record<string, string> };
    expect(body.variables).toEqual({ owner: 'microsoft', name: 'playwright-mcp' });
    expect(body.query).toContain(`refs(refPrefix: "refs/tags/", first: ${TAG_DATES_FIRST}, orderBy: { field: TAG_COMMIT_DATE, direction: DESC })`);
  });

  it('annotated tags by their tagger; per-package tags left out; 161 tags, the newest 100 listed: not complete', async () => {
    const SDK = 'modelcontextprotocol/typescript-sdk';
    const { got } = await dates(SDK, { body: tagDatesAnswer(SDK) });
    expect(got.complete).toBe(false);
    expect(got.tags?.every((t) => isVersionTag(t.name) && !t.name.includes('@'))).toBe(true);
    const annotated = recordOf(SDK).tags.find((t) => t.annotated && isVersionTag(t.name) && got.tags?.some((d) => d.name === t.name));
    expect(annotated).toBeDefined();
    expect(got.tags?.find((t) => t.name === annotated?.name)).toEqual({ name: annotated?.name, at: new Date(annotated?.date ?? '').toISOString(), source: 'tagger' });
  });

  it('an annotated tag without a tagger date is dated by the commit it tags', () => {
    const got = tagDatesFrom({ refs: { totalCount: 1, nodes: [{ name: 'v1.0.0', target: { __typename: 'Tag', tagger: null, target: { committedDate: '2026-08-01T00:00:00Z' } } }] } }, AT);
    expect(got.tags).toEqual([{ name: 'v1.0.0', at: '2026-08-01T00:00:00.000Z', source: 'commit' }]);
  });

  it('tags that name no version are ignored, whatever they point at', () => {
    const nodes = [
      { name: 'nightly', target: null },
      { name: 'latest', target: { __typename: 'Commit', committedDate: 'not a date' } },
      { name: 'v1.0.0', target: { __typename: 'Commit', committedDate: '2026-07-01T00:00:00Z' } },
    ];
    expect(tagDatesFrom({ refs: { totalCount: 3, nodes } }, AT)).toEqual({ tags: [{ name: 'v1.0.0', at: '2026-07-01T00:00:00.000Z', source: 'commit' }], complete: true, reason: null });
  });

  it('without a token: no request, the dates unknown and why', async () => {
    const c = call(false);
    expect(await graphqlTagDates(c, 'acme', 'widget')).toEqual({ tags: null, complete: false, reason: NO_TOKEN_TAG_DATES });
    expect(c.counter.requests).toBe(0);
  });

  const faults: Array<[string, FixtureResponse, RegExp]> = [
    ['an errors array with no data', { body: { data: null, errors: [{ type: 'NOT_FOUND', path: ['repository'], message: "Could not resolve to a Repository with the name 'acme/widget'." }] } }, /Could not resolve/],
    ['an error on refs beside partial data', { body: { data: { repository: { refs: null } }, errors: [{ type: 'INTERNAL', path: ['repository', 'refs'], message: 'Something went wrong while resolving refs' }] } }, /while resolving refs/],
    ['a rejected token (401)', { status: 401, body: { message: 'Bad credentials' } }, /rejected the token \(HTTP 401\)/],
    ['a refusal that is not a rate limit (403)', { status: 403, body: { message: 'Resource not accessible by integration' } }, /HTTP 403, not a rate limit/],
    ['a spent rate limit (403, remaining 0)', { status: 403, headers: { ...rateHeaders(0, 3900, 5000), 'x-ratelimit-resource': 'graphql' }, body: { message: 'API rate limit exceeded for user ID 1001.' } }, /rate limit/],
    ['a RATE_LIMITED error', { body: { data: null, errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1001.' }] }, headers: rateHeaders(0, 3900, 5000) }, /rate limit/],
    ['a server error (502)', { status: 502, body: 'bad gateway' }, /502/],
    ['a body that is not JSON', { malformed: true }, /not valid JSON/],
    ['refs of the wrong shape', { body: { data: { repository: { refs: { totalCount: 'many', nodes: {} } } } } }, /unexpected shape/],
    ['no repository', { body: { data: { repository: null } } }, /no repository/],
    ['a null node', oneTag(null), /could not give/],
    ['a version tag with a null target', oneTag({ name: 'v1.0.0', target: null }), /v1\.0\.0 no target/],
    ['a version tag whose commit has no date', oneTag({ name: 'v1.0.0', target: { __typename: 'Commit', committedDate: null } }), /v1\.0\.0 no date/],
    ['a date that does not parse', oneTag({ name: 'v1.0.0', target: { __typename: 'Commit', committedDate: 'yesterday-ish' } }), /does not parse/],
    ['a date in the future', oneTag({ name: 'v1.0.0', target: { __typename: 'Tag', tagger: { date: '2031-01-01T00:00:00Z' }, target: null } }), /in the future \(2031-01-01\)/],
    ['a version tag that points at a tree', oneTag({ name: 'v1.0.0', target: { __typename: 'Tree' } }), /points at a Tree/],
  ];
  for (const [name, response, reason] of faults) {
    it(`${name}: unknown with the reason, never a date`, async () => {
      const { got } = await dates('microsoft/playwright-mcp', response);
      expect(got.tags).toBeNull();
      expect(got.complete).toBe(false);
      expect(got.reason).toMatch(/^tag dates: /);
      expect(got.reason).toMatch(reason);
    });
  }
});
