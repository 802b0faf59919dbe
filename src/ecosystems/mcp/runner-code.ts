/**
 * Whether an MCP Registry entry's runtime arguments make the package's runner install or run
 * code other than the package the entry names (`npx`, `node`, `deno`, `bun`; `uvx`, `pipx`,
 * `python`). A client passes them to the runner before the
 * package (`npx <runtimeArguments> <identifier>@<version>`; fixtures/mcp-registry/
 * server.schema.2025-12-11.json, `runtimeArguments`), so `-p other` (npx then runs the command
 * from `other`), `--call`, `--node-options`, `uvx --from git+https://…`, `--with other` or an
 * operand of its own (`npx other identifier` runs `other`) put code nerq did not evaluate in the
 * server's process: the named package's score is not what the client runs (docs/security.md,
 * "MCP client configurations are data"). A registry the arguments point at is
 * registry-redirect.ts's. So does a variable the entry sets for the process (its `value` or
 * `default`) that the runtime loads code from at start: `NODE_OPTIONS` (`--require`, `--import`
 * of a `data:` URL), npm's `package` / `call` / `node-options` settings, `PYTHONPATH`, a
 * preloaded library. A variable the user fills in is the user's. A configured launch that names
 * such a variable in its `env` is noted (audit/mcp/launch.ts; only the name is read). Pure.
 */
import { pep503 } from '../pypi/name.js';
import type { PackageEcosystem } from '../types.js';
import { npmExecWords } from '../npm/exec-argv.js';
import { dlxWords } from '../npm/dlx-argv.js';
import { pipxFlag } from '../registry-redirect.js';

/** What is read of a runtime argument (sources/mcp-registry/schema.ts, `McpArgument`). */
type Argument = { name?: string | undefined; value?: string | undefined; default?: string | undefined };
/** What is read of a variable: its name and whether the entry sets it (schema.ts, `KeyValueSchema`). */
type Variable = { name: string; value?: boolean | undefined; default?: boolean | undefined };

/** Runner flags whose value is code the runner installs or runs besides the package. */
const CODE_FLAGS = {
  // npx's, and node's when the hint is `node` (seed entries name it): `-e`/`-p` code, `-r`/`--import` a module first.
  // deno's and bun's when the hint is one of them: an import map or a configuration (its `imports`) remaps
  // what the package imports, a preloaded module runs first.
  npm: ['-p', '--package', '-c', '--call', '--node-options', '-e', '--eval', '--print', '-r', '--require', '--import', '--loader', '--experimental-loader', '--import-map', '--config', '--preload'],
  // uvx's and pipx's, and Python's when the hint is `python`: `-c` code, `-m` another module.
  pypi: ['--from', '--with', '-w', '--with-editable', '--with-requirements', '--spec', '-c', '-m'],
} as const;
/** A shell as the runtime: whatever it is given is a command line, not the package. */
const SHELL_HINTS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'cmd', 'pwsh', 'powershell']);
/** Runners of other kinds of packages, and container runtimes: named as the hint of a package of this ecosystem, they start something else. */
const NPM_RUNNERS = ['npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx', 'node', 'deno', 'tsx'];
const PYPI_RUNNERS = ['uvx', 'uv', 'pipx', 'pip', 'pip3', 'python', 'python3', 'py'];
const OTHER_RUNNERS = ['docker', 'podman', 'nerdctl', 'dnx', 'dotnet', 'cargo', 'go', 'java', 'ruby', 'gem', 'php'];
const FOREIGN_RUNNERS: Record<PackageEcosystem, ReadonlySet<string>> = {
  npm: new Set([...PYPI_RUNNERS, ...OTHER_RUNNERS]),
  pypi: new Set([...NPM_RUNNERS, ...OTHER_RUNNERS]),
};
/** What each package ecosystem's runners run, as a reason names it. */
const PACKAGES_OF: Record<PackageEcosystem, string> = { npm: 'npm packages', pypi: 'PyPI projects' };
/** Runner flags that take a separate value which is not an operand (as audit/mcp/launch.ts reads a launch). */
const VALUE_FLAGS = {
  npm: new Set(['--registry', '--cache', '--userconfig', '-w', '--workspace']),
  pypi: new Set(['--python', '-p', '--index', '--index-url', '-i', '--extra-index-url', '--default-index', '--find-links', '-f', '--directory', '--project', '--env-file', '--config-file', '--pip-args', '--index-strategy']),
} as const;

