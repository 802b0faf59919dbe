/**
 * The words that name an advisory's ecosystem where the report's target does not already say it:
 * a repository's dependency set may hold an npm package, a Go module and a crate of one name and
 * version (README.md, JSON: an advisory's `ecosystem`). Pure.
 */
import type { Report } from '../report/schema.js';

type Advisory = Report['advisories'][number];

const NAMES: Record<NonNullable<Advisory['ecosystem']>, string> = { npm: 'npm', pypi: 'PyPI', go: 'Go module', cargo: 'crate' };

/** `Go module`, `crate`, `npm` …, or null when the advisory is in the target's own ecosystem or does not say. */
export function advisoryEcosystemLabel(advisory: Advisory, report: Report): string | null {
  if (advisory.ecosystem === null || advisory.ecosystem === report.target.ecosystem) return null;
  return NAMES[advisory.ecosystem];
}
