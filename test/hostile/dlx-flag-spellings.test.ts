/**
 * Hostile world: an MCP launch through `pnpm dlx` (`pnpx`), `yarn dlx` or `bunx` (`bun x`) that
 * names a trusted command while a flag makes the runner install another package. Each runner
 * reads its words its own way (src/ecosystems/npm/dlx-argv.ts): pnpm with nopt, options before
 * `dlx` too (`pnpm --package=evil dlx trusted`); yarn berry with clipanion (`-p,--package`);
 * bun with its own reader (`-p,--package`, `--bun`). nerq must audit the package that would run,
 * and a spelling it cannot read with certainty makes the launch unreadable — never the innocent
 * name after it (docs/security.md, "MCP client configurations are data").
 */
import { describe, expect, it } from 'vitest';
import { mapLaunch } from '../../src/audit/mcp/launch.js';
import { advertisedInstalls } from '../../src/sources/github/readme-installs.js';
import { noteCases } from './support/metrics.js';

const TRUSTED = '@modelcontextprotocol/server-filesystem';
const EVIL = 'server-filesystem-helper';

/** [label, command, args, the packages read (the first is what runs its command), or the launch's kind]. */
const SPELLINGS: [string, string, string[], string[] | 'unknown' | 'fetched'][] = [
  ['pnpm --package=EVIL dlx TRUSTED (an option before dlx)', 'pnpm', ['--package=' + EVIL, 'dlx', TRUSTED], [EVIL]],
  ['pnpm dlx --package EVIL TRUSTED', 'pnpm', ['dlx', '--package', EVIL, TRUSTED], [EVIL]],
  ['pnpm dlx --package=EVIL --package=TRUSTED TRUSTED (repeatable)', 'pnpm', ['dlx', `--package=${EVIL}`, `--package=${TRUSTED}`, TRUSTED], [EVIL, TRUSTED]],
  ['pnpx --package=EVIL TRUSTED (pnpx is pnpm dlx)', 'pnpx', [`--package=${EVIL}`, TRUSTED], [EVIL]],
  ['pnpm --silent dlx TRUSTED', 'pnpm', ['--silent', 'dlx', TRUSTED], [TRUSTED]],
  ["pnpm dlx TRUSTED --package EVIL (the command's own words)", 'pnpm', ['dlx', TRUSTED, '--package', EVIL], [TRUSTED]],
  ['pnpm -C DIR dlx TRUSTED (pnpm reads DIR/.npmrc)', 'pnpm', ['-C', './conf', 'dlx', TRUSTED], 'fetched'],
  ['pnpm dlx --registry URL TRUSTED', 'pnpm', ['dlx', '--registry', 'https://evil.example/', TRUSTED], 'fetched'],
  ['pnpm --config.registry=URL dlx TRUSTED', 'pnpm', ['--config.registry=https://evil.example/', 'dlx', TRUSTED], 'fetched'],
  ['pnpm dlx -c LINE (shell mode)', 'pnpm', ['dlx', '-c', `${EVIL} && ${TRUSTED}`], 'unknown'],
  ['pnpm dlx --pack=EVIL TRUSTED (an abbreviation nopt may expand)', 'pnpm', ['dlx', `--pack=${EVIL}`, TRUSTED], 'unknown'],
  ['pnpm dlx --package --silent TRUSTED (no value)', 'pnpm', ['dlx', '--package', '--silent', TRUSTED], 'unknown'],
  ['pnpm --config.globalconfig=FILE dlx TRUSTED (another setting)', 'pnpm', ['--config.globalconfig=./x', 'dlx', TRUSTED], 'unknown'],
  ['yarn dlx -p EVIL TRUSTED', 'yarn', ['dlx', '-p', EVIL, TRUSTED], [EVIL]],
  ['yarn dlx --package=EVIL TRUSTED', 'yarn', ['dlx', `--package=${EVIL}`, TRUSTED], [EVIL]],
  ['yarn dlx -q TRUSTED', 'yarn', ['dlx', '-q', TRUSTED], [TRUSTED]],
  ['yarn dlx -pEVIL TRUSTED (a value in the word)', 'yarn', ['dlx', `-p${EVIL}`, TRUSTED], 'unknown'],
  ['yarn dlx -qp EVIL TRUSTED (a cluster)', 'yarn', ['dlx', '-qp', EVIL, TRUSTED], 'unknown'],
  ['bunx --package=EVIL TRUSTED', 'bunx', [`--package=${EVIL}`, TRUSTED], [EVIL]],
  ['bunx -p EVIL TRUSTED', 'bunx', ['-p', EVIL, TRUSTED], [EVIL]],
  ['bun x --package EVIL TRUSTED', 'bun', ['x', '--package', EVIL, TRUSTED], [EVIL]],
  // bun's subcommand is its first word that is no flag (ecosystems/npm/subcommand.ts, as README install lines read it): bun's flags before `x` reach bunx's reader.
  ['bun --silent x TRUSTED (a bun flag before x)', 'bun', ['--silent', 'x', TRUSTED], [TRUSTED]],
  ['bun --verbose x --package EVIL TRUSTED', 'bun', ['--verbose', 'x', '--package', EVIL, TRUSTED], [EVIL]],
  ['bun --registry=URL x TRUSTED', 'bun', ['--registry=https://evil.example/', 'x', TRUSTED], 'fetched'],
  ['bun --cwd DIR x TRUSTED (DIR is bun\'s command: no package x)', 'bun', ['--cwd', './conf', 'x', TRUSTED], 'unknown'],
  ['bun --unknown-flag x TRUSTED (a flag not read with certainty)', 'bun', ['--unknown-flag', 'x', TRUSTED], 'unknown'],
  ['bunx --bun TRUSTED', 'bunx', ['--bun', TRUSTED], [TRUSTED]],
  ['bunx -p=EVIL TRUSTED (bun reads -p= as --package=)', 'bunx', [`-p=${EVIL}`, TRUSTED], [EVIL]],
  // bunx has no --registry and skips it; read as a redirection either way (dlx-argv.ts VALUED).
  ['bunx --registry=URL TRUSTED', 'bunx', ['--registry=https://evil.example/', TRUSTED], 'fetched'],
  // bun's reader skips a flag it does not know before the package, taking no value: `-y` (the npx habit) is no option.
  ['bunx -y TRUSTED (an npx habit bun skips)', 'bunx', ['-y', TRUSTED], [TRUSTED]],
  ['bunx --yes -b TRUSTED (-b is --bun)', 'bunx', ['--yes', '-b', TRUSTED], [TRUSTED]],
  ['bunx -y -p EVIL TRUSTED', 'bunx', ['-y', '-p', EVIL, TRUSTED], [EVIL]],
  ['bunx -yp EVIL TRUSTED (a cluster bun does not read as -p)', 'bunx', ['-yp', EVIL, TRUSTED], 'unknown'],
  // pnpm 10's --allow-build names which dependency may run build scripts: no package added, no registry moved.
  ['pnpm --allow-build=esbuild dlx TRUSTED', 'pnpm', ['--allow-build=esbuild', 'dlx', TRUSTED], [TRUSTED]],
  ['pnpm dlx --allow-build esbuild --allow-build=sharp TRUSTED', 'pnpm', ['dlx', '--allow-build', 'esbuild', '--allow-build=sharp', TRUSTED], [TRUSTED]],
  ['pnpm dlx --allow-build=esbuild --package=EVIL TRUSTED', 'pnpm', ['dlx', '--allow-build=esbuild', '--package=' + EVIL, TRUSTED], [EVIL]],
  ['pnpm dlx --allow-build --package=EVIL TRUSTED (no value)', 'pnpm', ['dlx', '--allow-build', '--package=' + EVIL, TRUSTED], 'unknown'],
  ['pnpx --allow-build=esbuild TRUSTED', 'pnpx', ['--allow-build=esbuild', TRUSTED], [TRUSTED]],
];

