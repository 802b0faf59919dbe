/**
 * The recorded public repositories of fixtures/github-repos served as GitHub's REST API serves
 * them (fixtures/http/github/repos/<owner>/<repo>): the recursive tree, the root listing, the
 * commits page, the tags and the raw file contents come from the recordings; what the recordings
 * lack (fixtures/github-repos/README.md) is synthesised here from each repository's record.json:
 * the repository answer (`GET /repos/{o}/{r}`: created_at from the first commit, the licence
 * GitHub would detect, topics, description), its releases, issues and community profile, the
 * tree route by branch name (pointing at the recorded root tree), and the two-to-a-page commit
 * listings that date its history (cut from the recorded history.json).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { Runtime } from '../../src/app/runtime.js';
import { graphqlFilesAnswer } from '../github/helpers.js';
import { expectNoUnexpected, FIXTURES_ROOT, startFixtureServer, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';

const RECORDS = path.join(FIXTURES_ROOT, '..', 'github-repos');

/** Per test: a fixture server, a private home, and the runtimes to close; every request must have been expected. */
export interface RepositoryHarness {
  server: FixtureServer;
  home: string;
  runtimes: Runtime[];
}

/** Registers the per-test set-up and tear-down of a repository target test file (call at its top level). */
export function useRepositoryHarness(): RepositoryHarness {
  const harness = { runtimes: [] as Runtime[] } as RepositoryHarness;
  beforeEach(async () => {
    harness.server = await startFixtureServer();
    harness.home = mkdtempSync(path.join(os.tmpdir(), 'nerq-repo-'));
    for (const dir of ['.config', '.cache', path.join('.local', 'share'), path.join('.local', 'state')]) mkdirSync(path.join(harness.home, dir), { recursive: true });
  });
  afterEach(async () => {
    expectNoUnexpected(harness.server);
    await Promise.all(harness.runtimes.splice(0).map((r) => r.close()));
    await harness.server.close();
    rmSync(harness.home, { recursive: true, force: true });
  });
  return harness;
}

export interface RepoRecord {
  repository: string;
  defaultBranch: string;
  recordedCommit: { sha: string; tree: string; committerDate: string };
  firstCommit: { authorDate: string };
  commitCount: number;
  tags: Array<{ name: string; commit: string; annotated: boolean; date: string; commitDate: string }>;
  files: { recorded: Array<{ path: string; stored?: string }> };
}

export function recordOf(fullName: string): RepoRecord {
  const [owner, name] = fullName.split('/');
  return JSON.parse(readFileSync(path.join(RECORDS, `${owner}__${name}`, 'record.json'), 'utf8')) as RepoRecord;
}

export interface RepoAnswerOptions {
  /** The SPDX id GitHub's licence detection would give (null: none detected). */
  license: string | null;
  topics?: string[];
  description?: string | null;
  /** Keys left out of the answer (an older GitHub Enterprise answer lacks `topics`, `visibility`…). */
  omit?: string[];
  stars?: number;
}

/** The `GET /repos/{owner}/{repo}` answer GitHub would give for a recorded repository. */
export function repoAnswer(fullName: string, options: RepoAnswerOptions): Record<string, unknown> {
  const record = recordOf(fullName);
  const created = new Date(record.firstCommit.authorDate).toISOString();
  const body: Record<string, unknown> = {
    id: 1000 + fullName.length,
    name: fullName.split('/')[1],
    full_name: fullName,
    html_url: `https://github.com/${fullName}`,
    description: options.description ?? null,
    archived: false,
    disabled: false,
    fork: false,
    created_at: created,
    pushed_at: new Date(record.recordedCommit.committerDate).toISOString(),
    default_branch: record.defaultBranch,
    stargazers_count: options.stars ?? 10,
    forks_count: 2,
    subscribers_count: 3,
    open_issues_count: 1,
    license: options.license === null ? null : { key: options.license.toLowerCase(), spdx_id: options.license },
    topics: options.topics ?? [],
    visibility: 'public',
    homepage: null,
    has_issues: true,
  };
  for (const key of options.omit ?? []) delete body[key];
  return body;
}

