/**
 * The licence names a Gradle build (`build.gradle`, `build.gradle.kts`) declares in the POM it
 * publishes (maven-publish / vanniktech `pom { licenses { license { name … } } }`), read as text and
 * never evaluated (pure; docs/scoring.md, Compliance). A name counts only when it is a string
 * literal: `name = '…'`, `name = "…"`, `name.set("…")`, `name '…'`, `name("…")`; anything else
 * (a variable, an interpolated `"${x}"`, a loop) is code, returned as written to be kept `not evaluated`.
 *
 * The build file is a stranger's (docs/security.md, super-linear parsing): it is cut into tokens in
 * one pass, braces matched with one stack, and each block searched once, so the reading is linear.
 */

/** A token of a Groovy / Kotlin build script: a dotted word, a string literal, or one punctuation character. */
interface Token {
  kind: 'word' | 'string' | 'punct';
  /** The word, the punctuation, or a string literal's text (null when it interpolates or escapes what nerq does not decode). */
  text: string | null;
  at: number;
  end: number;
  /** A line break (or a comment holding one) comes before the token: a statement may end there. */
  newline: boolean;
}

const WORD_START = /[A-Za-z_$]/;
const WORD_PART = /[\w$]/;

/** A quoted literal's text from `from` (after the quote) to its closing `quote` on the same line, and where it ends. */
function quoted(source: string, from: number, quote: string): { text: string | null; end: number } {
  let text = '';
  let literal = true;
  for (let i = from; i < source.length; i++) {
    const c = source[i] ?? '';
    if (c === '\n') return { text: null, end: i };
    if (c === quote) return { text: literal ? text : null, end: i + 1 };
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (`'"\\$`.includes(next) && next !== '') text += next;
      else literal = false;
      i++;
      continue;
    }
    // A `$` in a double-quoted Groovy GString or a Kotlin string is a template: code.
    if (c === '$' && quote === '"') literal = false;
    text += c;
  }
  return { text: null, end: source.length };
}

function tokens(source: string): Token[] {
  const out: Token[] = [];
  let newline = false;
  let i = 0;
  const push = (kind: Token['kind'], text: string | null, at: number, end: number) => {
    out.push({ kind, text, at, end, newline });
    newline = false;
    i = end;
  };
  while (i < source.length) {
    const c = source[i] ?? '';
    if (c === '\n') {
      newline = true;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
    } else if (c === '/' && source[i + 1] === '/') {
      const eol = source.indexOf('\n', i);
      i = eol === -1 ? source.length : eol;
    } else if (c === '/' && source[i + 1] === '*') {
      const close = source.indexOf('*/', i + 2);
      const end = close === -1 ? source.length : close + 2;
      if (source.slice(i, end).includes('\n')) newline = true;
      i = end;
    } else if ((c === "'" || c === '"') && source.startsWith(c.repeat(3), i)) {
      const close = source.indexOf(c.repeat(3), i + 3);
      const end = close === -1 ? source.length : close + 3;
      const body = close === -1 ? null : source.slice(i + 3, close);
      push('string', body === null || body.includes('\\') || (c === '"' && body.includes('$')) ? null : body, i, end);
    } else if (c === "'" || c === '"') {
      const { text, end } = quoted(source, i + 1, c);
      push('string', text, i, end);
    } else if (WORD_START.test(c)) {
      let end = i + 1;
      for (;;) {
        while (end < source.length && WORD_PART.test(source[end] ?? '')) end++;
        if (source[end] === '.' && WORD_START.test(source[end + 1] ?? '')) end += 2;
        else break;
      }
      push('word', source.slice(i, end), i, end);
    } else {
      push('punct', c, i, i + 1);
    }
  }
  return out;
}

/** For each `{` token, the index of its `}` (the end of the tokens when it is not closed), by one stack. */
function closingBraces(list: Token[]): Map<number, number> {
  const close = new Map<number, number>();
  const open: number[] = [];
  list.forEach((t, i) => {
    if (t.kind !== 'punct') return;
    if (t.text === '{') open.push(i);
    else if (t.text === '}') {
      const at = open.pop();
      if (at !== undefined) close.set(at, i);
    }
  });
  for (const at of open) close.set(at, list.length);
  return close;
}

/** What a build's POM licences say: the literal names in order, or the first declaration that is code, as written. */
export type GradleLicences = { names: string[] } | { code: string };

/**
 * The licence names of the first `pom { … licenses { license { name … } } }` of a Gradle build
 * (`pom.project { … }` of the old maven plugin too); no names when no POM block declares licences.
 */
