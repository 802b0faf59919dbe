/**
 * The install commands a README advertises (pure): only what its code blocks and inline code
 * show, and the `<pre>` and `<code>` elements of its HTML, which GitHub shows as code (prose that
 * merely mentions a name does not count), read with a Markdown lexer (marked)
 * and each line with a shell tokenizer (shell-quote), never executed. Recognised:
 * `npm i|install|add`, `npx`, `pnpm add|install|dlx`, `yarn add|global add|dlx`, `bun add`,
 * `bunx`, `pip install` (also `pip3`, `python -m pip`, `uv pip`), `pipx install|run`, `uvx`,
 * `uv tool install|run`, `uv add`, `deno run npm:x`, and `docker run … image` — on shell lines, and as MCP client
 * configurations write them in JSON code (`"command": "npx", "args": ["-y", "x"]`, read with
 * jsonc-parser, which tolerates the trailing commas READMEs leave). Every package a runner installs
 * counts (`npx -p a -p b`, `uvx --from a --with b,c`). `npm`, `npx`, `npm exec` and the dlx
 * runners are read as the launches of MCP client configurations are (ecosystems/npm/exec-argv.ts,
 * dlx-argv.ts): one reading of the same words; `pnpm`, `yarn` and `bun` with their options before
 * the subcommand read as each reads them (LEADING); a command pointed at another registry or at
 * another folder's configuration (ELSEWHERE), or one its runner's reading leaves uncertain, names
 * no package. Other flags are skipped, versions and
 * extras stripped (npm-package-arg for npm; the PEP 508 name grammar for PyPI). Paths, URLs,
 * git specs and placeholders (`<package>`) name no package and are left out. docs/scoring.md §9.
 */
import { parse as parseJsonc } from 'jsonc-parser';
import { Lexer, type Token } from 'marked';
import { parse as parseShell } from 'shell-quote';
import { dlxWords, type DlxRunner } from '../../ecosystems/npm/dlx-argv.js';
import { bunCommand, LEADING, PNPM_SCOPE_REGISTRY, subcommandOf, yarnCommand, type AddTool } from '../../ecosystems/npm/subcommand.js';
import { npmExecWords, spelledWords } from '../../ecosystems/npm/exec-argv.js';
import { flagValues, pipxFlag, registryRedirect } from '../../ecosystems/registry-redirect.js';
import { npmPackageName } from '../../ecosystems/npm/install-name.js';
import { pypiProjectName } from '../../ecosystems/pypi/install-name.js';
import { packageRulesOf } from '../../ecosystems/rules.js';
import { oneLine } from './request.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';

export type InstallEcosystem = PackageEcosystem | 'docker';

/** The form two installs of one package share: its registry's (`installKey`: npm names are case-sensitive, PyPI's are not); image names are not. */
function installKey({ ecosystem, name }: { ecosystem: InstallEcosystem; name: string }): string {
  return ecosystem === 'docker' ? name.toLowerCase() : packageRulesOf(ecosystem).registry.installKey(name);
}

export interface AdvertisedInstall {
  ecosystem: InstallEcosystem;
  /** The package (npm, PyPI as written) or image (docker, without its tag) the command installs or runs. */
  name: string;
  /** The command line as the README writes it (one line, capped). */
  command: string;
}

/** Code snippets examined per README, and distinct installs kept. */
const MAX_SNIPPETS = 400;
const MAX_INSTALLS = 20;
const MAX_COMMAND = 160;

/** Words that turn a paragraph's inline code into a warning, not an instruction. */
const WARNS = /\b(?:do not|don't|never|avoid|unrelated|instead of|not to)\b/i;

/** HTML elements GitHub shows as code. */
const HTML_CODE_TAGS = ['pre', 'code'] as const;
const HTML_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", '#39': "'", '#x27': "'", nbsp: ' ', '#36': '$' };

/** `text` without its tags (`<span class="p">$</span> x` → `$ x`), in one pass. */
function withoutTags(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('<', at);
    if (open < 0) return out + text.slice(at);
    out += text.slice(at, open);
    const close = text.indexOf('>', open + 1);
    if (close < 0) return out + text.slice(open);
    at = close + 1;
  }
  return out;
}

