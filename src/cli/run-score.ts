/** `nerq score <evidence>`: re-score saved evidence offline; no network, no store. */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { readTreeFileSync } from '../audit/tree-file.js';
import { describeIoError } from '../audit/detect.js';
import { EvidenceError, evidenceFromJson, rescoreEvidence } from '../app/score.js';
import type { Evidence } from '../evidence/schema.js';
import { clockFrom, gateOf, OutputOptionsSchema, parseOptions, UsageError } from './options.js';
import { writeReports } from './output.js';

/** The largest evidence file read: far above what `--save-evidence` writes for a long list of targets. */
const MAX_EVIDENCE_BYTES = 256 * 1024 * 1024;

/**
 * The evidence file's text: the file named (a link followed, as the user named it), read only when
 * it is a regular file of at most MAX_EVIDENCE_BYTES — a link to `/dev/zero` or a FIFO (which an
 * artifact or a checked-out tree may hold) is refused at once rather than read without end or
 * waited on (audit/tree-file.ts); `-` is stdin.
 */
function evidenceText(file: string): string {
  const cannot = (why: string) => new UsageError(`cannot read ${JSON.stringify(file)}: ${why}`);
  if (file === '-') {
    try {
      return readFileSync(0, 'utf8');
    } catch (error) {
      throw cannot(describeIoError(error));
    }
  }
  let real: string;
  try {
    real = realpathSync(file);
    if (statSync(real).isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
  } catch (error) {
    throw cannot(describeIoError(error));
  }
  const read = readTreeFileSync(real, null, MAX_EVIDENCE_BYTES);
  switch (read.kind) {
    case 'text':
      return read.text;
    case 'missing':
      throw cannot('no such file');
    case 'not-a-file':
      throw cannot('not a regular file (a FIFO, socket or device)');
    case 'too-large':
      throw cannot(`larger than ${MAX_EVIDENCE_BYTES / 1024 / 1024} MiB`);
    case 'outside':
      throw cannot('a symbolic link swapped in while it was read');
    case 'error':
      throw cannot(read.code);
  }
}

function readEvidenceFile(file: string): Evidence[] {
  const text = evidenceText(file);
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
