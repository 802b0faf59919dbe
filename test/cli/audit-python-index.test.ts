/**
 * `nerq audit` of Python pins taken from another index than PyPI (docs/security.md, "Lockfile
 * injection"): uv.lock's `source.registry`, requirements' `--extra-index-url`, a pdm.lock of a
 * project whose pyproject.toml declares a `[[tool.pdm.source]]` other than PyPI. Such a pin is
 * PyPI's release only when a sha256 it pins is one PyPI publishes for the release; pinning other
 * hashes fails (`lockfile-injection`, exit 1); no hash, or PyPI's hashes unavailable, leaves the
 * package incomplete (exit 3), never passed.
 *
 * PyPI answers with the recorded flask JSON (fixtures/http/pypi/pypi/flask/json.json, see
 * fixtures/PROVENANCE.md): flask 3.1.3's two files and their real sha256 digests. The lockfiles
 * are written in uv's, pip's and pdm's shapes around those files; the other index's host
 * (`pypi.evil.example`) and the "other" digest are edits, named as such below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFixtureServers, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { parseAudit, serveOsv, TempDirs } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';
import { unlocatedResults } from '../support/sarif-located.js';

/** PyPI's sha256 of flask-3.1.3-py3-none-any.whl and flask-3.1.3.tar.gz (the recorded flask JSON). */
const WHEEL_SHA256 = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670c';
const SDIST_SHA256 = '0ef0e52b8a9cd932855379197dd8f94047b359ca0a78695144304cb45f87c9eb';
/** Edited: a digest PyPI does not publish for flask 3.1.3 (the wheel's, last hex digit changed). */
const OTHER_SHA256 = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670d';
/** Edited: the index a dependency-confusion pull request adds. */
const OTHER_INDEX = 'https://pypi.evil.example/simple';
/** The policy bar is not what these tests are about: any score passes, any coverage. */
const POLICY = JSON.stringify({ minScore: 0, minCoverage: 0 });

/** A uv.lock of a project depending on flask 3.1.3, from `registry`, pinning `wheel` and `sdist` as its files' hashes. */
function uvLock(registry: string, wheel: string, sdist: string): string {
  return `version = 1
revision = 3
requires-python = ">=3.10"

[[package]]
name = "app"
version = "0.1.0"
source = { virtual = "." }
dependencies = [
    { name = "flask" },
]

[[package]]
name = "flask"
version = "3.1.3"
source = { registry = "${registry}" }
sdist = { url = "https://files.pythonhosted.org/packages/26/00/35d85dcce6c57fdc871f3867d465d780f302a175ea360f62533f12b27e2b/flask-3.1.3.tar.gz", hash = "sha256:${sdist}", size = 759004 }
wheels = [
    { url = "https://files.pythonhosted.org/packages/7f/9c/34f6962f9b9e9c71f6e5ed806e0d0ff03c9d1b0b2340088a0cf4bce09b18/flask-3.1.3-py3-none-any.whl", hash = "sha256:${wheel}", size = 103424 },
]
`;
}

/** A pdm.lock of a project depending on flask 3.1.3, pinning `wheel` and `sdist` (lock 4.5 shape; synthetic). */
function pdmLock(wheel: string, sdist: string): string {
  return `[metadata]
groups = ["default"]
strategy = ["inherit_metadata"]
lock_version = "4.5.0"

[[package]]
name = "flask"
version = "3.1.3"
requires_python = ">=3.9"
groups = ["default"]
files = [
    {file = "flask-3.1.3-py3-none-any.whl", hash = "sha256:${wheel}"},
    {file = "flask-3.1.3.tar.gz", hash = "sha256:${sdist}"},
]
`;
}

/** The project's pyproject.toml, declaring the pdm source `url` (none when null). */
function pdmPyproject(url: string | null): string {
  return `[project]
name = "app"
version = "0.1.0"
dependencies = ["flask==3.1.3"]
${url === null ? '' : `\n[[tool.pdm.source]]\nname = "private"\nurl = "${url}"\nverify_ssl = true\n`}`;
}

const dirs = new TempDirs();
let server: FixtureServer;

const startServer = useFixtureServers();

beforeAll(() => requireBuiltCli());
afterAll(() => dirs.cleanUp());

