/** `nerq score <evidence>`: re-score saved evidence offline; no network, no store. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CHECKS } from '../checks/index.js';
import { EvidenceSchema, type Evidence } from '../evidence/schema.js';
import { buildReport } from '../report/build.js';
import { DEFAULT_GATE, exitCodeOf } from '../scoring/gate.js';
import { clockFrom, formatOf, OutputOptionsSchema, parseOptions, UsageError } from './options.js';
import { colorEnabled, renderReports } from './output.js';

const EvidenceFileSchema = z.union([EvidenceSchema, z.array(EvidenceSchema)]);

export function readEvidenceFile(file: string): Evidence[] {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${JSON.stringify(file)}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${JSON.stringify(file)} is not valid JSON`);
  }
  const parsed = EvidenceFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new UsageError(`${JSON.stringify(file)} is not a nerq evidence file${where}: ${issue?.message ?? 'invalid'}`);
  }
  return Array.isArray(parsed.data) ? parsed.data : [parsed.data];
}

export async function runScore(file: string, raw: Record<string, unknown>): Promise<number> {
  const options = parseOptions(OutputOptionsSchema, raw);
  const now = clockFrom(process.env);
  const evidence = readEvidenceFile(file);
  const gate = {
    ...DEFAULT_GATE,
    threshold: options.minScore ?? DEFAULT_GATE.threshold,
    minCoverage: options.minCoverage ?? DEFAULT_GATE.minCoverage,
  };
  const reports = evidence.map((e) =>
    buildReport(now ? { ...e, capturedAt: now.toISOString() } : e, { checks: CHECKS, gate, category: options.category ?? null }),
  );
  process.stdout.write(
    renderReports(reports, {
      format: formatOf(options),
      color: colorEnabled(process.env, process.stdout.isTTY === true, options.color),
      width: Math.min(process.stdout.columns || 80, 120),
      evidence: options.evidence === true,
    }),
  );
  return exitCodeOf(reports.map((r) => r.gate));
}
