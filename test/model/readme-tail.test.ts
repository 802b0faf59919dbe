import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseReadme } from '../../src/checks/lib/readme.js';
import { MAX_TAIL_HEADINGS, readmeTail, ReadmeTailScanner, TAIL_HEADING_CHARS, TAIL_LINE_CHARS } from '../../src/util/readme-tail.js';

const headingsAfter = (text: string, cut: number): string[] => readmeTail(text, cut).headings;

describe('readmeTail: the headings and code blocks of a README past the part kept', () => {
  // The shape of modelcontextprotocol/inspector @ 86d5f58ec8c3's README (70 KB): its `## License` sits past the first 64 KiB.
  const long = `# MCP Inspector\n\n## Setup\n\n${'Text of the setup section.\n'.repeat(10)}## Docker\n\n\`\`\`sh\n# run the web UI\ndocker run x\n\`\`\`\n\n## License\n\nMIT.\n`;
  const cut = long.indexOf('## Docker');

  it('keeps the ATX headings on lines past the cut, never those before it', () => {
    expect(headingsAfter(long, cut)).toEqual(['Docker', 'License']);
    expect(headingsAfter(long, long.length)).toEqual([]);
  });

  it('a `# comment` in a code fence is code, the fence followed from the start of the text though it opens before the cut', () => {
    expect(headingsAfter(long, long.indexOf('# run'))).toEqual(['License']);
    expect(headingsAfter('~~~~\n# a\n~~~\n# b\n~~~~\n# c\n', 0)).toEqual(['c']);
  });

  it('reads a heading as the README analysis does: closing hashes dropped, `#x` and empty headings are none', () => {
    expect(headingsAfter('## Usage ##\n#hashtag\n#\n   ### API\n    # indented code\n', 0)).toEqual(['Usage', 'API']);
  });

  it('counts the fenced code blocks opened past the cut (one straddling it is the kept part\'s), past the cap of headings too', () => {
    expect(readmeTail(long, cut).codeBlocks).toBe(1);
    expect(readmeTail(long, long.indexOf('# run')).codeBlocks).toBe(0);
    expect(readmeTail(long, 0).codeBlocks).toBe(1);
    expect(readmeTail(`${'## h\n'.repeat(MAX_TAIL_HEADINGS)}\`\`\`\nx\n\`\`\`\n~~~\ny\n`, 0)).toMatchObject({ codeBlocks: 2 });
  });

  it('keeps at most MAX_TAIL_HEADINGS, each at most TAIL_HEADING_CHARS', () => {
    const many = headingsAfter(`## ${'w'.repeat(500)}\n`.repeat(MAX_TAIL_HEADINGS + 50), 0);
    expect(many).toHaveLength(MAX_TAIL_HEADINGS);
    expect(many[0]).toHaveLength(TAIL_HEADING_CHARS);
  });
});

describe('ReadmeTailScanner: the same tail from a README written in pieces', () => {
  const text =
    '# pkg\n\n## Install\r\n\n```sh\n# not a heading\n```\n\n## Usage ##\n\n~~~~\n~~~\n# code\n~~~~ \n\n### API\n\n```js\nx()\n```\n\n## License\n';

  it('gives what readmeTail gives the whole text, split at every place and the cut marked where it falls', () => {
    for (const cut of [0, text.indexOf('## Usage'), text.indexOf('# code'), text.indexOf('### API') + 2, text.length]) {
      const whole = readmeTail(text, cut);
      for (let split = 0; split <= text.length; split += 1) {
        const [before, after] = [Math.min(split, cut), Math.max(split, cut)];
        const scanner = new ReadmeTailScanner().write(text.slice(0, before)).write(text.slice(before, cut)).markCut();
        expect(scanner.write(text.slice(cut, after)).write(text.slice(after)).end(), `cut ${cut}, split ${split}`).toEqual(whole);
      }
    }
  });

  it('one character at a time too', () => {
    const scanner = new ReadmeTailScanner(0);
    for (const char of text) scanner.write(char);
    expect(scanner.end()).toEqual({ headings: ['pkg', 'Install', 'Usage', 'API', 'License'], codeBlocks: 3 });
    expect(scanner.end()).toEqual(scanner.write('\n## More\n').end());
  });

  it('holds a line\'s first TAIL_LINE_CHARS characters: past them blanks keep the line blank, other text does not (an indented line after it opens no block)', () => {
    const blanks = ' '.repeat(3 * TAIL_LINE_CHARS);
    // A line of blanks, then an indented one: a code block; a line of blanks ending in text past the held part is itself an indented line of the paragraph.
    expect(readmeTail(`para\n${blanks}\n    code\n`, 0).codeBlocks).toBe(1);
    expect(readmeTail(`para\n${blanks}x\n    code\n`, 0).codeBlocks).toBe(0);
    const scanner = new ReadmeTailScanner(0).write('para\n');
    for (let i = 0; i < 3 * TAIL_LINE_CHARS; i += 1) scanner.write(' ');
    expect(scanner.write('\n    code\n').end().codeBlocks).toBe(1);
  });
});