/** PyPI (the recorded flask answers, or `pypi` when given), OSV with no advisory, nothing else known. */
async function serve(pypi?: { status: number }): Promise<FixtureServer> {
  server = await startServer();
  server.fallback('GET', '/pypi/', pypi === undefined ? undefined : { status: pypi.status, body: 'down' });
  server.fallback('GET', '/pypistats/', { status: 404 });
  server.fallback('GET', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  server.fallback('POST', '/github/', { status: 404, body: '{"message":"Not Found"}' });
  serveOsv(server, []);
  return server;
}

async function audit(files: Record<string, string>) {
  const result = await runCli(['audit', dirs.project({ ...files, '.nerqrc.json': POLICY }), '--json'], { server });
  const report = parseAudit(result.stdout);
  const flask = report.entries.find((e) => e.subject.name === 'flask');
  return { result, report, flask };
}

describe('nerq audit: a uv.lock entry from another registry', () => {
  it("is PyPI's release when its hashes are PyPI's: audited, exit 0", async () => {
    await serve();
    const { result, flask } = await audit({ 'uv.lock': uvLock(OTHER_INDEX, WHEEL_SHA256, SDIST_SHA256) });
    expect(flask?.policy.status, result.stderr).toBe('pass');
    expect(result.code, result.stderr).toBe(0);
  });

  it('fails as lockfile injection when none of its hashes is PyPI\'s: exit 1, at the entry', async () => {
    await serve();
    const { result, flask } = await audit({ 'uv.lock': uvLock(OTHER_INDEX, OTHER_SHA256, OTHER_SHA256) });
    expect(flask?.policy.status).toBe('fail');
    expect(flask?.policy.failures[0]).toMatchObject({ rule: 'lockfile-injection', at: { file: 'uv.lock', line: 14 } });
    expect(flask?.policy.failures[0]?.message).toContain('pypi.evil.example');
    expect(result.code, result.stderr).toBe(1);
  });

  it('PyPI unavailable: the hashes cannot be compared, incomplete (exit 3), never a pass', async () => {
    await serve({ status: 503 });
    const { result, flask } = await audit({ 'uv.lock': uvLock(OTHER_INDEX, OTHER_SHA256, OTHER_SHA256) });
    expect(flask?.policy.status).not.toBe('pass');
    expect(flask?.policy.failures.map((f) => f.rule)).not.toContain('lockfile-injection');
    expect(result.code, result.stderr).toBe(3);
  });

  it("the same entry from PyPI's own registry is unchanged: exit 0 whatever it pins", async () => {
    await serve();
    const { result, flask } = await audit({ 'uv.lock': uvLock('https://pypi.org/simple', OTHER_SHA256, OTHER_SHA256) });
    expect(flask?.policy.status, result.stderr).toBe('pass');
    expect(result.code).toBe(0);
  });
});

describe('nerq audit: a pdm.lock of a project with another source', () => {
  it("is PyPI's release when its hashes are PyPI's: audited, exit 0", async () => {
    await serve();
    const { result, flask } = await audit({ 'pdm.lock': pdmLock(WHEEL_SHA256, SDIST_SHA256), 'pyproject.toml': pdmPyproject(OTHER_INDEX) });
    expect(flask?.policy.status, result.stderr).toBe('pass');
    expect(result.code, result.stderr).toBe(0);
  });

  it("fails as lockfile injection when none of its hashes is PyPI's: exit 1, at the entry, naming the host only", async () => {
    await serve();
    const { result, flask } = await audit({
      'pdm.lock': pdmLock(OTHER_SHA256, OTHER_SHA256),
      'pyproject.toml': pdmPyproject('https://user:s3cret@pypi.evil.example/simple'),
    });
    expect(flask?.policy.failures[0]).toMatchObject({ rule: 'lockfile-injection', at: { file: 'pdm.lock', line: 7 } });
    expect(flask?.policy.failures[0]?.message).toContain('pypi.evil.example');
    expect(result.stdout + result.stderr).not.toContain('s3cret');
    expect(result.code, result.stderr).toBe(1);
  });

  it('no hash pinned: incomplete (exit 3)', async () => {
    await serve();
    const bare = pdmLock(WHEEL_SHA256, SDIST_SHA256).replace(/^files = \[[^\]]*\]\n/m, '');
    const { result, flask } = await audit({ 'pdm.lock': bare, 'pyproject.toml': pdmPyproject(OTHER_INDEX) });
    expect(flask?.policy.failures[0]).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'] });
    expect(result.code, result.stderr).toBe(3);
  });

  it('PyPI down (503): incomplete (exit 3), never a pass', async () => {
    await serve({ status: 503 });
    const { result } = await audit({ 'pdm.lock': pdmLock(OTHER_SHA256, OTHER_SHA256), 'pyproject.toml': pdmPyproject(OTHER_INDEX) });
    expect(result.code, result.stderr).toBe(3);
  });

  it('without a source other than PyPI the entry is PyPI\'s: exit 0 whatever it pins', async () => {
    await serve();
    const { result, flask } = await audit({ 'pdm.lock': pdmLock(OTHER_SHA256, OTHER_SHA256), 'pyproject.toml': pdmPyproject(null) });
    expect(flask?.policy.status, result.stderr).toBe('pass');
    expect(result.code).toBe(0);
  });
});

