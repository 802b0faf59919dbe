/**
 * The signatures of obfuscated JavaScript (src/checks/lib/obfuscation-signatures.ts), read chunk
 * by chunk: on real obfuscated code (Dean Edwards' packer from js-beautify's tests, jjencode's
 * output from grunt-jjencode's, GuardDog's samples of real malicious npm packages), on the
 * output of the obfuscators themselves
 * (javascript-obfuscator with mangled names, JSFuck: generated, fixtures/PROVENANCE.md), on real
 * code that names the obfuscators without being obfuscated (js-beautify's unpacker, the de4js
 * deobfuscator, jjencode's encoder), and on synthetic edges written here (each said so).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { DECODED_NAMES, DECODED_NUMBERS, DECODED_STRING } from '../../src/checks/lib/decoded-eval.js';
import { HIDING_BLANKS, INVISIBLE_PAYLOAD, INVISIBLE_RUN, JSFUCK_RUN, ObfuscationReader, PRINTABLE_ESCAPES, PRIVATE_USE_PAYLOAD } from '../../src/checks/lib/obfuscation-signatures.js';

const fixture = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url)).toString('latin1');

/** The signatures of a text read in chunks of `size` characters (the whole text at once by default). */
function signatures(text: string, size = Math.max(1, text.length)) {
  const reader = new ObfuscationReader();
  for (let at = 0; at < text.length; at += size) reader.read(text.slice(at, at + size));
  reader.read('', true);
  return reader.signatures();
}

/** The same signatures whatever the chunk size: whole, 64 KiB (a tar stream's), 1,000, 7 and (short texts) 1 character. */
function everyChunking(text: string) {
  const sizes = [text.length, 65536, 1000, 7, ...(text.length < 5000 ? [1] : [])];
  const all = sizes.map((size) => signatures(text, size));
  for (const found of all.slice(1)) expect(found).toEqual(all[0]);
  return all[0];
}

describe('real and generated obfuscated code is found, whatever the chunks', () => {
  test.each([
    // The packed payload decodes itself inside eval: decoded-eval too.
    ['obfuscated-code/js-beautify/test-packer-62-input.js', ['packer', 'decoded-eval']],
    ['obfuscated-code/grunt-jjencode/custom_options.js', ['jjencode']],
    ['obfuscated-code/generated/javascript-obfuscator-mangled.js', ['string-array']],
    ['obfuscated-code/generated/javascript-obfuscator-mangled-no-rotation.js', ['string-array']],
    ['obfuscated-code/generated/javascript-obfuscator-mangled-escaped.js', ['string-array', 'hex-escapes']],
    ['obfuscated-code/generated/jsfuck.js', ['jsfuck']],
    ['install-code/guarddog/threat-runtime-obfuscation-js-mangling.js', ['obfuscator-names']],
    ['install-code/guarddog/threat-runtime-obfuscation-hidden-code.js', ['hidden-by-blanks', 'require-alias']],
    // Its samples: the string array's rotation and getter and a packed payload (its JSFuck sample is commented out: comments are not code).
    ['install-code/guarddog/npm-obfuscation.js', ['string-array', 'packer', 'decoded-eval']],
    // eval of a ROT decoder applied to a char-code array (24 numbers), eval(atob("…")) (20 characters).
    ['install-code/guarddog/threat-runtime-obfuscation-dynamic-eval.js', ['decoded-eval']],
    // eval(atob("…")) of 52 base64 characters.
    ['install-code/guarddog/npm-exec-base64.js', ['decoded-eval']],
    // Payloads one byte an invisible character (written for the tests after public reports of the 2025 attacks, fixtures/PROVENANCE.md):
    // GlassWorm's variation selectors run through Buffer.from (decoded-eval too), os-info-checker-es6's Private Use Area string.
    ['obfuscated-code/generated/glassworm-shape.js', ['invisible-code', 'decoded-eval']],
    ['obfuscated-code/generated/os-info-checker-es6-shape.js', ['invisible-code']],
  ])('%s: %j', (path, expected) => {
    expect(everyChunking(fixture(path))).toEqual(expected);
  });
});

describe('real code that names an obfuscator, and plain malicious code, is not obfuscated', () => {
  test.each([
    // Packed samples inside string literals ("eval(function(p,a,c,k,e,r)…").
    'obfuscated-code/js-beautify/p_a_c_k_e_r_unpacker.js',
    // jjencode's marker inside a string literal, JSFuck's characters inside a regular expression.
    'obfuscated-code/de4js/main.js',
    // jjencode's encoder, which writes its opening.
    'obfuscated-code/grunt-jjencode/jjencode.js',
    'install-code/guarddog/npm-exfiltrate-sensitive-data.js',
    // eval of a parameter, String.fromCharCode.apply on one, far from any eval.
    'install-code/guarddog/benign/threat-runtime-obfuscation-dynamic-eval.js',
    'install-code/guarddog/benign/threat-runtime-obfuscation-hidden-code.js',
    'install-code/guarddog/benign/threat-runtime-obfuscation.js',
    'install-code/benign/esbuild@0.28.2/install.js',
    // Compressed test vectors as `\xHH` escapes (zlib 1.0.5): binary data, not escaped text.
    'obfuscated-code/zlib/inflate.test.js',
    // Emoji data (gemoji 8.1.0): subdivision flags' tag sequences (6 invisible characters in a row), U+FE0F and ZWJ sequences.
    'obfuscated-code/gemoji/index-excerpt.js',
  ])('%s', (path) => {
    expect(everyChunking(fixture(path))).toEqual([]);
  });
});