/**
 * The text of every `<pre>` and `<code>` element in HTML a README embeds (GitHub shows them as
 * code: a centred `<code>npx -y x</code>` under a logo, `<pre lang="sh">`), tags inside removed
 * and entities decoded; nothing from comments or attributes. One pass, by `indexOf`.
 */
export function htmlCodeTexts(html: string, max = MAX_SNIPPETS): string[] {
  const found: string[] = [];
  // ASCII letters only: a full toLowerCase may change the length ('İ' is two code units lower), and the offsets are shared.
  const lower = html.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  let at = 0;
  while (found.length < max) {
    const lt = lower.indexOf('<', at);
    if (lt < 0) break;
    if (lower.startsWith('<!--', lt)) {
      const end = lower.indexOf('-->', lt + 4);
      if (end < 0) break;
      at = end + 3;
      continue;
    }
    const tag = HTML_CODE_TAGS.find((name) => lower.startsWith(name, lt + 1) && /[\s>/]/.test(lower.charAt(lt + 1 + name.length)));
    if (tag === undefined) {
      at = lt + 1;
      continue;
    }
    // No `>` after it: no tag opens from here on.
    const openEnd = lower.indexOf('>', lt + 1);
    if (openEnd < 0) break;
    const closeAt = lower.indexOf(`</${tag}`, openEnd + 1);
    const inner = html.slice(openEnd + 1, closeAt < 0 ? html.length : closeAt);
    const text = withoutTags(inner).replace(/&(#?[A-Za-z0-9]{1,8});/g, (whole, name: string) => HTML_ENTITIES[name.toLowerCase()] ?? whole);
    if (text.trim() !== '') found.push(text);
    if (closeAt < 0) break;
    at = closeAt + tag.length + 2;
  }
  return found;
}

/**
 * The text of every code block and inline code span, and of every `<pre>` or `<code>` element of
 * the README's HTML (htmlCodeTexts), not those of a paragraph that warns against them, in
 * document order.
 */
export function codeSnippets(markdown: string): string[] {
  const found: string[] = [];
  const walk = (tokens: readonly Token[]): void => {
    for (const token of tokens) {
      if (found.length >= MAX_SNIPPETS) return;
      if (token.type === 'code' || token.type === 'codespan') {
        found.push((token as { text: string }).text);
        continue;
      }
      // An HTML block: its `<pre>` and `<code>` elements (not in one that warns against them).
      if (token.type === 'html') {
        if (WARNS.test(token.raw)) continue;
        found.push(...htmlCodeTexts(token.raw, MAX_SNIPPETS - found.length));
        continue;
      }
      // Inline code in a sentence that warns against it ("do not run `npx x`") advertises nothing.
      if (token.type === 'paragraph' && WARNS.test(token.raw)) continue;
      const t = token as { tokens?: Token[]; items?: { tokens?: Token[] }[]; header?: { tokens?: Token[] }[]; rows?: { tokens?: Token[] }[][] };
      // Inline HTML comes one tag per token: the elements are read from the text that holds them.
      if (t.tokens?.some((inner) => inner.type === 'html') === true) {
        found.push(...htmlCodeTexts(token.raw, MAX_SNIPPETS - found.length));
        walk(t.tokens.filter((inner) => inner.type !== 'html'));
        continue;
      }
      if (t.tokens !== undefined) walk(t.tokens);
      for (const item of t.items ?? []) walk(item.tokens ?? []);
      for (const cell of [...(t.header ?? []), ...(t.rows ?? []).flat()]) walk(cell.tokens ?? []);
    }
  };
  walk(new Lexer({ gfm: true }).lex(markdown));
  return found;
}

/** A snippet's commands: lines joined at `\` continuations, prompts removed, split at `&&`, `;`, `|`. */
function commandsOf(snippet: string): { words: string[]; line: string }[] {
  const lines = snippet.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  const out: { words: string[]; line: string }[] = [];
  for (const raw of lines) {
    const line = raw.replace(/^\s*(?:\$|>|PS[^>]{0,40}>)\s+/, '').trim();
    if (line === '' || line.length > 2000) continue;
    let parsed: ReturnType<typeof parseShell>;
    try {
      parsed = parseShell(line, (key) => `$${key}`);
    } catch {
      continue;
    }
    let words: string[] = [];
    for (const entry of parsed) {
      if (typeof entry === 'string') words.push(entry);
      else if ('comment' in entry) break;
      else if ('op' in entry && entry.op !== 'glob') {
        if (words.length > 0) out.push({ words, line });
        words = [];
      }
    }
    if (words.length > 0) out.push({ words, line });
  }
  return out;
}

/** Leading `sudo`, `env`, `VAR=value` words. */
function withoutPrefix(words: readonly string[]): string[] {
  let i = 0;
  while (i < words.length && (words[i] === 'sudo' || words[i] === 'env' || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] ?? ''))) i++;
  return words.slice(i);
}

