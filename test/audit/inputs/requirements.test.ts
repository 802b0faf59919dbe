import { describe, expect, it } from 'vitest';
import { isDevRequirementsFile } from '../../../src/lockfiles/requirements.js';
import { readRequirements } from '../../../src/lockfiles/index.js';
import { LockfileError } from '../../../src/audit/types.js';
import { find, fixture, lineOf, lockfileErrorOf, only, readFixture } from './helpers.js';

describe('requirements files', () => {
  it('reads pins, ranges, extras and markers, at their first physical line', () => {
    const text = [
      '# a comment',
      'requests[socks]==2.31.0 \\',
      '    --hash=sha256:aaaa \\',
      '    --hash=sha256:bbbb',
      'Charset_Normalizer>=3,<4 ; python_version >= "3.8"  # trailing comment',
      'idna (>=3.4)',
      'urllib3',
      'certifi===2023.11.17',
      'zope.interface==6.*',
      '',
    ].join('\n');
    const input = readRequirements(text, 'requirements.txt');
    expect(input.format).toBe('requirements');
    expect(only(input, 'requests')).toMatchObject({ version: '2.31.0', spec: '==2.31.0', line: 2, direct: true, dev: false, ecosystem: 'pypi' });
    expect(only(input, 'charset-normalizer')).toMatchObject({ version: null, spec: '>=3,<4', line: 5 });
    expect(only(input, 'idna')).toMatchObject({ version: null, spec: '>=3.4', line: 6 });
    expect(only(input, 'urllib3')).toMatchObject({ version: null, spec: null, line: 7 });
    expect(only(input, 'certifi')).toMatchObject({ version: '2023.11.17', line: 8 });
    expect(only(input, 'zope-interface')).toMatchObject({ version: null, spec: '==6.*' });
    expect(input.notes).toEqual([]);
  });

  it('skips editable, URL, path and VCS requirements with a note, and takes the index URL as resolved', () => {
    const text = [
      '--index-url https://pypi.corp.example.test/simple',
      '--extra-index-url https://other.example.test/simple',
      '-e git+https://example.test/repo.git#egg=thing',
      'git+https://example.test/other.git@v1#egg=other',
      'https://example.test/pkg-1.0-py3-none-any.whl',
      './local/pkg',
      'private @ https://example.test/private-1.0.tar.gz',
      '--frobnicate',
      '--find-links https://wheels.example.test/',
      '-f=https://other-wheels.example.test/',
      'flask==3.0.0',
    ].join('\n');
    const input = readRequirements(text, 'requirements.txt');
    expect(input.dependencies.map((d) => d.name)).toEqual(['flask']);
    expect(only(input, 'flask').resolved).toBe('https://pypi.corp.example.test/simple');
    expect(input.notes).toEqual([
      'requirements.txt:2: an extra index is configured: packages may resolve from it',
      'requirements.txt:3: skipped: an editable requirement (a local or VCS checkout)',
      'requirements.txt:4: skipped: a URL or path requirement (no index vouches for it)',
      'requirements.txt:5: skipped: a URL or path requirement (no index vouches for it)',
      'requirements.txt:6: skipped: a URL or path requirement (no index vouches for it)',
      'requirements.txt:7: "private" skipped: a direct URL reference (no index vouches for it)',
      'requirements.txt:8: unknown option "--frobnicate" ignored',
      'requirements.txt:9: a find-links location is configured: packages may resolve from it',
      'requirements.txt:10: a find-links location is configured: packages may resolve from it',
    ]);
  });

  it('follows -r includes relative to the including file, reporting their own file and line; -c only pins', () => {
    const files: Record<string, string> = {
      'reqs/base.txt': 'requests>=2.31\nidna\n',
      'reqs/constraints.txt': 'idna==3.6\nrequests==2.31.0\nunused==1.0\n',
      'reqs/dev.txt': '-r base.txt\n--constraint=constraints.txt\npytest==7.4.3\n-r dev.txt\n',
    };
    const input = readRequirements(files['reqs/dev.txt'] as string, 'reqs/dev.txt', { readInclude: (path) => files[path] ?? null });
    expect(only(input, 'requests')).toMatchObject({ file: 'reqs/base.txt', line: 1, version: '2.31.0', spec: '>=2.31', dev: true });
    expect(only(input, 'idna')).toMatchObject({ file: 'reqs/base.txt', line: 2, version: '3.6', spec: null });
    expect(only(input, 'pytest')).toMatchObject({ file: 'reqs/dev.txt', line: 3, dev: true });
    expect(find(input, 'unused')).toEqual([]);
  });

  // pip splits a requirements file with Python's str.splitlines(): each of these ends a line pip installs from.
  const PIP_LINE_BREAKS = [
    ['\\n', '\n'],
    ['\\r\\n', '\r\n'],
    ['a lone \\r', '\r'],
    ['\\v', '\v'],
    ['\\f', '\f'],
    ['\\x1c', '\x1c'],
    ['\\x1d', '\x1d'],
    ['\\x1e', '\x1e'],
    ['\\x85', '\x85'],
    ['U+2028', '\u2028'],
    ['U+2029', '\u2029'],
  ] as const;

  it.each(PIP_LINE_BREAKS)('splits lines at %s as pip does, counting one line per break', (_label, lineBreak) => {
    const afterComment = readRequirements(`# pinned${lineBreak}flask==3.1.3\n`, 'requirements.txt');
    expect(only(afterComment, 'flask')).toMatchObject({ version: '3.1.3', line: 2 });
    const afterTrailingComment = readRequirements(`click==8.1.8 # ok${lineBreak}flask==3.1.3${lineBreak}idna==3.6`, 'requirements.txt');
    expect(afterTrailingComment.dependencies.map((d) => [d.name, d.version, d.line])).toEqual([
      ['click', '8.1.8', 1],
      ['flask', '3.1.3', 2],
      ['idna', '3.6', 3],
    ]);
    const files: Record<string, string> = { 'base.txt': `# base${lineBreak}flask==3.1.3` };
    const included = readRequirements(`-r base.txt${lineBreak}-c base.txt`, 'requirements.txt', { readInclude: (path) => files[path] ?? null });
    expect(only(included, 'flask')).toMatchObject({ file: 'base.txt', line: 2, version: '3.1.3' });
  });

  it('joins a continued line across a break pip splits at', () => {
    const input = readRequirements('flask==3.1.3 \\\v    --hash=sha256:' + 'a'.repeat(64) + '\u2028idna==3.6', 'requirements.txt');
    expect(only(input, 'flask')).toMatchObject({ line: 1, integrity: expect.stringMatching(/^sha256-/) });
    expect(only(input, 'idna').line).toBe(3);
  });

  it('fails at the include line when an included file cannot be read', () => {
    const error = lockfileErrorOf(() => readRequirements('flask\n-r missing.txt\n', 'requirements.txt', { readInclude: () => null }));
    expect(error.message).toBe('requirements.txt:2: cannot read the included file "missing.txt"');
  });

  it('records an include from a URL as remote code (the run is incomplete) and notes a constraints file from a URL', () => {
    const input = readRequirements('-r https://example.test/reqs.txt\n-c https://example.test/constraints.txt\nflask==3.0.0\n', 'requirements.txt');
    expect(input.skipped).toEqual([
      expect.objectContaining({ kind: 'remote', name: null, file: 'requirements.txt', line: 1, host: 'example.test', source: 'https://example.test/reqs.txt', direct: true }),
    ]);
    expect(input.notes).toEqual([
      'requirements.txt:1: include "https://example.test/reqs.txt" not read: a file from a URL (no index vouches for what it lists)',
      'requirements.txt:2: include "https://example.test/constraints.txt" not read: a file from a URL (no index vouches for what it lists)',
    ]);
    expect(only(input, 'flask')).toMatchObject({ version: '3.0.0' });
  });

  it('refuses an include by absolute path or file URL, as one that leaves the tree', () => {
    for (const include of ['/etc/reqs.txt', 'file:///etc/reqs.txt', 'C:\\reqs\\base.txt', 'C:/reqs/base.txt']) {
      const error = lockfileErrorOf(() => readRequirements(`flask\n-r ${include}\n`, 'requirements.txt', { readInclude: () => 'idna\n' }));
      expect(error.message).toMatch(/^requirements\.txt:2: include .* is an absolute path or file URL/);
    }
  });

  it('notes an include it has no reader for', () => {
    const input = readRequirements('-r other.txt\n', 'requirements.txt');
    expect(input.notes).toEqual(['requirements.txt:1: include "other.txt" not followed: no reader given']);
  });

  it('reads pip-compile "# via" blocks: only pins the project asked for are direct', () => {
    const text = fixture('python-requirements/requirements.txt');
    const input = readFixture('python-requirements', 'requirements.txt');
    expect(only(input, 'requests')).toMatchObject({ direct: true, line: lineOf(text, 'requests==2.31.0') });
    expect(only(input, 'certifi').direct).toBe(false);
    const multi = 'a==1.0\n    # via\n    #   b\n    #   -r requirements.in\nc==2.0\n    # via\n    #   b\n    #   d\n';
    const parsed = readRequirements(multi, 'requirements.txt');
    expect(only(parsed, 'a').direct).toBe(true);
    expect(only(parsed, 'c').direct).toBe(false);
  });

  it('reads a "# via" comment right after the last hash continuation (older pip-compile output) as that pin\'s', () => {
    // pip ends a `\`-continued line at a comment line; the comment is this pin's `# via`.
    const text = [
      'amqp==2.6.1 \\',
      '    --hash=sha256:70cdb10628468ff14e57ec2f751c7aa9e48e7e3651cfd62d431213c0c4e58f21 \\',
      '    # via kombu',
      'alembic==1.4.3 \\',
      '    --hash=sha256:4e02ed2aa796bd179965041afa092c55b51fb077de19d61835673cc80672c01c \\',
      '    # via -r requirements/main.in',
      'babel==2.9.0 \\',
      '    --hash=sha256:9d35c22fcc79893c3ecc85ac4a56cde1ecf3f19c540bba0922308a6c06ca6fa5 \\',
      '    # via',
      '    #   -r requirements/main.in',
      '    #   pyramid',
      'kombu==4.6.11 \\',
      '    --hash=sha256:be48cdffb54a2194d93ad6533d73f69408486483d189fe9f5990ee24255b0e0a',
      '',
    ].join('\n');
    const parsed = readRequirements(text, 'requirements/main.txt');
    expect(parsed.dependencies.map((d) => [d.name, d.version, d.direct, d.line])).toEqual([
      ['amqp', '2.6.1', false, 1],
      ['alembic', '1.4.3', true, 4],
      ['babel', '2.9.0', true, 7],
      ['kombu', '4.6.11', true, 12],
    ]);
  });

  it('rejects a malformed requirement at its line', () => {
    expect(() => readRequirements('flask\n\nrequests>>2\n', 'requirements.txt')).toThrow(new LockfileError('requirements.txt', 3, 'invalid version specifier'));
  });

  it.each([
    ['requirements.txt', false],
    ['requirements-dev.txt', true],
    ['dev-requirements.txt', true],
    ['requirements_test.txt', true],
    ['requirements-docs.txt', true],
    ['requirements/dev.txt', true],
    ['requirements/base.txt', false],
    ['requirements-prod.txt', false],
    ['requirements-devices.txt', false],
  ])('%s is dev: %s', (file, dev) => {
    expect(isDevRequirementsFile(file)).toBe(dev);
  });

  it('keeps each requirement\'s --hash options as its integrity (SRI), pip-compile --generate-hashes output included', () => {
    const input = readFixture('python-requirements', 'requirements-dev.txt');
    const sri = (hex: string) => `sha256-${Buffer.from(hex, 'hex').toString('base64')}`;
    expect(only(input, 'iniconfig').integrity?.split(' ')).toEqual([
      sri('ca2613b381d3bd37edf76e6b9097be13cbe34e2f0f7b6d2d574df309bc773b0d'),
      sri('73f12f7fbfda1741e5a870dacfb99a3542fbb17c48494597e5b2d486bdbba2d1'),
    ]);
    expect(only(readRequirements('a==1.0\n', 'requirements.txt'), 'a').integrity).toBeUndefined();
  });

  it('an --extra-index-url or --find-links other than PyPI becomes resolved (without credentials), wherever it is given', () => {
    const resolved = (text: string) => only(readRequirements(text, 'requirements.txt'), 'a').resolved;
    expect(resolved('a==1.0\n')).toBeNull();
    expect(resolved('--extra-index-url https://pypi.org/simple\na==1.0\n')).toBeNull();
    expect(resolved('a==1.0\n--extra-index-url https://u:tok@pypi.internal.example/simple\n')).toBe('https://pypi.internal.example/simple');
    expect(resolved('--index-url https://pypi.org/simple\n--find-links ./wheels\na==1.0\n')).toBe('./wheels');
    expect(resolved('-i https://mirror.example/simple\na==1.0\n')).toBe('https://mirror.example/simple');
    expect(resolved('-i https://pypi.org/simple\na==1.0\n')).toBe('https://pypi.org/simple');
  });
});
