import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeMarkdown, sanitizeForTerminal, htmlCode, markdownCode } from '../../src/render/sanitize.js';

const ESC = '\u001b';
const BEL = '\u0007';

/** Anything a terminal could act on, or that hides / reorders text. */
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/u;

describe('sanitizeForTerminal', () => {
  it.each([
    ['plain text is unchanged', 'chalk 5.3.0 — ok ✔', 'chalk 5.3.0 — ok ✔'],
    ['CSI colour', `${ESC}[31mred${ESC}[0m`, 'red'],
    ['CSI with parameters and intermediates', `a${ESC}[?25l${ESC}[2 qb`, 'ab'],
    ['8-bit CSI', 'a\u009b31mb', 'ab'],
    ['cursor movement and erase', `ok${ESC}[2K${ESC}[1A${ESC}[10Dfake`, 'okfake'],
    ['OSC 8 hyperlink ended by BEL', `${ESC}]8;;http://evil${BEL}link${ESC}]8;;${BEL}`, 'link'],
    ['OSC title ended by ST', `${ESC}]0;pwned${ESC}\\title`, 'title'],
    ['8-bit OSC ended by 8-bit ST', 'a\u009d0;x\u009cb', 'ab'],
    ['DCS string', `a${ESC}Pq#0;2;0;0;0${ESC}\\b`, 'ab'],
    ['APC and PM strings', `a${ESC}_apc${ESC}\\b${ESC}^pm${ESC}\\c`, 'abc'],
    ['short ESC forms', `a${ESC}cb${ESC}(Bc${ESC}7d`, 'abcd'],
    ['unterminated OSC leaves inert text', `a${ESC}]8;;http://x`, 'a8;;http://x'],
    ['lone ESC', `a${ESC}`, 'a'],
    ['carriage return becomes a space', 'safe\rEVIL', 'safe EVIL'],
    ['newlines become spaces', 'one\ntwo\r\nthree', 'one two three'],
    ['tab becomes a space', 'a\tb', 'a b'],
    ['C0 and DEL dropped', 'a\u0000b\u0008c\u007fd', 'abcd'],
    ['C1 dropped', 'a\u0085b\u0090c', 'a bc'],
    ['bidi overrides and isolates', 'a\u202eb\u202cc\u2066d\u2069e\u200ef\u061cg', 'abcdefg'],
    ['zero-width characters', 'a\u200bb\u200cc\u200dd\u2060e\ufefff', 'abcdef'],
    ['tag characters', 'a\u{e0041}\u{e0042}b', 'ab'],
    ['unassigned tag-block code points', 'a\u{e0000}\u{e0002}\u{e001f}b', 'ab'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a b c'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeForTerminal(input)).toBe(expected);
  });

  it.each([
    ['keeps line feeds', 'one\ntwo', 'one\ntwo'],
    ['normalises CR LF and lone CR', 'a\r\nb\rc', 'a\nb\nc'],
    ['still strips escapes', `a${ESC}[1m\nb`, 'a\nb'],
  ])('multiline: %s', (_name, input, expected) => {
    expect(sanitizeForTerminal(input, { multiline: true })).toBe(expected);
  });

  it('leaves nothing a terminal acts on, for any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        const out = sanitizeForTerminal(s);
        expect(out).not.toMatch(FORBIDDEN);
        expect(sanitizeForTerminal(out)).toBe(out);
      }),
    );
  });

  it('leaves nothing a terminal acts on, for escape-heavy input', () => {
    const unit = fc.constantFrom(ESC, BEL, '[', ']', '\\', 'P', '_', '8', ';', 'm', '\u009b', '\u009d', '\u202e', '\r', '\n', 'a');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), fc.boolean(), (s, multiline) => {
        const out = sanitizeForTerminal(s, { multiline });
        const allowed = multiline ? out.replaceAll('\n', '') : out;
        expect(allowed).not.toMatch(FORBIDDEN);
      }),
    );
  });
});