export interface ServeRecordedOptions extends RepoAnswerOptions {
  /**
   * OSV records (shaped as OSV serves them) the querybatch names for the packages they affect,
   * each served at `/v1/vulns/<id>`; none by default (every dependency clean).
   */
  osv?: readonly Record<string, unknown>[];
  /** OSV's querybatch answers a body of the wrong shape. */
  osvMalformed?: boolean;
  /** OSV's querybatch answers this HTTP status (a failing service) instead of an answer. */
  osvStatus?: number;
  /** Answers that replace the recorded or synthesised ones, by path below the repository (`''` = the repository). */
  override?: Record<string, FixtureResponse>;
  /** crates.io's sparse index answers every crate with this (a fault) instead of the recorded index files. */
  cratesIndex?: FixtureResponse;
  /**
   * A folder under fixtures/http of newer crates.io index files (fixtures/PROVENANCE.md), each served
   * in place of the recorded file at the same index path; the crates it lacks keep theirs.
   */
  cratesIndexRecords?: string;
}

/** Declare every REST route nerq asks for a recorded repository. */
export function serveRecordedRepo(server: FixtureServer, fullName: string, options: ServeRecordedOptions): void {
  const record = recordOf(fullName);
  const base = `/github/repos/${fullName}`;
  const routes: Record<string, FixtureResponse> = {
    '': { body: repoAnswer(fullName, options) },
    '/releases': { body: [] },
    '/issues': { body: [] },
    '/community/profile': {
      body: { health_percentage: 50, files: { readme: {}, contributing: null, code_of_conduct: null, issue_template: null, pull_request_template: null } },
    },
    [`/git/trees/${record.defaultBranch}`]: { fixture: `github/repos/${fullName}/git/trees/${record.recordedCommit.tree}.json` },
    // Asked only when the security policy's only channel is private reporting (sources/github/private-reporting.ts):
    // GitHub's documented response example (fixtures/PROVENANCE.md); a test overrides it to say otherwise.
    '/private-vulnerability-reporting': { body: { enabled: true } },
    // The texts stored gzip-compressed (over 256 KB), served as GitHub would: inflated by the client.
    ...Object.fromEntries(
      record.files.recorded
        .filter((f) => f.stored?.endsWith('.gz') === true)
        .map((f) => [`/contents/${f.path}`, { fixture: `github/repos/${fullName}/${f.stored}`, headers: { 'content-encoding': 'gzip' } }]),
    ),
    ...options.override,
  };
  // Folder listings (`GET …/contents/{dir}`, what a workspace glob is listed with), from the recorded tree.
  const tree = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github', 'repos', fullName, 'git', 'trees', `${record.recordedCommit.tree}.json`), 'utf8')) as {
    tree: Array<{ path: string; type: string; size?: number }>;
  };
  for (const dir of tree.tree.filter((e) => e.type === 'tree' && e.path.split('/').length <= 2)) {
    const children = tree.tree.filter((e) => e.path.startsWith(`${dir.path}/`) && !e.path.slice(dir.path.length + 1).includes('/'));
    const listing = children.map((e) => ({ name: e.path.split('/').pop(), path: e.path, type: e.type === 'tree' ? 'dir' : 'file', size: e.size ?? 0 }));
    routes[`/contents/${dir.path}`] ??= { body: listing };
  }
  // When its history starts: the recorded history two to a page, newest first, with GitHub's Link header.
  if (!Object.keys(options.override ?? {}).some((k) => k.startsWith('/commits?'))) Object.assign(routes, historyRoutes(fullName));
  for (const [suffix, response] of Object.entries(routes)) server.expect('GET', `${base}${suffix}`, response);
  serveOsvRecords(server, options.osv ?? [], options.osvMalformed === true, options.osvStatus);
  // crates.io's sparse index: the recorded index files (fixtures/http/crates-index) by path, the newer ones first.
  if (options.cratesIndexRecords !== undefined && options.cratesIndex === undefined) {
    const folder = options.cratesIndexRecords;
    for (const file of readdirSync(path.join(FIXTURES_ROOT, folder), { recursive: true, withFileTypes: true })) {
      if (!file.isFile()) continue;
      const indexPath = path.relative(path.join(FIXTURES_ROOT, folder), path.join(file.parentPath, file.name)).split(path.sep).join('/');
      server.expect('GET', `/crates-index/${indexPath}`, { fixture: `${folder}/${indexPath}` });
    }
  }
  server.fallback('GET', '/crates-index/', options.cratesIndex);
  // Commits, the root listing, sub-trees, tags and raw contents: the recorded files by path.
  server.fallback('GET', `${base}/`);
}