// Synthetic from here: each text is written for the test, after the tools' documented output.
describe('packer', () => {
  const HEAD = "eval(function(p,a,c,k,e,r){e=String;if(!''.replace(/^/,String)){while(c--)r[c]=k[c]||c}return p}('0 1',2,2,'var|x'.split('|'),0,{}))";
  test.each([
    ['the packed form', HEAD, ['packer']],
    ['its `e,d` variant, spaced', 'eval( function (p, a, c, k, e, d) {return p}(1))', ['packer']],
    ['a packed sample inside a string literal', `var sample = "${HEAD}";`, []],
    ['another eval of a function expression', 'eval(function(a,b){return a+b}(1,2));', []],
    ['a method named eval', 'vm.eval(function(p,a,c,k,e,r){})', []],
    ['the packer’s parameters with a seventh', 'eval(function(p,a,c,k,e,r,s){})', []],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(text)).toEqual(expected);
  });
});

describe('JSFuck, jjencode, aaencode', () => {
  const jsfuckUnit = '(![]+[])[+!+[]]+';
  const jsfuck = jsfuckUnit.repeat(Math.ceil(JSFUCK_RUN / jsfuckUnit.length));
  test.each([
    ['a JSFuck run', `x=${jsfuck};`, ['jsfuck']],
    ['a JSFuck run one character short', `x=${jsfuck.slice(0, JSFUCK_RUN - 1)};`, []],
    ['a JSFuck run broken by a space', `x=${jsfuck.slice(0, 150)} ${jsfuck.slice(150)};`, []],
    ['a banner of `!` and a comment ruler of `+`', `/*${'!'.repeat(500)}*/ // ${'+'.repeat(500)}`, []],
    ['minified code with many `[]`, `()` and `!`', 'var a=[[],[[]],[]];if(!(!a[0]&&!(a[1]))){f()(g())[0]}'.repeat(50), []],
    ['jjencode', '$=~[];$={___:++$,$$$$:(![]+"")[$],__$:++$,$_$_:(![]+"")[$]};', ['jjencode']],
    ['jjencode under another name', 'g=~[];g={___:++g,$$$$:(![]+"")[g],__$:++g};', ['jjencode']],
    ['jjencode’s marker inside a string', "if (s.indexOf('$={___:++$,$$$$:(![]+\"\")[$]') !== -1) t = 'jjencode';", []],
    ['aaencode', "ﾟωﾟﾉ= /｀ｍ´）ﾉ ~┻━┻   //*´∇｀*/ ['_']; o=(ﾟｰﾟ)  =_=3; c=(ﾟΘﾟ) =(ﾟｰﾟ)-(ﾟｰﾟ);", ['aaencode']],
    ['a kaomoji', "console.log('(ﾉ´ヮ`)ﾉ*: ･ﾟ ﾟωﾟ ┻━┻')", []],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(Buffer.from(text, 'utf8').toString('latin1'))).toEqual(expected);
  });
});

describe('javascript-obfuscator without its `_0x` names', () => {
  const rotation = "(function(c,d){var e=c();while(!![]){try{var g=parseInt(o(0xf0))/0x1;if(g===d)break;else e['push'](e['shift']());}catch(h){e['push'](e['shift']());}}}(a,0x5322a));";
  const getter = "function a(){var D=['then','length'];a=function(){return D;};return a();}";
  const decoder = 'function b(c,d){c=c-0xe2;var e=a();var f=e[c];return f;}';
  test.each([
    ['rotation and getter', rotation + getter, ['string-array']],
    ['getter and decoder', getter + decoder, ['string-array']],
    ['the rotation alone', rotation, []],
    ['the getter alone (a lazy value)', getter, []],
    ['the decoder alone', decoder, []],
    ['a queue rotated with dots', 'while(n--)q.push(q.shift());function a(){var D=[];a=function(){return D};return a()}', []],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(text)).toEqual(expected);
  });
});

