/**
 * dependency-footprint: how many direct runtime dependencies the package pulls in (npm
 * `dependencies`; PyPI `requires_dist` entries without an `extra ==` marker).
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { rangeBandProse } from './lib/band-prose.js';

/** Direct runtime dependencies: at most this many → this score, and the message that says so. */
export const FOOTPRINT_BANDS: readonly (readonly [maxDependencies: number, score: number, messageId: 'small' | 'moderate' | 'large'])[] = [
  [5, 100, 'small'],
  [15, 80, 'moderate'],
  [30, 60, 'large'],
];
/** More than the last band. */
const HUGE_SCORE = 40;

export default defineCheck({
  id: 'dependency-footprint',
  dimension: 'maintenance',
  weight: 1,
  needs: ['release'],
  title: 'Dependency footprint',
  description:
    'Counts direct runtime dependencies — npm `dependencies`, PyPI `requires_dist` entries outside extras (environment markers included) — since each one is more code to trust and keep updated: ' +
    `${rangeBandProse(FOOTPRINT_BANDS.map(([max, score]) => [max, score] as const), 'scores', HUGE_SCORE)}.`,
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
    for (const [max, score, messageId] of FOOTPRINT_BANDS) if (dependencies <= max) return { score, messageId, data };
    return { score: HUGE_SCORE, messageId: 'huge', data };
  },
});
