/**
 * Text taken literally in a `new RegExp(…)` pattern, outside a character class: every syntax
 * character escaped, and nothing else, so the pattern is valid with the `u` flag too. Pure.
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
