/**
 * Dependent request rounds, derived from the server's request log.
 *
 * Definition. Request B *waited for* request A when B started at or after A ended (B.start ≥
 * A.end): whatever made the client send B, it was not sent while A was in flight, so the two
 * cost two latencies, not one. A chain is a sequence of requests each starting at or after the
 * previous one ended. The **rounds** of a run are the length of its longest chain: the fewest
 * sequential network waits the run went through, whatever caused them (a true data dependency
 * such as packument → tarball, or a self-imposed one such as a concurrency limit or a late
 * start). No gap threshold is used: a gap between A's end and B's start is time the client
 * spent doing something else (parsing, start-up), which the overhead figure accounts for.
 *
 * The **critical path** is the longest chain; among chains of that length, the one that spent
 * the most time waiting (the sum of its requests' durations). **Waiting** = that sum, and
 * **overhead** = the process's wall time − waiting: the time not explained by the network.
 *
 * O(n log n): requests are taken in start order and each chain end is kept in a Fenwick tree
 * over the end times, so "the best chain that ended by time t" is a prefix query.
 */

export interface TimedRequest {
  start: number;
  end: number;
}

export interface CriticalPath<T extends TimedRequest> {
  rounds: number;
  /** Sum of the durations of the path's requests (ms). */
  waitingMs: number;
  /** The path, first request first. */
  chain: T[];
}

interface Best {
  rounds: number;
  waiting: number;
  /** Index (in the sorted requests) of the chain's last request, or -1. */
  last: number;
}

const NONE: Best = { rounds: 0, waiting: 0, last: -1 };

function better(a: Best, b: Best): Best {
  if (a.rounds !== b.rounds) return a.rounds > b.rounds ? a : b;
  return a.waiting >= b.waiting ? a : b;
}

/** The last index whose value is ≤ t in an ascending array, or -1. */
function lastAtOrBefore(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) <= t) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** The first index whose value is ≥ t in an ascending array (length when none). */
function firstAtOrAfter(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The longest chain of requests that each waited for the previous one. */
export function criticalPath<T extends TimedRequest>(requests: readonly T[]): CriticalPath<T> {
  const valid = requests.filter((r) => Number.isFinite(r.start) && Number.isFinite(r.end) && r.end >= r.start);
  if (valid.length === 0) return { rounds: 0, waitingMs: 0, chain: [] };
  const byStart = [...valid].sort((a, b) => a.start - b.start || a.end - b.end);
  const ends = byStart.map((r) => r.end).sort((a, b) => a - b);
  // Fenwick tree (1-based) of the best chain ending at each end-time rank.
  const tree: Best[] = new Array<Best>(ends.length + 1).fill(NONE);
  const query = (rank: number): Best => {
    let best = NONE;
    for (let i = rank + 1; i > 0; i -= i & -i) best = better(best, tree[i] as Best);
    return best;
  };
  const update = (rank: number, value: Best): void => {
    for (let i = rank + 1; i <= ends.length; i += i & -i) tree[i] = better(tree[i] as Best, value);
  };
  // Equal end times get consecutive ranks: each request takes the next free one.
  const usedRanks = new Map<number, number>();
  const rankOfEnd = (end: number): number => {
    const used = usedRanks.get(end) ?? 0;
    usedRanks.set(end, used + 1);
    return firstAtOrAfter(ends, end) + used;
  };
  const previous: number[] = new Array<number>(byStart.length).fill(-1);
  let overall = NONE;
  // Requests in start order: every request that ended by this one's start also started
  // before it, so its chain is already in the tree. A request is inserted right after its
  // own query, under its end time, so a later query sees it only when it ended in time.
  byStart.forEach((request, index) => {
    const before = lastAtOrBefore(ends, request.start);
    const head = before < 0 ? NONE : query(before);
    const best: Best = { rounds: head.rounds + 1, waiting: head.waiting + (request.end - request.start), last: index };
    previous[index] = head.last;
    overall = better(overall, best);
    update(rankOfEnd(request.end), best);
  });
  const chain: T[] = [];
  for (let i = overall.last; i >= 0; i = previous[i] as number) chain.push(byStart[i] as T);
  chain.reverse();
  return { rounds: overall.rounds, waitingMs: overall.waiting, chain };
}
