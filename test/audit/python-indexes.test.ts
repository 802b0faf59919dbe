/**
 * pip's and uv's indexes configured on the machine that audits (src/audit/python-indexes.ts):
 * where each platform keeps the user's files, which environment variables count and how their
 * lists split, the sections and keys of pip.conf and uv.toml, and that a URL's credentials never
 * survive the reading. The configuration texts are synthetic, in pip's and uv's documented shapes.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalLocation, loadPythonConfigParser, loadPythonIndexes, pipUserFiles, uvUserFile } from '../../src/audit/python-indexes.js';
import { pipConfigValues, uvConfigValues } from '../../src/lockfiles/python-settings.js';

const TOKEN = 'tok3n-never-shown';
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
/** A fresh HOME holding `files` (relative paths). */
function home(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-pyidx-'));
  made.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

// An audit's runtime loads the TOML parser first (src/app/runtime.ts, loadAuditConfigParsers).
beforeAll(loadPythonConfigParser);

describe('the user files of each platform', () => {
  it.each([
    ['linux', { HOME: '/h' }, ['/h/.pip/pip.conf', '/h/.config/pip/pip.conf'], '/h/.config/uv/uv.toml'],
    ['linux', { HOME: '/h', XDG_CONFIG_HOME: '/x' }, ['/h/.pip/pip.conf', '/x/pip/pip.conf'], '/x/uv/uv.toml'],
    ['darwin', { HOME: '/Users/u' }, ['/Users/u/.pip/pip.conf', '/Users/u/Library/Application Support/pip/pip.conf', '/Users/u/.config/pip/pip.conf'], '/Users/u/.config/uv/uv.toml'],
    ['win32', { USERPROFILE: 'C:\\Users\\u', APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, ['C:\\Users\\u\\pip\\pip.ini', 'C:\\Users\\u\\AppData\\Roaming\\pip\\pip.ini'], 'C:\\Users\\u\\AppData\\Roaming\\uv\\uv.toml'],
  ] as const)('%s %j', (platform, env, pip, uv) => {
    expect(pipUserFiles(env, platform)).toEqual(pip);
    expect(uvUserFile(env, platform)).toBe(uv);
  });
});

describe('pip.conf', () => {
  it('reads [global] and [install] index settings, continuation lines, either key spelling; nothing else', () => {
    const text = [
      '# a comment',
      '[global]',
      'timeout = 60',
      'index_url = https://a.example/simple',
      'extra-index-url =',
      '    https://b.example/simple',
      '    https://c.example/simple',
      '[install]',
      'find-links: https://d.example/links',
      '[freeze]',
      'index-url = https://not-read.example/simple',
    ].join('\n');
    expect(pipConfigValues(text)).toEqual([
      { key: 'index-url', value: 'https://a.example/simple' },
      { key: 'extra-index-url', value: ' https://b.example/simple https://c.example/simple' },
      { key: 'find-links', value: 'https://d.example/links' },
    ]);
  });
});

describe('pip.conf, hostile shapes', () => {
  it('a long line with no separator, and a key spelled with spaces around it, are read in one pass', () => {
    // Not a timing assertion: a backtracking key pattern would not return on this line within the test's timeout.
    expect(pipConfigValues(`[global]\n${'a '.repeat(100_000)}\nfind-links = https://a.example/links\n`)).toEqual([{ key: 'find-links', value: 'https://a.example/links' }]);
    expect(pipConfigValues('[global]\nindex-url   :   https://a.example/simple\n')).toEqual([{ key: 'index-url', value: 'https://a.example/simple' }]);
  });
});

describe('uv.toml', () => {
  it('reads index-url, extra-index-url, find-links and [[index]], at the top level and under [pip]', () => {
    expect(
      uvConfigValues({ 'index-url': 'https://a.example/simple', 'extra-index-url': ['https://b.example/simple'], index: [{ name: 'x', url: 'https://c.example/simple' }, { name: 'no-url' }], pip: { 'find-links': ['https://d.example/'] } }),
    ).toEqual([
      { key: 'index-url', value: 'https://a.example/simple' },
      { key: 'extra-index-url', value: 'https://b.example/simple' },
      { key: 'index', value: 'https://c.example/simple' },
      { key: 'find-links', value: 'https://d.example/' },
    ]);
  });
});

describe('isLocalLocation', () => {
  it.each([
    ['/opt/wheels', true],
    ['./wheels', true],
    ['C:\\wheels', true],
    ['file:///opt/pypi/simple', true],
    ['FILE:/opt/pypi', true],
    [' file:///x ', true],
    ['https://pypi.example/simple', false],
    ['http://10.0.0.1/simple', false],
    ['HTTPS://pypi.example', false],
    ['git+https://host.example/x', false],
  ])('%s → %s', (url, local) => {
    expect(isLocalLocation(url)).toBe(local);
  });
});

describe('loadPythonIndexes', () => {
  const linux = (env: Record<string, string>) => loadPythonIndexes({ env, platform: 'linux' });

  it.each([
    ['PIP_INDEX_URL', 'https://a.example/simple', ['https://a.example/simple']],
    ['PIP_EXTRA_INDEX_URL', 'https://a.example/simple  https://b.example/simple', ['https://a.example/simple', 'https://b.example/simple']],
    ['PIP_FIND_LINKS', 'https://a.example/links', ['https://a.example/links']],
    ['UV_INDEX_URL', 'https://a.example/simple', ['https://a.example/simple']],
    ['UV_DEFAULT_INDEX', 'https://a.example/simple', ['https://a.example/simple']],
    ['UV_EXTRA_INDEX_URL', 'https://a.example/simple https://b.example/simple', ['https://a.example/simple', 'https://b.example/simple']],
    ['UV_INDEX', 'private=https://a.example/simple https://b.example/simple', ['https://a.example/simple', 'https://b.example/simple']],
    ['UV_FIND_LINKS', 'https://a.example/links,https://b.example/links', ['https://a.example/links', 'https://b.example/links']],
  ])('%s', (name, value, urls) => {
    const read = linux({ HOME: home(), [name]: value });
    expect(read.indexes).toEqual(urls.map((url) => ({ url, from: name })));
  });

  it('an empty variable configures nothing', () => {
    expect(linux({ HOME: home(), PIP_EXTRA_INDEX_URL: '  ' }).indexes).toEqual([]);
  });

  it('environment first, then the files, each named by where it came from', () => {
    const dir = home({ '.config/pip/pip.conf': '[global]\nextra-index-url = https://file.example/simple\n', '.config/uv/uv.toml': '[[index]]\nurl = "https://uv.example/simple"\n' });
    expect(linux({ HOME: dir, PIP_EXTRA_INDEX_URL: 'https://env.example/simple' }).indexes).toEqual([
      { url: 'https://env.example/simple', from: 'PIP_EXTRA_INDEX_URL' },
      { url: 'https://file.example/simple', from: 'pip.conf extra-index-url' },
      { url: 'https://uv.example/simple', from: 'uv.toml index' },
    ]);
  });

  it('PIP_CONFIG_FILE is read; set to the null device, no pip file is', () => {
    const dir = home({ 'custom.conf': '[global]\nindex-url = https://custom.example/simple\n', '.pip/pip.conf': '[global]\nindex-url = https://legacy.example/simple\n' });
    expect(linux({ HOME: dir, PIP_CONFIG_FILE: path.join(dir, 'custom.conf') }).indexes.map((i) => i.from)).toEqual(['PIP_CONFIG_FILE index-url', 'pip.conf index-url']);
    expect(linux({ HOME: dir, PIP_CONFIG_FILE: '/dev/null' }).indexes).toEqual([]);
  });

  it('UV_CONFIG_FILE replaces the user uv.toml; UV_NO_CONFIG reads none', () => {
    const dir = home({ 'other.toml': 'index-url = "https://other.example/simple"\n', '.config/uv/uv.toml': 'index-url = "https://user.example/simple"\n' });
    expect(linux({ HOME: dir, UV_CONFIG_FILE: path.join(dir, 'other.toml') }).indexes).toEqual([{ url: 'https://other.example/simple', from: 'UV_CONFIG_FILE index-url' }]);
    expect(linux({ HOME: dir, UV_NO_CONFIG: '1' }).indexes).toEqual([]);
  });

  it('a pip.conf that is a link (a dotfile manager\'s) is read where it points', () => {
    const dir = home({ 'dotfiles/pip.conf': '[global]\nindex-url = https://linked.example/simple\n' });
    mkdirSync(path.join(dir, '.config', 'pip'), { recursive: true });
    symlinkSync(path.join(dir, 'dotfiles', 'pip.conf'), path.join(dir, '.config', 'pip', 'pip.conf'));
    expect(linux({ HOME: dir }).indexes).toEqual([{ url: 'https://linked.example/simple', from: 'pip.conf index-url' }]);
  });

  it('the active virtual environment\'s pip.conf is read', () => {
    const dir = home({ 'venv/pip.conf': '[global]\nfind-links = https://venv.example/links\n' });
    expect(linux({ HOME: dir, VIRTUAL_ENV: path.join(dir, 'venv') }).indexes).toEqual([{ url: 'https://venv.example/links', from: 'pip.conf find-links' }]);
  });

  it('credentials and query are never kept, from any setting', () => {
    const dir = home({
      '.config/pip/pip.conf': `[global]\nextra-index-url = https://user:${TOKEN}@file.example/simple\n`,
      '.config/uv/uv.toml': `index-url = "https://${TOKEN}@uv.example/simple?t=${TOKEN}"\n`,
    });
    const read = linux({ HOME: dir, PIP_INDEX_URL: `https://__token__:${TOKEN}@env.example/simple`, UV_INDEX: `x=https://u:${TOKEN}@idx.example/simple` });
    expect(read.indexes.map((i) => i.url)).toEqual(['https://env.example/simple', 'https://idx.example/simple', 'https://file.example/simple', 'https://uv.example/simple']);
    expect(JSON.stringify(read)).not.toContain(TOKEN);
  });

  it('a malformed uv.toml or an over-large pip.conf is a warning naming the file, never its text', () => {
    const dir = home({ '.config/uv/uv.toml': `index-url = "https://${TOKEN}@x.example/simple\n`, '.config/pip/pip.conf': `# ${TOKEN}\n${'x'.repeat(300 * 1024)}` });
    const read = linux({ HOME: dir });
    expect(read.indexes).toEqual([]);
    expect(read.warnings).toHaveLength(2);
    expect(read.warnings.join('\n')).not.toContain(TOKEN);
  });
});
