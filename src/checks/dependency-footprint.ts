/**
 * dependency-footprint: how many direct runtime dependencies the package pulls in.
 */
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'dependency-footprint',
  dimension: 'maintenance',
  weight: 1,
  needs: ['registry'],
  title: 'Dependency footprint',
  description:
    'Counts direct runtime `dependencies` (each one is more code to trust and keep updated): 0–5 scores 100, 6–15 80, 16–30 60, more than 30 40.',
  messages: {
    small: '{dependencies} direct runtime dependencies',
    moderate: '{dependencies} direct runtime dependencies',
    large: '{dependencies} direct runtime dependencies: a large footprint',
    huge: '{dependencies} direct runtime dependencies: a very large footprint',
  },
  evaluate: ({ registry }) => {
    const dependencies = registry.dependencies;
    const data = { dependencies, optionalDependencies: registry.optionalDependencies, peerDependencies: registry.peerDependencies };
    if (dependencies <= 5) return { score: 100, messageId: 'small', data };
    if (dependencies <= 15) return { score: 80, messageId: 'moderate', data };
    if (dependencies <= 30) return { score: 60, messageId: 'large', data };
    return { score: 40, messageId: 'huge', data };
  },
});
