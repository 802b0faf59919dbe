/**
 * known-vulnerabilities: published advisories affecting the resolved version. The
 * vulnerability source does not exist yet, so this check is unknown (and, guarding danger,
 * keeps the verdict at CAUTION at best); the vulnerability issue replaces the evaluation.
 */
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'known-vulnerabilities',
  dimension: 'security',
  weight: 5,
  needs: ['vulnerabilities'],
  guardsDanger: true,
  title: 'Known vulnerabilities',
  description:
    'Looks up published advisories for the resolved version. No advisory scores 100; advisory details are not evaluated yet, so any advisory leaves the check unknown (as does the missing vulnerability source, for now).',
  messages: {
    none: 'No known advisories for this version',
    'not-evaluated': '{count} advisories found; advisory details not evaluated yet',
  },
  evaluate: ({ vulnerabilities }) => {
    const count = vulnerabilities.advisories.length;
    if (count === 0) return { score: 100, messageId: 'none', data: { count } };
    return { score: null, messageId: 'not-evaluated', data: { count } };
  },
});
