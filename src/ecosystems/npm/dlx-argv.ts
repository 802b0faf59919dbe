/**
 * How `pnpm dlx` (and `pnpx`), `yarn dlx` and `bunx` (`bun x`) read the words before the command
 * they run, to find the package that would run (docs/security.md, "MCP client configurations are
 * data"). Each reads its own way: pnpm with nopt over its universal options and dlx's own
 * (pnpm `cli/parse-cli-args`: options before `dlx` count as well as after it, up to the command;
 * `--package` repeatable, `-c` is `--shell-mode`, `-C`/`--dir` moves the directory whose `.npmrc`
 * it reads, `--config.<key>=…` sets any setting), yarn berry with clipanion (plugin-dlx:
 * `-p,--package`, `-q,--quiet`), bun with its own reader (bunx: `--bun`, `-p,--package`,
 * `--no-install`, `--verbose`, `--silent`; `--registry`, which bunx does not have, is read as a
 * redirection: see VALUED). nerq reads the spellings each documents, and two it
 * reads harmlessly: pnpm 10's `--allow-build=<pkg>` (which dependency may run its build scripts:
 * no package added, no registry moved) and bunx's `-y`/`--yes`, the npx habit (bun's reader,
 * oven-sh/bun `src/cli/bunx_command.zig` `Options.parse`, skips any flag it does not know before
 * the package, taking no value, and `-b` is its `--bun`, `-p=x` its `--package=x`); any other
 * flag before the command (an abbreviation nopt would expand, a setting that may move the
 * registry, a cluster) is not read with certainty, and then the launch is unreadable: never the
 * innocent name after it. Pure.
 */

export type DlxRunner = 'pnpm dlx' | 'yarn dlx' | 'bunx';

/** The words in npm exec's spelling (`--package=x`, `--registry=x`, `--prefix=dir`, then `--` and the command with its words), or why they cannot be read. */
export type DlxReading = { words: string[] } | { unreadable: string };

/** Per runner: switches, and options whose value nerq reads, by their spellings (`--name` / `-x`) → the npm exec option it stands for. */
const SWITCHES: Readonly<Record<DlxRunner, ReadonlySet<string>>> = {
  'pnpm dlx': new Set(['--silent', '-s', '--yes', '-y', '--reporter=silent']),
  'yarn dlx': new Set(['-q', '--quiet']),
  bunx: new Set(['--bun', '-b', '--no-install', '--verbose', '--silent', '-y', '--yes']),
};
const VALUED: Readonly<Record<DlxRunner, Readonly<Record<string, string>>>> = {
  // `-C`/`--dir`: pnpm runs in that directory and reads its `.npmrc` (a registry nerq does not see): a redirection as npm's `--prefix` is.
  'pnpm dlx': { '--package': 'package', '--registry': 'registry', '--dir': 'prefix', '-C': 'prefix', '--config.registry': 'registry' },
  'yarn dlx': { '--package': 'package', '-p': 'package' },
  // bunx has no `--registry` (bun's documentation lists none) and its reader skips it, taking no
  // value, so `bunx --registry URL x` runs URL, a tarball from that host; a bunx that honoured it
  // would install x from there. Either way the code comes from that host: read as a redirection.
  bunx: { '--package': 'package', '-p': 'package', '--registry': 'registry' },
};
/** Options read and set aside: their value names no package that runs and no registry. */
const HARMLESS: Readonly<Record<DlxRunner, ReadonlySet<string>>> = {
  'pnpm dlx': new Set(['--allow-build']),
  'yarn dlx': new Set(),
  bunx: new Set(),
};
/** Runners that accept `--name=value` for an option (nopt, clipanion); bun's reader documents the value apart, and takes `=` too for its long options. */
const EQUALS: Readonly<Record<DlxRunner, (flag: string) => boolean>> = {
  'pnpm dlx': (flag) => flag.startsWith('--'),
  'yarn dlx': (flag) => flag.startsWith('--'),
  bunx: (flag) => flag === '--package' || flag === '-p' || flag === '--registry',
};

/** The reason given: the flag itself is not echoed (a launch's arguments may carry secrets). */
const UNREAD = (runner: DlxRunner) => `a ${runner} flag before the command nerq cannot read with certainty`;

/**
 * `words`: for pnpm, what follows `pnpm` (its options, `dlx`, its options, the command); for the
 * others, what follows `yarn dlx`, `bunx` or `bun x`.
 */
export function dlxWords(runner: DlxRunner, words: readonly string[]): DlxReading {
  const options: string[] = [];
  // pnpm reads its options on both sides of `dlx`; the others are given the words after it.
  let seenDlx = runner !== 'pnpm dlx';
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (word === '--') {
      if (!seenDlx) return { unreadable: `${runner}: -- before dlx` };
      const rest = words.slice(i + 1);
      return rest.length === 0 ? { words: options } : { words: [...options, '--', ...rest] };
    }
    if (!word.startsWith('-') || word === '-') {
      if (!seenDlx) {
        if (word !== 'dlx') return { unreadable: `pnpm ${word} runs no registry package` };
        seenDlx = true;
        continue;
      }
      return { words: [...options, '--', ...words.slice(i)] };
    }
    if (SWITCHES[runner].has(word)) continue;
    const at = word.indexOf('=');
    const flag = at < 0 ? word : word.slice(0, at);
    const harmless = HARMLESS[runner].has(flag);
    const option = harmless ? '' : Object.hasOwn(VALUED[runner], flag) ? VALUED[runner][flag] : undefined;
    if (option === undefined) {
      // pnpm's shell mode runs the command as a shell's line; anything else is a spelling not read with certainty.
      if (runner === 'pnpm dlx' && (word === '-c' || word === '--shell-mode')) return { unreadable: `${runner} ${word} runs a command line nerq does not read` };
      return { unreadable: UNREAD(runner) };
    }
    if (at >= 0) {
      if (!EQUALS[runner](flag)) return { unreadable: UNREAD(runner) };
      if (!harmless) options.push(`--${option}=${word.slice(at + 1)}`);
      continue;
    }
    const value = words[i + 1];
    // A value that looks like a flag (nopt then gives the option none), or `--config.registry` apart (no spelling pnpm documents).
    if (value === undefined || value.startsWith('-') || flag.startsWith('--config.')) return { unreadable: UNREAD(runner) };
    if (!harmless) options.push(`--${option}=${value}`);
    i++;
  }
  return seenDlx ? { words: options } : { unreadable: 'pnpm runs no registry package' };
}

