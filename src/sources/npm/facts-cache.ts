/**
 * npm facts in the facts cache (facts-cache.ts), so that a warm run neither reads a packument
 * back, parses and derives it, nor gunzips and untars a tarball again:
 *
 * - registry facts: per registry, package name and the spec asked for → the version it resolved
 *   to and `registryFacts(…)` of it; as fresh as the packument they came from;
 * - tarball facts: per tarball URL and integrity hash (published tarballs are immutable);
 * - attestation facts: per registry, name and version; as fresh as the attestations answer.
 *
 * Only complete answers are kept: a missing package or version, an unreachable registry, an
 * unreadable tarball, or one whose second reading (for files it named too late) failed, is asked
 * again next run (ecosystems/npm/collect.ts). Keys never hold a credential: a URL loses its user
 * information, query and fragment (a registry URL configured as `https://user:token@host/`
 * must not end up in the store). Values read back are validated again, and anything that does
 * not fit — another shape, another version — is a miss.
 */
import { z } from 'zod';
import {
  AttestationFactsSchema,
  RegistryFactsSchema,
  TarballFactsSchema,
  type AttestationFacts,
  type RegistryFacts,
  type TarballFacts,
} from '../../evidence/schema.js';
import { readFacts, writeFacts, type FactsCache } from '../facts-cache.js';
import { FRESHNESS_DEFAULTS } from '../http/freshness.js';

/** A URL without user information, query or fragment; undefined when it is not a URL. */
export function credentialFreeUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}

// ── registry facts ──────────────────────────────────────────────────────────────────

/** What `collectNpm` derives from a packument for one spec. */
export interface ResolvedRegistryFacts {
  version: string;
  facts: RegistryFacts;
}

const ResolvedRegistryFactsSchema = z.object({ version: z.string(), facts: RegistryFactsSchema });

/** The key of a package's registry facts for a spec (undefined spec = the default tag); undefined for an unusable registry URL. */
export function registryFactsKey(registryBase: string, name: string, spec: string | undefined): string | undefined {
  const registry = credentialFreeUrl(registryBase);
  return registry === undefined ? undefined : `npm:registry:${JSON.stringify([registry, name, spec ?? null])}`;
}

export function cachedRegistryFacts(
  cache: FactsCache | undefined,
  registryBase: string,
  name: string,
  spec: string | undefined,
): ResolvedRegistryFacts | undefined {
  const resolved = readFacts(cache, registryFactsKey(registryBase, name, spec), FRESHNESS_DEFAULTS.npmPackument, ResolvedRegistryFactsSchema);
  return resolved !== undefined && resolved.facts.version === resolved.version ? resolved : undefined;
}

export function rememberRegistryFacts(
  cache: FactsCache | undefined,
  registryBase: string,
  name: string,
  spec: string | undefined,
  resolved: ResolvedRegistryFacts,
): void {
  writeFacts(cache, registryFactsKey(registryBase, name, spec), resolved);
}

// ── tarball facts ───────────────────────────────────────────────────────────────────

/** The key of a tarball's facts; undefined for a URL that is not one. */
export function tarballFactsKey(url: string, integrity: string | null | undefined): string | undefined {
  const clean = credentialFreeUrl(url);
  return clean === undefined ? undefined : `npm:tarball:${JSON.stringify([clean, integrity ?? null])}`;
}

export function cachedTarballFacts(cache: FactsCache | undefined, url: string, integrity: string | null | undefined): TarballFacts | undefined {
  return readFacts(cache, tarballFactsKey(url, integrity), FRESHNESS_DEFAULTS.npmTarball, TarballFactsSchema);
}

export function rememberTarballFacts(cache: FactsCache | undefined, url: string, integrity: string | null | undefined, facts: TarballFacts): void {
  writeFacts(cache, tarballFactsKey(url, integrity), facts);
}

// ── attestation facts ───────────────────────────────────────────────────────────────

export function attestationFactsKey(registryBase: string, name: string, version: string): string | undefined {
  const registry = credentialFreeUrl(registryBase);
  return registry === undefined ? undefined : `npm:attestations:${JSON.stringify([registry, name, version])}`;
}

export function cachedAttestationFacts(
  cache: FactsCache | undefined,
  registryBase: string,
  name: string,
  version: string,
): AttestationFacts | undefined {
  return readFacts(cache, attestationFactsKey(registryBase, name, version), FRESHNESS_DEFAULTS.npmAttestations, AttestationFactsSchema);
}

export function rememberAttestationFacts(
  cache: FactsCache | undefined,
  registryBase: string,
  name: string,
  version: string,
  facts: AttestationFacts,
): void {
  writeFacts(cache, attestationFactsKey(registryBase, name, version), facts);
}