describe('escapeMarkdown', () => {
  it.each([
    ['plain words', 'Last release 12 days ago', 'Last release 12 days ago'],
    ['link', '[x](javascript:alert(1))', '\\[x\\](javascript:alert(1))'],
    ['image', '![a](http://t/p.png)', '\\!\\[a\\](http://t/p.png)'],
    ['table break', 'a | b', 'a \\| b'],
    ['html', '<img src=x onerror=alert(1)>', '\\<img src=x onerror=alert(1)\\>'],
    ['entity', '&#x202e;', '\\&\\#x202e;'],
    ['emphasis and code', '*a* _b_ `c` ~d~', '\\*a\\* \\_b\\_ \\`c\\` \\~d\\~'],
    ['backslash', 'a\\b', 'a\\\\b'],
    ['heading', '# Title', '\\# Title'],
    ['math', '$x$', '\\$x\\$'],
    ['leading list marker', '- item', '\\- item'],
    ['leading plus', '+ item', '\\+ item'],
    ['leading ordered marker', '1. first', '1\\. first'],
    ['inner dash untouched', 'a - b', 'a - b'],
    ['mention', 'ping @octocat', 'ping @&#8203;octocat'],
    ['scoped name is a mention too', '@scope/pkg', '@&#8203;scope/pkg'],
    // A package with its version is a code span: GitHub makes no mailto: link of it and a scoped name copies as it is.
    ['version @ is no mention: a code span', 'chalk@5.3.0', '`chalk@5.3.0`'],
    ['a scoped package with its ecosystem, in a sentence', 'Package npm:@playwright/mcp@0.0.79 scores 88.7.', 'Package `npm:@playwright/mcp@0.0.79` scores 88.7.'],
    ['an MCP entry with its version, before a colon', 'io.github.acme/server@1.0.0-beta.1: held', '`io.github.acme/server@1.0.0-beta.1`: held'],
    ['in parentheses, beside text still escaped', '(a_b@1.0.0, *x*)', '(`a_b@1.0.0`, \\*x\\*)'],
    ['no version: a mention, still stopped', 'ask @scope/pkg', 'ask @&#8203;scope/pkg'],
    ['inside a URL it is left to the URL', 'https://user@host.example/x', 'https://user@host.example/x'],
    ['sanitised first', `a\u001b]8;;http://evil\u0007b\u202e\rc`, 'ab c'],
  ])('%s', (_name, input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });

  it('joins lines unless multiline, then escapes each line start', () => {
    expect(escapeMarkdown('a\n- b')).toBe('a - b');
    expect(escapeMarkdown('a\n- b\n2) c', { multiline: true })).toBe('a\n\\- b\n2\\) c');
  });

  it('leaves no unescaped Markdown special, for any input', () => {
    const unit = fc.constantFrom(...'\\`*_[]<>|#!~&$@-+1. a\n\r\u001b\u202e');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), (s) => {
        const out = escapeMarkdown(s)
          // The code spans a package reference becomes hold name characters only.
          .replace(/`[\w.@/:+-]+`/g, '')
          .replaceAll('@&#8203;', '@')
          .replace(/\\[\s\S]/g, '');
        expect(out).not.toMatch(/[\\`*_[\]<>|#!~&$\n\r]/);
        expect(out).not.toMatch(FORBIDDEN);
      }),
    );
  });
});

describe('escapeHtml', () => {
  it('escapes HTML specials after sanitising', () => {
    expect(escapeHtml(`<b>"x" & 'y'</b>\u202e\r@octocat`)).toBe(
      '&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt; @&#8203;octocat',
    );
  });
});

describe('markdownCode', () => {
  it.each([
    ['chalk@5.3.0', {}, '`chalk@5.3.0`'],
    ['@scope/pkg@1.0.0', {}, '`@scope/pkg@1.0.0`'],
    // A fence longer than any backtick run inside; a space pads a backtick at either end.
    ['a`b', {}, '``a`b``'],
    ['`x`', {}, '`` `x` ``'],
    ['a|b', { inTable: true }, '`a\\|b`'],
    ['a|b', {}, '`a|b`'],
    ['evil\u001b[31m\u202ename', {}, '`evilname`'],
    ['', {}, ''],
  ] as const)('%j %j → %s', (text, options, expected) => {
    expect(markdownCode(text, options)).toBe(expected);
  });

  it('htmlCode: the literal name in <code>, HTML and Markdown marks as entities, no zero-width character', () => {
    expect(htmlCode('@scope/a_b<img>@1.0.0')).toBe('<code>@scope/a&#95;b&lt;img&gt;@1.0.0</code>');
  });
});
