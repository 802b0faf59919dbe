import { describe, expect, it } from 'vitest';
import { MAX_TAIL_HEADINGS, readmeTail, TAIL_HEADING_CHARS } from '../../src/sources/github/readme-tail.js';

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
