/**
 * What one `dependencies` entry of a package.json asks for, without any request: a registry
 * package and range (an `npm:` alias names the package it installs), or why it is not one (git,
 * tarball URL, local path, another protocol). Pure: the dependencies source resolves the registry
 * ones (sources/npm/dependencies.ts) and the lockfile readers (src/lockfiles/) skip the others.
 */
import npa from 'npm-package-arg';

/** A specifier longer than this is not parsed (no real range is). */
const MAX_SPEC_LENGTH = 1024;

/** What one manifest entry asks for: a registry package and range, or a reason it is not one. */
export type DependencyPlan =
  | { kind: 'registry'; name: string; range: string; spec: string }
  | { kind: 'skip'; name: string; range: string; reason: string };

/** Classify one `dependencies` entry without any request. Pure; never throws. */
export function planDependency(name: string, range: string): DependencyPlan {
  const skip = (reason: string): DependencyPlan => ({ kind: 'skip', name, range, reason });
  if (range.length > MAX_SPEC_LENGTH) return skip('the specifier is too long to be a version range');
  let parsed: ReturnType<typeof npa.resolve>;
  try {
    parsed = npa.resolve(name, range, '/');
  } catch {
    const protocol = /^([a-z][a-z0-9+.-]*):/i.exec(range.trim())?.[1]?.toLowerCase();
    if (protocol === undefined) return skip('not a valid package name or specifier');
    if (protocol === 'npm') return skip('not a valid npm: alias');
    return skip(`not a registry dependency (${protocol}: specifier)`);
  }
  switch (parsed.type) {
    case 'range':
    case 'version':
    case 'tag':
      return { kind: 'registry', name, range, spec: range };
    case 'alias': {
      const sub = parsed.subSpec;
      if (sub === undefined || sub === null || typeof sub.name !== 'string') return skip('not a valid npm: alias');
      if (sub.type !== 'range' && sub.type !== 'version' && sub.type !== 'tag') return skip('not a valid npm: alias');
      return { kind: 'registry', name: sub.name, range, spec: sub.rawSpec };
    }
    case 'git':
      return skip('not a registry dependency (git)');
    case 'remote':
      return skip('not a registry dependency (tarball URL)');
    case 'file':
    case 'directory':
      return skip('not a registry dependency (local path)');
    default:
      return skip(`not a registry dependency (${String((parsed as { type?: unknown }).type)})`);
  }
}
