/**
 * The history table: one row per completed evaluation, for trends and "changed since last
 * time". Dimension and check scores are stored as JSON objects.
 *
 * Rows are queued (write-queue.ts) and written with the store's next flush — at the latest on
 * close; a failed flush keeps them queued for the next one. Reads merge the queued rows in, as
 * if they had been inserted already (newest id last).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { HistoryRow, HistoryStore } from './types.js';
import type { WriteQueue } from './write-queue.js';

/** How many rows `list` returns when no limit is given. */
export const DEFAULT_HISTORY_LIMIT = 50;

interface Row {
  target: string;
  ecosystem: string;
  name: string;
  version: string | null;
  score: number | null;
  grade: string | null;
  verdict: string;
  coverage: number;
  dimensions: string;
  checks: string;
  evidence_hash: string;
  evaluated_at: string;
  tool_version: string;
}

const COLUMNS =
  'target, ecosystem, name, version, score, grade, verdict, coverage, dimensions, checks, evidence_hash, evaluated_at, tool_version';

function parseScores(json: string): Record<string, number | null> {
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const scores: Record<string, number | null> = {};
    for (const [k, v] of Object.entries(value)) if (typeof v === 'number' || v === null) scores[k] = v;
    return scores;
  } catch {
    return {};
  }
}

function fromRow(row: Row): HistoryRow {
  return {
    target: row.target,
    ecosystem: row.ecosystem,
    name: row.name,
    version: row.version,
    score: row.score,
    grade: row.grade,
    verdict: row.verdict,
    coverage: row.coverage,
    dimensions: parseScores(row.dimensions),
    checks: parseScores(row.checks),
    evidenceHash: row.evidence_hash,
    evaluatedAt: row.evaluated_at,
    toolVersion: row.tool_version,
  };
}

/** Rows newest first: by evaluation time, then insertion (queued rows after stored ones). */
function newestFirst(stored: HistoryRow[], queued: readonly HistoryRow[]): HistoryRow[] {
  // A stable sort of [queued newest-inserted first, then stored (already id DESC)] keeps that order on ties.
  const rows = [...[...queued].reverse(), ...stored];
  return rows.sort((a, b) => (a.evaluatedAt < b.evaluatedAt ? 1 : a.evaluatedAt > b.evaluatedAt ? -1 : 0));
}

/** What a queued row costs to write, roughly (it only decides when to flush). */
function rowBytes(row: HistoryRow): number {
  return 256 + Object.keys(row.dimensions).length * 32 + Object.keys(row.checks).length * 32;
}

/** The HistoryStore over an open, migrated database. Statements are prepared here, once. */
export function createHistory(db: DatabaseSync, queue: WriteQueue): HistoryStore {
  const insert = db.prepare(`INSERT INTO history (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const list = db.prepare(
    `SELECT ${COLUMNS} FROM history WHERE target = ? ORDER BY evaluated_at DESC, id DESC LIMIT ?`,
  );
  const previous = db.prepare(
    `SELECT ${COLUMNS} FROM history WHERE target = ? AND evaluated_at < ? ORDER BY evaluated_at DESC, id DESC LIMIT 1`,
  );

  let queued: HistoryRow[] = [];
  const queuedByTarget = new Map<string, HistoryRow[]>();

  queue.join({
    apply() {
      for (const row of queued) {
        insert.run(
          row.target,
          row.ecosystem,
          row.name,
          row.version,
          row.score,
          row.grade,
          row.verdict,
          row.coverage,
          JSON.stringify(row.dimensions),
          JSON.stringify(row.checks),
          row.evidenceHash,
          row.evaluatedAt,
          row.toolVersion,
        );
      }
    },
    settle(committed) {
      // Nothing is recorded during a flush: committed means every queued row is written.
      if (committed) {
        queued = [];
        queuedByTarget.clear();
      }
      return queued.reduce((sum, row) => sum + rowBytes(row), 0);
    },
  });

  return {
    record(row) {
      const copy = { ...row, dimensions: { ...row.dimensions }, checks: { ...row.checks } };
      queued.push(copy);
      const rows = queuedByTarget.get(copy.target);
      if (rows === undefined) queuedByTarget.set(copy.target, [copy]);
      else rows.push(copy);
      queue.queued(rowBytes(copy));
    },
    list(target, limit = DEFAULT_HISTORY_LIMIT) {
      const n = Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_HISTORY_LIMIT;
      const stored = (list.all(target, n) as unknown as Row[]).map(fromRow);
      const pending = queuedByTarget.get(target);
      return pending === undefined ? stored : newestFirst(stored, pending).slice(0, n);
    },
    previous(target, before) {
      const row = previous.get(target, before) as Row | undefined;
      const stored = row ? [fromRow(row)] : [];
      const pending = queuedByTarget.get(target)?.filter((r) => r.evaluatedAt < before);
      if (pending === undefined || pending.length === 0) return stored[0];
      return newestFirst(stored, pending)[0];
    },
  };
}
