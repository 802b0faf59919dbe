import { describe, expect, it } from 'vitest';
import { readPdmLock, readPipfileLock, readPoetryLock, readUvLock } from '../../../src/lockfiles/index.js';
import { find, fixture, lineExactly, lineOf, only, readFixture } from './helpers.js';

const NAMES = ['certifi', 'charset-normalizer', 'idna', 'iniconfig', 'packaging', 'pluggy', 'pytest', 'requests', 'urllib3'];

describe('poetry.lock', () => {
  const text = fixture('python-poetry/poetry.lock');

  it("puts each package at its block's name line", () => {
    const input = readFixture('python-poetry', 'poetry.lock', ['pyproject.toml']);
    for (const name of NAMES) expect(only(input, name).line).toBe(lineExactly(text, `name = "${name}"`));
    expect(input.notes).toEqual([]);
  });

  it('takes dev from Poetry 2 groups even without pyproject.toml, and guesses direct then', () => {
    const input = readFixture('python-poetry', 'poetry.lock');
    expect(input.dependencies.filter((d) => d.dev).map((d) => d.name)).toEqual(['iniconfig', 'packaging', 'pluggy', 'pytest']);
    expect(input.notes).toEqual([expect.stringContaining('no pyproject.toml next to it')]);
  });

  it('takes dev from pyproject.toml through the graph when the lock (Poetry 1.5–1.8) has neither groups nor category', () => {
    const bare = text.replace(/^groups = .*\n/gm, '').replace('lock-version = "2.1"', 'lock-version = "2.0"');
    const pyproject = fixture('python-poetry/pyproject.toml');
    const input = readPoetryLock(bare, 'poetry.lock', { manifests: { 'pyproject.toml': pyproject } });
    expect(input.dependencies.filter((d) => d.dev).map((d) => d.name)).toEqual(['iniconfig', 'packaging', 'pluggy', 'pytest']);
    expect(readPoetryLock(bare, 'poetry.lock').dependencies.some((d) => d.dev)).toBe(false);
  });

  it('skips git and directory sources with a note and keeps a named index as resolved', () => {
    const lock = `[[package]]
name = "private-lib"
version = "1.0.0"
optional = false
python-versions = "*"
groups = ["main"]

[package.source]
type = "legacy"
url = "https://pypi.corp.example.test/simple"
reference = "corp"

[[package]]
name = "forked"
version = "2.0.0"
optional = false
python-versions = "*"
groups = ["main"]

[package.source]
type = "git"
url = "https://example.test/forked.git"
reference = "main"
resolved_reference = "0123456789abcdef"
`;
    const input = readPoetryLock(lock, 'poetry.lock');
    expect(only(input, 'private-lib').resolved).toBe('https://pypi.corp.example.test/simple');
    expect(find(input, 'forked')).toEqual([]);
    expect(input.notes).toContain(`poetry.lock:${lineOf(lock, 'name = "forked"')}: "forked" skipped: not from an index ("git" source)`);
  });
});

