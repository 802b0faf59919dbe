/**
 * GitHub's GraphQL API over the synthetic repositories: `repository(owner:, name:)` (any
 * number of aliased ones per query, as a batched audit asks), `rateLimit` and `viewer`, with
 * the Repository fields a trust check reads — commit history windows, releases and assets,
 * issues and pull requests with comments and reviews, topics, licence, `object(expression:)`
 * blobs and trees. A field it does not model answers by its name's convention (`…Count` and
 * `totalCount` numbers, `is…`/`has…` false, `…At` null, connections empty), never an error.
 */
import type { WorldModel } from './model.js';
import { executeRequest, type ExecutionError, type GqlObject, type Resolved } from './graphql.js';
import { listDirectory, repoState, type Commit, type IssueItem, type Person, type Release, type RepoFile, type RepoState } from './repository.js';

type Resolver = (args: Record<string, unknown>, path: ReadonlyArray<string | number>) => Resolved;

/** An object whose unknown fields fall back to name conventions. */
function object(typename: string, fields: Record<string, Resolver>, implementsList: readonly string[] = []): GqlObject {
  return {
    __gql: true,
    typename,
    implements: implementsList,
    resolve(field, args, path) {
      const resolver = fields[field];
      return resolver === undefined ? conventional(field) : resolver(args, path);
    },
  };
}

function conventional(field: string): Resolved {
  if (field === 'totalCount' || /Count$/.test(field)) return 0;
  if (/^(is|has|viewer(Can|Has|Is))[A-Z]/.test(field)) return false;
  if (field === 'nodes' || field === 'edges') return [];
  if (field === 'pageInfo') return pageInfo(false, null);
  if (/(Connection|Items|Users|Requests|Issues|Labels|Assets|Comments|Reviews|Topics|Refs|Releases)$/.test(field)) return connection([], {}, () => null);
  return null;
}

function pageInfo(hasNextPage: boolean, endCursor: string | null): GqlObject {
  return object('PageInfo', {
    hasNextPage: () => hasNextPage,
    hasPreviousPage: () => false,
    endCursor: () => endCursor,
    startCursor: () => null,
  });
}

const cursorOf = (index: number): string => Buffer.from(`cursor:${index}`).toString('base64');
const indexOf = (cursor: unknown): number => {
  if (typeof cursor !== 'string') return -1;
  const m = /^cursor:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  return m === null ? -1 : Number(m[1]);
};

/** A connection over `items` honouring `first`, `last` and `after`. */
function connection<T>(items: readonly T[], args: Record<string, unknown>, node: (item: T) => Resolved): GqlObject {
  const start = indexOf(args.after) + 1;
  const first = typeof args.first === 'number' ? Math.max(0, Math.min(100, args.first)) : null;
  const last = typeof args.last === 'number' ? Math.max(0, Math.min(100, args.last)) : null;
  let window = items.slice(start);
  let offset = start;
  if (first !== null) window = window.slice(0, first);
  else if (last !== null) {
    offset += Math.max(0, window.length - last);
    window = window.slice(-last || window.length);
  } else window = window.slice(0, 100);
  const end = offset + window.length - 1;
  return object(`${'Connection'}`, {
    totalCount: () => items.length,
    nodes: () => window.map(node),
    edges: () => window.map((item, i) => object('Edge', { node: () => node(item), cursor: () => cursorOf(offset + i) })),
    pageInfo: () => pageInfo(end < items.length - 1, window.length === 0 ? null : cursorOf(end)),
  });
}

function actor(p: Person): GqlObject {
  return object(p.bot ? 'Bot' : 'User', {
    login: () => p.login.replace(/\[bot\]$/, ''),
    url: () => `https://github.com/${p.login}`,
    id: () => `U_${p.id}`,
    databaseId: () => p.id,
    name: () => p.login,
    avatarUrl: () => `https://avatars.githubusercontent.com/u/${p.id}?v=4`,
  }, ['Actor']);
}

function commitObject(c: Commit): GqlObject {
  const gitActor = object('GitActor', {
    name: () => c.author.login,
    email: () => `${c.author.login}@users.noreply.github.com`,
    date: () => c.date,
    user: () => (c.author.bot ? null : actor(c.author)),
  });
  return object('Commit', {
    oid: () => c.sha,
    abbreviatedOid: () => c.sha.slice(0, 7),
    committedDate: () => c.date,
    authoredDate: () => c.date,
    pushedDate: () => c.date,
    message: () => c.message,
    messageHeadline: () => c.message,
    author: () => gitActor,
    committer: () => gitActor,
    authors: (args) => connection([gitActor], args, (a) => a),
    url: () => `https://github.com/commit/${c.sha}`,
  }, ['GitObject']);
}

