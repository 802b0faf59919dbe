/**
 * One synthetic GitHub repository's history and files, decided from the seed: commits, releases,
 * contributors, issues and pull requests, community and CI files. The REST and GraphQL
 * renderers (github-rest.ts, graphql.ts) both read this, so the two APIs tell the same story.
 */
import { streamFor, type Random } from '../random.js';
import { DAY_MS, type RepositoryFacts, type WorldModel } from './model.js';
import { PERSON_WORDS, TOPICS } from './words.js';

export interface Person {
  login: string;
  id: number;
  bot: boolean;
}

export interface Commit {
  sha: string;
  date: string;
  author: Person;
  message: string;
}

export interface Release {
  id: number;
  tag: string;
  publishedAt: string;
  prerelease: boolean;
  assets: string[];
}

export interface IssueItem {
  number: number;
  pull: boolean;
  createdAt: string;
  closedAt: string | null;
  mergedAt: string | null;
  author: Person;
  comments: number;
  /** First response by someone else (comment or review), when any. */
  firstResponseAt: string | null;
  responder: Person | null;
  title: string;
}

export interface RepoFile {
  path: string;
  type: 'file' | 'dir';
  content?: string;
}

export interface RepoState {
  key: string;
  owner: string;
  name: string;
  id: number;
  ownerId: number;
  ownerIsOrg: boolean;
  description: string;
  createdAt: string;
  pushedAt: string;
  archived: boolean;
  defaultBranch: string;
  stars: number;
  forks: number;
  watchers: number;
  openIssues: number;
  license: string | null;
  topics: string[];
  homepage: string | null;
  size: number;
  /** Newest first. */
  commits: Commit[];
  /** Newest first. */
  releases: Release[];
  /** By contributions, most first. */
  contributors: Array<{ person: Person; contributions: number }>;
  /** Newest first. */
  issues: IssueItem[];
  files: Map<string, RepoFile>;
  healthPercentage: number;
}

const cache = new WeakMap<WorldModel, Map<string, RepoState>>();

/** The repository `owner/name` (any case), or undefined when the world has none by that name. */
export function repoState(world: WorldModel, owner: string, name: string): RepoState | undefined {
  const key = `${owner}/${name}`.toLowerCase();
  let states = cache.get(world);
  if (states === undefined) {
    states = new Map();
    cache.set(world, states);
  }
  const known = states.get(key);
  if (known !== undefined) return known;
  const facts = world.repositories.get(key);
  if (facts === undefined) return undefined;
  const state = buildState(world, key, facts);
  states.set(key, state);
  return state;
}

function person(r: Random, pool: readonly Person[]): Person {
  return r.pick(pool);
}

