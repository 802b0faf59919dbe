/**
 * The files of the package an install script runs: `node install.js`, `node ./scripts/postinstall`,
 * `sh ./setup.sh`, `python build.py`, `./install.sh`, `node -e "require('./x')"`, with the
 * candidate paths the interpreter would try (node resolves `scripts/postinstall` as
 * `scripts/postinstall.js` or `scripts/postinstall/index.js`). A command runs in a folder of the
 * tarball (the package's, or a bundled package's `node_modules/helper`): its paths are resolved
 * from there as the shell would, `..` included, and only those that stay inside the tarball are
 * named (no absolute path): a script that runs a program from elsewhere runs no file of the
 * tarball. Pure text reading, never executed (docs/checks.md, `install-scripts`).
 */

/** How a file is read: as JavaScript, as a shell script, as Python, as a GYP build file (gyp-commands.ts). */
export type CodeLanguage = 'javascript' | 'shell' | 'python' | 'gyp';

export interface InstallTarget {
  language: CodeLanguage;
  /** The path as the script gives it, normalised inside the package folder (`scripts/postinstall`). */
  path: string;
  /** The paths the interpreter would try, in its order (node's extension and `index.js` lookup). */
  candidates: string[];
}

/** Commands longer than this are not split (the command-level check already flags them as oversized). */
const MAX_COMMAND_CHARS = 4_000;
/** Targets named at most, per command. */
const MAX_TARGETS = 8;

const NODE = /^(?:.*\/)?(?:node|nodejs|node\.exe)$/i;
const SHELL = /^(?:.*\/)?(?:sh|bash|zsh|dash|ksh)$/i;
const PYTHON = /^(?:.*\/)?(?:python|python2|python3)(?:\.\d+)?$/i;
/**
 * Builders that run node-gyp on the package's `binding.gyp` (node-gyp-build and node-pre-gyp when
 * no prebuilt binary fits): the build file's commands run too.
 */
const GYP_BUILDER = /^(?:.*\/)?(?:node-gyp|node-gyp-build|node-pre-gyp)$/i;
/** Programs that run the command that follows them (with their own options first). */
const WRAPPER = /^(?:exec|env|cross-env|nice|nohup|time|command|setsid|sudo|doas|start|timeout|stdbuf|caffeinate)$/i;
/** Shell keywords that may come before a command in a compound one (`if …; then node a.js; fi`). */
const SHELL_KEYWORD = /^(?:then|do|else|!|\{)$/;
/** Node options that take a module to load before the script (it runs too). */
const NODE_PRELOAD = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);
/** Node options followed by a value that is not a file of the package. */
const NODE_VALUED = new Set(['--max-old-space-size', '--stack-size', '--title', '--input-type', '--conditions', '-C', '--env-file', '--env-file-if-exists']);
/** `require('./x')` in inline code (`node -e`): the local files it loads. */
const INLINE_REQUIRE = /\brequire\s*\(\s*(['"`])(\.{1,2}\/[^'"`\s]+)\1\s*\)|\bimport\s*\(\s*(['"`])(\.{1,2}\/[^'"`\s]+)\3\s*\)/g;

/**
 * A path normalised inside the package folder (`./a/../b.js` → `b.js`); null when it leaves the
 * folder, is absolute, or names nothing.
 */
export function packagePath(raw: string): string | null {
  const path = raw.replaceAll('\\', '/');
  // `$HOME/x`, `<(module_root_dir)/x` (a GYP variable): a path nerq cannot place.
  if (path.startsWith('/') || /^[a-z]:/i.test(path) || path.includes('\0') || path.startsWith('~') || /[$<>]/.test(path)) return null;
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.length === 0 ? null : out.join('/');
}

/** The files node tries for a main module path: the path itself, with `.js` / `.cjs` / `.mjs` / `.json`, then as a folder's `index.js`. */
export function nodeCandidates(path: string): string[] {
  if (/\.(?:[cm]?js|json)$/i.test(path)) return [path];
  return [path, `${path}.js`, `${path}.cjs`, `${path}.mjs`, `${path}/index.js`, `${path}/index.cjs`, `${path}/index.mjs`];
}

/**
 * A path a command gives, resolved from the folder `dir` it runs in (packagePath); null when it is
 * absolute or leaves the tarball's root.
 */
export function pathFrom(dir: string, raw: string): string | null {
  const path = raw.replaceAll('\\', '/');
  if (path.startsWith('/') || /^[a-z]:/i.test(path) || path.startsWith('~')) return null;
  return packagePath(dir === '' ? path : `${dir}/${path}`);
}

