/**
 * Hostile world: GitHub (or whatever answers as GitHub) names the repository it was asked for
 * with a canonical name that is no GitHub name — `acme/..`, `%2e%2e`, a space, a control or a
 * bidirectional character, a third segment. That name becomes the base of every further request
 * (`repos/{full_name}/…`: `..` climbs out of the repository), the facts' `fullName` in store keys
 * and reports, and a peer candidate of `nerq compare`. It is held to GitHub's own owner/repository
 * rules (src/sources/github/names.ts), as every name nerq asks for is: the source is
 * "unavailable" (the shape reason every malformed answer gives) and nothing more is asked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchGithubFacts } from '../../src/sources/github/source.js';
import { validGithubFullName } from '../../src/sources/github/names.js';
import { repositoryListingOf } from '../../src/sources/github/search.js';
import type { ServerResponse } from 'node:http';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { contextFor, repoBody, testClient, TOKEN, useTokenServer, widgetNode, type TestClient } from '../github/helpers.js';
import { noteCases } from './support/metrics.js';

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

const WIDGET = { host: 'github.com', owner: 'acme', name: 'widget' };

const ODD_NAMES: [label: string, fullName: string][] = [
  ['a dot-dot repository', 'acme/..'],
  ['a dot repository', 'acme/.'],
  ['a dot-dot owner', '../widget'],
  ['percent-encoded dots', 'acme/%2e%2e'],
  ['a space', 'acme/wid get'],
  ['a control character', 'acme/widget\u001b[2J'],
  ['a bidirectional override', 'acme/wid\u202eget'],
  ['a third segment', 'acme/widget/../../orgs'],
  ['an empty owner', '/widget'],
  ['a backslash', 'acme\\..\\widget/x'],
];

describe('REST: an odd canonical name makes the source unavailable, and nothing more is asked', () => {
  let server: FixtureServer;
  let client: TestClient;
  beforeEach(async () => {
    server = await startFixtureServer();
    client = testClient();
  });
  afterEach(async () => {
    await client.http.close();
    await server.close();
  });

  it.for(ODD_NAMES)('%s', async ([, fullName], { task }) => {
    noteCases(task);
    server.expect('GET', '/github/repos/acme/widget', { body: repoBody('acme/widget', { full_name: fullName }) });
    const result = await fetchGithubFacts(contextFor(server, client.http), WIDGET, { kind: 'target' });
    expect(result).toEqual({ status: 'unavailable', reason: "GitHub repository: GitHub's answer has an unexpected shape at full_name", code: 'bad-answer' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('GraphQL: an odd nameWithOwner makes the source unavailable', () => {
  const gh = useTokenServer();
  it.for(ODD_NAMES.slice(0, 4))('%s', async ([, fullName], { task }) => {
    noteCases(task);
    gh.server.route('POST', '/github/graphql', (_req, res) => json(res, 200, { data: { r0: { ...widgetNode(), nameWithOwner: fullName } } }));
    const result = await fetchGithubFacts(contextFor(gh.server, gh.client.http, TOKEN), WIDGET, { kind: 'target' });
    expect(result).toEqual({ status: 'unavailable', reason: 'GitHub GraphQL: the answer has an unexpected shape at nameWithOwner', code: 'bad-answer' });
  });
});

describe('search: a hit with an odd full name is no peer candidate', () => {
  it('is dropped', ({ task }) => {
    const hit = (fullName: string) => ({ full_name: fullName, stargazers_count: 5, topics: ['mcp'], archived: false, fork: false });
    expect(repositoryListingOf(hit('acme/widget'))).not.toBeNull();
    for (const [, fullName] of ODD_NAMES) expect(repositoryListingOf(hit(fullName))).toBeNull();
    noteCases(task, ODD_NAMES.length);
  });

  it('names GitHub gives are kept: legacy hyphens, an enterprise owner, dotted repositories', ({ task }) => {
    for (const name of ['acme-/widget', 'a--b/widget', 'jdoe_acme/widget', 'acme/.github', 'acme/acme.github.io', 'acme/x..y']) expect(validGithubFullName(name)).toBe(true);
    noteCases(task);
  });
});
