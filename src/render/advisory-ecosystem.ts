/**
 * The words that name an advisory's ecosystem where the report's target does not already say it:
 * a repository's dependency set may hold an npm package, a Go module and a crate of one name and
 * version (README.md, JSON: an advisory's `ecosystem`). Pure.
 */
import { isPackageEcosystem, packageRulesOf } from '../ecosystems/rules.js';
import type { ModuleEcosystem } from '../ecosystems/types.js';
import type { Report } from '../report/schema.js';

type Advisory = Report['advisories'][number];

/** A module ecosystem's name; a package ecosystem is named by its rules (`displayName`: `npm`, `PyPI`). */
const MODULE_NAMES: Record<ModuleEcosystem, string> = { go: 'Go module', cargo: 'crate', maven: 'Maven artifact' };

/** `Go module`, `crate`, `npm` …, or null when the advisory is in the target's own ecosystem or does not say. */
export function advisoryEcosystemLabel(advisory: Advisory, report: Report): string | null {
  if (advisory.ecosystem === null || advisory.ecosystem === report.target.ecosystem) return null;
  const { ecosystem } = advisory;
  return isPackageEcosystem(ecosystem) ? packageRulesOf(ecosystem).displayName : MODULE_NAMES[ecosystem];
}
