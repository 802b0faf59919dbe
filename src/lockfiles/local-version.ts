/**
 * A PyPI pin with a PEP 440 local version label (`torch==2.3.0+cu121`) is not a PyPI release:
 * PEP 440 forbids public index servers to accept local versions, so PyPI never hosts one, and
 * such a pin comes from another index (a vendor's wheel index, a mirror with its own builds).
 * Its code is not the public release of the same number, so nerq cannot lend it that release's
 * score or vulnerability record: the entry is moved to the entries no registry vouches for
 * (docs/security.md, "Dependencies no registry vouches for"), remote, from the index the input
 * names when it names one, whatever reader produced it (lockfiles, requirements files, SBOMs).
 */
import { explain } from '@renovatebot/pep440';
import type { DeclaredDependency, SkippedEntry } from '../audit/types.js';
import { known, sourceHost } from './source-kind.js';
import { quote } from './text.js';
import type { ParsedInput } from './types.js';

/** The local label of a PyPI version (`cu121` of `2.3.0+cu121`), or null (none, or not PEP 440). */
export function localLabel(version: string): string | null {
  return explain(version)?.local ?? null;
}

function unvouched(dependency: DeclaredDependency, label: string): SkippedEntry {
  const { name, file, line, resolved } = dependency;
  const pin = dependency.version === null ? `${name}${(dependency.spec ?? '').trim()}` : `${name}==${dependency.version}`;
  const index = resolved !== null && /^https?:\/\//i.test(resolved) ? resolved : null;
  const note = `${file}:${line ?? '?'}: ${quote(pin)} skipped: the local version +${label} is never on PyPI; it comes from ${index === null ? 'another index' : quote(index)}, which nerq cannot vouch for`;
  return {
    kind: 'remote',
    ecosystem: 'pypi',
    name,
    file,
    line,
    source: index ?? pin,
    host: index === null ? null : sourceHost(index),
    note,
    ...known({ direct: dependency.direct, dev: dependency.dev }),
  };
}

/**
 * The local label a PyPI dependency is pinned to: its version's, or, unpinned, that of an exact
 * `==V` / `===V` specifier (`torch==2.3.0+cu121` in pyproject.toml: PEP 440 lets `==` with a
 * local label match that local version only); null otherwise.
 */
function pinnedLocalLabel(dependency: DeclaredDependency): string | null {
  if (dependency.ecosystem !== 'pypi') return null;
  if (dependency.version !== null) return localLabel(dependency.version);
  const exact = /^\s*===?\s*([^\s,;*]+)\s*$/.exec(dependency.spec ?? '');
  return exact?.[1] === undefined ? null : localLabel(exact[1]);
}

/** The input with its PyPI dependencies pinned to a local version moved to the skipped (remote) entries, each with its note. */
export function withLocalVersionsUnvouched(input: ParsedInput): ParsedInput {
  const dependencies: DeclaredDependency[] = [];
  const skipped: SkippedEntry[] = [];
  for (const dependency of input.dependencies) {
    const label = pinnedLocalLabel(dependency);
    if (label === null) dependencies.push(dependency);
    else skipped.push(unvouched(dependency, label));
  }
  if (skipped.length === 0) return input;
  return { ...input, dependencies, notes: [...input.notes, ...skipped.map((s) => s.note)], skipped: [...(input.skipped ?? []), ...skipped] };
}
