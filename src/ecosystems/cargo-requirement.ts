/**
 * Cargo's version requirements (`Cargo.toml` `[dependencies]`, docs/scoring.md §9) and the
 * version cargo would pick for one without a lockfile: the highest published version that is
 * neither yanked nor a pre-release and matches (a pre-release only when the requirement names a
 * pre-release of the same major.minor.patch). Pure.
 *
 * Cargo's syntax is mapped onto node-semver's range grammar, whose semantics match cargo's for
 * every form cargo accepts:
 * - a bare version is a caret requirement in cargo (`1.2.3` = `^1.2.3`) but exact in node-semver:
 *   each comparator without an operator gets `^`;
 * - caret on 0.x (`^0.2.3` = `>=0.2.3, <0.3.0`; `^0.0.3` = `=0.0.3`; `^0.0` = `<0.1.0`), tilde
 *   (`~1.2` = `>=1.2.0, <1.3.0`), `=`, `>`, `>=`, `<`, `<=` with partial versions (`>1.2` =
 *   `>=1.3.0`), wildcards (`*`, `1.*`, `1.2.x`): the same in both;
 * - comparators are joined by commas in cargo (all must hold), by spaces in node-semver;
 * - the pre-release rule above is node-semver's default (`includePrerelease` off);
 * - what node-semver accepts and cargo does not (`||`, hyphen ranges, space-separated
 *   comparators, a leading `v`, loose forms) is refused here: the requirement is not cargo's.
 */
import semver from 'semver';

/** Requirements longer than this are not cargo's (no real one comes close). */
const MAX_REQUIREMENT = 256;
const COMPARATOR = /^(=|>=|>|<=|<|~|\^)?\s*((?:0|[1-9]\d*|\*|x|X)(?:\.(?:0|[1-9]\d*|\*|x|X)){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;

/** A cargo requirement as a node-semver range, or null when it is not one cargo accepts. */
export function cargoRange(requirement: string): string | null {
  if (requirement.length > MAX_REQUIREMENT) return null;
  const parts = requirement.split(',').map((p) => p.trim());
  if (parts.some((p) => p === '')) return null;
  const comparators: string[] = [];
  for (const part of parts) {
    const match = COMPARATOR.exec(part);
    if (match === null) return null;
    const [, operator, version = ''] = match;
    // A wildcard takes no operator in cargo but `*` alone (and `1.*`) is allowed bare.
    comparators.push(operator === undefined ? (/[*xX]/.test(version) ? version : `^${version}`) : `${operator}${version}`);
  }
  const range = comparators.join(' ');
  return semver.validRange(range) === null ? null : range;
}

export interface PublishedCrateVersion {
  vers: string;
  yanked: boolean;
}

export type CargoPick = { ok: true; version: string } | { ok: false; reason: string };

/** The version cargo would resolve `requirement` to among `published` today, or why none. */
export function resolveCargoRequirement(published: readonly PublishedCrateVersion[], requirement: string): CargoPick {
  const range = cargoRange(requirement);
  if (range === null) return { ok: false, reason: `not a cargo version requirement: ${JSON.stringify(requirement.slice(0, 60))}` };
  const candidates = published.filter((p) => !p.yanked && semver.valid(p.vers) !== null).map((p) => p.vers);
  const version = semver.maxSatisfying(candidates, range);
  if (version !== null) return { ok: true, version };
  const yankedOnly = semver.maxSatisfying(
    published.filter((p) => p.yanked && semver.valid(p.vers) !== null).map((p) => p.vers),
    range,
  );
  return { ok: false, reason: yankedOnly === null ? `no published version matches ${requirement}` : `only yanked versions match ${requirement}` };
}
