/**
 * What an MCP client would start, read from a configured server's `command`, `args` and `url`
 * (nothing is ever started): a package nerq can evaluate (npm through `npx`, `npm exec`,
 * `pnpm dlx`, `yarn dlx`, `bunx`; PyPI through `uvx`, `uv tool run`, `pipx run`), a container
 * image (`docker run` / `podman run`: not evaluated yet), a NuGet tool (`dnx`: not evaluated
 * yet), a remote URL, a local file (`node /opt/x.js`: not evaluable) or a command nerq cannot
 * tie to a package. Pure. Arguments other than the package are never kept: they may carry
 * secrets (`--api-key=…`).
 */
import semver from 'semver';
import { parseTarget } from '../../target/parse.js';
import { TargetError } from '../../target/types.js';
import { wideningArguments } from '../../checks/lib/mcp.js';
import { isLoopback, normaliseRemoteUrl } from './remote-url.js';

export type Launch =
  | { kind: 'package'; ecosystem: 'npm' | 'pypi'; name: string; version: string | null; spec: string | null; runner: string }
  | { kind: 'image'; image: string; runner: string; widening: string[] }
  | { kind: 'nuget'; identifier: string; runner: string }
  | { kind: 'remote'; origin: string; url: string; insecure: boolean }
  | { kind: 'local'; command: string; file: string | null }
  | { kind: 'unknown'; command: string; why: string };

const JS_RUNNERS = new Set(['node', 'deno', 'bun', 'tsx', 'ts-node']);
const PY_RUNNERS = new Set(['python', 'python3', 'py']);
/** npx / dlx flags that take a value (the value is not the package). */
const NPX_VALUE_FLAGS = new Set(['-p', '--package', '-c', '--call', '--node-options', '--registry', '--cache', '--userconfig', '-w', '--workspace']);
const UVX_VALUE_FLAGS = new Set(['--from', '--with', '--python', '-p', '--index', '--index-url', '--extra-index-url', '--with-requirements', '--directory', '--env-file']);
const DOCKER_VALUE_FLAGS = new Set([
  '-e', '--env', '-v', '--volume', '--mount', '--name', '--network', '--net', '-p', '--publish', '-w', '--workdir', '-u', '--user',
  '--env-file', '--entrypoint', '--platform', '--pull', '--label', '-l', '--add-host', '--cap-add', '--cap-drop', '--pid', '--ipc',
  '--device', '--memory', '-m', '--cpus', '--restart', '--hostname', '-h', '--security-opt', '--tmpfs', '--ulimit', '--runtime', '--gpus',
]);

/** `C:\\x\\npx.cmd` → `npx`. */
function commandName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(?:cmd|exe|bat|ps1)$/i, '').toLowerCase();
}

/** The first argument that is not a flag (nor a flag's value), from `start`. */
function firstOperand(args: readonly string[], valueFlags: ReadonlySet<string>, start = 0): { value: string; index: number } | null {
  for (let i = start; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') return i + 1 < args.length ? { value: args[i + 1] ?? '', index: i + 1 } : null;
    if (arg.startsWith('-')) {
      if (!arg.includes('=') && valueFlags.has(arg)) i++;
      continue;
    }
    return { value: arg, index: i };
  }
  return null;
}

/** The value of `--flag value` / `--flag=value`, if given. */
function flagValue(args: readonly string[], names: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    for (const name of names) {
      if (arg === name) return args[i + 1] ?? null;
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
    }
  }
  return null;
}

function looksLocal(spec: string): boolean {
  return /^(?:\.{1,2}[\\/]|[\\/]|~[\\/]|[A-Za-z]:[\\/]|file:)/.test(spec);
}

function npmPackage(spec: string, runner: string): Launch {
  if (looksLocal(spec)) return { kind: 'local', command: runner, file: spec };
  try {
    const target = parseTarget(`npm:${spec}`);
    const version = target.spec !== undefined && semver.valid(target.spec) !== null ? target.spec : null;
    return { kind: 'package', ecosystem: 'npm', name: target.name, version, spec: version === null ? (target.spec ?? null) : null, runner };
  } catch (error) {
    const why = error instanceof TargetError ? error.message : 'not an npm package';
    return { kind: 'unknown', command: runner, why };
  }
}

function pypiPackage(spec: string, runner: string): Launch {
  if (looksLocal(spec) || /^(?:git\+|https?:)/.test(spec)) return { kind: 'local', command: runner, file: spec };
  // uvx writes `pkg@1.2.3` for a pinned version, pip-style specifiers otherwise; extras are dropped.
  const text = spec.replace(/\[[^\]]*\]/, '').replace(/^([A-Za-z0-9._-]+)@(?=\d)/, '$1==');
  try {
    const target = parseTarget(`pypi:${text}`);
    const pin = target.spec !== undefined ? /^==\s*([^,*\s]+)$/.exec(target.spec)?.[1] ?? null : null;
    return { kind: 'package', ecosystem: 'pypi', name: target.name, version: pin, spec: pin === null ? (target.spec ?? null) : null, runner };
  } catch (error) {
    const why = error instanceof TargetError ? error.message : 'not a PyPI project';
    return { kind: 'unknown', command: runner, why };
  }
}