describe('hex escapes and hidden statements', () => {
  const escaped = (n: number) => Array.from({ length: n }, (_, i) => `\\x${(0x61 + (i % 26)).toString(16)}`).join('');
  test.each([
    ['text written as escapes', `eval("${escaped(PRINTABLE_ESCAPES)}")`, ['hex-escapes']],
    ['one escape short', `eval("${escaped(PRINTABLE_ESCAPES - 1)}")`, []],
    // Binary data as escapes: printable bytes beside others in each run are not escaped text.
    // Escaped code keeps its line ends and tabs, and a few bytes spread through it do not hide it.
    ['escaped code with its line ends, tabs and a stray byte in each line', `eval("${Array.from({ length: 8 }, () => `${escaped(PRINTABLE_ESCAPES / 8)}\\x0a\\x09\\x01`).join('')}")`, ['hex-escapes']],
    ['binary data as escapes', `Buffer.from('${Array.from({ length: PRINTABLE_ESCAPES * 2 }, (_, i) => `\\x${(i % 2 === 0 ? 0x61 : 0x9c).toString(16)}`).join('')}', 'binary')`, []],
    ['escapes spread over short strings', Array.from({ length: PRINTABLE_ESCAPES }, (_, i) => `'\\x${(0x61 + (i % 26)).toString(16)}'`).join(','), ['hex-escapes']],
    ['binary data as escapes (not printable)', `const wasm = "${'\\x00\\x01\\x02\\xff'.repeat(200)}";`, []],
    ['escaped backslashes before an x', `const re = "${'\\\\x41'.repeat(200)}";`, []],
    ['a statement pushed off screen', `export { foo } from './foo';${' '.repeat(HIDING_BLANKS)}process.nextTick(go);`, ['hidden-by-blanks']],
    ['tabs push it too', `run();${'\t'.repeat(HIDING_BLANKS)}eval(x)`, ['hidden-by-blanks']],
    ['an expression statement pushed off screen', `run()${' '.repeat(HIDING_BLANKS)}(function(){go()})();`, ['hidden-by-blanks']],
    ['a negation pushed off screen', `}${' '.repeat(HIDING_BLANKS)}!function(){go()}();`, ['hidden-by-blanks']],
    ['one blank short', `run();${' '.repeat(HIDING_BLANKS - 1)}eval(x)`, []],
    ['blanks at the end of a line', `var i=0;${' '.repeat(1000)}\nnext();`, []],
    ['a wide table in a comment', ` * | Property${' '.repeat(600)}| Supported`, []],
    ['deep indentation', `${' '.repeat(600)}return x;`, []],
    ['require aliased on the global object', "global['r']=require;(function(){var d=r('zlib');})();", ['require-alias']],
    ['on globalThis, spaced', 'globalThis[ "_q" ] = require\n', ['require-alias']],
    ['require kept under its own name', "global['require'] = require;", []],
    ['require assigned by property', 'global.r = require; exports.require = require;', []],
    ['another global assigned', "global['r'] = requireModule;", []],
    ['the alias at the very end of the file', "global['r']=require", ['require-alias']],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(text)).toEqual(expected);
  });
});

describe('comments are prose, not code', () => {
  // Synthetic: each sample quoted in a comment, then the same sample as code.
  const jsfuck = '(![]+[])[+!+[]]+'.repeat(Math.ceil(JSFUCK_RUN / 16));
  const escapes = '\\x41'.repeat(PRINTABLE_ESCAPES);
  test.each([
    ['a JSFuck sample in a line comment', `// ${jsfuck}\nx = 1;`, []],
    ['a JSFuck sample in a block comment', `/* ${jsfuck} */ x = 1;`, []],
    ['the same sample as code', `x = ${jsfuck};`, ['jsfuck']],
    ['a licence banner full of escapes', `/*! ${escapes} */\nmodule.exports = 1;`, []],
    ['the same escapes in a string', `module.exports = "${escapes}";`, ['hex-escapes']],
    ['a packed sample in a comment', "// eval(function(p,a,c,k,e,d){return p}('',0,0,''.split('|'),0,{}))\n", []],
    ['blanks pushing a comment off screen', `run();${' '.repeat(HIDING_BLANKS)}// note`, []],
    ['a comment opener in a string before a JSFuck run', `s = "/*"; x = ${jsfuck};`, ['jsfuck']],
    ['a comment opener in a regular expression before a JSFuck run', `if (s) /[/*]/.test(s); x = ${jsfuck};`, ['jsfuck']],
    ['a JSFuck run in a template substitution', `t = \`\${${jsfuck}}\`;`, ['jsfuck']],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(text)).toEqual(expected);
  });
});

describe('invisible code points in a row', () => {
  // Synthetic: each text written for the test (its characters as UTF-8, read one character a byte as the tarball streams).
  const bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  const run = (from: number, n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(from + (i % 16))).join('');
  /** `n` code points from `from` on in no order (none one above the one before it), as a payload's bytes are. */
  const scattered = (from: number, n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(from + ((i * 37) % 256))).join('');
  test.each([
    ['variation selectors in a template literal', `eval(s(\`${run(0xe0100, INVISIBLE_RUN)}\`))`, ['invisible-code']],
    ['one short', `eval(s(\`${run(0xe0100, INVISIBLE_RUN - 1)}\`))`, []],
    ['U+FE00–FE0F in a string', `x = '${run(0xfe00, INVISIBLE_RUN)}';`, ['invisible-code']],
    ['tag characters', `x = "${run(0xe0041, INVISIBLE_RUN)}";`, ['invisible-code']],
    ['the Private Use Area', `x = '|${scattered(0xe000, INVISIBLE_RUN)}';`, ['invisible-code']],
    ['the supplementary Private Use Area (plane 15)', `x = '${scattered(0xf0000, INVISIBLE_RUN)}';`, ['invisible-code']],
    // A code page's unassigned rows mapped to the Private Use Area in order (codepage's and xlsx's tables: 127 in a row at most).
    ['a code page table: Private Use Area characters in order', `x = '${Array.from({ length: 188 }, (_, i) => String.fromCodePoint(0xe000 + i)).join('')}';`, []],
    ['a table in order with a payload in it: the payload still counts', `x = '${Array.from({ length: 64 }, (_, i) => String.fromCodePoint(0xe000 + i)).join('')}${scattered(0xe100, INVISIBLE_RUN)}';`, ['invisible-code']],
    ['zero-width characters as bits', `x = '${'\u200b\u200c\u200d\u2060'.repeat(INVISIBLE_RUN / 4)}';`, ['invisible-code']],
    ['Hangul fillers', `x = '${'\u3164\uffa0'.repeat(INVISIBLE_RUN / 2)}';`, ['invisible-code']],
    ['outside any string', `x = 1;${run(0xfe00, INVISIBLE_RUN)}\ny = 2;`, ['invisible-code']],
    ['in a line comment', `// ${run(0xe0100, 64)}\nx();`, []],
    ['in a block comment', `/* ${run(0xe0100, 64)} */ x();`, []],
    ['escaped, not raw', `x = '${'\\uFE0F'.repeat(64)}\\u{E0100}';`, []],
    ['each after a visible character (an emoji and U+FE0F)', `x = '${'\u2764\ufe0f'.repeat(64)}';`, []],
    // Two short runs in one line are a payload spread through it (invisible-payload, below), not a run.
    ['broken by a space', `x = '${run(0xfe00, INVISIBLE_RUN - 1)} ${run(0xfe00, INVISIBLE_RUN - 1)}';`, ['invisible-payload']],
    ['broken by a line', `x = '${run(0xfe00, INVISIBLE_RUN - 1)}' +\n'${run(0xfe00, INVISIBLE_RUN - 1)}';`, []],
    ['a byte order mark at the start is not counted', `\ufeff${run(0xfe00, INVISIBLE_RUN - 1)}`, []],
    ['past the start it is', `x${'\ufeff'.repeat(INVISIBLE_RUN)}`, ['invisible-code']],
    ['a visible character of the same blocks (U+FE10, U+E0080)', `x = '${'\ufe10\u{e0080}'.repeat(64)}';`, []],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(bytes(text))).toEqual(expected);
  });

  test('a lead byte without its continuation bytes breaks the run', () => {
    const half = bytes(run(0xfe00, INVISIBLE_RUN - 1));
    expect(everyChunking(`${half}\xef\xb8${half}`)).toEqual(['invisible-payload']);
    expect(everyChunking(`${half}${bytes('\ufe0f')}${half}`)).toEqual(['invisible-code']);
    // Cut at the file's end: no code point, nothing read past it.
    expect(everyChunking(`${half}\xf3\xa0\x84`)).toEqual([]);
  });
});

