/**
 * metadata-completeness: whether the manifest tells users what the package is and where
 * its source, home page and issue tracker live.
 */
import type { RegistryFacts } from '../evidence/schema.js';
import { defineCheck } from './define.js';

export const METADATA_FIELDS = ['description', 'repository', 'homepage', 'bugs', 'keywords', 'license'] as const;
type MetadataField = (typeof METADATA_FIELDS)[number];

const filled = (value: string | null): boolean => value !== null && value.trim() !== '';

const PRESENT: Readonly<Record<MetadataField, (r: RegistryFacts) => boolean>> = {
  description: (r) => filled(r.description),
  repository: (r) => r.repository !== null && filled(r.repository.raw),
  homepage: (r) => filled(r.homepage),
  bugs: (r) => filled(r.bugs),
  keywords: (r) => r.keywords.some((k) => k.trim() !== ''),
  license: (r) => filled(r.license),
};

export default defineCheck({
  id: 'metadata-completeness',
  dimension: 'documentation',
  weight: 2,
  needs: ['registry'],
  title: 'Package metadata',
  description:
    'Counts the manifest fields users rely on: description, repository, homepage, bugs, keywords (at least one) and license. Score = fields present ÷ 6 × 100.',
  messages: {
    complete: 'All {total} metadata fields present',
    partial: '{present} of {total} metadata fields present; missing: {missing}',
  },
  evaluate: ({ registry }) => {
    const missing = METADATA_FIELDS.filter((field) => !PRESENT[field](registry));
    const total = METADATA_FIELDS.length;
    const present = total - missing.length;
    const data = { present, total, missing };
    const score = Math.round((present / total) * 1000) / 10;
    return { score, messageId: missing.length === 0 ? 'complete' : 'partial', data };
  },
});
