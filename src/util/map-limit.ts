/** Bounded concurrency: the one helper every source, the audit and the CLI use. */

/**
 * Map `items` through `fn` with at most `limit` calls in flight, keeping the input order in the
 * result. A freed slot takes the next item at once.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, Math.floor(limit) || 1), items.length) }, worker));
  return results;
}