function headCommit(s: RepoState): GqlObject {
  const head = s.commits[0];
  const base = head === undefined ? null : commitObject(head);
  return object('Commit', {
    oid: () => head?.sha ?? '0'.repeat(40),
    committedDate: () => head?.date ?? s.createdAt,
    authoredDate: () => head?.date ?? s.createdAt,
    message: () => head?.message ?? '',
    author: (args, path) => (base === null ? null : base.resolve('author', args, path)),
    history: (args) => {
      const since = typeof args.since === 'string' ? args.since : null;
      const until = typeof args.until === 'string' ? args.until : null;
      const list = s.commits.filter((c) => (since === null || c.date >= since) && (until === null || c.date <= until));
      return connection(list, args, commitObject);
    },
  }, ['GitObject']);
}

function releaseObject(s: RepoState, rel: Release, latest: boolean): GqlObject {
  return object('Release', {
    tagName: () => rel.tag,
    name: () => rel.tag,
    publishedAt: () => rel.publishedAt,
    createdAt: () => rel.publishedAt,
    isDraft: () => false,
    isPrerelease: () => rel.prerelease,
    isLatest: () => latest,
    url: () => `https://github.com/${s.owner}/${s.name}/releases/tag/${rel.tag}`,
    releaseAssets: (args) =>
      connection(rel.assets, args, (name) =>
        object('ReleaseAsset', {
          name: () => name,
          size: () => 2048,
          downloadCount: () => 3,
          contentType: () => 'application/octet-stream',
          downloadUrl: () => `https://github.com/${s.owner}/${s.name}/releases/download/${rel.tag}/${name}`,
        }),
      ),
  }, ['Node']);
}

function commentsOf(item: IssueItem): Array<{ at: string; who: Person }> {
  if (item.firstResponseAt === null || item.responder === null) return [];
  const out = [{ at: item.firstResponseAt, who: item.responder }];
  for (let i = 1; i < item.comments; i++) out.push({ at: new Date(Date.parse(item.firstResponseAt) + i * 3_600_000).toISOString(), who: i % 2 === 0 ? item.responder : item.author });
  return out;
}

function issueObject(s: RepoState, item: IssueItem): GqlObject {
  const comments = commentsOf(item);
  const comment = (c: { at: string; who: Person }) =>
    object('IssueComment', { createdAt: () => c.at, publishedAt: () => c.at, author: () => actor(c.who), authorAssociation: () => (c.who === item.responder ? 'OWNER' : 'NONE') });
  const state = item.mergedAt !== null ? 'MERGED' : item.closedAt !== null ? 'CLOSED' : 'OPEN';
  const fields: Record<string, Resolver> = {
    number: () => item.number,
    title: () => item.title,
    url: () => `https://github.com/${s.owner}/${s.name}/${item.pull ? 'pull' : 'issues'}/${item.number}`,
    createdAt: () => item.createdAt,
    closedAt: () => item.closedAt,
    updatedAt: () => item.closedAt ?? item.firstResponseAt ?? item.createdAt,
    closed: () => item.closedAt !== null,
    state: () => (item.pull ? state : state === 'MERGED' ? 'CLOSED' : state),
    author: () => actor(item.author),
    authorAssociation: () => 'NONE',
    comments: (args) => connection(comments, args, comment),
  };
  if (item.pull) {
    Object.assign(fields, {
      merged: () => item.mergedAt !== null,
      mergedAt: () => item.mergedAt,
      isDraft: () => false,
      reviews: (args: Record<string, unknown>) =>
        connection(comments.slice(0, 1), args, (c) => object('PullRequestReview', { createdAt: () => c.at, submittedAt: () => c.at, author: () => actor(c.who), state: () => 'COMMENTED' })),
    });
  }
  return object(item.pull ? 'PullRequest' : 'Issue', fields, ['Node', 'Closable', 'Comment']);
}

