/**
 * What the search clients share (npm's search, GitHub's repository search): an answer's items
 * read one by one into listings — an item that does not validate, or repeats one kept (by
 * `key`), is dropped and counted, never repaired — and at most `max` of them read.
 */
export function keepListings<T>(
  items: readonly unknown[],
  max: number,
  read: (item: unknown) => T | null,
  key: (listing: T) => string,
): { listings: T[]; dropped: number } {
  const listings: T[] = [];
  const keys = new Set<string>();
  let dropped = Math.max(0, items.length - max);
  for (const item of items.slice(0, max)) {
    const listing = read(item);
    if (listing === null || keys.has(key(listing))) {
      dropped += 1;
      continue;
    }
    keys.add(key(listing));
    listings.push(listing);
  }
  return { listings, dropped };
}

/** A body as JSON, or undefined when it is not JSON. */
export function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