describe('poetry.lock [package.source] types', () => {
  const lockWith = (source: string) => `[[package]]
name = "flask"
version = "3.1.3"
optional = false
python-versions = "*"
groups = ["main"]

[package.source]
${source}
`;
  // Poetry's installer treats git, file, directory and url apart; every other type is downloaded from the index `reference` names.
  it.each([
    ['type = "legacy"\nurl = "https://pypi.corp.example.test/simple"\nreference = "corp"', 'https://pypi.corp.example.test/simple'],
    ['type = "Legacy"\nurl = "https://pypi.corp.example.test/simple"\nreference = "corp"', 'https://pypi.corp.example.test/simple'],
    ['type = "custom"\nurl = "https://pypi.corp.example.test/simple"\nreference = "corp"', 'https://pypi.corp.example.test/simple'],
    ['type = "custom"\nurl = "https://pypi.org/simple"\nreference = "PyPI"', 'https://pypi.org/simple'],
    ['type = "custom"\nreference = "PyPI"', null],
    ['type = "custom"\nreference = "corp"', 'corp'],
    ['type = "File"\nurl = "https://pypi.corp.example.test/simple"\nreference = "corp"', 'https://pypi.corp.example.test/simple'],
    ['type = "Directory"\nurl = "../lib"\nreference = "corp"', '../lib'],
  ])('reads %j as an index source', (source, resolved) => {
    const input = readPoetryLock(lockWith(source), 'poetry.lock');
    expect(only(input, 'flask')).toMatchObject({ version: '3.1.3', resolved });
    expect(input.skipped ?? []).toEqual([]);
  });

  it.each([
    ['type = "git"\nurl = "https://example.test/flask.git"\nreference = "main"', 'remote', 'example.test'],
    ['type = "Git"\nurl = "https://example.test/flask.git"\nreference = "main"', 'remote', 'example.test'],
    ['type = "URL"\nurl = "https://example.test/flask-3.1.3.tar.gz"', 'remote', 'example.test'],
    ['type = "file"\nurl = "dist/flask-3.1.3.tar.gz"', 'local', null],
    ['type = "directory"\nurl = "../flask"', 'local', null],
  ])('skips %j as not from an index', (source, kind, host) => {
    const input = readPoetryLock(lockWith(source), 'poetry.lock');
    expect(find(input, 'flask')).toEqual([]);
    expect((input.skipped ?? []).map((s) => [s.name, s.kind, s.host])).toEqual([['flask', kind, host]]);
  });
});

describe('uv.lock', () => {
  it("puts each package at its block's name line, resolved from its registry, and skips the project", () => {
    const text = fixture('python-uv/uv.lock');
    const input = readFixture('python-uv', 'uv.lock');
    for (const name of NAMES) expect(only(input, name)).toMatchObject({ line: lineExactly(text, `name = "${name}"`), resolved: '{{ORIGIN}}/pypi/simple' });
    expect(find(input, 'fixture-app')).toEqual([]);
  });

  it('attributes direct dependencies to workspace members, follows extras, and skips git sources', () => {
    const lock = `version = 1
requires-python = ">=3.11"

[manifest]
members = ["app", "lib"]

[[package]]
name = "app"
version = "0.1.0"
source = { editable = "." }
dependencies = [
    { name = "lib" },
    { name = "requests", extra = ["socks"] },
]

[[package]]
name = "lib"
version = "0.1.0"
source = { editable = "packages/lib" }
dependencies = [{ name = "forked" }, { name = "requests" }]

[package.dev-dependencies]
test = [{ name = "pytest" }]

[[package]]
name = "forked"
version = "2.0.0"
source = { git = "https://example.test/forked.git?rev=main#0123456789abcdef" }

[[package]]
name = "pysocks"
version = "1.7.1"
source = { registry = "https://pypi.example.test/simple" }

[[package]]
name = "pytest"
version = "7.4.3"
source = { registry = "https://pypi.example.test/simple" }

[[package]]
name = "requests"
version = "2.31.0"
source = { registry = "https://pypi.example.test/simple" }

[package.optional-dependencies]
socks = [{ name = "pysocks" }]
`;
    const input = readUvLock(lock, 'uv.lock');
    expect(find(input, 'requests').map((d) => d.workspace)).toEqual(['.', 'packages/lib']);
    expect(only(input, 'pysocks')).toMatchObject({ direct: false, dev: false });
    expect(only(input, 'pytest')).toMatchObject({ direct: true, dev: true, workspace: 'packages/lib' });
    expect(find(input, 'forked')).toEqual([]);
    expect(find(input, 'app')).toEqual([]);
    expect(input.notes).toEqual([`uv.lock:${lineExactly(lock, 'name = "forked"')}: "forked" skipped: not from an index (git, URL or path source)`]);
  });
});

