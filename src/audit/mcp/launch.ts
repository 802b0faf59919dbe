/**
 * What an MCP client would start, read from a configured server's `command`, `args` and `url`
 * (nothing is ever started): a package nerq can evaluate (npm through `npx`, `npm exec`,
 * `pnpm dlx`, `yarn dlx`, `bunx`; PyPI through `uvx`, `uv tool run`, `pipx run`), a container
 * image (`docker run` / `podman run`: not evaluated yet), a NuGet tool (`dnx`: not evaluated
 * yet), a remote URL, a local file (`node /opt/x.js`: not evaluable), an installed Python module
 * (`python -m pkg`: not evaluable) or a command nerq cannot
 * tie to a package (one whose words name a package runner starts a package all the same: code
 * nerq cannot inspect). Wrappers that start the command after their own options (`env`,
 * `timeout`, `stdbuf`, `sudo`, `wsl`, `volta run`, `mise exec`, `corepack pnpm`…) are taken off. Every package the runner installs counts (`npx -p a -p b`, `uvx --with x`),
 * and code the runner fetches from somewhere no registry nerq reads vouches for is `fetched`: a
 * git repository or URL (`npx github:o/r`, `uvx --from git+https://…`) or
 * a package from a registry the launch points elsewhere (`--registry`, `--index-url`, or such a
 * variable named in the server's `env`; only its name is read, never its value) — docs/security.md,
 * "Dependencies no registry vouches for". A script fetched from a URL at every start (`deno run
 * https://…`, a shell or download tool given a URL) is a `script`: only its origin is kept. Pure.
 * Arguments other than the package are never kept:
 * they may carry secrets (`--api-key=…`).
 */
import semver from 'semver';
import npa from 'npm-package-arg';
import { npmExecSpelled } from '../../ecosystems/npm/exec-argv.js';
import { dlxWords, type DlxRunner } from '../../ecosystems/npm/dlx-argv.js';
import { bunCommand, yarnCommand } from '../../ecosystems/npm/subcommand.js';
import { pythonSourceKind, sourceHost, type SourceKind } from '../../lockfiles/source-kind.js';
import { DEFAULT_ENDPOINTS } from '../../sources/endpoints.js';
import { npmDefaultRegistry } from '../../sources/npm/config.js';
import { withoutCredentials } from '../../util/url-credentials.js';
import { flagValues, pipxFlag, registryRedirect } from '../../ecosystems/registry-redirect.js';
import { isCodeVariable } from '../../ecosystems/mcp/runner-code.js';
import { parseTarget } from '../../target/parse.js';
import { quote } from '../../lockfiles/text.js';
import { TargetError } from '../../target/types.js';
import { wideningArguments } from '../../checks/lib/mcp.js';
import { isLoopback, normaliseRemoteUrl } from './remote-url.js';
import { proxiedRemote, proxyServerCommand } from '../../ecosystems/mcp/proxies.js';
import { pep503 } from '../../ecosystems/pypi/name.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';

/** A registry package a launch installs. */
export interface LaunchPackage {
  ecosystem: 'npm' | 'pypi';
  name: string;
  version: string | null;
  spec: string | null;
}

/** Code a launch installs that no registry nerq reads vouches for: where it comes from (without credentials) and, when the launch says, its package name. */
export interface FetchedCode {
  ecosystem: 'npm' | 'pypi';
  name: string | null;
  source: string;
  host: string | null;
}

export type Launch =
  | ({
      kind: 'package';
      runner: string;
      /** Further packages installed with it (`-p a -p b`, `--with x`). */
      extra: LaunchPackage[];
      /** Code the launch runs besides its packages, which nerq does not read (`--node-options '-r ./x.js'`, a `--call` line, `--with-editable ./dir`). */
      loads?: string[];
      /** The remote server a proxy package among them connects to (`npx mcp-remote https://…`; ecosystems/mcp/proxies.ts). */
      proxied?: ProxiedLaunch;
    } & LaunchPackage)
  | { kind: 'fetched'; runner: string; code: FetchedCode[] }
  /** A script fetched from a URL each time the server starts (`deno run https://…`, a shell running `curl … | sh`): only its origin is kept. */
  | { kind: 'script'; runner: string; origin: string }
  | { kind: 'image'; image: string; runner: string; widening: string[] }
  | { kind: 'nuget'; identifier: string; runner: string }
  | { kind: 'remote'; origin: string; url: string; insecure: boolean }
  | { kind: 'local'; command: string; file: string | null }
  /** An installed Python module run by name (`python -m pkg`, `python3 -m`, `py -m`): code of this machine's environment, not a file; not evaluable. */
  | { kind: 'module'; command: string; module: string }
  /**
   * What nerq cannot tie to a package. `runsPackage`: a package runner (`npx`, `pnpm dlx`, `deno run
   * jsr:…`, `docker run`) whose package or image nerq cannot read — it runs one all the same, so its
   * code cannot be inspected (never a pass); otherwise a program of this machine's, not evaluable.
   */
  | { kind: 'unknown'; command: string; why: string; runsPackage?: true };

/** A proxy's remote: its origin (shown) and normalised URL (matched), or a server on this machine (`local`, its origin). `via` is the proxy (`npm:mcp-remote`). */
export type ProxiedLaunch = { via: string; origin: string; url: string; insecure: boolean } | { via: string; local: string } | { via: string; unreadable: true };