describe('readmeTail reads the lines past the cut as the README analysis reads the part kept', () => {
  // aio-libs/frozenlist's PyPI long description: README.rst and CHANGES.rst joined (its pyproject's `readme = { file = [...] }`), reStructuredText.
  const description = readFileSync(new URL('../../fixtures/readmes/frozenlist-long-description-9538c5b.rst', import.meta.url), 'utf8');

  it('frozenlist\'s rST description cut before its Installation section: the underlined headings past it (Installation, License …) read as the analysis reads them', () => {
    const cut = description.indexOf('Installation\n---');
    const tail = readmeTail(description, cut);
    expect(tail.headings.slice(0, 6)).toEqual(['Installation', 'Documentation', 'Communication channels', 'License', 'Source code', 'Changelog']);
    // Its `::` example is indented 3 spaces: no code block to the analysis of the whole text either.
    expect(tail.codeBlocks).toBe(analyseReadme(description.slice(cut)).codeBlocks);
    // What the readme check makes of them (checks/readme.ts: each tail heading read as a heading).
    expect(analyseReadme(tail.headings.map((h) => `## ${h}`).join('\n\n')).sections).toEqual(['install', 'api', 'license']);
    // The head alone, cut there, shows no install or licence section.
    expect(analyseReadme(description.slice(0, cut)).sections).not.toContain('license');
  });

  it.each([
    ['reStructuredText `.. code-block::` with its indented body', 'Usage\n=====\n\n.. code-block:: python\n\n    import x\n    x.run()\n', ['Usage'], 1],
    ['an indented block after a blank line (not in a list)', 'Text.\n\n    $ pip install x\n\n- item\n\n    more of the item\n', [], 1],
    ['HTML headings, a bold line and a <pre> block', '<h2 align="center">License</h2>\n\n**Options**\n\n<pre>\nx\n</pre>\n', ['License', 'Options'], 1],
    ['a heading inside an HTML comment over several lines is none', 'a <!-- hidden\n## License\n--> b\n## Usage\n', ['Usage'], 0],
  ])('%s', (_name, text, headings, codeBlocks) => {
    expect(readmeTail(text, 0)).toEqual({ headings, codeBlocks });
  });

  it('streamed in pieces split at every place, a text with comments over lines and rST headings gives what the whole text gives', () => {
    const text = 'Intro <!-- a\n## Hidden\n--> still intro\n\nUsage\n=====\n\n.. code-block:: sh\n\n    run\n\n<!-- open to the end\n## Gone\n';
    const whole = readmeTail(text, 0);
    expect(whole).toEqual({ headings: ['Usage'], codeBlocks: 1 });
    for (let split = 0; split <= text.length; split += 1) {
      expect(new ReadmeTailScanner(0).write(text.slice(0, split)).write(text.slice(split)).end(), `split ${split}`).toEqual(whole);
    }
  });

  it('property: with nothing kept, the tail\'s sections and code blocks are the README analysis\'s of the whole text', () => {
    const line = fc.oneof(
      fc.constantFrom('', '   ', 'Some prose words here.', 'License', 'Installation', 'Usage', 'API reference', 'Changes', '=======', '-------', '~~~~~~~', '^^^^^^^', '*******'),
      fc.constantFrom('```', '```sh', '~~~', '~~~~', '    indented code', '\tcode', '- item', '1. item', '.. code-block:: python', '.. code:: sh', '::'),
      fc.constantFrom('## License', '# Usage ##', '#hashtag', '<h3>Options</h3>', '**Install**', '<pre>', '</pre>', '<!-- note', '-->', 'x <!-- y --> z', '![badge](https://x/y.svg)', 'a\r'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const text = lines.join('\n');
        const head = analyseReadme(text);
        const tail = readmeTail(text, 0);
        expect(tail.codeBlocks).toBe(head.codeBlocks);
        expect(analyseReadme(tail.headings.map((h) => `## ${h}`).join('\n\n')).sections).toEqual(head.sections);
      }),
      { numRuns: 400 },
    );
  });
});
