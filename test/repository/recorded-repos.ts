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
  for (const [suffix, response] of Object.entries(routes)) server.expect('GET', `${base}${suffix}`, response);
  // Commits, the root listing, sub-trees, tags and raw contents: the recorded files by path.
  server.fallback('GET', `${base}/`);
}
