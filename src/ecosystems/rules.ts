/**
 * The rules of every ecosystem, one entry each (docs/architecture.md, "Add an ecosystem").
 * Pure: checks, sources and renderers read it; the I/O half is ecosystems/adapters.ts.
 */
import type { SourceId } from '../evidence/schema.js';
import type { Ecosystem } from '../target/types.js';
import { GITHUB_RULES } from './github/rules.js';
import { MCP_RULES } from './mcp/rules.js';
import { NPM_RULES } from './npm/rules.js';
import { PYPI_RULES } from './pypi/rules.js';
import type { EcosystemRules, PackageEcosystem, PackageEcosystemRules, PackageOsvEcosystem } from './types.js';

export const ECOSYSTEM_RULES = {
  npm: NPM_RULES,
  pypi: PYPI_RULES,
  github: GITHUB_RULES,
  mcp: MCP_RULES,
} as const satisfies Record<Ecosystem, EcosystemRules>;

const PACKAGE = { npm: NPM_RULES, pypi: PYPI_RULES } as const satisfies Record<PackageEcosystem, PackageEcosystemRules>;

/** The package ecosystems, in the registry's order. */
export const PACKAGE_ECOSYSTEMS = Object.keys(PACKAGE) as PackageEcosystem[];

const BY_OSV = Object.fromEntries(Object.values<PackageEcosystemRules>(PACKAGE).map((rules) => [rules.registry.osvEcosystem, rules])) as Record<PackageOsvEcosystem, PackageEcosystemRules>;

/** A package registry's ecosystem (every one whose rules have a registry part), not a repository or an MCP entry. */
export function isPackageEcosystem(ecosystem: string): ecosystem is PackageEcosystem {
  return (PACKAGE_ECOSYSTEMS as readonly string[]).includes(ecosystem);
}

export function rulesOf(ecosystem: Ecosystem): EcosystemRules {
  return ECOSYSTEM_RULES[ecosystem];
}

export function packageRulesOf(ecosystem: PackageEcosystem): PackageEcosystemRules {
  return PACKAGE[ecosystem];
}

/** The package ecosystem OSV names `osv`. */
export function packageRulesOfOsv(osv: PackageOsvEcosystem): PackageEcosystemRules {
  return BY_OSV[osv];
}

/** A slot of the evidence's sources (evidence/schema.ts `SOURCE_IDS`): a registry slot the evidence has no source for does not compile. */
type EvidenceSlot<S extends SourceId> = S;

/**
 * The evidence sources only the registry of `E` fills, as its rules name them (`sourceSlots`):
 * npm's `registry` and `tarball`, PyPI's `pypi`; none for an ecosystem `PACKAGE` does not list yet
 * (the compiler names `PACKAGE` for it).
 */
export type SourceSlotOf<E extends PackageEcosystem> = EvidenceSlot<E extends keyof typeof PACKAGE ? (typeof PACKAGE)[E]['registry']['sourceSlots'][number] : never>;

/** The evidence sources only a package registry's own collector fills. */
type PackageSourceSlot = SourceSlotOf<PackageEcosystem>;

/** A registry-only source another package registry owns: not applicable, with its owner's note. */
interface NotThisRegistry {
  status: 'not-applicable';
  reason: string;
}

/**
 * The registry-only sources (`PackageSourceSlot`) of a target of `ecosystem`: `own` for those its
 * registry fills, the others not applicable with the note of the registry that fills them.
 */
export function registrySources<T>(ecosystem: PackageEcosystem, own: T): Record<PackageSourceSlot, T | NotThisRegistry> {
  const slots: Partial<Record<PackageSourceSlot, T | NotThisRegistry>> = {};
  for (const rules of Object.values(PACKAGE)) {
    const value: T | NotThisRegistry = rules.id === ecosystem ? own : { status: 'not-applicable', reason: rules.registry.notThisRegistry };
    for (const slot of rules.registry.sourceSlots) slots[slot] = value;
  }
  return slots as Record<PackageSourceSlot, T | NotThisRegistry>;
}
