/** Use case: the past evaluations of one target, oldest first, from the store. */
import { historyKey } from '../report/previous.js';
import type { HistoryRow, Store } from '../store/types.js';
import { parseTarget } from '../target/parse.js';

/** The key history files a target under (`npm:chalk`); throws TargetError for bad input. */
export function historyKeyOf(input: string): string {
  return historyKey(parseTarget(input));
}

/** The newest `limit` evaluations recorded under `key` (the store's default without one), oldest first. */
export function readHistory(store: Store, key: string, limit?: number): HistoryRow[] {
  return store.history.list(key, limit).reverse();
}
