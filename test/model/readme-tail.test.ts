import { describe, expect, it } from 'vitest';
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

  it('holds a line\'s first TAIL_LINE_CHARS characters: blanks past them still close a fence, other text does not', () => {
    const blanks = ' '.repeat(3 * TAIL_LINE_CHARS);
    expect(readmeTail(`\`\`\`\n# a\n\`\`\`${blanks}\n# b\n`, 0).headings).toEqual(['b']);
    expect(readmeTail(`\`\`\`\n# a\n\`\`\`${blanks}x\n# b\n`, 0).headings).toEqual([]);
    const scanner = new ReadmeTailScanner(0).write('```\n# a\n```');
    for (let i = 0; i < 3 * TAIL_LINE_CHARS; i += 1) scanner.write(' ');
    expect(scanner.write('\n# b\n').end().headings).toEqual(['b']);
  });
});
