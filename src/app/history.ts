/** Use case: the past evaluations of one target, oldest first, from the store. */
import { isPackageEcosystem } from '../ecosystems/rules.js';
import { historyKey } from '../report/previous.js';

export { reportHistoryKey } from '../report/previous.js';
import type { HistoryRow, Store } from '../store/types.js';
import { parseTarget } from '../target/parse.js';
import { TargetError } from '../target/types.js';
import type { VerdictCode } from '../report/schema.js';
import { VERDICT_WORDS } from '../scoring/grade.js';

/**
 * The key history files a target under (`npm:chalk`), or — for `github:o/r+npm:name` — the history
 * of the repository's reports with that package folded in (`--include-package`; report/previous.ts
 * keeps them apart). Throws TargetError for bad input.
 */
export function historyKeyOf(input: string): string {
  const plus = input.indexOf('+');
  if (plus > 0 && /^github:/i.test(input)) {
    const repository = parseTarget(input.slice(0, plus));
    const folded = parseTarget(input.slice(plus + 1));
    if (!isPackageEcosystem(folded.ecosystem)) throw new TargetError(`${input}: after + comes the npm or PyPI package folded in (github:o/r+npm:name)`);
    if (folded.spec !== undefined) throw new TargetError(`${input}: the package folded in is named without a version`);
    return `${historyKey(repository)}+${historyKey(folded)}`;
  }
  return historyKey(parseTarget(input));
}

/** The newest `limit` evaluations recorded under `key` (the store's default without one), oldest first. */
export function readHistory(store: Store, key: string, limit?: number): HistoryRow[] {
  return store.history.list(key, limit).reverse();
}

/** The newest `limit` evaluations recorded under `key`, oldest first, and whether older ones were left out. */
export function readHistoryPage(store: Store, key: string, limit: number): { rows: HistoryRow[]; olderNotShown: boolean } {
  // One more than shown, to know whether older evaluations were left out.
  const rows = readHistory(store, key, limit + 1);
  return { rows: rows.slice(Math.max(0, rows.length - limit)), olderNotShown: rows.length > limit };
}

/** One evaluation of a target as front doors publish it. */
export interface HistoryPoint {
  evaluatedAt: string;
  version: string | null;
  score: number | null;
  grade: string | null;
  verdictCode: VerdictCode;
}

const CODE_OF_WORD = new Map<string, VerdictCode>(Object.entries(VERDICT_WORDS).map(([code, word]) => [word, code as VerdictCode]));

/** History rows as points, the verdict as its stable code (`unknown` for a word no longer in use). */
export function historyPoints(rows: readonly HistoryRow[]): HistoryPoint[] {
  return rows.map((r) => ({ evaluatedAt: r.evaluatedAt, version: r.version, score: r.score, grade: r.grade, verdictCode: CODE_OF_WORD.get(r.verdict) ?? 'unknown' }));
}