describe('invisible payload code points spread through a line', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  /** `n` code points from `from` on, each after a visible ASCII letter. */
  const spread = (from: number, n: number, span = 16) => Array.from({ length: n }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${String.fromCodePoint(from + (i % span))}`).join('');
  test.each([
    // Generated for nerq (fixtures/PROVENANCE.md): GlassWorm's decoder, its payload one selector after each letter of a greeting.
    ['GlassWorm\'s selectors, one after each letter of a greeting', readFileSync(new URL('../../fixtures/obfuscated-code/generated/glassworm-interleaved-shape.js', import.meta.url)).toString('latin1'), ['invisible-payload']],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(text)).toEqual(expected);
  });

  // Synthetic: each text written for the test.
  test.each([
    ['a variation selector after each letter', `x = '${spread(0xe0100, INVISIBLE_PAYLOAD)}';`, ['invisible-payload']],
    ['one short', `x = '${spread(0xe0100, INVISIBLE_PAYLOAD - 1)}';`, []],
    ['U+FE00–FE0D after letters', `x = '${spread(0xfe00, INVISIBLE_PAYLOAD, 14)}';`, ['invisible-payload']],
    ['tag characters after letters', `x = "${spread(0xe0041, INVISIBLE_PAYLOAD)}";`, ['invisible-payload']],
    ['Private Use Area characters after letters', `x = '${spread(0xe000, PRIVATE_USE_PAYLOAD, 256)}';`, ['invisible-payload']],
    ['one short', `x = '${spread(0xe000, PRIVATE_USE_PAYLOAD - 1, 256)}';`, []],
    // Each a string of its own (an icon's glyph, a double-byte code page row's first character): none counts.
    ['each alone between quotes', `x = [${Array.from({ length: PRIVATE_USE_PAYLOAD * 2 }, (_, i) => `"${String.fromCodePoint(0xe000 + ((i * 37) % 256))}"`).join(',')}];`, []],
    ['each alone between single quotes or backticks, with the next ones above it', `x = [${Array.from({ length: PRIVATE_USE_PAYLOAD * 2 }, (_, i) => (i % 2 ? `'${String.fromCodePoint(0xe100 + i * 4, 0xe101 + i * 4)}'` : `\`${String.fromCodePoint(0xe100 + i * 4)}\``)).join(',')}];`, []],
    // Two in a string: both count.
    ['two in each string', `x = [${Array.from({ length: PRIVATE_USE_PAYLOAD / 2 }, (_, i) => `"${String.fromCodePoint(0xe000 + ((i * 37) % 256), 0xe000 + ((i * 37 + 100) % 256))}"`).join(',')}];`, ['invisible-payload']],
    ['after a quote, then a letter', `x = [${Array.from({ length: PRIVATE_USE_PAYLOAD }, (_, i) => `"${String.fromCodePoint(0xe000 + ((i * 37) % 256))}a"`).join(',')}];`, ['invisible-payload']],
    ['after a quote, then another quote', `x = [${Array.from({ length: PRIVATE_USE_PAYLOAD }, (_, i) => `"${String.fromCodePoint(0xe000 + ((i * 37) % 256))}'"`).join(',')}];`, ['invisible-payload']],
    ['after a quote at the end of the file', `x = [${Array.from({ length: PRIVATE_USE_PAYLOAD - 1 }, (_, i) => `"a${String.fromCodePoint(0xe000 + ((i * 37) % 256))}"`).join(',')}, "\ue0ff`, ['invisible-payload']],
    ['cut into short strings on one line', `x = ${Array.from({ length: INVISIBLE_PAYLOAD / 4 }, () => `'${spread(0xe0100, 4)}'`).join(' + ')};`, ['invisible-payload']],
    ['in code, outside any string', `var a${spread(0xe0100, INVISIBLE_PAYLOAD)} = 1;`, ['invisible-payload']],
    ['two selectors after one visible character: the second counts', `x = '${'\u00e9\ufe00\ufe01'.repeat(INVISIBLE_PAYLOAD)}';`, ['invisible-payload']],
    ['a payload and a run in one file: named once, as the run', `x = '${spread(0xe0100, INVISIBLE_PAYLOAD)}';\ny = '${'\u{e0100}'.repeat(INVISIBLE_RUN)}';`, ['invisible-code']],
    ['half on each of two lines', `x = '${spread(0xe0100, INVISIBLE_PAYLOAD - 1)}' +\n  '${spread(0xe0100, INVISIBLE_PAYLOAD - 1)}';`, []],
    ['in a line comment', `// ${spread(0xe0100, 64)}\nx();`, []],
    ['in a block comment', `/* ${spread(0xe0100, 64)} */ x();`, []],
    ['escaped, not raw', `x = '${'a\\u{E0100}'.repeat(64)}';`, []],
    ['U+FE0E and U+FE0F after letters and digits (keycaps)', `x = '${'1\ufe0f\u20e3#\ufe0f\u20e3a\ufe0e'.repeat(64)}';`, []],
    ['zero-width characters between letters', `x = '${'a\u200bb\u200cc\u200dd\u2060'.repeat(64)}';`, []],
    ['one ideographic variation selector after each ideograph', `x = '${'\u845b\u{e0100}\u8fbb\u{e0101}'.repeat(64)}';`, []],
    ['black flags with more tags than a subdivision flag takes', `x = '${`\u{1f3f4}${'\u{e0061}'.repeat(INVISIBLE_RUN - 1)}a`.repeat(2)}';`, ['invisible-payload']],
    ['subdivision flags (black flag, tags, cancel tag)', `x = '${'\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}'.repeat(64)}';`, []],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(bytes(text))).toEqual(expected);
  });

  // Real text, copied unchanged: none of it counts, however much of it a line holds.
  test.each([
    // moment 2.31.0 (MIT), locale/ar.js line 131 and locale/he.js line 22.
    ['an Arabic moment locale line', "        weekdays: 'الأحد_الإثنين_الثلاثاء_الأربعاء_الخميس_الجمعة_السبت'.split('_'),"],
    ['a Hebrew moment locale line', "        weekdays: 'ראשון_שני_שלישי_רביעי_חמישי_שישי_שבת'.split('_'),"],
    // gemoji 8.1.0 (MIT), index.js lines 3424, 3459, 3466 and 13091: ZWJ sequences with U+FE0F, and England's flag (tags).
    ['emoji ZWJ sequences and a subdivision flag, in one line', `x = [${"'🧑‍🤝‍🧑', '👩‍❤️‍💋‍👨', '👨‍❤️‍💋‍👨', '🏴󠁧󠁢󠁥󠁮󠁧󠁿', ".repeat(16)}];`],
    // html-entities 2.6.0 (MIT), dist/commonjs/named-references.js line 49: symbols with U+FE00 (standardized variation sequences).
    ['mathematical symbols with their variation selector', "caps~∩︀~cups~∪︀~gesl~⋛︀~gvertneqq~≩︀~gvnE~≩︀~lates~⪭︀~lesg~⋚︀~lvertneqq~≨︀~lvnE~≨︀~smtes~⪬︀~sqcaps~⊓︀~sqcups~⊔︀~varsubsetneq~⊊︀~varsubsetneqq~⫋︀~varsupsetneq~⊋︀~varsupsetneqq~⫌︀~vsubnE~⫋︀~vsubne~⊊︀~vsupnE~⫌︀~vsupne~⊋︀"],
    // iconv-lite 0.7.3 (MIT), encodings/sbcs-data-generated.js line 373: a single-byte code page (Thai) whose vendor bytes are Private Use Area characters.
    ['a code page table with Private Use Area characters between visible ones', '    "chars": "«»…“”�•‘’� กขฃคฅฆงจฉชซฌญฎฏฐฑฒณดตถทธนบปผฝพฟภมยรฤลฦวศษสหฬอฮฯะัาำิีึืฺุู﻿​–—฿เแโใไๅๆ็่้๊๋์ํ™๏๐๑๒๓๔๕๖๗๘๙®©����"'],
    // Ideographic variation sequences registered in Unicode's Ideographic Variation Database (Adobe-Japan1): 葛 U+845B and 辻 U+8FBB with U+E0100/E0101.
    ['a CJK line with an ideographic variation selector after each ideograph', `x = '${'葛󠄀辻󠄀葛󠄁辻󠄁'.repeat(8)}';`],
  ])('%s', (_name, text) => {
    expect(everyChunking(bytes(text))).toEqual([]);
  });

  // next 16.5.0 (MIT), an excerpt of dist/compiled/raw-body/index.js line 51: iconv-lite's double-byte tables as the bundle puts
  // them, on one line (fixtures/PROVENANCE.md). Each row's first Private Use Area character is a string of its own (67), 11 others
  // stand among ideographs: 78 in the line, read before as a payload.
  test("a bundle's double-byte code page tables", () => {
    expect(everyChunking(fixture('obfuscated-code/next/raw-body-dbcs-tables-excerpt.js'))).toEqual([]);
  });
});