function buildState(world: WorldModel, key: string, facts: RepositoryFacts): RepoState {
  const r = streamFor(world.seed, 'repo', key);
  const now = world.now.getTime();
  const specs = facts.packages.map((p) => world.byName.get(p.name)).filter((s) => s !== undefined);
  const big = specs.some((s) => s.big);
  const firstPublish = Math.min(...specs.map((s) => Date.parse(s.versions[0]?.time ?? world.now.toISOString())));
  const lastPublish = Math.max(...specs.map((s) => Date.parse(s.versions.at(-1)?.time ?? world.now.toISOString())));
  const createdAt = new Date(firstPublish - r.int(1, 60) * DAY_MS).toISOString();
  const archived = !big && r.chance(0.03);

  // People: a core team, occasional contributors, and bots.
  const teamSize = big ? r.int(20, 60) : Math.max(1, Math.round(r.logNormal(3, 0.8)));
  const people: Person[] = Array.from({ length: teamSize }, (_, i) => ({
    login: i === 0 ? facts.owner : `${r.pick(PERSON_WORDS)}${r.int(1, 9999)}`,
    id: r.int(1000, 150_000_000),
    bot: false,
  }));
  const bots: Person[] = [
    { login: 'dependabot[bot]', id: 49699333, bot: true },
    { login: 'renovate[bot]', id: 29139614, bot: true },
  ];

  const yearCommits = archived ? 0 : Math.round(big ? r.logNormal(1200, 0.4) : r.logNormal(30, 1.2));
  const lastActivity = archived ? now - r.int(400, 1500) * DAY_MS : Math.max(lastPublish, now - r.int(0, 90) * DAY_MS);
  const commits: Commit[] = [];
  for (let i = 0; i < Math.min(yearCommits + r.int(5, 40), 3000); i++) {
    const t = lastActivity - (i < yearCommits ? (i * (lastActivity - (now - 365 * DAY_MS))) / Math.max(1, yearCommits) : (365 + (i - yearCommits) * 9) * DAY_MS);
    const author = r.chance(0.15) ? person(r, bots) : people[Math.min(people.length - 1, Math.floor(people.length * r.next() ** 3))]!;
    commits.push({ sha: r.hex(40), date: new Date(Math.min(t, now)).toISOString(), author, message: `${r.pick(['fix', 'feat', 'chore', 'docs', 'refactor', 'test'])}: ${r.pick(PERSON_WORDS)} ${r.int(1, 999)}` });
  }
  commits.sort((a, b) => (a.date < b.date ? 1 : -1));

  const releases: Release[] = [];
  const releaseCount = Math.min(big ? 100 : 30, specs.reduce((n, s) => n + s.versions.length, 0));
  const signed = r.chance(big ? 0.5 : 0.08);
  const versions = specs.flatMap((s) => s.versions).sort((a, b) => (a.time < b.time ? 1 : -1));
  for (const v of versions.slice(0, releaseCount)) {
    releases.push({
      id: r.int(1e7, 2e8),
      tag: `v${v.version}`,
      publishedAt: v.time,
      prerelease: v.version.includes('-'),
      assets: signed ? [`${facts.name}-${v.version}.tgz`, `${facts.name}-${v.version}.tgz.sigstore`, 'multiple.intoto.jsonl'] : [],
    });
  }

  const contributions = new Map<string, { person: Person; contributions: number }>();
  for (const c of commits) {
    const entry = contributions.get(c.author.login) ?? { person: c.author, contributions: 0 };
    entry.contributions += 1;
    contributions.set(c.author.login, entry);
  }
  // Contributors older than the sampled commits.
  for (let i = 0; i < (big ? r.int(300, 900) : r.int(0, 12)); i++) {
    const p: Person = { login: `${r.pick(PERSON_WORDS)}-${r.int(1, 99999)}`, id: r.int(1000, 150_000_000), bot: false };
    contributions.set(p.login, { person: p, contributions: r.int(1, 5) });
  }
  const contributors = [...contributions.values()].sort((a, b) => b.contributions - a.contributions);

  const issueCount = archived ? 0 : Math.round(big ? r.logNormal(250, 0.4) : r.logNormal(6, 1.1));
  const issues: IssueItem[] = [];
  for (let i = 0; i < issueCount; i++) {
    const createdAt = now - r.next() * 180 * DAY_MS;
    const pull = r.chance(0.45);
    const author = pull && r.chance(0.3) ? person(r, bots) : ({ login: `${r.pick(PERSON_WORDS)}${r.int(1, 99999)}`, id: r.int(1000, 150_000_000), bot: false } as Person);
    const responded = r.chance(0.75);
    const firstResponseAt = responded ? Math.min(now, createdAt + r.logNormal(20, 1.5) * 3_600_000) : null;
    const closed = r.chance(pull ? 0.8 : 0.6);
    const closedAt = closed ? Math.min(now, createdAt + r.logNormal(72, 1.5) * 3_600_000) : null;
    const merged = pull && closed && r.chance(0.75);
    issues.push({
      number: 0,
      pull,
      createdAt: new Date(createdAt).toISOString(),
      closedAt: closedAt === null ? null : new Date(closedAt).toISOString(),
      mergedAt: merged && closedAt !== null ? new Date(closedAt).toISOString() : null,
      author,
      comments: responded ? r.int(1, 12) : 0,
      firstResponseAt: firstResponseAt === null ? null : new Date(firstResponseAt).toISOString(),
      responder: responded ? people[0]! : null,
      title: `${r.pick(['Bug', 'Question', 'Feature', 'Docs', 'Crash'])}: ${r.pick(PERSON_WORDS)} ${r.int(1, 999)}`,
    });
  }
  issues.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  const base = r.int(10, big ? 40_000 : 400);
  issues.forEach((issue, i) => (issue.number = base + issues.length - i));

  const has = {
    contributing: r.chance(big ? 0.95 : 0.3),
    conduct: r.chance(big ? 0.9 : 0.2),
    security: r.chance(big ? 0.9 : 0.15),
    issueTemplate: r.chance(big ? 0.9 : 0.25),
    prTemplate: r.chance(big ? 0.8 : 0.15),
    workflows: r.chance(0.75) ? r.int(1, big ? 12 : 3) : 0,
    dependabot: r.chance(0.3),
    renovate: r.chance(0.1),
    travis: r.chance(0.05),
  };
  const files = repoFiles(facts, has, specs.map((s) => ({ name: s.name, version: s.latest })), r);
  const community = [true, has.contributing, has.conduct, has.issueTemplate, has.prTemplate, true].filter(Boolean).length;

  return {
    key,
    owner: facts.owner,
    name: facts.name,
    id: r.int(1e6, 9e8),
    ownerId: r.int(1e4, 2e8),
    ownerIsOrg: facts.packages.length > 1 || r.chance(0.3),
    description: specs[0]?.description ?? '',
    createdAt,
    pushedAt: commits[0]?.date ?? createdAt,
    archived,
    defaultBranch: r.chance(0.8) ? 'main' : 'master',
    stars: Math.round(big ? r.logNormal(40_000, 0.7) : r.logNormal(60, 2)),
    forks: Math.round(big ? r.logNormal(5_000, 0.7) : r.logNormal(8, 1.8)),
    watchers: Math.round(big ? r.logNormal(800, 0.5) : r.logNormal(4, 1.2)),
    openIssues: issues.filter((i) => i.closedAt === null).length + r.int(0, 20),
    license: r.chance(0.95) ? facts.license : null,
    topics: Array.from(new Set(Array.from({ length: r.int(0, 6) }, () => r.pick(TOPICS)))),
    homepage: r.chance(0.3) ? `https://${facts.owner}.github.io/${facts.name}` : null,
    size: r.int(50, big ? 500_000 : 20_000),
    commits,
    releases,
    contributors,
    issues,
    files,
    healthPercentage: Math.round((community / 6) * 100),
  };
}