/** A recorded commit ([sha, authorDate, committerDate, …] of history.json) as GitHub's commits listing shapes it. */
function listedCommit([sha, authorDate, committerDate]: [string, string, string]): Record<string, unknown> {
  return { sha, commit: { author: { name: 'a', email: 'a@example.com', date: authorDate }, committer: { name: 'a', email: 'a@example.com', date: committerDate } }, author: null, parents: [] };
}

/**
 * The commit listings that date a recorded repository's history (sources/github/repo-history.ts):
 * `per_page=2` pages of its recorded history (history.json, every commit reachable from the
 * recorded one), newest first, the first with GitHub's `Link` header naming the last page.
 */
export function historyRoutes(fullName: string): Record<string, FixtureResponse> {
  const record = recordOf(fullName);
  const [owner, name] = fullName.split('/');
  const history = JSON.parse(readFileSync(path.join(RECORDS, `${owner}__${name}`, 'history.json'), 'utf8')) as { commits: Array<[string, string, string]> };
  const newestFirst = [...history.commits].reverse();
  const last = Math.ceil(newestFirst.length / 2);
  const link = (p: number) => `<https://api.github.com/repositories/1/commits?sha=${record.defaultBranch}&per_page=2&page=${p}>`;
  const query = `per_page=2&sha=${encodeURIComponent(record.defaultBranch)}`;
  const routes: Record<string, FixtureResponse> = {
    [`/commits?${query}`]: { body: newestFirst.slice(0, 2).map(listedCommit), ...(last > 1 ? { headers: { link: `${link(2)}; rel="next", ${link(last)}; rel="last"` } } : {}) },
  };
  if (last > 1) routes[`/commits?page=${last}&${query}`] = { body: newestFirst.slice(2 * (last - 1)).map(listedCommit), headers: { link: `${link(last - 1)}; rel="prev", ${link(1)}; rel="first"` } };
  return routes;
}

/** OSV: querybatch answers each query with the ids of the records affecting that package name (none for the rest). */
export function serveOsvRecords(server: FixtureServer, records: readonly Record<string, unknown>[], malformed: boolean, status?: number): void {
  const idsFor = (ecosystem: string, name: string): string[] =>
    records
      .filter((r) => (r.affected as { package: { ecosystem: string; name: string } }[]).some((a) => a.package.name === name && a.package.ecosystem === ecosystem))
      .map((r) => r.id as string);
  server.route('POST', '/osv/v1/querybatch', (_req, res, { body }) => {
    if (status !== undefined) {
      res.writeHead(status, { 'content-type': 'application/json' });
      return void res.end('{"code": 14, "message": "unavailable"}');
    }
    const queries = (JSON.parse(body.toString('utf8')) as { queries: { package: { ecosystem: string; name: string } }[] }).queries;
    res.writeHead(200, { 'content-type': 'application/json' });
    if (malformed) return void res.end('{"results": 3}');
    res.end(
      JSON.stringify({
        results: queries.map((q) => {
          const ids = idsFor(q.package.ecosystem, q.package.name);
          return ids.length === 0 ? {} : { vulns: ids.map((id) => ({ id, modified: '2026-08-01T00:00:00Z' })) };
        }),
      }),
    );
  });
  for (const record of records) server.expect('GET', `/osv/v1/vulns/${record.id as string}`, { body: record });
}

/**
 * What the registries answer for the packages a repository advertises or declares — synthesised,
 * not recorded: a one-version packument (npm) or project JSON and Simple API page in the shape of
 * the recorded flask answers (PyPI) whose repository link is `links` (`null`: none). A name not
 * listed is not published (404); provenance is never offered.
 */