describe('bidirectional controls that reorder code (Trojan Source)', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  const [LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI] = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
  // Written for nerq after the paper's shapes (fixtures/PROVENANCE.md).
  test.each([
    ['commenting out: a test shown as code is a comment', 'obfuscated-code/generated/trojan-source-commenting-out.js'],
    ['a stretched string: a comment shown after the string is inside it', 'obfuscated-code/generated/trojan-source-stretched-string.js'],
  ])('%s', (_name, path) => {
    expect(everyChunking(fixture(path))).toEqual(['trojan-source']);
  });

  // Synthetic: each text written for the test.
  test.each([
    ...[LRE, RLE, LRO, RLO, LRI, RLI, FSI].map((c): [string, string, string[]] => [`U+${c.codePointAt(0)!.toString(16).toUpperCase()} left open in a string`, `if (a != 'user${c}') x();`, ['trojan-source']]),
    ['left open in a template literal', `x = \`${RLO}abc\`;`, ['trojan-source']],
    ['left open before a template substitution', `x = \`${RLO}abc\${y}def${PDF}\`;`, ['trojan-source']],
    ['left open in a regular expression', `x = /${RLO}abc/;`, ['trojan-source']],
    ['left open in a line comment', `x(); // ${RLO} a\ny();`, ['trojan-source']],
    ['left open at the end of a block comment', `/* ${RLO} } ${LRI}if (isAdmin)${PDI} */ x();`, ['trojan-source']],
    ['left open at a line end inside a block comment', `/* ${RLE} a\n b ${PDF} */ x();`, ['trojan-source']],
    ['left open at a line end inside a template literal', `x = \`${RLI} a\n b ${PDI}\`;`, ['trojan-source']],
    ['an isolate closed by U+202C (which closes no isolate)', `x = '${LRI}abc${PDF}';`, ['trojan-source']],
    ['a control in code', `x = 1;${RLO} y = 2;`, ['trojan-source']],
    ['a closing control alone in code', `x = 1;${PDI}`, ['trojan-source']],
    ['left open at the end of the file', `x = '${RLO}abc`, ['trojan-source']],
    ['after an escaping backslash', `x = 'a\\${RLO}b';`, ['trojan-source']],
    ['nested past 125 levels', `x = '${RLE.repeat(130)}${PDF.repeat(130)}';`, ['trojan-source']],
    // Closed where they are opened: the text shows in order.
    ['closed embeddings and overrides', `x = '${RLE}שלום${PDF} ${RLO}abc${PDF} ${LRE}${LRO}a${PDF}${PDF}';`, []],
    ['closed isolates', `x = "${RLI}مرحبا${PDI} ${LRI}a${PDI} ${FSI}b${PDI}";`, []],
    ['an isolate closing the embeddings opened in it', `x = '${RLI}${RLE}${RLO}abc${PDI}';`, []],
    ['closed in a comment', `// ${RLI}مرحبا${PDI}\nx();`, []],
    ['a stray closing control in a string', `x = '${PDF}${PDI}abc';`, []],
    ['escaped, not raw', `x = '\\u202E\\u2066abc';`, []],
    ['right-to-left text without controls', `x = 'مرحبا بالعالم'; // שלום`, []],
    // Character sets: a sanitiser lists the controls it strips, written raw (the shapes of claude-flow's, @qwen-code/qwen-code's and
    // @modelcontextprotocol/inspector's bundles, rewritten here). The controls are data: no text of the literal is reordered.
    ['raw controls as ranges in a regular expression class', `s = s.replace(/[${LRE}-${RLO}${LRI}-${PDI}]/g, '');`, []],
    ['raw controls in a class among other characters', `const BIDI = /[\\u200b-\\u200f${LRE}-${RLO}${LRI}-${PDI}\\ufeff]/gu;`, []],
    ['a lone raw control compared with a character', `if (ch === '${RLE}' || ch === "${RLO}") return true;`, []],
    ['a string of raw controls only', `const CONTROLS = '${LRE}${RLE}${LRO}${RLO}${LRI}${RLI}${FSI}';`, []],
    ['raw controls as alternatives, among escapes', `x = /${RLO}|${RLI}|\\u{2066}|\\x20/;`, []],
    ['a template literal of raw controls only', `x = \`${RLO}${LRI}\`;`, []],
    // The classic Trojan Source examples (CVE-2021-42574), and sets that show text or code after a control left open.
    ['the classic commented-out check', `/*${RLO} } ${LRI}if (isAdmin)${PDI} ${LRI} begin admins only */`, ['trojan-source']],
    ['the classic stretched string', `if (accessLevel != "user${RLO} ${LRI}// Check if admin${PDI} ${LRI}") { x(); }`, ['trojan-source']],
    ['a comment of controls only (a comment is never a set)', `/*${RLO}*/ x();`, ['trojan-source']],
    ['a control outside a regular expression class before visible text', `x = /[${RLO}]${RLO}abc/;`, ['trojan-source']],
    ['a control in a class, but another outside with text', `x = /abc${RLO}[${RLI}]/;`, ['trojan-source']],
    ['a string of controls with one visible letter', `x = '${RLO}${LRI}a';`, ['trojan-source']],
    ['hex digits that are no escape', `x = '${RLO}cafe';`, ['trojan-source']],
    ['an escape then visible text', `x = '${RLO}\\u202e admin';`, ['trojan-source']],
    ['a template literal of controls before a substitution', `x = \`${RLO}\${isAdmin ? a : b}\`;`, ['trojan-source']],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(bytes(text))).toEqual(expected);
  });
});