describe('pdm.lock', () => {
  it("puts each package at its block's name line", () => {
    const text = fixture('python-pdm/pdm.lock');
    const input = readFixture('python-pdm', 'pdm.lock', ['pyproject.toml']);
    for (const name of NAMES) expect(only(input, name).line).toBe(lineExactly(text, `name = "${name}"`));
  });

  it('writes a package once per extra set: one entry per version', () => {
    const lock = `[metadata]
groups = ["default"]

[[package]]
name = "requests"
version = "2.31.0"
groups = ["default"]
dependencies = ["urllib3<3,>=1.21.1"]

[[package]]
name = "requests"
version = "2.31.0"
extras = ["socks"]
groups = ["default"]
dependencies = ["PySocks!=1.5.7,>=1.5.6", "requests==2.31.0"]

[[package]]
name = "pysocks"
version = "1.7.1"
groups = ["default"]

[[package]]
name = "urllib3"
version = "2.1.0"
groups = ["default"]

[[package]]
name = "vendored"
version = "0.1.0"
path = "./vendored"
groups = ["default"]
`;
    const pyproject = '[project]\nname = "x"\ndependencies = ["requests[socks]==2.31.0"]\n';
    const input = readPdmLock(lock, 'pdm.lock', { manifests: { 'pyproject.toml': pyproject } });
    expect(only(input, 'requests')).toMatchObject({ direct: true, line: lineOf(lock, 'name = "requests"') });
    expect(only(input, 'pysocks').direct).toBe(false);
    expect(find(input, 'vendored')).toEqual([]);
    expect(input.notes).toHaveLength(1);
  });

  it('takes dev from pyproject.toml through the graph when packages carry no groups', () => {
    const bare = fixture('python-pdm/pdm.lock').replace(/^groups = \["(default|dev)"\]\n/gm, '');
    const pyproject = fixture('python-pdm/pyproject.toml');
    const input = readPdmLock(bare, 'pdm.lock', { manifests: { 'pyproject.toml': pyproject } });
    expect(input.dependencies.filter((d) => d.dev).map((d) => d.name).sort()).toEqual(['iniconfig', 'packaging', 'pluggy', 'pytest']);
  });
});