const JS_RUNNERS = new Set(['node', 'bun', 'tsx', 'ts-node']);
const PY_RUNNERS = new Set(['python', 'python3', 'py']);
/** Node-like runners' flags that take a value, and those that run code given in the arguments. */
const JS_VALUE_FLAGS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--env-file', '--input-type', '--title']);
const JS_EVAL_FLAGS = new Set(['-e', '--eval', '-p', '--print']);
/** Python's flags that take a value (`-W ignore`, `-X utf8`), and the one that runs code given in the arguments. */
const PY_VALUE_FLAGS = new Set(['-W', '-X', '--check-hash-based-pycs']);
const PY_EVAL_FLAGS = new Set(['-c']);
/** npx / dlx flags that take a value (the value is not the package). */
const NPX_VALUE_FLAGS = new Set(['-p', '--package', '-c', '--call', '--node-options', '--registry', '--cache', '--userconfig', '--globalconfig', '--prefix', '-w', '--workspace']);
const UVX_VALUE_FLAGS = new Set([
  '--from', '--with', '-w', '--with-editable', '--python', '-p', '--index', '--index-url', '-i', '--extra-index-url', '--default-index', '--find-links', '-f',
  '--with-requirements', '--directory', '--project', '--env-file', '--config-file', '--spec', '--pip-args', '--index-strategy',
]);
/** `pipx run`'s words with its own options before the app in their full spelling, one word for one (the app's index stands, its arguments as given). */
function pipxSpelled(words: readonly string[]): string[] {
  const spelled = words.map(pipxFlag);
  const app = firstOperand(spelled, UVX_VALUE_FLAGS, 0, true)?.index ?? spelled.length;
  return [...spelled.slice(0, app), ...words.slice(app)];
}

/** Node options that load code before the program's own (`--require`, `-r`, `--import`, a loader). */
const NODE_CODE_OPTION = /(?:^|\s)(?:-r|--require|--import|--loader|--experimental-loader)(?:[\s=]|$)/;
/** Shells and download tools: given a URL, what they run is fetched at every start. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'pwsh', 'powershell', 'cmd']);
const FETCHERS = new Set(['curl', 'wget', 'iwr', 'irm', 'invoke-webrequest', 'invoke-restmethod']);
const URL_IN_TEXT = /https?:\/\/[^\s'"`|;&)<>]+/i;
/** Deno flags that take a separate value. */
const DENO_VALUE_FLAGS = new Set(['-c', '--config', '--import-map', '--preload', '--require', '--lock', '--cert', '--location', '--env-file', '-L', '--log-level']);
/** Deno flags whose file changes or adds to what runs: an import map (or a configuration's `imports`) remaps the package's imports, a preloaded module runs first. */
const DENO_CODE_FLAGS = ['-c', '--config', '--import-map', '--preload', '--require'];

const DOCKER_VALUE_FLAGS = new Set([
  '-e', '--env', '-v', '--volume', '--mount', '--name', '--network', '--net', '-p', '--publish', '-w', '--workdir', '-u', '--user',
  '--env-file', '--entrypoint', '--platform', '--pull', '--label', '-l', '--add-host', '--cap-add', '--cap-drop', '--pid', '--ipc',
  '--device', '--memory', '-m', '--cpus', '--restart', '--hostname', '-h', '--security-opt', '--tmpfs', '--ulimit', '--runtime', '--gpus',
]);

/** The runners read below: a full path to one of them may hold spaces (`C:\\Program Files\\nodejs\\npx.cmd`). */
const RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'npm', 'pnpm', 'yarn', 'bun', 'uvx', 'uv', 'pipx', 'deno', 'docker', 'podman', 'dnx']);
/** Shells given a command line nested deeper than this are not read (a configuration could nest them without end). */
const MAX_WRAPPERS = 8;
/** What tells a shell that its command line follows: `sh -c`, `bash -lc`, `pwsh -Command`, `cmd /c` or `/k`. */
const SHELL_COMMAND_FLAG = /^(?:-[a-z]*c[a-z]*|-command|\/[ck])$/i;

/** `C:\\x\\npx.cmd` → `npx`. */
function commandName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(?:cmd|exe|bat|ps1)$/i, '').toLowerCase();
}

/** The first argument that is not a flag (nor a flag's value), from `start`. */
function firstOperand(args: readonly string[], valueFlags: ReadonlySet<string>, start = 0, clustered = false): { value: string; index: number } | null {
  for (let i = start; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') return i + 1 < args.length ? { value: args[i + 1] ?? '', index: i + 1 } : null;
    if (arg.startsWith('-')) {
      if (!arg.includes('=') && (valueFlags.has(arg) || (clustered && clusterTakesNext(arg, valueFlags)))) i++;
      continue;
    }
    return { value: arg, index: i };
  }
  return null;
}

/**
 * Whether a word of one-letter flags, read as clap (uv) reads it, ends with one that takes a value
 * (`-qp 3.12`, `-qf ./wheels`): the value is the next word. The first such letter takes the rest
 * of the word, so only a word it ends counts.
 */
function clusterTakesNext(arg: string, valueFlags: ReadonlySet<string>): boolean {
  if (!/^-[A-Za-z]{2,}$/.test(arg)) return false;
  const at = [...arg.slice(1)].findIndex((letter) => valueFlags.has(`-${letter}`));
  return at === arg.length - 2;
}

/** The first value of `--flag value` / `--flag=value`, if given (up to `--`). */
function flagValue(args: readonly string[], names: readonly string[]): string | null {
  return flagValues(args, names)[0] ?? null;
}

/** Python's one-letter options that take no value, which may stand clustered before `m` (`-um pkg`). */
const PY_PLAIN_LETTERS = 'bBdEhiIOPqsSuvVxR';
const PY_MODULE_CLUSTER = new RegExp(`^-[${PY_PLAIN_LETTERS}]*m(.*)$`);
const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * The module a Python command line runs (`-m pkg`, `-mpkg`, `-um pkg`), read as Python reads its
 * options: only before the script or `-c` code, whose own arguments are the program's. `name` is
 * null when what follows `-m` is no module name (never echoed); null when no module is run.
 */
function pythonModule(args: readonly string[]): { name: string | null } | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--' || arg === '-' || !arg.startsWith('-') || PY_EVAL_FLAGS.has(arg)) return null;
    if (PY_VALUE_FLAGS.has(arg)) {
      i++;
      continue;
    }
    const cluster = PY_MODULE_CLUSTER.exec(arg);
    if (cluster === null) continue;
    const name = cluster[1] !== '' ? cluster[1] : args[i + 1];
    return { name: name !== undefined && MODULE_NAME.test(name) ? name : null };
  }
  return null;
}

