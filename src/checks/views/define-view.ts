/**
 * The view unit (see index.ts): kept apart from the VIEWS registry so that view modules and the
 * check libraries that reuse their derivations import it without an import cycle.
 */
import { sourceOf, type Evidence, type SourceId, type Sources } from '../../evidence/schema.js';
import { PACKAGE_ECOSYSTEMS, type SourceSlotOf } from '../../ecosystems/rules.js';
import type { PackageEcosystem } from '../../ecosystems/types.js';

export type ViewResult<F> =
  | { status: 'ok'; facts: F }
  /** `source`: the evidence source that could not answer, so a report can name it rather than the view. */
  | { status: 'unavailable'; reason: string; source?: SourceId }
  /** `undeclared`: a source the target could have declared and did not — its checks are unknown, not left out (scoring/evaluate.ts). */
  | { status: 'not-applicable'; reason: string; undeclared?: true };

export interface ViewDefinition<F> {
  /** One sentence for docs: what the view holds and where each ecosystem's facts come from. */
  description: string;
  derive(evidence: Evidence): ViewResult<F>;
}

export function defineView<F>(view: ViewDefinition<F>): ViewDefinition<F> {
  return view;
}

type SourceFacts<K extends keyof Sources> = Extract<Sources[K], { status: 'ok' }>['facts'];

/**
 * How a view reads one registry's own evidence source (a slot its rules name, `sourceSlots`):
 * the facts it derives when the source answered, and — optionally — what still answers when the
 * source could not (null: nothing, the view is `unavailable` with the source's reason).
 */
type RegistryReader<F, S extends SourceId> = {
  [K in S]: {
    source: K;
    derive: (facts: SourceFacts<K>, evidence: Evidence) => F;
    whenUnavailable?: (evidence: Evidence) => F | null;
  };
}[S];

/**
 * A view's reading of each package ecosystem's evidence, one entry per `PackageEcosystem`, each
 * reading a source of that ecosystem's own registry: a new package ecosystem does not compile
 * until each view that reads registry facts says how it reads its own (docs/architecture.md,
 * "Add an ecosystem").
 */
export type RegistryReaders<F> = { [E in PackageEcosystem]: RegistryReader<F, SourceSlotOf<E>> };

/**
 * Derive from the source of the first package ecosystem (in the registry's order) whose source
 * exists for the target (is not `not-applicable`): its facts when `ok`, else what its reader's
 * `whenUnavailable` gives, else `unavailable` with that source's reason verbatim. When none
 * exists the view is `not-applicable` with the first source's reason.
 */
export function fromRegistrySources<F>(evidence: Evidence, readers: RegistryReaders<F>): ViewResult<F> {
  let reason: string | null = null;
  for (const ecosystem of PACKAGE_ECOSYSTEMS) {
    const reader = readers[ecosystem];
    const source = sourceOf(evidence.sources, reader.source);
    if (source.status === 'not-applicable') {
      reason ??= source.reason;
      continue;
    }
    if (source.status === 'unavailable') {
      const fallback = reader.whenUnavailable?.(evidence) ?? null;
      return fallback === null ? { status: 'unavailable', reason: source.reason, source: reader.source } : { status: 'ok', facts: fallback };
    }
    return { status: 'ok', facts: (reader.derive as (facts: unknown, evidence: Evidence) => F)(source.facts, evidence) };
  }
  return { status: 'not-applicable', reason: reason ?? 'not applicable' };
}
