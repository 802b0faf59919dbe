/**
 * dependency-footprint: how many direct runtime dependencies the package pulls in (npm
 * `dependencies`; PyPI `requires_dist` entries without an `extra ==` marker).
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'dependency-footprint',
  dimension: 'maintenance',
  weight: 1,
  needs: ['release'],
  title: 'Dependency footprint',
  description:
    'Counts direct runtime dependencies — npm `dependencies`, PyPI `requires_dist` entries outside extras (environment markers included) — since each one is more code to trust and keep updated: 0–5 scores 100, 6–15 80, 16–30 60, more than 30 40.',
  messages: {
    one: '1 direct runtime dependency',
    small: '{dependencies} direct runtime dependencies',
    moderate: '{dependencies} direct runtime dependencies',
    large: '{dependencies} direct runtime dependencies: a large footprint',
    huge: '{dependencies} direct runtime dependencies: a very large footprint',
  },
  evaluate: ({ release }) => {
    const dependencies = release.dependencies;
    const data: Record<string, EvidenceValue> = {
      dependencies,
      optionalDependencies: release.optionalDependencies,
      peerDependencies: release.peerDependencies,
    };
    // One is worded in the singular (`1 direct runtime dependencies` read wrong); the same score as the few.
    if (dependencies === 1) return { score: 100, messageId: 'one', data };
    if (dependencies <= 5) return { score: 100, messageId: 'small', data };
    if (dependencies <= 15) return { score: 80, messageId: 'moderate', data };
    if (dependencies <= 30) return { score: 60, messageId: 'large', data };
    return { score: 40, messageId: 'huge', data };
  },
});
