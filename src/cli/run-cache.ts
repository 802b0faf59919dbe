/** `nerq cache stats` and `nerq cache clear`: the HTTP cache and the facts cache in the local store. */
import { statSync } from 'node:fs';
import { openUserStore, STORE_MAX_BYTES } from '../app/store-session.js';
import { warn } from './options.js';

/** The store file's size on disk, or null when it cannot be read. */
function fileBytes(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

const MiB = 1024 * 1024;

export async function runCacheStats(options: { json?: boolean }): Promise<number> {
  const store = openUserStore(process.env, warn);
  if (store === null) return 3;
  try {
    const stats = store.cache.stats();
    const facts = store.facts.stats();
    const last = stats.lastRun;
    const lookups = last === null ? 0 : last.hits + last.misses + last.revalidated;
    const hitRate = last === null || lookups === 0 ? null : Math.round(((last.hits + last.revalidated) / lookups) * 1000) / 1000;
    if (options.json) {
      // `facts` is an addition: the earlier fields keep their meaning (HTTP answers only).
      const json = { file: store.file, entries: stats.entries, bytes: stats.bytes, lastRun: last, hitRate, facts, capBytes: STORE_MAX_BYTES, evicted: stats.evicted };
      process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    } else {
      const lines = [
        `store     ${store.file}`,
        `entries   ${stats.entries}`,
        `size      ${(stats.bytes / MiB).toFixed(1)} MiB (cached answers and facts are kept to ${STORE_MAX_BYTES / MiB} MiB together, the least recently fetched dropped first)`,
        `facts     ${facts.entries} entries, ${(facts.bytes / MiB).toFixed(1)} MiB`,
        `evicted   ${stats.evicted.entries} entries, ${(stats.evicted.bytes / MiB).toFixed(1)} MiB dropped to stay within the cap (since the store was created or last cleared)`,
        last === null
          ? 'last run  —'
          : `last run  ${last.at}: ${last.hits} hits, ${last.revalidated} revalidated, ${last.misses} misses (hit rate ${hitRate === null ? '—' : `${Math.round(hitRate * 100)}%`})`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    return 0;
  } finally {
    store.close();
  }
}

export async function runCacheClear(): Promise<number> {
  const store = openUserStore(process.env, warn);
  if (store === null) return 3;
  try {
    const before = store.cache.stats();
    const facts = store.facts.stats();
    store.cache.clear();
    store.facts.clear();
    // Deleted rows leave their pages in the file: VACUUM gives them back, so the file shrinks.
    store.compact();
    const size = fileBytes(store.file);
    process.stdout.write(
      `cleared ${before.entries} cached responses (${(before.bytes / MiB).toFixed(1)} MiB) and ${facts.entries} cached facts; history kept${size === null ? '' : `; the store file is now ${(size / MiB).toFixed(1)} MiB`}\n`,
    );
    return 0;
  } finally {
    store.close();
  }
}
