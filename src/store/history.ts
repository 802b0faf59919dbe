/**
 * The history table: one row per completed evaluation, for trends and "changed since last
 * time". Dimension and check scores are stored as JSON objects.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Transact } from './db.js';
import type { HistoryRow, HistoryStore } from './types.js';

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

/** The HistoryStore over an open, migrated database. Statements are prepared here, once. */
export function createHistory(db: DatabaseSync, transact: Transact): HistoryStore {
  const insert = db.prepare(`INSERT INTO history (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const list = db.prepare(
    `SELECT ${COLUMNS} FROM history WHERE target = ? ORDER BY evaluated_at DESC, id DESC LIMIT ?`,
  );
  const previous = db.prepare(
    `SELECT ${COLUMNS} FROM history WHERE target = ? AND evaluated_at < ? ORDER BY evaluated_at DESC, id DESC LIMIT 1`,
  );

  return {
    record(row) {
      transact(() => {
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
      });
    },
    list(target, limit = DEFAULT_HISTORY_LIMIT) {
      const n = Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_HISTORY_LIMIT;
      return (list.all(target, n) as unknown as Row[]).map(fromRow);
    },
    previous(target, before) {
      const row = previous.get(target, before) as Row | undefined;
      return row ? fromRow(row) : undefined;
    },
  };
}
