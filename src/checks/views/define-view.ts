/**
 * The view unit (see index.ts): kept apart from the VIEWS registry so that view modules and the
 * check libraries that reuse their derivations import it without an import cycle.
 */
import { sourceOf, type Evidence, type SourceId, type Sources } from '../../evidence/schema.js';

export type ViewResult<F> =
  | { status: 'ok'; facts: F }
  /** `source`: the evidence source that could not answer, so a report can name it rather than the view. */
  | { status: 'unavailable'; reason: string; source?: SourceId }
  | { status: 'not-applicable'; reason: string };

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
 * Derive from the first of the given sources that exists for the target (is not
 * `not-applicable`): its facts when `ok`, else `unavailable` with that source's reason verbatim.
 * When none exists the view is `not-applicable` with the first source's reason.
 */
export function fromFirstSource<F, A extends keyof Sources, B extends keyof Sources>(
  evidence: Evidence,
  first: readonly [A, (facts: SourceFacts<A>) => F],
  second: readonly [B, (facts: SourceFacts<B>) => F],
): ViewResult<F> {
  let reason: string | null = null;
  for (const [id, derive] of [first, second] as const) {
    const source = sourceOf(evidence.sources, id);
    if (source.status === 'not-applicable') {
      reason ??= source.reason;
      continue;
    }
    if (source.status === 'unavailable') return { status: 'unavailable', reason: source.reason, source: id };
    return { status: 'ok', facts: (derive as (facts: unknown) => F)(source.facts) };
  }
  return { status: 'not-applicable', reason: reason ?? 'not applicable' };
}
