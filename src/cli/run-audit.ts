/**
 * `nerq audit [dir]`: every dependency of a project, against the team's policy. Inputs are read
 * and the policy validated before any request (bad input → exit 2, naming the file and line or
 * key); evaluations share one HTTP client and the store; stdout carries the report only.
 */
import path from 'node:path';
import { findDependencyConfusion } from '../audit/dependency-confusion.js';
import { DEFAULT_CONCURRENCY, evaluateSubjects, type Evaluated } from '../audit/evaluate.js';
import { changedSince, ChangedSinceError, resolveRevision } from '../audit/changed-since.js';
import { detectInputs, readInputs } from '../audit/detect.js';
import { foldDependencies, subjectKey } from '../audit/fold.js';
import { lockfileMismatch, lockRecords } from '../audit/lockfile-integrity.js';
import { filesAtRevision, policyChange } from '../audit/policy-at-revision.js';
import { repositoryRoot } from '../audit/tree-file.js';
import { applyPolicy, expiredIgnores, licenseFromEvidence, loadPolicy, mergePolicy, PolicyError } from '../audit/policy.js';
import type { ParsedInput } from '../audit/inputs/index.js';
import type { AuditEntry, AuditReport, InputFile, LockRecord } from '../audit/types.js';
import { LockfileError } from '../audit/types.js';
import { CHECKS } from '../checks/index.js';
import { renderAnnotations } from '../render/annotations.js';
import { renderAuditJsonChunks } from '../render/audit-json.js';
import { renderAuditMarkdown } from '../render/audit-markdown.js';
import { renderAuditTable } from '../render/audit-table.js';
import { renderSarif } from '../render/sarif.js';
import { utf8Batches } from '../render/utf8-batches.js';
import { VERSION } from '../version.js';
import { AuditOptionsSchema, clockFrom, gateOf, parseOptions, UsageError } from './options.js';
import { colorEnabled } from './output.js';
import { startAuditProgress } from './progress.js';
import { setUpRun } from './run-context.js';
import { printError } from './stderr.js';

