/**
 * Workspace patterns (`packages/*`, `apps/**`, `tools/cli`, `!packages/legacy`) as npm, yarn,
 * pnpm and bun write them, split into segments the directory walk in `detect.ts` matches
 * one level at a time. Pure.
 */

export interface WorkspacePattern {
  /** Path segments: a literal name, `*`-style glob (no `/`), or `**` for any depth. */
  segments: string[];
  negated: boolean;
}

export function parseWorkspacePattern(pattern: string): WorkspacePattern | null {
  let text = pattern.trim();
  const negated = text.startsWith('!');
  if (negated) text = text.slice(1);
  text = text.replace(/^\.\//, '').replace(/(?<!\/)\/+$/, '');
  const segments = text.split('/').filter((s) => s !== '' && s !== '.');
  // Patterns leaving the project (`../x`) or rooted elsewhere are not workspaces of it.
  if (segments.length === 0 || segments.includes('..') || text.startsWith('/')) return null;
  return { segments, negated };
}

export function isGlob(segment: string): boolean {
  return /[*?[\]{}]/.test(segment);
}

/** Match one directory name against one glob segment (`*`, `?`, `{a,b}`, `[abc]`). */
export function matchSegment(segment: string, name: string): boolean {
  if (!isGlob(segment)) return segment === name;
  if (name.startsWith('.') && !segment.startsWith('.')) return false;
  let source = '';
  for (let i = 0; i < segment.length; i += 1) {
    const c = segment[i] as string;
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '{') {
      const end = segment.indexOf('}', i);
      if (end < 0) source += '\\{';
      else {
        source += `(?:${segment
          .slice(i + 1, end)
          .split(',')
          .map((alt) => alt.replace(/[.+^$()|\\[\]]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`;
        i = end;
      }
    } else if (c === '[') {
      const end = segment.indexOf(']', i);
      if (end < 0) source += '\\[';
      else {
        source += `[${segment.slice(i + 1, end).replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`).test(name);
}
