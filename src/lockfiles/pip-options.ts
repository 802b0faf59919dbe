/**
 * The options of one requirements-file line, read as pip reads them: the line is split as
 * Python's `shlex.split` splits it (quotes and backslashes), then parsed as optparse parses it —
 * every option on the line, not only the first; a long option may be any unique prefix of its
 * name (`--extra=URL` is `--extra-index-url URL`), given its value after `=` or as the next word;
 * a short option takes its value attached (`-ihttps://…`) or as the next word; `--pypi-url` is
 * `--index-url`. A word that is not an option is ignored, as pip ignores it. An option pip does
 * not know (or a prefix of several) is returned apart: pip refuses such a file.
 */

/** pip's requirements-file options (pip/_internal/req/req_file.py), by long name, and whether each takes a value. */
const LONG: ReadonlyMap<string, { name: string; value: boolean }> = new Map([
  ['--index-url', { name: '--index-url', value: true }],
  ['--pypi-url', { name: '--index-url', value: true }],
  ['--extra-index-url', { name: '--extra-index-url', value: true }],
  ['--no-index', { name: '--no-index', value: false }],
  ['--constraint', { name: '--constraint', value: true }],
  ['--requirement', { name: '--requirement', value: true }],
  ['--editable', { name: '--editable', value: true }],
  ['--find-links', { name: '--find-links', value: true }],
  ['--no-binary', { name: '--no-binary', value: true }],
  ['--only-binary', { name: '--only-binary', value: true }],
  ['--prefer-binary', { name: '--prefer-binary', value: false }],
  ['--require-hashes', { name: '--require-hashes', value: false }],
  ['--pre', { name: '--pre', value: false }],
  ['--trusted-host', { name: '--trusted-host', value: true }],
  ['--use-feature', { name: '--use-feature', value: true }],
  ['--global-option', { name: '--global-option', value: true }],
  ['--hash', { name: '--hash', value: true }],
  ['--config-settings', { name: '--config-settings', value: true }],
]);

/** Short options, all taking a value. */
const SHORT: ReadonlyMap<string, string> = new Map([
  ['-i', '--index-url'],
  ['-c', '--constraint'],
  ['-r', '--requirement'],
  ['-e', '--editable'],
  ['-f', '--find-links'],
  ['-C', '--config-settings'],
]);

export interface PipOption {
  /** The option's full long name (`--index-url` for `-i`, `--pypi-url` or `--ind`). */
  name: string;
  /** Its value; '' when the line ends where the value should be (pip refuses the file). */
  value: string;
}

export interface PipOptionLine {
  options: PipOption[];
  /** Options pip does not know, or prefixes of several, as written. */
  unknown: string[];
}

/** A line split into words as Python's `shlex.split` (POSIX mode) splits it; an unclosed quote runs to the end. */
export function shlexSplit(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i]!;
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '\\' && i + 1 < line.length && '\\"$`\n'.includes(line[i + 1]!)) word += line[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      if (i + 1 < line.length) word += line[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** A long option's entry: its exact name, else the one option it is a prefix of (optparse's abbreviations). */
function longOption(written: string): { name: string; value: boolean } | null {
  const exact = LONG.get(written);
  if (exact !== undefined) return exact;
  const matches = new Set<string>();
  let found: { name: string; value: boolean } | null = null;
  for (const [long, entry] of LONG) {
    if (long.startsWith(written)) {
      matches.add(long);
      found = entry;
    }
  }
  return matches.size === 1 ? found : null;
}

/** The options on a requirements-file line (see the module comment). */
export function readPipOptions(line: string): PipOptionLine {
  const words = shlexSplit(line);
  const options: PipOption[] = [];
  const unknown: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === '--') break;
    if (word.startsWith('--')) {
      const equals = word.indexOf('=');
      const written = equals === -1 ? word : word.slice(0, equals);
      const entry = longOption(written);
      if (entry === null) {
        unknown.push(written);
        continue;
      }
      if (!entry.value) options.push({ name: entry.name, value: '' });
      else if (equals !== -1) options.push({ name: entry.name, value: word.slice(equals + 1) });
      else options.push({ name: entry.name, value: words[++i] ?? '' });
    } else if (word.startsWith('-') && word.length > 1) {
      const name = SHORT.get(word.slice(0, 2));
      if (name === undefined) {
        unknown.push(word.slice(0, 2));
        continue;
      }
      options.push({ name, value: word.length > 2 ? word.slice(2) : (words[++i] ?? '') });
    }
  }
  return { options, unknown };
}
