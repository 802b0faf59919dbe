/**
 * GitHub's counts (stars, forks, watchers, open issues, comments, GraphQL totals) are never below
 * zero: an answer holding a negative one is invalid data, so the signals it feeds are unavailable
 * — never saved as evidence that `nerq score` refuses as no collector's (docs/security.md).
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fetchGithubFacts, githubAuthFor } from '../../src/sources/github/source.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { contextFor, endpointsFor, repoBody, serveRepo, testClient, TOKEN, widgetNode } from './helpers.js';

let server: FixtureServer;

beforeEach(async () => {
  server = await startFixtureServer();
});

afterEach(async () => {
  await server.close();
});

const target = { host: 'github.com', owner: 'acme', name: 'widget' } as const;

describe('a negative count from GitHub is invalid data, not a fact', () => {
  test.for(['stargazers_count', 'forks_count', 'subscribers_count', 'open_issues_count'])('REST %s of -5: the repository answer is unavailable, the field named', async (field) => {
    const client = testClient();
    try {
      serveRepo(server, 'acme/widget', { skip: ['manifest'], override: { repo: { body: repoBody('acme/widget', { [field]: -5 }) } } });
      const result = await fetchGithubFacts(contextFor(server, client.http), target, { kind: 'target' });
      expect(result.status).toBe('unavailable');
      expect(result.status === 'unavailable' ? result.reason : '').toContain(field);
    } finally {
      await client.http.close();
    }
  });

  test('REST counts of zero are read', async () => {
    const client = testClient();
    try {
      serveRepo(server, 'acme/widget', { skip: ['manifest'], override: { repo: { body: repoBody('acme/widget', { stargazers_count: 0, forks_count: 0 }) } } });
      const result = await fetchGithubFacts(contextFor(server, client.http), target, { kind: 'target' });
      expect(result.status).toBe('ok');
    } finally {
      await client.http.close();
    }
  });

  test.for([
    ['stargazerCount', (n: Record<string, unknown>) => ({ ...n, stargazerCount: -5 })],
    ['forkCount', (n: Record<string, unknown>) => ({ ...n, forkCount: -1 })],
  ] as const)('GraphQL %s below zero: the repository answer is unavailable', async ([name, edit]) => {
    const client = testClient(githubAuthFor(endpointsFor(server), TOKEN));
    try {
      server.expect('POST', '/github/graphql', { body: { data: { r0: edit(widgetNode()) } } });
      const result = await fetchGithubFacts(contextFor(server, client.http, TOKEN), target, { kind: 'target' });
      expect(result.status).toBe('unavailable');
      expect(result.status === 'unavailable' ? result.reason : '').toContain(name);
    } finally {
      await client.http.close();
    }
  });
});
