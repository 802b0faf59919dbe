/**
 * Hostile world, part 6: secrets. With a GitHub token in the environment and npm
 * tokens in the user's and the project's `.npmrc` (one literal, one `${NPM_TOKEN}`), nerq
 * runs every output format, `--save-evidence`, `score`, the store (`cache stats`,
 * `history`) and its error paths (not found, bad input, a dead registry, a failing
 * packument, a stalled source, a missing evidence file). Then stdout, stderr, every file it
 * wrote and the store's sqlite bytes are searched for the tokens (raw, base64 and
 * percent-encoded): zero occurrences. The tokens did go where they belong (the registry's
 * origin, GitHub's), and a redirect to another origin — of the packument, the tarball and
 * GitHub's GraphQL endpoint — arrives there without them. Yarn berry's `npmAuthToken` and
 * `npmAuthIdent` in the user's and an audited project's `.yarnrc.yml` (a valid one, followed with
 * --trust-project-npmrc, and a malformed one) are searched for the same way.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPackage } from '../cli/helpers.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { filesUnder, makeSandbox, requireCli, runHostile, type HostileRun, type Sandbox } from './support/cli.js';
import { expectCleanStderr, expectRssBounded, expectWithinDeadline } from './support/expect.js';
import { refusingOrigin } from './support/faults.js';
import { githubStub } from './support/github-stub.js';
import { noteCases } from './support/metrics.js';
import { fill, PACKAGE, recordedPackument, SOURCES } from './support/sources.js';

const GITHUB_TOKEN = 'ghp_h7SECRETgithubTOKEN0123456789AbCdEf';
const GH_TOKEN = 'gho_h7SECRETghTOKEN0123456789AbCdEfGh';
const NPM_USER_TOKEN = 'npm_h7SECRETuserTOKEN0123456789AbCdEf';
const NPM_PROJECT_TOKEN = 'npm_h7SECRETprojectTOKEN0123456789AbCd';
const NPM_ENV_TOKEN = 'npm_h7SECRETenvTOKEN0123456789AbCdEfGh';
const YARN_USER_TOKEN = 'yarn_h7SECRETuserTOKEN0123456789AbCdEf';
const YARN_PROJECT_TOKEN = 'yarn_h7SECRETprojectTOKEN0123456789Ab';
const YARN_IDENT = 'yarn_h7SECRETidentVALUE0123456789AbCd';
const TOKENS = [GITHUB_TOKEN, GH_TOKEN, NPM_USER_TOKEN, NPM_PROJECT_TOKEN, NPM_ENV_TOKEN, YARN_USER_TOKEN, YARN_PROJECT_TOKEN, YARN_IDENT];

/** Every form a token could be written in. */
const FORMS = TOKENS.flatMap((token) => [token, Buffer.from(token).toString('base64'), encodeURIComponent(token), token.slice(4, 24)]);

let server: FixtureServer;
let elsewhere: FixtureServer;
let sandbox: Sandbox;
const runs: { label: string; run: HostileRun }[] = [];
const env = { GITHUB_TOKEN, GH_TOKEN, NPM_TOKEN: NPM_ENV_TOKEN };
/** Yarn berry projects pinning chalk from an `__archiveUrl`, with a `.yarnrc.yml` holding tokens (valid, malformed). */
let yarnProject: string;
let yarnMalformed: string;