/**
 * One-letter flags of uv (clap), pipx (argparse) and Python cluster in one word, and the first
 * that takes a value takes the rest of it: `-qwother` is `-q -w other`, `-Bc code` is `-B -c code`.
 * The code flag such a word holds before any flag that takes a value (`-p`, `-i`, `-f`; Python's
 * `-W`, `-X`), or null.
 */
const PYPI_VALUE_LETTERS = new Set(['p', 'i', 'f', 'W', 'X']);
function clusteredCodeFlag(word: string, code: readonly string[]): string | null {
  if (!/^-[A-Za-z]{2}/.test(word)) return null;
  for (const letter of word.slice(1)) {
    if (!/[A-Za-z]/.test(letter)) return null;
    if (code.includes(`-${letter}`)) return `-${letter}`;
    if (PYPI_VALUE_LETTERS.has(letter)) return null;
  }
  return null;
}

/** The first runtime argument that adds code to the launch: its flag (`-p`, `--from`), `an operand of its own`, or null. */
/** The package name an operand names (`pkg`, `pkg@1.2.3`, `@s/pkg@1`, `pkg==1.0`, `pkg[extra]>=1`), normalised for comparison. */
function operandName(ecosystem: 'npm' | 'pypi', word: string): string {
  if (ecosystem === 'npm') {
    const at = word.indexOf('@', word.startsWith('@') ? 1 : 0);
    return (at < 0 ? word : word.slice(0, at)).toLowerCase();
  }
  return pep503(word.split(/[\s[=<>!~@;]/)[0] ?? '');
}

export function runnerAddsCode(ecosystem: 'npm' | 'pypi', args: readonly Argument[], runtimeHint?: string, identifier?: string): string | null {
  const hint = runtimeHint?.trim().toLowerCase().replace(/^.*[\\/]/, '').replace(/\.(?:exe|cmd)$/, '');
  if (hint !== undefined && SHELL_HINTS.has(hint)) return `the runtime ${hint}`;
  // A hint is the command a client starts: one that is no program name (`npx -p other`), or a
  // runner of another kind of package (`npx` for a PyPI project installs the npm package of that
  // name; `docker` runs an image), does not start the package evaluated.
  if (hint !== undefined && hint !== '' && !/^[a-z0-9][a-z0-9._+-]*$/.test(hint)) return 'a runtime hint that is no program name';
  if (hint !== undefined && FOREIGN_RUNNERS[ecosystem].has(hint)) return `the runtime ${hint}, which does not run ${PACKAGES_OF[ecosystem]}`;
  // npx (a client's runner for npm packages when no hint says otherwise) reads the arguments and
  // the package after them as npm does (npm/exec-argv.ts), whole: not word by word.
  // With no hint the runtime may be node as well: its own code flags are read first.
  const unhinted = hint === undefined || hint === '';
  if (ecosystem === 'npm' && (hint === 'bunx' || hint === 'pnpx')) return dlxAddsCode(hint, args, identifier);
  if (ecosystem === 'npm' && !unhinted && !JS_RUNTIMES.has(hint)) return npxAddsCode(args, identifier);
  const code: readonly string[] = CODE_FLAGS[ecosystem];
  const valued: ReadonlySet<string> = VALUE_FLAGS[ecosystem];
  // A flag in the spelling its runner reads it (registry-redirect.ts): pipx's abbreviations (`--spe=…`).
  const spell = hint === 'pipx' ? pipxFlag : (word: string) => word;
  let skipNext = false;
  for (const arg of args) {
    const value = arg.value ?? arg.default;
    // A named argument is `name value`: its value is the flag's, never an operand.
    const words = arg.name !== undefined && arg.name !== '' ? [arg.name] : value !== undefined && value !== '' ? [value] : [];
    for (const word of words) {
      const w = spell(word.trim());
      if (skipNext) {
        skipNext = false;
        continue;
      }
      if (w === '') continue;
      if (w === '--') return 'an operand after --';
      const flag = w.split('=')[0] ?? w;
      const known = code.find((c) => c === flag) ?? (ecosystem === 'pypi' ? clusteredCodeFlag(w, code) : null);
      if (known !== undefined && known !== null) return known;
      // The package itself written as an operand (a real entry does: `uvx` given `arxiv-mcp-server`) runs the same package.
      if (!w.startsWith('-')) {
        if (identifier !== undefined && operandName(ecosystem, w) === operandName(ecosystem, identifier.trim())) continue;
        return 'an operand of its own';
      }
      if (arg.name === undefined && !w.includes('=') && valued.has(w)) skipNext = true;
    }
  }
  return ecosystem === 'npm' && unhinted ? npxAddsCode(args, identifier) : null;
}

/** Runtimes that run an npm package's file themselves, with their own flags (node's `-e`, deno's `--import-map`). */
const JS_RUNTIMES = new Set(['node', 'deno', 'bun', 'tsx']);
/** npm's settings whose value is code npm exec installs or runs besides the package (npm/exec-argv.ts names). */
const NPM_CODE_OPTIONS = new Set(['package', 'call', 'node-options']);

/**
 * What npx runs when given `args` and then the package: a code setting (`--package`, `--call`,
 * `--node-options`, in any spelling npm reads: `-yc LINE`, `--node-o=…`), a first word that is not
 * the package (`other`, or the package taken as a setting's value), or null.
 */
function npxAddsCode(args: readonly Argument[], identifier: string | undefined): string | null {
  const words = args.flatMap((a) => [a.name, a.value ?? a.default].filter((w): w is string => w !== undefined && w.trim() !== '').map((w) => w.trim()));
  const { options, operands } = npmExecWords(identifier === undefined ? words : [...words, identifier.trim()], 'npx');
  const option = options.find(([name]) => NPM_CODE_OPTIONS.has(name));
  if (option !== undefined) return `--${option[0]}`;
  const own = identifier === undefined ? undefined : operandName('npm', identifier.trim());
  if (own !== undefined && operands.length === 0) return 'the package taken as a flag\'s value';
  return operands.some((w) => operandName('npm', w) !== own) ? 'an operand of its own' : null;
}

/** `bunx` or `pnpx` (pnpm dlx) given `args` and then the package, read as each reads them (npm/dlx-argv.ts). */
function dlxAddsCode(hint: 'bunx' | 'pnpx', args: readonly Argument[], identifier: string | undefined): string | null {
  const words = args.flatMap((a) => [a.name, a.value ?? a.default].filter((w): w is string => w !== undefined && w.trim() !== '').map((w) => w.trim()));
  const given = identifier === undefined ? words : [...words, identifier.trim()];
  const read = dlxWords(hint === 'bunx' ? 'bunx' : 'pnpm dlx', hint === 'pnpx' ? ['dlx', ...given] : given);
  if ('unreadable' in read) return `runtime arguments ${hint} reads in a way nerq cannot read with certainty`;
  if (read.words.some((w) => w.startsWith('--package='))) return '--package';
  const own = identifier === undefined ? undefined : operandName('npm', identifier.trim());
  const command = read.words[read.words.indexOf('--') + 1];
  if (own !== undefined && (read.words.indexOf('--') < 0 || command === undefined)) return "the package taken as a flag's value";
  const operands = read.words.indexOf('--') < 0 ? [] : read.words.slice(read.words.indexOf('--') + 1);
  return operands.some((w) => operandName('npm', w) !== own) ? 'an operand of its own' : null;
}

/** Variables a runtime or runner loads code from (npm reads its settings from `npm_config_*` in any letter case). */
const CODE_VARIABLES = /^(?:node_options|npm_config_(?:package|call|node_options)|pythonpath|pythonhome|ld_preload|ld_audit|dyld_insert_libraries)$/i;

/** The first variable the entry sets (value or default) that loads other code at start, or null. */
export function presetCodeVariable(variables: readonly Variable[]): string | null {
  const found = variables.find((v) => (v.value === true || v.default === true) && CODE_VARIABLES.test(v.name.trim()));
  return found === undefined ? null : found.name.trim().toUpperCase();
}

/** Whether a variable's name is one a runtime or runner loads code from (`NODE_OPTIONS`, `PYTHONPATH`…; the name alone, never a value). */
export function isCodeVariable(name: string): boolean {
  return CODE_VARIABLES.test(name.trim());
}
