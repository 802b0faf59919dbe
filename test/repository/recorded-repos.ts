/**
 * The recorded public repositories of fixtures/github-repos served as GitHub's REST API serves
 * them (fixtures/http/github/repos/<owner>/<repo>): the recursive tree, the root listing, the
 * commits page, the tags and the raw file contents come from the recordings; what the recordings
 * lack (fixtures/github-repos/README.md) is synthesised here from each repository's record.json:
 * the repository answer (`GET /repos/{o}/{r}`: created_at from the first commit, the licence
 * GitHub would detect, topics, description), its releases, issues and community profile, and the
 * tree route by branch name (pointing at the recorded root tree).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES_ROOT, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';

const RECORDS = path.join(FIXTURES_ROOT, '..', 'github-repos');

export interface RepoRecord {
  repository: string;
  defaultBranch: string;
  recordedCommit: { sha: string; tree: string; committerDate: string };
  firstCommit: { authorDate: string };
  commitCount: number;
  tags: Array<{ name: string; date?: string }>;
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
  /** Answers that replace the recorded or synthesised ones, by path below the repository (`''` = the repository). */
  override?: Record<string, FixtureResponse>;
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
  for (const [suffix, response] of Object.entries(routes)) server.expect('GET', `${base}${suffix}`, response);
  // Commits, the root listing, sub-trees, tags and raw contents: the recorded files by path.
  server.fallback('GET', `${base}/`);
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
