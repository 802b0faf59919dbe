/**
 * With a token the community files and contributors come from the GraphQL query alone: the
 * same files present give the same community facts as REST's `/community/profile`, and the
 * contributors are the authors of the recent commits, with that basis recorded — the same
 * commits, counted the same way, as REST's listing of the branch's newest 100 commits.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { GithubCommunity, GithubFacts } from '../../src/evidence/github-facts.js';
import { communityFilesIn } from '../../src/sources/github/files.js';
import { graphqlContributors, GraphqlRepositorySchema, type GraphqlRepository } from '../../src/sources/github/graphql.js';
import { fetchGithubFacts, githubAuthFor } from '../../src/sources/github/source.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { contextFor, endpointsFor, requestLines, serveRepo, testClient, TOKEN, factsOf, widgetNode } from './helpers.js';

let server: FixtureServer;

beforeEach(async () => {
  server = await startFixtureServer();
});

afterEach(async () => {
  await server.close();
});



/** The community-profile files of a result (the health percentage and the SECURITY policy come from elsewhere). */
function files(facts: GithubFacts): Omit<GithubCommunity, 'healthPercentage' | 'securityPolicy'> {
  const community = facts.community;
  if (community === null) throw new Error(`community unknown: ${facts.unknown.community ?? ''}`);
  const { healthPercentage: _h, securityPolicy: _s, ...rest } = community;
  return rest;
}

async function viaRest(asked: string, setup: () => void): Promise<GithubFacts> {
  const client = testClient();
  try {
    setup();
    const [owner = '', name = ''] = asked.split('/');
    return factsOf(await fetchGithubFacts(contextFor(server, client.http), { host: 'github.com', owner, name }, { kind: 'target' }));
  } finally {
    await client.http.close();
  }
}

async function viaGraphql(asked: string, node: Record<string, unknown>): Promise<GithubFacts> {
  const client = testClient(githubAuthFor(endpointsFor(server), TOKEN));
  try {
    server.expect('POST', '/github/graphql', { body: { data: { r0: node } } });
    const [owner = '', name = ''] = asked.split('/');
    return factsOf(await fetchGithubFacts(contextFor(server, client.http, TOKEN), { host: 'github.com', owner, name }, { kind: 'target' }));
  } finally {
    await client.http.close();
  }
}

describe('the repository id: REST `id` and GraphQL `databaseId` read alike', () => {
  test('acme/widget (recorded REST id 4242; the GraphQL node is the recorded one with `databaseId` written in)', async () => {
    const rest = await viaRest('acme/widget', () => serveRepo(server, 'acme/widget', { skip: ['manifest'] }));
    const graphql = await viaGraphql('acme/widget', { ...widgetNode(), databaseId: 4242 });
    expect(rest.repository?.id).toBe('4242');
    expect(graphql.repository?.id).toBe('4242');
  });

  test('a GraphQL node without `databaseId` (the recorded one) leaves the id unknown (null), never made up', async () => {
    const graphql = await viaGraphql('acme/widget', widgetNode());
    expect(graphql.repository?.id).toBeNull();
  });
});

describe('community files: GraphQL says what the REST community profile says', () => {
  test('acme/widget: every file present, from the same repository\'s REST and GraphQL answers', async () => {
    const rest = await viaRest('acme/widget', () => serveRepo(server, 'acme/widget', { skip: ['manifest'] }));
    const graphql = await viaGraphql('acme/widget', widgetNode());
    expect(files(graphql)).toEqual(files(rest));
    expect(files(graphql)).toEqual({ readme: true, contributing: true, codeOfConduct: true, issueTemplate: true, pullRequestTemplate: true });
    // The security policy agrees too; only GraphQL lacks the health percentage.
    expect(graphql.community?.securityPolicy).toBe(rest.community?.securityPolicy);
    expect(rest.community?.healthPercentage).toBe(100);
    expect(graphql.community?.healthPercentage).toBeNull();
  });

  test('acme/bare: no community files in either answer', async () => {
    const rest = await viaRest('acme/bare', () =>
      serveRepo(server, 'acme/bare', {
        override: {
          community: { fixture: 'github/repos/acme/bare/community/profile' },
          contents: { body: [{ name: 'index.js', path: 'index.js', sha: 'a'.repeat(40), size: 120, type: 'file' }, { name: 'package.json', path: 'package.json', sha: 'b'.repeat(40), size: 80, type: 'file' }] },
        },
        skip: ['tree', 'manifest'],
      }),
    );
    const bare = {
      ...widgetNode(),
      nameWithOwner: 'acme/bare',
      codeOfConduct: null,
      contributingGuidelines: null,
      issueTemplates: [],
      pullRequestTemplates: [],
      isSecurityPolicyEnabled: false,
      rootTree: { entries: [{ name: 'index.js', type: 'blob' }, { name: 'package.json', type: 'blob' }] },
      githubTree: null,
      docsTree: null,
    };
    const graphql = await viaGraphql('acme/bare', bare);
    expect(files(graphql)).toEqual(files(rest));
    expect(files(graphql)).toEqual({ readme: false, contributing: false, codeOfConduct: false, issueTemplate: false, pullRequestTemplate: false });
    expect(graphql.community?.securityPolicy).toBe(false);
  });

  test('a file GraphQL does not recognise still counts when the listings show it', async () => {
    const node = {
      ...widgetNode(),
      codeOfConduct: null,
      contributingGuidelines: null,
      issueTemplates: [],
      pullRequestTemplates: [],
      rootTree: { entries: [{ name: 'readme.rst', type: 'blob' }, { name: 'docs', type: 'tree' }] },
      githubTree: null,
      docsTree: { entries: [{ name: 'CONTRIBUTING.md', type: 'blob' }, { name: 'code-of-conduct.md', type: 'blob' }, { name: 'ISSUE_TEMPLATE', type: 'tree' }, { name: 'pull_request_template.md', type: 'blob' }] },
    };
    const graphql = await viaGraphql('acme/widget', node);
    expect(files(graphql)).toEqual({ readme: true, contributing: true, codeOfConduct: true, issueTemplate: true, pullRequestTemplate: true });
    expect(requestLines(server)).toEqual(['POST /github/graphql']);
    expectNoUnexpected(server);
  });

  test('a listing GitHub could not give leaves the community unknown, with GitHub\'s message', async () => {
    const client = testClient(githubAuthFor(endpointsFor(server), TOKEN));
    try {
      server.expect('POST', '/github/graphql', {
        body: { data: { r0: { ...widgetNode(), githubTree: null } }, errors: [{ type: 'INTERNAL', path: ['r0', 'githubTree'], message: 'Something went wrong' }] },
      });
      const facts = factsOf(await fetchGithubFacts(contextFor(server, client.http, TOKEN), { host: 'github.com', owner: 'acme', name: 'widget' }, { kind: 'target' }));
      expect(facts.community).toBeNull();
      expect(facts.unknown.community).toBe('GitHub GraphQL: Something went wrong');
    } finally {
      await client.http.close();
    }
  });
});