describe('Pipfile.lock', () => {
  const text = fixture('python-pipenv/Pipfile.lock');

  it('puts each package at its key, dev for "develop", resolved from its named index', () => {
    const input = readFixture('python-pipenv', 'Pipfile.lock', ['Pipfile']);
    for (const name of NAMES) expect(only(input, name).line).toBe(lineOf(text, `"${name}": {`));
    expect(only(input, 'requests')).toMatchObject({ dev: false, resolved: '{{ORIGIN}}/pypi/simple', version: '2.31.0' });
    expect(only(input, 'pytest').dev).toBe(true);
  });

  it('without a Pipfile, takes the entries with an index as direct; without any index, all', () => {
    const input = readFixture('python-pipenv', 'Pipfile.lock');
    expect(input.dependencies.filter((d) => d.direct).map((d) => d.name)).toEqual(['requests', 'pytest']);
    const noIndex = readPipfileLock(text.replace(/^\s*"index": "pypi",\n/gm, ''), 'Pipfile.lock');
    expect(noIndex.dependencies.every((d) => d.direct)).toBe(true);
    expect(noIndex.notes).toEqual(['Pipfile.lock: no Pipfile next to it: every package is taken as direct']);
  });

  it('skips git, path and editable entries with a note', () => {
    const lock = JSON.stringify({ default: { thing: { git: 'https://example.test/thing.git', ref: 'abc' }, flask: { version: '==3.0.0' } }, develop: { self: { editable: true, path: '.' } } }, null, 2);
    const input = readPipfileLock(lock, 'Pipfile.lock');
    expect(input.dependencies.map((d) => d.name)).toEqual(['flask']);
    expect(input.notes.filter((n) => n.includes('skipped'))).toEqual([
      `Pipfile.lock:${lineOf(lock, '"thing": {')}: "thing" skipped: not pinned to an index version (git, path or editable)`,
      `Pipfile.lock:${lineOf(lock, '"self": {')}: "self" skipped: not pinned to an index version (git, path or editable)`,
    ]);
  });

  // pipenv builds `name+extras+version+markers+hashes` for an entry without a git, path or file key, editable or not.
  it.each([
    ['an editable entry without a git, path or file key', { version: '==3.1.3', editable: true, hashes: ['sha256:' + 'a'.repeat(64)] }, '3.1.3'],
    ['a plain string version', '3.1.3', '3.1.3'],
    ['a plain string exact version', '3.1.3.post1', '3.1.3.post1'],
  ] as const)('reads %s as the pinned release', (_label, entry, version) => {
    const input = readPipfileLock(JSON.stringify({ default: { flask: entry } }), 'Pipfile.lock');
    expect(only(input, 'flask')).toMatchObject({ version });
    expect(input.skipped ?? []).toEqual([]);
  });

  it.each([
    ['no version', { index: 'pypi' }],
    ['no version, editable', { editable: true }],
    ['a range', { version: '>=3.0' }],
    ['a wildcard', { version: '*' }],
    ['a plain string "*"', '*'],
    ['a plain string range', '>=3.0'],
  ] as const)('takes an entry with %s as unpinned: remote code nerq cannot place, never a note alone', (_label, entry) => {
    const lock = JSON.stringify({ _meta: { sources: [{ name: 'pypi', url: 'https://pypi.org/simple' }] }, default: { flask: entry } }, null, 2);
    const input = readPipfileLock(lock, 'Pipfile.lock');
    expect(find(input, 'flask')).toEqual([]);
    expect((input.skipped ?? []).map((s) => [s.name, s.kind, s.host, s.line])).toEqual([['flask', 'remote', null, lineOf(lock, '"flask":')]]);
  });

  it('reads a git entry as the repository it names, remote unless a file: URL or a path', () => {
    const kinds = (git: string) => (readPipfileLock(JSON.stringify({ develop: { thing: { git, ref: 'abc' } } }), 'Pipfile.lock').skipped ?? []).map((s) => [s.kind, s.host, s.source]);
    // The shape pipenv 2024.0 wrote (pypa/pipenv's own Pipfile.lock at 28cbcab): a PEP 508 direct reference, name first.
    expect(kinds(' pypiserver@ git+https://github.com/matteius/pypiserver.git@pipenv-313')).toEqual([['remote', 'github.com', 'git+https://github.com/matteius/pypiserver.git@pipenv-313']]);
    expect(kinds('thing @ https://user:token@git.example/thing.git')).toEqual([['remote', 'git.example', 'https://git.example/thing.git']]);
    expect(kinds('git@github.com:o/thing.git')).toEqual([['remote', 'github.com', 'git@github.com:o/thing.git']]);
    // No scheme, no path: a repository nerq cannot place, never the project's own folder.
    expect(kinds('github.com/o/thing')).toEqual([['remote', null, 'github.com/o/thing']]);
    expect(kinds('file:///src/thing')).toEqual([['local', null, 'file:///src/thing']]);
    expect(kinds('../thing')).toEqual([['local', null, '../thing']]);
  });
});

/** `sha256:<hex>` as the SRI token the readers keep in `integrity` (python-hashes.ts). */
const sri = (hex: string) => `sha256-${Buffer.from(hex, 'hex').toString('base64')}`;
const CERTIFI_WHEEL = 'e9168408fe3d30aa31a025d41e44efde760b2125a439173ac79eb09aea9206d6';
const CERTIFI_SDIST = '4fe78dc5ca500043a876f96521ad2e3e29d2e6d2c3cf8172dad1ef446cf18d88';

