/**
 * Commands that scripts call by name, and the packages that legitimately ship each one
 * (docs/security.md, "Commands a package puts on PATH"). npm, yarn and pnpm put
 * `node_modules/.bin` first on PATH for every package.json script, so a dependency's `bin` with
 * one of these names replaces the command in every script of the project that installs it (and
 * `npm i -g` replaces the user's own). A package ships one of them legitimately only when it is
 * the package this list names for it: no name rule (a scoped `@x/git`, or a package registered
 * under a command's name, does not own the command). Names are PATH lookup names (lower case, no
 * Windows launcher extension: sources/npm/commands.ts).
 */

/** The system's own commands: shells, the file and text tools scripts call, privilege and network tools, other toolchains. No npm package owns one. */
const SYSTEM: readonly string[] = [
  // shells
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'csh', 'tcsh', 'fish', 'pwsh', 'powershell', 'cmd',
  // file, text and process tools that scripts call
  'ls', 'cp', 'mv', 'rm', 'cat', 'echo', 'env', 'chmod', 'chown', 'mkdir', 'rmdir', 'ln', 'find', 'grep', 'sed', 'awk', 'xargs',
  'tar', 'gzip', 'unzip', 'kill', 'ps', 'tee', 'whoami', 'uname',
  // privilege
  'sudo', 'su', 'doas',
  // network and version control
  'git', 'ssh', 'scp', 'sftp', 'curl', 'wget', 'gpg', 'openssl',
  // other toolchains and their package managers
  'python', 'python3', 'pip', 'pip3', 'uv', 'uvx', 'docker', 'podman', 'kubectl', 'make', 'cmake', 'gcc', 'cc', 'clang',
  'go', 'cargo', 'rustc', 'java', 'ruby', 'gem', 'perl', 'php',
];

/**
 * The JavaScript toolchain's commands and popular tools' commands, each with the packages that
 * ship it: the runtime and package managers (npm's own `npx`, corepack's `yarn` and `pnpm`), and
 * the build, test and lint tools project scripts run by name.
 */
const OWNED: Readonly<Record<string, readonly string[]>> = {
  node: ['node'],
  nodejs: [],
  npm: ['npm'],
  npx: ['npm', 'npx'],
  corepack: ['corepack'],
  yarn: ['yarn', 'corepack', '@yarnpkg/cli-dist'],
  yarnpkg: ['yarn', 'corepack', '@yarnpkg/cli-dist'],
  pnpm: ['pnpm', '@pnpm/exe', 'corepack'],
  pnpx: ['pnpm', '@pnpm/exe', 'corepack'],
  bun: ['bun'],
  bunx: ['bun'],
  deno: ['deno'],
  'node-gyp': ['node-gyp'],
  which: ['which'],
  tsc: ['typescript'],
  tsserver: ['typescript'],
  eslint: ['eslint'],
  prettier: ['prettier'],
  jest: ['jest', 'jest-cli'],
  vitest: ['vitest'],
  vite: ['vite', 'rolldown-vite'],
  webpack: ['webpack'],
  'webpack-cli': ['webpack-cli'],
  next: ['next'],
  tsx: ['tsx'],
  'ts-node': ['ts-node'],
  nodemon: ['nodemon'],
  rimraf: ['rimraf'],
  mocha: ['mocha'],
  rollup: ['rollup'],
  esbuild: ['esbuild'],
  tsup: ['tsup'],
  babel: ['@babel/cli', 'babel-cli'],
  husky: ['husky'],
  lerna: ['lerna'],
  nx: ['nx'],
  turbo: ['turbo'],
  playwright: ['playwright', 'playwright-core', '@playwright/test'],
  'cross-env': ['cross-env'],
  concurrently: ['concurrently'],
  gulp: ['gulp', 'gulp-cli'],
  grunt: ['grunt-cli'],
};

export type CommandKind = 'system' | 'toolchain';

/** What a command name stands for on PATH, and who may ship it; null when it is not a listed command. */
export function listedCommand(name: string): { kind: CommandKind; owners: readonly string[] } | null {
  if (SYSTEM.includes(name)) return { kind: 'system', owners: [] };
  const owners = Object.hasOwn(OWNED, name) ? OWNED[name] : undefined;
  return owners === undefined ? null : { kind: 'toolchain', owners };
}


/** The name a command is looked up by on PATH: lower case, without a Windows launcher extension. */
export function lookupName(name: string): string {
  return name.toLowerCase().replace(/\.(?:cmd|bat|exe|com|ps1)$/, '');
}

/** The runtime and its package managers: no variant stands in for them (a `yarn-x` shipping `yarn` replaces it). */
const RUNTIME: ReadonlySet<string> = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack', 'yarn', 'yarnpkg', 'pnpm', 'pnpx', 'bun', 'bunx', 'deno']);

/** Lower-case words of a package or command name (`@rollup/wasm-node` → rollup, wasm, node). */
const wordsOf = (name: string): string[] => name.toLowerCase().split(/[@/._-]+/).filter((w) => w !== '');

/**
 * A build or a port of the tool itself, which ships its command as a drop-in: a package whose
 * name carries a listed tool command's words in order (`esbuild-wasm` → `esbuild`,
 * `@rollup/wasm-node` → `rollup`, `@lerna-lite/cli` → `lerna`, `@electron/node-gyp` →
 * `node-gyp`, `grunt` → `grunt`). Never for a system command, nor for the runtime and its package
 * managers.
 */
export function variantOf(command: string, packageName: string): boolean {
  const listed = listedCommand(command);
  if (listed?.kind !== 'toolchain' || RUNTIME.has(command)) return false;
  const want = wordsOf(command);
  const have = wordsOf(packageName);
  if (want.length === 0) return false;
  for (let i = 0; i + want.length <= have.length; i++) {
    if (want.every((w, j) => have[i + j] === w)) return true;
  }
  return false;
}