describe('nerq audit: requirements with an extra index', () => {
  it('no hash pinned: nothing vouches for the files, incomplete (exit 3) naming the host only', async () => {
    await serve();
    const { result, flask } = await audit({ 'requirements.txt': `--extra-index-url https://user:s3cret@pypi.evil.example/simple\nflask==3.1.3\n` });
    expect(flask?.policy.status).toBe('incomplete');
    expect(flask?.policy.failures[0]).toMatchObject({ rule: 'not-checked', checks: ['lockfile-injection'], at: { file: 'requirements.txt', line: 2 } });
    expect(flask?.policy.failures[0]?.message).toContain('pypi.evil.example');
    expect(result.stdout).not.toContain('s3cret');
    expect(result.code, result.stderr).toBe(3);
  });

  it("a --hash that is PyPI's: audited, exit 0", async () => {
    await serve();
    const { result, flask } = await audit({
      'requirements.txt': `--extra-index-url ${OTHER_INDEX}\nflask==3.1.3 \\\n    --hash=sha256:${WHEEL_SHA256}\n`,
    });
    expect(flask?.policy.status, result.stderr).toBe('pass');
    expect(result.code, result.stderr).toBe(0);
  });

  it("a --hash that is not PyPI's: lockfile injection, exit 1", async () => {
    await serve();
    const { result, flask } = await audit({ 'requirements.txt': `--extra-index-url ${OTHER_INDEX}\nflask==3.1.3 --hash=sha256:${OTHER_SHA256}\n` });
    expect(flask?.policy.failures[0]).toMatchObject({ rule: 'lockfile-injection', at: { file: 'requirements.txt', line: 2 } });
    expect(result.code, result.stderr).toBe(1);
  });

  it('PyPI down (503): incomplete, exit 3', async () => {
    await serve({ status: 503 });
    const { result } = await audit({ 'requirements.txt': `--extra-index-url ${OTHER_INDEX}\nflask==3.1.3 --hash=sha256:${WHEEL_SHA256}\n` });
    expect(result.code, result.stderr).toBe(3);
  });

  it('table and SARIF name the host at the requirement, never the token', async () => {
    await serve();
    const dir = dirs.project({ 'requirements.txt': `--extra-index-url https://user:s3cret@pypi.evil.example/simple\nflask==3.1.3\n`, '.nerqrc.json': POLICY });
    const table = await runCli(['audit', dir], { server });
    expect(table.code, table.stderr).toBe(3);
    expect(table.stdout).toContain('pypi.evil.example');
    const sarif = await runCli(['audit', dir, '--format', 'sarif'], { server });
    expect(sarif.code).toBe(3);
    const results = (JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[] }[] }[] }).runs[0]!.results;
    expect(results.map((r) => [r.ruleId, r.locations[0]?.physicalLocation.artifactLocation.uri, r.locations[0]?.physicalLocation.region?.startLine])).toEqual([['policy/not-checked', 'requirements.txt', 2]]);
    expect(unlocatedResults(sarif.stdout)).toEqual([]);
    for (const run of [table, sarif]) expect(run.stdout + run.stderr).not.toContain('s3cret');
  });
});