/** Split a command into simple commands at `&&`, `||`, `;`, `|`, `&` and newlines, outside quotes. */
function simpleCommands(command: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let quote: string | null = null;
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === ' ' || c === '\t') endWord();
    else if (c === ';' || c === '|' || c === '&' || c === '\n' || c === '\r' || c === '(' || c === ')') endCommand();
    else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

/** One simple command's targets: the interpreter's script file, or the program itself when it is a path. */
function targetsOf(words: readonly string[], dir: string, manifest: FolderManifest, depth: number): InstallTarget[] {
  let i = 0;
  // Leading variable assignments (`FOO=1 node x.js`), the shell's keywords before a command
  // (`then node a.js`), and wrappers that run the rest with their options (`nice -n 5`,
  // `timeout 30`, `sudo -E`, Windows' `start /B ""`: a detached start, as malicious packages do).
  while (i < words.length) {
    const word = words[i]!;
    if (/^[A-Za-z_]\w*=/.test(word) || SHELL_KEYWORD.test(word)) i++;
    else if (WRAPPER.test(word)) {
      i++;
      while (i < words.length && (/^-/.test(words[i]!) || /^\/[a-z]+$/i.test(words[i]!) || /^\d+[smhd]?$/.test(words[i]!) || words[i] === '')) {
        // `nice -n 5`, `sudo -u user`: an option's value.
        if (/^-[nuCgk]$/.test(words[i]!) && i + 1 < words.length) i++;
        i++;
      }
    } else break;
  }
  const program = words[i];
  if (program === undefined) return [];
  const rest = words.slice(i + 1);
  // `cmd /c node x.js`: the inline command's own targets, as `sh -c` (below).
  if (/^(?:.*[\\/])?cmd(?:\.exe)?$/i.test(program)) {
    const inline = rest.findIndex((w) => /^\/[ck]$/i.test(w));
    return inline < 0 ? [] : installTargetsAt(rest.slice(inline + 1).join(' '), dir, manifest, depth + 1);
  }
  // `npm run x`, `yarn x`, `pnpm run x`, `npm start`: the script of that name in the folder's package.json, read as a command of its own.
  const script = scriptNamed(program, rest, manifest.scripts);
  if (script !== null) return installTargetsAt(script, dir, manifest, depth + 1);
  // Runners that run node, or a script file as node does: `yarn node x.js`, `npx node x.js`, `bun x.js`, `bun run x.js`, `tsx x.ts`.
  if (/^(?:yarn|npx|pnpx)$/.test(program) && rest[0] === 'node') return nodeTargets(rest.slice(1), dir, manifest.main);
  if (program === 'bun' || /^(?:tsx|ts-node)$/.test(program) || (program === 'npx' && /^(?:tsx|ts-node)$/.test(rest[0] ?? ''))) {
    const args = program === 'npx' || (program === 'bun' && rest[0] === 'run') ? rest.slice(1) : rest;
    const file = args.find((w) => !w.startsWith('-'));
    return file !== undefined && (program !== 'bun' || /\.[cm]?[jt]sx?$/i.test(file) || file === '.') ? nodeTargets([file], dir, manifest.main) : [];
  }
  if (NODE.test(program)) return nodeTargets(rest, dir, manifest.main);
  if (SHELL.test(program)) {
    // `sh -c "node x.js"`: the inline command's own targets.
    const inline = rest.indexOf('-c');
    if (inline >= 0) return rest[inline + 1] === undefined ? [] : installTargetsAt(rest[inline + 1]!, dir, manifest, depth + 1);
    return fileArgument(rest, 'shell', dir, new Set(['-o', '+o', '-O', '+O']));
  }
  if (GYP_BUILDER.test(program) || (/^(?:npx|pnpx|bunx)$/.test(program) && rest.some((w) => GYP_BUILDER.test(w)))) return gypTarget(rest, dir);
  if (PYTHON.test(program)) return fileArgument(rest, 'python', dir, new Set(['-W', '-X', '-Q']), new Set(['-c', '-m']));
  // A path run directly (`./install.sh`, `bin/setup`): a file of the package, read as shell unless it says JavaScript.
  if (!program.includes('://') && (/^\.{0,2}\//.test(program) || (program.includes('/') && !program.startsWith('/')))) {
    const path = pathFrom(dir, program);
    if (path === null) return [];
    const language: CodeLanguage = /\.[cm]?js$/i.test(path) ? 'javascript' : /\.py$/i.test(path) ? 'python' : 'shell';
    return [{ language, path, candidates: [path] }];
  }
  return [];
}

/** The build file node-gyp reads: `binding.gyp` in the folder it runs in, or in the folder `--directory` names. */
function gypTarget(args: readonly string[], from: string): InstallTarget[] {
  let dir = '';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--directory=')) dir = arg.slice('--directory='.length);
    else if (arg === '--directory' || arg === '-C') dir = args[++i] ?? '';
  }
  const path = pathFrom(from, dir === '' ? 'binding.gyp' : `${dir}/binding.gyp`);
  return path === null ? [] : [{ language: 'gyp', path, candidates: [path] }];
}

