/**
 * `nerq audit` while the public APIs are down (README.md, "Unreachable hosts"): a generated
 * 238-package project (package.json + package-lock.json v3, the size of a real app's lockfile)
 * whose registry answers from the bench server while every other service is unreachable.
 *
 * 1. cold, the public APIs unresolvable (`.invalid` hosts: a DNS failure), as a machine without
 *    internet access but with a registry mirror sees them — target: under 15 s;
 * 2. the same store with `--offline` (no network at all): the floor a warm run is compared with;
 * 3. the same store warm, the public APIs still unresolvable — target: within `--offline`'s time
 *    plus one failed attempt per host;
 * 4. the same store warm, the optional services answering 503 from a server of their own, which
 *    counts what each was asked: a service that keeps failing is asked until it is found down
 *    (REPEATED_FAULTS answers in a row) and then no more.
 */
import { lookup } from 'node:dns/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { freshHome } from '../child.js';
import { describeExit, evaluatedExit, runCli, type BenchContext, type CliRun, type Figure, type WorkloadResult } from '../context.js';
import { buildProject } from '../generate/lockfile.js';
import { formatMs, formatSummary, summarise } from '../stats.js';

export const OUTAGE_TARGETS = { packages: 238, coldMs: 15_000, repeatedFaults: 3 } as const;

/** Every public API on a host that does not resolve (RFC 2606: `.invalid` never does). */
export const UNRESOLVABLE_ENV: Readonly<Record<string, string>> = {
  NERQ_NPM_API_URL: 'https://api.npm-down.invalid',
  NERQ_OSV_API_URL: 'https://api.osv-down.invalid',
  NERQ_GITHUB_API_URL: 'https://api.github-down.invalid',
  NERQ_GITHUB_GRAPHQL_URL: 'https://api.github-down.invalid/graphql',
  NERQ_PYPI_URL: 'https://pypi-down.invalid',
  NERQ_PYPISTATS_URL: 'https://pypistats-down.invalid/api',
};
const UNRESOLVABLE_HOSTS = new Set(Object.values(UNRESOLVABLE_ENV).map((u) => new URL(u).host));

/**
 * A server that answers 503 to everything and records, per service (the first path segment),
 * when each request arrived and when each answer was sent.
 */
