/** `nerq score <evidence>`: re-score saved evidence offline; no network, no store. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CHECKS } from '../checks/index.js';
import { EvidenceSchema, type Evidence } from '../evidence/schema.js';
import { buildReport } from '../report/build.js';
import { describeIoError } from '../audit/detect.js';
import { clockFrom, gateOf, isoDate, OutputOptionsSchema, parseOptions, UsageError } from './options.js';
import { writeReports } from './output.js';

const EvidenceFileSchema = z.union([EvidenceSchema, z.array(EvidenceSchema)]);

export function readEvidenceFile(file: string): Evidence[] {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${JSON.stringify(file)}: ${describeIoError(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${JSON.stringify(file)} is not valid JSON`);
  }
  // Nothing to score is bad input, not a silent success.
  if (Array.isArray(json) && json.length === 0) throw new UsageError(`${JSON.stringify(file)} holds no evidence (an empty array)`);
  const parsed = EvidenceFileSchema.safeParse(json);
  if (!parsed.success) {
    // The union's own message is "Invalid input": say what the first alternative misses instead.
    const single = (Array.isArray(json) ? z.array(EvidenceSchema) : EvidenceSchema).safeParse(json);
    const issue = (single.success ? parsed.error : single.error).issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    const missing = issue?.code === 'invalid_type' && issue.message.includes('received undefined') ? 'missing' : (issue?.message ?? 'invalid');
    throw new UsageError(`${JSON.stringify(file)} is not a nerq evidence file${where}: ${missing}`);
  }
  const list = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  list.forEach((evidence, index) => {
    // The evaluation instant: a file someone else wrote may hold anything here.
    if (isoDate(evidence.capturedAt) === null) {
      const where = Array.isArray(parsed.data) ? `${index}.capturedAt` : 'capturedAt';
      throw new UsageError(`${JSON.stringify(file)} is not a nerq evidence file at ${where}: not an ISO 8601 date`);
    }
  });
  return list;
}

export async function runScore(file: string, raw: Record<string, unknown>): Promise<number> {
  const options = parseOptions(OutputOptionsSchema, raw);
  const now = clockFrom(process.env);
  const evidence = readEvidenceFile(file);
  const gate = gateOf(options);
  const reports = evidence.map((e) =>
    buildReport(now ? { ...e, capturedAt: now.toISOString() } : e, { checks: CHECKS, gate, category: options.category ?? null }),
  );
  return writeReports(reports, options);
}
