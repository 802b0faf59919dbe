/**
 * JavaScript without its comments, read chunk by chunk (the obfuscation reader's first step,
 * docs/checks.md `obfuscated-code`): a sample of obfuscated code quoted in a comment, or a licence
 * banner, is prose, not code.
 *
 * A small tokenizer's states, one pass over each character once: strings ('…', "…"), template
 * literals (`…` with `${…}` nested in them), regular expression literals (told from a division by
 * the token before the `/`, as a parser would: after an operand a `/` divides, after an operator
 * or a keyword such as `return` it opens a literal, after `)` it depends on what the parenthesis
 * followed — `if (…) /re/` — and after `}` on whether the brace closed a block or an object
 * literal), line and block comments. Between chunks it keeps its state, at most one held-back
 * character, the last short word and a stack of open brackets capped at MAX_DEPTH entries: the
 * state is bounded whatever the text.
 *
 * What it cannot tell, it reads as code: a string or a regular expression literal ends at the end
 * of its line, and brackets nested deeper than MAX_DEPTH are counted without their kinds.
 *
 * On the way it notes the bidirectional controls that make the code a reader sees differ from
 * the code that runs (Trojan Source, `trojan-source` in docs/checks.md): one in code, or one a
 * literal or comment leaves open (an embedding, override or isolate not closed before the
 * literal, the comment or its line ends). A literal that is a character set does not count: every
 * control in it inside a regular expression's `[…]`, or nothing in it a reader sees but the
 * controls themselves, other invisible characters, escapes and `-`, `|`, `[`, `]`, `^` (a
 * sanitiser's list of the controls it strips, `/[U+202A-U+202E]/`, `ch === 'U+202B'`).
 */

/** Open brackets whose kinds are kept (deeper ones are counted, and read as plain parentheses). */
export const MAX_DEPTH = 1024;

const CODE = 0;
const LINE_COMMENT = 1;
const BLOCK_COMMENT = 2;
const SINGLE_QUOTED = 3;
const DOUBLE_QUOTED = 4;
const TEMPLATE = 5;
const REGEX = 6;
const REGEX_CLASS = 7;

/** The kinds of open brackets. */
const PAREN = 0;
/** `(` after `if`, `while`, `for`, `with`: a `/` after its `)` opens a regular expression. */
const CONDITION_PAREN = 1;
const BLOCK = 2;
const OBJECT = 3;
/** `${` in a template literal: its `}` goes back into the template. */
const SUBSTITUTION = 4;

/** After these words an expression starts: a `/` opens a regular expression, a `{` an object literal. */
const EXPRESSION_KEYWORDS = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await', 'extends']);
/** After these words a `{` opens a block. */
const BLOCK_KEYWORDS = new Set(['do', 'else', 'try', 'finally']);
const CONDITION_KEYWORDS = new Set(['if', 'while', 'for', 'with']);
/** Words longer than this are none of the keywords above. */
const MAX_KEYWORD = 10;

