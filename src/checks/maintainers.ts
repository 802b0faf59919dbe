/**
 * maintainers: how many people can publish the package (its bus factor): npm maintainers, or
 * the owners and maintainers of a PyPI project.
 */
import { defineCheck } from './define.js';
import type { ReleaseFacts } from './views/release.js';

/** The message for an unknown maintainer list, per ecosystem. */
const UNKNOWN: Readonly<Record<ReleaseFacts['ecosystem'], 'unknown' | 'unknown-pypi'>> = { npm: 'unknown', pypi: 'unknown-pypi' };

export default defineCheck({
  id: 'maintainers',
  dimension: 'community',
  weight: 2,
  needs: ['release'],
  title: 'Maintainers',
  description:
    'Counts the accounts that can publish — npm maintainers; PyPI owners and maintainers (`ownership.roles`) — 3 or more score 100, 2 score 70, 1 scores 40 (bus factor 1), none 0. Unknown when a mirror serves abbreviated package metadata without the list or PyPI does not give the roles.',
  messages: {
    many: '{maintainers} maintainers',
    two: '2 maintainers',
    single: 'Single maintainer: bus factor 1',
    none: 'No maintainers listed',
    unknown: 'Maintainer list unknown: the registry did not include it',
    'unknown-pypi': 'Maintainer list unknown: PyPI did not give the project roles',
  },
  evaluate: ({ release }) => {
    const maintainers = release.maintainers;
    if (maintainers === null) {
      return { score: null, messageId: UNKNOWN[release.ecosystem], data: { maintainers } };
    }
    if (maintainers <= 0) return { score: 0, messageId: 'none', data: { maintainers } };
    if (maintainers === 1) return { score: 40, messageId: 'single', data: { maintainers } };
    if (maintainers === 2) return { score: 70, messageId: 'two', data: { maintainers } };
    return { score: 100, messageId: 'many', data: { maintainers } };
  },
});