/** `HEAD:path` / `main:path` → the blob or tree at that path, or null. */
function gitObject(s: RepoState, expression: unknown): GqlObject | null {
  if (typeof expression !== 'string') return null;
  const colon = expression.indexOf(':');
  const path = (colon === -1 ? '' : expression.slice(colon + 1)).replace(/^\/+|\/+$/g, '');
  if (path === '') return treeObject(s, '');
  const file = s.files.get(path);
  if (file === undefined) return null;
  return file.type === 'dir' ? treeObject(s, path) : blobObject(file);
}

function blobObject(file: RepoFile): GqlObject {
  const text = file.content ?? '';
  return object('Blob', {
    text: () => text,
    byteSize: () => Buffer.byteLength(text),
    isBinary: () => false,
    isTruncated: () => false,
    oid: () => Buffer.from(file.path).toString('hex').padEnd(40, '0').slice(0, 40),
  }, ['GitObject']);
}

function treeObject(s: RepoState, dir: string): GqlObject {
  return object('Tree', {
    oid: () => Buffer.from(`tree:${dir}`).toString('hex').padEnd(40, '0').slice(0, 40),
    entries: () =>
      listDirectory(s, dir).map((f) =>
        object('TreeEntry', {
          name: () => f.path.split('/').at(-1) ?? f.path,
          path: () => f.path,
          type: () => (f.type === 'dir' ? 'tree' : 'blob'),
          mode: () => (f.type === 'dir' ? 16384 : 33188),
          extension: () => (/\.[^./]+$/.exec(f.path)?.[0] ?? ''),
          object: () => (f.type === 'dir' ? treeObject(s, f.path) : blobObject(f)),
        }),
      ),
  }, ['GitObject']);
}

function states(args: Record<string, unknown>): string[] | null {
  const value = args.states;
  if (value === null || value === undefined) return null;
  return (Array.isArray(value) ? value : [value]).map(String);
}

function issueList(s: RepoState, args: Record<string, unknown>, pulls: boolean): IssueItem[] {
  const wanted = states(args);
  const filterBy = (typeof args.filterBy === 'object' && args.filterBy !== null ? args.filterBy : {}) as Record<string, unknown>;
  const since = typeof filterBy.since === 'string' ? filterBy.since : null;
  const orderBy = (typeof args.orderBy === 'object' && args.orderBy !== null ? args.orderBy : {}) as Record<string, unknown>;
  let list = s.issues.filter((i) => i.pull === pulls);
  if (wanted !== null) {
    list = list.filter((i) => {
      const state = i.mergedAt !== null ? (pulls ? 'MERGED' : 'CLOSED') : i.closedAt !== null ? 'CLOSED' : 'OPEN';
      return wanted.includes(state);
    });
  }
  if (since !== null) list = list.filter((i) => (i.closedAt ?? i.firstResponseAt ?? i.createdAt) >= since || i.createdAt >= since);
  return orderBy.direction === 'ASC' ? [...list].reverse() : list;
}

