/**
 * Grouped writes: the store's tables queue their writes in memory and a flush applies
 * all of them in one `BEGIN IMMEDIATE … COMMIT`. One transaction per cached answer cost more CPU
 * than the rest of the store together (a commit and a WAL index update each). A flush happens
 * when the queue holds more than `maxBytes`, `delayMs` after the first queued write (an unref'd
 * timer: it never keeps the process alive), and on the store's close.
 *
 * Each table keeps its own queued writes and answers reads from them first (read-your-writes);
 * the queue only decides when they are applied. A failed flush is settled per table: cached
 * answers and facts are dropped (a cache may lose them), history rows stay queued for the next
 * flush.
 */
import type { Transact } from './db.js';

/** Flush as soon as this many bytes are queued. */
export const DEFAULT_FLUSH_BYTES = 4 * 1024 * 1024;
/** Flush this long after the first queued write. */
export const DEFAULT_FLUSH_DELAY_MS = 100;

/** A table with queued writes. */
export interface QueuedTable {
  /** Apply every queued write (called inside the flush's transaction). */
  apply(): void;
  /** After the transaction: forget what was written, or (not committed) what may be lost. Returns the bytes still queued. */
  settle(committed: boolean): number;
}

export interface WriteQueue {
  /** Register a table; flushes apply tables in registration order. */
  join(table: QueuedTable): void;
  /** A table queued a write of about `bytes`: flush now if over the bound, else make sure a flush is scheduled. */
  queued(bytes: number): void;
  /**
   * Apply every queued write in one transaction, with `also` run inside it after them.
   * Throws what the transaction threw (the tables have been settled by then).
   */
  flush(also?: () => void): void;
  /** Cancel the timer (the caller flushes first if it wants the writes). */
  dispose(): void;
}

export interface WriteQueueOptions {
  maxBytes?: number;
  delayMs?: number;
}

export function createWriteQueue(transact: Transact, options: WriteQueueOptions = {}): WriteQueue {
  const maxBytes = options.maxBytes ?? DEFAULT_FLUSH_BYTES;
  const delayMs = options.delayMs ?? DEFAULT_FLUSH_DELAY_MS;
  const tables: QueuedTable[] = [];
  let bytes = 0;
  let dirty = false;
  let timer: NodeJS.Timeout | undefined;

  const cancelTimer = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  const flush = (also?: () => void): void => {
    cancelTimer();
    if (!dirty && also === undefined) return;
    let committed = false;
    try {
      transact(() => {
        for (const table of tables) table.apply();
        also?.();
      });
      committed = true;
    } finally {
      bytes = 0;
      for (const table of tables) bytes += table.settle(committed);
      dirty = bytes > 0;
    }
  };

  // A flush nobody waits for (timer, size bound): a failure is the tables' to settle, never a throw
  // into an unrelated request.
  const flushQuietly = (): void => {
    try {
      flush();
    } catch {
      // settled: cached answers dropped, history kept for the next flush or close
    }
  };

  return {
    join(table) {
      tables.push(table);
    },
    queued(n) {
      bytes += Math.max(0, n);
      dirty = true;
      if (bytes > maxBytes) {
        flushQuietly();
      } else if (timer === undefined) {
        timer = setTimeout(flushQuietly, delayMs);
        timer.unref();
      }
    },
    flush,
    dispose: cancelTimer,
  };
}
