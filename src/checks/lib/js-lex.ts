/**
 * The few lexical steps the JavaScript readers share (js-code.ts for install code, load-code.ts
 * for load-time code; docs/checks.md, `install-scripts`, `load-time-code`): past a string or a
 * regular expression literal, the names and spaces around a position, and the code without its
 * comments. Pure text inspection, linear in the text.
 */

/** Words after which a `/` starts a regular expression literal. */
const REGEX_WORDS = new Set(['return', 'typeof', 'case', 'in', 'of', 'delete', 'void', 'throw', 'else', 'do', 'yield', 'await']);
const REGEX_AFTER = '(,=:[!&|?{};+-*%<>~^';

/** Whether the character `c` is one of `[\w$]` (by its code: called once per character of a module). */
export function isName(c: string | undefined): boolean {
  return c !== undefined && isNameCode(c.charCodeAt(0));
}

/** isName by the character's code. */
function isNameCode(n: number): boolean {
  return (n >= 97 && n <= 122) || (n >= 65 && n <= 90) || (n >= 48 && n <= 57) || n === 95 || n === 36;
}

/** Whether the character of code `n` is one of `\s` (JavaScript's white space and line terminators). */
function isSpaceCode(n: number): boolean {
  if (n <= 32) return n === 32 || (n >= 9 && n <= 13);
  if (n < 160) return false;
  return n === 160 || n === 0x1680 || (n >= 0x2000 && n <= 0x200a) || n === 0x2028 || n === 0x2029 || n === 0x202f || n === 0x205f || n === 0x3000 || n === 0xfeff;
}

/** The last position before `i` that is not a space (-1 when there is none). */
export function previous(text: string, i: number): number {
  let j = i - 1;
  while (j >= 0 && isSpaceCode(text.charCodeAt(j))) j -= 1;
  return j;
}

/** The first position from `i` that is not a space (the text's length when there is none). */
export function next(text: string, i: number): number {
  let j = i;
  while (j < text.length && isSpaceCode(text.charCodeAt(j))) j += 1;
  return j;
}

/** The name that ends at `end` (inclusive). */
export function nameEndingAt(text: string, end: number): string {
  let j = end;
  while (j >= 0 && isNameCode(text.charCodeAt(j))) j -= 1;
  return text.slice(j + 1, end + 1);
}

/**
 * Whether the `/` at `i` starts a regular expression literal (not a division). `p`: the last
 * position of code before it (default: the last that is not a space; a reader still holding
 * comments passes the last one outside them).
 */
export function regexStarts(text: string, i: number, p: number = previous(text, i)): boolean {
  return p < 0 || REGEX_AFTER.includes(text[p]!) || REGEX_WORDS.has(nameEndingAt(text, p));
}

/** Past a regular expression literal that starts at `i` (or the end of its line, when it does not close). */
export function regexEnd(text: string, i: number): number {
  let inClass = false;
  let j = i + 1;
  while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
    if (text[j] === '\\') j += 1;
    else if (text[j] === '[') inClass = true;
    else if (text[j] === ']') inClass = false;
    j += 1;
  }
  return j + 1;
}

/** Past a string or template literal that starts at `i`. */
export function stringEnd(text: string, i: number): number {
  const quote = text[i];
  if (quote === '`') return templateEnd(text, i);
  let j = i + 1;
  while (j < text.length && text[j] !== quote) j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

/**
 * Past a template literal that starts at `i`: its `${…}` substitutions are code, which may hold
 * strings, comments, regular expressions, braces and templates of their own
 * (`${a ? `x/${b}` : '}'}`), so the first backtick after `${` is not its end. One pass, with the open templates and substitutions on a stack
 * (a substitution's depth of braces), however deep they nest.
 */
function templateEnd(text: string, i: number): number {
  // -1: inside a template's text; n ≥ 0: inside a substitution's code, n braces deep.
  const open: number[] = [-1];
  let j = i + 1;
  while (j < text.length) {
    const c = text[j]!;
    const top = open.length - 1;
    const depth = open[top]!;
    if (depth === -1) {
      if (c === '\\') j += 1;
      else if (c === '`') {
        open.pop();
        if (open.length === 0) return j + 1;
      } else if (c === '$' && text[j + 1] === '{') {
        open.push(0);
        j += 1;
      }
    } else if (c === '"' || c === "'") {
      j = stringEnd(text, j) - 1;
    } else if (c === '/' && text[j + 1] === '/') {
      // A comment in a substitution (`${fn([\n // can't …\n "x"])}`): prose, its quotes open nothing.
      while (j + 1 < text.length && text[j + 1] !== '\n') j += 1;
    } else if (c === '/' && text[j + 1] === '*') {
      const end = text.indexOf('*/', j + 2);
      j = end < 0 ? text.length : end + 1;
    } else if (c === '/' && regexStarts(text, j)) {
      j = regexEnd(text, j) - 1;
    } else if (c === '`') open.push(-1);
    else if (c === '{') open[top] = depth + 1;
    else if (c === '}') {
      if (depth === 0) open.pop();
      else open[top] = depth - 1;
    }
    j += 1;
  }
  return text.length + 1;
}

/**
 * The code without its comments, strings kept whole (a comment's `.ssh` or URL is prose, not
 * code); a block comment leaves one space. With `regexLiterals`, a regular expression literal is
 * kept whole too (its `//` is not a comment); without, it is read as code, as install-code
 * reading always has (js-code.ts). One pass.
 */
export function stripComments(text: string, options: { regexLiterals?: boolean } = {}): string {
  const regexLiterals = options.regexLiterals === true;
  let out = '';
  let start = 0;
  let i = 0;
  // The last position of code (not a space, not in a comment): what a `/` follows is read there,
  // so a regular expression on the line after a comment (`[\n // note\n /x/g, …]`) is one.
  let lastCode = -1;
  while (i < text.length) {
    // By the character's code: this runs once per character of a module.
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39 || c === 96) {
      // `"`, `'`, a backtick
      i = stringEnd(text, i);
      lastCode = i - 1;
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      // `//`: to the line's end
      out += text.slice(start, i);
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      start = i;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      // `/*`
      out += `${text.slice(start, i)} `;
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      start = i;
    } else if (regexLiterals && c === 47 && regexStarts(text, i, lastCode)) {
      i = regexEnd(text, i);
      lastCode = i - 1;
    } else {
      if (!isSpaceCode(c)) lastCode = i;
      i += 1;
    }
  }
  return out + text.slice(start);
}
