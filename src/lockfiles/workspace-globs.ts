/**
 * Which folders of a repository a workspace declaration names — npm and yarn `workspaces`
 * (array or `{ packages }`), pnpm-workspace.yaml `packages`, lerna.json `packages` — matched as
 * those tools match them, with picomatch: `*`, `?`, `[…]`, `{a,b}`, `**` at any depth, and
 * `!pattern` excluding what an earlier pattern included. Dot folders are never members.
 *
 * A pattern that leaves the repository (`../x`, an absolute path, a backslash path) names no
 * workspace of it and is ignored (listed in `ignored`): a workspace glob never reaches outside the
 * repository. Pure.
 */
import picomatch from 'picomatch';
import { isGlob, parseWorkspacePattern } from './workspace-patterns.js';

/** Where a walk of the repository's folders starts for one include pattern. */
export interface WorkspaceStart {
  /** The pattern's literal leading folder (`packages` for `packages/**\/*`; `''` for the root). */
  base: string;
  /** How many folders below `base` a member sits; null for any depth (`**`). */
  depth: number | null;
}

export interface WorkspaceGlobs {
  /** The include patterns, normalised (`./packages/*\/` → `packages/*`). */
  include: string[];
  /** The exclude patterns, normalised, without their `!`. */
  exclude: string[];
  /** Patterns ignored: they leave the repository or name no folder. */
  ignored: string[];
  /** Where a walk starts, one per include pattern with a wildcard. */
  starts: WorkspaceStart[];
  /** Literal member folders (include patterns without a wildcard). */
  literals: string[];
  /** Whether `dir` (repository-relative, `/`-separated, no leading `./`) is a member. */
  matches(dir: string): boolean;
  /** Whether a member may sit below `dir` (a walk lists it). */
  mayContain(dir: string): boolean;
}

const depthBelow = (dir: string, base: string): number | null => {
  if (base === '') return dir === '' ? 0 : dir.split('/').length;
  if (dir === base) return 0;
  return dir.startsWith(`${base}/`) ? dir.slice(base.length + 1).split('/').length : null;
};

export function workspaceGlobs(patterns: readonly string[]): WorkspaceGlobs {
  const include: string[] = [];
  const exclude: string[] = [];
  const ignored: string[] = [];
  const starts: WorkspaceStart[] = [];
  const literals: string[] = [];
  for (const pattern of patterns) {
    // Backslashes are path separators on Windows and escapes to picomatch: neither is a repository path.
    const parsed = /[\\\0]/.test(pattern) || /^[a-z]:/i.test(pattern.trim()) ? null : parseWorkspacePattern(pattern);
    if (parsed === null) {
      ignored.push(pattern);
      continue;
    }
    const glob = parsed.segments.join('/');
    if (parsed.negated) {
      exclude.push(glob);
      continue;
    }
    include.push(glob);
    const first = parsed.segments.findIndex(isGlob);
    if (first < 0) {
      literals.push(glob);
      continue;
    }
    const rest = parsed.segments.slice(first);
    starts.push({ base: parsed.segments.slice(0, first).join('/'), depth: rest.includes('**') ? null : rest.length });
  }
  const included = include.length === 0 ? () => false : picomatch(include, { dot: false, windows: false });
  const excluded = exclude.length === 0 ? () => false : picomatch(exclude, { dot: false, windows: false });
  return {
    include,
    exclude,
    ignored,
    starts,
    literals,
    matches: (dir) => dir !== '' && included(dir) && !excluded(dir),
    mayContain: (dir) =>
      starts.some((start) => {
        const below = depthBelow(dir, start.base);
        return below !== null && (start.depth === null || below < start.depth);
      }),
  };
}
