/**
 * Start-up: `nerq --version` wall time ÷ `node -e 0` wall time, measured in the same run with
 * the same Node binary, interleaved so that machine noise hits both alike.
 */
import { runChild } from '../child.js';
import { describeExit, type BenchContext, type WorkloadResult } from '../context.js';
import { formatMs, formatSummary, summarise } from '../stats.js';

export const STARTUP_TARGET = 1.5;

export async function startupWorkload(ctx: BenchContext): Promise<WorkloadResult> {
  const env = { PATH: process.env.PATH ?? '', HOME: ctx.tmp, NO_COLOR: '1' };
  const once = (args: string[]) => runChild({ command: ctx.node, args, env, cwd: ctx.tmp, timeoutMs: 30_000 });
  const node: number[] = [];
  const nerq: number[] = [];
  const runs = ctx.options.runs.cheap;
  for (let i = -1; i < runs; i++) {
    const bare = await once(['-e', '0']);
    const version = await once([ctx.cliBin, '--version']);
    if (version.code !== 0) {
      return { id: 'startup', title: 'start-up', status: 'failed', reason: `nerq --version: ${describeExit(version)}`, figures: [], details: [] };
    }
    if (i >= 0) {
      node.push(bare.wallMs);
      nerq.push(version.wallMs);
    }
  }
  const n = summarise(node);
  const v = summarise(nerq);
  const ratio = v.median / n.median;
  const ratios = summarise(nerq.map((t, i) => t / (node[i] as number)));
  return {
    id: 'startup',
    title: 'start-up',
    status: 'ok',
    figures: [
      {
        workload: 'start-up',
        figure: '`nerq --version` ÷ `node -e 0` (wall)',
        target: `≤ ${STARTUP_TARGET}`,
        value: `${ratio.toFixed(2)} (per-run ${ratios.min.toFixed(2)}–${ratios.max.toFixed(2)})`,
        met: ratio <= STARTUP_TARGET,
        note: `nerq --version ${formatSummary(v)}, node -e 0 ${formatSummary(n)}`,
      },
    ],
    details: [
      [
        '| command | wall, median (min–max) |',
        '| --- | --- |',
        `| \`node -e 0\` | ${formatSummary(n)} |`,
        `| \`nerq --version\` | ${formatSummary(v)} |`,
        `| ratio of medians | ${ratio.toFixed(2)} (${formatMs(v.median - n.median)} of nerq's own) |`,
      ].join('\n'),
    ],
  };
}
