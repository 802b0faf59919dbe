/**
 * `nerq audit` of a requirements file on a machine where pip or uv is configured with another
 * index (src/audit/python-indexes.ts, docs/security.md "Lockfile injection"): `pip install -r`
 * there consults that index too, so each pin is held to PyPI's hashes as with an
 * `--extra-index-url` in the file, and the finding names the index's host and the setting, never
 * its credentials, on any output. A lockfile that names its own indexes is not affected.
 *
 * PyPI answers with the recorded flask JSON (fixtures/http/pypi/pypi/flask/json.json, see
 * fixtures/PROVENANCE.md): flask 3.1.3's real sha256 digests. The configured index's host
 * (`pypi.evil.example`), its token and the "other" digest are edits, named as such below.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFixtureServers, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { tempHome } from '../support/temp-home.js';
import { parseAudit, serveOsv, TempDirs } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

/** PyPI's sha256 of flask-3.1.3-py3-none-any.whl (the recorded flask JSON). */
const WHEEL_SHA256 = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670c';
/** Edited: a digest PyPI does not publish for flask 3.1.3. */
const OTHER_SHA256 = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670d';
/** Edited: a token that must never be shown. */
const TOKEN = 'pypi-s3cret-t0ken';
/** Edited: the index configured on the machine, with credentials in its URL. */
const MACHINE_INDEX = `https://__token__:${TOKEN}@pypi.evil.example/simple`;
const POLICY = JSON.stringify({ minScore: 0, minCoverage: 0 });

const dirs = new TempDirs();
const homes: string[] = [];
let server: FixtureServer;

const startServer = useFixtureServers();

beforeAll(() => requireBuiltCli());
afterAll(() => {
  dirs.cleanUp();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

async function serve(): Promise<FixtureServer> {
  server = await startServer();
  server.fallback('GET', '/pypi/', undefined);
  server.fallback('GET', '/pypistats/', { status: 404 });
  server.fallback('GET', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  server.fallback('POST', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  serveOsv(server, []);
  return server;
}

async function audit(files: Record<string, string>, env: Record<string, string>, format = 'json') {
  const result = await runCli(['audit', dirs.project({ ...files, '.nerqrc.json': POLICY }), '--format', format], { server, env });
  return result;
}

function flaskOf(stdout: string) {
  return parseAudit(stdout).entries.find((e) => e.subject.name === 'flask');
}

describe('nerq audit: an index configured on the machine', () => {
  it('PIP_EXTRA_INDEX_URL, no hash pinned: incomplete (exit 3), naming the host and the variable; the token on no output', async () => {
    await serve();
    const files = { 'requirements.txt': 'flask==3.1.3\n' };
    const env = { PIP_EXTRA_INDEX_URL: MACHINE_INDEX };
    const json = await audit(files, env);
    const flask = flaskOf(json.stdout);
    expect(flask?.policy.failures[0]).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'], at: { file: 'requirements.txt', line: 1 } });
    expect(flask?.policy.failures[0]?.message).toContain('pypi.evil.example');
    expect(flask?.policy.failures[0]?.message).toContain('PIP_EXTRA_INDEX_URL');
    expect(json.code, json.stderr).toBe(3);
    for (const format of ['table', 'markdown', 'sarif']) {
      const run = await audit(files, env, format);
      expect(run.code, `${format}: ${run.stderr}`).toBe(3);
      expect(run.stdout + run.stderr).not.toContain(TOKEN);
    }
    expect(json.stdout + json.stderr).not.toContain(TOKEN);
  });

  it("UV_INDEX, a --hash that is PyPI's: audited, exit 0", async () => {
    await serve();
    const result = await audit({ 'requirements.txt': `flask==3.1.3 --hash=sha256:${WHEEL_SHA256}\n` }, { UV_INDEX: `private=${MACHINE_INDEX}` });
    expect(flaskOf(result.stdout)?.policy.status, result.stderr).toBe('pass');
    expect(result.code, result.stderr).toBe(0);
  });

  it("the user's pip.conf, a --hash that is not PyPI's: lockfile injection, exit 1", async () => {
    await serve();
    const home = tempHome('nerq-pipconf-');
    homes.push(home);
    mkdirSync(path.join(home, '.config', 'pip'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'pip', 'pip.conf'), `[global]\nextra-index-url =\n    ${MACHINE_INDEX}\n`);
    const result = await audit({ 'requirements.txt': `flask==3.1.3 --hash=sha256:${OTHER_SHA256}\n` }, { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') });
    const failure = flaskOf(result.stdout)?.policy.failures[0];
    expect(failure).toMatchObject({ rule: 'lockfile-injection', at: { file: 'requirements.txt', line: 1 } });
    expect(failure?.message).toContain('pip.conf extra-index-url');
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
    expect(result.code, result.stderr).toBe(1);
  });

  it("a uv.lock names its own index: the machine's does not apply (exit 0 whatever it pins)", async () => {
    await serve();
    const uvLock = `version = 1
requires-python = ">=3.10"

[[package]]
name = "app"
version = "0.1.0"
source = { virtual = "." }
dependencies = [{ name = "flask" }]

[[package]]
name = "flask"
version = "3.1.3"
source = { registry = "https://pypi.org/simple" }
wheels = [
    { url = "https://files.pythonhosted.org/packages/flask-3.1.3-py3-none-any.whl", hash = "sha256:${OTHER_SHA256}" },
]
`;
    const result = await audit({ 'uv.lock': uvLock }, { PIP_EXTRA_INDEX_URL: MACHINE_INDEX, UV_INDEX: MACHINE_INDEX });
    expect(flaskOf(result.stdout)?.policy.status, result.stderr).toBe('pass');
    expect(result.code, result.stderr).toBe(0);
  });

  it("the machine's own wheelhouse or file: mirror is not another index: exit 0 without a hash; a remote one beside it still holds", async () => {
    await serve();
    const local = { PIP_FIND_LINKS: '/opt/wheels', PIP_EXTRA_INDEX_URL: 'file:///opt/pypi/simple', UV_FIND_LINKS: 'C:\\wheels' };
    const files = { 'requirements.txt': 'flask==3.1.3\n' };
    const alone = await audit(files, local);
    expect(flaskOf(alone.stdout)?.policy.status, alone.stderr).toBe('pass');
    expect(alone.code, alone.stderr).toBe(0);
    const remote = await audit(files, { ...local, UV_EXTRA_INDEX_URL: MACHINE_INDEX });
    expect(flaskOf(remote.stdout)?.policy.failures[0]).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'] });
    expect(flaskOf(remote.stdout)?.policy.failures[0]?.message).toContain('UV_EXTRA_INDEX_URL');
    expect(remote.code, remote.stderr).toBe(3);
  });

  it('a PyPI index configured on the machine changes nothing: exit 0 without a hash', async () => {
    await serve();
    const result = await audit({ 'requirements.txt': 'flask==3.1.3\n' }, { PIP_INDEX_URL: 'https://pypi.org/simple' });
    expect(flaskOf(result.stdout)?.policy.status, result.stderr).toBe('pass');
    expect(result.code, result.stderr).toBe(0);
  });
});
