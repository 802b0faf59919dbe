/** `nerq check <target...>`: parse every target first (bad input → exit 2, no request), then evaluate. */
import { checkTargets, refusedRequest, type TargetOutcome } from '../app/check.js';
import { cliRuntime } from './cli-runtime.js';
import { parseTargets } from './targets.js';
import { CheckOptionsSchema, clockFrom, gateOf, includePackageOption, parseOptions, UsageError } from './options.js';
import { writeReports } from './output.js';
import { guardInterrupts } from './interrupt.js';
import { startProgress } from './progress.js';
import { printWarning } from './stderr.js';
import { writeProblem, writeRegularFile } from './write-file.js';

/** --timeout's default: the deadline of the whole run, in seconds. */
const DEFAULT_TIMEOUT_S = 60;

export async function runCheck(inputs: string[], raw: Record<string, unknown>): Promise<number> {
  const options = parseOptions(CheckOptionsSchema, raw);
  const now = clockFrom(process.env) ?? new Date();

  const targets = parseTargets(inputs);

  if (options.peers !== undefined && options.compare !== true) throw new UsageError('--peers needs --compare');
  const includePackage = includePackageOption(options.includePackage, targets);

  const runtime = cliRuntime({
    cwd: process.cwd(),
    registry: options.registry,
    offline: options.offline,
    cache: options.cache,
    history: options.history,
    maxAgeS: options.maxAge,
  });

  const progress = startProgress(targets.length, runtime.activity);
  const interrupts = guardInterrupts();
  interrupts.add(() => progress.stop());
  interrupts.add(() => runtime.session.interrupt());
  let outcomes: TargetOutcome[];
  try {
    try {
      const call = {
        gate: gateOf(options),
        category: options.category,
        now,
        signal: AbortSignal.timeout((options.timeout ?? DEFAULT_TIMEOUT_S) * 1000),
      };
      // --include-package applies to the targets named, not to the peers --compare evaluates.
      outcomes = await checkTargets(runtime, { ...call, ...(includePackage === undefined ? {} : { includePackage }), targets, onEvaluated: (target) => progress.tick(target.input) });
      if (options.compare === true) {
        // Loaded on demand: the curated data and the search client only with --compare.
        const { compareWithPeers, withComparison } = await import('../app/compare.js');
        const compared: TargetOutcome[] = [];
        for (const outcome of outcomes) {
          const result = await compareWithPeers(runtime, outcome, { ...call, ...(options.peers === undefined ? {} : { peers: options.peers }) });
          compared.push({ ...outcome, report: withComparison(outcome.report, result) });
        }
        outcomes = compared;
      }
    } finally {
      progress.stop();
    }
    // A bare word that names several MCP servers is a request to be made precise, not a result.
    // So is an option the target cannot honour (--include-package naming a package that does not verify).
    const refused = refusedRequest(outcomes);
    if (refused !== null) throw new UsageError(refused.message);
    if (options.saveEvidence) saveEvidence(options.saveEvidence, outcomes, targets.length);
  } finally {
    interrupts.dispose();
    await runtime.close();
  }
  return writeReports(
    outcomes.map((o) => o.report),
    options,
  );
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
    writeRegularFile(file, `${JSON.stringify(body, null, 2)}\n`);
  } catch (error) {
    throw new UsageError(`cannot write evidence to ${JSON.stringify(file)}: ${writeProblem(error)}`);
  }
}
