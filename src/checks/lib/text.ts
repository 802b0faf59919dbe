/**
 * Keeping network strings short in evidence: cut by code points (never inside a surrogate
 * pair) with an ellipsis. Sanitising for terminals is the renderers' job.
 */

/** At most `max` code points; a cut string ends with `…` (counted in `max`). */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}
