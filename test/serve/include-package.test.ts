/**
 * `include_package=` on `nerq serve`'s check routes (docs/serve.md, "Folding in a repository's
 * package"), in process against the fixture server: acme/widget, whose README advertises the npm
 * package `widget` that links back to it, and acme/gadget, the same files under another name (its
 * `widget` links to acme/widget, so nothing verifies). The choice is part of what the evaluator
 * shares and reuses: a request with it is never answered with a report made without it, and the
 * other way round.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { BatchResponseSchema, ErrorSchema, PreflightSchema } from '../../src/serve/schemas.js';
import { GITHUB_NOW, repositorySearchRequests, serveNpmWidget, serveWidgetTopicSearch, WIDGET_VERSION } from '../cli/github-helpers.js';
import { downloadsPath } from '../cli/helpers.js';
import { serveRepo } from '../github/helpers.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { testApp, type TestApp } from './support.js';

let server: FixtureServer;
const apps: TestApp[] = [];
const open = () => {
  const made = testApp(server, { now: new Date(GITHUB_NOW) });
  apps.push(made);
  return made;
};

useSharedFixtureServer((started) => {
  server = started;
  serveRepo(server, 'acme/widget', {});
  serveRepo(server, 'acme/gadget', {});
  serveNpmWidget(server, 'widget');
});

afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const count = (path: string) => server.requests.filter((r) => r.method === 'GET' && r.path === path).length;
const tarballRequests = () => count(`/npm/widget/-/widget-${WIDGET_VERSION}.tgz`);
const weeklyRequests = () => count(downloadsPath('last-week', 'widget'));
/** The checks only a package's registry sources give (absent from a repository alone). */
const PACKAGE_CHECKS = ['deprecation', 'install-scripts', 'weekly-downloads', 'manifest-confusion'];
const checkIds = (report: Report) => report.checks.map((c) => c.id);

describe('include_package= on GET /v1/preflight and /v1/report', () => {
  it('folds in the verified package: the report carries includedPackage, the preflight included_package', async () => {
    const { app } = open();
    const res = await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget&include_package=true' });
    expect(res.statusCode, res.body).toBe(200);
    const report = ReportSchema.parse(res.json());
    expect(report.includedPackage).toMatchObject({ included: true, code: 'root-manifest', ecosystem: 'npm', name: 'widget', version: WIDGET_VERSION });
    for (const id of PACKAGE_CHECKS) expect(report.checks.find((c) => c.id === id)?.status, id).toMatch(/^(pass|warn|fail)$/);

    const preflight = await app.inject({ method: 'GET', url: '/v1/preflight?target=github:acme/widget&include_package=npm:widget' });
    expect(preflight.statusCode, preflight.body).toBe(200);
    const answer = PreflightSchema.strict().parse(preflight.json());
    expect(answer.included_package).toMatchObject({ included: true, code: 'named', ecosystem: 'npm', name: 'widget' });
    expect(answer.target_source).toBe('github');
  });

  it('no verified package: a no-op with the code no-verified-package, the package checks absent', async () => {
    const { app } = open();
    const res = await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/gadget&include_package=true' });
    expect(res.statusCode, res.body).toBe(200);
    const report = ReportSchema.parse(res.json());
    expect(report.includedPackage).toMatchObject({ included: false, code: 'no-verified-package', ecosystem: null, name: null, version: null });
    for (const id of PACKAGE_CHECKS) expect(checkIds(report), id).not.toContain(id);
    const answer = PreflightSchema.strict().parse((await app.inject({ method: 'GET', url: '/v1/preflight?target=github:acme/gadget&include_package=true' })).json());
    expect(answer.included_package).toMatchObject({ included: false, code: 'no-verified-package' });
  });

  it('include_package=false and no parameter answer the repository alone (no included_package member)', async () => {
    const { app } = open();
    const plain = PreflightSchema.strict().parse((await app.inject({ method: 'GET', url: '/v1/preflight?target=github:acme/widget&include_package=false' })).json());
    expect(plain).not.toHaveProperty('included_package');
    const report = ReportSchema.parse((await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget' })).json());
    expect(report.includedPackage).toBeUndefined();
    for (const id of PACKAGE_CHECKS) expect(checkIds(report), id).not.toContain(id);
  });

  it('invalid values, a target that is not a repository, a name that does not verify: 400 bad-option', async () => {
    const { app } = open();
    const before = server.requests.length;
    for (const url of [
      '/v1/preflight?target=github:acme/widget&include_package=',
      '/v1/preflight?target=github:acme/widget&include_package=a%20b',
      '/v1/preflight?target=github:acme/widget&include_package=https://evil.example/x',
      '/v1/report?target=github:acme/widget&include_package=%00x',
      '/v1/preflight?target=widget&include_package=true',
      '/v1/report?target=pypi:requests&include_package=widget',
      '/v1/preflight?target=github:acme/widget&caller=widget&include_package=../x',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(ErrorSchema.parse(res.json()).error.code, url).toBe('bad-option');
    }
    const batch = await app.inject({ method: 'POST', url: '/v1/preflight/batch?include_package=true', payload: { targets: ['widget'] } });
    expect(batch.statusCode).toBe(400);
    expect(ErrorSchema.parse(batch.json()).error.code).toBe('bad-option');
    // Refused before anything was evaluated.
    expect(server.requests.length).toBe(before);

    // Like the command line: a name that is not a verified package of the repository, after reading it.
    for (const url of ['/v1/preflight?target=github:acme/widget&include_package=left-pad', '/v1/report?target=github:acme/widget&include_package=pypi:widget']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      const { error } = ErrorSchema.parse(res.json());
      expect(error.code).toBe('bad-option');
      expect(error.message).toContain('npm:widget');
    }
    const namedBatch = await app.inject({ method: 'POST', url: '/v1/preflight/batch?include_package=left-pad', payload: { targets: ['github:acme/widget', 'widget'] } });
    expect(namedBatch.statusCode).toBe(400);
    expect(ErrorSchema.parse(namedBatch.json()).error.code).toBe('bad-option');
  });

  it('the OpenAPI document describes include_package on the check routes, and bad-option', async () => {
    const { app } = open();
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; required: boolean; schema: { description?: string } }> }>>;
      components: { schemas: { Error: unknown; Preflight: { properties: Record<string, unknown> } } };
    }>();
    for (const [path, method] of [
      ['/v1/preflight', 'get'],
      ['/v1/preflight/batch', 'post'],
      ['/v1/report', 'get'],
    ] as const) {
      const parameter = doc.paths[path]?.[method]?.parameters?.find((p) => p.name === 'include_package');
      expect(parameter, path).toMatchObject({ required: false });
      expect(parameter?.schema.description, path).toMatch(/verif/);
    }
    expect(JSON.stringify(doc.components.schemas.Error)).toContain('bad-option');
    expect(doc.components.schemas.Preflight.properties).toHaveProperty('included_package');
  });
});