/** Flags that take the next word as their value, per tool (the rest are boolean or `--flag=value`). */
const VALUE_FLAGS: Record<string, ReadonlySet<string>> = {
  pnpm: new Set(['--registry', '--dir', '-C', '--filter', '-F', '--store-dir', '--package']),
  yarn: new Set(['--registry', '--cwd', '--modules-folder', '-p', '--package']),
  // bun add's `-p` is `--production`, a switch.
  bun: new Set(['--registry', '--cwd', '-c', '--config']),
  deno: new Set(['-c', '--config', '--import-map', '--preload', '--require', '--lock', '--cert', '--location', '--env-file', '-L', '--log-level']),
  pip: new Set(['-r', '--requirement', '-c', '--constraint', '-e', '--editable', '-i', '--index-url', '--extra-index-url', '-t', '--target', '--prefix', '--root', '-f', '--find-links', '--python', '-p', '--trusted-host', '--platform', '--python-version']),
  uv: new Set(['--python', '-p', '--with', '-w', '--spec', '--pip-args', '--index', '--index-url', '--extra-index-url', '--directory', '--project', '--from', '--with-editable', '--with-requirements', '--constraint', '-c', '--env-file']),
  docker: new Set([
    '-e', '--env', '--env-file', '-v', '--volume', '-p', '--publish', '--name', '--network', '--net', '-w', '--workdir', '--mount', '--entrypoint',
    '-u', '--user', '-l', '--label', '--platform', '--memory', '-m', '--cpus', '--add-host', '--hostname', '-h', '--pull', '--restart', '--cap-add',
    '--cap-drop', '--security-opt', '--tmpfs', '--device', '--gpus', '--ulimit', '--log-driver', '--dns', '--ipc', '--pid', '--shm-size',
  ]),
};

/**
 * What points pnpm, yarn or bun at another registry (`--registry`, pnpm's `--config.registry`,
 * `--config.@scope:registry`), or at a folder or file whose configuration it reads instead of the
 * project's (pnpm `-C`/`--dir` and `--config.userconfig|globalconfig`: an `.npmrc`; yarn
 * `--cwd`: its `.yarnrc` and `.npmrc`, `--use-yarnrc`; bun `--cwd`: its `bunfig.toml` and
 * `.npmrc`, `-c`/`--config`: a `bunfig.toml`), before or after the subcommand.
 */
const ELSEWHERE: Readonly<Record<AddTool, { registry: readonly string[]; config: readonly string[] }>> = {
  pnpm: { registry: ['--registry', '--config.registry'], config: ['-C', '--dir', '--config.userconfig', '--config.globalconfig'] },
  yarn: { registry: ['--registry'], config: ['--cwd', '--use-yarnrc'] },
  bun: { registry: ['--registry'], config: ['--cwd', '-c', '--config'] },
};

/** The operands (non-flag words) after `from`, skipping flags and the values of `tool`'s value flags. */
function operands(words: readonly string[], tool: string): string[] {
  const own = VALUE_FLAGS[tool] ?? new Set<string>();
  const leading = tool === 'pnpm' || tool === 'yarn' || tool === 'bun' ? LEADING[tool].values : new Set<string>();
  const valueFlags = new Set([...own, ...leading]);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (word === '--') return [...out, ...words.slice(i + 1)];
    if (word.startsWith('-')) {
      if (!word.includes('=') && valueFlags.has(word)) i++;
      continue;
    }
    out.push(word);
  }
  return out;
}