function repoFiles(
  facts: RepositoryFacts,
  has: { contributing: boolean; conduct: boolean; security: boolean; issueTemplate: boolean; prTemplate: boolean; workflows: number; dependabot: boolean; renovate: boolean; travis: boolean },
  packages: Array<{ name: string; version: string }>,
  r: Random,
): Map<string, RepoFile> {
  const files = new Map<string, RepoFile>();
  const add = (path: string, content: string): void => {
    files.set(path, { path, type: 'file', content });
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      files.set(dir, { path: dir, type: 'dir' });
    }
  };
  add('README.md', `# ${facts.name}\n\n${'Documentation. '.repeat(r.int(20, 200))}\n`);
  add('LICENSE', `${facts.license} licence text\n`);
  add('.gitignore', 'node_modules/\ndist/\ncoverage/\n');
  add('CHANGELOG.md', `# Changelog\n\n${packages.map((p) => `## ${p.version}\n\n- Fixes.\n`).join('\n')}`);
  const monorepo = facts.packages.some((p) => p.directory !== null);
  if (monorepo) {
    add('package.json', `${JSON.stringify({ name: `${facts.name}-monorepo`, private: true, workspaces: ['packages/*'], devDependencies: { typescript: '^5.4.0' } }, null, 2)}\n`);
    for (const p of facts.packages) {
      const version = packages.find((x) => x.name === p.name)?.version ?? '1.0.0';
      add(`${p.directory ?? '.'}/package.json`, `${JSON.stringify({ name: p.name, version, main: 'index.js' }, null, 2)}\n`);
      add(`${p.directory ?? '.'}/index.js`, "'use strict';\nmodule.exports = {};\n");
    }
  } else {
    const only = packages[0] ?? { name: facts.name, version: '1.0.0' };
    add('package.json', `${JSON.stringify({ name: only.name, version: only.version, main: 'index.js', scripts: { test: 'vitest run' } }, null, 2)}\n`);
    add('index.js', "'use strict';\nmodule.exports = {};\n");
    add('test/index.test.js', "import { test } from 'vitest';\ntest('works', () => {});\n");
  }
  if (has.contributing) add('CONTRIBUTING.md', '# Contributing\n\nPull requests welcome.\n');
  if (has.conduct) add('CODE_OF_CONDUCT.md', '# Contributor Covenant Code of Conduct\n');
  if (has.security) add(r.chance(0.5) ? 'SECURITY.md' : '.github/SECURITY.md', '# Security policy\n\nReport vulnerabilities privately.\n');
  if (has.issueTemplate) add('.github/ISSUE_TEMPLATE/bug_report.md', '---\nname: Bug report\n---\n');
  if (has.prTemplate) add('.github/PULL_REQUEST_TEMPLATE.md', '## What\n\n## Why\n');
  for (let i = 0; i < has.workflows; i++) add(`.github/workflows/${['ci', 'release', 'codeql', 'lint', 'docs'][i % 5]}${i >= 5 ? i : ''}.yml`, 'on: [push]\njobs: {}\n');
  if (has.dependabot) add('.github/dependabot.yml', 'version: 2\nupdates: []\n');
  if (has.renovate) add('renovate.json', '{"extends": ["config:recommended"]}\n');
  if (has.travis) add('.travis.yml', 'language: node_js\n');
  return files;
}

/** Entries directly inside `dir` ('' = the root), sorted as GitHub lists them. */
export function listDirectory(state: RepoState, dir: string): RepoFile[] {
  const prefix = dir === '' ? '' : `${dir}/`;
  return [...state.files.values()]
    .filter((f) => f.path.startsWith(prefix) && f.path !== dir && !f.path.slice(prefix.length).includes('/'))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}
