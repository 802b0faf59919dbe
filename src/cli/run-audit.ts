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
import { buildAuditReport } from '../audit/report.js';
import type { AuditEntry, AuditWarning, InputFile, LockRecord } from '../audit/types.js';
import { LockfileError } from '../audit/types.js';
import { CHECKS } from '../checks/index.js';
import { renderAnnotations } from '../render/annotations.js';
import { renderAuditJsonChunks } from '../render/audit-json.js';
import { renderAuditMarkdown } from '../render/audit-markdown.js';
import { renderAuditTable } from '../render/audit-table.js';
import { renderSarif } from '../render/sarif.js';
import { utf8Batches } from '../render/utf8-batches.js';
import { nameOfDown } from '../sources/services.js';
import { DOCS_BASE } from '../version.js';
import { AuditOptionsSchema, clockFrom, gateOf, parseOptions, UsageError } from './options.js';
import { colorEnabled, emit, toTerminal } from './output.js';
import { guardInterrupts } from './interrupt.js';
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
    const files = explicit ? options.file! : await detectInputs(dir, dirArg ?? '.');
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
      ...(options.failOn === undefined ? {} : { failOnSeverity: options.failOn }),
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

  const { ctx, session, http, npm, endpoints, health, activity } = setUpRun({
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
      ...(options.allowIncomplete === undefined ? {} : { allowIncomplete: options.allowIncomplete }),
    }),
    now,
    untrustedDir: repositoryRoot(dir) ?? dir,
    trustProjectNpmrc: options.trustProjectNpmrc === true,
  });

  // What the readers skipped or had to guess (a git dependency, direct-ness without a manifest…).
  const warnings: AuditWarning[] = [
    ...inputs.flatMap((input) =>
      input.notes.map((note) => ({ code: 'input-note', message: `${input.file}: ${note}`, details: { file: input.file } })),
    ),
    ...npm.warnings.map((message) => ({ code: 'npm-config', message, details: {} })),
  ];
  const expired = expiredIgnores(policy, now);
  for (const message of expired) printError(message);
  warnings.push(...expired.map((message) => ({ code: 'ignore-expired', message, details: {} })));
  // A finding of its own: the base's policy decided, and the change needs a reviewer.
  if (policyChanged !== null) {
    printError(policyChanged);
    warnings.push({ code: 'policy-changed', message: policyChanged, details: {} });
  }

  const progress = startAuditProgress(subjects.length, activity);
  const interrupts = guardInterrupts();
  interrupts.add(() => progress.stop());
  interrupts.add(() => session.interrupt());
  let evaluated: Evaluated[];
  let confusion: Map<(typeof subjects)[number], string>;
  let locks: Map<string, LockRecord[]>;
  try {
    evaluated = await evaluateSubjects(subjects, ctx, {
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      onDone: (e) => progress.done(applyPolicy(e.report, e.subject, policy, now).status === 'fail'),
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
    interrupts.dispose();
    session.close();
  }

  const registries = [npm.registry, endpoints.npmPublicRegistry];
  const report = buildAuditReport({
    entries,
    inputs,
    policySource,
    now,
    warnings,
    expiredIgnores: expired.length,
    policyChanged: policyChanged !== null,
    allowIncomplete: options.allowIncomplete === true,
    down: health.down().map((d) => ({ ...d, name: nameOfDown(d, endpoints, registries) })),
  });
  const format = options.json ? 'json' : (options.format ?? 'table');
  if (format === 'json' && options.output === undefined) {
    // Written as it is made: a thousand-entry report is tens of megabytes of text.
    await writeInPieces(renderAuditJsonChunks(report));
  } else if (format === 'json') {
    emit([...renderAuditJsonChunks(report)].join(''), options.output);
  } else {
    emit(
      format === 'markdown'
        ? renderAuditMarkdown(report)
        : format === 'sarif'
          ? renderSarif(report, { checks: CHECKS, baseDir: repositoryRelative(dir), helpBase: DOCS_BASE })
          : renderAuditTable(report, {
              color: colorEnabled(process.env, toTerminal(options), options.color),
              width: toTerminal(options) ? Math.min(process.stdout.columns || 80, 120) : 80,
              quiet: options.quiet === true,
            }),
      options.output,
    );
  }
  if (process.env.GITHUB_ACTIONS === 'true') process.stderr.write(renderAnnotations(report, { baseDir: repositoryRelative(dir) }));

  return report.outcome.exitCode;
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

