import { describe, expect, it } from 'vitest';
import { answerGraphql } from '../../bench/generate/github-graphql.js';
import { answerRest } from '../../bench/generate/github-rest.js';
import { parseDocument } from '../../bench/generate/graphql.js';
import { buildModel } from '../../bench/generate/model.js';

const NOW = new Date('2026-11-30T00:00:00Z');
const model = buildModel({ seed: 9, count: 80, now: NOW, bigIndexes: [] });
const target = model.checkTarget;
const repo = target.repository as { owner: string; name: string };

describe('GraphQL parsing', () => {
  it('reads operations, variables with defaults, aliases, arguments, fragments and directives', () => {
    const doc = parseDocument(`
      # a comment
      query Facts($owner: String!, $first: Int = 5, $skip: Boolean!) {
        a: repository(owner: $owner, name: "x", filter: {since: "2026-01-01", states: [OPEN, CLOSED]}) {
          ...Repo
          ... on Repository @skip(if: $skip) { name }
        }
      }
      fragment Repo on Repository { stargazerCount }
    `);
    expect(doc.operations).toHaveLength(1);
    expect(Object.keys(doc.operations[0]!.variables)).toEqual(['owner', 'first', 'skip']);
    const field = doc.operations[0]!.selections[0]!;
    expect(field).toMatchObject({ kind: 'field', alias: 'a', name: 'repository' });
    expect(doc.fragments.get('Repo')?.typeCondition).toBe('Repository');
    expect(() => parseDocument('query { repository(')).toThrow();
  });
});

describe('the fake GitHub GraphQL API', () => {
  it('answers batched, aliased repositories from the same story as REST, NOT_FOUND for unknown ones', () => {
    const answer = answerGraphql(model, {
      query: `query($o: String!, $n: String!, $since: GitTimestamp!) {
        r0: repository(owner: $o, name: $n) {
          nameWithOwner isArchived stargazerCount forkCount
          licenseInfo { spdxId }
          defaultBranchRef { name target { ... on Commit { history(since: $since) { totalCount } } } }
          manifest: object(expression: "HEAD:package.json") { ... on Blob { text } }
          root: object(expression: "HEAD:") { ... on Tree { entries { name type } } }
          releases(first: 3) { totalCount nodes { tagName } pageInfo { hasNextPage endCursor } }
          somethingNew { totalCount }
          __typename
        }
        r1: repository(owner: "nobody", name: "nothing") { name }
        rateLimit { remaining }
      }`,
      variables: { o: repo.owner, n: repo.name, since: '2025-11-30T00:00:00Z' },
    });
    const data = answer.data as Record<string, any>;
    const rest = answerRest(model, 'http://h/github', 'GET', `/repos/${repo.owner}/${repo.name}`, new URLSearchParams(), 'application/json');
    const restBody = rest.body as Record<string, any>;
    expect(data.r0.nameWithOwner).toBe(restBody.full_name);
    expect(data.r0.stargazerCount).toBe(restBody.stargazers_count);
    expect(data.r0.defaultBranchRef.name).toBe(restBody.default_branch);
    expect(typeof data.r0.defaultBranchRef.target.history.totalCount).toBe('number');
    expect(JSON.parse(data.r0.manifest.text).name).toBe(target.name);
    expect(data.r0.root.entries.map((e: { name: string }) => e.name)).toContain('package.json');
    expect(data.r0.releases.nodes.length).toBeLessThanOrEqual(3);
    expect(data.r0.somethingNew).toBeNull();
    expect(data.r0.__typename).toBe('Repository');
    expect(data.r1).toBeNull();
    expect(answer.errors).toEqual([expect.objectContaining({ type: 'NOT_FOUND', path: ['r1'] })]);
    expect(data.rateLimit.remaining).toBeGreaterThan(0);
  });

  it('answers a syntax error with a GraphQL error, not a throw', () => {
    const answer = answerGraphql(model, { query: '{ repository(owner: ' });
    expect(answer.data).toBeNull();
    expect(answer.errors?.[0]?.type).toBe('PARSE_ERROR');
  });
});

describe('the fake GitHub REST API', () => {
  const get = (path: string, query = '', accept = 'application/vnd.github+json') => answerRest(model, 'http://h/github', 'GET', path, new URLSearchParams(query), accept);

  it('paginates with Link headers and serves raw and base64 contents', () => {
    const first = get(`/repos/${repo.owner}/${repo.name}/commits`, 'per_page=1');
    expect(first.status).toBe(200);
    expect((first.body as unknown[]).length).toBe(1);
    expect(first.headers?.link).toMatch(/rel="last"/);
    const raw = get(`/repos/${repo.owner}/${repo.name}/contents/package.json`, '', 'application/vnd.github.raw+json');
    expect(JSON.parse(raw.raw!).name).toBe(target.name);
    const json = get(`/repos/${repo.owner}/${repo.name}/contents/package.json`);
    expect(JSON.parse(Buffer.from((json.body as { content: string }).content, 'base64').toString('utf8')).name).toBe(target.name);
  });

  it('answers 404 for unknown repositories (known route) and unknown routes (logged as unknown)', () => {
    expect(get('/repos/nobody/nothing')).toMatchObject({ status: 404, known: true });
    expect(get(`/repos/${repo.owner}/${repo.name}/not-an-endpoint`)).toMatchObject({ status: 404, known: false });
    expect(get('/search/code')).toMatchObject({ status: 404, known: false });
  });
});
