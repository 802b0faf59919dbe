/**
 * A repository's files read with a token (sources/github/repo-files.ts): one GraphQL query for the
 * files and the first workflows, answered from the same recorded files the REST path serves
 * (fixtures/http/github/repos, test/repository/recorded-repos.ts), gives the same facts and texts as
 * the REST path; a blob over its cap is unread as over REST, and REST reads only what the query
 * could not give whole, or every file when the query fails.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GithubFiles } from '../../src/evidence/github-facts.js';
import { MAX_REPO_FILE_BYTES, restRepoFiles, type RepoFilesRead } from '../../src/sources/github/repo-files.js';
import { GithubStop, type GithubCall } from '../../src/sources/github/request.js';
import { recordOf, serveRecordedRepo, tagDatesAnswer } from '../repository/recorded-repos.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { GRAPHQL_BLOB_TEXT_BYTES, graphqlFilesAnswer, limiterFor, testClient, TOKEN } from './helpers.js';

const RECORDED = [
  'GongRzhe/Office-Word-MCP-Server',
  'blazickjp/arxiv-mcp-server',
  'formulahendry/mcp-server-code-runner',
  'github/github-mcp-server',
  'microsoft/playwright-mcp',
  'modelcontextprotocol/typescript-sdk',
  'rust-mcp-stack/rust-mcp-filesystem',
  'upstash/context7',
  'wong2/awesome-mcp-servers',
];
const PLAYWRIGHT = 'microsoft/playwright-mcp';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  expectNoUnexpected(server);
  await server.close();
});

function call(tokenInUse: boolean, fullName: string): GithubCall {
  const { http } = testClient((url) => (tokenInUse && url.startsWith(server.url('github')) ? `Bearer ${TOKEN}` : undefined));
  const now = new Date(new Date(recordOf(fullName).recordedCommit.committerDate).getTime() + 86_400_000);
  return { http, limiter: limiterFor(http), api: server.url('github'), graphql: `${server.url('github')}/graphql`, tokenInUse, now, counter: { requests: 0 } };
}

/** The GraphQL endpoint: `NerqFiles` from the recorded files (with `blobs` in place of some), the tag dates from the record; `files` replaces the files' answer. */
function serveGraphql(fullName: string, options: { blobs?: Record<string, unknown>; files?: { status?: number; body: unknown } } = {}): void {
  server.route('POST', '/github/graphql', (_req, res, { body }) => {
    const text = body.toString('utf8');
    const files = graphqlFilesAnswer(server, fullName, text, options.blobs);
    const [status, answer] = files === null ? [200, tagDatesAnswer(fullName)] : [options.files?.status ?? 200, options.files?.body ?? files];
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
}

async function read(fullName: string, token: boolean): Promise<{ files: GithubFiles; texts: Map<string, string>; requests: number }> {
  const c = call(token, fullName);
  const got: RepoFilesRead = await restRepoFiles(c, { owner: fullName.split('/')[0] ?? '', name: fullName.split('/')[1] ?? '' }, `${server.url('github')}/repos/${fullName}`, recordOf(fullName).defaultBranch);
  if (!got.ok) throw new Error(got.reason);
  return { files: got.value, texts: new Map(got.texts), requests: c.counter.requests };
}

/** The facts without what tells the two paths apart by design: the request count and the tags' dates (asked only with a token). */
function comparable(files: GithubFiles): Omit<GithubFiles, 'requests' | 'tagDates'> {
  const { requests: _requests, tagDates: _tagDates, ...rest } = files;
  return rest;
}

const restCalls = () => server.requests.filter((r) => r.path.includes('/contents/')).map((r) => r.path.slice(r.path.indexOf('/contents/') + '/contents/'.length));
const graphqlCalls = () => server.requests.filter((r) => r.path === '/github/graphql' && r.body.includes('NerqFiles'));

describe('the recorded repositories read with a token: the same facts and texts as over REST', () => {
  it.each(RECORDED)('%s', async (fullName) => {
    serveRecordedRepo(server, fullName, { license: null });
    serveGraphql(fullName);
    const rest = await read(fullName, false);
    const before = server.requests.length;
    const graphql = await read(fullName, true);
    // More workflows listed than REST reads (github/github-mcp-server: 13 of 8): a token reads them all, by design.
    const beyond = rest.files.workflowSafety?.unread.filter((u) => u.reason.startsWith('beyond the')) ?? [];
    if (beyond.length === 0) expect(comparable(graphql.files)).toEqual(comparable(rest.files));
    else {
      const { workflowSafety: restSafety, ...restFacts } = comparable(rest.files);
      const { workflowSafety, ...graphqlFacts } = comparable(graphql.files);
      expect(graphqlFacts).toEqual(restFacts);
      expect(workflowSafety?.read).toEqual(expect.arrayContaining([...(restSafety?.read ?? []), ...beyond.map((u) => u.path)]));
      expect(workflowSafety?.unread).toEqual([]);
    }
    expect(graphql.texts).toEqual(rest.texts);
    expect(graphql.files.requests).toBe(graphql.requests);
    expect(graphql.requests).toBeLessThan(rest.requests);
    // The files and the first workflows in one query; REST after it only for a blob GitHub cuts (over 512,000 bytes).
    const after = server.requests.slice(before);
    expect(after.filter((r) => r.path === '/github/graphql' && r.body.includes('NerqFiles')).length).toBeGreaterThanOrEqual(1);
    const cut = [...rest.texts].filter(([, text]) => Buffer.byteLength(text, 'utf8') > GRAPHQL_BLOB_TEXT_BYTES).map(([p]) => p);
    expect(after.filter((r) => r.path.includes('/contents/')).map((r) => decodeURIComponent(r.path.slice(r.path.indexOf('/contents/') + '/contents/'.length)))).toEqual(cut);
  });
});

describe('a README over the 64 KiB kept (wong2/awesome-mcp-servers, 99 KB)', () => {
  it('keeps its first 64 KiB and the headings past them, the same with a token, no request more', async () => {
    serveRecordedRepo(server, 'wong2/awesome-mcp-servers', { license: null });
    serveGraphql('wong2/awesome-mcp-servers');
    const rest = await read('wong2/awesome-mcp-servers', false);
    const graphql = await read('wong2/awesome-mcp-servers', true);
    for (const { files } of [rest, graphql]) {
      expect(files.readme).toMatchObject({ path: 'README.md', truncated: true, tailHeadings: ['Clients', 'Frameworks'], tailCodeBlocks: 0 });
      expect(Buffer.byteLength(files.readme?.text ?? '', 'utf8')).toBeLessThanOrEqual(64 * 1024);
    }
    expect(restCalls().filter((p) => p === 'README.md')).toHaveLength(1);
  });
});

describe('the files query failing or giving less: REST reads what it could not', () => {
  async function restBaseline(): Promise<Awaited<ReturnType<typeof read>>> {
    const baseline = await read(PLAYWRIGHT, false);
    server.requests.length = 0;
    return baseline;
  }

  it.each<[string, { status?: number; body: unknown }]>([
    ['a 502', { status: 502, body: { message: 'Bad gateway' } }],
    ['an error answer with no data', { body: { errors: [{ type: 'INTERNAL', message: 'Something went wrong' }] } }],
    ['an answer of the wrong shape', { body: { data: { repository: 3 } } }],
  ])('%s: every file read over REST, the facts unchanged; the workflows unread with the reason', async (_name, files) => {
    serveRecordedRepo(server, PLAYWRIGHT, { license: null });
    serveGraphql(PLAYWRIGHT, { files });
    const rest = await restBaseline();
    const graphql = await read(PLAYWRIGHT, true);
    const { workflowSafety: _w1, ...restFacts } = comparable(rest.files);
    const { workflowSafety, ...graphqlFacts } = comparable(graphql.files);
    expect(graphqlFacts).toEqual(restFacts);
    expect(graphql.texts).toEqual(rest.texts);
    expect(restCalls().sort()).toEqual(['LICENSE', 'README.md', 'SECURITY.md', 'package-lock.json', 'package.json']);
    expect(workflowSafety?.read).toEqual([]);
    expect(workflowSafety?.unread.map((u) => u.path)).toEqual(['.github/workflows/ci.yml', '.github/workflows/publish.yml']);
  });

  it('an error on one field: that file alone over REST', async () => {
    serveRecordedRepo(server, PLAYWRIGHT, { license: null });
    server.route('POST', '/github/graphql', (_req, res, { body }) => {
      const answer = graphqlFilesAnswer(server, PLAYWRIGHT, body.toString('utf8')) ?? tagDatesAnswer(PLAYWRIGHT);
      const { variables } = JSON.parse(body.toString('utf8')) as { variables: Record<string, string> };
      const key = Object.keys(variables).find((k) => variables[k] === 'main:package.json') ?? '';
      const data = answer.data as { repository: Record<string, unknown> };
      if (key !== '') data.repository[`x${key.slice(1)}`] = null;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(key === '' ? answer : { ...answer, errors: [{ type: 'INTERNAL', message: 'timeout reading the blob', path: ['repository', `x${key.slice(1)}`] }] }));
    });
    const rest = await restBaseline();
    const graphql = await read(PLAYWRIGHT, true);
    expect(comparable(graphql.files)).toEqual(comparable(rest.files));
    expect(restCalls()).toEqual(['package.json']);
  });

  it('a truncated or binary blob: read over REST (the same text); one over its cap by byteSize or by its text: unread as over REST, never asked again', async () => {
    serveRecordedRepo(server, PLAYWRIGHT, { license: null });
    serveGraphql(PLAYWRIGHT, {
      blobs: {
        'package-lock.json': { byteSize: 600_000, text: 'cut', isTruncated: true, isBinary: false },
        LICENSE: { byteSize: 11_000, text: null, isTruncated: false, isBinary: true },
        'README.md': { byteSize: MAX_REPO_FILE_BYTES + 1, text: 'big', isTruncated: false, isBinary: false },
        'SECURITY.md': { byteSize: 10, text: 'x'.repeat(MAX_REPO_FILE_BYTES + 2), isTruncated: false, isBinary: false },
      },
    });
    const rest = await restBaseline();
    const graphql = await read(PLAYWRIGHT, true);
    expect(restCalls().sort()).toEqual(['LICENSE', 'package-lock.json']);
    expect(graphql.texts.get('package-lock.json')).toBe(rest.texts.get('package-lock.json'));
    expect(graphql.files.licenseFiles).toEqual(rest.files.licenseFiles);
    expect(graphql.files.readme).toBeNull();
    expect(graphql.files.unread).toContainEqual({ path: 'README.md', reason: `over the ${MAX_REPO_FILE_BYTES / 1024} KiB cap (${MAX_REPO_FILE_BYTES + 1} bytes)`, code: 'too-large' });
    // A text longer than its byteSize says: held to the cap all the same.
    expect(graphql.files.unread).toContainEqual({ path: 'SECURITY.md', reason: `over the ${MAX_REPO_FILE_BYTES / 1024} KiB cap (${MAX_REPO_FILE_BYTES + 2} bytes)`, code: 'too-large' });
    expect(graphql.files.securityPolicyText).toBeNull();
  });

  it('a file GitHub has not: missing, as a REST 404 is', async () => {
    serveRecordedRepo(server, PLAYWRIGHT, { license: null });
    serveGraphql(PLAYWRIGHT, { blobs: { 'SECURITY.md': null } });
    const graphql = await read(PLAYWRIGHT, true);
    expect(graphql.files.unread).toContainEqual({ path: 'SECURITY.md', reason: 'GitHub answered 404 for the file', code: 'not-found' });
    expect(graphql.files.securityPolicyText).toBeNull();
    expect(restCalls()).toEqual([]);
  });

  it('a rate limit on the query: GitHub is not asked again, over REST either (the read stops, as a REST rate limit stops it)', async () => {
    serveRecordedRepo(server, PLAYWRIGHT, { license: null });
    serveGraphql(PLAYWRIGHT, { files: { body: { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded' }] } } });
    await expect(read(PLAYWRIGHT, true)).rejects.toBeInstanceOf(GithubStop);
    expect(restCalls()).toEqual([]);
    expect(graphqlCalls()).toHaveLength(1);
  });
});
