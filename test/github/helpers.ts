/**
 * Shared set-up for the GitHub source tests: a fixed clock, endpoints on the fixture server,
 * an HTTP client that records (instead of doing) its sleeps, and the routes of a repository
 * served from the recorded-shape fixtures under fixtures/http/github/repos/acme/widget.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Endpoints } from '../../src/sources/endpoints.js';
import type { GithubFacts } from '../../src/evidence/schema.js';
import { afterEach, beforeEach } from 'vitest';
import { GithubRateLimiter, githubAuthFor, type GithubClaim, type GithubResult, type GithubSourceContext } from '../../src/sources/github/source.js';
import type { GithubCall } from '../../src/sources/github/request.js';
import { createHttpClient } from '../../src/sources/http/client.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { FIXTURES_ROOT, startFixtureServer, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';

export const NOW = new Date('2026-06-01T12:00:00Z');
/** The `.github` tree of acme/widget (its sha in the root listing). */
export const GH_SHA = '9c1e5b7a3d2f4e6a8b0c1d2e3f4a5b6c7d8e9f01';
export const TOKEN = 'ghp_nerqTestToken0123456789abcdefABCDEF';

export function endpointsFor(server: FixtureServer, extra: Partial<Endpoints> = {}): Endpoints {
  return {
    npmApi: server.url('npm-api'),
    pypi: server.url('pypi'),
    pypiStats: server.url('pypistats'),
    githubApi: server.url('github'),
    githubGraphql: `${server.url('github')}/graphql`,
    osvApi: server.url('osv'),
    mcpRegistry: server.url('mcp-registry'),
    npmPublicRegistry: `${server.url('npm')}/`,
    ...extra,
  };
}

export interface TestClient {
  http: HttpClient;
  /** Every sleep the client asked for (none should happen for GitHub limits). */
  sleeps: number[];
}

export function testClient(authFor?: (url: string) => string | undefined): TestClient {
  const sleeps: number[] = [];
  const http = createHttpClient({
    timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 },
    retry: { baseDelayMs: 1 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...(authFor === undefined ? {} : { authFor }),
  });
  return { http, sleeps };
}

const limiters = new WeakMap<HttpClient, GithubRateLimiter>();

/** One rate-limit switch per test client, as the runtime holds one for its client. */
export function limiterFor(http: HttpClient): GithubRateLimiter {
  let limiter = limiters.get(http);
  if (limiter === undefined) limiters.set(http, (limiter = new GithubRateLimiter()));
  return limiter;
}

/** The call a GitHub reader makes against the fixture server, without a token, at `now`. */
export function githubCallFor(server: FixtureServer, now: Date = NOW): GithubCall {
  const { http } = testClient();
  return { http, limiter: limiterFor(http), api: server.url('github'), graphql: `${server.url('github')}/graphql`, tokenInUse: false, now, counter: { requests: 0 } };
}

export function contextFor(server: FixtureServer, http: HttpClient, token: string | null = null, endpoints?: Endpoints): GithubSourceContext {
  return { http, endpoints: endpoints ?? endpointsFor(server), token, now: NOW, limiter: limiterFor(http) };
}

export const npmClaim = (name: string, extra: Partial<Extract<GithubClaim, { kind: 'package' }>> = {}): GithubClaim => ({
  kind: 'package',
  ecosystem: 'npm',
  name,
  directory: null,
  provenanceRepository: null,
  ...extra,
});

export const pypiClaim = (name: string, extra: Partial<Extract<GithubClaim, { kind: 'package' }>> = {}): GithubClaim => ({
  kind: 'package',
  ecosystem: 'pypi',
  name,
  directory: null,
  provenanceRepository: null,
  ...extra,
});

export const ROUTES = {
  repo: '',
  commits: '/commits',
  releases: '/releases',
  issues: '/issues',
  community: '/community/profile',
  contents: '/contents',
  tree: `/git/trees/${GH_SHA}`,
  manifest: '/contents/package.json',
  /** A repository target's own files (sources/github/repo-files.ts): the tree by branch, the tags, README, LICENSE and the security policy. */
  files: '/git/trees/main',
  tags: '/tags',
  readme: '/contents/README.md',
  license: '/contents/LICENSE',
  security: '/contents/.github/SECURITY.md',
  /** Whether private reporting is on: asked because that SECURITY.md's only channel is private reporting (sources/github/private-reporting.ts). */
  privateReporting: '/private-vulnerability-reporting',
  /** Its workflows (sources/github/workflow-files.ts: read and judged, one request each without a token). */
  workflowCi: '/contents/.github/workflows/ci.yml',
  workflowCodeql: '/contents/.github/workflows/codeql.yaml',
  workflowRelease: '/contents/.github/workflows/release.yml',
} as const;

