/**
 * The five dimensions every check scores under (docs/scoring.md), in the report's order. Shared
 * vocabulary: the checks, the engine and the report contract all read it from here.
 */
export const DIMENSIONS = ['security', 'maintenance', 'documentation', 'compliance', 'community'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