export function gradleLicences(source: string): GradleLicences {
  const list = tokens(source);
  const close = closingBraces(list);
  const isWord = (i: number, ...words: string[]) => list[i]?.kind === 'word' && words.includes(list[i]?.text ?? '');
  const isPunct = (i: number, p: string) => list[i]?.kind === 'punct' && list[i]?.text === p;
  const block = (i: number, ...words: string[]) => isWord(i, ...words) && isPunct(i + 1, '{');
  const endOf = (open: number) => close.get(open) ?? list.length;
  /** A statement ends at a `}` / `;`, a line break, or the end of the file. */
  const ends = (i: number) => i >= list.length || list[i]?.newline === true || isPunct(i, '}') || isPunct(i, ';');
  const lineOf = (i: number) => {
    const at = list[i]?.at ?? 0;
    const eol = source.indexOf('\n', at);
    return source.slice(at, eol === -1 ? undefined : eol);
  };

  /** The `licenses {` block in the tokens from `from` to `to`, at any depth; undefined when there is none. */
  const licensesIn = (from: number, to: number): number | undefined => {
    for (let i = from; i < to; i++) if (block(i, 'licenses')) return i + 1;
    return undefined;
  };

  /** A `license { … }` block's `name`: a literal's text, code as written, or undefined when it names none. */
  const nameIn = (open: number): string | { code: string } | undefined => {
    const end = endOf(open);
    for (let i = open + 1; i < end; i++) {
      if (isPunct(i, '{')) {
        i = endOf(i);
        continue;
      }
      const word = list[i]?.text ?? '';
      if (list[i]?.kind !== 'word' || (word !== 'name' && !word.startsWith('name.'))) continue;
      const literal = (at: number, after: number) => (list[at]?.kind === 'string' && ends(after) ? list[at]?.text : undefined);
      let text: string | null | undefined;
      if (word === 'name' && isPunct(i + 1, '=')) text = literal(i + 2, i + 3);
      else if (word === 'name' && list[i + 1]?.kind === 'string' && list[i + 1]?.newline === false) text = literal(i + 1, i + 2);
      else if ((word === 'name' || word === 'name.set') && isPunct(i + 1, '(') && isPunct(i + 3, ')')) text = literal(i + 2, i + 4);
      return typeof text === 'string' ? text : { code: lineOf(i) };
    }
    return undefined;
  };

  for (let i = 0; i < list.length; i++) {
    if (!block(i, 'pom', 'pom.project')) continue;
    const pomEnd = endOf(i + 1);
    const open = licensesIn(i + 2, pomEnd);
    if (open === undefined) {
      i = pomEnd;
      continue;
    }
    const names: string[] = [];
    const end = endOf(open);
    for (let j = open + 1; j < end; j++) {
      if (isPunct(j, ';')) continue;
      // Anything in `licenses { }` but `license { }` blocks (a loop, a helper call) is code.
      if (!block(j, 'license')) return { code: lineOf(j) };
      const name = nameIn(j + 1);
      if (typeof name === 'object') return name;
      if (name !== undefined) names.push(name);
      j = endOf(j + 1);
    }
    return { names };
  }
  return { names: [] };
}

/** The keys a Gradle `gradle.properties` names its POM licence by (vanniktech maven-publish; the older `LICENCE` spelling of gradle-maven-push). */
const POM_LICENCE_KEYS = new Set(['POM_LICENSE_NAME', 'POM_LICENCE_NAME']);

/** A `.properties` value's escapes decoded (`\uXXXX`, `\t`, `\n`, any other `\x` as x). */
function propertyText(value: string): string {
  return value.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_m, e: string) => (e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : e === 't' ? '\t' : e === 'n' ? '\n' : e));
}

/**
 * The POM licence name a root `gradle.properties` sets (`POM_LICENSE_NAME=…`), read as a Java
 * properties file is (`=`, `:` or a blank between key and value, `#` / `!` comments, a trailing
 * backslash continuing the line); null when it sets none. Data, not code: nothing to evaluate.
 */
export function gradlePropertiesLicence(source: string): string | null {
  const lines = source.split(/\r\n|\r|\n/);
  /** A line ending in an odd number of backslashes continues on the next (counted by index: linear). */
  const continues = (line: string): boolean => {
    let n = 0;
    while (n < line.length && line[line.length - 1 - n] === '\\') n++;
    return n % 2 === 1;
  };
  for (let i = 0; i < lines.length; i++) {
    const first = (lines[i] ?? '').trimStart();
    if (first === '' || first.startsWith('#') || first.startsWith('!')) continue;
    // The continuation's leading blanks are dropped; the parts joined once.
    const parts = [first];
    while (continues(parts[parts.length - 1] ?? '') && i + 1 < lines.length) {
      parts[parts.length - 1] = (parts[parts.length - 1] ?? '').slice(0, -1);
      parts.push((lines[++i] ?? '').trimStart());
    }
    const line = parts.join('');
    const split = /^((?:[^\\=:\s]|\\.)*)\s*[=:]?\s*/.exec(line);
    const key = propertyText(split?.[1] ?? '');
    if (!POM_LICENCE_KEYS.has(key)) continue;
    return propertyText(line.slice(split?.[0].length ?? line.length)).trim();
  }
  return null;
}
