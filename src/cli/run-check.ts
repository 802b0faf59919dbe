/** `nerq check <target...>`: parse every target first (bad input → exit 2, no request), then evaluate. */
import { writeFileSync } from 'node:fs';
import { checkTarget, type TargetOutcome } from '../pipeline/check-target.js';
import type { Report } from '../report/schema.js';
import { parseTarget } from '../target/parse.js';
import { TargetError, type Target } from '../target/types.js';
import { CheckOptionsSchema, clockFrom, gateOf, parseOptions, UsageError } from './options.js';
import { writeReports } from './output.js';
import { guardInterrupts } from './interrupt.js';
import { startProgress } from './progress.js';
import { setUpRun } from './run-context.js';
import { mapLimit } from '../util/map-limit.js';
import { printWarning } from './stderr.js';

const CONCURRENCY = 4;

export async function runCheck(inputs: string[], raw: Record<string, unknown>): Promise<number> {
  const options = parseOptions(CheckOptionsSchema, raw);
  const now = clockFrom(process.env) ?? new Date();

  const targets: Target[] = [];
  for (const input of inputs) {
    try {
      targets.push(parseTarget(input));
    } catch (error) {
      if (error instanceof TargetError) throw new UsageError(error.message);
      throw error;
    }
  }

  const { ctx, session, http, activity } = setUpRun({
    cwd: process.cwd(),
    registry: options.registry,
    offline: options.offline,
    cache: options.cache,
    history: options.history,
    maxAge: options.maxAge,
    timeout: options.timeout,
    category: options.category,
    gate: gateOf(options),
    now,
  });

  const progress = startProgress(targets.length, activity);
  const interrupts = guardInterrupts();
  interrupts.add(() => progress.stop());
  interrupts.add(() => session.interrupt());
  let outcomes: TargetOutcome[];
  try {
    outcomes = await mapLimit(targets, CONCURRENCY, async (target) => {
      const outcome = await checkTarget(target, ctx);
      progress.tick(target.input);
      return outcome;
    });
  } finally {
    progress.stop();
    await http.close();
  }

  if (options.saveEvidence) saveEvidence(options.saveEvidence, outcomes, targets.length);

  let reports: Report[];
  try {
    reports = outcomes.map((o) => session.remember(o.report, o.evidence));
  } finally {
    interrupts.dispose();
    session.close();
  }
  return writeReports(reports, options);
}

/**
 * One target: its evidence object; several: an array of the evaluated ones. A single target
 * that could not be evaluated has no evidence: nothing is written, and stderr says so.
 */
function saveEvidence(file: string, outcomes: readonly TargetOutcome[], targetCount: number): void {
  const evidence = outcomes.flatMap((o) => (o.evidence ? [o.evidence] : []));
  if (targetCount === 1 && evidence.length === 0) {
    printWarning('no evidence to save: the target could not be evaluated');
    return;
  }
  const body = targetCount === 1 ? evidence[0] : evidence;
  try {
    writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`cannot write evidence to ${JSON.stringify(file)}: ${code}`);
  }
}