function looksLocal(spec: string): boolean {
  return /^(?:\.{1,2}[\\/]|[\\/]|~[\\/]|[A-Za-z]:[\\/]|file:)/.test(spec);
}

/** What one named spec is: a registry package, code fetched from elsewhere, a local path, or nothing nerq can read (`why`). */
type Spec = { package: LaunchPackage } | { fetched: FetchedCode } | { local: string } | { why: string };

const fetchedFrom = (ecosystem: 'npm' | 'pypi', name: string | null, kind: SourceKind): Spec => ({ fetched: { ecosystem, name, source: kind.source, host: kind.host } });

function npmSpec(spec: string): Spec {
  if (looksLocal(spec)) return { local: spec };
  // `npx github:o/r`, `npx https://…/x.tgz`, `npx name@git+https://…`: npm fetches and runs it (read as npm reads it).
  let parsed: ReturnType<typeof npa> | null = null;
  try {
    parsed = spec.length > 2048 ? null : npa(spec);
  } catch {
    parsed = null;
  }
  if (parsed?.type === 'git' || parsed?.type === 'remote') {
    const host = parsed.type === 'git' ? (parsed.hosted?.domain ?? sourceHost(parsed.fetchSpec ?? spec)) : sourceHost(spec);
    return fetchedFrom('npm', parsed.name ?? null, { kind: 'remote', source: withoutCredentials(parsed.rawSpec ?? spec), host });
  }
  if (parsed?.type === 'file' || parsed?.type === 'directory') return { local: spec };
  // `friendly@npm:real@1.0.0`: npm installs and runs `real` (npa reads no alias inside an alias).
  if (parsed?.type === 'alias' && /^npm:/i.test(parsed.rawSpec)) return npmSpec(parsed.rawSpec.slice(4));
  try {
    const target = parseTarget(`npm:${spec}`);
    const version = target.spec !== undefined && semver.valid(target.spec) !== null ? target.spec : null;
    return { package: { ecosystem: 'npm', name: target.name, version, spec: version === null ? (target.spec ?? null) : null } };
  } catch (error) {
    return { why: error instanceof TargetError ? error.message : 'not an npm package' };
  }
}

/** How each package ecosystem's runner reads a package spec. */
const SPEC_READERS: Record<PackageEcosystem, (spec: string) => Spec> = { npm: npmSpec, pypi: pypiSpec };

function pypiSpec(spec: string): Spec {
  // `uvx pkg@latest`: uv's spelling of the newest release — unpinned, as a bare name is.
  const latest = /^([A-Za-z0-9._-]+)(?:\[[^\]]*\])?@latest$/i.exec(spec)?.[1];
  if (latest !== undefined) spec = latest;
  // `name @ git+https://…` (PEP 508) names the package it fetches.
  const direct = /^([A-Za-z0-9._-]+)(?:\[[^\]]*\])?\s*@\s*(\S.*)$/.exec(spec);
  const reference = direct?.[2] !== undefined && !/^\d/.test(direct[2]) ? direct[2] : spec;
  if (reference !== spec || /^(?:(?:git|hg|svn|bzr)\+|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/i.test(spec)) {
    const kind = pythonSourceKind(reference);
    if (kind.kind === 'remote') return fetchedFrom('pypi', direct?.[1] ?? null, kind);
    return { local: spec };
  }
  if (looksLocal(spec)) return { local: spec };
  // uvx writes `pkg@1.2.3` for a pinned version, pip-style specifiers otherwise; extras are dropped.
  const text = spec.replace(/\[[^\]]*\]/, '').replace(/^([A-Za-z0-9._-]+)@(?=\d)/, '$1==');
  try {
    const target = parseTarget(`pypi:${text}`);
    const pin = target.spec !== undefined ? /^==\s*([^,*\s]+)$/.exec(target.spec)?.[1] ?? null : null;
    return { package: { ecosystem: 'pypi', name: target.name, version: pin, spec: pin === null ? (target.spec ?? null) : null } };
  } catch (error) {
    return { why: error instanceof TargetError ? error.message : 'not a PyPI project' };
  }
}

/** The public registry of each ecosystem: naming it explicitly is no redirection. */
const PUBLIC_REGISTRIES = { npm: () => [npmDefaultRegistry()], pypi: () => [DEFAULT_ENDPOINTS.pypi, `${DEFAULT_ENDPOINTS.pypi}/simple`] };

/**
 * A command's package name (`mcp-remote@0.1.5` → `mcp-remote`, `mcp-proxy==0.8` → `mcp-proxy`) and a
 * launched package's name, each as its ecosystem compares them (npm: lower case; PyPI: PEP 503).
 */
