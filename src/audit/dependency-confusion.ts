/**
 * Dependency confusion: a package that resolves from a private registry while the same name also
 * exists on the public npm registry could be swapped for the public one by a misconfigured
 * install. Flag it (the audit lists it as a policy failure); it is a warning sign, not proof.
 */
import type { RunContext } from '../pipeline/context.js';
import { ABBREVIATED_ACCEPT, fetchPackument } from '../sources/npm-registry.js';
import type { AuditSubject } from './types.js';

const CONCURRENCY = 8;

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
    if (resolvedOrigin !== null && resolvedOrigin !== publicOrigin && resolvedOrigin !== originOf(configured)) return resolvedOrigin;
  }
  return null;
}

/** Subjects from a private source whose name also exists on the public registry, with a one-line message. */
export async function findDependencyConfusion(
  subjects: readonly AuditSubject[],
  ctx: RunContext,
): Promise<Map<AuditSubject, string>> {
  const suspects = subjects.flatMap((subject) => {
    const source = privateSourceOf(subject, ctx);
    return source === null ? [] : [{ subject, source }];
  });
  const found = new Map<AuditSubject, string>();
  let next = 0;
  const worker = async () => {
    while (next < suspects.length) {
      const { subject, source } = suspects[next++]!;
      const result = await fetchPackument(ctx.http, ctx.endpoints.npmPublicRegistry, subject.name, { accept: ABBREVIATED_ACCEPT });
      if (result.status === 'ok') {
        found.set(
          subject,
          `possible dependency confusion: ${subject.name} resolves from ${new URL(source).host} but the name also exists on the public npm registry`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, suspects.length) }, worker));
  return found;
}
