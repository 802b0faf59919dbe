/**
 * GitHub REST answers for the synthetic repositories, in the API's shapes (see the recorded
 * samples): the repository, commits, releases, contributors, issues and pulls (paginated, with
 * `Link` headers), the community profile, contents (JSON with base64, or raw), statistics, the
 * tree, the licence and the README. A path this module does not know answers 404 with
 * `known: false`, so the server can log it.
 */
import type { WorldModel } from './model.js';
import { listDirectory, repoState, type Commit, type IssueItem, type Person, type Release, type RepoFile, type RepoState } from './repository.js';

export interface RestAnswer {
  status: number;
  body: unknown;
  /** Raw bytes instead of JSON (raw file contents). */
  raw?: string;
  headers?: Record<string, string>;
  /** False when the path is not one this server implements (logged as unknown). */
  known: boolean;
}

const notFound = (known: boolean): RestAnswer => ({
  status: 404,
  body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
  known,
});

function userObject(api: string, p: Person): Record<string, unknown> {
  const login = p.login;
  const url = `${api}/users/${encodeURIComponent(login)}`;
  return {
    login,
    id: p.id,
    node_id: `MDQ6VXNlcj${p.id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${p.id}?v=4`,
    gravatar_id: '',
    url,
    html_url: `https://github.com/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: p.bot ? 'Bot' : 'User',
    user_view_type: 'public',
    site_admin: false,
  };
}

export function repositoryObject(api: string, s: RepoState): Record<string, unknown> {
  const url = `${api}/repos/${s.owner}/${s.name}`;
  const owner = userObject(api, { login: s.owner, id: s.ownerId, bot: false });
  if (s.ownerIsOrg) owner.type = 'Organization';
  const links = Object.fromEntries(
    ['forks', 'collaborators', 'teams', 'hooks', 'issue_events', 'events', 'assignees', 'branches', 'tags', 'blobs', 'git_tags', 'git_refs', 'trees', 'statuses', 'languages', 'stargazers', 'contributors', 'subscribers', 'subscription', 'commits', 'git_commits', 'comments', 'issue_comment', 'contents', 'compare', 'merges', 'archive', 'downloads', 'issues', 'pulls', 'milestones', 'notifications', 'labels', 'releases', 'deployments'].map((k) => [`${k}_url`, `${url}/${k.replace('_', '/')}`]),
  );
  return {
    id: s.id,
    node_id: `R_kgDO${s.id}`,
    name: s.name,
    full_name: `${s.owner}/${s.name}`,
    private: false,
    owner,
    html_url: `https://github.com/${s.owner}/${s.name}`,
    description: s.description,
    fork: false,
    url,
    ...links,
    created_at: s.createdAt,
    updated_at: s.pushedAt,
    pushed_at: s.pushedAt,
    git_url: `git://github.com/${s.owner}/${s.name}.git`,
    ssh_url: `git@github.com:${s.owner}/${s.name}.git`,
    clone_url: `https://github.com/${s.owner}/${s.name}.git`,
    svn_url: `https://github.com/${s.owner}/${s.name}`,
    homepage: s.homepage,
    size: s.size,
    stargazers_count: s.stars,
    watchers_count: s.stars,
    language: 'JavaScript',
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: false,
    has_pages: s.homepage !== null,
    has_discussions: false,
    forks_count: s.forks,
    mirror_url: null,
    archived: s.archived,
    disabled: false,
    open_issues_count: s.openIssues,
    license: s.license === null ? null : { key: s.license.toLowerCase(), name: s.license, spdx_id: s.license, url: `${api}/licenses/${s.license.toLowerCase()}`, node_id: 'MDc6TGljZW5zZTEz' },
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: s.topics,
    visibility: 'public',
    forks: s.forks,
    open_issues: s.openIssues,
    watchers: s.stars,
    default_branch: s.defaultBranch,
    permissions: { admin: false, maintain: false, push: false, triage: false, pull: true },
    network_count: s.forks,
    subscribers_count: s.watchers,
  };
}