describe('code run from decoded data', () => {
  // Synthetic: each executor and decoder written for the test, after GuardDog's samples' shapes.
  const codes = (n: number) => Array.from({ length: n }, (_, i) => 97 + (i % 26)).join(', ');
  const base64 = (n: number) => 'QUJD'.repeat(Math.ceil(n / 4)).slice(0, n);
  test.each([
    ['eval of fromCharCode with a long list', `eval(String.fromCharCode(${codes(DECODED_NUMBERS)}));`, ['decoded-eval']],
    ['one number short', `eval(String.fromCharCode(${codes(DECODED_NUMBERS - 1)}));`, []],
    ['hexadecimal codes', `eval(String.fromCharCode(${Array.from({ length: DECODED_NUMBERS }, () => '0x61').join(',')}))`, ['decoded-eval']],
    ['new Function of atob', `new Function(atob('${base64(DECODED_STRING)}'))();`, ['decoded-eval']],
    ['a short base64 string', `new Function(atob('${base64(DECODED_STRING - 1)}'))();`, []],
    ['eval of Buffer.from', `eval(Buffer.from('${base64(64)}', 'base64').toString());`, ['decoded-eval']],
    ['vm of Buffer.from', `vm.runInThisContext(Buffer.from("${base64(64)}", "base64").toString())`, ['decoded-eval']],
    ['a timer given a decoded string', `setTimeout(atob('${base64(64)}'), 10);`, ['decoded-eval']],
    ['eval of code points read from a long string', `eval(Array.from('${base64(64)}', (c) => c.codePointAt(0) - 0xe0100).join(''));`, ['decoded-eval']],
    ['eval of a ROT decoder applied to a list', `eval(function(s,n){return s.replace(/[a-z]/g,function(c){return String.fromCharCode((c.charCodeAt(0)-97+n)%26+97)})}([${codes(DECODED_NUMBERS)}],7));`, ['decoded-eval']],
    ['a timer given a function that decodes', `setTimeout(function(){ var s = '${base64(64)}'; return s.charCodeAt(0); }, 10);`, []],
    ['a timer given an arrow that decodes', `setTimeout(() => atob('${base64(64)}'), 10);`, []],
    ['eval of a long string, nothing decoded', `eval('${base64(400)}');`, []],
    ['a decoder named inside the string run', `new Function('return s.charCodeAt(0) + "${base64(64)}"')`, []],
    ['fromCharCode with a long list, nothing run', `var s = String.fromCharCode(${codes(200)});`, []],
    ['eval of a name list', `eval(f(${Array.from({ length: 40 }, (_, i) => `x${i}`).join(', ')}), atob(y))`, []],
    ['a method named eval', `obj.eval(atob('${base64(64)}'))`, []],
    ['in a comment', `// eval(atob('${base64(64)}'))\nx();`, []],
    ['a sample in a string', `var sample = "eval(atob('${base64(64)}'))";`, []],
    ['a sample in a template literal', `var sample = \`x = eval(String.fromCharCode(\${n}, ${codes(DECODED_NUMBERS)}))\`;`, []],
    ['run in a template substitution', `var t = \`\${eval(atob('${base64(64)}'))}\`;`, ['decoded-eval']],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(text)).toEqual(expected);
  });

  // Synthetic too: the decoding in its own statement, its result run by name.
  test.each([
    ['eval of a name assigned Buffer.from', `const code = Buffer.from('${base64(64)}', 'base64').toString();\neval(code);`, ['decoded-eval']],
    ['new Function of a name assigned atob', `var s = atob("${base64(DECODED_STRING)}"); new Function(s)()`, ['decoded-eval']],
    ['a short base64 string in the name', `var s = atob("${base64(DECODED_STRING - 1)}"); new Function(s)()`, []],
    ['a timer given a name assigned fromCharCode', `let p = String.fromCharCode(...[${codes(DECODED_NUMBERS)}]);\nsetTimeout(p, 10)`, ['decoded-eval']],
    ['one number short in the name', `let p = String.fromCharCode(...[${codes(DECODED_NUMBERS - 1)}]);\nsetTimeout(p, 10)`, []],
    ['the name added to string literals', `code = atob('${base64(64)}')\neval("(" + code + ")")`, ['decoded-eval']],
    ['the name is the body, the last argument of Function', `var b = unescape('${base64(64)}'); var f = Function('a', 'b', b);`, ['decoded-eval']],
    ['a long literal named, then decoded by name', `const admin = "${base64(64)}";\nconst result = Buffer.from(admin, 'hex').toString('utf8');\nnew Function(result);`, ['decoded-eval']],
    ['a list of numbers named, then decoded by name', `var a = [${codes(DECODED_NUMBERS)}];\nvar s = String.fromCharCode.apply(null, a);\neval(s);`, ['decoded-eval']],
    ['declared among others, in a function', `function f() { var n = 1, s = atob('${base64(64)}'), m = 2; return eval(s); }`, ['decoded-eval']],
    ['the name assigned something else before the executor', `var s = atob('${base64(64)}'); s = 'x'; eval(s);`, []],
    ['the name assigned after the executor', `eval(s); var s = atob('${base64(64)}');`, []],
    ['the name used in a larger expression', `var s = atob('${base64(64)}'); eval(s.slice(1)); eval(f(s)); eval(s + t);`, []],
    ['a property assigned', `o.s = atob('${base64(64)}'); eval(s);`, []],
    ['a comparison, not an assignment', `if (s == atob('${base64(64)}')) eval(s);`, []],
    ['decoded without a long operand', `var s = atob(input); eval(s);`, []],
    ['a long literal named, not decoded', `const admin = "${base64(64)}"; eval(admin);`, []],
    ['a function assigned', `var f = function () { return atob('${base64(64)}'); }; eval(f);`, []],
    ['the assignment in a string', `var t = "s = atob('${base64(64)}')"; eval(s);`, []],
    ['the name as a timer\'s delay', `var d = atob('${base64(64)}'); setTimeout(f, d); eval(x, d);`, []],
    ['a right side that starts with a literal, then decodes', `var s = '' + atob('${base64(64)}'); eval(s);`, ['decoded-eval']],
    ['a right side that does not start with the decoder', `var s = f(atob('${base64(64)}')); eval(s);`, []],
    ['a literal used as more than a literal', `var a = [${codes(DECODED_NUMBERS)}].map(f); var s = String.fromCharCode.apply(null, a); eval(s);`, []],
    ['another name run', `var s = atob('${base64(64)}'); eval(t);`, []],
  ])('%s', (_name, text, expected) => {
    expect(everyChunking(text)).toEqual(expected);
  });

  test("GuardDog's second exec-base64 case alone: hex text named, decoded by name, run by new Function", () => {
    // Real: the fixture's second annotated case, cut from the file at its `function f()` (the first
    // case, eval(atob("…")) in one expression, is caught alone above).
    const text = fixture('install-code/guarddog/npm-exec-base64.js');
    const second = text.slice(text.indexOf('function f()', 1));
    expect(second).toContain('new Function(adminResult)');
    expect(everyChunking(second)).toEqual(['decoded-eval']);
    for (let cut = 1; cut < second.length; cut += 1) {
      const reader = new ObfuscationReader();
      reader.read(second.slice(0, cut));
      reader.read(second.slice(cut), true);
      expect(reader.signatures(), `cut at ${cut}`).toEqual(['decoded-eval']);
    }
  });

  test('the names kept are the most recent ones', () => {
    const assignments = (n: number) => Array.from({ length: n }, (_, i) => `var v${i} = atob('${base64(64)}');`).join('\n');
    expect(everyChunking(`${assignments(DECODED_NAMES)}\neval(v0);`)).toEqual(['decoded-eval']);
    expect(everyChunking(`${assignments(DECODED_NAMES + 1)}\neval(v0);`)).toEqual([]);
  });

  test('an assignment and its executor cut at every position are read whole', () => {
    const text = `x = 1; var code = atob('${base64(DECODED_STRING)}'); code2 = 1; eval(code);`;
    for (let cut = 1; cut < text.length; cut += 1) {
      const reader = new ObfuscationReader();
      reader.read(text.slice(0, cut));
      reader.read(text.slice(cut), true);
      expect(reader.signatures(), `cut at ${cut}`).toEqual(['decoded-eval']);
    }
  });

  test('the executor cut at every position is read whole', () => {
    const text = `x = 1; eval(String.fromCharCode(${codes(DECODED_NUMBERS)}));`;
    for (let cut = 1; cut < text.length; cut += 1) {
      const reader = new ObfuscationReader();
      reader.read(text.slice(0, cut));
      reader.read(text.slice(cut), true);
      expect(reader.signatures(), `cut at ${cut}`).toEqual(['decoded-eval']);
    }
  });
});