describe('include_package= and what the evaluator shares', () => {
  it('concurrent requests with and without it each get their own report; identical ones still share one evaluation', async () => {
    const { app, evaluator } = open();
    const tarballs = tarballRequests();
    const weekly = weeklyRequests();
    const [withA, without, withB, reportWith, reportWithout] = await Promise.all([
      app.inject({ method: 'GET', url: '/v1/preflight?target=github:acme/widget&include_package=true' }),
      app.inject({ method: 'GET', url: '/v1/preflight?target=github:acme/widget' }),
      app.inject({ method: 'GET', url: '/v1/preflight?target=github:acme/widget&include_package=true' }),
      app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget&include_package=true' }),
      app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget' }),
    ]);
    for (const res of [withA, without, withB, reportWith, reportWithout]) expect(res.statusCode, res.body).toBe(200);
    const [a, plain, b] = [withA, without, withB].map((r) => PreflightSchema.strict().parse(r.json()));
    expect(a?.included_package).toMatchObject({ included: true, code: 'root-manifest', name: 'widget' });
    expect(b?.included_package).toEqual(a?.included_package);
    expect(plain).not.toHaveProperty('included_package');
    const folded = ReportSchema.parse(reportWith.json());
    const alone = ReportSchema.parse(reportWithout.json());
    expect(folded.includedPackage?.code).toBe('root-manifest');
    for (const id of PACKAGE_CHECKS) expect(checkIds(folded), id).toContain(id);
    expect(alone.includedPackage).toBeUndefined();
    for (const id of PACKAGE_CHECKS) expect(checkIds(alone), id).not.toContain(id);
    expect(folded.checks.length).toBeGreaterThan(alone.checks.length);
    // The two answers with it are one evaluation, as are the two without: two evaluations, three calls shared.
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, coalesced: 3, reused: 0 });
    // Only the evaluation that folds the package in reads its tarball and downloads, once.
    expect(tarballRequests() - tarballs).toBe(1);
    expect(weeklyRequests() - weekly).toBe(1);

    // Reuse keeps them apart too: each answers its own choice again, with no new upstream request.
    const requests = server.requests.length;
    const again = ReportSchema.parse((await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget' })).json());
    expect(again.includedPackage).toBeUndefined();
    const againWith = ReportSchema.parse((await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget&include_package=true' })).json());
    expect(againWith.includedPackage?.code).toBe('root-manifest');
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, reused: 2 });
    expect(server.requests.length).toBe(requests);

    // Another choice (the package named) is another evaluation, whose report says so.
    const named = ReportSchema.parse((await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget&include_package=widget' })).json());
    expect(named.includedPackage?.code).toBe('named');
    expect(evaluator.stats().evaluations).toBe(3);
  });

  it('one after the other, the two evaluations share the upstream answers: the repository is read once', async () => {
    const { app } = open();
    const github = () => server.requests.filter((r) => r.path.startsWith('/github/')).length;
    const before = { github: github(), tarballs: tarballRequests(), weekly: weeklyRequests() };
    const alone = ReportSchema.parse((await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget' })).json());
    expect(alone.includedPackage).toBeUndefined();
    const read = github() - before.github;
    expect(read).toBeGreaterThan(0);
    const folded = ReportSchema.parse((await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget&include_package=true' })).json());
    expect(folded.includedPackage?.code).toBe('root-manifest');
    // From the store's caches: no GitHub request; the package's own tarball and downloads only.
    expect(github() - before.github).toBe(read);
    expect(tarballRequests() - before.tarballs).toBe(1);
    expect(weeklyRequests() - before.weekly).toBe(1);
  });

  it('in a batch it applies to the repositories only: a package target shares the evaluation of a request without it', async () => {
    const { app, evaluator } = open();
    const res = await app.inject({ method: 'POST', url: '/v1/preflight/batch?include_package=true', payload: { targets: ['github:acme/widget', 'widget'] } });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = BatchResponseSchema.parse(res.json());
    expect(results[0]?.included_package).toMatchObject({ included: true, code: 'root-manifest', name: 'widget' });
    expect(results[1]).not.toHaveProperty('included_package');
    expect(results[1]?.target_source).toBe('npm');
    const plain = PreflightSchema.strict().parse((await app.inject({ method: 'GET', url: '/v1/preflight?target=widget' })).json());
    expect(plain.target_trust).toBe(results[1]?.target_trust);
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, reused: 1 });
  });
});

describe('include_package= with include=alternatives: the target ranked as /v1/report scores it', () => {
  it('the folded score from the shared evaluation; the peers evaluated without the choice', async () => {
    serveWidgetTopicSearch(server);
    const searches = () => repositorySearchRequests(server);
    const widgetReads = () => server.requests.filter((r) => r.path.startsWith('/github/repos/acme/widget')).length;
    const { app, evaluator } = open();
    const folded = ReportSchema.parse((await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget&include_package=true' })).json());
    const [reads, tarballs, searched] = [widgetReads(), tarballRequests(), searches()];

    const res = await app.inject({ method: 'GET', url: '/v1/preflight?target=github:acme/widget&include=alternatives&include_package=true' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = PreflightSchema.strict().parse(res.json());
    expect(answer.target_trust).toBe(folded.score);
    expect(answer.included_package).toEqual(folded.includedPackage);
    expect(answer.alternatives_unavailable).toBeNull();
    expect([widgetReads(), tarballRequests(), searches()]).toEqual([reads, tarballs, searched + 1]);
    // The target's evaluation reused, the peer's made.
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, reused: 1 });
    // The peer was evaluated alone: a plain preflight of it is that evaluation.
    const gadget = PreflightSchema.strict().parse((await app.inject({ method: 'GET', url: '/v1/preflight?target=github:acme/gadget' })).json());
    expect(gadget).not.toHaveProperty('included_package');
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, reused: 2 });
    // Without the choice the repository is ranked alone.
    const alone = PreflightSchema.strict().parse((await app.inject({ method: 'GET', url: '/v1/preflight?target=github:acme/widget&include=alternatives' })).json());
    expect(alone.target_trust).not.toBe(folded.score);
    const plain = ReportSchema.parse((await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget' })).json());
    expect(alone.target_trust).toBe(plain.score);
  });
});

describe('history of a repository with its package folded in', () => {
  it('is its own: include=history and /v1/history keep the folded and the plain evaluations apart', async () => {
    const { app } = open();
    const plain = ReportSchema.parse((await app.inject({ method: 'GET', url: '/v1/report?target=github:acme/widget' })).json());
    const folded = PreflightSchema.parse(
      (await app.inject({ method: 'GET', url: '/v1/preflight?target=github:acme/widget&include_package=true&include=history' })).json(),
    );
    expect(folded.target_trust).not.toBe(plain.score);
    // The folded answer's history holds the folded evaluation only, never the plain one.
    expect(folded.history?.map((h) => h.score)).toEqual([folded.target_trust]);
    const history = async (target: string) =>
      ((await app.inject({ method: 'GET', url: `/v1/history?target=${encodeURIComponent(target)}` })).json() as { target: string; evaluations: { score: number | null }[] });
    expect(await history('github:acme/widget')).toMatchObject({ target: 'github:acme/widget', evaluations: [{ score: plain.score }] });
    expect(await history('github:acme/widget+npm:widget')).toMatchObject({ target: 'github:acme/widget+npm:widget', evaluations: [{ score: folded.target_trust }] });
    const bad = await app.inject({ method: 'GET', url: `/v1/history?target=${encodeURIComponent('github:acme/widget+github:acme/gadget')}` });
    expect(bad.statusCode).toBe(400);
  });
});
