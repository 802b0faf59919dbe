/**
 * Set-up for the end-to-end GitHub CLI tests: the acme/widget repository served over REST (no
 * token) or GraphQL (with one) from the recorded-shape fixtures under fixtures/http/github, and
 * an npm package built here (packument and tarball) whose `repository` is that repository.
 *
 * The GitHub fixtures are dated relative to 2026-06-01, so these runs set NERQ_NOW to the GitHub
 * source tests' clock (test/github/helpers.ts NOW).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES_ROOT, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';
import { makeTarball } from '../support/tarball.js';
import { commitsLink, GH_SHA, graphqlFilesAnswer, NOW, rateHeaders, serveHistory, serveRepo, TOKEN, widgetCommits } from '../github/helpers.js';
import { downloadsPath, osvNoAdvisories, packumentPath } from './helpers.js';

export { GH_SHA, TOKEN };

/** NERQ_NOW for every GitHub run: the instant the fixtures' commits, issues and releases are dated from. */
export const GITHUB_NOW = NOW.toISOString();

/** The repository's REST routes without the query, for a package's repository and a target alike. */
export const WIDGET_REST_REPOSITORY = [
  'GET /github/repos/acme/widget',
  'GET /github/repos/acme/widget/commits',
  'GET /github/repos/acme/widget/releases',
  'GET /github/repos/acme/widget/issues',
  'GET /github/repos/acme/widget/community/profile',
  'GET /github/repos/acme/widget/contents',
  `GET /github/repos/acme/widget/git/trees/${GH_SHA}`,
] as const;

/**
 * A `github:` target's listings (sources/github/repo-files.ts): the recursive tree by branch, the
 * tags and when its history starts (two commit listings) — REST with a token or without.
 */
export const WIDGET_TARGET_LISTINGS = [
  'GET /github/repos/acme/widget/git/trees/main',
  // When its history starts (repo-history.ts): the first page of two commits, then the last.
  'GET /github/repos/acme/widget/commits',
  'GET /github/repos/acme/widget/commits',
  'GET /github/repos/acme/widget/tags',
  // Its .github/SECURITY.md names only private reporting: GitHub says whether it is on (private-reporting.ts), with a token too.
  'GET /github/repos/acme/widget/private-vulnerability-reporting',
] as const;

/** The files that matter — README, LICENSE, package.json, SECURITY.md: one REST request each without a token; with one, in the workflows' GraphQL query. */
export const WIDGET_TARGET_FILE_READS = [
  'GET /github/repos/acme/widget/contents/README.md',
  'GET /github/repos/acme/widget/contents/LICENSE',
  'GET /github/repos/acme/widget/contents/package.json',
  'GET /github/repos/acme/widget/contents/.github/SECURITY.md',
] as const;

/** A `github:` target's routes beyond the repository's without a token: its listings, then its own files. */
export const WIDGET_TARGET_FILES = [...WIDGET_TARGET_LISTINGS, ...WIDGET_TARGET_FILE_READS] as const;

/** Its three workflows (sources/github/workflow-files.ts): one REST request each without a token; with one, a single GraphQL query. */
export const WIDGET_TARGET_WORKFLOWS = [
  'GET /github/repos/acme/widget/contents/.github/workflows/ci.yml',
  'GET /github/repos/acme/widget/contents/.github/workflows/codeql.yaml',
  'GET /github/repos/acme/widget/contents/.github/workflows/release.yml',
] as const;

/**
 * Its README advertises `npm install -g widget`, whose packument links back: the registry is asked
 * once and the link verifier reads the folders from the tree listing and package.json from the
 * text already read (repository-distribution.ts, tree-file-source.ts): no GitHub request of its own.
 */
export const WIDGET_TARGET_DISTRIBUTION = [] as const;

export const WIDGET_REST_TARGET = [...WIDGET_REST_REPOSITORY, ...WIDGET_TARGET_FILES, ...WIDGET_TARGET_WORKFLOWS] as const;