export interface PublishedPackages {
  npm?: Record<string, string | null>;
  pypi?: Record<string, string | null>;
}

function npmPackument(name: string, links: string | null): object {
  const repository = links === null ? {} : { repository: { type: 'git', url: `git+${links}.git` } };
  return {
    _id: name,
    name,
    'dist-tags': { latest: '1.0.0' },
    versions: { '1.0.0': { name, version: '1.0.0', ...repository, dist: { tarball: `{{base}}/npm/-/${name}-1.0.0.tgz`, shasum: '0'.repeat(40) } } },
    time: { created: '2025-03-20T00:00:00.000Z', modified: '2025-03-20T00:00:00.000Z', '1.0.0': '2025-03-20T00:00:00.000Z' },
    ...repository,
  };
}

function pypiProject(name: string, links: string | null): { json: object; simple: object } {
  const json = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'pypi', 'pypi', 'flask', 'json.json'), 'utf8')) as {
    info: Record<string, unknown>;
    releases: Record<string, unknown>;
    urls: unknown[];
  };
  const latest = json.info.version as string;
  json.info = { ...json.info, name, home_page: null, project_urls: links === null ? {} : { Source: links }, requires_dist: null };
  json.releases = { [latest]: json.urls };
  const simple = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'pypi', 'simple', 'flask.json'), 'utf8')) as { files: Array<{ filename: string }>; name?: string };
  const files = new Set((json.urls as Array<{ filename: string }>).map((u) => u.filename));
  return { json, simple: { ...simple, name, files: simple.files.filter((f) => files.has(f.filename)) } };
}

export function servePublished(server: FixtureServer, published: PublishedPackages): void {
  for (const [name, links] of Object.entries(published.npm ?? {})) {
    server.expect('GET', `/npm/${name.replace('/', '%2f')}`, { body: npmPackument(name, links) });
  }
  for (const [name, links] of Object.entries(published.pypi ?? {})) {
    const { json, simple } = pypiProject(name, links);
    server.expect('GET', `/pypi/pypi/${name}/json`, { body: json });
    server.expect('GET', `/pypi/simple/${name}/`, { body: simple });
  }
  server.fallback('GET', '/npm/', { status: 404 });
  server.fallback('GET', '/pypi/', { status: 404 });
}

/** What each recorded repository's advertised and declared names are published as (synthesised; their public registry entries link as here). */
export const PUBLISHED: Record<string, PublishedPackages> = {
  'formulahendry/mcp-server-code-runner': {
    npm: { 'mcp-server-code-runner': 'https://github.com/formulahendry/mcp-server-code-runner', '@smithery/cli': 'https://github.com/smithery-ai/cli' },
  },
  'microsoft/playwright-mcp': { npm: { '@playwright/mcp': 'https://github.com/microsoft/playwright-mcp' } },
  'blazickjp/arxiv-mcp-server': { pypi: { 'arxiv-mcp-server': 'https://github.com/blazickjp/arxiv-mcp-server' } },
  'modelcontextprotocol/typescript-sdk': {
    npm: Object.fromEntries([
      ...['server', 'client', 'node', 'express', 'fastify', 'hono'].map((n) => [`@modelcontextprotocol/${n}`, 'https://github.com/modelcontextprotocol/typescript-sdk']),
      ['express', 'https://github.com/expressjs/express'],
    ]),
  },
};

/**
 * An OSV record as OSV serves it (GHSA shape: id, aliases, summary, CVSS vector, SEMVER range,
 * database severity), synthesised for a package a test's dependency set holds: the recordings hold
 * no advisory database, and a test names the advisory it needs.
 */
