/**
 * The commit a pinned target's ref names (sources/github/ref-commit.ts), against the fixture
 * server: one request with the sha media type; 422 and 404 are a missing ref (never the default
 * branch in its place); any other answer — a failure, a body that is not one sha — is an error
 * with its reason.
 */
import { describe, expect, it } from 'vitest';
import { resolveRefCommit } from '../../src/sources/github/ref-commit.js';
import { repoBase } from '../../src/sources/github/rest.js';
import type { GithubCall } from '../../src/sources/github/request.js';
import { useFixtureServer, type FixtureResponse } from '../support/fixture-server.js';
import { limiterFor, NOW, testClient } from './helpers.js';

const fixtures = useFixtureServer();

const SHA = 'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3';

async function resolve(ref: string, answer: FixtureResponse, asked = ref) {
  fixtures.server.expect('GET', `/github/repos/acme/widget/commits/${encodeURIComponent(asked)}`, answer);
  const { http } = testClient();
  const call: GithubCall = { http, limiter: limiterFor(http), api: fixtures.server.url('github'), graphql: `${fixtures.server.url('github')}/graphql`, tokenInUse: false, now: NOW, counter: { requests: 0 } };
  const got = await resolveRefCommit(call, repoBase(call.api, 'acme/widget'), ref);
  return { got, requests: call.counter.requests };
}

describe('resolveRefCommit', () => {
  it('reads the sha GitHub answers with the sha media type: one request, the ref one path segment', async () => {
    const { got, requests } = await resolve('release/3.x', { fixture: 'github/repos/acme/widget/commits/release-3.x.sha.txt' });
    expect({ got, requests }).toEqual({ got: { kind: 'commit', sha: SHA }, requests: 1 });
    expect(fixtures.server.requests.map((r) => [r.path, r.headers.accept])).toEqual([['/github/repos/acme/widget/commits/release%2f3.x', 'application/vnd.github.sha']]);
  });

  it.each([422, 404])('HTTP %i is a missing ref', async (status) => {
    const { got } = await resolve('no-such-ref', { status, fixture: 'github/repos/acme/widget/commits/no-such-ref.422.json' });
    expect(got.kind).toBe('missing');
  });

  it.each<[string, FixtureResponse]>([
    ['a server error', { status: 500, body: { message: 'Server Error' } }],
    ['a body that is not a sha', { body: 'c3c3-not-a-sha' }],
    ['a JSON commit where a sha was asked', { body: { sha: SHA } }],
    ['a short sha', { body: SHA.slice(0, 7) }],
  ])('%s is an error with its reason, never a commit', async (_what, answer) => {
    const { got } = await resolve('v1.0.0', answer);
    expect(got.kind).toBe('error');
  });
});