function commitObject(api: string, s: RepoState, c: Commit): Record<string, unknown> {
  const url = `${api}/repos/${s.owner}/${s.name}`;
  const who = { name: c.author.login, email: `${c.author.login}@users.noreply.github.com`, date: c.date };
  return {
    sha: c.sha,
    node_id: `C_kwDO${c.sha.slice(0, 20)}`,
    commit: {
      author: who,
      committer: who,
      message: c.message,
      tree: { sha: c.sha.split('').reverse().join(''), url: `${url}/git/trees/${c.sha}` },
      url: `${url}/git/commits/${c.sha}`,
      comment_count: 0,
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    },
    url: `${url}/commits/${c.sha}`,
    html_url: `https://github.com/${s.owner}/${s.name}/commit/${c.sha}`,
    comments_url: `${url}/commits/${c.sha}/comments`,
    author: userObject(api, c.author),
    committer: userObject(api, c.author),
    parents: [{ sha: c.sha.slice(1) + '0', url: `${url}/commits/${c.sha.slice(1)}0`, html_url: `https://github.com/${s.owner}/${s.name}/commit/${c.sha.slice(1)}0` }],
  };
}

function releaseObject(api: string, s: RepoState, rel: Release): Record<string, unknown> {
  const url = `${api}/repos/${s.owner}/${s.name}/releases/${rel.id}`;
  return {
    url,
    assets_url: `${url}/assets`,
    upload_url: `https://uploads.github.com/repos/${s.owner}/${s.name}/releases/${rel.id}/assets{?name,label}`,
    html_url: `https://github.com/${s.owner}/${s.name}/releases/tag/${rel.tag}`,
    id: rel.id,
    author: userObject(api, { login: s.owner, id: s.ownerId, bot: false }),
    node_id: `RE_kwDO${rel.id}`,
    tag_name: rel.tag,
    target_commitish: s.defaultBranch,
    name: rel.tag,
    draft: false,
    prerelease: rel.prerelease,
    created_at: rel.publishedAt,
    published_at: rel.publishedAt,
    assets: rel.assets.map((name, i) => ({
      url: `${url}/assets/${rel.id + i}`,
      id: rel.id + i,
      node_id: `RA_kwDO${rel.id + i}`,
      name,
      label: '',
      uploader: userObject(api, { login: s.owner, id: s.ownerId, bot: false }),
      content_type: 'application/octet-stream',
      state: 'uploaded',
      size: 1024 * (i + 3),
      download_count: i * 7,
      created_at: rel.publishedAt,
      updated_at: rel.publishedAt,
      browser_download_url: `https://github.com/${s.owner}/${s.name}/releases/download/${rel.tag}/${name}`,
    })),
    tarball_url: `${api}/repos/${s.owner}/${s.name}/tarball/${rel.tag}`,
    zipball_url: `${api}/repos/${s.owner}/${s.name}/zipball/${rel.tag}`,
    body: `## Changes\n\n- Fixes and improvements in ${rel.tag}.\n`,
  };
}

function issueObject(api: string, s: RepoState, item: IssueItem): Record<string, unknown> {
  const url = `${api}/repos/${s.owner}/${s.name}/issues/${item.number}`;
  const html = `https://github.com/${s.owner}/${s.name}/${item.pull ? 'pull' : 'issues'}/${item.number}`;
  return {
    url,
    repository_url: `${api}/repos/${s.owner}/${s.name}`,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: html,
    id: item.number * 7919,
    node_id: `${item.pull ? 'PR' : 'I'}_kwDO${item.number}`,
    number: item.number,
    title: item.title,
    user: userObject(api, item.author),
    labels: [],
    state: item.closedAt === null ? 'open' : 'closed',
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: item.comments,
    created_at: item.createdAt,
    updated_at: item.closedAt ?? item.firstResponseAt ?? item.createdAt,
    closed_at: item.closedAt,
    author_association: 'NONE',
    active_lock_reason: null,
    ...(item.pull
      ? {
          draft: false,
          pull_request: {
            url: `${api}/repos/${s.owner}/${s.name}/pulls/${item.number}`,
            html_url: html,
            diff_url: `${html}.diff`,
            patch_url: `${html}.patch`,
            merged_at: item.mergedAt,
          },
        }
      : {}),
    body: `Steps to reproduce ${item.number}.`,
    reactions: { url: `${url}/reactions`, total_count: 0, '+1': 0, '-1': 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0 },
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
    state_reason: item.closedAt === null ? null : 'completed',
  };
}

