/**
 * metadata-completeness: whether the package metadata tells users what the package is and
 * where its source, home page and issue tracker live (npm manifest or PyPI core metadata).
 */
import type { ReleaseFacts } from './views/release.js';
import { defineCheck } from './define.js';

export const METADATA_FIELDS = ['description', 'repository', 'homepage', 'bugs', 'keywords', 'license'] as const;
type MetadataField = (typeof METADATA_FIELDS)[number];

const filled = (value: string | null): boolean => value !== null && value.trim() !== '';

const PRESENT: Readonly<Record<MetadataField, (r: ReleaseFacts) => boolean>> = {
  description: (r) => filled(r.description),
  repository: (r) => r.repository !== null && filled(r.repository.raw),
  homepage: (r) => filled(r.homepage),
  bugs: (r) => filled(r.issuesUrl),
  keywords: (r) => r.keywords.some((k) => k.trim() !== ''),
  // A PyPI licence named only by a classifier is still declared.
  license: (r) => filled(r.license.text) || r.license.classifiers.length > 0,
};

/** How each field is called in a PyPI project's metadata (the evidence names what is missing). */
const PYPI_NAMES: Readonly<Record<MetadataField, string>> = {
  description: 'summary',
  repository: 'repository',
  homepage: 'homepage',
  bugs: 'issue-tracker',
  keywords: 'keywords',
  license: 'license',
};

/** How each ecosystem names a missing field (npm: the field itself). */
const FIELD_NAME: Readonly<Record<ReleaseFacts['ecosystem'], (field: MetadataField) => string>> = { npm: (field) => field, pypi: (field) => PYPI_NAMES[field] };

export default defineCheck({
  id: 'metadata-completeness',
  dimension: 'documentation',
  weight: 2,
  needs: ['release'],
  title: 'Package metadata',
  description:
    'Counts the metadata fields users rely on: description, repository, homepage, bugs, keywords (at least one) and license; for PyPI the summary, a repository and a homepage URL, an issue-tracker project URL, keywords and any licence declaration. Score = fields present ÷ 6 × 100.',
  messages: {
    complete: 'All {total} metadata fields present',
    partial: '{present} of {total} metadata fields present; missing: {missing}',
  },
  evaluate: ({ release }) => {
    const absent = METADATA_FIELDS.filter((field) => !PRESENT[field](release));
    const missing = absent.map(FIELD_NAME[release.ecosystem]);
    const total = METADATA_FIELDS.length;
    const present = total - absent.length;
    const data = { present, total, missing };
    const score = Math.round((present / total) * 1000) / 10;
    return { score, messageId: absent.length === 0 ? 'complete' : 'partial', data };
  },
});