export function osvRecord(id: string, name: string, introduced: string, fixed: string, severity: 'HIGH' | 'CRITICAL', ecosystem = 'npm'): Record<string, unknown> {
  // OSV writes npm, Go and crates.io ranges as SEMVER (Go's without the leading v), the others by the ecosystem's own order.
  const type = ecosystem === 'npm' || ecosystem === 'Go' || ecosystem === 'crates.io' ? 'SEMVER' : 'ECOSYSTEM';
  return {
    schema_version: '1.7.3',
    id,
    modified: '2026-04-01T00:00:00Z',
    published: '2026-03-26T00:00:00Z',
    aliases: [],
    summary: `${name} denial of service (synthesised for a test)`,
    severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H' }],
    affected: [{ package: { ecosystem, name }, ranges: [{ type, events: [{ introduced }, { fixed }] }], database_specific: { source: 'synthesised' } }],
    references: [{ type: 'ADVISORY', url: `https://github.com/advisories/${id}` }],
    database_specific: { severity, github_reviewed: true, cwe_ids: ['CWE-1333'] },
  };
}

/**
 * GitHub's answer to the GraphQL query that dates a recorded repository's tags
 * (sources/github/tag-dates.ts: `refs(refPrefix: "refs/tags/", first: 100, orderBy: TAG_COMMIT_DATE DESC)`),
 * built from record.json's tags — an annotated tag as a `Tag` with its tagger date and the commit it
 * tags, a lightweight one as that `Commit` — newest first, at most 100, with the total.
 */
export function tagDatesAnswer(fullName: string): { data: { repository: { refs: { totalCount: number; nodes: unknown[] } } } } {
  const tags = [...recordOf(fullName).tags].sort((a, b) => Date.parse(b.commitDate) - Date.parse(a.commitDate));
  const nodes = tags.slice(0, 100).map((t) => {
    const commit = { __typename: 'Commit', committedDate: new Date(t.commitDate).toISOString() };
    return { name: t.name, target: t.annotated ? { __typename: 'Tag', tagger: { date: t.date }, target: commit } : commit };
  });
  return { data: { repository: { refs: { totalCount: tags.length, nodes } } } };
}

/**
 * The GraphQL repository node (sources/github/graphql.ts `NerqRepository`) for a recorded
 * repository, with a token — synthesised, as the REST repository answer is: acme/widget's recorded
 * node (fixtures/http/github/graphql/acme-widget.json) with this repository's name, URL, creation
 * date (`created`, default: its first commit's), licence and no GitHub release.
 */
export function graphqlRepositoryNode(fullName: string, options: { license: string | null; created?: string }): Record<string, unknown> {
  const recorded = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'github', 'graphql', 'acme-widget.json'), 'utf8')) as { data: { r0: Record<string, unknown> } };
  const record = recordOf(fullName);
  const { f0: _manifest, f1: _none, ...node } = recorded.data.r0;
  return {
    ...node,
    nameWithOwner: fullName,
    url: `https://github.com/${fullName}`,
    createdAt: options.created ?? new Date(record.firstCommit.authorDate).toISOString(),
    pushedAt: new Date(record.recordedCommit.committerDate).toISOString(),
    licenseInfo: options.license === null ? null : { spdxId: options.license },
    releases: { nodes: [] },
  };
}

/**
 * GitHub's GraphQL endpoint for a recorded repository with a token: the repository query answered
 * with `graphqlRepositoryNode` under each alias it asks for, the tag-dates query with `tags`
 * (default: `tagDatesAnswer`, the recorded tags' dates), the files' query from the recorded files
 * or the `blobs` given by path (as the `NerqBlob` fragment gives them); `nodeEdit`: keys of the
 * repository node replaced.
 */
export function serveRecordedGraphql(
  server: FixtureServer,
  fullName: string,
  options: { license: string | null; created?: string; tags?: FixtureResponse; releasesUnanswered?: boolean; blobs?: Record<string, unknown>; nodeEdit?: Record<string, unknown> },
): void {
  const tags = options.tags ?? { body: tagDatesAnswer(fullName) };
  server.route('POST', '/github/graphql', (_req, res, { body }) => {
    const { query } = JSON.parse(body.toString('utf8')) as { query: string };
    const files = graphqlFilesAnswer(server, fullName, body.toString('utf8'), options.blobs);
    if (files !== null) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(files));
    }
    if (query.includes('NerqTagDates')) {
      res.writeHead(tags.status ?? 200, { 'content-type': 'application/json', ...tags.headers });
      return void res.end(typeof tags.body === 'string' ? tags.body : JSON.stringify(tags.body ?? {}));
    }
    const aliases = [...query.matchAll(/\b(r\d+): repository\(/g)].map((m) => m[1] as string);
    res.writeHead(200, { 'content-type': 'application/json' });
    // `releasesUnanswered`: GitHub answers the repository with no releases connection (the releases listing fails alone).
    const node = (): Record<string, unknown> => ({ ...graphqlRepositoryNode(fullName, options), ...(options.releasesUnanswered === true ? { releases: null } : {}), ...options.nodeEdit });
    res.end(JSON.stringify({ data: Object.fromEntries(aliases.map((a) => [a, node()])) }));
  });
}

