/**
 * Dependency confusion: a package that resolves from a private registry while the same name also
 * exists on the public npm registry could be swapped for the public one by a misconfigured
 * install. Flag it (the audit lists it as a policy failure); it is a warning sign, not proof.
 *
 * A private registry is very often a mirror of the public one (Artifactory, Nexus, Verdaccio
 * proxying it): every package it serves also exists publicly, as the very same release. So when
 * the evaluation read the package from that private registry, the public release of the same
 * version is compared with it: the same tarball integrity means the same package (a mirror),
 * not flagged; another version set or other bytes under the name are flagged. Where the private
 * release could not be compared (only the lockfile's `resolved` URL names the private source,
 * or the evaluation failed), the name existing publicly is enough — unless the lockfile pins
 * the integrity of the public release of that very version: npm and yarn install only bytes that
 * match it, so what is installed is the public release, whichever origin serves it (a company
 * proxy writes its own host into `resolved`). Yarn's public registry, whose host yarn classic
 * writes there, is the public registry (src/sources/endpoints.ts).
 */
import type { Evidence } from '../evidence/schema.js';
import type { RunContext } from '../pipeline/context.js';
import { isYarnPublicRegistry } from '../sources/endpoints.js';
import { ABBREVIATED_ACCEPT, fetchPackument } from '../sources/npm/registry.js';
import type { AuditSubject, LockRecord } from './types.js';
import { mapLimit } from '../util/map-limit.js';

const CONCURRENCY = 8;

/**
 * A suspicion (one line), and the lockfile pin that names the private source, when one does
 * (null: only the configured registry does). `unverified`: the public registry did not answer,
 * so whether the name exists there is not known — the package is incomplete, never passed.
 */
export interface DependencyConfusion {
  message: string;
  at: { file: string; line: number | null } | null;
  unverified?: true;
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** Where the subject comes from, when that is not the public registry: the configured registry or the lockfile's `resolved` URL. */
export function privateSourceOf(subject: AuditSubject, ctx: RunContext): string | null {
  if (subject.ecosystem !== 'npm') return null;
  const publicOrigin = originOf(ctx.endpoints.npmPublicRegistry);
  const configured = ctx.npm.registryFor(subject.name);
  if (originOf(configured) !== publicOrigin) return originOf(configured);
  if (subject.resolved !== null && /^https?:\/\//i.test(subject.resolved)) {
    const resolvedOrigin = originOf(subject.resolved);
    // yarn 1 writes yarn's public registry into `resolved`: it serves the public registry's content.
    const yarnPublic = isYarnPublicRegistry(subject.resolved, ctx.endpoints);
    if (resolvedOrigin !== null && resolvedOrigin !== publicOrigin && resolvedOrigin !== originOf(configured) && !yarnPublic) return resolvedOrigin;
  }
  return null;
}

/** The release the evaluation read from the registry: its version and `dist.integrity`, when known. */
export function evaluatedRelease(evidence: Evidence | null): { version: string; integrity: string } | null {
  if (evidence === null || evidence.target.version === null) return null;
  const registry = evidence.sources.registry;
  if (registry.status !== 'ok' || registry.facts.integrity === null) return null;
  return { version: evidence.target.version, integrity: registry.facts.integrity };
}

/** The releases the lockfile pins for the subject (version and integrity), or [] when a pin has no integrity. */
function pinnedReleases(subject: AuditSubject, records: readonly LockRecord[]): { version: string; integrity: string }[] {
  const version = subject.version;
  // yarn classic before 1.10 pins only the sha1 it appends to `resolved` (`…tgz#<sha1 hex>`).
  const pins = records.map((r) => r.integrity ?? sha1Fragment(r.resolved));
  if (version === null || pins.length === 0 || pins.some((pin) => pin === null)) return [];
  return pins.map((integrity) => ({ version, integrity: integrity as string }));
}

/** `sha1-<base64>` of a sha1 in hex. */
const sha1Sri = (hex: string): string => `sha1-${Buffer.from(hex, 'hex').toString('base64')}`;

/** The sha1 a yarn classic `resolved` URL ends with, as SRI; null when it has none. */
function sha1Fragment(resolved: string | null): string | null {
  const hex = resolved === null ? undefined : /#([0-9a-f]{40})$/i.exec(resolved)?.[1];
  return hex === undefined ? null : sha1Sri(hex);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The hashes of an SRI string (`sha512-… sha1-…`). */
const hashesOf = (integrity: string): string[] => integrity.split(/\s+/).filter((h) => /^sha\d+-/.test(h));

/** Whether a (hostile) packument holds `version` with bytes of the same hash as `integrity` (its `dist.shasum` counts as sha1). */
export function publishesSameRelease(packument: Record<string, unknown>, release: { version: string; integrity: string }): boolean {
  const versions = packument.versions;
  if (!isRecord(versions) || !Object.hasOwn(versions, release.version)) return false;
  const manifest = versions[release.version];
  const dist = isRecord(manifest) ? manifest.dist : undefined;
  const published = isRecord(dist) && typeof dist.integrity === 'string' ? hashesOf(dist.integrity) : [];
  if (isRecord(dist) && typeof dist.shasum === 'string' && /^[0-9a-f]{40}$/i.test(dist.shasum)) published.push(sha1Sri(dist.shasum));
  const ours = new Set(hashesOf(release.integrity));
  return published.some((hash) => ours.has(hash));
}

/**
 * Evaluated subjects from a private source whose name also exists on the public registry (and,
 * where comparable, not as the same release), with a one-line message; those the public registry
 * did not answer for, `unverified`.
 */
export async function findDependencyConfusion(
  evaluated: readonly { subject: AuditSubject; evidence: Evidence | null }[],
  ctx: RunContext,
  locks: (subject: AuditSubject) => readonly LockRecord[] = () => [],
): Promise<Map<AuditSubject, DependencyConfusion>> {
  const suspects = evaluated.flatMap(({ subject, evidence }) => {
    const source = privateSourceOf(subject, ctx);
    if (source === null) return [];
    // The evaluation read the configured registry: comparable only when that is the private source;
    // otherwise only the lockfile's `resolved` names it, and its pins are what gets installed.
    const comparable = source === originOf(ctx.npm.registryFor(subject.name));
    const release = comparable ? evaluatedRelease(evidence) : null;
    return [{ subject, source, releases: release === null ? pinnedReleases(subject, locks(subject)) : [release] }];
  });
  const found = new Map<AuditSubject, DependencyConfusion>();
  await mapLimit(suspects, CONCURRENCY, async ({ subject, source, releases }) => {
    const result = await fetchPackument(ctx.http, ctx.endpoints.npmPublicRegistry, subject.name, { accept: ABBREVIATED_ACCEPT });
    if (result.status === 'not-found') return;
    // Located at the lockfile pin whose `resolved` names the private source, when one does.
    const pin = locks(subject).find((r) => r.resolved !== null && originOf(r.resolved) === source);
    const at = pin === undefined ? null : { file: pin.file, line: pin.line };
    // No answer is no evidence that the name is not public: not checked, never passed.
    if (result.status !== 'ok') {
      found.set(subject, { message: `${subject.name} resolves from ${new URL(source).host}; the public npm registry did not answer (${result.reason})`, at, unverified: true });
      return;
    }
    if (releases.length > 0 && releases.every((release) => publishesSameRelease(result.packument, release))) return;
    found.set(subject, {
      message: `possible dependency confusion: ${subject.name} resolves from ${new URL(source).host} but the name also exists on the public npm registry`,
      at,
    });
  });
  return found;
}
