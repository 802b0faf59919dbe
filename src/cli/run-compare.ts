/**
 * `nerq compare <target> <target>…`: every target evaluated (concurrently), then side by side.
 * Informational: exit 0 when every target was evaluated, 3 when one could not be (no gate).
 */
import { z } from 'zod';
import { refusedRequest } from '../app/check.js';
import { compareTargets } from '../app/compare.js';
import { renderCompareJson, renderCompareMarkdown, renderCompareTable } from '../render/compare.js';
import { cliRuntime } from './cli-runtime.js';
import { parseTargets } from './targets.js';
import { guardInterrupts } from './interrupt.js';
import { CheckOptionsSchema, clockFrom, formatOf, gateOf, includePackageOption, parseOptions, UsageError } from './options.js';
import { emit, outputWidth } from './output.js';
import { startProgress } from './progress.js';

const DEFAULT_TIMEOUT_S = 60;
/** The most targets one comparison takes. */
const MAX_TARGETS = 10;

const CompareOptionsSchema = CheckOptionsSchema.pick({
  json: true,
  format: true,
  category: true,
  timeout: true,
  registry: true,
  offline: true,
  cache: true,
  history: true,
  output: true,
  color: true,
  includePackage: true,
});

export async function runCompare(inputs: string[], raw: Record<string, unknown>): Promise<number> {
  const options: z.infer<typeof CompareOptionsSchema> = parseOptions(CompareOptionsSchema, raw);
  if (inputs.length < 2) throw new UsageError('compare needs at least two targets');
  if (inputs.length > MAX_TARGETS) throw new UsageError(`compare takes at most ${MAX_TARGETS} targets`);
  const now = clockFrom(process.env) ?? new Date();
  const targets = parseTargets(inputs);
  // The same target twice compares nothing (`request` and `npm:request` are one).
  const seen = new Set<string>();
  for (const t of targets) {
    // GitHub's owner/name is case-insensitive; npm kept some old upper-case names apart.
    const key = `${t.ecosystem}:${t.ecosystem === 'github' ? t.name.toLowerCase() : t.name}@${t.spec ?? ''}`;
    if (seen.has(key)) throw new UsageError(`compare names ${t.input} twice: name different targets`);
    seen.add(key);
  }
  // The targets named are compared as `nerq check` scores them with the same choice.
  const includePackage = includePackageOption(options.includePackage, targets);

  const runtime = cliRuntime({ cwd: process.cwd(), registry: options.registry, offline: options.offline, cache: options.cache, history: options.history });
  const progress = startProgress(targets.length, runtime.activity);
  const interrupts = guardInterrupts();
  interrupts.add(() => progress.stop());
  interrupts.add(() => runtime.session.interrupt());
  let result: Awaited<ReturnType<typeof compareTargets>>;
  try {
    try {
      result = await compareTargets(runtime, {
        targets,
        ...(includePackage === undefined ? {} : { includePackage }),
        gate: gateOf({}),
        category: options.category,
        now,
        signal: AbortSignal.timeout((options.timeout ?? DEFAULT_TIMEOUT_S) * 1000),
      });
    } finally {
      progress.stop();
    }
  } finally {
    interrupts.dispose();
    await runtime.close();
  }
  // An mcp: word naming several servers, a named package that does not verify: a usage error, as for `nerq check`.
  const refused = refusedRequest(result.outcomes);
  if (refused !== null) throw new UsageError(refused.message);
  const reports = result.outcomes.map((o) => o.report);
  const format = formatOf(options);
  const width = outputWidth(options);
  const text =
    format === 'json'
      ? renderCompareJson(reports, result.comparison)
      : format === 'markdown'
        ? renderCompareMarkdown(reports, result.comparison)
        : renderCompareTable(reports, result.comparison, { width });
  emit(text, options.output, format === 'json');
  return reports.some((r) => r.error !== null) ? 3 : 0;
}
