/**
 * The shapes of obfuscated JavaScript, read from a file's text chunk by chunk (docs/checks.md,
 * `obfuscated-code`): each a named signature, none of which hand-written, minified or bundled
 * code has (0 of 31,205 JavaScript files in 484 popular npm packages carries any).
 *
 * Streaming: a reader keeps a few hundred characters between chunks (a marker cut in two is read
 * whole) and a handful of counters, never the file's text. Every marker is of bounded length and
 * the runs are counted in one pass, so the time is linear in the text (the hostile suite's
 * linear-time tests).
 */
import { OBFUSCATION_SIGNATURES, type ObfuscationSignature } from '../../evidence/schema.js';
import { DecodedEvalScan } from './decoded-eval.js';
import { CommentSkipper } from './js-comments.js';
import { distinctObfuscatorNames, MIN_OBFUSCATED_FILE_NAMES } from './js-code.js';

/** Dean Edwards' packer: the packed payload unpacks itself through `eval(function(p,a,c,k,e,r|d)`. */
const PACKER = /(?<![\w$.'"`\\])eval\s{0,8}\(\s{0,8}function\s{0,8}\(\s{0,8}p\s{0,8},\s{0,8}a\s{0,8},\s{0,8}c\s{0,8},\s{0,8}k\s{0,8},\s{0,8}e\s{0,8},\s{0,8}[rd]\s{0,8}\)/g;
/**
 * jjencode's opening: `$=~[];$={___:++$,$$$$:(![]+"")[$]` (any variable name for `$`). The
 * patterns start from a literal (`=~[];`, `=`) and look behind for the name: a pattern that
 * starts with the name is tried at every character of the text.
 */
const JJENCODE = /=~\[\];(?<=(?<![\w$'"`])([\w$]{1,16})=~\[\];)\1=\{___:\+\+\1,\$\$\$\$:\(!\[\]\+""\)\[\1\]/g;
/** aaencode's opening, as the UTF-8 bytes read one character a byte (the chunks are read as latin1). */
const AAENCODE = Buffer.from('ﾟωﾟﾉ= /｀ｍ´）ﾉ ~┻━┻', 'utf8').toString('latin1');
/**
 * javascript-obfuscator's string array, whatever its identifiers are named: the rotation that
 * shuffles it (`e['push'](e['shift']())`), the getter that replaces itself
 * (`a=function(){return D;};return a();`) and the decoder that offsets its index by a hex constant
 * (`function b(c,d){c=c-0x110;`). Two of the three make the signature.
 */
const ROTATION = /\[\s{0,8}(['"])push\1\s{0,8}\]\s{0,8}\(\s{0,8}[\w$]{1,16}\s{0,8}\[\s{0,8}(['"])shift\2\s{0,8}\]\s{0,8}\(\s{0,8}\)\s{0,8}\)/g;
const SELF_REPLACING_GETTER =
  /=(?<=(?<![\w$.])([\w$]{1,16})\s{0,8}=)\s{0,8}function\s{0,8}\(\s{0,8}\)\s{0,8}\{\s{0,8}return\s{1,8}[\w$]{1,16}\s{0,8};?\s{0,8}\}\s{0,8};?\s{0,8}return\s{1,8}\1\s{0,8}\(\s{0,8}\)/g;
const OFFSET_DECODER =
  /(?<![\w$.])function\s{1,8}[\w$]{1,16}\s{0,8}\(\s{0,8}([\w$]{1,16})\s{0,8},\s{0,8}[\w$]{1,16}\s{0,8}\)\s{0,8}\{\s{0,8}\1\s{0,8}=\s{0,8}\1\s{0,8}-\s{0,8}\(?\s{0,8}-?\s{0,8}0x[0-9a-fA-F]{1,8}/g;
/**
 * `require` stored under a short name on the global object (`global['r']=require`), so that the
 * payload's later `r('child_process')` names no module a reader or a scanner looks for (the
 * react-native-aria compromise of 2025, in GuardDog's sample).
 */
const REQUIRE_ALIAS = /(?<![\w$.])(?:global|globalThis)\s{0,8}\[\s{0,8}(['"`])[\w$]{1,6}\1\s{0,8}\]\s{0,8}=\s{0,8}require(?=[^\w$])/g;
/** Characters carried from one chunk to the next: more than the longest marker above (names of up to 16 characters keep each under 300). */
const CARRY = 512;
/** How far before its start a marker looks (its lookbehinds: a name of up to 16 characters and blanks). */
const CONTEXT = 64;
/** Characters at a text's end that the run counter leaves to the next chunk (an escape `\xHH` is four). */
const LOOKAHEAD = 3;

/** A run of JSFuck's six characters `[]()!+` this long, holding `[`, `]`, `!` and `+` (popular code: 4 at most). */
export const JSFUCK_RUN = 200;
/**
 * `\xHH` escapes of printable ASCII in one file: text written so as not to be read (popular code: 51 at most).
 * Counted in runs of escapes that read as text: an obfuscator escapes text (its blanks, tabs and
 * line ends too), while binary data written as escapes (zlib 1.0.5's compressed test vectors)
 * is mostly bytes no text holds. A run counts while at most a quarter of its escapes are such
 * bytes, so a few spread through escaped code do not hide it.
 */
export const PRINTABLE_ESCAPES = 128;
/** Blanks (spaces, tabs) between two statements of a line, pushing the second past the edge of the screen (popular code: 96 blanks before anything at most). */
export const HIDING_BLANKS = 400;
/**
 * Consecutive invisible code points outside comments (invisibleCodePoint): a payload hidden one
 * byte a character, as GlassWorm (variation selectors) and os-info-checker-es6 (Private Use
 * Area) did in 2025. Real text puts them between visible characters: an emoji's U+FE0F, a ZWJ
 * sequence, a subdivision flag's tags (7 at most); emoji and i18n data packages hold 6 in a row
 * at most. Raw characters only: `\uFE0F` is no invisible character. A Private Use Area character
 * one above the one before it neither counts nor breaks the run: code page tables (codepage,
 * xlsx) map unassigned rows to runs of up to 127 such characters in order, a payload's bytes are
 * in no order.
 */
export const INVISIBLE_RUN = 16;
/**
 * Variation selectors and tag characters of a payload's kinds (payloadCodePoint) in one line
 * outside comments, whatever stands between them: GlassWorm's payload spread one selector after
 * each visible letter of a harmless-looking string, or cut into short runs. Real text uses them
 * one at a time, on a base that takes them — an emoji's U+FE0E/FE0F, an ideograph's variation
 * selector, a black flag's tag sequence — none of which counts (docs/security.md: no line of
 * the 23,361 JavaScript files of the 150 emoji, i18n, RTL, code page and icon packages measured
 * holds one that counts; html-entities' table of mathematical symbols holds 20 selectors a
 * line, each the first after its symbol).
 */
export const INVISIBLE_PAYLOAD = 16;
/**
 * Private Use Area characters in one line outside comments, each not one above the one before
 * it: os-info-checker-es6's payload spread between visible letters. Code page tables put them
 * between visible characters too, for the bytes a code page leaves to its vendor (iconv-lite's
 * single-byte tables: 19 in a line), and icon fonts' glyphs are written one at a time: the bar
 * is higher than for selectors. A character that is a string of its own — alone between two
 * quotes, or with the ones above it in order — does not count: an icon's glyph, or the first
 * character of a row of iconv-lite's double-byte tables (`["a140","\ue4c6",62]`), which a
 * bundle puts on one line by the dozen (next's compiled raw-body: 67 in one line, 11 others).
 */
export const PRIVATE_USE_PAYLOAD = 64;

/**
 * Code points no editor or diff shows: variation selectors (U+FE00–FE0F, U+E0100–E01EF), tag
 * characters (U+E0000–E007F), the Private Use Areas (U+E000–F8FF, planes 15 and 16), zero-width
 * and invisible format characters (U+200B–200D, U+2060–2064, U+FEFF) and the Hangul fillers
 * (U+3164, U+FFA0).
 */
const invisibleCodePoint = (cp: number): boolean =>
  (cp >= 0xe000 && cp <= 0xf8ff) ||
  (cp >= 0xfe00 && cp <= 0xfe0f) ||
  (cp >= 0xe0000 && cp <= 0xe01ef && (cp <= 0xe007f || cp >= 0xe0100)) ||
  cp >= 0xf0000 ||
  (cp >= 0x200b && cp <= 0x200d) ||
  (cp >= 0x2060 && cp <= 0x2064) ||
  cp === 0xfeff ||
  cp === 0x3164 ||
  cp === 0xffa0;

/** What came before a code point, for whether a selector or a tag character after it is text or payload. */
const BEFORE_ASCII = 0;
/** A visible character outside ASCII (Latin, Arabic, a symbol…): one selector U+FE00–FE0D may follow it (a standardized variation sequence). */
const BEFORE_VISIBLE = 1;
/** A CJK ideograph: one selector may follow it (an ideographic variation sequence, U+E0100–E01EF). */
const BEFORE_IDEOGRAPH = 2;
const BEFORE_INVISIBLE = 3;
/**
 * U+1F3F4 (black flag), then BEFORE_FLAG + n after n tag characters: tags spell a subdivision
 * flag (🏴 + gbeng + cancel tag), FLAG_TAGS of them at most (a subdivision code's six and the
 * cancel tag); more are no flag's.
 */
const BEFORE_FLAG = 4;
const FLAG_TAGS = 7;
const inFlag = (before: number): boolean => before >= BEFORE_FLAG && before < BEFORE_FLAG + FLAG_TAGS;

const ideograph = (cp: number): boolean => (cp >= 0x3400 && cp <= 0x9fff) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x20000 && cp <= 0x3ffff);

/**
 * Whether an invisible code point, after what came before it, is of a payload's kinds: a
 * variation selector other than the emoji presentation selectors U+FE0E/FE0F, unless it is the
 * first after a base that takes it; a tag character outside a black flag's tag sequence (the
 * Private Use Area is counted apart, PRIVATE_USE_PAYLOAD). Zero-width characters never count (Persian text's ZWNJ, emoji ZWJ
 * sequences), nor do U+FE0E/FE0F (an emoji's presentation, a keycap after a digit).
 */
const payloadCodePoint = (cp: number, before: number): boolean => {
  if (cp >= 0xfe00 && cp <= 0xfe0d) return before !== BEFORE_VISIBLE && before !== BEFORE_IDEOGRAPH;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return before !== BEFORE_IDEOGRAPH;
  return cp >= 0xe0000 && cp <= 0xe007f && !inFlag(before);
};

const privateUse = (cp: number): boolean => (cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000;

/** A UTF-8 continuation byte's payload (its six low bits), or -1 when the byte is none. */
const continuation = (c: number): number => (c >= 0x80 && c <= 0xbf ? c & 0x3f : -1);

const BRACKET_OPEN = 1;
const BRACKET_CLOSE = 2;
const BANG = 4;
const PLUS = 8;
const JSFUCK_KINDS = BRACKET_OPEN | BRACKET_CLOSE | BANG | PLUS;

/** The JSFuck character kinds by character code (`(` and `)` count without a kind of their own). */
const SYMBOL_KINDS = new Uint8Array(128);
SYMBOL_KINDS[91] = BRACKET_OPEN;
SYMBOL_KINDS[93] = BRACKET_CLOSE;
SYMBOL_KINDS[33] = BANG;
SYMBOL_KINDS[43] = PLUS;
SYMBOL_KINDS[40] = 16;
SYMBOL_KINDS[41] = 16;

/** `;`, `}` or `)`: what a statement ends with. */
const endsStatement = (c: number): boolean => c === 59 || c === 125 || c === 41;
/** A letter, `_`, `$`, `(`, `[`, `{`, `!`, `~`, `+`, `-`: what a statement can start with. */
const startsStatement = (c: number): boolean =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c === 40 || c === 91 || c === 123 || c === 33 || c === 126 || c === 43 || c === 45;

const hexValue = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);

/** One file's text, read chunk by chunk for the signatures of obfuscation. */
export class ObfuscationReader {
  private readonly names = new Set<string>();
  private readonly found = new Set<ObfuscationSignature>();
  /** Comments are prose: a sample quoted in one, or a licence banner, is not the file's code. */
  private readonly comments = new CommentSkipper();
  private readonly decodedEval = new DecodedEvalScan();
  private readonly stringArray = new Set<RegExp>();
  private carry = '';
  /** Whether text came before the carry: a marker at its first character was read whole last time. */
  private cut = false;
  /** Characters at the end of the carry the run counter has not read yet. */
  private unread = 0;
  private symbolRun = 0;
  private symbolKinds = 0;
  private printableEscapes = 0;
  /** The printable escapes of the current run of `\xHH` escapes, and those of bytes no text holds (not printable, no blank). */
  private runPrintable = 0;
  private runOther = 0;
  private blanks = 0;
  /** The character before the current run of blanks. */
  private beforeBlanks = 10;
  private invisibleRun = 0;
  /** Payload code points in the current line (payloadCodePoint), and what came before the last character (BEFORE_…). */
  private payload = 0;
  private before = BEFORE_ASCII;
  /** Private Use Area characters counted in the current line, and the last character's code point when it was one (0 otherwise). */
  private privateUsePayload = 0;
  private lastPrivateUse = 0;
  /** The quote just before the last Private Use Area character counted, while it may yet be a string of its own (0 otherwise). */
  private loneQuote = 0;
  /** Characters the run counter has read: a byte order mark at the file's first is no invisible character. */
  private counted = 0;

  /** The next chunk of the file's text (one character a byte); `last` when the file ends with it. */
  read(chunk: string, last = false): void {
    const code = this.comments.code(chunk, last);
    if (this.comments.reordering) this.found.add('trojan-source');
    this.decodedEval.read(code, this.comments.literals, last);
    if (this.decodedEval.runsDecoded()) this.found.add('decoded-eval');
    const text = this.carry + code;
    if (this.names.size < MIN_OBFUSCATED_FILE_NAMES) distinctObfuscatorNames(text, this.names, !last);
    if (this.names.size >= MIN_OBFUSCATED_FILE_NAMES) this.found.add('obfuscator-names');
    // A marker ends with a character it needs to see (`require` must not go on as `requireX`):
    // at the file's end a newline stands for what follows.
    this.markers(last ? `${text}\n` : text, this.cut);
    this.runs(text, this.carry.length - this.unread, last ? text.length : text.length - LOOKAHEAD, last);
    this.cut = text.length > CARRY;
    this.carry = text.slice(-CARRY);
  }

  /** The signatures found, in a fixed order. */
  signatures(): ObfuscationSignature[] {
    // A run of invisible characters is a payload in one line too: named once, as the run.
    return OBFUSCATION_SIGNATURES.filter((s) => this.found.has(s) && !(s === 'invisible-payload' && this.found.has('invisible-code')));
  }

  /** How many distinct `_0x…` names were seen (counted up to MIN_OBFUSCATED_FILE_NAMES). */
  nameCount(): number {
    return this.names.size;
  }

  private markers(text: string, cut: boolean): void {
    // A match that starts in the first CONTEXT characters of a cut carry was read whole, with
    // what comes before it, last time: read again without that, a lookbehind would pass that
    // failed then.
    const from = cut ? CONTEXT : 0;
    const matches = (re: RegExp): boolean => {
      re.lastIndex = from;
      return re.exec(text) !== null;
    };
    if (!this.found.has('packer') && matches(PACKER)) this.found.add('packer');
    if (!this.found.has('jjencode') && matches(JJENCODE)) this.found.add('jjencode');
    if (!this.found.has('aaencode') && text.includes(AAENCODE, from)) this.found.add('aaencode');
    if (!this.found.has('require-alias') && matches(REQUIRE_ALIAS)) this.found.add('require-alias');
    if (!this.found.has('string-array')) {
      for (const re of [ROTATION, SELF_REPLACING_GETTER, OFFSET_DECODER]) if (!this.stringArray.has(re) && matches(re)) this.stringArray.add(re);
      if (this.stringArray.size >= 2) this.found.add('string-array');
    }
  }

  /** The runs and counts, over text[from, to): each character once across the chunks. */
  private runs(text: string, from: number, to: number, last: boolean): void {
    // The counters in locals for the loop (one pass over every character of the package's JavaScript).
    let { symbolRun, symbolKinds, blanks, beforeBlanks, printableEscapes, runPrintable, runOther, invisibleRun, payload, before, privateUsePayload, lastPrivateUse, loneQuote } = this;
    // A Private Use Area character after a quote counts once what follows it is not that quote (nor the next one above it).
    const countPrivateUse = (): void => {
      if (++privateUsePayload >= PRIVATE_USE_PAYLOAD) this.found.add('invisible-payload');
    };
    // A run of escapes ended: its printable escapes count when it reads as text (a quarter of bytes no text holds at most).
    const endRun = (): void => {
      if (runPrintable > 0 && runOther * 3 <= runPrintable && (printableEscapes += runPrintable) >= PRINTABLE_ESCAPES) this.found.add('hex-escapes');
      runPrintable = 0;
      runOther = 0;
    };
    let i = from;
    for (; i < to; i++) {
      const c = text.charCodeAt(i);
      if (loneQuote !== 0 && (c < 0xe0 || c > 0xf4)) {
        if (c !== loneQuote) countPrivateUse();
        loneQuote = 0;
      }
      if (c < 0x80) {
        before = BEFORE_ASCII;
        lastPrivateUse = 0;
        if (c === 10 || c === 13) {
          payload = 0;
          privateUsePayload = 0;
        }
      } else if (c >= 0xc2 && c <= 0xdf) {
        before = BEFORE_VISIBLE;
        lastPrivateUse = 0;
      }
      if (c !== 92 && (runPrintable > 0 || runOther > 0)) endRun();
      if (c === 32 || c === 9) {
        // The text holds the characters before i (the carry), but at the file's start.
        if (blanks === 0) beforeBlanks = i > 0 ? text.charCodeAt(i - 1) : 10;
        blanks += 1;
        symbolRun = 0;
        symbolKinds = 0;
        invisibleRun = 0;
        continue;
      }
      // A statement ended, blanks, and another statement on the same line: the second is off screen.
      if (blanks !== 0) {
        if (blanks >= HIDING_BLANKS && endsStatement(beforeBlanks) && startsStatement(c)) this.found.add('hidden-by-blanks');
        blanks = 0;
      }
      // A UTF-8 sequence of three or four bytes (the text is read one character a byte): an invisible code point continues the run.
      if (c >= 0xe0 && c <= 0xf4) {
        const b1 = continuation(text.charCodeAt(i + 1));
        const b2 = continuation(text.charCodeAt(i + 2));
        const four = c >= 0xf0;
        const b3 = four ? continuation(text.charCodeAt(i + 3)) : 0;
        if (b1 >= 0 && b2 >= 0 && b3 >= 0) {
          const cp = four ? ((c & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3 : ((c & 0x0f) << 12) | (b1 << 6) | b2;
          if (invisibleCodePoint(cp) && !(cp === 0xfeff && this.counted === 0 && i === from)) {
            const vendor = privateUse(cp);
            // One above the last: a code page table's row in order, which neither counts nor breaks the run.
            if (!(vendor && cp === lastPrivateUse + 1)) {
              if (loneQuote !== 0) {
                countPrivateUse();
                loneQuote = 0;
              }
              if (++invisibleRun >= INVISIBLE_RUN) this.found.add('invisible-code');
              if (vendor) {
                const quote = i > 0 ? text.charCodeAt(i - 1) : 0;
                if (quote === 34 || quote === 39 || quote === 96) loneQuote = quote;
                else countPrivateUse();
              } else if (payloadCodePoint(cp, before) && ++payload >= INVISIBLE_PAYLOAD) this.found.add('invisible-payload');
            }
            lastPrivateUse = vendor ? cp : 0;
            // A flag's tags go on until its cancel tag (U+E007F), FLAG_TAGS at most.
            before = inFlag(before) && cp >= 0xe0020 && cp <= 0xe007e && before + 1 < BEFORE_FLAG + FLAG_TAGS ? before + 1 : BEFORE_INVISIBLE;
            symbolRun = 0;
            symbolKinds = 0;
            i += four ? 3 : 2;
            continue;
          }
          if (loneQuote !== 0) {
            countPrivateUse();
            loneQuote = 0;
          }
          before = ideograph(cp) ? BEFORE_IDEOGRAPH : cp === 0x1f3f4 ? BEFORE_FLAG : BEFORE_VISIBLE;
          lastPrivateUse = 0;
        }
      }
      invisibleRun = 0;
      const kind = c < 128 ? (SYMBOL_KINDS[c] ?? 0) : 0;
      if (kind !== 0) {
        symbolRun += 1;
        symbolKinds |= kind;
        if (symbolRun >= JSFUCK_RUN && (symbolKinds & JSFUCK_KINDS) === JSFUCK_KINDS) this.found.add('jsfuck');
        continue;
      }
      symbolRun = 0;
      symbolKinds = 0;
      if (c === 92) {
        // `\xHH`: one escape; any other backslash escapes the character after it (`\\x41` is no escape).
        const high = hexValue(text.charCodeAt(i + 2));
        const low = hexValue(text.charCodeAt(i + 3));
        if (text.charCodeAt(i + 1) === 120 && high >= 0 && low >= 0) {
          const value = high * 16 + low;
          if (value >= 0x20 && value < 0x7f) runPrintable += 1;
          // Blanks and line ends (JavaScript's white space: tab to carriage return, no-break space) are text too.
          else if (!((value >= 0x09 && value <= 0x0d) || value === 0xa0)) runOther += 1;
          i += 3;
        } else {
          endRun();
          i += 1;
        }
      }
    }
    if (last) {
      endRun();
      // A string left open at the file's end: the character after the quote counts.
      if (loneQuote !== 0) countPrivateUse();
      loneQuote = 0;
    }
    this.runPrintable = runPrintable;
    this.runOther = runOther;
    this.symbolRun = symbolRun;
    this.symbolKinds = symbolKinds;
    this.blanks = blanks;
    this.beforeBlanks = beforeBlanks;
    this.printableEscapes = printableEscapes;
    this.invisibleRun = invisibleRun;
    this.payload = payload;
    this.before = before;
    this.privateUsePayload = privateUsePayload;
    this.lastPrivateUse = lastPrivateUse;
    this.loneQuote = loneQuote;
    this.counted += Math.max(0, i - from);
    this.unread = Math.max(0, text.length - i);
  }
}
