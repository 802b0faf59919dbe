/**
 * A pinned ref's licence through the built CLI against the fixture server: GitHub detects the
 * licence of the default branch (here Apache-2.0), while acme/widget's files at `release/3.x`
 * (LICENSE and package.json) say MIT. The report compares the ref's own files with each other,
 * never with the default branch's detected licence — neither consistent nor different from mixed
 * states (docs/scoring.md §9, "A pinned ref"); without a ref the detection is compared as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import { repoBody } from '../github/helpers.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { GITHUB_NOW, PINNED, servePinnedWidget, serveWidgetGraphql, TOKEN, WIDGET_API } from './github-helpers.js';
import { checkOf, parseReport, requireBuiltCli } from './helpers.js';

const APACHE = { key: 'apache-2.0', name: 'Apache License 2.0', spdx_id: 'Apache-2.0', url: null, node_id: 'MDc6TGljZW5zZTI=' };

let server: FixtureServer | undefined;
async function check(target: string, env: Record<string, string> = {}): Promise<Report> {
  if (server === undefined) throw new Error('fixture server not started');
  const result = await runCli(['check', target, '--json'], { server, env: { NERQ_NOW: GITHUB_NOW, ...env } });
  expect(result.stderr).toBe('');
  return parseReport(result.stdout);
}

beforeAll(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
  // The repository answer (declared first, so it wins): GitHub detects Apache-2.0 on the default branch.
  server.expect('GET', WIDGET_API, { body: repoBody('acme/widget', { license: APACHE }) });
  servePinnedWidget(server);
  serveWidgetGraphql(server, { licenseInfo: { spdxId: 'Apache-2.0' } });
});
afterAll(async () => {
  if (server === undefined) return;
  expectNoUnexpected(server);
  await server.close();
});

const RUNS = [
  ['REST', {}],
  ['GraphQL', { GITHUB_TOKEN: TOKEN }],
] as const;

describe('github:acme/widget@release/3.x whose MIT files differ from the default branch\'s detected Apache-2.0', () => {
  for (const [how, env] of RUNS) {
    it(`licence-consistency is unknown, not "different" (${how}); license-file compares the ref's own LICENSE with its package.json`, async () => {
      const report = await check('github:acme/widget@release/3.x', env);
      expect(checkOf(report, 'license-consistency')).toMatchObject({
        status: 'unknown',
        score: null,
        messageId: 'detection-default-branch',
        evidence: { declared: 'MIT', defaultBranch: 'main' },
      });
      expect(checkOf(report, 'license-consistency').evidence).not.toHaveProperty('repositoryLicense');
      expect(checkOf(report, 'license-file')).toMatchObject({ score: 100, messageId: 'consistent', evidence: { files: ['LICENSE'], found: ['MIT'], declared: 'MIT' } });
    });
  }

  for (const [how, env] of RUNS) {
    it(`without a ref the detected licence describes the files read (the default branch's): the difference is reported (${how})`, async () => {
      const report = await check('github:acme/widget', env);
      expect(checkOf(report, 'license-consistency')).toMatchObject({ score: 20, messageId: 'different', evidence: { declared: 'MIT', repositoryLicenseId: 'Apache-2.0' } });
    });
  }
});

describe("github:acme/widget@release/3.x where GitHub's licence answer at the ref names the ref's own LICENSE blob", () => {
  for (const [how, env] of RUNS) {
    it(`the detection at the commit (MIT, blob 5555…) is compared with the ref's files: consistent, not unknown (${how})`, async () => {
      const own = await startFixtureServer();
      try {
        // Declared first, so it wins over servePinnedWidget's answer of a server that ignores `ref`.
        own.expect('GET', `${WIDGET_API}/license?ref=${PINNED}`, { fixture: 'github/repos/acme/widget/license/at-ref.json' });
        own.expect('GET', WIDGET_API, { body: repoBody('acme/widget', { license: APACHE }) });
        servePinnedWidget(own);
        serveWidgetGraphql(own, { licenseInfo: { spdxId: 'Apache-2.0' } });
        const result = await runCli(['check', 'github:acme/widget@release/3.x', '--json'], { server: own, env: { NERQ_NOW: GITHUB_NOW, ...env } });
        const report = parseReport(result.stdout);
        expect(own.requests.filter((r) => r.path === `${WIDGET_API}/license?ref=${PINNED}`)).toHaveLength(1);
        expect(checkOf(report, 'license-consistency')).toMatchObject({ score: 100, messageId: 'consistent', evidence: { declared: 'MIT', repositoryLicenseId: 'MIT' } });
        expectNoUnexpected(own);
      } finally {
        await own.close();
      }
    });
  }

  it('a server that ignores `ref` (another blob than the commit lists): the answer is asked, told apart and not trusted', async () => {
    const report = await check('github:acme/widget@release/3.x');
    expect(server?.requests.some((r) => r.path === `${WIDGET_API}/license?ref=${PINNED}`)).toBe(true);
    expect(checkOf(report, 'license-consistency')).toMatchObject({ score: null, messageId: 'detection-default-branch' });
  });
});
