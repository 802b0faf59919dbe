/**
 * Views: ecosystem-neutral facts derived from the evidence by pure functions, so that one check
 * answers one question for every ecosystem (release recency from npm publish times or PyPI
 * upload times, README substance from the npm tarball or the PyPI long description).
 *
 * A check names a view in `needs` exactly as it names a source. A view answers like a source:
 * `ok` with its facts, `unavailable` with the reason of the source it could not read, or
 * `not-applicable` when the target's ecosystem has nothing to derive it from.
 */
import type { Evidence } from '../../evidence/schema.js';
import type { ViewDefinition, ViewResult } from './define-view.js';
import { documentsView } from './documents.js';
import { releaseView } from './release.js';
import { repositoryView } from './repository.js';
import { workflowsView } from './workflows.js';

// The unit lives in define-view.ts (view modules import it from there, without a cycle).
export type { ViewDefinition, ViewResult } from './define-view.js';

/** The views, by id. A view exists for checks once it is listed here. */
export const VIEWS = {
  /** The resolved release and its history (npm `registry`, PyPI `pypi`): views/release.ts. */
  release: releaseView,
  /** README, licence files, changelog, declaration files (npm `tarball`, PyPI `pypi`): views/documents.ts. */
  documents: documentsView,
  /** A repository target's own files, age and detected licence (`github`): views/repository.ts. */
  repository: repositoryView,
  /** The workflows of the repository the target is built from (a `github:` target's, a package's verified repository's with a token): views/workflows.ts. */
  workflows: workflowsView,
} satisfies Record<string, ViewDefinition<unknown>>;

export type ViewId = keyof typeof VIEWS;
export type ViewFacts = {
  [K in ViewId]: (typeof VIEWS)[K] extends ViewDefinition<infer F> ? F : never;
};

export function isViewId(id: string): id is ViewId {
  return Object.hasOwn(VIEWS, id);
}

const cache = new WeakMap<Evidence, Map<string, ViewResult<unknown>>>();

/** Derive a view once per evidence object (several checks read the same view). */
export function viewOf(evidence: Evidence, id: ViewId): ViewResult<unknown> {
  let perEvidence = cache.get(evidence);
  if (perEvidence === undefined) {
    perEvidence = new Map();
    cache.set(evidence, perEvidence);
  }
  const hit = perEvidence.get(id);
  if (hit !== undefined) return hit;
  const view = VIEWS[id] as ViewDefinition<unknown>;
  const result = view.derive(evidence);
  perEvidence.set(id, result);
  return result;
}
