/** `nerq history <target>`: past evaluations of one target, newest last, with a sparkline. */
import { historyKeyOf, readHistory } from '../app/history.js';
import { openUserStore } from '../app/store-session.js';
import { TargetError } from '../target/types.js';
import type { HistoryRow } from '../store/types.js';
import { sanitizeForTerminal } from '../render/sanitize.js';
import { UsageError, warn } from './options.js';

const SPARK = '▁▂▃▄▅▆▇█';

/** One block per score (0–100), null as a space. */
export function sparkline(scores: readonly (number | null)[]): string {
  return scores
    .map((s) => (s === null ? ' ' : SPARK[Math.min(SPARK.length - 1, Math.floor((Math.max(0, Math.min(100, s)) / 100) * SPARK.length))]))
    .join('');
}

export async function runHistory(input: string, options: { json?: boolean }): Promise<number> {
  let key: string;
  try {
    key = historyKeyOf(input);
  } catch (error) {
    if (error instanceof TargetError) throw new UsageError(error.message);
    throw error;
  }
  const store = openUserStore(process.env, warn);
  if (store === null) return 3;
  let rows: HistoryRow[];
  try {
    rows = readHistory(store, key);
  } finally {
    store.close();
  }
  if (options.json) {
    const series = rows.map((r) => ({ evaluatedAt: r.evaluatedAt, version: r.version, score: r.score, grade: r.grade, verdict: r.verdict, coverage: r.coverage }));
    process.stdout.write(`${JSON.stringify({ target: key, evaluations: series }, null, 2)}\n`);
    return rows.length === 0 ? 3 : 0;
  }
  if (rows.length === 0) {
    process.stdout.write(`no evaluations of ${sanitizeForTerminal(key)} recorded yet\n`);
    return 3;
  }
  const lines = [`${sanitizeForTerminal(key)}  ${sparkline(rows.map((r) => r.score))}`, ''];
  let lastGrade: string | null = null;
  for (const r of rows) {
    const gradeChange = lastGrade !== null && r.grade !== lastGrade ? `  (grade ${lastGrade} → ${r.grade ?? '—'})` : '';
    lastGrade = r.grade;
    const score = r.score === null ? '    —' : r.score.toFixed(1).padStart(5);
    lines.push(`${r.evaluatedAt.slice(0, 19).replace('T', ' ')}  ${sanitizeForTerminal(r.version ?? '—').padEnd(14)} ${score}  ${(r.grade ?? '—').padEnd(2)}  ${sanitizeForTerminal(r.verdict)}${gradeChange}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
