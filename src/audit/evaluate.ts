/**
 * Evaluate every audited dependency: one shared HTTP client and store, a bounded number of
 * evaluations in flight, and the batch APIs — the advisories of every pinned package come from
 * one OSV querybatch per ecosystem and 1,000 packages (Go modules and crates: their only check,
 * module-report.ts), and npm download counts from bulk queries of up to 128
 * names, both started before any evaluation.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Evidence } from '../evidence/schema.js';
import { checkTarget } from '../pipeline/check-target.js';
import type { RunContext } from '../pipeline/context.js';
import type { Report } from '../report/schema.js';
import { PACKAGE_ECOSYSTEMS, packageRulesOf, packageRulesOfOsv } from '../ecosystems/rules.js';
import type { PackageOsvEcosystem } from '../ecosystems/types.js';
import { isModuleEcosystem, MODULE_ECOSYSTEMS, osvEcosystemOfDependency, type ModuleEcosystem } from '../ecosystems/osv-ecosystems.js';
import { moduleReport, osvVersionOf, type ModuleSubject } from './module-report.js';
import { fetchVulnerabilitiesMany, packageKey, type VulnerabilitiesResult } from '../sources/osv/query.js';
import { bulkChunks, bulkEligible, fetchDownloads, fetchDownloadsBulk, type DownloadPeriod, type PointAnswer } from '../sources/npm/downloads.js';
import { streamBody } from '../sources/http/stream.js';
import type { HttpClient, HttpResult } from '../sources/http/types.js';
import type { Target } from '../target/types.js';
import { githubBatcher } from './github-batcher.js';
import type { AuditSubject } from './types.js';

/** Evaluations in flight: enough to fill 25-repository GitHub batches and keep the connections busy. */
export const DEFAULT_CONCURRENCY = 64;

export interface Evaluated {
  subject: AuditSubject;
  report: Report;
  evidence: Evidence | null;
}

export interface EvaluateOptions {
  concurrency: number;
  /** Called after each evaluation (progress). */
  onDone?: (evaluated: Evaluated) => void;
}

const osvEcosystemOf = (ecosystem: AuditSubject['ecosystem']): PackageOsvEcosystem | null =>
  ecosystem === 'mcp' || isModuleEcosystem(ecosystem) ? null : packageRulesOf(ecosystem).registry.osvEcosystem;

const isModuleSubject = (subject: AuditSubject): subject is ModuleSubject => isModuleEcosystem(subject.ecosystem);

/** A subject evaluated as a target: a package, or an MCP Registry entry (a Go module or crate never is: module-report.ts). */
type TargetSubject = AuditSubject & { ecosystem: Exclude<AuditSubject['ecosystem'], ModuleEcosystem> };

/** The target a subject is evaluated as: its pinned version, else its declared range (an MCP entry: `mcp:name@version`). */
export function targetOf(subject: TargetSubject): Target {
  const spec = subject.version ?? subject.spec ?? undefined;
  if (subject.ecosystem === 'mcp') {
    return { input: `mcp:${subject.name}${spec === undefined ? '' : `@${spec}`}`, ecosystem: 'mcp', name: subject.name, ...(spec === undefined ? {} : { spec }) };
  }
  const input = packageRulesOf(subject.ecosystem).registry.targetInput(subject.name, subject.version, subject.spec);
  return { input, ecosystem: subject.ecosystem, name: subject.name, ...(spec === undefined ? {} : { spec }) };
}

const osvName = (ecosystem: PackageOsvEcosystem, name: string) => packageRulesOfOsv(ecosystem).canonicalName(name);

/** One OSV batch (per ecosystem, per 1,000) for every pinned subject, started now. */
export function prefetchVulnerabilities(ctx: RunContext, subjects: readonly AuditSubject[]): RunContext['prefetchedVulnerabilities'] {
  const batches = new Map<PackageOsvEcosystem, Promise<Map<string, VulnerabilitiesResult>>>();
  for (const ecosystem of PACKAGE_ECOSYSTEMS.map((e) => packageRulesOf(e).registry.osvEcosystem)) {
    const packages = subjects
      .filter((s) => osvEcosystemOf(s.ecosystem) === ecosystem && s.version !== null)
      .map((s) => ({ name: osvName(ecosystem, s.name), version: s.version as string }));
    if (packages.length > 0) batches.set(ecosystem, fetchVulnerabilitiesMany(ctx.http, ctx.endpoints.osvApi, ecosystem, packages));
  }
  return (ecosystem, name, version) => {
    const batch = batches.get(ecosystem);
    if (batch === undefined) return undefined;
    // A package resolved to a version outside the batch (a range in package.json) asks OSV itself.
    return batch.then((results) => results.get(packageKey(osvName(ecosystem, name), version))).then(
      (found) => found ?? fetchVulnerabilitiesMany(ctx.http, ctx.endpoints.osvApi, ecosystem, [{ name: osvName(ecosystem, name), version }]).then(
        (single) => single.get(packageKey(osvName(ecosystem, name), version)) ?? { status: 'unavailable', reason: 'OSV: no answer for the package', code: 'bad-answer' },
      ),
    );
  };
}

