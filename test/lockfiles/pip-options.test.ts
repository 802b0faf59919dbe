import { describe, expect, it } from 'vitest';
import { readPipOptions, shlexSplit } from '../../src/lockfiles/pip-options.js';
import { readRequirements } from '../../src/lockfiles/index.js';

describe('shlexSplit', () => {
  it.each([
    ['a  b\tc', ['a', 'b', 'c']],
    [`'a b' "c \\" d" e\\ f`, ['a b', 'c " d', 'e f']],
    [`"x\\y" 'x\\y'`, ['x\\y', 'x\\y']],
    [`'' ""`, ['', '']],
    ['"unclosed word', ['unclosed word']],
    ['a\\', ['a']],
  ])('%j → %j, as Python splits it', (line, words) => {
    expect(shlexSplit(line)).toEqual(words);
  });
});

describe('readPipOptions', () => {
  it.each<[string, [string, string][]]>([
    ['--index-url=https://a', [['--index-url', 'https://a']]],
    ['--pypi-url https://a', [['--index-url', 'https://a']]],
    ['-ihttps://a', [['--index-url', 'https://a']]],
    ['-i https://a', [['--index-url', 'https://a']]],
    ['--ind https://a', [['--index-url', 'https://a']]],
    ['--extra=https://a', [['--extra-index-url', 'https://a']]],
    ['--fi ./wheels', [['--find-links', './wheels']]],
    ['--trusted-host h --extra-index-url https://a', [['--trusted-host', 'h'], ['--extra-index-url', 'https://a']]],
    ['--pre -e git+https://a#egg=x', [['--pre', ''], ['--editable', 'git+https://a#egg=x']]],
    ['--requirem=more.txt', [['--requirement', 'more.txt']]],
    ['-i -f', [['--index-url', '-f']]],
    ['-r', [['--requirement', '']]],
    ['positional --pre', [['--pre', '']]],
    ['--pre -- -i https://a', [['--pre', '']]],
  ])('%j', (line, options) => {
    const read = readPipOptions(line);
    expect(read.options.map((o) => [o.name, o.value])).toEqual(options);
    expect(read.unknown).toEqual([]);
  });

  it('returns options pip does not know, and prefixes of several, apart', () => {
    expect(readPipOptions('--no x --frobnicate -x --re y --pre').unknown).toEqual(['--no', '--frobnicate', '-x', '--re']);
    expect(readPipOptions('--no x --frobnicate -x --re y --pre').options).toEqual([{ name: '--pre', value: '' }]);
  });
});

describe('a requirements file read with those options', () => {
  it('applies every index option of a line, in any spelling', () => {
    for (const line of ['--pre --index-url https://evil.test/simple', '--extra=https://evil.test/simple', '--pypi-url https://evil.test/simple', "--trusted-host h -f 'https://evil.test/simple'"]) {
      expect(readRequirements(`${line}\nflask==3.1.3\n`, 'requirements.txt').dependencies[0]?.resolved, line).toBe('https://evil.test/simple');
    }
  });

  it('reads a line with -e as that editable requirement, else one with -r as that include, as pip does', () => {
    const editable = readRequirements('--pre -e git+https://evil.test/x.git#egg=x --index-url https://evil.test/simple\nflask\n', 'requirements.txt');
    expect((editable.skipped ?? []).map((s) => [s.name, s.line])).toEqual([['x', 1]]);
    expect(editable.dependencies[0]?.resolved).toBeNull();
    const include = readRequirements('--pre -r more.txt --index-url https://evil.test/simple\nflask\n', 'requirements.txt', { readInclude: () => 'idna==3.7\n' });
    expect(include.dependencies.map((d) => [d.name, d.file, d.resolved])).toEqual([['idna', 'more.txt', null], ['flask', 'requirements.txt', null]]);
  });
});

describe('a constraints file naming a URL for a package', () => {
  it('replaces the requirement of that name with a skipped entry at the constraint, and adds one for a package only the tree pulls in', () => {
    const includes: Record<string, string> = { 'constraints.txt': 'Flask @ https://evil.test/flask.whl\nmarkupsafe @ git+https://evil.test/markupsafe\nidna==3.7\n' };
    const input = readRequirements('-c constraints.txt\nflask==3.1.3\nidna\n', 'requirements.txt', { readInclude: (path) => includes[path] ?? null });
    expect(input.dependencies.map((d) => [d.name, d.version])).toEqual([['idna', '3.7']]);
    expect((input.skipped ?? []).map((s) => [s.name, s.file, s.line, s.kind, s.host, s.direct])).toEqual([
      ['flask', 'constraints.txt', 1, 'remote', 'evil.test', true],
      ['markupsafe', 'constraints.txt', 2, 'remote', 'evil.test', false],
    ]);
  });
});
