/**
 * The healthy GitHub world of the fault suite: the npm package `widget` (built by
 * test/cli/github-helpers.ts) claiming acme/widget, whose repository is served from the
 * recorded-shape fixtures under fixtures/http/github — over REST without a token (9 requests,
 * its package.json included), over GraphQL with one (the query and the REST calls the token
 * path still makes). The token world serves the REST routes too: they are where the token
 * path goes when GraphQL cannot answer for a repository, so a fault row for the token path
 * breaks them as well (every GitHub request of the run fails the same way).
 *
 * The runs use the GitHub fixtures' clock (NERQ_NOW) and point nerq's GitHub endpoints at the
 * fixture server (instead of support/github-stub.ts).
 */
import type { FixtureServer } from '../../support/fixture-server.js';
import { GITHUB_NOW, serveNpmWidget, serveWidgetGraphql, serveWidgetRest, TOKEN } from '../../cli/github-helpers.js';
import { ROUTES, serveRepo } from '../../github/helpers.js';
import { recordedAnswer } from './recorded.js';

export const WIDGET_PACKAGE = 'widget';
export const GITHUB_TOKEN = TOKEN;
export const GRAPHQL_PATH = '/github/graphql';

/** Every REST route of acme/widget the no-token path requests for the package (queries left out: they match any). */
export const GITHUB_REST_ROUTES: readonly string[] = Object.values(ROUTES).map((suffix) => `/github/repos/acme/widget${suffix}`);

/** Every GitHub route the token path can request: the query, then REST. */
export const GITHUB_TOKEN_ROUTES: readonly { method: 'GET' | 'POST'; path: string }[] = [
  { method: 'POST', path: GRAPHQL_PATH },
  ...GITHUB_REST_ROUTES.map((path) => ({ method: 'GET' as const, path })),
];

/** The clock of the GitHub fixtures and GitHub's endpoints on `server` (and the token, for the GraphQL rows). */
export function githubEnv(server: FixtureServer, withToken: boolean): Record<string, string> {
  return {
    NERQ_NOW: GITHUB_NOW,
    NERQ_GITHUB_API_URL: server.url('github'),
    NERQ_GITHUB_GRAPHQL_URL: `${server.url('github')}/graphql`,
    ...(withToken ? { GITHUB_TOKEN: TOKEN } : {}),
  };
}

export function githubRestWorld(server: FixtureServer): void {
  serveNpmWidget(server, WIDGET_PACKAGE);
  serveWidgetRest(server, { manifest: true });
}

export function githubTokenWorld(server: FixtureServer): void {
  serveNpmWidget(server, WIDGET_PACKAGE);
  serveWidgetGraphql(server);
  serveWidgetRest(server, { manifest: true });
}

/** The healthy answer of a GitHub route: its recorded fixture (placeholders filled for `server`). */
export function githubSample(server: FixtureServer, route: string): Buffer {
  return recordedAnswer(server, route === GRAPHQL_PATH ? '/github/graphql/acme-widget' : route);
}

/**
 * The REST world of `widget` whose repository is a pnpm monorepo root: its package.json names
 * another package, its root lists `pnpm-workspace.yaml` (answered with `workspaceYaml`) and an
 * empty `packages/` directory — so the link check reads the YAML file and lists `packages/`.
 */
export function hostileRepositoryWorld(server: FixtureServer, workspaceYaml: string): void {
  serveNpmWidget(server, WIDGET_PACKAGE);
  const listing = JSON.parse(githubSample(server, '/github/repos/acme/widget/contents').toString('utf8')) as Record<string, unknown>[];
  const extra = [
    { name: 'pnpm-workspace.yaml', path: 'pnpm-workspace.yaml', type: 'file', sha: 'e'.repeat(40), size: workspaceYaml.length },
    { name: 'packages', path: 'packages', type: 'dir', sha: 'f'.repeat(40), size: 0 },
  ];
  serveRepo(server, 'acme/widget', {
    override: {
      contents: { body: [...listing.filter((e) => e.name !== 'packages'), ...extra] },
      manifest: { body: `${JSON.stringify({ name: 'widget-monorepo', private: true }, null, 2)}\n`, headers: { 'content-type': 'application/vnd.github.raw+json' } },
    },
  });
  server.expect('GET', '/github/repos/acme/widget/contents/pnpm-workspace.yaml', { body: workspaceYaml, headers: { 'content-type': 'application/vnd.github.raw+json' } });
  server.expect('GET', '/github/repos/acme/widget/contents/packages', { body: [] });
}
