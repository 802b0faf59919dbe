/**
 * Category profiles: how much each dimension weighs in the overall score for a kind of
 * package. The single table; docs/scoring.md prints it. Each row sums to 1.
 */
import type { Dimension } from '../checks/define.js';

export const CATEGORIES = [
  'library',
  'cli',
  'web-framework',
  'mcp-server',
  'ai-agent-tool',
  'code-execution',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const DIMENSION_TITLES: Record<Dimension, string> = {
  security: 'Security',
  maintenance: 'Maintenance',
  documentation: 'Documentation',
  compliance: 'Compliance',
  community: 'Community',
};

export const PROFILES: Record<Category, Record<Dimension, number>> = {
  library: { security: 0.3, maintenance: 0.25, documentation: 0.15, compliance: 0.15, community: 0.15 },
  cli: { security: 0.3, maintenance: 0.25, documentation: 0.2, compliance: 0.1, community: 0.15 },
  'web-framework': { security: 0.25, maintenance: 0.2, documentation: 0.2, compliance: 0.1, community: 0.25 },
  'mcp-server': { security: 0.4, maintenance: 0.25, documentation: 0.1, compliance: 0.1, community: 0.15 },
  'ai-agent-tool': { security: 0.4, maintenance: 0.25, documentation: 0.1, compliance: 0.1, community: 0.15 },
  'code-execution': { security: 0.45, maintenance: 0.25, documentation: 0.1, compliance: 0.1, community: 0.1 },
};

/**
 * Categories whose packages act with the user's credentials, tools or shell. They need more to
 * earn YES, never less: their score is never above the library profile's for the same facts
 * (evaluate.ts), and YES needs grade A.
 */
export const RISK_CATEGORIES: readonly Category[] = ['mcp-server', 'ai-agent-tool', 'code-execution'];
export const RISK_YES_BAR = 80;

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
