/** `nerq score <evidence>`: re-score saved evidence offline; no network, no store. */
import { readFileSync } from 'node:fs';
import { describeIoError } from '../audit/detect.js';
import { EvidenceError, evidenceFromJson, rescoreEvidence } from '../app/score.js';
import type { Evidence } from '../evidence/schema.js';
import { clockFrom, gateOf, OutputOptionsSchema, parseOptions, UsageError } from './options.js';
import { writeReports } from './output.js';

function readEvidenceFile(file: string): Evidence[] {
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
  try {
    return evidenceFromJson(json);
  } catch (error) {
    if (error instanceof EvidenceError) {
      const where = error.where === '' ? '' : ` at ${error.where}`;
      throw new UsageError(`${JSON.stringify(file)} is not a nerq evidence file${where}: ${error.problem}`);
    }
    throw error;
  }
}

export async function runScore(file: string, raw: Record<string, unknown>): Promise<number> {
  const options = parseOptions(OutputOptionsSchema, raw);
  const now = clockFrom(process.env);
  const evidence = readEvidenceFile(file);
  const reports = rescoreEvidence(evidence, { gate: gateOf(options), category: options.category ?? null, now });
  return writeReports(reports, options);
}