function repositoryObject(s: RepoState): GqlObject {
  const latest = s.releases.find((r) => !r.prerelease) ?? null;
  const count = (n: number) => object('Connection', { totalCount: () => n, nodes: () => [], edges: () => [], pageInfo: () => pageInfo(false, null) });
  const named = (name: string) => object('Named', { name: () => name, key: () => name.toLowerCase(), spdxId: () => name, url: () => null, body: () => '' });
  return object('Repository', {
    id: () => `R_kgDO${s.id}`,
    databaseId: () => s.id,
    name: () => s.name,
    nameWithOwner: () => `${s.owner}/${s.name}`,
    owner: () => object(s.ownerIsOrg ? 'Organization' : 'User', { login: () => s.owner, url: () => `https://github.com/${s.owner}` }, ['RepositoryOwner']),
    url: () => `https://github.com/${s.owner}/${s.name}`,
    description: () => s.description,
    homepageUrl: () => s.homepage,
    isArchived: () => s.archived,
    archivedAt: () => (s.archived ? s.pushedAt : null),
    isDisabled: () => false,
    isFork: () => false,
    isPrivate: () => false,
    isEmpty: () => s.commits.length === 0,
    isLocked: () => false,
    isMirror: () => false,
    isTemplate: () => false,
    isSecurityPolicyEnabled: () => s.files.has('SECURITY.md') || s.files.has('.github/SECURITY.md'),
    securityPolicyUrl: () => (s.files.has('SECURITY.md') || s.files.has('.github/SECURITY.md') ? `https://github.com/${s.owner}/${s.name}/security/policy` : null),
    hasIssuesEnabled: () => true,
    hasWikiEnabled: () => false,
    hasDiscussionsEnabled: () => false,
    createdAt: () => s.createdAt,
    pushedAt: () => s.pushedAt,
    updatedAt: () => s.pushedAt,
    stargazerCount: () => s.stars,
    forkCount: () => s.forks,
    diskUsage: () => s.size,
    stargazers: () => count(s.stars),
    forks: () => count(s.forks),
    watchers: () => count(s.watchers),
    mentionableUsers: () => count(s.contributors.filter((c) => !c.person.bot).length),
    assignableUsers: () => count(Math.min(50, s.contributors.length)),
    licenseInfo: () => (s.license === null ? null : named(s.license)),
    primaryLanguage: () => named('JavaScript'),
    codeOfConduct: () => (s.files.has('CODE_OF_CONDUCT.md') ? named('Contributor Covenant') : null),
    contributingGuidelines: () => (s.files.has('CONTRIBUTING.md') ? object('ContributingGuidelines', { body: () => s.files.get('CONTRIBUTING.md')?.content ?? '', url: () => null }) : null),
    issueTemplates: () => (s.files.has('.github/ISSUE_TEMPLATE/bug_report.md') ? [object('IssueTemplate', { name: () => 'Bug report', body: () => '', filename: () => 'bug_report.md' })] : []),
    pullRequestTemplates: () => (s.files.has('.github/PULL_REQUEST_TEMPLATE.md') ? [object('PullRequestTemplate', { body: () => '## What', filename: () => 'PULL_REQUEST_TEMPLATE.md' })] : []),
    repositoryTopics: (args) => connection(s.topics, args, (t) => object('RepositoryTopic', { topic: () => object('Topic', { name: () => t }), url: () => `https://github.com/topics/${t}` })),
    defaultBranchRef: () => object('Ref', { name: () => s.defaultBranch, prefix: () => 'refs/heads/', target: () => headCommit(s) }),
    releases: (args) => connection(s.releases, args, (rel) => releaseObject(s, rel, rel === latest)),
    latestRelease: () => (latest === null ? null : releaseObject(s, latest, true)),
    refs: (args) => connection(s.releases, args, (rel) => object('Ref', { name: () => rel.tag, prefix: () => 'refs/tags/' })),
    issues: (args) => connection(issueList(s, args, false), args, (i) => issueObject(s, i)),
    pullRequests: (args) => connection(issueList(s, args, true), args, (i) => issueObject(s, i)),
    object: (args) => gitObject(s, args.expression),
    fundingLinks: () => [],
    collaborators: () => null,
    vulnerabilityAlerts: () => null,
  }, ['Node', 'RepositoryInfo']);
}

function rootObject(world: WorldModel, errors: ExecutionError[]): GqlObject {
  return object('Query', {
    repository: (args, path) => {
      const owner = typeof args.owner === 'string' ? args.owner : '';
      const name = typeof args.name === 'string' ? args.name : '';
      const s = repoState(world, owner, name);
      if (s === undefined) {
        errors.push({ type: 'NOT_FOUND', path: [...path], message: `Could not resolve to a Repository with the name '${owner}/${name}'.` });
        return null;
      }
      return repositoryObject(s);
    },
    rateLimit: () =>
      object('RateLimit', {
        cost: () => 1,
        limit: () => 5000,
        remaining: () => 4999,
        used: () => 1,
        nodeCount: () => 0,
        resetAt: () => new Date(world.now.getTime() + 3_600_000).toISOString(),
      }),
    viewer: () => object('User', { login: () => 'bench-user', id: () => 'U_bench' }),
    node: () => null,
    nodes: () => [],
  });
}

/** Answer one GraphQL POST body (`{ query, variables, operationName }`). */
export function answerGraphql(world: WorldModel, body: unknown): { data: unknown; errors?: ExecutionError[] } {
  const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const query = typeof request.query === 'string' ? request.query : '';
  const variables = (typeof request.variables === 'object' && request.variables !== null ? request.variables : {}) as Record<string, unknown>;
  const operationName = typeof request.operationName === 'string' ? request.operationName : null;
  return executeRequest((errors) => rootObject(world, errors), query, variables, operationName);
}
