import { describe, expect, it } from 'vitest';
import { runnerAddsCode } from '../../../src/ecosystems/mcp/runner-code.js';
import type { McpArgument } from '../../../src/sources/mcp-registry/schema.js';

const named = (name: string, value?: string): McpArgument => ({ type: 'named', name, ...(value === undefined ? {} : { value }) });
const positional = (value: string): McpArgument => ({ type: 'positional', value });

describe('runnerAddsCode', () => {
  it.each<[string, 'npm' | 'pypi', McpArgument[], string | null]>([
    ['npx -y', 'npm', [positional('-y')], null],
    ['npx --yes --registry (a redirect, registry-redirect.ts)', 'npm', [named('--yes'), named('--registry', 'https://r.example/')], null],
    ['positional --registry and its value', 'npm', [positional('--registry'), positional('https://r.example/')], null],
    ['uvx --python 3.12', 'pypi', [named('--python', '3.12')], null],
    ['positional --python and its value', 'pypi', [positional('--python'), positional('3.12')], null],
    ['nothing', 'npm', [], null],
    ['an empty positional', 'npm', [positional('  ')], null],
    ['npx -p other', 'npm', [named('-p', 'other')], '-p'],
    ['npx --package=other', 'npm', [positional('--package=other')], '--package'],
    ['npx -c', 'npm', [named('-c', 'sh x')], '-c'],
    ['npx --node-options', 'npm', [named('--node-options', '--require /tmp/x.js')], '--node-options'],
    ['an operand of its own', 'npm', [positional('-y'), positional('other-pkg')], 'an operand of its own'],
    ['a default, not a value', 'npm', [{ type: 'positional', default: 'other-pkg' }], 'an operand of its own'],
    ['an operand after --', 'npm', [positional('--'), positional('x')], 'an operand after --'],
    ['uvx --from git+', 'pypi', [named('--from', 'git+https://g.example/a/b')], '--from'],
    ['uvx --with', 'pypi', [named('--with', 'other')], '--with'],
    ['uvx --with-requirements=', 'pypi', [positional('--with-requirements=https://x.example/r.txt')], '--with-requirements'],
    ['npx -p is pypi -p (python): not code', 'pypi', [named('-p', '3.12')], null],
  ])('%s', (_name, ecosystem, args, expected) => {
    expect(runnerAddsCode(ecosystem, args)).toBe(expected);
  });
});