function dockerImage(args: readonly string[], runner: string): Launch {
  const run = args.findIndex((a) => a === 'run');
  if (run < 0) return { kind: 'unknown', command: runner, why: `${runner} without run` };
  const image = firstOperand(args, DOCKER_VALUE_FLAGS, run + 1);
  if (image === null) return { kind: 'unknown', command: runner, why: 'no image named' };
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

export function mapLaunch(server: { command?: unknown; args?: unknown; url?: unknown }): Launch {
  if (typeof server.url === 'string' && server.url.trim() !== '' && typeof server.command !== 'string') return remote(server.url.trim());
  if (typeof server.command !== 'string' || server.command.trim() === '') {
    return { kind: 'unknown', command: '', why: 'neither a command nor a URL' };
  }
  const raw = server.command.trim();
  // `"command": "npx -y pkg"` in one string: split on spaces (no quoting is interpreted).
  const inline = raw.split(/\s+/);
  const argList = Array.isArray(server.args) ? server.args.filter((a): a is string => typeof a === 'string') : [];
  const args = [...inline.slice(1), ...argList];
  const name = commandName(inline[0] ?? '');
  // Windows wraps the launcher: `cmd /c npx -y pkg`.
  if (name === 'cmd' && /^\/c$/i.test(args[0] ?? '') && args[1] !== undefined) return mapLaunch({ command: args[1], args: args.slice(2) });
  switch (name) {
    case 'npx':
    case 'bunx': {
      const pkg = flagValue(args, ['-p', '--package']) ?? firstOperand(args, NPX_VALUE_FLAGS)?.value;
      return pkg === undefined ? { kind: 'unknown', command: name, why: 'no package named' } : npmPackage(pkg, name);
    }
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun': {
      const sub = args[0];
      const ok = (name === 'npm' && (sub === 'exec' || sub === 'x')) || ((name === 'pnpm' || name === 'yarn') && sub === 'dlx') || (name === 'bun' && sub === 'x');
      if (!ok) return { kind: 'unknown', command: name, why: `${name} ${sub ?? ''} runs no registry package`.replace(/ +/g, ' ') };
      const rest = args.slice(1);
      const pkg = flagValue(rest, ['-p', '--package']) ?? firstOperand(rest, NPX_VALUE_FLAGS)?.value;
      return pkg === undefined ? { kind: 'unknown', command: name, why: 'no package named' } : npmPackage(pkg, `${name} ${sub}`);
    }
    case 'uvx':
    case 'uv':
    case 'pipx': {
      const rest = name === 'uvx' ? args : args[0] === 'run' ? args.slice(1) : name === 'uv' && args[0] === 'tool' && args[1] === 'run' ? args.slice(2) : null;
      // `uv --directory <dir> run <cmd>` runs a project checked out on this machine.
      if (rest === null && name === 'uv' && args.includes('run')) {
        return { kind: 'local', command: 'uv run', file: flagValue(args, ['--directory', '--project']) };
      }
      if (rest === null) return { kind: 'unknown', command: name, why: `${name} ${args[0] ?? ''} runs no registry package`.trim() };
      const runner = name === 'uvx' ? 'uvx' : name === 'pipx' ? 'pipx run' : 'uv tool run';
      const pkg = flagValue(rest, name === 'pipx' ? ['--spec'] : ['--from']) ?? firstOperand(rest, UVX_VALUE_FLAGS)?.value;
      return pkg === undefined ? { kind: 'unknown', command: name, why: 'no package named' } : pypiPackage(pkg, runner);
    }
    case 'docker':
    case 'podman':
      return dockerImage(args, name);
    case 'dnx': {
      const pkg = firstOperand(args, new Set());
      return pkg === null ? { kind: 'unknown', command: name, why: 'no package named' } : { kind: 'nuget', identifier: pkg.value, runner: name };
    }
    default:
      if (JS_RUNNERS.has(name) || PY_RUNNERS.has(name)) {
        // `python -m module`: an installed module, named as such (its arguments are not kept).
        const module = PY_RUNNERS.has(name) ? flagValue(args, ['-m']) : null;
        if (module !== null) return { kind: 'local', command: name, file: `-m ${module}` };
        const file = firstOperand(args, new Set(['-r', '--require', '--import', '--loader']));
        return { kind: 'local', command: name, file: file?.value ?? null };
      }
      if (looksLocal(raw)) return { kind: 'local', command: commandName(raw), file: inline[0] ?? raw };
      return { kind: 'unknown', command: name, why: 'a command nerq cannot tie to a package' };
  }
}