function pullObject(api: string, s: RepoState, item: IssueItem): Record<string, unknown> {
  const issue = issueObject(api, s, item);
  return {
    ...issue,
    url: `${api}/repos/${s.owner}/${s.name}/pulls/${item.number}`,
    merged_at: item.mergedAt,
    merge_commit_sha: item.mergedAt === null ? null : item.number.toString(16).padStart(40, '0'),
    head: { label: `${item.author.login}:patch-${item.number}`, ref: `patch-${item.number}`, sha: item.number.toString(16).padStart(40, 'a') },
    base: { label: `${s.owner}:${s.defaultBranch}`, ref: s.defaultBranch, sha: item.number.toString(16).padStart(40, 'b') },
  };
}

/** One page of `items` and the Link header GitHub sends with it. */
function paginate<T>(items: readonly T[], query: URLSearchParams, pageUrl: string, defaultPerPage = 30): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.max(1, Math.min(100, Number(query.get('per_page') ?? defaultPerPage) || defaultPerPage));
  const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (n: number, rel: string): string => {
    const q = new URLSearchParams(query);
    q.set('page', String(n));
    return `<${pageUrl}?${q.toString()}>; rel="${rel}"`;
  };
  const rels: string[] = [];
  if (page > 1) rels.push(link(page - 1, 'prev'), link(1, 'first'));
  if (page < last) rels.push(link(page + 1, 'next'), link(last, 'last'));
  return { page: items.slice((page - 1) * perPage, page * perPage), headers: rels.length > 0 ? { link: rels.join(', ') } : {} };
}

function contentObject(api: string, s: RepoState, file: RepoFile, withContent: boolean): Record<string, unknown> {
  const url = `${api}/repos/${s.owner}/${s.name}/contents/${file.path}?ref=${s.defaultBranch}`;
  const size = file.content === undefined ? 0 : Buffer.byteLength(file.content);
  const sha = Buffer.from(file.path).toString('hex').padEnd(40, '0').slice(0, 40);
  return {
    name: file.path.split('/').at(-1),
    path: file.path,
    sha,
    size,
    url,
    html_url: `https://github.com/${s.owner}/${s.name}/${file.type === 'dir' ? 'tree' : 'blob'}/${s.defaultBranch}/${file.path}`,
    git_url: `${api}/repos/${s.owner}/${s.name}/git/${file.type === 'dir' ? 'trees' : 'blobs'}/${sha}`,
    download_url: file.type === 'dir' ? null : `https://raw.githubusercontent.com/${s.owner}/${s.name}/${s.defaultBranch}/${file.path}`,
    type: file.type,
    ...(withContent && file.content !== undefined ? { content: `${Buffer.from(file.content).toString('base64')}\n`, encoding: 'base64' } : {}),
    _links: { self: url, git: `${api}/repos/${s.owner}/${s.name}/git/blobs/${sha}`, html: `https://github.com/${s.owner}/${s.name}/blob/${s.defaultBranch}/${file.path}` },
  };
}

function sinceFilter<T>(items: readonly T[], dateOf: (t: T) => string, since: string | null, until: string | null): T[] {
  return items.filter((t) => (since === null || dateOf(t) >= since) && (until === null || dateOf(t) <= until));
}

/** Routes below `/repos/{owner}/{repo}` that this server implements. */
const KNOWN_REPO_ROUTES =
  /^(\/?|\/(commits|releases|releases\/latest|tags|contributors|issues|pulls|community\/profile|readme|license|languages|topics|stats\/(commit_activity|contributors|participation))|\/contents(\/.*)?|\/git\/trees\/[^/]+)$/;

/**
 * Answer `GET {api}{path}?{query}` (path below the API base, e.g. `/repos/o/r/commits`).
 * `accept` is the request's Accept header (raw contents are asked with `vnd.github.raw`).
 */
