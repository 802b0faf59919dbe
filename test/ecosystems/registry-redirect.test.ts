import { describe, expect, it } from 'vitest';
import { flagValues, registryRedirect } from '../../src/ecosystems/registry-redirect.js';

const PUBLIC = ['https://registry.example/', 'https://pypi.example'];

describe('registryRedirect', () => {
  it.each([
    ['npm', ['-y', 'pkg'], [], null],
    ['npm', ['--registry', 'https://registry.example', 'pkg'], [], null],
    ['npm', ['--registry=https://u:p@evil.example/x', 'pkg'], [], 'evil.example https://evil.example/x'],
    ['npm', ['--@acme:registry=https://evil.example', 'pkg'], [], 'evil.example https://evil.example'],
    // Apart, nopt reads an unknown flag as a switch: the URL is the first word npm exec runs (runner-code.ts reads that).
    ['npm', ['--@acme:registry', 'https://evil.example', 'pkg'], [], null],
    // `-C` is npm's shorthand for --prefix, in a cluster as alone (npm/exec-argv.ts).
    ['npm', ['-yC', './evil', 'pkg'], [], 'null ./evil'],
    ['npm', ['--userconfig', './npmrc', 'pkg'], [], 'null ./npmrc'],
    ['npm', ['pkg'], ['API_KEY', 'npm_config_registry'], 'null env npm_config_registry'],
    ['npm', ['pkg'], ['UV_INDEX_URL'], null],
    ['pypi', ['-i', 'https://evil.example/simple', 'pkg'], [], 'evil.example https://evil.example/simple'],
    ['pypi', ['--index-url', 'https://pypi.example/', 'pkg'], [], null],
    ['pypi', ['pkg'], ['PIP_EXTRA_INDEX_URL'], 'null env PIP_EXTRA_INDEX_URL'],
    ['pypi', ['--', '--index-url', 'https://evil.example'], [], null],
  ] as const)('%s %j env %j → %s', (ecosystem, args, env, expected) => {
    const found = registryRedirect(ecosystem, args, env, PUBLIC);
    expect(found === null ? null : `${found.host} ${found.source}`).toBe(expected);
  });

  it('flagValues reads repeated flags in both spellings, up to --', () => {
    expect(flagValues(['-p', 'a', '--package=b', '-p', '--', '-p', 'c'], ['-p', '--package'])).toEqual(['a', 'b']);
  });
});
