/**
 * Code run from decoded data (docs/checks.md, `obfuscated-code`, signature `decoded-eval`): an
 * executor — `eval`, `Function`, `vm.runIn…Context`, `new vm.Script`,
 * `setTimeout`/`setInterval` — whose argument both decodes (`String.fromCharCode`, `atob`,
 * `Buffer.from`, `unescape`, `decodeURIComponent`, `charCodeAt`, `codePointAt`) and carries a long operand: a list
 * of numbers or a string literal. Either alone is ordinary code (fromCharCode is in jquery's,
 * webpack's and next's files; eval of a short string in many), both together is a payload that
 * was written so as not to be read. The decoding may also come first, in its own statement:
 * `const code = atob('…'); eval(code)` — a name assigned a decoder's call that carries a long
 * operand (or decodes a name that was assigned a long literal: `Buffer.from(admin, 'hex')`) is
 * remembered, and an executor given that name (alone, or added to string literals) is flagged the
 * same.
 *
 * Read from comment-free text (js-comments.ts) chunk by chunk: the executor's name is found with
 * the characters before it kept from the last chunk; its argument is then read one character at a
 * time to its closing parenthesis, each character once, for the decoders' names in its code (not
 * in its strings), the longest list of numbers and the longest string literal. A timer given a
 * function (`setTimeout(function…`, `(…) =>`, `async`) runs no string: its argument is not read
 * as one. A regular expression literal in an argument is read as code: a bracket or quote in it
 * that does not balance may end the argument early or late.
 *
 * Assignments (`name =`, not `==`, `=>` nor `a.b =`) are found the same way; a right side that
 * starts with a literal or a decoder's call (RIGHT_SIDE) is read, each character once, to its end: `;`, `,` or a newline after an operand, outside brackets;
 * a closing bracket of the code around it; or `{` (a function's body or an object: what it
 * assigns is not decoded text). The names remembered are the DECODED_NAMES most recent of each
 * kind, per file; a name assigned anything else is forgotten. Assignments are read in the file's
 * order with the executors: one is read only up to where the executors were read, so an executor
 * sees the names as they were where it stands, whatever the chunks.
 */

/**
 * Numbers in one comma-separated list of an executed, decoded argument. No executor's argument in
 * 41,822 files of popular packages and build tools decodes at all (the number lists in their
 * arguments: 5 numbers at most), nor is any a name assigned a decoder's output (2,421 such
 * assignments in those files), so the bar only keeps out a few constants: 16 characters of code
 * is the length of a short statement.
 */
export const DECODED_NUMBERS = 16;
/** Characters of one string literal in an executed, decoded argument (set as DECODED_NUMBERS). */
export const DECODED_STRING = 16;

/** Names remembered per file, of each kind (decoded text, long literal): the most recent ones. */
export const DECODED_NAMES = 32;