/** Identifier characters (ASCII letters, digits, `_`, `$`, and every non-ASCII byte of the latin1 text). */
const IDENTIFIER = new Uint8Array(256);
for (let c = 0; c < 256; c++) IDENTIFIER[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 128 ? 1 : 0;

/** Embeddings and overrides (U+202A, 202B, 202D, 202E), closed by U+202C; isolates (U+2066–2068), closed by U+2069. */
const EMBEDDING = 1;
const ISOLATE = 2;
/** Unicode's bidirectional algorithm nests 125 levels at most: text that opens more is read as left open. */
const MAX_BIDI_DEPTH = 125;

/** Characters of a literal that show nothing reorderable: `\`, `-`, `|`, `[`, `]`, `^` (a character set's punctuation). */
const SET_PUNCTUATION = new Uint8Array(128);
for (const c of '\\-|[]^') SET_PUNCTUATION[c.charCodeAt(0)] = 1;
/** Hexadecimal digits, for `\uXXXX`, `\u{…}` and `\xHH` escapes. */
const HEX = new Uint8Array(128);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
/** Where an escape of the current literal stands: none, just after `\u`, inside `\u{…}`; 1–4: hex digits still to come. */
const NO_ESCAPE = 0;
const U_START = -1;
const U_BRACE = -2;

/** What the last significant token was, for a `/` or a `{` after it. */
const OPERATOR = 0;
const OPERAND = 1;
/** An identifier: what follows depends on the word (`word`). */
const WORD = 2;
/** `)` or `}` whose opening decided (`afterClose`). */
const CLOSE = 3;

/** JavaScript text (one character a byte) without its comments, chunk by chunk. */
export class CommentSkipper {
  private state = CODE;
  /** A character held back from the end of the last chunk (`/`, `*`, `\`, `$`): it is read with the next one. */
  private held = '';
  private last = OPERATOR;
  /** For `last === CLOSE`: whether a `/` now opens a regular expression. */
  private closeOpensRegex = false;
  /**
   * The last word, when short enough to be a keyword ('' otherwise): read from `wordText` between
   * `wordFrom` and `wordTo` when asked (most words are never asked about).
   */
  private wordValue: string | null = '';
  private wordText = '';
  private wordFrom = 0;
  private wordTo = 0;
  /** The word being read when the last chunk ended (its characters so far, up to MAX_KEYWORD + 1). */
  private partial = '';
  private inWord = false;
  /** `+` or `-` seen twice in a row: `a++ / 2` divides. */
  private lastChar = 0;
  private readonly kinds = new Uint8Array(MAX_DEPTH);
  private depth = 0;
  /** Brackets opened past MAX_DEPTH, not yet closed. */
  private overflow = 0;
  /** A block comment that has held a line break so far (it then stands for one). */
  private commentBreaks = false;
  /**
   * Where the last chunk's code holds literals — strings, template literals' text, regular
   * expressions, delimiters included — as [start, end) pairs of offsets in what `code` returned
   * (a `${…}` substitution is code between two pairs).
   */
  literals: number[] = [];
  /**
   * Whether a bidirectional control so far reorders what a reader sees: one in code, or one left
   * open at the end of a literal, a comment or a line of either.
   */
  reordering = false;
  /** The bidirectional controls open in the current literal or comment (their kinds), and how many of them are isolates. */
  private readonly bidi = new Uint8Array(MAX_BIDI_DEPTH);
  private bidiDepth = 0;
  private bidiIsolates = 0;
  /** The current literal, so far: whether it shows a visible character, and whether a bidirectional control in it stands outside a regular expression's `[…]` (or in a comment). */
  private literalVisible = false;
  private bidiOutsideClass = false;
  /** A bidirectional control in the current comment: a comment is never a character set. */
  private bidiInComment = false;
  /** An escape being read in the current literal (NO_ESCAPE, U_START, U_BRACE or the hex digits still to come). */
  private escape = NO_ESCAPE;

  /** The code of the next chunk, comments left out (a block comment stands for a space or a line break); `last` when the file ends with it. */
  code(chunk: string, last = false): string {
    const text = this.held + chunk;
    this.held = '';
    let end = text.length;
    if (!last && end > 0) {
      const c = text.charCodeAt(end - 1);
      // `/`, `*`, `\` and `$` decide with the character after them.
      if (c === 47 || c === 42 || c === 92 || c === 36) {
        this.held = text[end - 1]!;
        end -= 1;
      } else if (c === 0xe2 || ((c === 0x80 || c === 0x81) && text.charCodeAt(end - 2) === 0xe2)) {
        // A bidirectional control's first bytes: it is read whole with the next chunk.
        const cut = c === 0xe2 ? 1 : 2;
        this.held = text.slice(end - cut);
        end -= cut;
      }
    }
    let out = '';
    let from = 0;
    let state = this.state;
    let i = 0;
    const literals: number[] = [];
    if (state >= SINGLE_QUOTED) literals.push(0);
    // A word that went on from the last chunk.
    let wordStart = this.inWord ? 0 : -1;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0xe2) this.bidiControl(text.charCodeAt(i + 1), text.charCodeAt(i + 2), state);
      if (state >= SINGLE_QUOTED && !this.literalVisible) this.seeInLiteral(text, i, c, state);
      switch (state) {
        case CODE: {
          if (IDENTIFIER[c] === 1) {
            if (wordStart < 0) wordStart = i;
            continue;
          }
          if (wordStart >= 0) {
            this.endWord(text, wordStart, i);
            wordStart = -1;
          }
          if (c === 32 || c === 9 || c === 10 || c === 13) continue;
          if (c === 47) {
            const next = text.charCodeAt(i + 1);
            if (next === 47 || next === 42) {
              out += text.slice(from, i);
              state = next === 47 ? LINE_COMMENT : BLOCK_COMMENT;
              this.commentBreaks = false;
              i += 1;
              continue;
            }
            if (this.regexAllowed()) {
              state = REGEX;
              literals.push(out.length + i - from);
              continue;
            }
            this.setOperator(c);
            continue;
          }
          if (c === 39 || c === 34 || c === 96) {
            state = c === 39 ? SINGLE_QUOTED : c === 34 ? DOUBLE_QUOTED : TEMPLATE;
            literals.push(out.length + i - from);
          } else if (c === 40) this.open(this.last === WORD && this.wordLength() <= 5 && CONDITION_KEYWORDS.has(this.word()) ? CONDITION_PAREN : PAREN);
          else if (c === 123) this.open(this.braceIsBlock() ? BLOCK : OBJECT);
          else if (c === 91) this.open(PAREN);
          else if (c === 41 || c === 93 || c === 125) {
            const kind = this.close();
            if (c === 125 && kind === SUBSTITUTION) {
              state = TEMPLATE;
              literals.push(out.length + i - from);
              continue;
            }
            this.last = CLOSE;
            this.closeOpensRegex = c !== 93 && (kind === CONDITION_PAREN || kind === BLOCK);
            this.lastChar = c;
          } else this.setOperator(c);
          continue;
        }
        case LINE_COMMENT:
          if (c === 10 || c === 13) {
            this.endBidi();
            state = CODE;
            from = i;
          }
          continue;
        case BLOCK_COMMENT:
          if (c === 42 && text.charCodeAt(i + 1) === 47) {
            this.endBidi();
            state = CODE;
            out += this.commentBreaks ? '\n' : ' ';
            i += 1;
            from = i + 1;
          } else if (c === 10 || c === 13) {
            this.commentBreaks = true;
            this.endBidi();
          }
          continue;
        case SINGLE_QUOTED:
        case DOUBLE_QUOTED:
          // An escaped character is skipped, but for the first byte of a non-ASCII one (a backslash before a bidirectional control is that control).
          if (c === 92) i += text.charCodeAt(i + 1) >= 0x80 ? 0 : 1;
          else if (c === (state === SINGLE_QUOTED ? 39 : 34) || c === 10 || c === 13) {
            this.endBidi();
            state = CODE;
            this.setOperand();
            literals.push(out.length + i - from + (c === 10 || c === 13 ? 0 : 1));
          }
          continue;
        case TEMPLATE:
          if (c === 92) i += text.charCodeAt(i + 1) >= 0x80 ? 0 : 1;
          else if (c === 10 || c === 13) this.endBidi();
          else if (c === 96) {
            this.endBidi();
            state = CODE;
            this.setOperand();
            literals.push(out.length + i - from + 1);
          } else if (c === 36 && text.charCodeAt(i + 1) === 123) {
            // A control left open before `${` reorders the substitution's code: the text is no character set.
            this.literalVisible = true;
            this.endBidi();
            literals.push(out.length + i - from);
            i += 1;
            this.open(SUBSTITUTION);
            this.last = OPERATOR;
            this.lastChar = 123;
            state = CODE;
          }
          continue;
        case REGEX:
        case REGEX_CLASS:
          if (c === 92) i += text.charCodeAt(i + 1) >= 0x80 ? 0 : 1;
          else if (c === 10 || c === 13) {
            this.endBidi();
            state = CODE;
            this.setOperand();
            literals.push(out.length + i - from);
          } else if (state === REGEX_CLASS) {
            if (c === 93) state = REGEX;
          } else if (c === 91) state = REGEX_CLASS;
          else if (c === 47) {
            this.endBidi();
            state = CODE;
            this.setOperand();
            literals.push(out.length + i - from + 1);
          }
          continue;
      }
    }
    // The file ends inside a literal or a comment: what it left open stays open.
    if (last) this.endBidi();
    if (state === CODE && wordStart >= 0) {
      // The word goes on in the next chunk: keep what it could still need.
      this.partial = (this.inWord && wordStart === 0 ? this.partial : '') + text.slice(wordStart, Math.min(end, wordStart + MAX_KEYWORD + 1));
      if (this.partial.length > MAX_KEYWORD + 1) this.partial = this.partial.slice(0, MAX_KEYWORD + 1);
      this.inWord = true;
    } else if (this.inWord && wordStart < 0) this.inWord = false;
    // The held character was read with the one before it (`//`, `*/`, an escape): it is not read again.
    if (i > end) {
      this.held = '';
      end = text.length;
    }
    this.state = state;
    this.literals = literals;
    // The last word is read now: no chunk's text is kept past its call.
    if (this.wordValue === null) this.word();
    if (state === LINE_COMMENT || state === BLOCK_COMMENT) return out;
    const result = out + text.slice(from, end);
    if (state >= SINGLE_QUOTED) literals.push(result.length);
    return result;
  }

  /** The bytes after a 0xE2 byte: a bidirectional control in code reorders it, one in a literal or a comment is counted until it is closed. */
  private bidiControl(b1: number, b2: number, state: number): void {
    let kind: number;
    if (b1 === 0x80 && b2 >= 0xaa && b2 <= 0xae) kind = b2 === 0xac ? -EMBEDDING : EMBEDDING;
    else if (b1 === 0x81 && b2 >= 0xa6 && b2 <= 0xa9) kind = b2 === 0xa9 ? -ISOLATE : ISOLATE;
    else return;
    if (state === LINE_COMMENT || state === BLOCK_COMMENT) this.bidiInComment = true;
    else if (state !== REGEX_CLASS) this.bidiOutsideClass = true;
    if (state === CODE) this.reordering = true;
    else if (kind > 0) {
      if (this.bidiDepth === MAX_BIDI_DEPTH) this.reordering = true;
      else {
        this.bidi[this.bidiDepth++] = kind;
        if (kind === ISOLATE) this.bidiIsolates += 1;
      }
    } else if (kind === -EMBEDDING) {
      // U+202C closes the innermost embedding or override, not past an isolate.
      if (this.bidiDepth > 0 && this.bidi[this.bidiDepth - 1] === EMBEDDING) this.bidiDepth -= 1;
    } else if (this.bidiIsolates > 0) {
      // U+2069 closes the innermost isolate and whatever was opened inside it.
      while (this.bidi[--this.bidiDepth] !== ISOLATE);
      this.bidiIsolates -= 1;
    }
  }

  /**
   * A literal, a comment or one of their lines ended: a bidirectional control it left open reorders
   * what follows, unless the literal is a character set (every control in a regular expression's
   * `[…]`, or nothing visible in it).
   */
  private endBidi(): void {
    if (this.bidiDepth > 0 && (this.bidiInComment || (this.bidiOutsideClass && this.literalVisible))) this.reordering = true;
    this.bidiDepth = 0;
    this.bidiIsolates = 0;
    this.literalVisible = false;
    this.bidiOutsideClass = false;
    this.bidiInComment = false;
    this.escape = NO_ESCAPE;
  }

  /** A character of a literal that has shown nothing visible so far: is it visible (not a control, an escape or a character set's punctuation)? */
  private seeInLiteral(text: string, i: number, c: number, state: number): void {
    if (this.escape !== NO_ESCAPE) {
      const hex = c < 128 && HEX[c] === 1;
      if (this.escape === U_START) {
        if (c === 123) {
          this.escape = U_BRACE;
          return;
        }
        if (hex) {
          this.escape = 3;
          return;
        }
      } else if (this.escape === U_BRACE) {
        if (hex) return;
        if (c === 125) {
          this.escape = NO_ESCAPE;
          return;
        }
      } else if (hex) {
        this.escape -= 1;
        return;
      }
      this.escape = NO_ESCAPE;
    }
    if (c === 92) {
      // The escaped character is skipped by the reader; `\u` and `\x` go on with hex digits.
      const next = text.charCodeAt(i + 1);
      if (next === 117) this.escape = U_START;
      else if (next === 120) this.escape = 2;
      return;
    }
    if (c < 128) {
      if (SET_PUNCTUATION[c] === 1 || c === 10 || c === 13) return;
      // The literal's own delimiter (its end), and `${` ending a template literal's text.
      if (state === SINGLE_QUOTED ? c === 39 : state === DOUBLE_QUOTED ? c === 34 : state === TEMPLATE ? c === 96 || (c === 36 && text.charCodeAt(i + 1) === 123) : c === 47) return;
      this.literalVisible = true;
      return;
    }
    // UTF-8 read a byte a character: continuation bytes belong to the character their lead byte decided.
    if (c < 0xc0) return;
    if (c === 0xe2) {
      const b1 = text.charCodeAt(i + 1);
      const b2 = text.charCodeAt(i + 2);
      // Bidirectional controls (U+202A–202E, U+2066–2069), zero-width characters and marks (U+200B–200F), U+2060–2064.
      if (b1 === 0x80 && ((b2 >= 0xaa && b2 <= 0xae) || (b2 >= 0x8b && b2 <= 0x8f))) return;
      if (b1 === 0x81 && ((b2 >= 0xa6 && b2 <= 0xa9) || (b2 >= 0xa0 && b2 <= 0xa4))) return;
    }
    this.literalVisible = true;
  }

  private word(): string {
    if (this.wordValue === null) {
      this.wordValue = this.wordText.slice(this.wordFrom, this.wordTo);
      this.wordText = '';
    }
    return this.wordValue;
  }

  private wordLength(): number {
    return this.wordValue === null ? this.wordTo - this.wordFrom : this.wordValue.length;
  }

  private endWord(text: string, start: number, end: number): void {
    const head = this.inWord && start === 0 ? this.partial : '';
    this.inWord = false;
    this.partial = '';
    // A property's name (`o.else / 2`) is no keyword.
    const property = this.last === OPERATOR && this.lastChar === 46;
    this.last = WORD;
    this.lastChar = 97;
    if (property || head.length + end - start > MAX_KEYWORD) this.wordValue = '';
    else if (head !== '') this.wordValue = head + text.slice(start, end);
    else {
      this.wordValue = null;
      this.wordText = text;
      this.wordFrom = start;
      this.wordTo = end;
    }
  }

  private setOperator(c: number): void {
    // `a++ / b`: the second `+` of an increment ends an operand.
    this.last = (c === 43 || c === 45) && this.lastChar === c && this.last === OPERATOR ? OPERAND : OPERATOR;
    this.lastChar = this.last === OPERAND ? 0 : c;
  }

  private setOperand(): void {
    this.last = OPERAND;
    this.lastChar = 0;
  }

  private regexAllowed(): boolean {
    switch (this.last) {
      case OPERATOR:
        return true;
      case WORD:
        return EXPRESSION_KEYWORDS.has(this.word());
      case CLOSE:
        return this.closeOpensRegex;
      default:
        return false;
    }
  }

  /** A `{` after a statement's end, a `)`, an arrow or a word other than an expression's keyword opens a block. */
  private braceIsBlock(): boolean {
    if (this.last === WORD) return BLOCK_KEYWORDS.has(this.word()) || !EXPRESSION_KEYWORDS.has(this.word());
    if (this.last === CLOSE) return true;
    if (this.last === OPERAND) return false;
    const c = this.lastChar;
    // start of text, `;`, `{`, `=>`.
    return c === 0 || c === 59 || c === 123 || c === 62;
  }

  private open(kind: number): void {
    if (this.depth < MAX_DEPTH) this.kinds[this.depth++] = kind;
    else this.overflow += 1;
    this.last = OPERATOR;
    this.lastChar = kind === BLOCK || kind === OBJECT ? 123 : 40;
  }

  private close(): number {
    if (this.overflow > 0) {
      this.overflow -= 1;
      return PAREN;
    }
    return this.depth > 0 ? this.kinds[--this.depth]! : PAREN;
  }
}
