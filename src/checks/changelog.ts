/**
 * changelog: whether release notes ship with the package.
 */
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'changelog',
  dimension: 'documentation',
  weight: 1,
  needs: ['tarball'],
  title: 'Changelog',
  description:
    'Looks for a CHANGELOG, HISTORY or CHANGES file in the tarball: shipped scores 100, none 40 (release notes may live in the repository instead).',
  messages: {
    present: 'Changelog shipped ({path})',
    missing: 'No changelog in the package; release notes may live in the repository',
  },
  evaluate: ({ tarball }) => {
    const path = tarball.changelogFile;
    if (path === null) return { score: 40, messageId: 'missing', data: { path } };
    return { score: 100, messageId: 'present', data: { path } };
  },
});
