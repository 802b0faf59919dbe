/**
 * `nerq serve` shares the target parser and the evaluation with the command line: a
 * `github:owner/repo@ref` target is read at the commit its ref names there too, and a ref the
 * repository does not have is a target not found (docs/serve.md; docs/scoring.md §9, "A pinned ref").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/report/schema.js';
import { GITHUB_NOW, PINNED, servePinnedWidget, WIDGET_API } from '../cli/github-helpers.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { testApp, type TestApp } from './support.js';

let server: FixtureServer;
const apps: TestApp[] = [];

useSharedFixtureServer((started) => {
  server = started;
  servePinnedWidget(server);
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

describe('GET /v1/report with a pinned ref', () => {
  it('reads the repository at the commit the ref names; an unknown ref is not-found', async () => {
    const made = testApp(server, { now: new Date(GITHUB_NOW) });
    apps.push(made);
    const res = await made.app.inject({ method: 'GET', url: `/v1/report?target=${encodeURIComponent('github:acme/widget@release/3.x')}` });
    expect(res.statusCode, res.body).toBe(200);
    const report = ReportSchema.parse(res.json());
    expect(report.target).toMatchObject({ name: 'acme/widget', version: 'release/3.x', commit: PINNED });
    expect(server.requests.some((r) => r.path === `${WIDGET_API}/git/trees/${PINNED}?recursive=1`)).toBe(true);
    expect(server.requests.some((r) => r.path.startsWith(`${WIDGET_API}/git/trees/main`))).toBe(false);

    const missing = await made.app.inject({ method: 'GET', url: `/v1/report?target=${encodeURIComponent('github:acme/widget@no-such-ref')}` });
    const answer = missing.json() as { error?: { code?: string } | null };
    expect(answer.error?.code, missing.body).toBe('not-found');
  });
});