async function failingServer(): Promise<{ origin: string; log: Map<string, { arrived: number[]; answered: number[] }>; close(): Promise<void> }> {
  const log = new Map<string, { arrived: number[]; answered: number[] }>();
  const server: Server = createServer((req, res) => {
    const service = (req.url ?? '/').split('/')[1] ?? '';
    let entry = log.get(service);
    if (entry === undefined) log.set(service, (entry = { arrived: [], answered: [] }));
    entry.arrived.push(performance.now());
    req.resume();
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end('{"error":"service unavailable"}', () => entry.answered.push(performance.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Slack for an answer to reach the client and a refused request not to be sent (a loaded machine). */
const DOWN_SLACK_MS = 100;

/**
 * Per service: every request, and those that arrived after the client had been answered 503
 * REPEATED_FAULTS times (plus the slack) — sent after the service was known to be down.
 * Requests already in flight when it went down (concurrent evaluations) are not "asked again".
 */
export function askedAfterDown(log: ReadonlyMap<string, { arrived: readonly number[]; answered: readonly number[] }>): { service: string; total: number; after: number }[] {
  return [...log].map(([service, { arrived, answered }]) => {
    const sorted = [...answered].sort((a, b) => a - b);
    const downAt = sorted[OUTAGE_TARGETS.repeatedFaults - 1];
    const after = downAt === undefined ? 0 : arrived.filter((t) => t > downAt + DOWN_SLACK_MS).length;
    return { service, total: arrived.length, after };
  }).sort((a, b) => a.service.localeCompare(b.service));
}

function failingEnv(origin: string): Record<string, string> {
  return {
    NERQ_NPM_API_URL: `${origin}/npm-api`,
    NERQ_OSV_API_URL: `${origin}/osv`,
    NERQ_GITHUB_API_URL: `${origin}/github`,
    NERQ_GITHUB_GRAPHQL_URL: `${origin}/github-graphql/graphql`,
    NERQ_PYPI_URL: `${origin}/pypi`,
    NERQ_PYPISTATS_URL: `${origin}/pypistats`,
  };
}

interface Parsed {
  entries: number | null;
  result: string | null;
  warnings: string[];
}

function parse(run: CliRun): Parsed {
  try {
    const report = JSON.parse(run.child.stdout) as { entries?: unknown[]; outcome?: { result?: string }; warnings?: { code?: string; message?: string }[] };
    return {
      entries: Array.isArray(report.entries) ? report.entries.length : null,
      result: report.outcome?.result ?? null,
      warnings: (report.warnings ?? []).map((w) => `${w.code ?? '?'}: ${w.message ?? ''}`),
    };
  } catch {
    return { entries: null, result: null, warnings: [] };
  }
}

/** The time one failed DNS lookup of each unreachable host takes (the median of three), summed. */
async function failedLookupsMs(): Promise<number> {
  let total = 0;
  for (const host of UNRESOLVABLE_HOSTS) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await lookup(host).catch(() => undefined);
      times.push(performance.now() - started);
    }
    total += summarise(times).median;
  }
  return total;
}

export async function outageWorkloads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const size = OUTAGE_TARGETS.packages;
  if (ctx.world.generated < size) await ctx.world.extend(size);
  const project = buildProject(ctx.world.model, size, ctx.world.registry, (spec, version) => ctx.world.integrityOf(spec, version));
  const dir = path.join(ctx.tmp, `project-outage-${size}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), project.packageJson);
  writeFileSync(path.join(dir, 'package-lock.json'), project.packageLock);

  const problems: string[] = [];
  const audit = async (label: string, home: string, extraEnv: Record<string, string>, extraArgs: string[] = []): Promise<(CliRun & Parsed) | null> => {
    ctx.progress(`audit ${size}, ${label}`);
    const run = await runCli(ctx, ['audit', dir, '--json', ...extraArgs], { home, cwd: dir, extraEnv, timeoutMs: 300_000 });
    const parsed = parse(run);
    if (!evaluatedExit(run.child) || parsed.entries !== size) {
      problems.push(`${label}: ${parsed.entries === null ? describeExit(run.child) : `${parsed.entries} entries for ${size} packages`}`);
      return null;
    }
    return { ...run, ...parsed };
  };

  // Three of each when the budget leaves room for them (about a minute and a half), else one.
  const runs = ctx.remainingMs() > 90_000 ? Math.max(1, Math.min(3, ctx.options.runs.audit)) : 1;
  const cold: (CliRun & Parsed)[] = [];
  const offline: (CliRun & Parsed)[] = [];
  const warm: (CliRun & Parsed)[] = [];
  let failing: { run: CliRun & Parsed; asked: ReturnType<typeof askedAfterDown> } | null = null;
  let home = '';
  for (let i = 0; i < runs; i++) {
    home = freshHome(ctx.tmp, `outage-${i}`);
    const run = await audit(`cold, public APIs unresolvable, run ${i + 1}/${runs}`, home, UNRESOLVABLE_ENV);
    if (run === null) break;
    cold.push(run);
  }
  if (cold.length > 0) {
    // The store of the last cold run: --offline and warm runs alternate, so load drifts hit both alike.
    for (let i = 0; i < runs; i++) {
      const off = await audit(`--offline, run ${i + 1}/${runs}`, home, UNRESOLVABLE_ENV, ['--offline']);
      const on = await audit(`warm, public APIs unresolvable, run ${i + 1}/${runs}`, home, UNRESOLVABLE_ENV);
      if (off !== null) offline.push(off);
      if (on !== null) warm.push(on);
    }
    const down = await failingServer();
    try {
      const run = await audit('warm, optional services answering 503', home, failingEnv(down.origin));
      if (run !== null) failing = { run, asked: askedAfterDown(down.log) };
    } finally {
      await down.close();
    }
  }
  return [report(await failedLookupsMs(), cold, offline, warm, failing, problems)];
}

function report(
  lookupMs: number,
  cold: readonly (CliRun & Parsed)[],
  offline: readonly (CliRun & Parsed)[],
  warm: readonly (CliRun & Parsed)[],
  failing: { run: CliRun & Parsed; asked: ReturnType<typeof askedAfterDown> } | null,
  problems: readonly string[],
): WorkloadResult {
  const size = OUTAGE_TARGETS.packages;
  const title = `audit of ${size} packages, public APIs down`;
  if (cold.length === 0) return { id: 'audit-outage', title, status: 'failed', reason: problems.join('; ') || 'no run completed', figures: [], details: [] };
  const coldWall = summarise(cold.map((r) => r.child.wallMs));
  const figures: Figure[] = [
    {
      workload: `audit of ${size} packages, cold, public APIs unresolvable`,
      figure: 'wall time',
      target: `< ${formatMs(OUTAGE_TARGETS.coldMs)}`,
      value: formatSummary(coldWall),
      met: coldWall.median < OUTAGE_TARGETS.coldMs,
      note: `result ${cold[0]!.result ?? '?'}; registry requests ${cold[0]!.requests.length}`,
    },
  ];
  if (offline.length > 0 && warm.length > 0) {
    const off = summarise(offline.map((r) => r.child.wallMs));
    const on = summarise(warm.map((r) => r.child.wallMs));
    // One failed attempt per host is one failed DNS lookup each (measured here, the same way the
    // CLI's lookups fail); the spread of the --offline runs is the machine's noise.
    const budget = lookupMs + (off.max - off.min);
    figures.push({
      workload: `audit of ${size} packages, warm store, public APIs unresolvable`,
      figure: 'wall time − `--offline` wall time',
      target: `≤ one failed attempt per host (${UNRESOLVABLE_HOSTS.size} hosts: ${formatMs(lookupMs)}) + the --offline runs' spread`,
      value: `${formatMs(on.median - off.median)} (${formatSummary(on)} against ${formatSummary(off)})`,
      met: on.median - off.median <= budget,
      note: `requests to the registry per warm run: ${warm[0]!.requests.length}`,
    });
  }
  const details: string[] = [];
  if (failing !== null) {
    const after = failing.asked.reduce((sum, s) => sum + s.after, 0);
    figures.push({
      workload: `audit of ${size} packages, warm store, optional services answering 503`,
      figure: 'requests sent to a service after it was found down',
      target: `0 (down after ${OUTAGE_TARGETS.repeatedFaults} failures in a row)`,
      value: String(after),
      met: after === 0,
      note: `requests per service (in flight before it was found down included; after it): ${failing.asked.map((s) => `${s.service} ${s.total} (${s.after})`).join(', ') || 'none'}; wall ${formatMs(failing.run.child.wallMs)}`,
    });
  }
  const warnings = cold[0]!.warnings;
  if (warnings.length > 0) details.push(`What the cold run's report says, once each:\n\n${warnings.map((w) => `- ${w}`).join('\n')}`);
  if (problems.length > 0) details.push(`Notes: ${problems.join('; ')}.`);
  return { id: 'audit-outage', title, status: 'ok', figures, details };
}