/**
 * The files node tries for the folder `dir` itself (`node .`, `node ./`): the `main` its
 * package.json names, then its `index.js` (node's lookup when `main` names no file).
 */
export function folderCandidates(dir: string, main?: string): { path: string; candidates: string[] } {
  const index = ['index.js', 'index.cjs', 'index.mjs'].map((name) => (dir === '' ? name : `${dir}/${name}`));
  const mainPath = main === undefined ? null : pathFrom(dir, main);
  if (mainPath === null) return { path: index[0]!, candidates: index };
  return { path: mainPath, candidates: [...new Set([...nodeCandidates(mainPath), ...index])] };
}

function nodeTargets(args: readonly string[], dir: string, main?: string): InstallTarget[] {
  const out: InstallTarget[] = [];
  const add = (raw: string): void => {
    // `node .`: the package's own folder, run by its `main` (the September 2025 worm's and many stealers' `postinstall: node .`).
    if (/^\.\/?$/.test(raw)) {
      out.push({ language: 'javascript', ...folderCandidates(dir, main) });
      return;
    }
    const path = pathFrom(dir, raw);
    if (path !== null) out.push({ language: 'javascript', path, candidates: nodeCandidates(path) });
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (NODE_PRELOAD.has(arg)) {
      const next = args[++i];
      if (next !== undefined && /^\.{0,2}\//.test(next)) add(next);
      continue;
    }
    // `-e`, `-p`, and short options run together before one of them (`-pe`, as node reads it).
    if (arg === '--eval' || arg === '--print' || /^-[a-zA-Z]*[ep]$/.test(arg)) {
      const code = args[++i] ?? '';
      // A JSON file it requires is data, not code it runs.
      for (const match of code.matchAll(INLINE_REQUIRE)) if (!/\.json$/i.test(match[2] ?? match[4]!)) add(match[2] ?? match[4]!);
      return out;
    }
    if (NODE_VALUED.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    add(arg);
    return out; // what follows are the script's own arguments
  }
  return out;
}

function fileArgument(args: readonly string[], language: CodeLanguage, dir: string, valued: ReadonlySet<string>, inline = new Set<string>(['-c'])): InstallTarget[] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (inline.has(arg)) return [];
    if (valued.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-') || arg.startsWith('+')) continue;
    const path = pathFrom(dir, arg);
    return path === null ? [] : [{ language, path, candidates: [path] }];
  }
  return [];
}

/** What of a folder's package.json its commands may run: `main` (`node .`) and the scripts `npm run x` names. */
export interface FolderManifest {
  main?: string;
  scripts?: Readonly<Record<string, string>>;
  /** The files its `exports` gives for the package itself (what a `require` or `import` loads: docs/checks.md, `load-time-code`). */
  entries?: readonly string[];
}

/** Scripts followed through `npm run` at most, one within another (a script that runs itself ends there). */
const MAX_SCRIPT_DEPTH = 4;

/**
 * The files of the tarball that a lifecycle command run in the folder `dir` (`''`: the package's
 * own) runs, in the order it names them, by their paths in the tarball; `manifest`: that folder's
 * package.json's `main`, which `node .` runs, and its scripts, which `npm run x` runs.
 */
export function installTargets(command: string, dir = '', manifest: FolderManifest = {}): InstallTarget[] {
  return installTargetsAt(command, dir, manifest, 0);
}

function installTargetsAt(command: string, dir: string, manifest: FolderManifest, depth: number): InstallTarget[] {
  if (command.length > MAX_COMMAND_CHARS || depth > MAX_SCRIPT_DEPTH) return [];
  const seen = new Set<string>();
  const out: InstallTarget[] = [];
  for (const words of simpleCommands(command)) {
    for (const target of targetsOf(words, dir, manifest, depth)) {
      if (seen.has(target.path) || out.length >= MAX_TARGETS) continue;
      seen.add(target.path);
      out.push(target);
    }
  }
  return out;
}

/** The package.json script a package manager's command runs (`npm run x`, `npm run-script x`, `npm start`, `yarn x`, `pnpm x`, `bun run x`); null for none. */
function scriptNamed(program: string, args: readonly string[], scripts: FolderManifest['scripts']): string | null {
  if (scripts === undefined || !/^(?:npm|yarn|pnpm|bun)$/.test(program)) return null;
  const words = args.filter((w) => !w.startsWith('-'));
  let name: string | undefined;
  if (words[0] === 'run' || words[0] === 'run-script') name = words[1];
  else if (program === 'npm' && (words[0] === 'start' || words[0] === 'test' || words[0] === 'stop' || words[0] === 'restart')) name = words[0];
  else if (program === 'yarn' || program === 'pnpm') name = words[0];
  return name !== undefined && Object.hasOwn(scripts, name) && typeof scripts[name] === 'string' ? scripts[name]! : null;
}

/** A relative `require('./x')`, `import … from './x'`, `import('./x')`, `export … from './x'` in JavaScript. */
const LOCAL_IMPORT = /\brequire\s*\(\s*(['"`])(\.{1,2}\/[^'"`\n]{1,200})\1\s*\)|\bimport\s*\(\s*(['"`])(\.{1,2}\/[^'"`\n]{1,200})\3\s*\)|\b(?:import|export)\b[^'"`;\n]{0,200}?\bfrom\s*(['"])(\.{1,2}\/[^'"\n]{1,200})\5|\bimport\s*(['"])(\.{1,2}\/[^'"\n]{1,200})\7/g;

/** The package files a JavaScript file loads by relative path, resolved against its folder (node's candidates each). */
export function localImports(text: string, fromPath: string): string[][] {
  const dir = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/')) : '';
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(LOCAL_IMPORT)) {
    const spec = match[2] ?? match[4] ?? match[6] ?? match[8];
    if (spec === undefined) continue;
    const path = packagePath(dir === '' ? spec : `${dir}/${spec}`);
    if (path === null || seen.has(path)) continue;
    seen.add(path);
    out.push(nodeCandidates(path));
  }
  return out;
}

/**
 * A file named by a path built from the file's own folder: `path.join(__dirname, 'lib', 'x.js')`,
 * `path.resolve(__dirname, …)`, `__dirname + '/x.js'`, `${__dirname}/x.js`, and
 * `new URL('./x.js', import.meta.url)`. Install code spawns, forks or requires such a file (the
 * November 2025 npm worm's preinstall ran a second file this way), so a reader follows it too.
 */
const JOINED_DIRNAME = /\b(?:join|resolve)\s*\(\s*__dirname((?:\s*,\s*(['"`])[^'"`\n$]{1,200}\2){1,8})\s*\)/g;
const JOINED_PIECE = /(['"`])([^'"`\n$]{1,200})\1/g;
const CONCATENATED_DIRNAME = /\b__dirname\s*\+\s*(['"`])([\\/][^'"`\n$]{1,200})\1|\$\{\s*__dirname\s*\}([\\/][^`$\n]{1,200})`/g;
const MODULE_URL = /\bnew\s+URL\s*\(\s*(['"`])([^'"`\n$]{1,200})\1\s*,\s*import\.meta\.url\s*\)/g;

/** How a file named by path is read, by its extension; null for a file that is not code (a binary, data). */
function languageOfPath(path: string): CodeLanguage | null {
  if (/\.[cm]?js$/i.test(path)) return 'javascript';
  if (/\.(?:sh|bash)$/i.test(path)) return 'shell';
  if (/\.py$/i.test(path)) return 'python';
  return null;
}

/**
 * The package files a JavaScript file names by a path built from its own folder (above), with
 * the language each is read as; files that are not code (`.node`, `.json`, a binary) are not named.
 */
export function folderPaths(text: string, fromPath: string): InstallTarget[] {
  const dir = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/')) : '';
  const out: InstallTarget[] = [];
  const seen = new Set<string>();
  const add = (relative: string): void => {
    const path = packagePath(dir === '' ? relative : `${dir}/${relative}`);
    if (path === null || seen.has(path)) return;
    const language = languageOfPath(path);
    if (language === null) return;
    seen.add(path);
    out.push({ language, path, candidates: [path] });
  };
  for (const match of text.matchAll(JOINED_DIRNAME)) add([...match[1]!.matchAll(JOINED_PIECE)].map((piece) => piece[2]!).join('/'));
  for (const match of text.matchAll(CONCATENATED_DIRNAME)) add(match[2] ?? match[3]!);
  for (const match of text.matchAll(MODULE_URL)) add(match[2]!);
  return out;
}
