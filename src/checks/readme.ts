/**
 * readme: whether the package ships a README with substance (not just badges): the npm
 * tarball's README, or the long description PyPI shows as the project's README.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { analyseReadme, readmeScore } from './lib/readme.js';

export default defineCheck({
  id: 'readme',
  dimension: 'documentation',
  weight: 3,
  needs: ['documents'],
  title: 'README substance',
  description:
    'Reads the README shipped in the npm tarball (when the tarball cannot be read, the README the registry shows: the full packument\'s `readme`), or the PyPI long description (Markdown, reStructuredText or plain text), with badges, images and HTML comments removed. No README scores 0; otherwise 25 for having one, ' +
    '+10 at 300 characters and +10 more at 1,500, +15 for an install section, +15 for usage/examples, +10 for API/options, +10 for a code block, +5 for a licence section (at most 100).',
  messages: {
    missing: 'No README in the package',
    'missing-registry': 'No README: the registry shows none for this version (the tarball could not be read)',
    'missing-description': 'No long description: PyPI shows no README for this release',
    bare: 'README of {length} characters with no install, usage or API section',
    thin: 'README is thin: {length} characters, sections: {sections}, {codeBlocks} code blocks',
    good: 'README of {length} characters, sections: {sections}, {codeBlocks} code blocks',
  },
  evaluate: ({ documents }) => {
    const readme = documents.readme;
    if (readme === null) {
      const messageId = documents.source === 'pypi' ? 'missing-description' : documents.source === 'packument' ? 'missing-registry' : 'missing';
      return { score: 0, messageId, data: { path: null, source: documents.source } };
    }
    const analysis = analyseReadme(readme.text);
    const score = readmeScore(analysis);
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
    const hasCoreSection = analysis.sections.some((s) => s !== 'license');
    if (!hasCoreSection) return { score, messageId: 'bare', data };
    return { score, messageId: score >= 70 ? 'good' : 'thin', data };
  },
});
