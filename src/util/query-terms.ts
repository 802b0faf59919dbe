/**
 * The terms of a list that can go in a search query as they are: trimmed, lower case, matching
 * the source's own term syntax (`pattern`), first occurrence kept, at most `max`. npm's keyword
 * search and GitHub's topic search use it (sources/npm/search.ts, sources/github/search.ts).
 */
export function queryTerms(values: readonly string[], pattern: RegExp, max: number): string[] {
  const kept: string[] = [];
  for (const raw of values) {
    const term = raw.trim().toLowerCase();
    if (pattern.test(term) && !kept.includes(term)) kept.push(term);
    if (kept.length === max) break;
  }
  return kept;
}
