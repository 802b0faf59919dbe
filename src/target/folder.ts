/**
 * A folder of a repository named by untrusted input — an MCP Registry entry's
 * `repository.subfolder`, a `github:owner/repo/folder` target (docs/scoring.md §8a, §9) —
 * checked and normalised before it is ever part of a path asked of GitHub. Pure.
 */

/** Characters a folder may have at most. */
export const MAX_FOLDER_CHARS = 256;

/**
 * The folder a registry names, normalised (no leading or trailing `/`, no `./` segment), or why
 * it is refused: absolute, `..`, `\`, `%`, `?`, `#`, a control character, an empty segment, or
 * over `MAX_FOLDER_CHARS`. `folder` undefined: the repository's root (no folder, or one naming the root).
 */
export function normaliseFolder(raw: string | undefined): { ok: true; folder: string | undefined } | { ok: false; reason: string } {
  if (raw === undefined) return { ok: true, folder: undefined };
  const refused = (why: string) => ({ ok: false as const, reason: `the registry's repository subfolder is refused: ${why}` });
  if (raw.length > MAX_FOLDER_CHARS) return refused(`over ${MAX_FOLDER_CHARS} characters`);
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw)) return refused('it holds a control character');
  if (/[\\%?#]/.test(raw)) return refused('it holds a character no folder path in a repository may hold here (\\ % ? #)');
  // One leading `/` is the repository's root; `//host` or a drive letter is a path elsewhere.
  if (/^[a-z]:/i.test(raw) || raw.startsWith('//') || raw.startsWith('~')) return refused('it is an absolute path');
  const segments = raw.split('/');
  if (segments.includes('..')) return refused('it climbs out of the folder (..)');
  const kept = segments.filter((s, i) => !(s === '.' || (s === '' && (i === 0 || i === segments.length - 1))));
  if (kept.includes('')) return refused('it has an empty segment (//)');
  return { ok: true, folder: kept.length === 0 ? undefined : kept.join('/') };
}
