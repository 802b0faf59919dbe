/**
 * One section of a setup.cfg read as setuptools reads it, with Python's configparser defaults
 * (pure): `key = value` or `key: value`, keys lower-cased, a value continued on the lines indented
 * deeper than its key (blank lines inside kept, whole-line `#` / `;` comments skipped, trailing
 * blank lines dropped), no inline comments. A value is therefore every line of it, never its first
 * line alone (docs/scoring.md, Compliance). One pass over the lines: linear in the file.
 */

const SECTION = /^\[(.+)\]$/;

/** `key = value` / `key: value` split at the first delimiter (by index: a long line of blanks costs no backtracking); null when the line has none or no key. */
function option(line: string): [string, string] | null {
  const eq = line.indexOf('=');
  const colon = line.indexOf(':');
  const at = eq === -1 ? colon : colon === -1 ? eq : Math.min(eq, colon);
  if (at === -1) return null;
  const key = line.slice(0, at).trim();
  return key === '' ? null : [key.toLowerCase(), line.slice(at + 1).trim()];
}

/** The options of the first section named `name` (later ones of the same name merged in), each value its lines joined by `\n`; null when there is no such section. */
export function setupCfgSection(source: string, name: string): Map<string, string> | null {
  const values = new Map<string, string[]>();
  let inSection = false;
  let seen = false;
  let current: string[] | null = null;
  let indent = Number.MAX_SAFE_INTEGER;
  for (const raw of source.split(/\r\n|\r|\n/)) {
    const line = raw.trimEnd();
    const stripped = line.trim();
    if (stripped.startsWith('#') || stripped.startsWith(';')) continue;
    if (stripped === '') {
      current?.push('');
      continue;
    }
    const lineIndent = line.length - line.trimStart().length;
    if (current !== null && lineIndent > indent) {
      current.push(stripped);
      continue;
    }
    const header = SECTION.exec(stripped);
    if (header !== null) {
      inSection = header[1] === name;
      seen ||= inSection;
      current = null;
      indent = Number.MAX_SAFE_INTEGER;
      continue;
    }
    const pair = option(stripped);
    if (pair === null || !inSection) {
      current = null;
      continue;
    }
    current = [pair[1]];
    indent = lineIndent;
    values.set(pair[0], current);
  }
  if (!seen) return null;
  return new Map([...values].map(([key, lines]) => [key, lines.join('\n').trimEnd()]));
}
