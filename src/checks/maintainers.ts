/**
 * maintainers: how many people can publish the package (its bus factor).
 */
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'maintainers',
  dimension: 'community',
  weight: 2,
  needs: ['registry'],
  title: 'Maintainers',
  description:
    'Counts the npm maintainers (accounts that can publish): 3 or more score 100, 2 score 70, 1 scores 40 (bus factor 1), none 0. Unknown when a trimmed packument omits the list.',
  messages: {
    many: '{maintainers} maintainers',
    two: '2 maintainers',
    single: 'Single maintainer: bus factor 1',
    none: 'No maintainers listed',
    unknown: 'Maintainer list unknown: trimmed packument',
  },
  evaluate: ({ registry }) => {
    const maintainers = registry.maintainers;
    if (maintainers === null) return { score: null, messageId: 'unknown', data: { maintainers } };
    if (maintainers <= 0) return { score: 0, messageId: 'none', data: { maintainers } };
    if (maintainers === 1) return { score: 40, messageId: 'single', data: { maintainers } };
    if (maintainers === 2) return { score: 70, messageId: 'two', data: { maintainers } };
    return { score: 100, messageId: 'many', data: { maintainers } };
  },
});
