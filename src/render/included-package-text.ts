/**
 * The one line a repository report checked with `--include-package` shows (docs/scoring.md §9):
 * the package whose registry checks are folded in, or the coded reason none is.
 */
import type { Report } from '../report/schema.js';

export function includedPackageText(report: Report): string | null {
  const included = report.includedPackage;
  if (included === undefined) return null;
  if (included.included && included.ecosystem !== null && included.name !== null) {
    return `Package folded in: ${included.ecosystem}:${included.name}@${included.version ?? '?'} (${included.code}): its registry checks count in this report`;
  }
  return `No package folded in (${included.code}): ${included.reason}`;
}