/** The executors: the code they are given runs (a timer only when it is not given a function). */
const EXECUTOR =
  /(?:(?<![\w$.])(?:(?:window|global|globalThis|self)\s{0,8}\.\s{0,8})?eval|(?<![\w$.])\(\s{0,8}0\s{0,8},\s{0,8}eval\s{0,8}\)|(?<![\w$.])(?:new\s{1,8})?Function|(?<![\w$])vm\s{0,8}\.\s{0,8}(?:runIn(?:This|New)?Context|compileFunction)|(?<![\w$.])new\s{1,8}vm\s{0,8}\.\s{0,8}Script|(?<![\w$])set(?:Timeout|Interval)(?=\s{0,8}\((?!\s{0,8}(?:function|async|\())))\s{0,8}\(/g;
/**
 * An assignment's `=` (no `==`, `===` or `=>`); the name before it is read backwards (a regular
 * expression that starts at the name tries every character of the text, ten times slower).
 */
const ASSIGNMENT = /=(?![=>])/g;
/**
 * The start of a right side worth reading: a literal (a string, a template, an array) or a
 * decoder's call (`atob(`, `unescape(`, `decodeURI…(`, `String.fromCharCode`/`fromCodePoint`,
 * `Buffer.from(`). Others are not read: the name is forgotten, and what they assign is not
 * remembered (`x = f(atob('…'))` passes), which keeps the reading to a few right sides. One
 * that starts with a literal is read while it is literals alone or once a decoder is named
 * (`x = [104, …].map(…String.fromCharCode…)` passes).
 */
const RIGHT_SIDE = /\s{0,8}(?:["'`[]|(?:(?:window|self|global|globalThis)\s{0,8}\.\s{0,8})?(?:atob|unescape|decodeURI|decodeURIComponent)\s{0,8}\(|String\s{0,8}\.\s{0,8}from(?:CharCode|CodePoint)\b|Buffer\s{0,8}\.\s{0,8}from\s{0,8}\()/y;
/** An assignment's `=` this close to a chunk's end waits for the next chunk (RIGHT_SIDE reads under 48 characters after it). */
const ASSIGNMENT_DEFER = 64;
/** The decoders' names, in an executor's argument (`from` counts after `Buffer`). */
const DECODERS = new Set(['fromCharCode', 'fromCodePoint', 'atob', 'unescape', 'decodeURIComponent', 'decodeURI', 'charCodeAt', 'codePointAt']);
/** Characters kept before a chunk, and the reach of a match that ends in the last DEFER of them (an executor's name with its blanks is under 64, an assignment's name and blanks under 74). */
const TAIL = 256;
/** A match ending this close to a chunk's end waits for the next chunk (its lookahead needs 16 characters). */
const DEFER = 17;
/** Words longer than this are no decoder's name and no remembered name (the assignment's name is as long at most). */
const MAX_WORD = 64;

/** A number list's characters besides digits and commas: hexadecimal digits and `x`, `.`, `-`, blanks. */
const NUMBER_CHAR = new Uint8Array(128);
for (const c of '0123456789abcdefABCDEFxX.- \t\r\n') NUMBER_CHAR[c.charCodeAt(0)] = 1;
const IDENTIFIER = new Uint8Array(128);
for (let c = 0; c < 128; c++) IDENTIFIER[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 ? 1 : 0;

/** What an executor's argument or an assignment's right side carries, read one character at a time. */
class Operand {
  /** Its bracket depth (0 at its own level). */
  depth = 0;
  quote = 0;
  private escaped = false;
  private stringLength = 0;
  private numbers = 0;
  /** A digit since the list's last comma (`,,` or `a, b` is no list of numbers). */
  private digit = false;
  private word = '';
  private lastWord = '';
  /** A decoder is named in its code. */
  decoder = false;
  /** A list of DECODED_NUMBERS numbers or a string of DECODED_STRING characters. */
  long = false;

  reset(depth: number): void {
    this.depth = depth;
    this.quote = 0;
    this.escaped = false;
    this.stringLength = 0;
    this.numbers = 0;
    this.digit = false;
    this.word = '';
    this.lastWord = '';
    this.decoder = false;
    this.long = false;
  }

  /** Reads a string's characters from `i` up to its closing quote (read too) or `end`; returns where it stopped. */
  quoted(text: string, i: number, end: number): number {
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (this.escaped) this.escaped = false;
      else if (c === 92) this.escaped = true;
      else if (c === this.quote) {
        this.quote = 0;
        if (this.stringLength >= DECODED_STRING) this.long = true;
        return i + 1;
      }
      this.stringLength += 1;
    }
    return i;
  }

  /** Reads the character at `i` (outside a string); returns the word (a name or a number) it ends, or ''. */
  step(text: string, i: number): string {
    const c = text.charCodeAt(i);
    let ended = '';
    if (c < 128 && IDENTIFIER[c] === 1) {
      if (this.word.length <= MAX_WORD) this.word += text[i];
    } else if (this.word !== '') {
      if (DECODERS.has(this.word) || (this.word === 'from' && this.lastWord === 'Buffer')) this.decoder = true;
      ended = this.word;
      this.lastWord = this.word;
      this.word = '';
    }
    if (c === 39 || c === 34 || c === 96) {
      this.quote = c;
      this.stringLength = 0;
      this.numbers = 0;
      this.digit = false;
    } else if (c === 44) {
      // `n,`: one more number in the list (a list of k numbers has k - 1 commas).
      if (this.digit) {
        this.numbers += 1;
        if (this.numbers + 1 >= DECODED_NUMBERS) this.long = true;
      } else this.numbers = 0;
      this.digit = false;
    } else if (c >= 48 && c <= 57) {
      // A digit of a number (`104`, `0x68`), not of a name (`x1`).
      if (this.word.charCodeAt(0) <= 57) this.digit = true;
    } else if (c === 40 || c === 91 || c === 123) {
      this.depth += 1;
      this.numbers = 0;
    } else if (c === 41 || c === 93 || c === 125) {
      this.depth -= 1;
      this.numbers = 0;
    } else if (c >= 128 || NUMBER_CHAR[c] !== 1) {
      this.numbers = 0;
      this.digit = false;
    }
    return ended;
  }
}

/** Remembers or forgets a name among the most recent DECODED_NAMES (a Set keeps their order). */
const remember = (names: Set<string>, name: string, yes: boolean): void => {
  names.delete(name);
  if (!yes) return;
  names.add(name);
  if (names.size > DECODED_NAMES) names.delete(names.values().next().value!);
};

/**
 * The name an assignment's `=` at `at` follows (blanks between), or '' when it follows none: a
 * property (`a.b =`), an operator (`<=`, `!=`, `+=`), a bracket, or a name longer than MAX_WORD.
 */
const nameBefore = (text: string, at: number): string => {
  let end = at;
  while (end > 0 && at - end < 8 && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end -= 1;
  let start = end;
  while (start > 0 && end - start <= MAX_WORD) {
    const c = text.charCodeAt(start - 1);
    if (c >= 128 || IDENTIFIER[c] !== 1) break;
    start -= 1;
  }
  if (start === end || end - start > MAX_WORD || isDigit(text.charCodeAt(start))) return '';
  const before = start > 0 ? text.charCodeAt(start - 1) : 32;
  return before < 128 && (IDENTIFIER[before] === 1 || before === 46) ? '' : text.slice(start, end);
};

/** A digit: a word that starts with one is a number. */
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** Whether one file runs decoded data, read chunk by chunk. */
export class DecodedEvalScan {
  private tail = '';
  /** Where the text read last (the tail, then the chunk) starts in the file. */
  private base = 0;
  /** Executors that end at or before this position in the file were read already. */
  private searched = 0;
  /** Inside an executor's argument: its bracket depth (operand.depth, 0 outside). */
  private readonly operand = new Operand();
  /** The argument's current comma-separated part names a decoded name … */
  private partDecoded = false;
  /** … and nothing but that, string literals, `+` and blanks is in it. */
  private partOther = false;
  /** The argument's parts that are code: all of Function's (its body is the last), the first of the others (a timer's next is its delay). */
  private everyPart = false;
  private firstPart = true;
  private found = false;
  /** The literals of the text read ([start, end) pairs of positions in the file), from the tail on. */
  private literals: number[] = [];

  /** Names last assigned decoded text with a long operand. */
  private readonly decodedNames = new Set<string>();
  /** Names last assigned a long literal alone (a string, strings added, a list of numbers). */
  private readonly literalNames = new Set<string>();
  /** Assignments that end at or before this position in the file were read already. */
  private assigned = 0;
  /** The next assignment found and not read yet: where its right side starts, and its name. */
  private pendingAt = -1;
  private pendingName = '';
  /** No assignment is left to find in the current text. */
  private exhausted = false;
  /** Inside an assignment's right side: where it goes on, its name and what it carries. */
  private inRightSide = false;
  private rightSideAt = 0;
  private rightSideName = '';
  private readonly right = new Operand();
  /** The right side names a name assigned a long literal. */
  private namesLiteral = false;
  /** The right side names anything but a number (it is no literal alone). */
  private namesOther = false;
  /** The last character of the right side besides blanks ends an operand (a newline may end it). */
  private afterOperand = false;
  /** The right side starts with a literal: it is read while it is literals alone, or once it decodes. */
  private literalStart = false;

  /**
   * The next chunk of comment-free code (each character once), with where its literals are
   * (CommentSkipper's `literals`: an executor's name inside a string is a sample, not a call);
   * `last` when the file ends with it.
   */
  read(code: string, literals: readonly number[], last = false): void {
    if (this.found) return;
    const text = this.tail + code;
    const codeStart = this.base + this.tail.length;
    for (const at of literals) this.literals.push(codeStart + at);
    this.exhausted = false;
    let at = this.tail.length;
    for (;;) {
      if (this.operand.depth > 0) {
        at = this.argument(text, at, last);
        if (this.found) return;
        if (this.operand.depth > 0) break;
        this.searched = this.base + at;
      }
      EXECUTOR.lastIndex = Math.max(0, this.searched - this.base - TAIL / 2);
      let match: RegExpExecArray | null;
      while ((match = EXECUTOR.exec(text)) !== null && (this.base + match.index + match[0].length <= this.searched || this.inLiteral(this.base + match.index))) {
        // read already (it ended in the last chunk, or in an argument), or in a string
      }
      if (match === null || (!last && match.index + match[0].length > text.length - DEFER)) {
        if (!last) this.searched = Math.max(this.searched, this.base + text.length - DEFER);
        break;
      }
      at = match.index + match[0].length;
      this.searched = this.base + at;
      this.operand.reset(1);
      this.partDecoded = false;
      this.partOther = false;
      this.everyPart = match[0].includes('Function');
      this.firstPart = true;
    }
    // Assignments are read up to where the executors were: one waiting for the next chunk may
    // still see the names as they were where it stands.
    this.assignments(text, last || this.operand.depth > 0 ? text.length : Math.min(text.length, Math.max(0, this.searched - this.base)), last);
    this.tail = text.slice(-TAIL);
    this.base += text.length - this.tail.length;
    // The literals that reach into the tail are kept for the next chunk's matches.
    let keep = 0;
    while (keep < this.literals.length && this.literals[keep + 1]! <= this.base) keep += 2;
    this.literals = this.literals.slice(keep);
  }

  /** Whether a position of the file is inside a literal (a binary search over the sorted pairs). */
  private inLiteral(position: number): boolean {
    let low = 0;
    let high = this.literals.length / 2;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.literals[2 * mid + 1]! <= position) low = mid + 1;
      else high = mid;
    }
    return low < this.literals.length / 2 && this.literals[2 * low]! <= position;
  }

  /** Whether an executor ran decoded data with a long operand. */
  runsDecoded(): boolean {
    return this.found;
  }

  /**
   * Reads an argument from `from` to its close (depth 0) or the text's end; returns where it
   * stopped. Found: it decodes and carries a long operand, or a comma-separated part that is code
   * (Function's any, the others' first) is a decoded name, alone or added to string literals.
   */
  private argument(text: string, from: number, last: boolean): number {
    const operand = this.operand;
    let i = from;
    while (i < text.length && operand.depth > 0) {
      if (operand.quote !== 0) {
        i = operand.quoted(text, i, text.length);
        if (operand.decoder && operand.long) {
          this.found = true;
          return i;
        }
        continue;
      }
      const before = operand.depth;
      const word = operand.step(text, i);
      i += 1;
      if (operand.decoder && operand.long) {
        this.found = true;
        return i;
      }
      if (before !== 1) continue;
      if (word !== '') {
        if (isDigit(word.charCodeAt(0))) this.partOther = true;
        else {
          // The names as they were here: assignments are read up to this character.
          this.assignments(text, i - 1, last);
          if (this.decodedNames.has(word)) this.partDecoded = true;
          else this.partOther = true;
        }
      }
      const c = text.charCodeAt(i - 1);
      if (c === 44 || operand.depth === 0) {
        if (this.partDecoded && !this.partOther && (this.firstPart || this.everyPart)) {
          this.found = true;
          return i;
        }
        this.partDecoded = false;
        this.partOther = false;
        this.firstPart = false;
      } else if (!(c === 32 || c === 9 || c === 10 || c === 13 || c === 43 || c === 39 || c === 34 || c === 96 || (c < 128 && IDENTIFIER[c] === 1))) {
        this.partOther = true;
      }
    }
    return i;
  }

  /** Reads the assignments whose right sides start before `limit` (an index of text), up to it. */
  private assignments(text: string, limit: number, last: boolean): void {
    for (;;) {
      if (this.inRightSide) {
        const at = this.rightSide(text, this.rightSideAt - this.base, limit);
        this.rightSideAt = this.base + at;
        if (this.inRightSide) return;
        this.assigned = this.base + at;
      }
      if (this.pendingAt < 0) {
        if (this.exhausted) return;
        // The next one's `=` comes after the last right side.
        ASSIGNMENT.lastIndex = Math.max(0, this.assigned - this.base);
        let match: RegExpExecArray | null;
        let name = '';
        for (;;) {
          match = ASSIGNMENT.exec(text);
          if (match === null || (!last && match.index + 1 > text.length - ASSIGNMENT_DEFER)) break;
          // An assignment has a name before it (not `a.b =`, `] =`, `<=`, `!=`) and is no string's text.
          name = nameBefore(text, match.index);
          if (name !== '' && !this.inLiteral(this.base + match.index)) break;
        }
        if (match === null || (!last && match.index + 1 > text.length - ASSIGNMENT_DEFER)) {
          // None left, but one may be cut at the text's end (`a =` then `=`): the next chunk
          // looks again from there.
          this.exhausted = true;
          if (!last) this.assigned = Math.max(this.assigned, this.base + text.length - ASSIGNMENT_DEFER);
          return;
        }
        this.pendingAt = this.base + match.index + 1;
        this.pendingName = name;
      }
      if (this.pendingAt - this.base > limit) return;
      this.assigned = this.pendingAt;
      this.pendingAt = -1;
      remember(this.decodedNames, this.pendingName, false);
      remember(this.literalNames, this.pendingName, false);
      RIGHT_SIDE.lastIndex = this.assigned - this.base;
      if (!RIGHT_SIDE.test(text)) continue;
      const open = text.charCodeAt(RIGHT_SIDE.lastIndex - 1);
      this.literalStart = open === 34 || open === 39 || open === 96 || open === 91;
      this.inRightSide = true;
      this.rightSideAt = this.assigned;
      this.rightSideName = this.pendingName;
      this.right.reset(0);
      this.namesLiteral = false;
      this.namesOther = false;
      this.afterOperand = false;
    }
  }

  /** Reads a right side from `from` to its end or `limit`; returns where it stopped. */
  private rightSide(text: string, from: number, limit: number): number {
    const right = this.right;
    const end = Math.min(limit, text.length);
    for (let i = from; i < end; i++) {
      if (right.quote !== 0) {
        i = right.quoted(text, i, end) - 1;
        if (right.quote === 0) this.afterOperand = true;
        continue;
      }
      const before = right.depth;
      const word = right.step(text, i);
      if (word !== '' && !isDigit(word.charCodeAt(0))) {
        if (this.literalStart && !right.decoder) {
          // `x = '…'.length`, `x = [a, b]`: no literal alone and nothing decoded; not read further.
          this.inRightSide = false;
          return i;
        }
        this.namesOther = true;
        if (this.literalNames.has(word)) this.namesLiteral = true;
      }
      const c = text.charCodeAt(i);
      const blank = c === 32 || c === 9 || c === 13;
      if (c === 123 || (before === 0 && (c === 59 || c === 44 || c === 41 || c === 93 || c === 125 || (c === 10 && this.afterOperand)))) {
        this.inRightSide = false;
        remember(this.decodedNames, this.rightSideName, right.decoder && (right.long || this.namesLiteral));
        remember(this.literalNames, this.rightSideName, right.long && !this.namesOther);
        return i;
      }
      if (!blank && c !== 10) this.afterOperand = (c < 128 && IDENTIFIER[c] === 1) || c === 41 || c === 93;
    }
    return end;
  }
}