/** A container image name without its tag or digest (`ghcr.io/o/x:1` → `ghcr.io/o/x`); null for variables and placeholders. */
function imageName(word: string): string | null {
  if (!/^[a-z0-9][a-z0-9._/:@-]{0,250}$/i.test(word)) return null;
  const noDigest = word.split('@')[0] ?? '';
  const lastSlash = noDigest.lastIndexOf('/');
  const colon = noDigest.indexOf(':', lastSlash + 1);
  const name = colon < 0 ? noDigest : noDigest.slice(0, colon);
  return name === '' ? null : name.toLowerCase();
}

type Found = Omit<AdvertisedInstall, 'command'>;

/**
 * `pnpm add`, `yarn add` and `bun add` pointed at another registry or at a folder or file whose
 * configuration they read (ELSEWHERE): what they install is not the public package of that name.
 */
function addedElsewhere(words: readonly string[], tool: AddTool, publics: PublicRegistries): boolean {
  const { registry, config } = ELSEWHERE[tool];
  if (flagValues(words, config).length > 0 || words.some((w) => config.includes(w))) return true;
  if (tool === 'pnpm' && words.some((w) => PNPM_SCOPE_REGISTRY.test(w))) return true;
  return flagValues(words, registry).some((v) => registryRedirect('npm', [`--registry=${v}`], [], publics.npm) !== null);
}

function npmInstalls(words: readonly string[], tool: AddTool, publics: PublicRegistries): Found[] {
  if (addedElsewhere(words, tool, publics)) return [];
  return operands(words, tool).flatMap((w) => {
    const name = npmPackageName(w);
    return name === null ? [] : [{ ecosystem: 'npm' as const, name }];
  });
}

function pypiInstalls(words: readonly string[], tool: string): Found[] {
  return operands(words, tool).flatMap((w) => {
    const name = pypiProjectName(w);
    return name === null ? [] : [{ ecosystem: 'pypi' as const, name }];
  });
}

/** Every value of `flags` in `words` (`--package=x`, `-p x`), in order, up to `--`. */
function flagValuesOf(words: readonly string[], flags: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (word === '--') break;
    for (const flag of flags) {
      if (word === flag && words[i + 1] !== undefined) values.push(words[++i] ?? '');
      else if (word.startsWith(`${flag}=`)) values.push(word.slice(flag.length + 1));
    }
  }
  return values;
}

/**
 * The packages `npx` / `uvx` installs: every `--package=x` / `-p x` / `--from x` (else the first
 * operand), and what `--with a,b` adds — each is code the command runs, so none is dropped.
 */
function runnerPackages(words: readonly string[], tool: string, packageFlags: readonly string[], withFlags: readonly string[] = []): string[] {
  const named = flagValuesOf(words, packageFlags);
  const main = named.length > 0 ? named : [operands(words, tool)[0]].filter((w): w is string => w !== undefined);
  // uv's `-w` as clap reads it: `-wpkg`, `-qw pkg` (registry-redirect.ts `flagValues`).
  const extra = flagValues(words, withFlags, { clustered: tool === 'uv' }).flatMap((w) => w.split(',')).map((w) => w.trim()).filter((w) => w !== '');
  return [...main, ...extra];
}

function all(ecosystem: PackageEcosystem, words: readonly string[]): Found[] {
  return words.flatMap((word) => {
    const name = packageRulesOf(ecosystem).registry.installName(word);
    return name === null ? [] : [{ ecosystem, name }];
  });
}

/** The public registries: naming one is no redirection (none by default: any registry named is another). */
export interface PublicRegistries {
  npm: readonly string[];
  pypi: readonly string[];
}
const NO_PUBLIC: PublicRegistries = { npm: [], pypi: [] };

/** `npm install` and its aliases (npm/cli `lib/utils/cmd-list.js`). */
const NPM_INSTALL = new Set(['i', 'in', 'ins', 'inst', 'insta', 'instal', 'install', 'isnt', 'isnta', 'isntal', 'isntall', 'add']);

