/**
 * What the summary (scripts/hostile-summary.ts) reads from each test: how many cases it
 * covered, its largest measured time against its bound, and the peak RSS it saw. Stored in
 * the test's `meta`, which vitest hands to reporters (the JSON reporter writes it out).
 */
export interface HostileMeta {
  /** Cases this test covers (a batch test covers many). */
  cases: number;
  /** The largest measured time (ms) and the bound it was held to. */
  wallMs: number | null;
  boundMs: number | null;
  /** Peak resident set size seen (bytes): a CLI child's, or this process's for in-process tests. */
  peakRssBytes: number | null;
  /** Known findings this test stands for (an `it.fails` test asserting a contract broken today). */
  knownFailures?: number;
}

interface TaskLike {
  meta: object;
}

function metaOf(task: TaskLike): HostileMeta {
  const meta = task.meta as { hostile?: HostileMeta };
  meta.hostile ??= { cases: 0, wallMs: null, boundMs: null, peakRssBytes: null };
  return meta.hostile;
}

/** Count `n` more cases for this test. */
export function noteCases(task: TaskLike, n = 1): void {
  metaOf(task).cases += n;
}

/** Record one measured time against its bound (the test keeps the one closest to its bound). */
export function noteTime(task: TaskLike, wallMs: number, boundMs: number): void {
  const meta = metaOf(task);
  if (meta.wallMs === null || meta.boundMs === null || wallMs / boundMs > meta.wallMs / meta.boundMs) {
    meta.wallMs = wallMs;
    meta.boundMs = boundMs;
  }
}

/** Record a peak RSS (the test keeps the largest). */
export function noteRss(task: TaskLike, bytes: number | null): void {
  if (bytes === null) return;
  const meta = metaOf(task);
  meta.peakRssBytes = Math.max(meta.peakRssBytes ?? 0, bytes);
}

/** Mark this test as a known finding (an `it.fails` test: it passes while the bug is there). */
export function noteKnownFailure(task: TaskLike): void {
  const meta = metaOf(task);
  meta.knownFailures = (meta.knownFailures ?? 0) + 1;
}