export function answerRest(world: WorldModel, api: string, method: string, path: string, query: URLSearchParams, accept: string): RestAnswer {
  if (method !== 'GET') return notFound(false);
  if (path === '/rate_limit') {
    const core = { limit: 5000, used: 1, remaining: 4999, reset: Math.floor(world.now.getTime() / 1000) + 3600 };
    return { status: 200, body: { resources: { core, graphql: core, search: core }, rate: core }, known: true };
  }
  const match = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
  if (match === null) return notFound(false);
  const [, owner = '', name = '', rest = ''] = match;
  const s = repoState(world, owner, name);
  // A repository that does not exist is a real 404 only on a route this server implements.
  if (s === undefined) return notFound(KNOWN_REPO_ROUTES.test(rest));
  const base = `${api}/repos/${s.owner}/${s.name}`;
  const since = query.get('since');
  const until = query.get('until');

  if (rest === '' || rest === '/') return { status: 200, body: repositoryObject(api, s), known: true };
  if (rest === '/commits') {
    const list = sinceFilter(s.commits, (c) => c.date, since, until);
    const { page, headers } = paginate(list, query, `${base}/commits`);
    return { status: 200, body: page.map((c) => commitObject(api, s, c)), headers, known: true };
  }
  if (rest === '/releases') {
    const { page, headers } = paginate(s.releases, query, `${base}/releases`);
    return { status: 200, body: page.map((rel) => releaseObject(api, s, rel)), headers, known: true };
  }
  if (rest === '/releases/latest') {
    const latest = s.releases.find((rel) => !rel.prerelease);
    return latest === undefined ? notFound(true) : { status: 200, body: releaseObject(api, s, latest), known: true };
  }
  if (rest === '/tags') {
    const { page, headers } = paginate(s.releases, query, `${base}/tags`);
    return { status: 200, body: page.map((rel) => ({ name: rel.tag, commit: { sha: String(rel.id).padStart(40, '0'), url: `${base}/commits/${rel.id}` }, node_id: `REF_${rel.id}` })), headers, known: true };
  }
  if (rest === '/contributors') {
    const list = s.contributors.filter((c) => query.get('anon') === 'true' || !c.person.login.includes(' '));
    const { page, headers } = paginate(list, query, `${base}/contributors`);
    return { status: 200, body: page.map((c) => ({ ...userObject(api, c.person), contributions: c.contributions })), headers, known: true };
  }
  if (rest === '/issues') {
    const state = query.get('state') ?? 'open';
    let list = s.issues.filter((i) => state === 'all' || (state === 'open') === (i.closedAt === null));
    if (since !== null) list = list.filter((i) => (i.closedAt ?? i.firstResponseAt ?? i.createdAt) >= since || i.createdAt >= since);
    if (query.get('direction') === 'asc') list = [...list].reverse();
    const { page, headers } = paginate(list, query, `${base}/issues`);
    return { status: 200, body: page.map((i) => issueObject(api, s, i)), headers, known: true };
  }
  if (rest === '/pulls') {
    const state = query.get('state') ?? 'open';
    let list = s.issues.filter((i) => i.pull && (state === 'all' || (state === 'open') === (i.closedAt === null)));
    if (query.get('direction') === 'asc') list = [...list].reverse();
    const { page, headers } = paginate(list, query, `${base}/pulls`);
    return { status: 200, body: page.map((i) => pullObject(api, s, i)), headers, known: true };
  }
  if (rest === '/community/profile') {
    const file = (p: string) => {
      const f = s.files.get(p);
      return f === undefined ? null : { url: `${base}/contents/${p}`, html_url: `https://github.com/${s.owner}/${s.name}/blob/${s.defaultBranch}/${p}` };
    };
    return {
      status: 200,
      body: {
        health_percentage: s.healthPercentage,
        description: s.description,
        documentation: s.homepage,
        files: {
          code_of_conduct: s.files.has('CODE_OF_CONDUCT.md') ? { key: 'contributor_covenant', name: 'Contributor Covenant', url: `${api}/codes_of_conduct/contributor_covenant`, html_url: `https://github.com/${s.owner}/${s.name}/blob/${s.defaultBranch}/CODE_OF_CONDUCT.md` } : null,
          code_of_conduct_file: file('CODE_OF_CONDUCT.md'),
          contributing: file('CONTRIBUTING.md'),
          issue_template: file('.github/ISSUE_TEMPLATE/bug_report.md'),
          pull_request_template: file('.github/PULL_REQUEST_TEMPLATE.md'),
          license: s.license === null ? null : { key: s.license.toLowerCase(), name: s.license, spdx_id: s.license, url: `${api}/licenses/${s.license.toLowerCase()}`, html_url: `https://github.com/${s.owner}/${s.name}/blob/${s.defaultBranch}/LICENSE`, node_id: 'MDc6TGljZW5zZTEz' },
          readme: file('README.md'),
        },
        updated_at: s.pushedAt,
        content_reports_enabled: false,
      },
      known: true,
    };
  }
  if (rest === '/contents' || rest.startsWith('/contents/')) {
    const filePath = decodeURIComponent(rest.slice('/contents'.length)).replace(/^\/+|\/+$/g, '');
    if (filePath === '') return { status: 200, body: listDirectory(s, '').map((f) => contentObject(api, s, f, false)), known: true };
    const file = s.files.get(filePath);
    if (file === undefined) return notFound(true);
    if (file.type === 'dir') return { status: 200, body: listDirectory(s, filePath).map((f) => contentObject(api, s, f, false)), known: true };
    if (/vnd\.github(\.v3)?\.raw/.test(accept)) return { status: 200, body: null, raw: file.content ?? '', known: true };
    return { status: 200, body: contentObject(api, s, file, true), known: true };
  }
  if (rest === '/readme' || rest === '/license') {
    const file = s.files.get(rest === '/readme' ? 'README.md' : 'LICENSE');
    if (file === undefined) return notFound(true);
    if (/vnd\.github(\.v3)?\.raw/.test(accept)) return { status: 200, body: null, raw: file.content ?? '', known: true };
    return { status: 200, body: contentObject(api, s, file, true), known: true };
  }
  if (rest.startsWith('/git/trees/')) {
    const tree = [...s.files.values()].filter((f) => query.get('recursive') !== null || !f.path.includes('/'));
    return {
      status: 200,
      body: {
        sha: String(s.id).padStart(40, '0'),
        url: `${base}${rest}`,
        tree: tree.map((f) => ({ path: f.path, mode: f.type === 'dir' ? '040000' : '100644', type: f.type === 'dir' ? 'tree' : 'blob', sha: Buffer.from(f.path).toString('hex').padEnd(40, '0').slice(0, 40), ...(f.type === 'file' ? { size: Buffer.byteLength(f.content ?? '') } : {}), url: `${base}/git/blobs/${f.path}` })),
        truncated: false,
      },
      known: true,
    };
  }
  if (rest === '/stats/commit_activity') {
    const weekMs = 7 * 86_400_000;
    const start = world.now.getTime() - 52 * weekMs;
    const weeks = Array.from({ length: 52 }, (_, w) => {
      const from = start + w * weekMs;
      const days = Array.from({ length: 7 }, (_, d) => s.commits.filter((c) => Date.parse(c.date) >= from + d * 86_400_000 && Date.parse(c.date) < from + (d + 1) * 86_400_000).length);
      return { days, total: days.reduce((a, b) => a + b, 0), week: Math.floor(from / 1000) };
    });
    return { status: 200, body: weeks, known: true };
  }
  if (rest === '/stats/contributors') {
    return { status: 200, body: s.contributors.slice(0, 100).map((c) => ({ author: userObject(api, c.person), total: c.contributions, weeks: [] })), known: true };
  }
  if (rest === '/stats/participation') {
    const all = Array.from({ length: 52 }, (_, w) => s.commits.filter((c) => Math.floor((world.now.getTime() - Date.parse(c.date)) / (7 * 86_400_000)) === 51 - w).length);
    return { status: 200, body: { all, owner: all.map((n) => Math.floor(n / 2)) }, known: true };
  }
  if (rest === '/languages') return { status: 200, body: { JavaScript: s.size * 900, TypeScript: s.size * 100 }, known: true };
  if (rest === '/topics') return { status: 200, body: { names: s.topics }, known: true };
  return notFound(false);
}