describe('the hashes a Python lockfile pins (lockfile injection, docs/security.md)', () => {
  it('poetry.lock: `files` become the entry\'s integrity, and so does `[metadata.files]` before Poetry 1.2', () => {
    for (const dir of ['python-poetry', 'python-poetry-legacy']) {
      const certifi = only(readFixture(dir, 'poetry.lock'), 'certifi');
      expect(certifi.integrity?.split(' ').sort()).toEqual([sri(CERTIFI_WHEEL), sri(CERTIFI_SDIST)].sort());
    }
  });

  it('uv.lock: the sdist and wheel hashes, with the registry as resolved', () => {
    const certifi = only(readFixture('python-uv', 'uv.lock'), 'certifi');
    expect(certifi.integrity?.split(' ').sort()).toEqual([sri(CERTIFI_WHEEL), sri(CERTIFI_SDIST)].sort());
  });

  it('Pipfile.lock: `hashes`', () => {
    const certifi = only(readFixture('python-pipenv', 'Pipfile.lock'), 'certifi');
    expect(certifi.integrity?.split(' ').sort()).toEqual([sri(CERTIFI_WHEEL), sri(CERTIFI_SDIST)].sort());
  });

  it('an entry pinning no hash has no integrity; an unreadable hash (md5, wrong length) is not kept', () => {
    const lock = `[[package]]\nname = "a"\nversion = "1.0"\nsource = { registry = "https://pypi.org/simple" }\nsdist = { url = "x", hash = "md5:0123456789abcdef0123456789abcdef" }\nwheels = [{ url = "y", hash = "sha256:abc" }]\n`;
    expect(only(readUvLock(lock, 'uv.lock'), 'a').integrity).toBeUndefined();
  });

  it("Pipfile.lock: an entry without an index resolves from the lock's first source (pipenv's default index)", () => {
    const lock = (urls: string[]) =>
      JSON.stringify({ _meta: { sources: urls.map((url, i) => ({ name: `s${i}`, url, verify_ssl: true })) }, default: { a: { hashes: [], version: '==1.0' } }, develop: {} });
    expect(only(readPipfileLock(lock(['https://pypi.internal.example/simple', 'https://pypi.org/simple']), 'Pipfile.lock'), 'a').resolved).toBe('https://pypi.internal.example/simple');
    expect(only(readPipfileLock(lock(['https://pypi.org/simple', 'https://pypi.internal.example/simple']), 'Pipfile.lock'), 'a').resolved).toBe('https://pypi.org/simple');
    expect(only(readPipfileLock(lock([]), 'Pipfile.lock'), 'a').resolved).toBeNull();
  });

  it("uv.lock: another registry's URL is kept without credentials", () => {
    const lock = `[[package]]\nname = "a"\nversion = "1.0"\nsource = { registry = "https://user:s3cret@pypi.internal.example/simple?token=t0k" }\n`;
    expect(only(readUvLock(lock, 'uv.lock'), 'a').resolved).toBe('https://pypi.internal.example/simple');
  });
});

describe('a PyPI entry whose lock records a file URL on another host', () => {
  it('uv.lock and pdm.lock: the first such URL is where it comes from; PyPI\'s own file host changes nothing', async () => {
    const { readUvLock, readPdmLock } = await import('../../../src/lockfiles/index.js');
    const uv = (url: string) =>
      readUvLock(`version = 1\n\n[[package]]\nname = "flask"\nversion = "3.1.3"\nsource = { registry = "https://pypi.org/simple" }\nsdist = { url = "https://files.pythonhosted.org/packages/flask-3.1.3.tar.gz", hash = "sha256:00" }\nwheels = [{ url = "${url}", hash = "sha256:11" }]\n`, 'uv.lock');
    expect(uv('https://mirror.example/flask-3.1.3-py3-none-any.whl').dependencies[0]?.resolved).toBe('https://mirror.example/flask-3.1.3-py3-none-any.whl');
    expect(uv('https://files.pythonhosted.org/packages/flask-3.1.3-py3-none-any.whl').dependencies[0]?.resolved).toBe('https://pypi.org/simple');
    const pdm = readPdmLock('[metadata]\nlock_version = "4.5.0"\nstrategy = ["static_urls"]\n\n[[package]]\nname = "flask"\nversion = "3.1.3"\nfiles = [{url = "https://mirror.example/flask.whl", hash = "sha256:11"}]\n', 'pdm.lock');
    expect(pdm.dependencies[0]?.resolved).toBe('https://mirror.example/flask.whl');
  });
});