/**
 * acme/widget over REST — or its answers renamed to `fullName` for another repository; `manifest`
 * adds the raw package.json a package's link check reads.
 */
export function serveWidgetRest(server: FixtureServer, options: { manifest: boolean }, fullName = 'acme/widget'): void {
  serveRepo(server, fullName, options.manifest ? {} : { skip: ['manifest'] });
  serveAdvertisedWidget(server);
}

/** The npm package acme/widget's README advertises (`widget`), linking back to acme/widget: the same packument as `serveNpmWidget`'s. */
export function serveAdvertisedWidget(server: FixtureServer): void {
  const integrity = `sha512-${createHash('sha512').update(widgetTarball('widget')).digest('base64')}`;
  server.expect('GET', packumentPath('widget'), { body: widgetPackument('widget', integrity) });
}

/**
 * acme/widget with a token: the GraphQL query (and the REST community profile, which a GraphQL run
 * never asks for). `extra` fields replace the recorded repository's (an edit the caller names).
 */
export function serveWidgetGraphql(server: FixtureServer, extra: Record<string, unknown> = {}): void {
  // The repository query from its recorded answer; the workflows' one query (NerqFiles) from the files.
  const recorded = readFileSync(path.join(FIXTURES_ROOT, 'github', 'graphql', 'acme-widget.json'), 'utf8');
  server.route('POST', '/github/graphql', (_req, res, { body }) => {
    const files = graphqlFilesAnswer(server, 'acme/widget', body.toString('utf8'));
    const filled = recorded.replaceAll('{{ORIGIN}}', server.origin).replaceAll('{{REGISTRY}}', `${server.origin}/npm`);
    const edited = (): string => {
      const answer = JSON.parse(filled) as { data: { r0: Record<string, unknown> } };
      return JSON.stringify({ ...answer, data: { ...answer.data, r0: { ...answer.data.r0, ...extra } } });
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(files === null ? (Object.keys(extra).length === 0 ? filled : edited()) : JSON.stringify(files));
  });
  server.expect('GET', '/github/repos/acme/widget/community/profile', { fixture: 'github/repos/acme/widget/community/profile' });
  // A target's listings are read through REST with the token as well, its files in the workflows' query (sources/github/repo-files.ts).
  serveHistory(server, 'acme/widget');
  for (const route of WIDGET_TARGET_LISTINGS) {
    if (route.endsWith('/commits')) continue;
    const suffix = route.slice('GET /github/repos/acme/widget'.length);
    server.expect('GET', `/github/repos/acme/widget${suffix}`, { fixture: `github/repos/acme/widget${suffix}` });
  }
  // The advertised package's link is verified over REST too: the root listing, then package.json.
  server.expect('GET', '/github/repos/acme/widget/contents', { fixture: 'github/repos/acme/widget/contents' });
  serveAdvertisedWidget(server);
}

// ---------------------------------------------------------------------------------------------
// A pinned ref of acme/widget (`github:acme/widget@release/3.x`: sources/github/ref-commit.ts)

/** The commit `release/3.x` names: acme/widget's third newest (2026-05-02), whose tree is 3c3c…. */
export const PINNED = 'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3';
export const WIDGET_API = '/github/repos/acme/widget';
export const PINNED_WORKFLOWS = ['.github/workflows/ci.yml', '.github/workflows/codeql.yaml', '.github/workflows/release.yml'];

/** acme/widget, and what its ref `release/3.x`, the missing ref `no-such-ref` and the refused `refused-ref` answer. */
export function servePinnedWidget(server: FixtureServer): void {
  // The history from the pinned commit: its 9 commits two to a page, newest first (repo-history.ts);
  // declared before the repository's routes, whose `…/commits` answers any other query.
  const commits = widgetCommits().slice(2);
  server.expect('GET', `${WIDGET_API}/commits?per_page=2&sha=${PINNED}`, { body: commits.slice(0, 2), headers: { link: commitsLink(1, 5) } });
  server.expect('GET', `${WIDGET_API}/commits?page=5&per_page=2&sha=${PINNED}`, { body: commits.slice(8), headers: { link: commitsLink(5, 5) } });
  serveWidgetRest(server, { manifest: true });
  server.expect('GET', `${WIDGET_API}/commits/release%2F3.x`, { fixture: 'github/repos/acme/widget/commits/release-3.x.sha.txt' });
  server.expect('GET', `${WIDGET_API}/commits/no-such-ref`, { status: 422, fixture: 'github/repos/acme/widget/commits/no-such-ref.422.json' });
  // A ref GitHub refuses to resolve (HTTP 403, not a rate limit): its files cannot be read.
  server.expect('GET', `${WIDGET_API}/commits/refused-ref`, { status: 403, body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/commits/commits#get-a-commit', status: '403' } });
  server.expect('GET', `${WIDGET_API}/git/trees/${PINNED}?recursive=1`, { fixture: `github/repos/acme/widget/git/trees/${PINNED}.json` });
  // The licence GitHub detects, asked at the commit: this server ignores `ref` and names the default branch's LICENSE, another blob (a test may declare the ref's own answer first).
  server.expect('GET', `${WIDGET_API}/license?ref=${PINNED}`, { fixture: 'github/repos/acme/widget/license/ref-ignored.json' });
  // Without a token the workflows come from raw file hosting at the commit (raw-files.ts).
  for (const file of PINNED_WORKFLOWS) server.expect('GET', `/github-raw/acme/widget/${PINNED}/${file}`, { fixture: `github/repos/acme/widget/contents/${file}` });
}

/** The hourly budget spent: 403, remaining 0, the reset 65 minutes after GITHUB_NOW (13:05 UTC). */
export const WIDGET_RATE_LIMITED: FixtureResponse = {
  status: 403,
  headers: rateHeaders(0, 3900),
  body: {
    message: "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit.)",
    documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting',
  },
};

// ---------------------------------------------------------------------------------------------
// An npm package whose repository is acme/widget

export const WIDGET_VERSION = '3.2.0';
const REPOSITORY_URL = 'git+https://github.com/acme/widget.git';

export interface NpmWidget {
  name: string;
  version: string;
  tarball: Buffer;
  /** `sha512-…` of the tarball, as the packument's dist.integrity carries it. */
  integrity: string;
}

/** The package's tarball: manifest, README, licence and code, as `npm pack` lays them out. */
export function widgetTarball(name: string): Buffer {
  const manifest = {
    name,
    version: WIDGET_VERSION,
    description: 'Widgets for the command line',
    license: 'MIT',
    repository: { type: 'git', url: REPOSITORY_URL },
    bin: { widget: 'bin/widget.js' },
    main: 'index.js',
    types: 'index.d.ts',
    engines: { node: '>=20' },
  };
  const readme = [
    `# ${name}`,
    '',
    'Widgets for the command line: draw, list and pack widgets from a terminal.',
    'Every widget kind is a small module; the command prints the kinds it knows and draws one',
    'at the size you ask for, in plain text, so the output can be piped to other tools.',
    '',
    '## Install',
    '',
    '```sh',
    `npm install ${name}`,
    '```',
    '',
    '## Usage',
    '',
    '```js',
    `import { draw } from '${name}';`,
    "draw({ kind: 'gear', size: 3 });",
    '```',
    '',
    '## API',
    '',
    '`draw(options)` renders one widget; `list()` names the kinds it knows.',
    '',
    '## License',
    '',
    'MIT',
    '',
  ].join('\n');
  return makeTarball([
    { path: 'package.json', content: `${JSON.stringify(manifest, null, 2)}\n` },
    { path: 'README.md', content: readme },
    { path: 'LICENSE', content: 'MIT License\n\nCopyright (c) 2015 Acme\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software.\n' },
    { path: 'CHANGELOG.md', content: '# Changelog\n\n## 3.2.0\n\n- list() names every kind\n' },
    { path: 'index.js', content: "export function draw(options) { return `${options.kind}:${options.size}`; }\nexport function list() { return ['gear']; }\n" },
    { path: 'index.d.ts', content: 'export declare function draw(options: { kind: string; size: number }): string;\nexport declare function list(): string[];\n' },
    { path: 'bin/widget.js', content: "#!/usr/bin/env node\nimport { list } from '../index.js';\nconsole.log(list().join('\\n'));\n", mode: 0o755 },
  ]);
}

/** A full packument (three releases, the last one at WIDGET_VERSION) claiming acme/widget. */
export function widgetPackument(name: string, integrity: string): Record<string, unknown> {
  const person = { name: 'alice', email: 'alice@example.com' };
  const version = (v: string) => ({
    name,
    version: v,
    description: 'Widgets for the command line',
    license: 'MIT',
    repository: { type: 'git', url: REPOSITORY_URL },
    homepage: 'https://widget.example',
    bugs: { url: 'https://github.com/acme/widget/issues' },
    keywords: ['cli', 'widgets'],
    main: 'index.js',
    types: 'index.d.ts',
    bin: { widget: 'bin/widget.js' },
    engines: { node: '>=20' },
    _id: `${name}@${v}`,
    _npmUser: person,
    maintainers: [person, { name: 'bob', email: 'bob@example.com' }],
    dist: {
      ...(v === WIDGET_VERSION ? { integrity } : {}),
      tarball: `{{REGISTRY}}/${name}/-/${name}-${v}.tgz`,
    },
  });
  return {
    _id: name,
    name,
    description: 'Widgets for the command line',
    'dist-tags': { latest: WIDGET_VERSION },
    versions: { '3.0.0': version('3.0.0'), '3.1.0': version('3.1.0'), [WIDGET_VERSION]: version(WIDGET_VERSION) },
    time: {
      created: '2015-03-02T10:00:00.000Z',
      '3.0.0': '2025-04-20T10:00:00.000Z',
      '3.1.0': '2025-11-15T10:00:00.000Z',
      [WIDGET_VERSION]: '2026-05-10T10:05:00.000Z',
      modified: '2026-05-10T10:05:00.000Z',
    },
    maintainers: [person, { name: 'bob', email: 'bob@example.com' }],
    repository: { type: 'git', url: REPOSITORY_URL },
    license: 'MIT',
    readme: '',
  };
}

/**
 * Serve the npm package `name` claiming acme/widget: its packument, its tarball (built here),
 * download counts, and OSV with no advisory. The GitHub routes are the caller's.
 */
export function serveNpmWidget(server: FixtureServer, name: string): NpmWidget {
  const tarball = widgetTarball(name);
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  server.expect('GET', packumentPath(name), { body: widgetPackument(name, integrity) });
  server.route('GET', `/npm/${name}/-/${name}-${WIDGET_VERSION}.tgz`, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(tarball.length) });
    res.end(tarball);
  });
  server.expect('GET', downloadsPath('last-week', name), { body: { downloads: 812_345, start: '2026-05-25', end: '2026-05-31', package: name } });
  server.expect('GET', downloadsPath('last-year', name), { body: { downloads: 39_876_543, start: '2025-06-01', end: '2026-05-31', package: name } });
  server.route('POST', '/osv/v1/querybatch', osvNoAdvisories);
  return { name, version: WIDGET_VERSION, tarball, integrity };
}

/** GitHub's repository search by acme/widget's topics (cli, widgets), in the documented shape: acme/widget itself and acme/gadget (served by `serveRepo`). */
export function serveWidgetTopicSearch(server: FixtureServer): void {
  const item = (fullName: string) => ({ full_name: fullName, description: 'Widgets for the command line', fork: false, archived: false, topics: ['cli', 'widgets'], stargazers_count: 100 });
  server.expect('GET', '/github/search/repositories', { body: { total_count: 2, incomplete_results: false, items: [item('acme/widget'), item('acme/gadget')] } });
}

/** Requests for GitHub's repository search so far. */
export const repositorySearchRequests = (server: FixtureServer): number => server.requests.filter((r) => r.path.startsWith('/github/search/repositories')).length;
