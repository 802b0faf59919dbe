import { describe, expect, it } from 'vitest';
import { analyseReadme, findHeading, README_POINTS, readmeScore } from '../../../src/checks/lib/readme.js';

describe('analyseReadme', () => {
  it.each<[string, string, string[], number]>([
    ['ATX headings', '# A\n## Installation\n## Usage\n## API\n## License\n', ['install', 'usage', 'api', 'license'], 0],
    ['closed ATX heading', '## Install ##\n', ['install'], 0],
    ['setext heading', 'Getting started\n---------------\n', ['install', 'usage'], 0],
    ['"Get started", as ollama/ollama @ fb3076099687 heads its first commands', '# Ollama\n## Download\n### macOS\n## Get started\n## REST API\n', ['install', 'usage', 'api'], 0],
    ['HTML heading', '<h2 align="center">Examples</h2>\n', ['usage'], 0],
    ['bold line as heading', '**Configuration:**\n', ['api'], 0],
    ['a heading inside a code fence is code', '```\n# install\n```\n', [], 1],
    ['tilde fence', '~~~js\nx\n~~~\n', [], 1],
    ['longer fence contains a shorter one', '````md\n```\n## Usage\n```\n````\n', [], 1],
    ['unclosed fence', '```\ncode\n', [], 1],
    ['indented code after a paragraph', 'Run:\n\n    npm test\n    npm run build\n', [], 1],
    ['list continuation is not code', '- item\n\n    more text for the item\n', [], 0],
    ['pre block', '<pre>\nx\n</pre>\n', [], 1],
    ['rst directive with its body counts once', '.. code-block:: js\n\n    x()\n', [], 1],
    ['words inside a paragraph are not headings', 'To install, run npm install. Usage is simple.\n', [], 0],
    ['escape sequences do not hide a heading', '# \u001b[1mUsage\u001b[0m\n', ['usage'], 0],
  ])('%s', (_name, text, sections, codeBlocks) => {
    const analysis = analyseReadme(text);
    expect(analysis.sections).toEqual(sections);
    expect(analysis.codeBlocks).toBe(codeBlocks);
  });

  it('does not count badges, images or comments as text', () => {
    const text = '[![ci](https://x.test/b.svg)](https://x.test)\n![logo](l.png)\n<!-- hidden -->\n<img src="x">\nword';
    expect(analyseReadme(text).length).toBe('word'.length);
  });

  it('an unclosed comment hides the rest, as in HTML', () => {
    expect(analyseReadme('visible <!-- hidden forever').length).toBe('visible'.length);
  });
});

describe('readmeScore', () => {
  it('the points add up to 100', () => {
    expect(Object.values(README_POINTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it.each<[number, string[], number, number]>([
    [0, [], 0, 25],
    [299, [], 0, 25],
    [300, [], 0, 35],
    [1499, [], 0, 35],
    [1500, [], 0, 45],
    [1500, ['install', 'usage', 'api', 'license'], 3, 100],
    [100, ['usage'], 1, 50],
  ])('length %i, sections %j, %i code blocks → %i', (length, sections, codeBlocks, score) => {
    expect(readmeScore({ length, sections: sections as never, codeBlocks })).toBe(score);
  });
});

describe('findHeading', () => {
  const HISTORY = /history|changelog/i;

  it.each<[string, string, string | null]>([
    ['Markdown', '# x\n\ntext\n\n## Changelog\n\n- one\n', 'Changelog'],
    ['reStructuredText underline', 'x\n=\n\nRelease History\n---------------\n\n2.0\n', 'Release History'],
    ['HTML', '<h2 id="h">History</h2>\n', 'History'],
    ['inside a fenced code block', '# x\n\n```\n# changelog\n```\n', null],
    ['a paragraph is not a heading', 'The changelog lives elsewhere.\n', null],
  ])('%s', (_name, text, heading) => {
    expect(findHeading(text, HISTORY)).toBe(heading);
  });

  it('returns the first match, plain and at most 80 characters', () => {
    expect(findHeading('## History \u001b[31mof\u001b[0m it\n\n## Changelog\n', HISTORY)).toBe('History of it');
    expect(findHeading(`## History ${'x'.repeat(200)}\n`, HISTORY)).toHaveLength(80);
  });
});
