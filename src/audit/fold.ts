/**
 * Duplicates folded: one audit subject per ecosystem + name + version, whatever the number
 * of files, workspaces and install paths that declare it. A subject is direct when any place
 * declares it directly, dev only when every place says dev. Unpinned declarations (ranges from
 * package.json or pyproject.toml) fold by their specifier instead, since two different ranges
 * may resolve to two different versions.
 */
import { compare as comparePep440, valid as validPep440 } from '@renovatebot/pep440';
import semver from 'semver';
import type { AuditSubject, InputFile, Standing } from './types.js';

export interface FoldOptions {
  /** Keep only subjects some manifest declares directly (`--direct`). */
  direct: boolean;
  /** Drop subjects that are only needed for development (`--omit dev`). */
  omitDev: boolean;
}

/**
 * The one filter of `--direct` and `--omit dev`, for package subjects and remote entries alike:
 * it leaves out only what the input says is transitive (`direct: false`) or dev-only
 * (`dev: true`). An entry whose input cannot tell (a remote entry's absent flag) is kept: it
 * counts as direct and as production, so a filter never hides what nerq could not place.
 */
export function keptBy(options: FoldOptions): (entry: Standing) => boolean {
  return (entry) => (!options.direct || entry.direct !== false) && (!options.omitDev || entry.dev !== true);
}

/** The identity of an audit subject: ecosystem, name and version (or, unpinned, the specifier). */
export function subjectKey(subject: Pick<AuditSubject, 'ecosystem' | 'name' | 'version' | 'spec'>): string {
  return `${subject.ecosystem}\u0000${subject.name}\u0000${subject.version ?? `spec:${subject.spec ?? ''}`}`;
}

export function foldDependencies(inputs: readonly InputFile[], options: FoldOptions): AuditSubject[] {
  const subjects = new Map<string, AuditSubject>();
  for (const input of inputs) {
    for (const dependency of input.dependencies) {
      const key = subjectKey(dependency);
      const place = { file: dependency.file, line: dependency.line, workspace: dependency.workspace };
      const subject = subjects.get(key);
      if (subject === undefined) {
        subjects.set(key, {
          ecosystem: dependency.ecosystem,
          name: dependency.name,
          version: dependency.version,
          spec: dependency.spec,
          direct: dependency.direct,
          dev: dependency.dev,
          declaredIn: [place],
          resolved: dependency.resolved,
          via: dependency.direct ? [] : (dependency.via ?? null),
          ...(dependency.patches === undefined || dependency.patches.length === 0 ? {} : { patches: [...dependency.patches] }),
          ...(dependency.bundled === undefined || dependency.bundled.length === 0 ? {} : { bundled: [...dependency.bundled] }),
        });
        continue;
      }
      const via = dependency.direct ? [] : (dependency.via ?? null);
      if (via !== null && (subject.via === null || via.length < subject.via.length)) subject.via = via;
      subject.direct ||= dependency.direct;
      subject.dev &&= dependency.dev;
      subject.spec ??= dependency.spec;
      subject.resolved ??= dependency.resolved;
      for (const patch of dependency.patches ?? []) {
        const list = (subject.patches ??= []);
        if (!list.some((p) => p.path === patch.path && p.file === patch.file && p.line === patch.line)) list.push(patch);
      }
      for (const bundled of dependency.bundled ?? []) {
        const list = (subject.bundled ??= []);
        if (!list.some((b) => b.name === bundled.name && b.file === bundled.file && b.line === bundled.line)) list.push(bundled);
      }
      const seen = subject.declaredIn.some((p) => p.file === place.file && p.line === place.line && p.workspace === place.workspace);
      if (!seen) subject.declaredIn.push(place);
    }
  }
  return [...subjects.values()].filter(keptBy(options)).sort(compareSubjects);
}

function compareSubjects(a: AuditSubject, b: AuditSubject): number {
  return compareText(a.ecosystem, b.ecosystem) || compareText(a.name, b.name) || compareVersions(a, b) || compareText(a.spec ?? '', b.spec ?? '');
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Version order as the ecosystem defines it; unpinned subjects after pinned ones. */
function compareVersions(a: AuditSubject, b: AuditSubject): number {
  if (a.version === null || b.version === null) return a.version === b.version ? 0 : a.version === null ? 1 : -1;
  switch (a.ecosystem) {
    case 'npm':
      if (semver.valid(a.version) !== null && semver.valid(b.version) !== null) return semver.compareBuild(a.version, b.version);
      break;
    case 'pypi':
      if (validPep440(a.version) !== null && validPep440(b.version) !== null) return comparePep440(a.version, b.version);
      break;
    case 'go':
    case 'cargo':
    case 'maven':
    case 'mcp':
      break;
    default:
      return a.ecosystem satisfies never;
  }
  return compareText(a.version, b.version);
}