/**
 * What an npm runner installs, from its words in npm exec's spelling (`--package=x`, `--call=…`,
 * then `--` and the command): every `--package`, else the command, and what its `--call` lines
 * install (nested at most twice). Pointed at another registry (registry-redirect.ts, as a
 * launch is), it names no package: what it installs is not the public package of that name.
 */
function npmRunInstalls(spelled: readonly string[], publics: PublicRegistries, depth: number): Found[] {
  if (registryRedirect('npm', spelled, [], publics.npm) !== null) return [];
  const named = flagValues(spelled, ['--package']);
  const dashes = spelled.indexOf('--');
  const command = dashes < 0 ? undefined : spelled[dashes + 1];
  const packages = all('npm', named.length > 0 ? named : command === undefined ? [] : [command]);
  if (depth >= 2) return packages;
  const calls = flagValues(spelled, ['--call']).flatMap((line) => commandsOf(line).flatMap((c) => installsOf(c.words, publics, depth + 1)));
  return [...packages, ...calls];
}

/** A dlx runner's words (ecosystems/npm/dlx-argv.ts): what it installs, or nothing when its reading is uncertain. */
function dlxInstalls(runner: DlxRunner, words: readonly string[], publics: PublicRegistries, depth: number): Found[] {
  const read = dlxWords(runner, words);
  return 'words' in read ? npmRunInstalls(read.words, publics, depth) : [];
}

/**
 * `npm …` read as npm reads its whole command line (nopt, ecosystems/npm/exec-argv.ts): its
 * settings before the subcommand count as after it. `npm install` installs every operand;
 * `npm exec` / `npm x` runs as npx does.
 */
function npmInstallsOf(words: readonly string[], publics: PublicRegistries, depth: number): Found[] {
  const { options, operands } = npmExecWords(words, 'npm exec');
  const [sub = '', ...rest] = operands;
  if (sub === 'exec' || sub === 'x') return npmRunInstalls(spelledWords({ options, operands: rest }), publics, depth);
  if (!NPM_INSTALL.has(sub)) return [];
  return registryRedirect('npm', spelledWords({ options, operands: rest }), [], publics.npm) === null ? all('npm', rest) : [];
}

/** `pipx run`'s words with its flags in their full spelling, as pipx reads them (registry-redirect.ts: `--spe=…`, `--wi …`). */
function spelled(words: readonly string[]): readonly string[] {
  const [tool = '', sub = ''] = words;
  return tool === 'pipx' && sub === 'run' ? words.map(pipxFlag) : words;
}

