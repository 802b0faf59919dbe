/**
 * How npm reads the words of `npx …` and `npm exec …`, to find the package that would run
 * (docs/security.md, "MCP client configurations are data"). npx first rewrites its words
 * (npm/cli `bin/npx-cli.js`: `-p` is `--package`, a shorthand is expanded, and a flag it does
 * not know as a switch takes the next word as its value, until the first other word, before
 * which it puts `--`); npm then reads them all with nopt against its option definitions (npm/cli
 * `workspaces/config/lib/definitions`, npm 10.9): a word of one-letter shorthands is expanded
 * letter by letter (`-yL` is `--yes --location`, and `L` takes the next word; inside such a word
 * `p` is `--parseable`), any unambiguous abbreviation is the option (`--loca` is `--location`),
 * an option that is no switch takes the next word (`--tag latest`), a switch takes only `true`
 * or `false` after it (`--yes=x` leaves `x` a word), and an unknown flag is a switch. The words
 * left, in order, are what npm exec runs: the first is the package when no `--package` is given.
 */

/** Options whose type is exactly String: the next word is their value unless it looks like a flag. */
const STRING_OPTIONS = new Set(
(
  'call diff-dst-prefix diff-src-prefix editor git heading init-author-email init-author-name ' +
  'init-license init.author.email init.author.name init.license message pack-destination preid ' +
  'save-prefix scope searchexclude searchopts shell tag tag-version-prefix user-agent viewer'
).split(' '),
);
/** Options of any other type that is no switch (a path, a URL, a number, listed values, a list): the next word, whatever it is. */
const VALUE_OPTIONS = new Set(
(
  '_auth access also audit-level auth-type before ca cache cache-max cache-min cafile cert cidr cpu ' +
  'depth diff diff-unified expect-result-count fetch-retries fetch-retry-factor ' +
  'fetch-retry-maxtimeout fetch-retry-mintimeout fetch-timeout globalconfig https-proxy include ' +
  'init-author-url init-module init-version init.author.url init.module init.version ' +
  'install-strategy key libc local-address location lockfile-version loglevel logs-dir logs-max ' +
  'maxsockets node-options noproxy omit only os otp package prefix provenance-file proxy registry ' +
  'replace-registry-host sbom-format sbom-type script-shell searchlimit searchstaleness umask ' +
  'userconfig which workspace'
).split(' '),
);
/** Switches (Boolean, alone or with null or listed values). */
const SWITCHES = new Set(
(
  'all allow-same-version audit bin-links browser color commit-hooks description dev ' +
  'diff-ignore-all-space diff-name-only diff-no-prefix diff-text dry-run engine-strict ' +
  'expect-results force foreground-scripts format-package-lock fund git-tag-version global ' +
  'global-style if-present ignore-scripts include-staged include-workspace-root install-links json ' +
  'legacy-bundling legacy-peer-deps link long offline omit-lockfile-registry-resolved optional ' +
  'package-lock package-lock-only parseable prefer-dedupe prefer-offline prefer-online production ' +
  'progress provenance read-only rebuild-bundle save save-bundle save-dev save-exact save-optional ' +
  'save-peer save-prod shrinkwrap sign-git-commit sign-git-tag strict-peer-deps strict-ssl timing ' +
  'unicode update-notifier usage version versions workspaces workspaces-update yes'
).split(' '),
);
const OPTION_NAMES = [...STRING_OPTIONS, ...VALUE_OPTIONS, ...SWITCHES];

/** npm's shorthands: its own list and each definition's `short`. */
const SHORTHANDS: Readonly<Record<string, readonly string[]>> = {
  'enjoy-by': ['--before'], d: ['--loglevel', 'info'], dd: ['--loglevel', 'verbose'], ddd: ['--loglevel', 'silly'],
  quiet: ['--loglevel', 'warn'], q: ['--loglevel', 'warn'], s: ['--loglevel', 'silent'], silent: ['--loglevel', 'silent'],
  verbose: ['--loglevel', 'verbose'], desc: ['--description'], help: ['--usage'], local: ['--no-global'], n: ['--no-yes'],
  no: ['--no-yes'], porcelain: ['--parseable'], readonly: ['--read-only'], reg: ['--registry'], iwr: ['--include-workspace-root'],
  a: ['--all'], c: ['--call'], f: ['--force'], g: ['--global'], L: ['--location'], l: ['--long'], m: ['--message'],
  p: ['--parseable'], C: ['--prefix'], S: ['--save'], B: ['--save-bundle'], D: ['--save-dev'], E: ['--save-exact'],
  O: ['--save-optional'], P: ['--save-prod'], '?': ['--usage'], H: ['--usage'], h: ['--usage'], v: ['--version'],
  w: ['--workspace'], ws: ['--workspaces'], y: ['--yes'],
};
const SHORTHAND_NAMES = Object.keys(SHORTHANDS);