beforeAll(async () => {
  requireCli();
  server = await startFixtureServer();
  elsewhere = await startFixtureServer();
  sandbox = makeSandbox();
  const registry = `//127.0.0.1:${server.port}/npm/`;
  writeFileSync(path.join(sandbox.home, '.npmrc'), `${registry}:_authToken=${NPM_USER_TOKEN}\n@private:registry=http://127.0.0.1:${server.port}/private/\n//127.0.0.1:${server.port}/private/:_authToken=\${NPM_TOKEN}\n`);
  writeFileSync(path.join(sandbox.cwd, '.npmrc'), `${registry}:_authToken=${NPM_PROJECT_TOKEN}\n`);
  const privateRegistry = `http://127.0.0.1:${server.port}/private/`;
  writeFileSync(path.join(sandbox.home, '.yarnrc.yml'), `npmRegistryServer: "${privateRegistry}"\nnpmAuthToken: "${YARN_USER_TOKEN}"\nnpmAuthIdent: "${YARN_IDENT}"\n`);
  const archive = encodeURIComponent(`${privateRegistry}download/chalk/4.1.0/chalk.tgz`);
  const lock = `__metadata:\n  version: 8\n  cacheKey: 10c0\n\n"chalk@npm:4.1.0":\n  version: 4.1.0\n  resolution: "chalk@npm:4.1.0::__archiveUrl=${archive}"\n  checksum: 10c0/00\n  languageName: node\n  linkType: hard\n`;
  for (const [name, yarnrc] of [
    ['yarn-project', `npmScopes:\n  private:\n    npmRegistryServer: "${privateRegistry}"\n    npmAuthToken: "${YARN_PROJECT_TOKEN}"\n`],
    ['yarn-malformed', `npmAuthToken: "${YARN_PROJECT_TOKEN}\nnpmRegistryServer: [\n`],
  ] as const) {
    const dir = path.join(sandbox.cwd, name);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true, "dependencies": { "chalk": "4.1.0" } }\n');
    writeFileSync(path.join(dir, 'yarn.lock'), lock);
    writeFileSync(path.join(dir, '.yarnrc.yml'), yarnrc);
  }
  yarnProject = path.join(sandbox.cwd, 'yarn-project');
  yarnMalformed = path.join(sandbox.cwd, 'yarn-malformed');

  // chalk: the healthy world. nerq-missing: not in the registry.
  SOURCES[0]!.world(server);
  server.expect('GET', '/npm/nerq-missing', { status: 404, body: { error: 'Not found' } });
  // debug: its packument and tarball redirect to another origin, which serves them.
  const debug = recordedPackument('debug');
  elsewhere.expect('GET', '/npm/debug', { body: Buffer.from(fill(JSON.stringify(debug), server).replaceAll(`${server.origin}/npm/debug/-/`, `${server.origin}/npm/debug-redirected/-/`)), headers: { 'content-type': 'application/json' } });
  elsewhere.expect('GET', '/npm/debug/-/debug-4.2.0.tgz', { fixture: 'npm/debug/-/debug-4.2.0.tgz' });
  elsewhere.expect('POST', '/github/graphql', { status: 404, body: { message: 'Not Found' } });
  expectPackage(server, 'debug', {
    packument: { status: 302, headers: { location: `${elsewhere.origin}/npm/debug` }, body: '' },
  });
  server.expect('GET', '/npm/debug-redirected/-/debug-4.2.0.tgz', { status: 302, headers: { location: `${elsewhere.origin}/npm/debug/-/debug-4.2.0.tgz` }, body: '' });
  server.route('POST', '/github/graphql', (_req, res) => {
    res.writeHead(307, { location: `${elsewhere.origin}/github/graphql`, 'content-length': '0' });
    res.end();
  });
});

afterAll(async () => {
  sandbox?.remove();
  await Promise.all([server?.close(), elsewhere?.close()]);
});

async function nerq(label: string, args: string[], extraEnv: Record<string, string> = {}): Promise<HostileRun> {
  const run = await runHostile(args, { server, sandbox, env: { ...env, ...extraEnv } });
  runs.push({ label, run });
  return run;
}