/** What one command installs or runs. */
function installsOf(command: readonly string[], publics: PublicRegistries, depth = 0): Found[] {
  const words = spelled(withoutPrefix(command));
  const [tool = '', sub = '', ...rest] = words;
  const afterSub = words.slice(2);
  switch (tool) {
    case 'npm':
      return npmInstallsOf(words.slice(1), publics, depth);
    case 'npx':
      return npmRunInstalls(spelledWords(npmExecWords(words.slice(1), 'npx')), publics, depth);
    case 'pnpm': {
      // Its options before the subcommand count as after it (LEADING).
      const read = subcommandOf('pnpm', words.slice(1));
      if (read !== null && ['add', 'i', 'install'].includes(read.sub)) return npmInstalls([...read.before, ...read.after], 'pnpm', publics);
      // pnpm reads its options before `dlx` as well as after it.
      return dlxInstalls('pnpm dlx', words.slice(1), publics, depth);
    }
    case 'pnpx':
      return dlxInstalls('pnpm dlx', ['dlx', ...words.slice(1)], publics, depth);
    case 'yarn': {
      const read = subcommandOf('yarn', words.slice(1));
      if (read === null) return [];
      const { sub: command, before, after } = read;
      if (command === 'add') return npmInstalls([...before, ...after], 'yarn', publics);
      if (command === 'global' && after[0] === 'add') return npmInstalls([...before, ...after.slice(1)], 'yarn', publics);
      // yarn dlx after options of yarn's own (`--cwd dir`, whose .yarnrc.yml may name a registry) is not read: as an MCP client launch reads it (ecosystems/npm/subcommand.ts).
      const { dlx } = yarnCommand(words.slice(1));
      return dlx === null ? [] : dlxInstalls('yarn dlx', dlx, publics, depth);
    }
    case 'bun': {
      const read = subcommandOf('bun', words.slice(1));
      if (read === null) return [];
      if (['add', 'install', 'i'].includes(read.sub)) return npmInstalls([...read.before, ...read.after], 'bun', publics);
      // `bun x`, read as an MCP client launch reads it (ecosystems/npm/subcommand.ts).
      const { bunx } = bunCommand(words.slice(1));
      return bunx === null ? [] : dlxInstalls('bunx', bunx, publics, depth);
    }
    case 'bunx':
      return dlxInstalls('bunx', words.slice(1), publics, depth);
    case 'pip':
    case 'pip3':
      return sub === 'install' ? pypiInstalls(afterSub, 'pip') : [];
    case 'python':
    case 'python3':
    case 'py':
      return sub === '-m' && (rest[0] === 'pip' || rest[0] === 'pip3') && rest[1] === 'install' ? pypiInstalls(rest.slice(2), 'pip') : [];
    case 'pipx':
      return sub === 'install' ? pypiInstalls(afterSub, 'pip') : sub === 'run' ? all('pypi', runnerPackages(afterSub, 'uv', ['--spec'], ['--with'])) : [];
    case 'uvx':
      return all('pypi', runnerPackages(words.slice(1), 'uv', ['--from'], ['--with', '-w']));
    case 'uv':
      if (sub === 'pip' && rest[0] === 'install') return pypiInstalls(rest.slice(1), 'pip');
      if (sub === 'tool' && (rest[0] === 'install' || rest[0] === 'run')) return all('pypi', runnerPackages(rest.slice(1), 'uv', ['--from'], ['--with', '-w']));
      return sub === 'add' ? pypiInstalls(afterSub, 'uv') : [];
    case 'deno': {
      // `deno run -A npm:pkg`: the npm package is what runs (a `jsr:` or URL script names none).
      if (sub !== 'run') return [];
      const script = operands(afterSub, 'deno')[0];
      return script !== undefined && /^npm:/i.test(script) ? all('npm', [script.slice(4)]) : [];
    }
    case 'docker':
    case 'podman': {
      if (sub !== 'run') return [];
      const image = operands(afterSub, 'docker')[0];
      const name = image === undefined ? null : imageName(image);
      return name === null ? [] : [{ ecosystem: 'docker', name }];
    }
    default:
      return [];
  }
}

/** Objects nested at most this deep in a JSON snippet are looked at. */
const MAX_JSON_DEPTH = 12;

/** The `{ "command": …, "args": [...] }` launches of an MCP client configuration written as JSON (with comments or trailing commas). */
function jsonLaunches(snippet: string): { words: string[]; line: string }[] {
  const trimmed = snippet.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return [];
  const value: unknown = parseJsonc(snippet, [], { allowTrailingComma: true, disallowComments: false });
  const out: { words: string[]; line: string }[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > MAX_JSON_DEPTH || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    const { command, args } = record;
    if (typeof command === 'string' && Array.isArray(args) && args.every((a) => typeof a === 'string')) {
      const words = [command, ...(args as string[])];
      out.push({ words, line: words.join(' ') });
    }
    for (const child of Object.values(record)) walk(child, depth + 1);
  };
  walk(value, 0);
  return out;
}

/** Every distinct install the README's code shows, in document order (at most MAX_INSTALLS). */
export function advertisedInstalls(markdown: string, publics: PublicRegistries = NO_PUBLIC): AdvertisedInstall[] {
  const seen = new Map<string, AdvertisedInstall>();
  for (const snippet of codeSnippets(markdown)) {
    const launches = jsonLaunches(snippet);
    for (const { words, line } of launches.length > 0 ? launches : commandsOf(snippet)) {
      for (const found of installsOf(words, publics)) {
        const key = `${found.ecosystem}:${installKey(found)}`;
        if (!seen.has(key)) seen.set(key, { ...found, command: oneLine(line, MAX_COMMAND) });
        if (seen.size >= MAX_INSTALLS) return [...seen.values()];
      }
    }
  }
  return [...seen.values()];
}
