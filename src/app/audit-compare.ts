/**
 * `nerq audit --compare`: for the packages that fail the policy, their standing among their
 * peers and their higher-scoring alternatives (docs/scoring.md §13) — what to use instead. Each
 * comparison costs up to `peers` evaluations, so at most AUDIT_COMPARE_LIMIT packages are
 * compared, the lowest scores first; the audit's outcome and exit code never change.
 */
import type { AuditEntry, AuditWarning } from '../audit/types.js';
import type { Evidence } from '../evidence/schema.js';
import { mapLimit } from '../util/map-limit.js';
import type { CallOptions, Runtime } from './runtime.js';

/** Failing packages compared at most. */
export const AUDIT_COMPARE_LIMIT = 10;
/** Comparisons in flight at once (each evaluates its peers concurrently). */
const COMPARE_CONCURRENCY = 2;

export interface AuditCompareRequest extends CallOptions {
  /** Peers per failing package at most (default: compare.ts DEFAULT_PEERS). */
  peers?: number | undefined;
}

/**
 * The entries, the compared ones' reports carrying `comparison` / `alternatives`, and a
 * `compare-limited` warning when more packages failed than were compared. `evidence[i]` is the
 * evidence of `entries[i]` (the peers are searched by its keywords).
 */
export async function compareFailing(
  runtime: Runtime,
  entries: readonly AuditEntry[],
  evidence: readonly (Evidence | null)[],
  request: AuditCompareRequest,
): Promise<{ entries: AuditEntry[]; warnings: AuditWarning[] }> {
  const failing = entries
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => entry.policy.status === 'fail' && entry.report.error === null && entry.report.score !== null)
    .sort((a, b) => (a.entry.report.score as number) - (b.entry.report.score as number) || a.index - b.index);
  const chosen = failing.slice(0, AUDIT_COMPARE_LIMIT);
  const out = [...entries];
  if (chosen.length > 0) {
    // Loaded here: the curated data and the search client only with --compare.
    const { compareWithPeers, withComparison } = await import('./compare.js');
    await mapLimit(chosen, COMPARE_CONCURRENCY, async ({ entry, index }) => {
      const result = await compareWithPeers(runtime, { report: entry.report, evidence: evidence[index] ?? null }, {
        gate: request.gate,
        signal: request.signal,
        now: request.now,
        category: request.category,
        ...(request.peers === undefined ? {} : { peers: request.peers }),
      });
      out[index] = { ...entry, report: withComparison(entry.report, result) };
    });
  }
  const skipped = failing.length - chosen.length;
  const warnings: AuditWarning[] =
    skipped === 0
      ? []
      : [
          {
            code: 'compare-limited',
            message: `--compare: ${skipped} more failing ${skipped === 1 ? 'package was' : 'packages were'} not compared (at most ${AUDIT_COMPARE_LIMIT}, the lowest scores first)`,
            details: { compared: chosen.length, skipped },
          },
        ];
  return { entries: out, warnings };
}