/** What a test serves for one recorded repository: the synthesised answers and the published names. */
export type RecordedCase = ServeRecordedOptions & { published: PublishedPackages };

/**
 * The synthesised answers each of the fourteen recorded repositories is checked with wherever a
 * test judges it whole (test/repository/repository-targets.test.ts, docs/fixture-reports.md):
 * the licence GitHub would detect, made-up stars and topics, and the registries' answers for the
 * names it advertises or declares (PUBLISHED, or none).
 */
export const RECORDED_CASES: Record<string, RecordedCase> = {
  'formulahendry/mcp-server-code-runner': { license: 'MIT', stars: 230, published: PUBLISHED['formulahendry/mcp-server-code-runner'] ?? {} },
  'microsoft/playwright-mcp': { license: 'Apache-2.0', stars: 20_000, topics: ['mcp', 'playwright'], published: PUBLISHED['microsoft/playwright-mcp'] ?? {} },
  'blazickjp/arxiv-mcp-server': { license: 'Apache-2.0', published: PUBLISHED['blazickjp/arxiv-mcp-server'] ?? {} },
  // One example's manifest the recording left out would fail; examples cannot vouch, so it is never asked.
  'modelcontextprotocol/typescript-sdk': {
    license: 'Apache-2.0',
    topics: [],
    override: { '/contents/examples/guides/package.json': { status: 503 } },
    published: PUBLISHED['modelcontextprotocol/typescript-sdk'] ?? {},
  },
  'wong2/awesome-mcp-servers': { license: 'MIT', published: {} },
  'ian1roberts/mcp_server': { license: 'MIT', stars: 1, published: {} },
  'BurntSushi/ripgrep': { license: 'Unlicense', stars: 50_000, published: {} },
  'github/github-mcp-server': { license: 'MIT', stars: 25_000, published: {} },
  'upstash/context7': {
    license: 'MIT',
    stars: 30_000,
    topics: ['mcp', 'mcp-server'],
    published: {
      npm: {
        '@upstash/context7-mcp': 'https://github.com/upstash/context7',
        '@smithery/cli': 'https://github.com/smithery-ai/cli',
        '@modelcontextprotocol/inspector': 'https://github.com/modelcontextprotocol/inspector',
        tsx: 'https://github.com/privatenumber/tsx',
      },
    },
  },
  'rust-mcp-stack/rust-mcp-filesystem': { license: 'MIT', stars: 150, published: { npm: { '@rustmcp/rust-mcp-filesystem': 'https://github.com/rust-mcp-stack/rust-mcp-filesystem' } } },
  'GongRzhe/Office-Word-MCP-Server': {
    license: 'MIT',
    published: { pypi: { 'office-word-mcp-server': 'https://github.com/GongRzhe/Office-Word-MCP-Server', mcp: 'https://github.com/modelcontextprotocol/python-sdk', 'python-docx': 'https://github.com/python-openxml/python-docx' } },
  },
  'Rishirandhawa/mcp-rust-sdk': { license: 'MIT', stars: 5, published: {} },
  // Its manifests are newer than the recorded index files: the newer ones (fixtures/PROVENANCE.md) where they exist.
  'modelcontextprotocol/rust-sdk': { license: 'NOASSERTION', stars: 2500, published: {}, cratesIndexRecords: 'crates-index-2026' },
  'modelcontextprotocol/kotlin-sdk': { license: 'NOASSERTION', stars: 1000, published: { npm: { '@modelcontextprotocol/inspector': 'https://github.com/modelcontextprotocol/inspector' } } },
};
