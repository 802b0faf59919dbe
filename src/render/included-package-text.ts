/**
 * The one line a repository report checked with `--include-package` shows (docs/scoring.md §9):
 * the package whose registry checks are folded in and why, or the reason none is, in words.
 */
import type { Report } from '../report/schema.js';

/** Why a package was folded in, in words (the JSON keeps the code); a reason none was says itself. */
const WHY_FOLDED: Readonly<Partial<Record<NonNullable<Report['includedPackage']>['code'], string>>> = {
  named: 'named with --include-package',
  'root-manifest': 'declared by the manifest at the repository root',
  'first-verified': 'the first package whose link verifies',
};

export function includedPackageText(report: Report): string | null {
  const included = report.includedPackage;
  if (included === undefined) return null;
  if (included.included && included.ecosystem !== null && included.name !== null) {
    const why = WHY_FOLDED[included.code] ?? included.reason;
    return `Package folded in: ${included.ecosystem}:${included.name}@${included.version ?? '?'} (${why}): its registry checks count in this report`;
  }
  return `No package folded in: ${included.reason}`;
}