describe('tokens never leave their service', () => {
  it('every output format, the evidence file, score, the store and the error paths', async ({ task }) => {
    const evidence = path.join(sandbox.cwd, 'evidence.json');
    const dead = await refusingOrigin();
    const cases: [string, string[], number[], Record<string, string>?][] = [
      ['table', ['check', PACKAGE], [0]],
      ['table with --evidence', ['check', PACKAGE, '--evidence'], [0]],
      ['json and --save-evidence', ['check', PACKAGE, '--json', '--save-evidence', evidence], [0]],
      ['markdown', ['check', PACKAGE, '--format', 'markdown'], [0]],
      ['NDJSON for two targets', ['check', PACKAGE, PACKAGE, '--json'], [0]],
      ['score, table', ['score', evidence], [0]],
      ['score, json', ['score', evidence, '--json'], [0]],
      ['score, markdown', ['score', evidence, '--format', 'markdown'], [0]],
      ['cache stats', ['cache', 'stats'], [0]],
      ['cache stats --json', ['cache', 'stats', '--json'], [0]],
      ['history', ['history', PACKAGE], [0]],
      ['history --json', ['history', PACKAGE, '--json'], [0]],
      // Offline, so the registry's requests stay those of `check` (see the next test). The store
      // holds chalk under the project .npmrc's credentials, not the audit's (the user's): chalk is
      // not evaluated (exit 3). These runs read the yarnrc files and print every output; the
      // lockfile check itself is test/cli/audit-real-lockfiles.test.ts's.
      ['audit, project .yarnrc.yml ignored', ['audit', yarnProject, '--offline', '--json'], [3]],
      ['audit --trust-project-npmrc, sarif', ['audit', yarnProject, '--offline', '--format', 'sarif', '--trust-project-npmrc'], [3]],
      ['audit --trust-project-npmrc, markdown', ['audit', yarnProject, '--offline', '--format', 'markdown', '--trust-project-npmrc'], [3]],
      ['audit, a malformed .yarnrc.yml', ['audit', yarnMalformed, '--offline', '--json', '--trust-project-npmrc'], [3]],
      ['not found', ['check', 'nerq-missing', '--json'], [3]],
      ['bad input', ['check', '../x'], [2]],
      ['a dead registry', ['check', PACKAGE, '--registry', `${dead}/npm/`, '--no-cache'], [3]],
      ['--offline from the store', ['check', PACKAGE, '--offline', '--json'], [0, 3]],
      ['a missing evidence file', ['score', path.join(sandbox.cwd, 'missing.json')], [2]],
      ['an evidence file that is not JSON', ['score', path.join(sandbox.home, '.npmrc')], [2]],
      ['cross-origin redirects (packument, tarball, GitHub GraphQL)', ['check', 'debug', '--json', '--no-cache'], [0, 1, 3], { NERQ_GITHUB_GRAPHQL_URL: `${server.origin}/github/graphql`, NERQ_GITHUB_API_URL: `${server.origin}/github` }],
    ];
    noteCases(task, cases.length);
    // In order: the store fills up, the evidence file exists before `score` reads it.
    for (const [label, args, codes, extra] of cases) {
      const run = await nerq(label, args, extra);
      expect(codes, `${label}: exit ${run.code}\n${run.stderr}`).toContain(run.code);
      expectCleanStderr(run.stderr, label);
      expectRssBounded(task, run, label);
      // The default deadline (60 s): the error paths end like the others.
      expectWithinDeadline(task, run, 60_000, label);
    }

    // The search: every output, and every byte on disk but the two .npmrc files themselves.
    const outputs = runs.flatMap(({ label, run }) => [[`${label} stdout`, run.stdout], [`${label} stderr`, run.stderr]] as const);
    const files = filesUnder(sandbox.root).filter((f) => !f.endsWith('.npmrc') && !f.endsWith('.yarnrc.yml'));
    // The yarnrc files were read: the ignored one and the malformed one said so (codes, not prose).
    const warningCodes = (label: string) => (JSON.parse(runs.find((r) => r.label === label)!.run.stdout) as { warnings: { code: string }[] }).warnings.map((w) => w.code);
    expect(warningCodes('audit, project .yarnrc.yml ignored')).toContain('yarnrc-ignored');
    expect(warningCodes('audit, a malformed .yarnrc.yml')).toContain('yarnrc-invalid');
    expect(files.some((f) => f.includes(`${path.sep}nerq${path.sep}`)), `the store was written: ${files.join(', ')}`).toBe(true);
    expect(files).toContain(path.join('cwd', 'evidence.json'));
    const found: string[] = [];
    for (const form of FORMS) {
      for (const [where, text] of outputs) if (text.includes(form)) found.push(`${where} holds ${form}`);
      for (const file of files) if (readFileSync(path.join(sandbox.root, file)).includes(form)) found.push(`${file} holds ${form}`);
    }
    expect(found).toEqual([]);
  }, 300_000);

  it('the tokens were sent to their own origins (the search above is not vacuous)', async ({ task }) => {
    noteCases(task);
    const registryAuth = server.requests.filter((r) => r.path.startsWith('/npm/') && r.headers.authorization !== undefined).map((r) => r.headers.authorization);
    expect(registryAuth.length).toBeGreaterThan(0);
    // The project .npmrc wins over the user's, as npm resolves it.
    expect(new Set(registryAuth)).toEqual(new Set([`Bearer ${NPM_PROJECT_TOKEN}`]));
    const github = (await githubStub()).requests.filter((r) => r.headers.authorization !== undefined);
    expect(github.length).toBeGreaterThan(0);
    expect(github.every((r) => String(r.headers.authorization).includes(GITHUB_TOKEN))).toBe(true);
    // Nothing else carries a token: not OSV, not the downloads API.
    const others = server.requests.filter((r) => !r.path.startsWith('/npm/') && !r.path.startsWith('/github/'));
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((r) => r.headers.authorization !== undefined).map((r) => r.path)).toEqual([]);
  });

  it('a redirect to another origin arrives there without credentials', ({ task }) => {
    noteCases(task);
    // The redirecting origin got the credentials; the other origin was reached, without them.
    expect(server.requests.find((r) => r.path === '/npm/debug')?.headers.authorization).toBe(`Bearer ${NPM_PROJECT_TOKEN}`);
    expect(String(server.requests.find((r) => r.path === '/github/graphql')?.headers.authorization)).toContain(GITHUB_TOKEN);
    const reached = elsewhere.requests.map((r) => `${r.method} ${r.path}`);
    expect(reached).toEqual(expect.arrayContaining(['GET /npm/debug', 'GET /npm/debug/-/debug-4.2.0.tgz', 'POST /github/graphql']));
    for (const request of elsewhere.requests) {
      expect(request.headers.authorization, `${request.method} ${request.path}`).toBeUndefined();
      expect(request.headers.cookie, `${request.method} ${request.path}`).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toMatch(/h7SECRET/);
    }
  });
});