describe('the reader over chunks', () => {
  test('a marker cut at every position is read whole', () => {
    const text = "x();eval(function(p,a,c,k,e,d){return p}('',0,0,''.split('|'),0,{}))";
    for (let cut = 1; cut < text.length; cut += 1) {
      const reader = new ObfuscationReader();
      reader.read(text.slice(0, cut));
      reader.read(text.slice(cut), true);
      expect(reader.signatures(), `cut at ${cut}`).toEqual(['packer']);
    }
  });

  test('a marker read from a carry that lost the character before it is not found anew', () => {
    // The string's quote is 512 characters before the end of the first chunk, the carry's length:
    // read again from the carry, `eval(` would have no quote before it.
    const prefix = `var s = "`;
    const head = 'eval(function(p,a,c,k,e,r){return p}("",0,0,[],0,{}))';
    const reader = new ObfuscationReader();
    reader.read(`${'a'.repeat(1000)}${prefix}${head}${'b'.repeat(512 - head.length)}`);
    reader.read('";', true);
    expect(reader.signatures()).toEqual([]);
  });

  test('an escape and a run of blanks across chunks count once', () => {
    const text = `run();${' '.repeat(HIDING_BLANKS)}go();` + '"' + '\\x41'.repeat(PRINTABLE_ESCAPES) + '"';
    const reader = new ObfuscationReader();
    for (const piece of text.match(/[\s\S]{1,3}/g) ?? []) reader.read(piece);
    reader.read('', true);
    expect(reader.signatures()).toEqual(['hex-escapes', 'hidden-by-blanks']);
  });

  test('javascript-obfuscator names are counted up to ten', () => {
    const reader = new ObfuscationReader();
    reader.read(Array.from({ length: 12 }, (_, i) => `_0x${(0xabc000 + i).toString(16)}`).join(';'), true);
    expect([reader.signatures(), reader.nameCount()]).toEqual([['obfuscator-names'], 10]);
  });
});
