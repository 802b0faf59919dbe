/** `nerq history <target>`: past evaluations of one target, newest last, with a sparkline. */
import { historyKeyOf, readHistoryPage } from '../app/history.js';
import { openUserStore } from '../app/store-session.js';
import { TargetError } from '../target/types.js';
import type { HistoryRow } from '../store/types.js';
import { sanitizeForTerminal } from '../render/sanitize.js';
import { DEFAULT_HISTORY_LIMIT } from '../store/history.js';
import { UsageError, warn } from './options.js';
import { outputWidth } from './output.js';

/** The most `--limit` accepts. */
const MAX_LIMIT = 100_000;

const SPARK = '▁▂▃▄▅▆▇█';

/**
 * One block per score, scaled from the lowest score shown to the highest (on a 0–100 scale a
 * move from 84 to 88 would be invisible), null as a space; all equal: the middle block.
 */
export function sparkline(scores: readonly (number | null)[]): string {
  const known = scores.filter((s): s is number => s !== null);
  const min = Math.min(...known);
  const max = Math.max(...known);
  const block = (s: number) => {
    if (max === min) return SPARK[SPARK.length / 2 - 1];
    return SPARK[Math.min(SPARK.length - 1, Math.floor(((s - min) / (max - min)) * SPARK.length))];
  };
  return scores.map((s) => (s === null ? ' ' : block(s))).join('');
}

/** `  min 75.2 · max 84.0` after the sparkline: what its lowest and highest blocks stand for. */
function range(scores: readonly (number | null)[]): string {
  const known = scores.filter((s): s is number => s !== null);
  if (known.length === 0) return '';
  const min = Math.min(...known);
  const max = Math.max(...known);
  return min === max ? `  all ${min.toFixed(1)}` : `  min ${min.toFixed(1)} · max ${max.toFixed(1)}`;
}

/**
 * One line per evaluation, oldest first: time, version, score, grade, verdict, and a change of
 * grade from the row before. A change that would run past `width` goes on a line of its own,
 * under the verdict, so no row is wider than the terminal.
 */
export function historyRows(rows: readonly Pick<HistoryRow, 'evaluatedAt' | 'version' | 'score' | 'grade' | 'verdict'>[], width: number): string[] {
  const lines: string[] = [];
  let lastGrade: string | null = null;
  for (const r of rows) {
    const gradeChange = lastGrade !== null && r.grade !== lastGrade ? `(grade ${lastGrade} → ${r.grade ?? '—'})` : '';
    lastGrade = r.grade;
    const score = r.score === null ? '    —' : r.score.toFixed(1).padStart(5);
    const lead = `${r.evaluatedAt.slice(0, 19).replace('T', ' ')}  ${sanitizeForTerminal(r.version ?? '—').padEnd(14)} ${score}  ${(r.grade ?? '—').padEnd(2)}  `;
    const row = `${lead}${sanitizeForTerminal(r.verdict)}`;
    if (gradeChange === '') lines.push(row);
    else if ([...row].length + 2 + [...gradeChange].length <= width) lines.push(`${row}  ${gradeChange}`);
    else lines.push(row, `${' '.repeat([...lead].length)}${gradeChange}`);
  }
  return lines;
}

export async function runHistory(input: string, options: { json?: boolean; limit?: unknown }): Promise<number> {
  const limit = options.limit === undefined ? DEFAULT_HISTORY_LIMIT : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
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
  let more: boolean;
  try {
    ({ rows, olderNotShown: more } = readHistoryPage(store, key, limit));
  } finally {
    store.close();
  }
  if (options.json) {
    const series = rows.map((r) => ({ evaluatedAt: r.evaluatedAt, version: r.version, score: r.score, grade: r.grade, verdict: r.verdict, coverage: r.coverage }));
    process.stdout.write(`${JSON.stringify({ target: key, evaluations: series, olderNotShown: more }, null, 2)}\n`);
    return rows.length === 0 ? 3 : 0;
  }
  if (rows.length === 0) {
    process.stdout.write(`no evaluations of ${sanitizeForTerminal(key)} recorded yet\n`);
    return 3;
  }
  const scores = rows.map((r) => r.score);
  const lines = [`${sanitizeForTerminal(key)}  ${sparkline(scores)}${range(scores)}`, ''];
  if (more) lines.push(`the last ${limit} evaluations; older ones are not shown (--limit N shows more)`, '');
  lines.push(...historyRows(rows, outputWidth({})));
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