describe('hostile: pnpm dlx, yarn dlx and bunx flags that change the package that runs', () => {
  it.for(SPELLINGS)('%s', ([, command, args, expected], { task }) => {
    noteCases(task);
    const launch = mapLaunch({ command, args });
    if (typeof expected === 'string') {
      expect(launch.kind).toBe(expected);
      return;
    }
    expect(launch.kind).toBe('package');
    if (launch.kind !== 'package') return;
    expect([launch.name, ...launch.extra.map((p) => p.name)]).toEqual(expected);
  });
});

/**
 * yarn's own options before `dlx` (`yarn --cwd dir dlx pkg`: that directory's .yarnrc.yml may name
 * another registry) are read as a README install line reads them (ecosystems/npm/subcommand.ts
 * yarnCommand): where the package comes from is unknown. The launch still runs a package — code
 * nobody inspected, never a note alone — and the README line advertises nothing.
 */
describe('hostile: yarn options before dlx', () => {
  const PUBLIC = ['https://registry.example/', 'https://pypi.example'];
  const readme = (args: readonly string[]) => advertisedInstalls(['```sh', ['yarn', ...args].join(' '), '```'].join('\n'), { npm: PUBLIC, pypi: [] });
  it.for([
    ['--cwd DIR (its .yarnrc.yml)', ['--cwd', './conf', 'dlx', TRUSTED]],
    ['--cwd=DIR', ['--cwd=./conf', 'dlx', TRUSTED]],
    ['--registry=URL', ['--registry=https://evil.example/', 'dlx', TRUSTED]],
    ['--use-yarnrc FILE', ['--use-yarnrc', './evil.yarnrc', 'dlx', TRUSTED]],
    ['--silent (a switch yarn berry may not take)', ['--silent', 'dlx', TRUSTED]],
    ['--prod (a flag not read with certainty)', ['--prod', 'dlx', '-p', EVIL, TRUSTED]],
  ] as const)('yarn %s dlx TRUSTED: a package runs, which one is unknown; the README advertises nothing', ([, args], { task }) => {
    noteCases(task);
    expect(mapLaunch({ command: 'yarn', args: [...args] })).toMatchObject({ kind: 'unknown', command: 'yarn', runsPackage: true });
    expect(readme(args)).toEqual([]);
  });

  it('yarn without dlx, with or without options of its own, runs no registry package; yarn dlx alone is read', () => {
    for (const args of [['--silent', 'start'], ['start'], ['--cwd', 'x', 'run', 'serve']]) {
      const launch = mapLaunch({ command: 'yarn', args });
      expect(launch.kind, args.join(' ')).toBe('unknown');
      expect(launch, args.join(' ')).not.toHaveProperty('runsPackage');
    }
    expect(mapLaunch({ command: 'yarn', args: ['dlx', TRUSTED] })).toMatchObject({ kind: 'package', name: TRUSTED });
    expect(readme(['dlx', TRUSTED]).map((i) => i.name)).toEqual([TRUSTED]);
  });
});
