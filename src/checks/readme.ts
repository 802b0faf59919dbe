/**
 * readme: whether the package ships a README with substance (not just badges): the npm
 * tarball's README, or the long description PyPI shows as the project's README.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { analyseReadme, README_POINTS, README_SECTIONS, readmeScore } from './lib/readme.js';
import type { DocumentsFacts } from './views/documents.js';

/** The message for no README, per place the documents were read. */
const MISSING: Readonly<Record<DocumentsFacts['source'], 'missing' | 'missing-description' | 'missing-registry' | 'missing-repository'>> = {
  tarball: 'missing',
  packument: 'missing-registry',
  pypi: 'missing-description',
  repository: 'missing-repository',
};

/** What a `docs/` or `examples/` folder with files adds to a repository README's score. */
const FOLDER_POINTS = 10;

/** What a README's `size` counts, per place it was read: a PyPI description's characters, else bytes. */
const SIZE_UNIT: Readonly<Record<DocumentsFacts['source'], 'bytes' | 'characters'>> = { tarball: 'bytes', packument: 'bytes', pypi: 'characters', repository: 'bytes' };

export default defineCheck({
  id: 'readme',
  dimension: 'documentation',
  weight: 3,
  needs: ['documents'],
  title: 'README substance',
  description:
    'Reads the README shipped in the npm tarball (when the tarball cannot be read, the README the registry shows: the `readme` of its full package metadata), or the PyPI long description (Markdown, reStructuredText or plain text), with badges, images and HTML comments removed. No README scores 0; otherwise ' +
    `${README_POINTS.exists} for having one, ` +
    `+${README_POINTS.length300} at 300 characters and +${README_POINTS.length1500} more at 1,500, +${README_POINTS.install} for an install section, +${README_POINTS.usage} for usage/examples, +${README_POINTS.api} for API/options, +${README_POINTS.code} for a code block, +${README_POINTS.license} for a licence section (at most 100). ` +
    'A `github:` target reads the README at the root of its repository (else the one GitHub shows from `.github/` or `docs/`), and a `docs/` or `examples/` folder with files adds ' +
    `${FOLDER_POINTS}; ` +
    'past a README\'s first 64 KiB (a PyPI description\'s 256 KiB) the headings alone announce sections and the code blocks count, read as in the part read (ATX, underlined and reStructuredText headings; fenced, indented, `.. code-block::` and `<pre>` blocks) and the message gives the whole length; unknown when the file could not be read.',
  messages: {
    missing: 'No README in the package',
    'missing-registry': 'No README: the registry shows none for this version (the tarball could not be read)',
    'missing-description': 'No long description: PyPI shows no README for this release',
    'missing-repository': 'No README in the repository (at its root, in .github/ or in docs/)',
    unreadable: 'README unknown: {reason}',
    bare: 'README of {length} characters with no install, usage or API section',
    thin: 'README is thin: {length} characters, sections: {sections}, {codeBlocks} code blocks',
    good: 'README of {length} characters, sections: {sections}, {codeBlocks} code blocks',
    'bare-cut': 'README of {size} {sizeUnit} ({length} characters of text in the part read) with no install, usage or API section',
    'thin-cut': 'README is thin: {size} {sizeUnit} ({length} characters of text in the part read), sections: {sections}, {codeBlocks} code blocks',
    'good-cut': 'README of {size} {sizeUnit} ({length} characters of text in the part read), sections: {sections}, {codeBlocks} code blocks',
  },
  evaluate: ({ documents }) => {
    const readme = documents.readme;
    const unknown = documents.unknown?.readme;
    if (unknown !== undefined) {
      const data: Record<string, EvidenceValue> = { path: null, source: documents.source, reason: unknown };
      return { score: null, messageId: 'unreadable', data };
    }
    if (readme === null) {
      return { score: 0, messageId: MISSING[documents.source], data: { path: null, source: documents.source } };
    }
    const read = analyseReadme(readme.text);
    // A README cut short is still read for the sections its headings past the cut announce, and its code blocks there.
    const tail = readme.tailHeadings ?? [];
    const past = tail.length === 0 ? [] : analyseReadme(tail.map((h) => `## ${h}`).join('\n\n')).sections;
    const analysis = { ...read, sections: README_SECTIONS.filter((s) => read.sections.includes(s) || past.includes(s)), codeBlocks: read.codeBlocks + (readme.tailCodeBlocks ?? 0) };
    const folders = documents.folders;
    // A repository's documentation may live beside its README: a docs/ or examples/ folder.
    const score = Math.min(100, readmeScore(analysis) + (folders !== undefined && (folders.docs || folders.examples) ? FOLDER_POINTS : 0));
    const data: Record<string, EvidenceValue> = {
      path: readme.path,
      source: documents.source,
      size: readme.size,
      length: analysis.length,
      sections: analysis.sections,
      codeBlocks: analysis.codeBlocks,
      truncated: readme.truncated,
    };
    if (documents.ecosystem === 'pypi') data.contentType = readme.contentType;
    // A README cut short says how long it is whole: `size` is bytes, a PyPI description's characters.
    if (readme.truncated) data.sizeUnit = SIZE_UNIT[documents.source];
    if (folders !== undefined) {
      data.docsFolder = folders.docs;
      data.examplesFolder = folders.examples;
    }
    const hasCoreSection = analysis.sections.some((s) => s !== 'license');
    const cut = readme.truncated;
    if (!hasCoreSection) return { score, messageId: cut ? 'bare-cut' : 'bare', data };
    if (score >= 70) return { score, messageId: cut ? 'good-cut' : 'good', data };
    return { score, messageId: cut ? 'thin-cut' : 'thin', data };
  },
});