/**
 * OSV's answers for the Go modules and crates (module-report.ts), one batch per ecosystem (per
 * 1,000), started now; keyed by the subject. Go versions are asked without their `v`.
 */
function prefetchModuleVulnerabilities(ctx: RunContext, subjects: readonly ModuleSubject[]): (subject: ModuleSubject) => Promise<VulnerabilitiesResult | undefined> {
  const batches = new Map<ModuleEcosystem, Promise<Map<string, VulnerabilitiesResult>>>();
  for (const ecosystem of MODULE_ECOSYSTEMS) {
    const packages = subjects.flatMap((s) => {
      const version = s.ecosystem === ecosystem ? osvVersionOf(s) : null;
      return version === null ? [] : [{ name: s.name, version }];
    });
    if (packages.length > 0) batches.set(ecosystem, fetchVulnerabilitiesMany(ctx.http, ctx.endpoints.osvApi, osvEcosystemOfDependency(ecosystem), packages));
  }
  return async (subject) => {
    const version = osvVersionOf(subject);
    const batch = batches.get(subject.ecosystem);
    if (version === null || batch === undefined) return undefined;
    return (await batch).get(packageKey(subject.name, version));
  };
}

/**
 * Bulk download counts (2 × ⌈unscoped names / 128⌉ requests) for every npm subject, started now;
 * download counts do not depend on the version, so ranges count too. A package the bulk queries
 * did not answer for (scoped, left out, a failed query) asks for its own counts, per period.
 */
export function prefetchDownloads(ctx: RunContext, subjects: readonly AuditSubject[]): RunContext['prefetchedDownloads'] {
  // Sorted: the same dependencies make the same URLs (cache hits) whatever the lockfile's order.
  const names = [...new Set(subjects.filter((s) => s.ecosystem === 'npm').map((s) => s.name))].filter(bulkEligible).sort();
  const chunks = bulkChunks(names);
  if (chunks.length === 0) return undefined;
  const periods: DownloadPeriod[] = ['last-week', 'last-year'];
  const answers = new Map<DownloadPeriod, Promise<Map<string, PointAnswer>>>(
    periods.map((period) => [
      period,
      Promise.all(chunks.map((chunk) => fetchDownloadsBulk(ctx.http, ctx.endpoints.npmApi, period, chunk))).then(
        (maps) => new Map(maps.flatMap((map) => [...map])),
      ),
    ]),
  );
  const inBulk = new Set(chunks.flat());
  return (name) => {
    if (!inBulk.has(name)) return undefined;
    return Promise.all(periods.map((period) => answers.get(period)?.then((map) => map.get(name)))).then(([week, year]) =>
      fetchDownloads(ctx.http, ctx.endpoints.npmApi, name, {
        ...(week === undefined ? {} : { 'last-week': week }),
        ...(year === undefined ? {} : { 'last-year': year }),
      }),
    );
  };
}

export interface SharedByPackage {
  http: HttpClient;
  /** Run one package's evaluation: its GETs are shared with the other evaluations of the same package. */
  run<T>(pkg: string, work: () => Promise<T>): Promise<T>;
}

/**
 * Several versions of one package in a lockfile (chalk@4 and chalk@5) ask the same questions
 * about the package: its packument, its download counts, its PyPI project page. A GET that an
 * evaluation of the same package already sent is answered from that one request (even when
 * the answer was a failure, which the cache does not keep); what a package's evaluations shared
 * is dropped when the last of them is done. Packages evaluated once pass straight through.
 */
