/**
 * JavaScript without its comments, chunk by chunk (src/checks/lib/js-comments.ts): the texts are
 * synthetic, written for each case; the real fixtures are read whole and in small chunks alike.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CommentSkipper, MAX_DEPTH } from '../../src/checks/lib/js-comments.js';

function code(text: string, size = Math.max(1, text.length)) {
  const skipper = new CommentSkipper();
  let out = '';
  for (let at = 0; at < text.length; at += size) out += skipper.code(text.slice(at, at + size));
  return out + skipper.code('', true);
}

/** The same code whatever the chunk size, down to one character. */
function everyChunking(text: string) {
  const whole = code(text);
  for (const size of [1, 2, 3, 7]) expect(code(text, size), `chunks of ${size}`).toBe(whole);
  return whole;
}

describe('comments are left out, the code kept', () => {
  test.each([
    ['a line comment', 'a = 1; // note\nb = 2;', 'a = 1; \nb = 2;'],
    ['a block comment stands for a space', 'a = b /* note */ + c;', 'a = b   + c;'],
    ['a block comment over lines stands for a line break', 'a = b\n/* one\ntwo */c', 'a = b\n\nc'],
    ['comment openers inside strings', `s = '//a'; t = "/*b*/"; u = 'it\\'s // c';`, `s = '//a'; t = "/*b*/"; u = 'it\\'s // c';`],
    ['a template with substitutions nested in it', 'u = `a//${ b /* c */ + `x//${d}` }//e`; // f', 'u = `a//${ b   + `x//${d}` }//e`; '],
    ['a regular expression after `=`', 'r = /[/*]/g; // x', 'r = /[/*]/g; '],
    ['an escaped slash in a regular expression', 'r = /a\\/*b/; x()', 'r = /a\\/*b/; x()'],
    ['a regular expression after `return`', 'function f(){return /\\/*/.test(s)} // x', 'function f(){return /\\/*/.test(s)} '],
    ['a regular expression after an `if` condition', 'if (x) /[/*]/.test(y); go(); /* gone */', 'if (x) /[/*]/.test(y); go();  '],
    ['a regular expression after a block', 'function f(){} /x*/.exec(q) // r', 'function f(){} /x*/.exec(q) '],
    ['a division after a call', 'a = f(x) / 2 // half', 'a = f(x) / 2 '],
    ['a division after an object literal', 'v = {a:1} / 2; // NaN', 'v = {a:1} / 2; '],
    ['a division after an increment', 'a++ / 2 /* c */ ; b', 'a++ / 2   ; b'],
    ['a division after a property named like a keyword', 'x = o.else / e; // y', 'x = o.else / e; '],
    ['a division after a string', 'x = "a" / 2 // y', 'x = "a" / 2 '],
    ['an unterminated block comment', 'a(); /* to the end', 'a(); '],
    ['an unterminated string ends with its line', "s = 'abc\n// gone", "s = 'abc\n"],
    ['an unterminated template', '`abc ${ x /* c */ ', '`abc ${ x   '],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(text)).toBe(expected);
  });

  test('brackets nested past the kept depth are counted, and read as parentheses', () => {
    // Synthetic: a block closed past MAX_DEPTH reads as a parenthesis (a `/` after it divides), inside it too.
    const deep = `${'('.repeat(MAX_DEPTH + 5)}x${')'.repeat(MAX_DEPTH + 5)}`;
    expect(everyChunking(`${deep}; r = /[/*]/; // c`)).toBe(`${deep}; r = /[/*]/; `);
  });
});

describe('where the literals are', () => {
  test('strings, template text and regular expressions, not comments or substitutions', () => {
    const skipper = new CommentSkipper();
    const out = skipper.code('a = "x" /* c */ + `t${b}u` + /r/g; // d', true);
    const pairs = skipper.literals;
    const literals = Array.from({ length: pairs.length / 2 }, (_, k) => out.slice(pairs[2 * k], pairs[2 * k + 1]));
    expect(literals).toEqual(['"x"', '`t', '}u`', '/r/']);
  });

  test('a literal open across chunks is a pair in each', () => {
    const skipper = new CommentSkipper();
    const first = skipper.code('x = "abc');
    expect([first.slice(skipper.literals[0], skipper.literals[1]), skipper.literals.length]).toEqual(['"abc', 2]);
    const second = skipper.code('def"; y', true);
    expect([second.slice(skipper.literals[0], skipper.literals[1]), skipper.literals.length]).toEqual(['def"', 2]);
  });
});

describe('real files read whole and in small chunks alike', () => {
  test.each(['obfuscated-code/de4js/main.js', 'obfuscated-code/js-beautify/p_a_c_k_e_r_unpacker.js', 'install-code/guarddog/npm-obfuscation.js'])('%s', (path) => {
    const text = readFileSync(new URL(`../../fixtures/${path}`, import.meta.url)).toString('latin1');
    const whole = code(text);
    for (const size of [65536, 1000, 7]) expect(code(text, size)).toBe(whole);
    expect(whole.length).toBeLessThan(text.length);
  });
});

describe('bidirectional controls that reorder the code (`reordering`)', () => {
  // Synthetic: UTF-8 read one character a byte, as the tarball streams; chunks cut through every character.
  const bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  const reordering = (text: string, size: number) => {
    const skipper = new CommentSkipper();
    for (let at = 0; at < text.length; at += size) skipper.code(text.slice(at, at + size));
    skipper.code('', true);
    return skipper.reordering;
  };
  test.each([
    ['an override left open in a string', "a = 'x\u202e'; b();", true],
    ['an isolate left open in a line comment', 'a(); // \u2067x\nb();', true],
    ['a control in code', 'a = 1\u2066;', true],
    ['closed in a string', "a = '\u202bx\u202c \u2067y\u2069';", false],
    ['other characters of the same lead byte (arrows, dashes, U+2028)', "a = '\u2192 \u2014 \u2028'; // \u2190", false],
  ])('%s', (_name, text, expected) => {
    for (const size of [text.length, 1, 2, 3, 7]) expect(reordering(bytes(text), size), `chunks of ${size}`).toBe(expected);
  });

  test('a chunk cut inside a character keeps the code whole', () => {
    // The first bytes of a three-byte character are held for the next chunk, in code, strings and comments alike.
    const text = bytes("const \u2192x = '\u2014\u202ea\u202c' + `\u2066${y}\u2069`; /* \u2190 */ f(\u2192x) // \u2014\n");
    expect(everyChunking(text)).toBe(bytes("const \u2192x = '\u2014\u202ea\u202c' + `\u2066${y}\u2069`;   f(\u2192x) \n"));
  });
});
