/**
 * How pnpm, yarn and bun find their subcommand among the words after their own name: the options
 * they read before it (`pnpm -w add x`, `yarn --cwd dir add x`, `bun --silent x pkg`). One
 * reading, shared by the README install lines (sources/github/readme-installs.ts) and the MCP
 * client launches (audit/mcp/launch.ts), `bun x` and `yarn dlx` included. Pure.
 */

export type AddTool = 'pnpm' | 'yarn' | 'bun';

/**
 * The options pnpm, yarn and bun read before their subcommand (`pnpm -w add x`, `yarn --cwd dir
 * add x`), by their spellings: switches, and options that take a value. pnpm reads its options
 * with nopt on both sides of the subcommand; yarn classic takes as its command the first word that
 * is neither a flag nor the value of a flag it knows (yarn `src/cli/index.js`); bun the first word
 * that is no flag at all (oven-sh/bun `src/cli.zig` `which`), so a value written apart there is
 * bun's command (`bun --cwd x add y` is `bun x`, which runs the package `add`). Any other flag
 * before the subcommand is not read with certainty: the command then names no package.
 */
export const LEADING: Readonly<Record<AddTool, { switches: ReadonlySet<string>; values: ReadonlySet<string> }>> = {
  pnpm: {
    switches: new Set(['-w', '--workspace-root', '-r', '--recursive', '-s', '--silent', '-g', '--global', '--color', '--no-color', '--stream', '--aggregate-output']),
    values: new Set(['--registry', '--dir', '-C', '--filter', '-F', '--reporter', '--loglevel', '--store-dir', '--config.registry']),
  },
  yarn: {
    switches: new Set(['-s', '--silent', '--verbose', '--offline', '--prefer-offline', '--json', '--ignore-scripts', '--ignore-engines', '--ignore-platform', '--ignore-optional', '--force', '--non-interactive', '--no-progress', '--frozen-lockfile', '--pure-lockfile', '--no-lockfile']),
    values: new Set(['--registry', '--cwd', '--use-yarnrc', '--modules-folder', '--cache-folder', '--global-folder', '--link-folder', '--preferred-cache-folder', '--mutex', '--network-concurrency', '--network-timeout', '--proxy', '--https-proxy']),
  },
  bun: {
    switches: new Set(['--silent', '--verbose', '-g', '--global', '--no-save', '--production', '-p', '--frozen-lockfile', '--no-progress', '--no-summary', '--dry-run', '--ignore-scripts', '-D', '--dev', '-d', '-E', '--exact', '-f', '--force']),
    values: new Set(['--registry', '--cwd', '-c', '--config']),
  },
};

/** pnpm's `--config.@scope:registry=…`: a registry for one scope. */
export const PNPM_SCOPE_REGISTRY = /^--config\.@[^:=\s]+:registry=/;

/**
 * `tool`'s subcommand, the options before it and the words after it, read as `tool` reads them
 * (LEADING); null when a word before it is not read with certainty.
 */
export function subcommandOf(tool: AddTool, words: readonly string[]): { sub: string; before: string[]; after: string[] } | null {
  const { switches, values } = LEADING[tool];
  const before: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (word === '--') return null;
    if (!word.startsWith('-') || word === '-') return { sub: word, before, after: words.slice(i + 1) };
    const at = word.indexOf('=');
    if (at < 0 && switches.has(word)) before.push(word);
    else if (at > 0 && (values.has(word.slice(0, at)) || (tool === 'pnpm' && PNPM_SCOPE_REGISTRY.test(word)))) before.push(word);
    else if (at < 0 && values.has(word) && tool === 'bun') before.push(word);
    else if (at < 0 && values.has(word)) {
      const value = words[i + 1];
      if (value === undefined || value.startsWith('-')) return null;
      before.push(word, value);
      i++;
    } else return null;
  }
  return null;
}

/**
 * `bun <words>` as bun reads it: its subcommand (null when a flag before it is not read with
 * certainty) and, for `bun x`, the words bunx's reader is given — the flags before `x` too (bun's
 * argv from its first word), so `bun --silent x pkg` runs `pkg`.
 */
export function bunCommand(words: readonly string[]): { sub: string | null; bunx: string[] | null } {
  const read = subcommandOf('bun', words);
  if (read === null) return { sub: null, bunx: null };
  return { sub: read.sub, bunx: read.sub === 'x' ? [...read.before, ...read.after] : null };
}

/**
 * `yarn <words>` as yarn reads it: its subcommand (null when a flag before it is not read with
 * certainty) and, for `yarn dlx`, the words dlx is given. yarn's own options before `dlx` (`--cwd
 * dir`, whose .yarnrc.yml may name another registry, `--registry`, `--use-yarnrc`) leave where the
 * package comes from unknown: then `dlx` is null and `unreadable` says why.
 */
export function yarnCommand(words: readonly string[]): { sub: string | null; dlx: string[] | null; unreadable: string | null } {
  const read = subcommandOf('yarn', words);
  if (read === null) return { sub: null, dlx: null, unreadable: words.length === 0 ? 'yarn names no subcommand' : 'yarn has options before its subcommand that nerq cannot read' };
  if (read.sub !== 'dlx') return { sub: read.sub, dlx: null, unreadable: null };
  if (read.before.length > 0) return { sub: 'dlx', dlx: null, unreadable: 'yarn has options of its own before dlx, which may change where the package comes from' };
  return { sub: 'dlx', dlx: read.after, unreadable: null };
}