describe('communityFilesIn', () => {
  const file = (p: string) => ({ path: p, type: 'file' as const });
  const dir = (p: string) => ({ path: p, type: 'dir' as const });

  test('an ISSUE_TEMPLATE directory with only its chooser config holds no template', () => {
    const found = communityFilesIn({ root: [dir('.github')], github: [dir('ISSUE_TEMPLATE'), file('ISSUE_TEMPLATE/config.yml')], docs: [] });
    expect(found?.issueTemplate).toBe(false);
    const withForm = communityFilesIn({ root: [dir('.github')], github: [dir('ISSUE_TEMPLATE'), file('ISSUE_TEMPLATE/config.yml'), file('ISSUE_TEMPLATE/bug.yml')], docs: [] });
    expect(withForm?.issueTemplate).toBe(true);
  });

  test('files in deeper directories do not count; unknown listings make it unknown', () => {
    expect(communityFilesIn({ root: [dir('src')], github: [], docs: [] })).toEqual({
      readme: false,
      contributing: false,
      codeOfConduct: false,
      issueTemplate: false,
      pullRequestTemplate: false,
    });
    expect(communityFilesIn({ root: null, github: [], docs: [] })).toBeNull();
    expect(communityFilesIn({ root: [dir('.github')], github: null, docs: [] })).toBeNull();
    expect(communityFilesIn({ root: [dir('docs')], github: [], docs: null })).toBeNull();
  });
});

describe('contributors from recent commits', () => {
  test('acme/widget: the same contributors over REST and GraphQL, from the branch\'s newest commits', async () => {
    const rest = await viaRest('acme/widget', () => serveRepo(server, 'acme/widget', { skip: ['manifest'] }));
    const graphql = await viaGraphql('acme/widget', widgetNode());
    // The 11 newest commits: alice 5, bob 3, dave 1; carol has no GitHub account, dependabot is a bot.
    const expected = { count: 3, busFactor: 1, topShare: 0.556, basis: 'recent-commits', commitsExamined: 11, unlinked: 1 };
    expect(rest.contributors).toEqual(expected);
    expect(graphql.contributors).toEqual(expected);
    // REST never asks for the all-time contributors list.
    expect(requestLines(server).filter((line) => line.includes('/contributors'))).toEqual([]);
    expectNoUnexpected(server);
  });

  function node(authors: Array<{ login: string | null; name?: string; email?: string }>): GraphqlRepository {
    const base = widgetNode() as { defaultBranchRef: { name: string; target: Record<string, unknown> } };
    const recent = { nodes: authors.map((a) => ({ author: { name: a.name ?? a.login ?? 'someone', email: a.email ?? 'x@example.com', user: a.login === null ? null : { login: a.login } } })) };
    return GraphqlRepositorySchema.parse({ ...base, defaultBranchRef: { ...base.defaultBranchRef, target: { ...base.defaultBranchRef.target, recent } } });
  }

  test('people with a GitHub account, bots left out, counted over the commits examined', () => {
    const got = graphqlContributors(
      node([
        { login: 'alice' },
        { login: 'Alice' },
        { login: 'bob' },
        { login: 'renovate[bot]' },
        { login: null, name: 'dependabot[bot]', email: '49699333+dependabot[bot]@users.noreply.github.com' },
        { login: null, name: 'Carol' },
      ]),
    );
    expect(got).toEqual({ ok: true, value: { count: 2, busFactor: 1, topShare: 0.667, basis: 'recent-commits', commitsExamined: 6, unlinked: 1 } });
  });

  test('no recent history in the answer: unknown, never zero', () => {
    const parsed = node([]);
    const target = parsed.defaultBranchRef?.target;
    if (target === null || target === undefined) throw new Error('no target');
    delete target.recent;
    expect(graphqlContributors(parsed)).toEqual({ ok: false, reason: 'GitHub gave no recent commits for the default branch' });
  });
});
