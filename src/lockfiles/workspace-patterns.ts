/**
 * Workspace patterns (`packages/*`, `apps/**`, `tools/cli`, `!packages/legacy`) as npm, yarn,
 * pnpm and bun write them, split into segments (workspace-globs.ts matches them). Pure.
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
