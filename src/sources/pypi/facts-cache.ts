/**
 * PyPI facts in the facts cache (facts-cache.ts): per PyPI base URL, project and the specifier
 * asked for → the release's complete facts and its `attestations` source (pypi/project.ts), so
 * that a warm run neither reads the project JSON (megabytes for a project with many releases),
 * the Simple API page and the provenance back nor parses them. As fresh as PyPI answers.
 *
 * Only complete successes are kept: an error, or a Simple API that did not answer (status and
 * provenance unknown), is asked again next run. The key holds no credential (the URL loses its
 * user information, query and fragment); a value read back is validated again, else a miss.
 */
import { z } from 'zod';
import { AttestationFactsSchema, PypiFactsSchema, type AttestationFacts, type PypiFacts } from '../../evidence/schema.js';
import { readFacts, writeFacts, type FactsCache } from '../facts-cache.js';
import { FRESHNESS_DEFAULTS } from '../http/freshness.js';
import { credentialFreeUrl } from '../npm/facts-cache.js';
import type { SourceUnavailable } from '../../model/source-codes.js';

export interface CachedPypiRelease {
  facts: PypiFacts;
  attestations: { status: 'ok'; facts: AttestationFacts };
}

const CachedPypiReleaseSchema = z.object({
  facts: PypiFactsSchema,
  attestations: z.object({ status: z.literal('ok'), facts: AttestationFactsSchema }),
});

/** The key of a project's release facts for a specifier (undefined = the default release); undefined for an unusable base URL. */
export function pypiFactsKey(pypiBase: string, project: string, spec: string | undefined): string | undefined {
  const base = credentialFreeUrl(pypiBase);
  return base === undefined ? undefined : `pypi:release:${JSON.stringify([base, project, spec ?? null])}`;
}

export function cachedPypiRelease(cache: FactsCache | undefined, pypiBase: string, project: string, spec: string | undefined): CachedPypiRelease | undefined {
  const cached = readFacts(cache, pypiFactsKey(pypiBase, project, spec), FRESHNESS_DEFAULTS.pypi, CachedPypiReleaseSchema);
  // Facts kept before the files' digests were recorded cannot vouch for a lockfile's hashes: a miss.
  return cached?.facts.files.some((file) => file.sha256 === undefined) === true ? undefined : cached;
}

/** Keep a release whose every part answered (its attestations source is `ok`). */
export function rememberPypiRelease(
  cache: FactsCache | undefined,
  pypiBase: string,
  project: string,
  spec: string | undefined,
  release: { facts: PypiFacts; attestations: { status: 'ok'; facts: AttestationFacts } | SourceUnavailable },
): void {
  if (release.attestations.status !== 'ok') return;
  writeFacts(cache, pypiFactsKey(pypiBase, project, spec), { facts: release.facts, attestations: release.attestations });
}
