/**
 * Code run from decoded data, in one expression (docs/checks.md, `obfuscated-code`, signature
 * `decoded-eval`): an executor — `eval`, `Function`, `vm.runIn…Context`, `new vm.Script`,
 * `setTimeout`/`setInterval` — whose argument both decodes (`String.fromCharCode`, `atob`,
 * `Buffer.from`, `unescape`, `decodeURIComponent`, `charCodeAt`) and carries a long operand: a list
 * of numbers or a string literal. Either alone is ordinary code (fromCharCode is in jquery's,
 * webpack's and next's files; eval of a short string in many), both together is a payload that
 * was written so as not to be read.
 *
 * Read from comment-free text (js-comments.ts) chunk by chunk: the executor's name is found with
 * the characters before it kept from the last chunk; its argument is then read one character at a
 * time to its closing parenthesis, each character once, for the decoders' names in its code (not
 * in its strings), the longest list of numbers and the longest string literal. A timer given a
 * function (`setTimeout(function…`, `(…) =>`, `async`) runs no string: its argument is not read
 * as one. A regular expression literal in an argument is read as code: a bracket or quote in it
 * that does not balance may end the argument early or late.
 */

/**
 * Numbers in one comma-separated list of an executed, decoded argument. No executor's argument in
 * 41,822 files of popular packages and build tools decodes at all (their number lists in executor
 * arguments: 5 numbers at most), so the bar only keeps out a few constants: 16 characters of code
 * is the length of a short statement.
 */
export const DECODED_NUMBERS = 16;
/** Characters of one string literal in an executed, decoded argument (set as DECODED_NUMBERS). */
export const DECODED_STRING = 16;

/** The executors: the code they are given runs (a timer only when it is not given a function). */
const EXECUTOR =
  /(?:(?<![\w$.])(?:(?:window|global|globalThis|self)\s{0,8}\.\s{0,8})?eval|(?<![\w$.])\(\s{0,8}0\s{0,8},\s{0,8}eval\s{0,8}\)|(?<![\w$.])(?:new\s{1,8})?Function|(?<![\w$])vm\s{0,8}\.\s{0,8}(?:runIn(?:This|New)?Context|compileFunction)|(?<![\w$.])new\s{1,8}vm\s{0,8}\.\s{0,8}Script|(?<![\w$])set(?:Timeout|Interval)(?=\s{0,8}\((?!\s{0,8}(?:function|async|\())))\s{0,8}\(/g;
/** The decoders' names, in an executor's argument (`from` counts after `Buffer`). */
const DECODERS = new Set(['fromCharCode', 'fromCodePoint', 'atob', 'unescape', 'decodeURIComponent', 'decodeURI', 'charCodeAt']);
/** Characters kept before a chunk, and the reach of a match that ends in the last DEFER of them (an executor's name with its blanks is under 64). */
const TAIL = 128;
/** A match ending this close to a chunk's end waits for the next chunk (its lookahead needs 16 characters). */
const DEFER = 17;
/** Words longer than this are no decoder's name. */
const MAX_WORD = 20;

/** A number list's characters besides digits and commas: hexadecimal digits and `x`, `.`, `-`, blanks. */
const NUMBER_CHAR = new Uint8Array(128);
for (const c of '0123456789abcdefABCDEFxX.- \t\r\n') NUMBER_CHAR[c.charCodeAt(0)] = 1;
const IDENTIFIER = new Uint8Array(128);
for (let c = 0; c < 128; c++) IDENTIFIER[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 ? 1 : 0;

/** Whether one file runs decoded data, read chunk by chunk. */
export class DecodedEvalScan {
  private tail = '';
  /** Where the text read last (the tail, then the chunk) starts in the file. */
  private base = 0;
  /** Executors that end at or before this position in the file were read already. */
  private searched = 0;
  /** Inside an executor's argument: its bracket depth (0 outside). */
  private depth = 0;
  private quote = 0;
  private escaped = false;
  private stringLength = 0;
  private numbers = 0;
  /** A digit since the list's last comma (`,,` or `a, b` is no list of numbers). */
  private digit = false;
  private word = '';
  private lastWord = '';
  private decoder = false;
  private longOperand = false;
  private found = false;
  /** The literals of the text read ([start, end) pairs of positions in the file), from the tail on. */
  private literals: number[] = [];

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
    let at = this.tail.length;
    for (;;) {
      if (this.depth > 0) {
        at = this.argument(text, at);
        if (this.decoder && this.longOperand) {
          this.found = true;
          return;
        }
        if (this.depth > 0) break;
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
      this.depth = 1;
      this.quote = 0;
      this.escaped = false;
      this.numbers = 0;
      this.digit = false;
      this.word = '';
      this.lastWord = '';
      this.decoder = false;
      this.longOperand = false;
    }
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

  /** Reads an argument from `from` to its close (depth 0) or the text's end; returns where it stopped. */
  private argument(text: string, from: number): number {
    let i = from;
    for (; i < text.length && this.depth > 0; i++) {
      const c = text.charCodeAt(i);
      if (this.quote !== 0) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === this.quote) {
          this.quote = 0;
          if (this.stringLength >= DECODED_STRING) this.longOperand = true;
          continue;
        }
        this.stringLength += 1;
        continue;
      }
      if (c < 128 && IDENTIFIER[c] === 1) {
        if (this.word.length <= MAX_WORD) this.word += text[i];
      } else if (this.word !== '') {
        if (DECODERS.has(this.word) || (this.word === 'from' && this.lastWord === 'Buffer')) this.decoder = true;
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
          if (this.numbers + 1 >= DECODED_NUMBERS) this.longOperand = true;
        } else this.numbers = 0;
        this.digit = false;
      } else if (c >= 48 && c <= 57) {
        // A digit of a number (`104`, `0x68`), not of a name (`x1`).
        if (this.word.charCodeAt(0) <= 57) this.digit = true;
      }
      else if (c === 40 || c === 91 || c === 123) {
        this.depth += 1;
        this.numbers = 0;
      } else if (c === 41 || c === 93 || c === 125) {
        this.depth -= 1;
        this.numbers = 0;
      } else if (c >= 128 || NUMBER_CHAR[c] !== 1) {
        this.numbers = 0;
        this.digit = false;
      }
    }
    return i;
  }
}
