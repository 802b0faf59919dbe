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
    // The texts stored gzip-compressed (over 256 KB), served as GitHub would: inflated by the client.
    ...Object.fromEntries(
      record.files.recorded
        .filter((f) => f.stored?.endsWith('.gz') === true)
        .map((f) => [`/contents/${f.path}`, { fixture: `github/repos/${fullName}/${f.stored}`, headers: { 'content-encoding': 'gzip' } }]),
    ),
    ...options.override,
  };
  for (const [suffix, response] of Object.entries(routes)) server.expect('GET', `${base}${suffix}`, response);
  serveOsvRecords(server, options.osv ?? [], options.osvMalformed === true);
  // Commits, the root listing, sub-trees, tags and raw contents: the recorded files by path.
  server.fallback('GET', `${base}/`);
}

/** OSV: querybatch answers each query with the ids of the records affecting that package name (none for the rest). */
function serveOsvRecords(server: FixtureServer, records: readonly Record<string, unknown>[], malformed: boolean): void {
  const idsFor = (ecosystem: string, name: string): string[] =>
    records
      .filter((r) => (r.affected as { package: { ecosystem: string; name: string } }[]).some((a) => a.package.name === name && a.package.ecosystem === ecosystem))
      .map((r) => r.id as string);
  server.route('POST', '/osv/v1/querybatch', (_req, res, { body }) => {
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