const LAUNCH_NAMES: Record<PackageEcosystem, { ofWord(word: string): string; ofName(name: string): string }> = {
  npm: { ofWord: (word) => word.slice(0, word.indexOf('@', 1) < 0 ? word.length : word.indexOf('@', 1)).toLowerCase(), ofName: (name) => name.toLowerCase() },
  pypi: { ofWord: (word) => pep503(word.split(/[\s[=<>!~@;]/)[0] ?? ''), ofName: pep503 },
};

/** Where the launch points its runner instead of the public registry, as the remote source its packages then come from; or null. */
function redirection(ecosystem: 'npm' | 'pypi', args: readonly string[], envKeys: readonly string[]): SourceKind | null {
  const redirect = registryRedirect(ecosystem, args, envKeys, PUBLIC_REGISTRIES[ecosystem]());
  return redirect === null ? null : { kind: 'remote', ...redirect };
}

/** The launch of a runner that installs `specs` (the first is the one it runs): packages, or what is fetched instead. */
function installs(runner: string, ecosystem: 'npm' | 'pypi', specs: readonly string[], redirected: SourceKind | null): Launch {
  const read = specs.map(SPEC_READERS[ecosystem]);
  const first = read[0];
  if (first === undefined) return { kind: 'unknown', command: runner, why: 'no package named', runsPackage: true };
  if ('local' in first) return { kind: 'local', command: runner, file: first.local };
  if ('why' in first) return { kind: 'unknown', command: runner, why: first.why, runsPackage: true };
  const packages = read.flatMap((r) => ('package' in r ? [r.package] : []));
  const fetched = read.flatMap((r) => ('fetched' in r ? [r.fetched] : []));
  if (redirected !== null) fetched.push(...packages.map((p) => ({ ecosystem, name: p.name, source: redirected.source, host: redirected.host })));
  if (fetched.length > 0) return { kind: 'fetched', runner, code: fetched };
  const [main, ...extra] = packages;
  return main === undefined ? { kind: 'unknown', command: runner, why: 'no package named', runsPackage: true } : { kind: 'package', runner, ...main, extra };
}

function dockerImage(args: readonly string[], runner: string): Launch {
  const run = args.findIndex((a) => a === 'run');
  if (run < 0) return { kind: 'unknown', command: runner, why: `${runner} without run` };
  const image = firstOperand(args, DOCKER_VALUE_FLAGS, run + 1);
  if (image === null) return { kind: 'unknown', command: runner, why: 'no image named', runsPackage: true };
  // Flags are pairs here (`--network host`), as the registry's runtime arguments write them.
  const words: string[] = [];
  for (let i = run + 1; i < image.index; i++) {
    const arg = args[i] ?? '';
    if (!arg.includes('=') && DOCKER_VALUE_FLAGS.has(arg) && i + 1 < image.index) words.push(`${arg} ${args[++i] ?? ''}`);
    else words.push(arg);
  }
  return { kind: 'image', image: image.value, runner, widening: wideningArguments(words).map((w) => w.id) };
}

/**
 * The launch of a remote server: its origin (what is shown) and its normalised URL, origin and
 * path (what is matched to a registry entry's remotes; remote-url.ts) — never its user name,
 * password or query string. A loopback URL is a server running on this machine.
 */
function remote(url: string): Launch {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'unknown', command: 'url', why: 'not a valid URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { kind: 'unknown', command: 'url', why: `unsupported URL scheme ${parsed.protocol}` };
  const origin = `${parsed.protocol}//${parsed.host.toLowerCase()}`;
  const normal = normaliseRemoteUrl(url) ?? origin;
  if (isLoopback(normal)) return { kind: 'local', command: 'url', file: origin };
  return { kind: 'remote', origin, url: normal, insecure: parsed.protocol === 'http:' };
}

/** Commands that start the command after their own options: `env` (and its `NAME=value` words), `timeout` (and its duration), `nice`, `nohup`, `exec`, `time`. */
const SIMPLE_WRAPPERS = new Set(['env', 'timeout', 'nice', 'nohup', 'exec', 'time']);

/**
 * How a wrapper of the table below reads its own words before the command it starts: the
 * options that take a value (`-u root`, `--user=root`, a one-letter cluster ending in one,
 * `-Eu root`), `assignments` (`NAME=value` words), `exec` (options after which the command
 * follows: `wsl -e`), `line` (options given the command line as one word: `mise exec -c "…"`),
 * `tools` (words before a required `--` are tools to install, not the command: `mise exec
 * node@22 -- npx …`).
 */
interface OptionWrapper {
  values: readonly string[];
  assignments?: true;
  exec?: readonly string[];
  line?: readonly string[];
  tools?: true;
}

/**
 * Wrappers that start the command after their own options, by their name (and subcommand):
 * `stdbuf`, `sudo`, `doas`, `wsl`, `volta run`, `mise exec` / `mise x`, `asdf exec`, `fnm exec`.
 */
const OPTION_WRAPPERS: Readonly<Record<string, OptionWrapper>> = {
  stdbuf: { values: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  sudo: {
    values: ['-a', '-C', '-c', '-D', '-g', '-p', '-R', '-r', '-T', '-t', '-U', '-u', '--auth-type', '--close-from', '--login-class', '--chdir', '--group', '--prompt', '--chroot', '--role', '--command-timeout', '--type', '--other-user', '--user'],
    assignments: true,
  },
  doas: { values: ['-C', '-u'] },
  wsl: { values: ['-d', '--distribution', '--distribution-id', '-u', '--user', '--cd', '--shell-type'], exec: ['-e', '--exec'] },
  'volta run': { values: ['--node', '--npm', '--pnpm', '--yarn', '--env'] },
  'mise exec': { values: ['-j', '--jobs', '-C', '--cd', '-E', '--env'], line: ['-c', '--command'], tools: true },
  'mise x': { values: ['-j', '--jobs', '-C', '--cd', '-E', '--env'], line: ['-c', '--command'], tools: true },
  'asdf exec': { values: [] },
  'fnm exec': { values: ['--using', '--node-dist-mirror', '--fnm-dir', '--log-level', '--arch', '--version-file-strategy'] },
};

/** `corepack <package manager>[@version] …` runs that package manager (`corepack pnpm dlx pkg` is `pnpm dlx pkg`). */
const COREPACK_MANAGER = /^(npm|npx|pnpm|pnpx|yarn|yarnpkg)(?:@[^\s/]+)?$/i;

/** The wrapper a command line starts with, from its first two words: its key and how many words name it; null for none. */
function wrapperOf(first: string, second: string | undefined): { key: string; words: number } | null {
  const name = commandName(first);
  if (SIMPLE_WRAPPERS.has(name) || OPTION_WRAPPERS[name] !== undefined) return { key: name, words: 1 };
  if (second === undefined) return null;
  if (name === 'corepack') return COREPACK_MANAGER.test(second) ? { key: name, words: 1 } : null;
  const key = `${name} ${second}`;
  return OPTION_WRAPPERS[key] !== undefined ? { key, words: 2 } : null;
}

/** The runners and package managers whose name among a command's words says it starts a package (`stdbuf -oL npx …`, `sh -c "npm i -g pkg && pkg"`). */
const RUNNER_WORDS = new Set(['npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'yarnpkg', 'bunx', 'bun', 'uvx', 'uv', 'pipx', 'pip', 'pip3', 'docker', 'podman', 'deno', 'dnx', 'corepack']);

/** The runner word among `words` (a path to one counts: `/usr/bin/npx`), or null. */
function runnerWordIn(words: readonly string[]): string | null {
  for (const word of words) {
    const name = commandName(word);
    if (RUNNER_WORDS.has(name)) return name;
  }
  return null;
}
/**
 * The words of a command line with the simple wrappers at its start taken off, or null when a
 * wrapper starts no command. A word holding spaces where a command is expected (`env -S "npx
 * -y pkg"`, or an argument written `"env npx"`) is split into words there. One pass over the
 * words, each split once: a configuration can chain thousands of wrappers.
 */
function withoutWrappers(line: readonly string[]): string[] | null {
  // Words split from one word, read before line[next]: a stack, the next word last.
  const front: string[] = [];
  let next = 0;
  const more = (): boolean => front.length > 0 || next < line.length;
  const peek = (): string => (front.length > 0 ? (front[front.length - 1] ?? '') : (line[next] ?? ''));
  const take = (): string => (front.length > 0 ? (front.pop() ?? '') : (line[next++] ?? ''));
  /** Put `text`'s words back in front, to be read next. */
  const splitBack = (text: string): void => {
    front.push(...text.trim().split(/\s+/).filter((w) => w !== '').reverse());
  };
  const command = (): string | null => {
    while (more() && /\s/.test(peek().trim())) splitBack(take());
    return more() ? peek() : null;
  };
  /** The word `k` places after the next one. */
  const peekAt = (k: number): string | undefined => (k < front.length ? front[front.length - 1 - k] : line[next + k - front.length]);
  for (let wrapper = wrapperOf(command() ?? '', peekAt(1)); wrapper !== null; wrapper = wrapperOf(command() ?? '', peekAt(1))) {
    const name = wrapper.key;
    for (let i = 0; i < wrapper.words; i++) take();
    const options = OPTION_WRAPPERS[name];
    if (name === 'corepack') {
      // The package manager by its own name, its version dropped.
      const manager = (COREPACK_MANAGER.exec(take())?.[1] ?? '').toLowerCase();
      front.push(manager === 'yarnpkg' ? 'yarn' : manager);
    } else if (options !== undefined) {
      if (!skipOptions(options, { more, peek, take, splitBack })) return null;
    } else if (name === 'env') {
      while (more()) {
        const arg = peek();
        if (arg === '-S' || arg === '--split-string') {
          take();
          if (more()) splitBack(take());
          break;
        }
        if (arg.startsWith('--split-string=')) {
          splitBack(take().slice('--split-string='.length));
          break;
        }
        if (arg === '--') {
          take();
          break;
        }
        if (arg === '-u' || arg === '--unset' || arg === '-C' || arg === '--chdir') {
          take();
          take();
        } else if (arg.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) take();
        else break;
      }
    } else {
      const valueFlags = name === 'timeout' ? ['-s', '--signal', '-k', '--kill-after'] : name === 'nice' ? ['-n', '--adjustment'] : [];
      // Options (and their values), then for `timeout` its duration.
      let operands = name === 'timeout' ? 1 : 0;
      while (more()) {
        const arg = peek();
        if (arg === '--') {
          take();
          continue;
        }
        if (arg.startsWith('-') && !/^-\d/.test(arg)) {
          take();
          if (!arg.includes('=') && valueFlags.includes(arg)) take();
          continue;
        }
        if (name === 'nice' && /^-\d+$/.test(arg)) {
          take();
          continue;
        }
        if (operands === 0) break;
        take();
        operands--;
      }
    }
    if (command() === null) return null;
  }
  return [...front.reverse(), ...line.slice(next)];
}

/**
 * Takes off a wrapper's own words before its command (`OptionWrapper`); false when it names none
 * where nerq can read it (a tools wrapper without its `--`).
 */
function skipOptions(
  options: OptionWrapper,
  words: { more(): boolean; peek(): string; take(): string; splitBack(text: string): void },
): boolean {
  const { more, peek, take, splitBack } = words;
  while (more()) {
    const arg = peek();
    if (arg === '--' || options.exec?.includes(arg) === true) {
      take();
      return true;
    }
    if (options.line?.includes(arg) === true) {
      take();
      if (!more()) return false;
      splitBack(take());
      return true;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      take();
      if (arg.startsWith('--')) {
        if (!arg.includes('=') && options.values.includes(arg)) take();
        continue;
      }
      // One-letter options, clustered as getopt reads them: the first that takes a value takes the rest of the word, or the next word.
      const at = [...arg.slice(1)].findIndex((letter) => options.values.includes(`-${letter}`));
      if (at === arg.length - 2) take();
      continue;
    }
    if (options.assignments === true && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) {
      take();
      continue;
    }
    if (options.tools === true) {
      take();
      continue;
    }
    return true;
  }
  return options.tools !== true;
}

/**
 * The launch of a shell given a command line (`sh -c`, `bash -lc`, `pwsh -Command`, `cmd /c`
 * or `/k`), or null when `name` is no shell or its line says nothing nerq can read. The line is
 * read as simple commands (split at `;`, `&&`, `||`, `|`, `&` and line breaks; plain words,
 * quotes taken off, leading `NAME=value` words dropped): the first that starts a package,
 * fetches code or starts an image decides, as the client would run it too; a line of one
 * command is that command's launch. Anything subtler (substitutions, nested quoting) is not read.
 */
function shellLaunch(name: string, args: readonly string[], env: unknown, depth: number): Launch | null {
  if (!SHELLS.has(name)) return null;
  const flag = args.findIndex((a) => SHELL_COMMAND_FLAG.test(a));
  if (flag < 0 || flag + 1 >= args.length) return null;
  // `cmd /c npx -y pkg` and `pwsh -Command npx -y pkg` take the rest as the line; `sh -c` one word.
  const line = name === 'cmd' || name === 'pwsh' || name === 'powershell' ? args.slice(flag + 1).join(' ') : (args[flag + 1] ?? '');
  const launches = line
    .split(/&&|\|\||[;|&\r\n]/)
    .map((part) => part.trim().split(/\s+/).map((word) => word.replace(/^(['"])(.*)\1$/, '$2')).filter((word) => word !== ''))
    // Leading `NAME=value` words set variables for the command after them.
    .map((words) => words.slice(Math.max(0, words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)))))
    .filter((words) => words.length > 0)
    .map((words) => mapLaunchAt({ command: words[0], args: words.slice(1), env }, depth + 1));
  // A script fetched by a command in the line is the shell's own (below: `bash -c "curl … | sh"`).
  if (launches.some((l) => l.kind === 'script')) return null;
  return (
    launches.find((l) => l.kind !== 'local' && l.kind !== 'module' && l.kind !== 'unknown') ??
    launches.find((l) => l.kind === 'unknown' && l.runsPackage === true) ??
    (launches.length === 1 ? (launches[0] ?? null) : null)
  );
}

export function mapLaunch(server: { command?: unknown; args?: unknown; url?: unknown; env?: unknown }): Launch {
  return mapLaunchAt(server, 0);
}

function mapLaunchAt(server: { command?: unknown; args?: unknown; url?: unknown; env?: unknown }, depth: number): Launch {
  if (typeof server.url === 'string' && server.url.trim() !== '' && typeof server.command !== 'string') return remote(server.url.trim());
  if (typeof server.command !== 'string' || server.command.trim() === '') {
    return { kind: 'unknown', command: '', why: 'neither a command nor a URL' };
  }
  const raw = server.command.trim();
  // `"command": "npx -y pkg"` in one string: split on spaces (no quoting is interpreted); but a
  // path to a runner is one word, spaces and all.
  const inline = /[\\/]/.test(raw) && RUNNERS.has(commandName(raw)) ? [raw] : raw.split(/\s+/);
  const argList = Array.isArray(server.args) ? server.args.filter((a): a is string => typeof a === 'string') : [];
  const args = [...inline.slice(1), ...argList];
  // Only the names of the variables: their values may be secrets and are never read.
  const envKeys = typeof server.env === 'object' && server.env !== null && !Array.isArray(server.env) ? Object.keys(server.env) : [];
  const name = commandName(inline[0] ?? '');
  const launch = mapCommand(server, depth, inline, args, envKeys, name, raw, argList);
  // A variable the runtime loads code from (`NODE_OPTIONS`, `PYTHONPATH`…), named in `env`: what
  // runs is not only the package. Only the name is read; its value may be a secret.
  const codeVariable = envKeys.find(isCodeVariable);
  return codeVariable === undefined ? launch : withLoads(launch, `what the variable ${codeVariable} loads`);
}

function mapCommand(
  server: { command?: unknown; args?: unknown; url?: unknown; env?: unknown },
  depth: number,
  inline: readonly string[],
  args: readonly string[],
  envKeys: readonly string[],
  name: string,
  raw: string,
  argList: readonly string[],
): Launch {
  // `env`, `timeout`, `nice`… start the command after them: that command is the launch.
  if (wrapperOf(inline[0] ?? '', args[0]) !== null) {
    const words = withoutWrappers([inline[0] ?? '', ...args]);
    if (words === null) return unreadable(name, args, `${name} starts no command nerq can read`);
    return mapLaunchAt({ command: words[0], args: words.slice(1), env: server.env }, depth);
  }
  // Windows wraps the launcher (`cmd /c npx -y pkg`); a shell may be given the command line.
  if (depth < MAX_WRAPPERS) {
    const inner = shellLaunch(name, args, server.env, depth);
    if (inner !== null && (inner.kind !== 'unknown' || inner.runsPackage === true)) return inner;
  }
  // npx and npm exec read their words as npm reads them (ecosystems/npm/exec-argv.ts), pnpm dlx,
  // yarn dlx and bunx each their own way (ecosystems/npm/dlx-argv.ts): one reading, in npm exec's spelling.
  const dlx = (runner: string, reader: DlxRunner, given: readonly string[]): Launch => {
    const read = dlxWords(reader, given);
    if ('words' in read) return npmRun(runner, read.words);
    // pnpm without `dlx` (`pnpm start`) runs the project's own script, not a package.
    return { kind: 'unknown', command: runner, why: read.unreadable, ...(reader !== 'pnpm dlx' || given.includes('dlx') ? { runsPackage: true as const } : {}) };
  };
  const npmRun = (runner: string, rest: readonly string[]): Launch => {
    // `-p a -p b cmd` installs every package named and runs cmd from them; without -p the operand is the package.
    const named = flagValues(rest, ['-p', '--package']);
    const operandAt = firstOperand(rest, NPX_VALUE_FLAGS);
    const operand = operandAt?.value;
    const specs = named.length > 0 ? named : operand === undefined ? [] : [operand];
    let launch = withProxied(installs(runner, 'npm', specs, redirection('npm', rest, envKeys)), 'npm', operandAt, rest);
    // `--node-options '--require ./x.js'` loads code before the package's own (a path is named; a `data:` URL is code, not a place).
    const loads = flagValues(rest, ['--node-options']).find((v) => NODE_CODE_OPTION.test(v));
    if (loads !== undefined) {
      const file = firstOperand(loads.split(/[\s=]+/), new Set())?.value ?? null;
      launch = withLoads(launch, `${file !== null && /^(?:[./~]|[A-Za-z]:[\\/])/.test(file) ? quote(file) : 'code'} through --node-options`);
    }
    // `-c '<command line>'` runs that line, the packages put on its PATH: read as a shell's line.
    const call = flagValues(rest, ['-c', '--call'])[0];
    if (call === undefined) return launch;
    const line = mapLaunchAt({ command: 'sh', args: ['-c', call], env: server.env }, depth + 1);
    if (line.kind === 'local' || line.kind === 'module' || line.kind === 'unknown') return launch.kind === 'package' ? withLoads(launch, 'the command line given to --call') : line;
    if (line.kind === 'package' && launch.kind === 'package') return { ...line, extra: [...line.extra, launch, ...launch.extra], loads: [...(line.loads ?? []), ...(launch.loads ?? [])] };
    return line;
  };
  switch (name) {
    case 'npx':
      return npmRun(name, npmExecSpelled(args, 'npx'));
    case 'bunx':
      return dlx(name, 'bunx', args);
    case 'pnpx':
      // pnpx is `pnpm dlx`.
      return dlx(name, 'pnpm dlx', ['dlx', ...args]);
    case 'pnpm':
      // pnpm reads its options before `dlx` as well as after it.
      return dlx('pnpm dlx', 'pnpm dlx', args);
    case 'bun': {
      // bun's subcommand is the first word that is no flag (`bun --silent x pkg`): read as the README install lines read it (ecosystems/npm/subcommand.ts).
      const { sub, bunx } = bunCommand(args);
      if (sub === null) return { kind: 'unknown', command: name, why: 'bun has options before its subcommand that nerq cannot read' };
      if (bunx === null) return { kind: 'unknown', command: name, why: `bun ${sub} runs no registry package` };
      return dlx('bun x', 'bunx', bunx);
    }
    case 'npm': {
      const sub = args[0];
      if (sub !== 'exec' && sub !== 'x') return { kind: 'unknown', command: name, why: `npm ${sub ?? ''} runs no registry package`.replace(/ +/g, ' ') };
      return npmRun(`npm ${sub}`, npmExecSpelled(args.slice(1), 'npm exec'));
    }
    case 'yarn': {
      // yarn's subcommand after its own options (`yarn --silent dlx pkg`): read as the README install lines read it (ecosystems/npm/subcommand.ts).
      const { sub, dlx: given, unreadable } = yarnCommand(args);
      if (given !== null) return dlx('yarn dlx', 'yarn dlx', given);
      // Options before `dlx` that nerq does not read: a package runs all the same, from where is unknown.
      if (unreadable !== null) return { kind: 'unknown', command: name, why: unreadable, ...(sub === 'dlx' || (sub === null && args.includes('dlx')) ? { runsPackage: true as const } : {}) };
      return { kind: 'unknown', command: name, why: `yarn ${sub ?? ''} runs no registry package`.trim() };
    }
    case 'uvx':
    case 'uv':
    case 'pipx': {
      const rest = name === 'uvx' ? args : name === 'pipx' && args[0] === 'run' ? pipxSpelled(args.slice(1)) : name === 'uv' && args[0] === 'tool' && args[1] === 'run' ? args.slice(2) : null;
      // `uv run <cmd>` and `uv --directory <dir> run <cmd>` run a project checked out on this
      // machine (its own environment), not a package from the registry.
      if (rest === null && name === 'uv' && args.includes('run')) {
        const command = firstOperand(args.slice(args.indexOf('run') + 1), UVX_VALUE_FLAGS)?.value ?? null;
        return { kind: 'local', command: 'uv run', file: flagValue(args, ['--directory', '--project']) ?? command };
      }
      if (rest === null) return { kind: 'unknown', command: name, why: `${name} ${args[0] ?? ''} runs no registry package`.trim() };
      const runner = name === 'uvx' ? 'uvx' : name === 'pipx' ? 'pipx run' : 'uv tool run';
      const main = flagValue(rest, name === 'pipx' ? ['--spec'] : ['--from']) ?? firstOperand(rest, UVX_VALUE_FLAGS, 0, true)?.value;
      // `--with a,b` installs more packages into the tool's environment (code that runs there too); pipx's `--with` one each.
      const withs = (name === 'pipx' ? flagValues(rest, ['--with']) : flagValues(rest, ['--with', '-w'], { clustered: true }).flatMap((w) => w.split(','))).map((w) => w.trim()).filter((w) => w !== '');
      const specs = main === undefined ? [] : [main, ...withs];
      const launch = withProxied(installs(runner, 'pypi', specs, redirection('pypi', rest, envKeys)), 'pypi', firstOperand(rest, UVX_VALUE_FLAGS, 0, true), rest);
      // `--with-editable ./dir` and `--with-requirements file` install code from a folder or a file
      // nerq does not read; one named by URL is fetched at every start.
      const unread = name === 'pipx' ? [] : flagValues(rest, ['--with-editable', '--with-requirements']);
      const fetched = unread.map((u) => (/^https?:\/\//i.test(u.trim()) ? scriptFrom(runner, u.trim()) : null)).find((l) => l !== null);
      if (fetched !== undefined && fetched !== null) return fetched;
      return unread.length === 0 ? launch : withLoads(launch, unread.map((u) => `${quote(u)} through --with-editable or --with-requirements`).join(', '));
    }
    case 'deno': {
      // `deno run -A npm:pkg` installs from npm; `jsr:` from JSR (not evaluated); a URL is fetched as is.
      if (args[0] !== 'run') return { kind: 'unknown', command: name, why: `${name} ${args[0] ?? ''} runs no registry package`.trim() };
      const script = firstOperand(args, DENO_VALUE_FLAGS, 1)?.value;
      if (script === undefined) return { kind: 'unknown', command: name, why: 'no script named' };
      if (/^npm:/i.test(script)) {
        const launch = installs('deno run', 'npm', [script.slice(4)], redirection('npm', [], envKeys));
        // Only the flags before the script are deno's; a file given by URL is fetched at every start.
        const loaded = flagValues(args.slice(1, firstOperand(args, DENO_VALUE_FLAGS, 1)?.index), DENO_CODE_FLAGS);
        const remote = loaded.map((v) => (/^https?:\/\//i.test(v.trim()) ? scriptFrom('deno run', v.trim()) : null)).find((l) => l !== null);
        if (remote !== undefined && remote !== null) return remote;
        // A path is named; a `data:` URL (any scheme but a drive letter) is code, not a place, and is not echoed.
        return loaded.reduce((l, v) => withLoads(l, `${/^[A-Za-z][A-Za-z0-9+.-]+:/.test(v.trim()) ? 'code' : quote(v.trim())} through deno's import map, configuration or preload`), launch);
      }
      if (/^jsr:/i.test(script)) return { kind: 'unknown', command: name, why: 'JSR packages are not evaluated yet', runsPackage: true };
      if (/^https?:\/\//i.test(script)) return scriptFrom('deno run', script) ?? { kind: 'unknown', command: name, why: 'not a valid URL' };
      return { kind: 'local', command: name, file: script };
    }
    case 'docker':
    case 'podman':
      return dockerImage(args, name);
    case 'dnx': {
      const pkg = firstOperand(args, new Set());
      return pkg === null ? { kind: 'unknown', command: name, why: 'no package named', runsPackage: true } : { kind: 'nuget', identifier: pkg.value, runner: name };
    }
    default:
      if (JS_RUNNERS.has(name) || PY_RUNNERS.has(name)) {
        // `python -m module`: an installed module, named as such (its arguments are not kept).
        const module = PY_RUNNERS.has(name) ? pythonModule(args) : null;
        if (module !== null) return module.name === null ? { kind: 'local', command: name, file: null } : { kind: 'module', command: name, module: module.name };
        const flags = PY_RUNNERS.has(name) ? PY_VALUE_FLAGS : JS_VALUE_FLAGS;
        const file = firstOperand(args, flags);
        // Code written in the arguments (`node -e "…"`, `python -c "…"`) is no file, and may carry a token: never echoed.
        const evals = PY_RUNNERS.has(name) ? PY_EVAL_FLAGS : JS_EVAL_FLAGS;
        const evalAt = args.findIndex((a) => evals.has(a.split('=')[0] ?? a));
        if (evalAt >= 0 && (file === null || evalAt < file.index)) return { kind: 'local', command: name, file: null };
        return { kind: 'local', command: name, file: file?.value ?? null };
      }
      if (SHELLS.has(name) || FETCHERS.has(name)) {
        // A shell or a download tool given a URL fetches code at every start (`bash -c "curl … | sh"`).
        const url = [...inline.slice(1), ...argList].join(' ').match(URL_IN_TEXT)?.[0];
        const fetched = url === undefined ? null : scriptFrom(name, url);
        if (fetched !== null) return fetched;
      }
      if (looksLocal(raw)) return { kind: 'local', command: commandName(raw), file: inline[0] ?? raw };
      // A shell's command line is read as its words (quotes, separators and substitutions taken off).
      return unreadable(name, SHELLS.has(name) ? args.flatMap((a) => a.split(/[\s;&|()`'"$<>{}]+/)) : args, 'a command nerq cannot tie to a package');
  }
}

/**
 * A command nerq cannot read: when a package runner's name stands among its words (`stdbuf -oL
 * npx …`, `sh -c "npm i -g pkg && pkg"`), it starts a package nerq cannot tie to a name — code
 * that cannot be inspected, never a pass; otherwise a program of this machine's (`why`).
 */
function unreadable(command: string, words: readonly string[], why: string): Launch {
  const runner = runnerWordIn(words);
  if (runner === null) return { kind: 'unknown', command, why };
  return { kind: 'unknown', command, why: `it starts ${quote(runner)} in a way nerq cannot read`, runsPackage: true };
}

/**
 * A package launch whose command is a proxy package it installs (`npx -y mcp-remote@0.1 <url>`,
 * `npx -p mcp-remote mcp-remote <url>`, `uvx mcp-proxy <url>`), with the remote that proxy
 * connects to (ecosystems/mcp/proxies.ts): the arguments after the command are the proxy's. Only
 * the URL is kept (normalised: never its credentials or query); header values never.
 */
function withProxied(launch: Launch, ecosystem: 'npm' | 'pypi', operand: { value: string; index: number } | null, rest: readonly string[]): Launch {
  if (launch.kind !== 'package' || operand === null) return launch;
  const word = operand.value.trim();
  const names = LAUNCH_NAMES[ecosystem];
  const name = names.ofWord(word);
  const pkg = [launch, ...launch.extra].find((p) => names.ofName(p.name) === name);
  if (pkg === undefined) return launch;
  const args = rest.slice(operand.index + 1);
  // A proxy in its server mode runs the command it is given: that command is the server, not read here.
  const served = proxyServerCommand(ecosystem, pkg.name, args);
  if (served !== null) return withLoads(launch, served === 'a command' ? `the command its ${pkg.name} server mode is given` : `the command ${served} its ${pkg.name} server mode is given`);
  const found = proxiedRemote(ecosystem, pkg.name, args);
  if (found === null) return launch;
  const target = remote(found.url);
  if (target.kind === 'remote') return { ...launch, proxied: { via: found.via, origin: target.origin, url: target.url, insecure: target.insecure } };
  if (target.kind === 'local') return { ...launch, proxied: { via: found.via, local: target.file ?? 'this machine' } };
  // A variable (`${input:url}`, `$URL`) or no http(s) URL: where it connects is not known here.
  return { ...launch, proxied: { via: found.via, unreadable: true } };
}

/** A package launch that also runs code nerq does not read (noted, never dropped); other launches as they are. */
function withLoads(launch: Launch, what: string): Launch {
  if (launch.kind !== 'package' || launch.loads?.includes(what) === true) return launch;
  return { ...launch, loads: [...(launch.loads ?? []), what] };
}

/** A script launch from its URL, keeping only the scheme and host (a path or query may carry a token); null for no http(s) URL. */
function scriptFrom(runner: string, url: string): Launch | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    return { kind: 'script', runner, origin: `${parsed.protocol}//${parsed.host.toLowerCase()}` };
  } catch {
    return null;
  }
}
