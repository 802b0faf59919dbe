import { describe, expect, it } from 'vitest';
import check from '../../src/checks/readme.js';
import { evidence, unavailable } from '../support/evidence-builder.js';
import { pypiEvidence } from '../support/pypi-evidence.js';
import { checkTable, outcomeOf, runCheck } from './check-table.js';
import { repoFiles, repositoryEvidence } from '../support/repository-evidence.js';

const withReadme = (text: string, truncated = false) =>
  evidence({ tarball: { readme: { path: 'README.md', size: text.length, text, truncated } } });

const withDescription = (text: string, contentType: string | null = 'text/x-rst') =>
  pypiEvidence({ pypi: { description: { text, contentType, length: text.length, truncated: false } } });

const prose = (chars: number) => 'Lorem ipsum dolor sit amet. '.repeat(Math.ceil(chars / 28)).slice(0, chars);

const FULL = `# pkg

${prose(1600)}

## Install

    npm install pkg

## Examples

\`\`\`js
pkg();
\`\`\`

## Options

- \`a\`: the first option

## Licence

ISC
`;

checkTable(check, [
  {
    name: 'no tarball: the README the registry shows is read instead',
    evidence: evidence({
      tarball: unavailable('timeout'),
      registry: { readme: { size: 60, text: '# example\n\n## Install\n\n```sh\nnpm i example\n```\n', truncated: false } },
    }),
    score: 65,
    messageId: 'thin',
    data: { path: null, source: 'packument', sections: ['install', 'usage'], codeBlocks: 1 },
  },
  {
    name: 'no tarball, and the registry shows no README: none',
    evidence: evidence({ tarball: unavailable('timeout'), registry: { readme: false } }),
    score: 0,
    messageId: 'missing-registry',
    data: { source: 'packument' },
  },

  { name: 'no README', evidence: evidence({ tarball: { readme: null } }), score: 0, messageId: 'missing', data: { path: null } },
  {
    name: 'default example README (short, every section)',
    evidence: evidence(),
    score: 90,
    messageId: 'good',
    data: { path: 'README.md', sections: ['install', 'usage', 'api', 'license'], codeBlocks: 2, truncated: false },
  },
  {
    name: 'full README',
    evidence: withReadme(FULL),
    score: 100,
    messageId: 'good',
    data: { sections: ['install', 'usage', 'api', 'license'], codeBlocks: 2 },
  },
  { name: 'empty README', evidence: withReadme(''), score: 25, messageId: 'bare', data: { length: 0, sections: [] } },
  {
    name: 'badges only do not count',
    evidence: withReadme(
      '[![build](https://ci.example.test/badge.svg)](https://ci.example.test)\n'.repeat(20) +
        '![logo](https://example.test/logo.png)\n<img src="https://example.test/x.png" alt="x">\n',
    ),
    score: 25,
    messageId: 'bare',
    data: { length: 0 },
  },
  {
    name: 'prose without headings',
    evidence: withReadme(prose(2000)),
    score: 45,
    messageId: 'bare',
    data: { length: 1999, sections: [], codeBlocks: 0 },
  },
  {
    name: 'thin: 400 characters and a usage heading',
    evidence: withReadme(`# x\n\n## Usage\n\n${prose(400)}`),
    score: 50,
    messageId: 'thin',
    data: { sections: ['usage'], codeBlocks: 0 },
  },
  {
    name: 'only a licence heading',
    evidence: withReadme('# x\n\n## License\n\nMIT\n'),
    score: 30,
    messageId: 'bare',
    data: { sections: ['license'] },
  },
  {
    name: 'reStructuredText headings and code directive',
    evidence: withReadme(
      `pkg\n===\n\nInstallation\n------------\n\n.. code-block:: sh\n\n    pip install pkg\n\nUsage\n-----\n\n${prose(300)}\n`,
    ),
    score: 75,
    messageId: 'good',
    data: { sections: ['install', 'usage'], codeBlocks: 1 },
  },
  {
    name: 'truncated text is flagged, and the message gives the whole size (evidence saved without the tail: the part kept alone)',
    evidence: withReadme(FULL, true),
    score: 100,
    messageId: 'good-cut',
    data: { truncated: true, size: FULL.length, sizeUnit: 'bytes' },
  },
  // PyPI: the long description is the README PyPI shows.
  {
    name: 'PyPI: Markdown long description',
    evidence: pypiEvidence(),
    score: 90,
    messageId: 'good',
    data: { path: null, contentType: 'text/markdown', sections: ['install', 'usage', 'api', 'license'], codeBlocks: 2 },
  },
  {
    name: 'PyPI: reStructuredText long description',
    evidence: withDescription(`example\n=======\n\nInstallation\n------------\n\n.. code-block:: sh\n\n    pip install example\n\nUsage\n-----\n\n${prose(1600)}\n`),
    score: 85,
    messageId: 'good',
    data: { sections: ['install', 'usage'], codeBlocks: 1, contentType: 'text/x-rst' },
  },
  { name: 'PyPI: no long description', evidence: pypiEvidence({ pypi: { description: null } }), score: 0, messageId: 'missing-description', data: { path: null } },
  { name: 'PyPI: "UNKNOWN" (old metadata) is no long description', evidence: withDescription('UNKNOWN', null), score: 0, messageId: 'missing-description' },
  { name: 'PyPI: a one-line description', evidence: withDescription('A tool.', 'text/plain'), score: 25, messageId: 'bare', data: { length: 7 } },
  // A github: target: the README at the root of its repository.
  {
    name: 'repository: README with install and usage (65), plus a docs folder (+10)',
    evidence: repositoryEvidence({ files: repoFiles({ docsFolder: true }) }),
    score: 75,
    messageId: 'good',
    data: { path: 'README.md', source: 'repository', docsFolder: true, examplesFolder: false },
  },
  {
    // modelcontextprotocol/inspector @ 86d5f58ec8c3: its README's `## License` sits past the first 64 KiB kept.
    name: 'repository: a README cut short still has the sections its headings past the cut announce (API +10, licence +5) and the code blocks there',
    evidence: repositoryEvidence({
      files: repoFiles({
        readme: { path: 'README.md', size: 70_450, text: '# example\n\n## Install\n\n```sh\nnpm install example\n```\n\n## Usage\n\nCall `parse(text)`.\n', truncated: true, tailHeadings: ['Docker', 'API reference', 'License'], tailCodeBlocks: 3 },
      }),
    }),
    score: 80,
    messageId: 'good-cut',
    data: { sections: ['install', 'usage', 'api', 'license'], codeBlocks: 4, truncated: true, size: 70_450, sizeUnit: 'bytes' },
  },
  {
    name: 'npm tarball: a README cut short has the sections and code blocks past the cut (licence +5, code +10)',
    evidence: evidence({
      tarball: {
        readme: { path: 'README.md', size: 212_000, text: `# example\n\n## Installation\n\n${prose(1600)}\n\n## Usage\n\nCall it.\n`, truncated: true, tailHeadings: ['API', 'License'], tailCodeBlocks: 2 },
      },
    }),
    score: 100,
    messageId: 'good-cut',
    data: { source: 'tarball', sections: ['install', 'usage', 'api', 'license'], codeBlocks: 2, size: 212_000, sizeUnit: 'bytes' },
  },
  {
    name: 'npm tarball: a README cut short whose only section past the cut is its licence: bare, the whole size given',
    evidence: evidence({ tarball: { readme: { path: 'README.md', size: 70_000, text: prose(1600), truncated: true, tailHeadings: ['Changes', 'License'], tailCodeBlocks: 0 } } }),
    score: 50,
    messageId: 'bare-cut',
    data: { sections: ['license'], codeBlocks: 0, size: 70_000, sizeUnit: 'bytes' },
  },
  {
    name: 'no tarball: the registry\'s README cut short has the sections past the cut too',
    evidence: evidence({
      tarball: unavailable('timeout'),
      registry: { readme: { size: 90_000, text: `# example\n\n${prose(1600)}\n`, truncated: true, tailHeadings: ['Install', 'Usage'], tailCodeBlocks: 1 } },
    }),
    score: 85,
    messageId: 'good-cut',
    data: { path: null, source: 'packument', sections: ['install', 'usage'], codeBlocks: 1, size: 90_000, sizeUnit: 'bytes' },
  },
  {
    name: 'PyPI: a long description cut short has the sections past the cut, its whole length in characters',
    evidence: pypiEvidence({
      pypi: { description: { text: `# example\n\n${prose(1600)}\n`, contentType: 'text/markdown', length: 300_000, truncated: true, tailHeadings: ['Quick start', 'Changelog'], tailCodeBlocks: 0 } },
    }),
    score: 60,
    messageId: 'thin-cut',
    data: { path: null, sections: ['usage'], codeBlocks: 0, size: 300_000, sizeUnit: 'characters' },
  },
  {
    name: 'repository: no README at the root',
    evidence: repositoryEvidence({ files: repoFiles({ readme: null }) }),
    score: 0,
    messageId: 'missing-repository',
  },
  {
    name: 'repository: README listed but answered 404: unknown, never missing',
    evidence: repositoryEvidence({ files: repoFiles({ readme: null, unread: [{ path: 'README.md', reason: 'GitHub answered 404 for the file' }] }) }),
    score: null,
    messageId: 'unreadable',
    data: { reason: 'README.md: GitHub answered 404 for the file' },
  },
  {
    name: 'repository: a truncated tree without a README listed: unknown',
    evidence: repositoryEvidence({ files: repoFiles({ readme: null, treeTruncated: true }) }),
    score: null,
    messageId: 'unreadable',
  },
]);

describe('readme hostile input', () => {
  it('survives pathological markup without crashing', () => {
    const hostile = `${'[!['.repeat(20_000)}\n${'<!--'.repeat(5_000)}\n${'<img '.repeat(5_000)}\n${'#'.repeat(10_000)}`;
    const outcome = outcomeOf(check, withReadme(hostile));
    expect(outcome.messageId).toBe('bare');
    expect(outcome.data?.sections).toEqual([]);
    expect(outcome.score).toBe(45);
  });

  it('keeps control characters as data (the renderer sanitises)', () => {
    const outcome = outcomeOf(check, withReadme('# \u001b[31mInstall\u001b[0m\n\ntext'));
    expect(outcome.data?.sections).toEqual(['install']);
  });
});

describe('readme without the tarball', () => {
  it('is unknown, with the tarball\'s reason, when the registry does not say either (trimmed packument)', () => {
    expect(runCheck(check, evidence({ tarball: unavailable('timeout'), registry: { readme: null } }))).toEqual({
      kind: 'unknown-source',
      source: 'documents',
    });
  });
});