/** npx's own rewrites and the words it drops or skips (bin/npx-cli.js). */
const NPX_REMOVED = new Set(['always-spawn', 'ignore-existing', 'shell-auto-fallback', 'npm', 'node-arg', 'n']);
const NPX_REMOVED_OPTS = new Set(['npm', 'node-arg', 'n']);
const NPX_SWITCHES = new Set([...SWITCHES, 'always-spawn', 'ignore-existing', 'shell-auto-fallback', 'no-install', 'quiet', 'q', 'version', 'v', 'help', 'h']);
const NPX_OPTS = new Set(['npm', 'node-arg', 'n', 'package', 'p', 'cache', 'userconfig', 'call', 'c', 'shell']);

/** The name `word` abbreviates, as the `abbrev` package reads it: itself, or the one name it begins. */
function abbreviated(list: readonly string[], word: string): string | undefined {
  if (word === '') return undefined;
  let found: string | undefined;
  for (const name of list) {
    if (name === word) return name;
    if (name.startsWith(word)) {
      if (found !== undefined) return undefined;
      found = name;
    }
  }
  return found;
}

/** nopt's `resolveShort`: the words a flag expands to, or null when it is an option (or unknown). */
function expansion(flag: string): readonly string[] | null {
  const arg = flag.replace(/^-+/, '');
  if (OPTION_NAMES.includes(arg)) return null;
  const exact = Object.hasOwn(SHORTHANDS, arg) ? SHORTHANDS[arg] : undefined;
  if (exact !== undefined) return exact;
  const letters = [...arg];
  if (letters.length > 0 && letters.every((c) => c.length === 1 && Object.hasOwn(SHORTHANDS, c))) return letters.flatMap((c) => SHORTHANDS[c] ?? []);
  if (abbreviated(OPTION_NAMES, arg) !== undefined) return null;
  const short = abbreviated(SHORTHAND_NAMES, arg);
  return short === undefined ? null : (SHORTHANDS[short] ?? null);
}

/** Words read front to back; the words a flag expands to are put back in front (a stack: linear however long the expansion). */
class Reader {
  private readonly words: readonly string[];
  private next = 0;
  private readonly back: string[] = [];
  constructor(words: readonly string[]) {
    this.words = words;
  }
  take(): string | undefined {
    return this.back.length > 0 ? this.back.pop() : this.next < this.words.length ? this.words[this.next++] : undefined;
  }
  peek(): string | undefined {
    return this.back.length > 0 ? this.back[this.back.length - 1] : this.words[this.next];
  }
  putBack(words: readonly string[]): void {
    for (let i = words.length - 1; i >= 0; i--) this.back.push(words[i] ?? '');
  }
  /** Every word not read yet, in order. */
  rest(): string[] {
    const rest = this.back.reverse().concat(this.words.slice(this.next));
    this.back.length = 0;
    this.next = this.words.length;
    return rest;
  }
}