/** The routes only a repository target asks for (its own files; the manifest it reads as one of them). */
export const TARGET_FILE_ROUTES = ['files', 'tags', 'readme', 'license', 'security', 'privateReporting', 'workflowCi', 'workflowCodeql', 'workflowRelease'] as const satisfies readonly RouteName[];
export type RouteName = keyof typeof ROUTES;

/** acme/widget's recorded repository answer, renamed to `fullName` and with `changes` applied. */
export function repoBody(fullName: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const recorded = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github/repos/acme/widget.json'), 'utf8')) as Record<string, unknown>;
  return { ...recorded, full_name: fullName, name: fullName.split('/')[1], html_url: `https://github.com/${fullName}`, ...changes };
}

export interface ServeOptions {
  /**
   * The recorded repository answer to serve (default: acme/widget's, renamed to the asked
   * name); the other routes serve acme/widget's answers.
   */
  from?: string;
  /** Answers that replace the recorded ones. */
  override?: Partial<Record<RouteName, FixtureResponse>>;
  /** Routes not declared at all (a request to one is an unexpected request). */
  skip?: readonly RouteName[];
}

/** acme/widget's commits (all 11 of its history, newest first), as `GET …/commits?per_page=100` lists them. */
export function widgetCommits(): Array<Record<string, unknown>> {
  return JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github/repos/acme/widget/commits.json'), 'utf8')) as Array<Record<string, unknown>>;
}

/** A `Link` header as GitHub writes it for a commits listing of `perPage` (its URLs under /repositories/{id}). */
export function commitsLink(page: number, last: number, perPage = 2): string {
  const at = (p: number) => `<https://api.github.com/repositories/4242/commits?sha=main&per_page=${perPage}&page=${p}>`;
  const parts = page < last ? [`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`] : [`${at(page - 1)}; rel="prev"`, `${at(1)}; rel="first"`];
  return parts.join(', ');
}

/**
 * The two commit listings that date a repository target's history (sources/github/repo-history.ts),
 * cut from acme/widget's 11 commits two to a page: the first page with its `Link` header (last
 * page 6), and page 6 with the oldest commit (2024-12-03). Declared before the other commits
 * route, which answers the activity's `per_page=100` listing.
 */
export const HISTORY_ROUTES = { history: '/commits?per_page=2&sha=main', oldest: '/commits?page=6&per_page=2&sha=main' } as const;

export function serveHistory(server: FixtureServer, asked: string, override: Partial<Record<keyof typeof HISTORY_ROUTES, FixtureResponse>> = {}): void {
  const commits = widgetCommits();
  const answers: Record<keyof typeof HISTORY_ROUTES, FixtureResponse> = {
    history: { body: commits.slice(0, 2), headers: { link: commitsLink(1, 6) } },
    oldest: { body: commits.slice(10), headers: { link: commitsLink(6, 6) } },
  };
  for (const [name, suffix] of Object.entries(HISTORY_ROUTES) as Array<[keyof typeof HISTORY_ROUTES, string]>) {
    server.expect('GET', `/github/repos/${asked}${suffix}`, override[name] ?? answers[name]);
  }
}

/** Declare the REST routes of `asked` (`owner/name`), answered from the recorded fixtures unless overridden. */
export function serveRepo(server: FixtureServer, asked: string, options: ServeOptions = {}): void {
  const from = options.from ?? 'acme/widget';
  if (!options.skip?.includes('files')) serveHistory(server, asked);
  for (const [name, suffix] of Object.entries(ROUTES) as Array<[RouteName, string]>) {
    if (options.skip?.includes(name)) continue;
    const recorded: FixtureResponse =
      name !== 'repo' ? { fixture: `github/repos/acme/widget${suffix}` } : options.from === undefined ? { body: repoBody(asked) } : { fixture: `github/repos/${from}` };
    const response = options.override?.[name] ?? recorded;
    server.expect('GET', `/github/repos/${asked}${suffix}`, response);
  }
}

