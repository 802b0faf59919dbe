/**
 * A trimmed npm packument: one that lacks what a full one always carries — a `maintainers`
 * array and `time.created` / `time.modified`. Mirrors serve such packuments, and strip with
 * those deprecation, publishers and every dist-tag but `latest`, so what a trimmed packument
 * leaves out is unknown, not absent (docs/scoring.md §1, §12). Pure; never throws.
 */
export function isTrimmedPackument(doc: unknown): boolean {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return false;
  const record = doc as Record<string, unknown>;
  const time = typeof record.time === 'object' && record.time !== null && !Array.isArray(record.time) ? (record.time as Record<string, unknown>) : {};
  return !Array.isArray(record.maintainers) && typeof time.modified !== 'string' && typeof time.created !== 'string';
}
