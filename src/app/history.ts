/** Use case: the past evaluations of one target, oldest first, from the store. */
import { historyKey } from '../report/previous.js';
import type { HistoryRow, Store } from '../store/types.js';
import { parseTarget } from '../target/parse.js';
import type { VerdictCode } from '../report/schema.js';
import { VERDICT_WORDS } from '../scoring/grade.js';

/** The key history files a target under (`npm:chalk`); throws TargetError for bad input. */
export function historyKeyOf(input: string): string {
  return historyKey(parseTarget(input));
}

/** The newest `limit` evaluations recorded under `key` (the store's default without one), oldest first. */
export function readHistory(store: Store, key: string, limit?: number): HistoryRow[] {
  return store.history.list(key, limit).reverse();
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