export function shareByPackage(http: HttpClient, packages: readonly string[]): SharedByPackage {
  const left = new Map<string, number>();
  for (const pkg of packages) left.set(pkg, (left.get(pkg) ?? 0) + 1);
  const several = new Set([...left].filter(([, n]) => n > 1).map(([pkg]) => pkg));
  const current = new AsyncLocalStorage<string>();
  const answers = new Map<string, Map<string, Promise<HttpResult>>>();
  return {
    http: {
      request(req) {
        const pkg = current.getStore();
        if (pkg === undefined || !several.has(pkg) || (req.method ?? 'GET') !== 'GET' || (left.get(pkg) ?? 0) === 0) return http.request(req);
        let shared = answers.get(pkg);
        if (shared === undefined) answers.set(pkg, (shared = new Map()));
        const key = JSON.stringify([req.url, req.headers ?? {}, req.maxBytes ?? null, req.retry ?? null]);
        let answer = shared.get(key);
        if (answer === undefined) shared.set(key, (answer = http.request(req)));
        return answer;
      },
      // A streamed body (a tarball) belongs to one version: never shared.
      stream: (req, consume) => streamBody(http, req, consume),
      close: () => http.close(),
    },
    async run(pkg, work) {
      try {
        return await current.run(pkg, work);
      } finally {
        const rest = (left.get(pkg) ?? 1) - 1;
        left.set(pkg, rest);
        if (rest === 0) answers.delete(pkg);
      }
    },
  };
}

const packageOf = (subject: AuditSubject): string => `${subject.ecosystem}:${subject.name}`;

/** Evaluate every subject; the result keeps the subjects' order. */
export async function evaluateSubjects(
  subjects: readonly AuditSubject[],
  ctx: RunContext,
  options: EvaluateOptions,
): Promise<Evaluated[]> {
  const sharing = shareByPackage(ctx.http, subjects.map(packageOf));
  const shared: RunContext = { ...ctx, http: sharing.http };
  // An evaluation waiting for its GitHub facts gives its slot to the next one: lookups then pend
  // in numbers (an audit of 1,000 packages has hundreds of repositories), so the batcher sends
  // full GraphQL batches while the network keeps serving the other evaluations.
  const slots = semaphore(options.concurrency);
  const slotOf = new AsyncLocalStorage<() => void>();
  // A waiting lookup holds no slot, so a batch can wait to fill: the lookups of a CPU-bound audit
  // arrive at the rate packages are read, a few dozen a second. 40 repositories per query stay
  // far below GitHub's 500,000-node limit (about 140,000 nodes); a query GitHub cannot finish in
  // time is halved (sources/github/source.ts).
  const batcher = githubBatcher(shared, { batchSize: 40, quietMs: 200, maxWaitMs: 2000 });
  // Go modules and crates are not evaluated as packages: their reports come from OSV's batches alone.
  const moduleAdvisories = prefetchModuleVulnerabilities(shared, subjects.filter(isModuleSubject));
  const auditCtx: RunContext = {
    ...shared,
    skipDependencies: true,
    githubLookup: (repo, claim) => {
      slotOf.getStore()?.();
      return batcher(repo, claim);
    },
    prefetchedVulnerabilities: prefetchVulnerabilities(shared, subjects),
    prefetchedDownloads: prefetchDownloads(shared, subjects),
  };
  return Promise.all(
    subjects.map(async (subject) => {
      if (isModuleSubject(subject)) {
        const report = moduleReport(subject, await moduleAdvisories(subject), { gate: ctx.gate, evaluatedAt: ctx.now.toISOString() });
        const evaluated: Evaluated = { subject, report, evidence: null };
        options.onDone?.(evaluated);
        return evaluated;
      }
      await slots.acquire();
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        slots.release();
      };
      try {
        const outcome = await slotOf.run(release, () => sharing.run(packageOf(subject), () => checkTarget(targetOf(subject as TargetSubject), auditCtx)));
        const evaluated: Evaluated = { subject, report: outcome.report, evidence: outcome.evidence };
        options.onDone?.(evaluated);
        return evaluated;
      } finally {
        release();
      }
    }),
  );
}

/** At most `limit` holders at once; waiters are served in the order they asked. */
function semaphore(limit: number): { acquire(): Promise<void>; release(): void } {
  let free = Math.max(1, Math.floor(limit) || 1);
  const waiting: Array<() => void> = [];
  return {
    acquire() {
      if (free > 0) {
        free -= 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    release() {
      const next = waiting.shift();
      if (next !== undefined) next();
      else free += 1;
    },
  };
}
