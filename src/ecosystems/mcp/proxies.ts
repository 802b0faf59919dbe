/**
 * MCP proxies: packages that connect a client speaking stdio to a remote MCP server named by URL
 * in their arguments (docs/mcp.md, "Proxies"). What the user trusts is the server at that URL,
 * judged as a remote; the proxy is a package like any other. Read as each proxy reads its
 * arguments: npm `mcp-remote` (`mcp-remote <url> [port] --header 'Name: value' …`), npm
 * `supergateway` (`--sse <url>`, `--streamableHttp <url>`; `--stdio <command>` is its server
 * mode, no remote), PyPI `mcp-proxy` (`mcp-proxy [options] <url>`; a command instead of a URL is
 * its server mode). Only the URL and the names of `--header` headers are returned, never a
 * header's value (a token). A proxy in its server mode runs the command it is given: that command
 * is the server's code, named by `proxyServerCommand` (its program's name only). Pure.
 */
import { pep503 } from '../pypi/name.js';
import { flagValues } from '../registry-redirect.js';

export interface ProxiedRemote {
  /** The URL as written (callers strip credentials and query before keeping it). */
  url: string;
  /** The transport the proxy speaks to it: `sse`, `streamable-http`, or `unknown`. */
  type: string;
  /** Names of the headers the arguments add (`Authorization`), never their values. */
  headers: string[];
  /** The proxy, as `npm:mcp-remote`. */
  via: string;
}

/** mcp-remote's options that take a separate value (its README's "Flags"). */
const MCP_REMOTE_VALUE_FLAGS = new Set(['--header', '--transport', '--host', '--static-oauth-client-metadata', '--static-oauth-client-info', '--resource', '--auth-timeout', '--ignore-tool']);
/** mcp-proxy's options that take one value, and those that take two (`--headers Name value`, `-e NAME value`). */
const MCP_PROXY_VALUE_FLAGS = new Set([
  '--transport', '--port', '--host', '--sse-port', '--sse-host', '--cwd', '--allow-origin', '--named-server-config', '--log-level', '--client-id', '--client-secret', '--token-url',
]);
const MCP_PROXY_PAIR_FLAGS = new Set(['-H', '--headers', '-e', '--env', '--named-server']);

/** A URL (or a URL template a registry entry leaves to the user, `{url}`) where mcp-proxy expects a URL or a command. */
const URLISH = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|\{)/;

/** The proxy a package is, by its registry's name, or null. */
function proxyOf(ecosystem: 'npm' | 'pypi', name: string): 'mcp-remote' | 'supergateway' | 'mcp-proxy' | null {
  if (ecosystem === 'npm') {
    const n = name.toLowerCase();
    return n === 'mcp-remote' || n === 'supergateway' ? n : null;
  }
  return pep503(name) === 'mcp-proxy' ? 'mcp-proxy' : null;
}

/** The first value of `--flag value` / `--flag=value`, if given (up to `--`). */
function valueOf(args: readonly string[], names: readonly string[]): string | null {
  return flagValues(args, names)[0] ?? null;
}

/** The first operand, skipping flags and their values. */
function firstOperand(args: readonly string[], valueFlags: ReadonlySet<string>, pairFlags: ReadonlySet<string> = new Set()): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') return args[i + 1] ?? null;
    if (arg.startsWith('-')) {
      if (!arg.includes('=') && valueFlags.has(arg)) i++;
      else if (!arg.includes('=') && pairFlags.has(arg)) i += 2;
      continue;
    }
    return arg;
  }
  return null;
}

/** Names of the headers `--header 'Name: value'` adds (mcp-remote, supergateway): the part before the colon, when it is a header name. */
function headerNames(args: readonly string[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const value = arg === '--header' ? args[i + 1] : arg.startsWith('--header=') ? arg.slice('--header='.length) : undefined;
    const name = value === undefined ? undefined : /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]{1,64})\s*:/.exec(value)?.[1];
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * The remote a proxy package connects to, from the arguments given after the package (`npx -y
 * mcp-remote@0.1 https://host/sse --header …` → `https://host/sse`), or null when the package
 * is no proxy or is started in a mode that names no remote.
 */
export function proxiedRemote(ecosystem: 'npm' | 'pypi', name: string, args: readonly string[]): ProxiedRemote | null {
  const proxy = proxyOf(ecosystem, name);
  const via = `${ecosystem}:${name.toLowerCase()}`;
  switch (proxy) {
    case 'mcp-remote': {
      // Its first operand is the URL, whatever it looks like (`${input:url}`, `$URL`): returned as
      // written, for the caller to read as a URL it cannot judge.
      const url = firstOperand(args, MCP_REMOTE_VALUE_FLAGS);
      if (url === null || url.trim() === '') return null;
      const transport = valueOf(args, ['--transport']);
      const type = transport === null || transport.startsWith('http') ? 'streamable-http' : transport.startsWith('sse') ? 'sse' : 'unknown';
      return { url: url.trim(), type, headers: headerNames(args), via };
    }
    case 'supergateway': {
      const sse = valueOf(args, ['--sse']);
      const http = sse === null ? valueOf(args, ['--streamableHttp']) : null;
      const url = sse ?? http;
      if (url === null || url.trim() === '') return null;
      return { url: url.trim(), type: sse !== null ? 'sse' : 'streamable-http', headers: headerNames(args), via };
    }
    case 'mcp-proxy': {
      const url = firstOperand(args, MCP_PROXY_VALUE_FLAGS, MCP_PROXY_PAIR_FLAGS);
      if (url === null || !URLISH.test(url.trim())) return null;
      const transport = valueOf(args, ['--transport']);
      // Header names given as `--headers Name value` (the value is never read).
      const headers = args.flatMap((a, i) => ((a === '-H' || a === '--headers') && /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/.test(args[i + 1] ?? '') ? [args[i + 1] as string] : []));
      return { url: url.trim(), type: transport === 'streamablehttp' ? 'streamable-http' : 'sse', headers: [...new Set(headers)], via };
    }
    default:
      return null;
  }
}

/** A program's name as a launcher starts it: `/usr/bin/uvx` → `uvx`, `npx.cmd` → `npx`; null for no program name. */
function programName(word: string): string | null {
  const name = word.trim().replace(/^["']|["']$/g, '').replace(/^.*[\\/]/, '').replace(/\.(?:exe|cmd|bat)$/i, '').toLowerCase();
  return /^[a-z0-9][a-z0-9._+-]{0,63}$/.test(name) ? name : null;
}

/**
 * The program a proxy started in its server mode runs as the MCP server (`supergateway --stdio
 * "uvx mcp-server-git"` → `uvx`; `mcp-proxy --port 8080 uvx mcp-server-fetch` → `uvx`): what a
 * client then talks to is that command's code, not the proxy's. `a command` when the command is
 * given but its program has no readable name (a variable); null when the package is no proxy or
 * names no command. Its arguments are never returned (they may carry a token).
 */
export function proxyServerCommand(ecosystem: 'npm' | 'pypi', name: string, args: readonly string[]): string | null {
  const proxy = proxyOf(ecosystem, name);
  let command: string | null = null;
  if (proxy === 'supergateway') command = valueOf(args, ['--stdio']);
  else if (proxy === 'mcp-proxy') {
    const operand = firstOperand(args, MCP_PROXY_VALUE_FLAGS, MCP_PROXY_PAIR_FLAGS);
    command = operand === null || URLISH.test(operand.trim()) ? null : operand;
  }
  if (command === null || command.trim() === '') return null;
  return programName(command.trim().split(/\s+/)[0] ?? '') ?? 'a command';
}
