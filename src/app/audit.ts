/**
 * Use case: audit a project. `prepareAudit` reads everything that can be bad input — the
 * lockfiles, manifests and SBOMs, the policy, `--changed-since` — before any request, and throws
 * `AuditInputError` naming the file and line or key. `auditProject` then evaluates every
 * dependency over the runtime (one HTTP pool, the store, the batch APIs) and applies the policy;
 * it returns the audit report (docs/architecture.md).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { changedSince } from '../audit/changed-since.js';
import { findDependencyConfusion } from '../audit/dependency-confusion.js';
import { detectInputs, readInputs } from '../audit/detect.js';
import { DEFAULT_CONCURRENCY, evaluateSubjects } from '../audit/evaluate.js';
import { foldDependencies } from '../audit/fold.js';
import type { ParsedInput } from '../audit/inputs/index.js';
import { applyPolicy, licenseFromEvidence, loadPolicy, mergePolicy, PolicyError, type Policy } from '../audit/policy.js';
import { AUDIT_SCHEMA_VERSION } from '../audit/report-schema.js';
import { LockfileError, type AuditEntry, type AuditReport, type AuditSubject, type InputFile } from '../audit/types.js';
import { VERSION } from '../version.js';
import type { CallOptions, Runtime } from './runtime.js';

/** Input that cannot be audited: no input found, a bad lockfile or policy, a bad git ref. One line. */
export class AuditInputError extends Error {
  override name = 'AuditInputError';
}

export interface AuditInputRequest {
  /** The project directory (absolute). */
  dir: string;
  /** How the user named the directory, for messages ('.' by default). */
  dirLabel?: string;
  /** Inputs to read instead of the detected ones (relative to `dir`). */
  files?: readonly string[];
  /** A policy file instead of the one found from `dir` up. */
  policyFile?: string | undefined;
  /** Flags over the policy file. */
  minScore?: number | undefined;
  minCoverage?: number | undefined;
  /** Only dependencies added or changed since this git ref. */
  changedSince?: string | undefined;
  direct?: boolean;
  omitDev?: boolean;
}

/** What an audit evaluates, read and validated. */
export interface AuditPlan {
  dir: string;
  inputs: ParsedInput[];
  policy: Policy;
  policySource: string | null;
  subjects: AuditSubject[];
  /** What the readers skipped or had to guess (a git dependency, direct-ness without a manifest…). */
  warnings: string[];
}

export async function prepareAudit(request: AuditInputRequest): Promise<AuditPlan> {
  const { dir } = request;
  let inputs: ParsedInput[];
  let policy: Policy;
  let policySource: string | null;
  try {
    const files = request.files && request.files.length > 0 ? request.files : await detectInputs(dir);
    if (files.length === 0) {
      throw new AuditInputError(`no lockfile, manifest or SBOM found in ${request.dirLabel ?? '.'} (name one with --file)`);
    }
    inputs = await readInputs(dir, files);
    const loaded = await loadPolicy(dir, request.policyFile);
    policy = mergePolicy(loaded.policy, {
      ...(request.minScore === undefined ? {} : { minScore: request.minScore }),
      ...(request.minCoverage === undefined ? {} : { minCoverage: request.minCoverage }),
    });
    policySource = loaded.source;
  } catch (error) {
    if (error instanceof LockfileError || error instanceof PolicyError) throw new AuditInputError(error.message);
    throw error;
  }

  let subjects = foldDependencies(inputs, { direct: request.direct === true, omitDev: request.omitDev === true });
  if (request.changedSince !== undefined) {
    try {
      const keep = await changedSince(dir, request.changedSince, inputs.map((i) => i.file));
      subjects = subjects.filter(keep);
    } catch (error) {
      throw new AuditInputError(error instanceof Error ? error.message : String(error));
    }
  }
  const warnings = inputs.flatMap((input) => input.notes.map((note) => `${input.file}: ${note}`));
  return { dir, inputs, policy, policySource, subjects, warnings };
}

/** The deadline of an audit of `subjects` packages when none is given: 120 s, longer for big projects. */
export function defaultAuditTimeoutS(subjects: number): number {
  return Math.max(120, Math.ceil(subjects / 4));
}

/** The git repository root holding `dir` (the nearest directory with a `.git`), or null outside a repository. */
export function repositoryRoot(dir: string): string | null {
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git'))) return at;
    if (path.dirname(at) === at) return null;
  }
}

export interface AuditRequest extends CallOptions {
  /** Evaluations in flight (default 64). */
  concurrency?: number | undefined;
  /** Called as each evaluation finishes; `failed` when it fails the policy or could not be evaluated. */
  onEvaluated?: (failed: boolean) => void;
}

export async function auditProject(runtime: Runtime, plan: AuditPlan, request: AuditRequest): Promise<AuditReport> {
  const ctx = runtime.callContext(request);
  const { policy, subjects } = plan;
  const now = ctx.now;
  const evaluated = await evaluateSubjects(subjects, ctx, {
    concurrency: request.concurrency ?? DEFAULT_CONCURRENCY,
    onDone: (e) => request.onEvaluated?.(applyPolicy(e.report, e.subject, policy, now).status !== 'pass'),
  });
  // After the evaluations: the release each one read tells a private mirror from a different package.
  const confusion = await findDependencyConfusion(evaluated, ctx);
  const entries: AuditEntry[] = evaluated.map(({ subject, report, evidence }) => {
    const remembered = runtime.session.remember(report, evidence);
    const outcome = applyPolicy(remembered, subject, policy, now, {
      ...(evidence === null ? {} : { license: licenseFromEvidence(evidence) }),
      dependencyConfusion: confusion.get(subject) ?? null,
    });
    return { subject, report: remembered, policy: outcome };
  });
  return auditReportOf(entries, plan.inputs, plan.policySource, now, plan.warnings);
}

const ORDER: Record<AuditEntry['policy']['status'], number> = { fail: 0, error: 1, ignored: 2, pass: 3 };

function auditReportOf(
  entries: AuditEntry[],
  inputs: InputFile[],
  policySource: string | null,
  now: Date,
  warnings: string[],
): AuditReport {
  const sorted = [...entries].sort(
    (a, b) =>
      ORDER[a.policy.status] - ORDER[b.policy.status] ||
      (a.report.score ?? -1) - (b.report.score ?? -1) ||
      a.subject.name.localeCompare(b.subject.name),
  );
  const count = (status: AuditEntry['policy']['status']) => entries.filter((e) => e.policy.status === status).length;
  return {
    auditSchemaVersion: AUDIT_SCHEMA_VERSION,
    tool: { name: 'nerq', version: VERSION },
    evaluatedAt: now.toISOString(),
    inputs: inputs.map(({ file, format }) => ({ file, format })),
    policySource,
    summary: { total: entries.length, passed: count('pass'), failed: count('fail'), ignored: count('ignored'), errors: count('error') },
    entries: sorted,
    warnings,
  };
}
