/**
 * `nerq audit [dir]`: every dependency of a project, against the team's policy. Inputs are read
 * and the policy validated before any request (bad input → exit 2, naming the file and line or
 * key); evaluations share one HTTP client and the store; stdout carries the report only.
 */
import os from 'node:os';
import path from 'node:path';
import {
  AuditInputError,
  auditProject,
  defaultAuditTimeoutS,
  prepareAudit,
  repositoryRelative,
  repositoryRoot,
  type AuditInputRequest,
  type AuditPlan,
} from '../app/audit.js';
import { expiredIgnores } from '../audit/policy.js';
import type { AuditReport } from '../audit/types.js';
import { CHECKS } from '../checks/index.js';
import { renderAnnotations } from '../render/annotations.js';
import { renderAuditJsonChunks } from '../render/audit-json.js';
import { inertCiCommandsInJson } from '../render/ci-log.js';
import { renderAuditMarkdown } from '../render/audit-markdown.js';
import { renderAuditTable } from '../render/audit-table.js';
import { renderSarif } from '../render/sarif.js';
import { CHECKS_DOC_URL } from '../version.js';
import { utf8Batches } from '../render/utf8-batches.js';
import { loadAuditConfigParsers } from '../app/runtime.js';
import { cliRuntime } from './cli-runtime.js';
import { guardInterrupts } from './interrupt.js';
import { AuditOptionsSchema, clockFrom, gateOf, parseOptions, UsageError, type AuditOptions } from './options.js';
import { colorEnabled, emit, outputWidth, toTerminal } from './output.js';
import { startAuditProgress } from './progress.js';
import { printError } from './stderr.js';

export async function runAudit(dirArg: string | undefined, raw: Record<string, unknown>): Promise<number> {
  const options = parseOptions(AuditOptionsSchema, raw);
  const now = clockFrom(process.env) ?? new Date();
  if (options.peers !== undefined && options.compare !== true) throw new UsageError('--peers needs --compare');
  const dir = path.resolve(dirArg ?? '.');

  // Everything that can be bad input is checked before the first request.
  let plan: AuditPlan;
  try {
    plan = await prepareAudit({
      dir,
      dirLabel: dirArg ?? '.',
      files: options.file,
      policyFile: options.policy,
      minScore: options.minScore,
      minCoverage: options.minCoverage,
      failOn: options.failOn,
      changedSince: options.changedSince,
      policyFromHead: options.policyFromHead,
      direct: options.direct === true,
      omitDev: (options.omit ?? []).includes('dev'),
      mcp: mcpRequest(options),
    });
  } catch (error) {
    if (error instanceof AuditInputError) throw new UsageError(error.message);
    throw error;
  }

  await loadAuditConfigParsers();
  const runtime = cliRuntime({
    // npm configuration as npm would read it in the audited project (its .npmrc is found from
    // there, not from wherever nerq runs), and the whole checkout holding it is untrusted: a
    // pull request controls a parent's .npmrc as much as the audited directory's own.
    cwd: dir,
    registry: options.registry,
    offline: options.offline,
    cache: options.cache,
    history: options.history,
    maxAgeS: options.maxAge,
    untrustedDir: repositoryRoot(dir) ?? dir,
    trustProjectNpmrc: options.trustProjectNpmrc === true,
  });

  for (const message of expiredIgnores(plan.policy, now)) printError(message);
  if (plan.policyChanged !== null) printError(plan.policyChanged);

  const progress = startAuditProgress(plan.subjects.length, runtime.activity);
  const interrupts = guardInterrupts();
  interrupts.add(() => progress.stop());
  interrupts.add(() => runtime.session.interrupt());
  let report: AuditReport;
  try {
    try {
      report = await auditProject(runtime, plan, {
        now,
        gate: gateOf({
          ...(options.minScore === undefined ? {} : { minScore: options.minScore }),
          ...(options.minCoverage === undefined ? {} : { minCoverage: options.minCoverage }),
          ...(options.allowIncomplete === undefined ? {} : { allowIncomplete: options.allowIncomplete }),
        }),
        category: options.category,
        signal: AbortSignal.timeout((options.timeout ?? defaultAuditTimeoutS(plan.subjects.length)) * 1000),
        concurrency: options.concurrency,
        allowIncomplete: options.allowIncomplete === true,
        onEvaluated: (failed) => progress.done(failed),
        ...(options.compare === true ? { compare: { peers: options.peers } } : {}),
      });
    } finally {
      progress.stop();
    }
  } finally {
    interrupts.dispose();
    await runtime.close();
  }

  const format = options.json ? 'json' : (options.format ?? 'table');
  if (format === 'json' && options.output === undefined) {
    // Written as it is made: a thousand-entry report is tens of megabytes of text. Each piece is
    // whole JSON values (json-chunks.ts), so no `##[` is split between two.
    await writeInPieces(map(renderAuditJsonChunks(report), inertCiCommandsInJson));
  } else if (format === 'json') {
    emit([...renderAuditJsonChunks(report)].join(''), options.output, true);
  } else {
    emit(
      format === 'markdown'
        ? renderAuditMarkdown(report)
        : format === 'sarif'
          ? renderSarif(report, { checks: CHECKS, baseDir: repositoryRelative(dir), checksDocUrl: CHECKS_DOC_URL })
          : renderAuditTable(report, {
              color: colorEnabled(process.env, toTerminal(options), options.color),
              width: outputWidth(options),
              quiet: options.quiet === true,
            }),
      options.output,
      format === 'sarif',
    );
  }
  if (process.env.GITHUB_ACTIONS === 'true') process.stderr.write(renderAnnotations(report, { baseDir: repositoryRelative(dir) }));

  return report.outcome.exitCode;
}

/** `--mcp` / `--mcp-config`: where MCP clients keep their files on this machine, and the files named. */
function mcpRequest(options: AuditOptions): AuditInputRequest['mcp'] {
  const files = options.mcpConfig ?? [];
  if (options.mcp !== true && files.length === 0) return undefined;
  if (options.file !== undefined && options.file.length > 0) throw new UsageError('--file and --mcp / --mcp-config audit different things: give one of them');
  return {
    discover: options.mcp === true,
    files,
    cwd: process.cwd(),
    home: os.homedir(),
    platform: process.platform,
    appData: process.env.APPDATA,
    xdgConfig: process.env.XDG_CONFIG_HOME,
    claudeConfigDir: movedFolder(process.env.CLAUDE_CONFIG_DIR),
    codexHome: movedFolder(process.env.CODEX_HOME),
    copilotHome: movedFolder(process.env.COPILOT_HOME),
    geminiCliHome: movedFolder(process.env.GEMINI_CLI_HOME),
  };
}

/** A variable that moves a client's folder: unset when empty (as the clients read it), else the folder it names from the working directory. */
function movedFolder(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : path.resolve(value);
}

/**
 * Stdout in writes of about 1 MiB (stdout to a file, pipe or terminal is written synchronously
 * on POSIX), each piece encoded straight into its write's buffer (see utf8-batches.ts). A
 * buffer is used again once its write has called back (the stream is done with it), which a
 * synchronous write does on the next tick: fresh memory costs a page fault per page touched,
 * more than encoding into it. A write still pending (a slow pipe) keeps its buffer, and the
 * next batch gets a new one.
 */
function* map(chunks: Iterable<string>, f: (chunk: string) => string): Generator<string> {
  for (const chunk of chunks) yield f(chunk);
}

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