/** The requests the server saw, as `METHOD path` without the query. */
export function requestLines(server: FixtureServer): string[] {
  return server.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`);
}

/** A rate-limit header set with `remaining` left and the reset `inSeconds` after NOW. */
export function rateHeaders(remaining: number, inSeconds = 3900, limit = 60): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.floor(NOW.getTime() / 1000) + inSeconds),
    'x-ratelimit-used': String(limit - remaining),
    'x-ratelimit-resource': 'core',
  };
}

/** The facts of an ok result; a test fails with the reason otherwise. */
export function factsOf(result: GithubResult | undefined): GithubFacts {
  if (result?.status !== 'ok') throw new Error(`expected facts, got: ${result === undefined ? 'nothing' : result.reason}`);
  return result.facts;
}

/** acme/widget's recorded GraphQL repository node. */
export function widgetNode(): Record<string, unknown> {
  const recorded = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github/graphql/acme-widget.json'), 'utf8')) as { data: { r0: Record<string, unknown> } };
  return recorded.data.r0;
}

/** Bytes of a blob's `text` GitHub's GraphQL API gives at most; a larger blob comes back cut there, `isTruncated`. */
export const GRAPHQL_BLOB_TEXT_BYTES = 512_000;

/**
 * The answer to a `NerqFiles` query (graphql.ts `graphqlObjects`: the workflows a token reads in
 * one query, the files of a repository's facts): each `<ref>:<path>` from the recorded
 * `fixtures/http/github/repos/<fullName>/contents/<path>` (or its stored `.gz`, inflated), with the
 * placeholders filled in as the fixture server fills a REST body, its `byteSize`, and its text cut
 * at `GRAPHQL_BLOB_TEXT_BYTES` as GitHub cuts it; null for a file not recorded. `blobs` replaces
 * the object given for a path. Null when `body` is another query.
 */
export function graphqlFilesAnswer(server: FixtureServer, fullName: string, body: string, blobs: Record<string, unknown> = {}): Record<string, unknown> | null {
  const { query, variables } = JSON.parse(body) as { query: string; variables: Record<string, string> };
  if (!query.includes('NerqFiles')) return null;
  const contents = path.join(FIXTURES_ROOT, 'github', 'repos', fullName, 'contents');
  const recorded = (file: string): Buffer | null => {
    if (existsSync(file)) return readFileSync(file);
    if (existsSync(`${file}.gz`)) return gunzipSync(readFileSync(`${file}.gz`));
    return null;
  };
  const objects = Object.fromEntries(
    Object.entries(variables)
      .filter(([key]) => /^p\d+$/.test(key))
      .map(([key, expression]) => {
        const filePath = expression.slice(expression.indexOf(':') + 1);
        if (Object.hasOwn(blobs, filePath)) return [`x${key.slice(1)}`, blobs[filePath]];
        const bytes = recorded(path.join(contents, filePath));
        if (bytes === null) return [`x${key.slice(1)}`, null];
        const filled = Buffer.from(bytes.toString('utf8').replaceAll('{{REGISTRY}}', `${server.origin}/npm`).replaceAll('{{ORIGIN}}', server.origin), 'utf8');
        const truncated = filled.length > GRAPHQL_BLOB_TEXT_BYTES;
        const text = truncated ? new TextDecoder().decode(filled.subarray(0, GRAPHQL_BLOB_TEXT_BYTES)) : filled.toString('utf8');
        return [`x${key.slice(1)}`, { byteSize: bytes.length, text, isTruncated: truncated, isBinary: false }];
      }),
  );
  return { data: { repository: objects } };
}

/** A token-path test's world: a fixture server, and a client that sends the token to GitHub's endpoints on it. */
export interface TokenWorld {
  server: FixtureServer;
  client: TestClient;
}

/**
 * A fresh TokenWorld for each test of the file that calls this at its top level (started before
 * each test, closed after it): the set-up every GraphQL test shares.
 */
export function useTokenServer(): TokenWorld {
  const world = {} as TokenWorld;
  beforeEach(async () => {
    world.server = await startFixtureServer();
    world.client = testClient(githubAuthFor(endpointsFor(world.server), TOKEN));
  });
  afterEach(async () => {
    await world.client.http.close();
    await world.server.close();
  });
  return world;
}