/** npx's rewrite of its words into `npm exec`'s (bin/npx-cli.js). */
function npxWords(given: readonly string[]): string[] {
  let out: string[] = [];
  const words = new Reader(given);
  for (let word = words.take(); word !== undefined; word = words.take()) {
    if (word === '--' || !word.startsWith('-')) {
      out = out.concat('--', word === '--' ? [] : [word], words.rest());
      break;
    }
    const [key = '', ...value] = word.replace(/^-+/, '').split('=');
    let rewritten = word;
    if (key === 'p') rewritten = ['--package', ...value].join('=');
    else if (key === 'shell') rewritten = ['--script-shell', ...value].join('=');
    else if (key === 'no-install') rewritten = '--yes=false';
    else if (Object.hasOwn(SHORTHANDS, key) && !NPX_REMOVED.has(key)) {
      words.putBack([...(SHORTHANDS[key] ?? []), ...(value.length > 0 ? [value.join('=')] : [])]);
      continue;
    }
    const following = words.peek();
    const takesNext = value.length === 0 && !NPX_SWITCHES.has(key) && (NPX_OPTS.has(key) || !(following ?? '').startsWith('-')) && following !== undefined;
    const skipped = takesNext ? words.take() : undefined;
    if (NPX_REMOVED.has(key)) {
      // A removed option is dropped; a removed switch lets the word it skipped stand.
      if (skipped !== undefined && !NPX_REMOVED_OPTS.has(key)) out.push(skipped);
      continue;
    }
    out.push(rewritten, ...(skipped === undefined ? [] : [skipped]));
  }
  return out;
}

export interface NpmExecWords {
  /** Each option npm read, in order, by its full name with its value (`true`/`false` for a switch). */
  options: [name: string, value: string][];
  /** The words left, in order: what npm exec runs (the first is the package without `--package`). */
  operands: string[];
}

/** How npm reads `given` (the words after `npx`, or after `npm exec`). */
export function npmExecWords(given: readonly string[], runner: 'npx' | 'npm exec'): NpmExecWords {
  const words = new Reader(runner === 'npx' ? npxWords(given) : given);
  const options: [string, string][] = [];
  let operands: string[] = [];
  for (let word = words.take(); word !== undefined; word = words.take()) {
    if (/^-{2,}$/.test(word)) {
      operands = operands.concat(words.rest());
      break;
    }
    if (!(word.startsWith('-') && word.length > 1)) {
      operands.push(word);
      continue;
    }
    const at = word.indexOf('=');
    const hadEq = at > -1;
    const flag = hadEq ? word.slice(0, at) : word;
    if (hadEq) words.putBack([word.slice(at + 1)]);
    const expanded = expansion(flag);
    if (expanded !== null && expanded[0] !== flag) {
      words.putBack(expanded);
      continue;
    }
    const bare = flag.replace(/^-+/, '');
    const lower = bare.toLowerCase();
    let negated: boolean | null = null;
    let start = 0;
    while (lower.startsWith('no-', start)) {
      negated = !negated;
      start += 3;
    }
    const name = abbreviated(OPTION_NAMES, bare.slice(start)) ?? bare.slice(start);
    const known = STRING_OPTIONS.has(name) || VALUE_OPTIONS.has(name) || SWITCHES.has(name);
    const after = words.peek();
    if (negated !== null || SWITCHES.has(name) || (!known && !hadEq)) {
      let value = negated === true ? 'false' : 'true';
      if (after === 'true' || after === 'false') {
        words.take();
        value = String((after === 'true') !== (negated === true));
      } else if (after !== undefined && ((name === 'browser' && !/^-[^-]/.test(after)) || (name === 'color' && after === 'always'))) {
        words.take();
        value = after;
      }
      options.push([name, value]);
      continue;
    }
    if (after === undefined || /^-{2,}$/.test(after) || (STRING_OPTIONS.has(name) && /^-{1,2}[^-]/.test(after))) {
      options.push([name, '']);
      continue;
    }
    words.take();
    options.push([name, after]);
  }
  return { options, operands };
}

/**
 * The same words as npm reads them, spelled so that every option holds its value (`--name=value`,
 * a switch `--name` or `--no-name`) and `--` comes before the operands: what the readers of a
 * launch's flags (registry-redirect.ts, audit/mcp/launch.ts) take for granted.
 */
export function npmExecSpelled(given: readonly string[], runner: 'npx' | 'npm exec'): string[] {
  return spelledWords(npmExecWords(given, runner));
}

/** Words npm has read (npmExecWords), spelled as npmExecSpelled spells them. */
export function spelledWords({ options, operands }: NpmExecWords): string[] {
  const spelled = options.map(([name, value]) => {
    if (SWITCHES.has(name) && (value === 'true' || value === 'false')) return value === 'true' ? `--${name}` : `--no-${name}`;
    // An option left without a value (`-c` last) holds none, as before.
    return value === '' ? `--${name}` : `--${name}=${value}`;
  });
  return [...spelled, '--', ...operands];
}