export async function runAudit(dirArg: string | undefined, raw: Record<string, unknown>): Promise<number> {
  const options = parseOptions(AuditOptionsSchema, raw);
  const now = clockFrom(process.env) ?? new Date();
  const dir = path.resolve(dirArg ?? '.');

  // Everything that can be bad input is checked before the first request.
  let inputs: ParsedInput[];
  let policy;
  let policySource: string | null;
  let policyChanged: string | null = null;
  try {
    const explicit = options.file !== undefined && options.file.length > 0;
    const files = explicit ? options.file! : await detectInputs(dir);
    if (files.length === 0) throw new UsageError(`no lockfile, manifest or SBOM found in ${dirArg ?? '.'} (name one with --file)`);
    inputs = await readInputs(dir, files, { explicit });
    const head = await loadPolicy(dir, options.policy);
    let loaded = head;
    if (options.changedSince !== undefined && options.policyFromHead !== true) {
      // Pull-request mode: the checkout's policy is the pull request's; the base's applies (policy-at-revision.ts).
      const commit = await resolveRevision(dir, options.changedSince);
      loaded = await loadPolicy(dir, options.policy, filesAtRevision(repositoryRoot(dir) ?? dir, commit, options.changedSince));
      policyChanged = policyChange(loaded, head, options.changedSince);
    }
    policy = mergePolicy(loaded.policy, {
      ...(options.minScore === undefined ? {} : { minScore: options.minScore }),
      ...(options.minCoverage === undefined ? {} : { minCoverage: options.minCoverage }),
    });
    policySource = loaded.source;
  } catch (error) {
    if (error instanceof LockfileError || error instanceof PolicyError || error instanceof ChangedSinceError) throw new UsageError(error.message);
    throw error;
  }

  let subjects = foldDependencies(inputs, { direct: options.direct === true, omitDev: (options.omit ?? []).includes('dev') });
  if (options.changedSince !== undefined) {
    try {
      const keep = await changedSince(dir, options.changedSince, inputs.map((i) => i.file));
      subjects = subjects.filter(keep);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  }

  const { ctx, session, http } = setUpRun({
    // npm configuration as npm would read it in the audited project (its .npmrc is found from
    // there, not from wherever nerq runs), and the whole checkout holding it is untrusted: a
    // pull request controls a parent's .npmrc as much as the audited directory's own.
    cwd: dir,
    registry: options.registry,
    offline: options.offline,
    cache: options.cache,
    history: options.history,
    maxAge: options.maxAge,
    timeout: options.timeout ?? Math.max(120, Math.ceil(subjects.length / 4)),
    category: options.category,
    gate: gateOf({
      ...(options.minScore === undefined ? {} : { minScore: options.minScore }),
      ...(options.minCoverage === undefined ? {} : { minCoverage: options.minCoverage }),
    }),
    now,
    untrustedDir: repositoryRoot(dir) ?? dir,
    trustProjectNpmrc: options.trustProjectNpmrc === true,
  });

  // What the readers skipped or had to guess (a git dependency, direct-ness without a manifest…).
  const warnings: string[] = inputs.flatMap((input) => input.notes.map((note) => `${input.file}: ${note}`));
  const expired = expiredIgnores(policy, now);
  for (const message of expired) printError(message);
  // A finding of its own: the base's policy decided, and the change needs a reviewer.
  if (policyChanged !== null) {
    printError(policyChanged);
    warnings.push(policyChanged);
  }

  const progress = startAuditProgress(subjects.length);
  let evaluated: Evaluated[];
  let confusion: Map<(typeof subjects)[number], string>;
  let locks: Map<string, LockRecord[]>;
  try {
    evaluated = await evaluateSubjects(subjects, ctx, {
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      onDone: (e) => progress.done(applyPolicy(e.report, e.subject, policy, now).status !== 'pass'),
    });
    // After the evaluations: the release each one read tells a private mirror from a different package.
    confusion = await findDependencyConfusion(evaluated, ctx);
    locks = lockRecords(inputs);
  } finally {
    progress.stop();
    await http.close();
  }

  let entries: AuditEntry[];
  try {
    entries = evaluated.map(({ subject, report, evidence }) => {
      const remembered = session.remember(report, evidence);
      const outcome = applyPolicy(remembered, subject, policy, now, {
        ...(evidence === null ? {} : { license: licenseFromEvidence(evidence) }),
        dependencyConfusion: confusion.get(subject) ?? null,
        lockfileInjection: lockfileMismatch(subject, locks.get(subjectKey(subject)) ?? [], evidence),
      });
      return { subject, report: remembered, policy: outcome };
    });
  } finally {
    session.close();
  }

  const report = auditReportOf(entries, inputs, policySource, now, warnings);
  const format = options.json ? 'json' : (options.format ?? 'table');
  if (format === 'json') {
    // Written as it is made: a thousand-entry report is tens of megabytes of text.
    await writeInPieces(renderAuditJsonChunks(report));
  } else {
    process.stdout.write(
      format === 'markdown'
        ? renderAuditMarkdown(report)
        : format === 'sarif'
          ? renderSarif(report, { checks: CHECKS, baseDir: repositoryRelative(dir) })
          : renderAuditTable(report, {
              color: colorEnabled(process.env, process.stdout.isTTY === true, options.color),
              width: Math.min(process.stdout.columns || 80, 120),
            }),
    );
  }
  if (process.env.GITHUB_ACTIONS === 'true') process.stderr.write(renderAnnotations(report, { baseDir: repositoryRelative(dir) }));

  if (report.summary.failed > 0 || expired.length > 0 || policyChanged !== null) return 1;
  if (report.summary.errors > 0) return 3;
  return 0;
}

/**
 * Stdout in writes of about 1 MiB (stdout to a file, pipe or terminal is written synchronously
 * on POSIX), each piece encoded straight into its write's buffer (see utf8-batches.ts). A
 * buffer is used again once its write has called back (the stream is done with it), which a
 * synchronous write does on the next tick: fresh memory costs a page fault per page touched,
 * more than encoding into it. A write still pending (a slow pipe) keeps its buffer, and the
 * next batch gets a new one.
 */
async function writeInPieces(chunks: Iterable<string>): Promise<void> {
  const free: Buffer[] = [];
  let last: Buffer | undefined;
  const allocate = (size: number): Buffer => {
    const reused = free.pop();
    last = reused !== undefined && reused.length >= size ? reused : Buffer.allocUnsafe(size);
    return last;
  };
  for (const batch of utf8Batches(chunks, { allocate })) {
    const whole = last!;
    process.stdout.write(batch, () => free.push(whole));
    // Let the write's callback run before the next batch asks for a buffer.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The audited directory relative to its git repository root (`/`-separated; `.` at the root or outside a repository). */
function repositoryRelative(dir: string): string {
  const root = repositoryRoot(dir);
  return root === null ? '.' : path.relative(root, dir).split(path.sep).join('/') || '.';
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
    auditSchemaVersion: '1.2.0',
    tool: { name: 'nerq', version: VERSION },
    evaluatedAt: now.toISOString(),
    inputs: inputs.map(({ file, format }) => ({ file, format })),
    policySource,
    summary: { total: entries.length, passed: count('pass'), failed: count('fail'), ignored: count('ignored'), errors: count('error') },
    entries: sorted,
    warnings,
  };
}
