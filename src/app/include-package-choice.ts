/**
 * The include-package choice as the long-running front doors take it (docs/scoring.md §9,
 * docs/serve.md, docs/mcp.md): fold a verified package's registry checks into a repository
 * report — the package the rule picks, or one named (`x`, `@scope/x`, `npm:x`, `pypi:x`), which
 * must be one whose link to the repository verifies (else the evaluation is a `bad-option` error,
 * as on the command line). It only means something for `github:` targets: a choice given with no
 * such target is a usage error, and it is dropped for the others (so they share evaluations with
 * the calls that made no choice). An evaluation's identity includes it (app/evaluator.ts).
 */
import { z } from 'zod';
import type { Target } from '../target/types.js';

/** `name` null: the rule picks (the root manifest's package, else the first verified one). */
export interface IncludePackage {
  name: string | null;
}

/** Words that read as yes or no: as a bare package name they are refused (`npm:true` names the package). */
const BOOLEAN_SPELLINGS = /^(?:true|false|yes|no|on|off|1|0)$/i;

/** A package name as the choice names it: no space, no control character, no URL, no path beyond a scope. */
export const IncludedPackageNameSchema = z
  .string()
  .min(1)
  .max(220)
  .regex(/^(?:(?:npm|pypi):)?(?:@[\w.~-]+\/)?[\w.~-]+$/i, 'not a package name (x, @scope/x, npm:x or pypi:x)')
  // A bare yes/no word (`TRUE`, `1`, `off`…) is a choice spelled another way, not a package name: refused, never read as either.
  .refine((name) => !BOOLEAN_SPELLINGS.test(name), 'a yes/no word is not a package name: write true or false, or npm:<name> for a package so named');

/** Why a choice was refused before anything was evaluated. */
export const INCLUDE_PACKAGE_NEEDS_REPOSITORY = 'include-package applies to repository targets (github:owner/repo)';

/** Whether the choice means something for any of these targets (else it is a usage error). */
export function includePackageApplies(targets: readonly Target[]): boolean {
  return targets.some((t) => t.ecosystem === 'github');
}

/** The choice as one target's evaluation takes it: only `github:` targets fold a package in. */
export function includePackageFor(target: Target, choice: IncludePackage | undefined): IncludePackage | undefined {
  return choice !== undefined && target.ecosystem === 'github' ? choice : undefined;
}

/** What the choice adds to an evaluation's key: '' without one, so calls without it share as before. */
export function includePackageKey(choice: IncludePackage | undefined): string {
  if (choice === undefined) return '';
  return choice.name === null ? '+include-package' : `+include-package=${choice.name}`;
}
