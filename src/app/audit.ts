/**
 * Use case: audit a project. `prepareAudit` reads everything that can be bad input — the
 * lockfiles, manifests and SBOMs, the policy, `--changed-since` — before any request, and throws
 * `AuditInputError` naming the file and line or key. `auditProject` then evaluates every
 * dependency over the runtime (one HTTP pool, the store, the batch APIs) and applies the policy;
 * it returns the audit report (docs/architecture.md).
 */
import path from 'node:path';
import { changedSince, ChangedSinceError, resolveRevision } from '../audit/changed-since.js';
import { findDependencyConfusion, privateSourceOf } from '../audit/dependency-confusion.js';
import { detectInputs, readInputs } from '../audit/detect.js';
import { DEFAULT_CONCURRENCY, evaluateSubjects } from '../audit/evaluate.js';
import { foldDependencies, keptBy, subjectKey } from '../audit/fold.js';
import type { ParsedInput } from '../lockfiles/index.js';
import { readMcpInputs, type ConfiguredRemote, type McpInputRequest } from '../audit/mcp/inputs.js';
import { findingRef, ignoreFindings, unusedMcpIgnores } from '../audit/mcp/ignore.js';
import { matchRemotes } from '../audit/mcp/remotes.js';
import { unpublishedLaunch, type McpLaunchPlace } from '../audit/mcp/unpublished.js';
import { lockfileMismatch, lockRecords, type ProjectRegistries } from '../audit/lockfile-integrity.js';
import { bunfigRegistries } from '../audit/bunfig.js';
import { isPypiIndex } from '../lockfiles/python-hashes.js';
import { isLocalLocation } from '../audit/python-indexes.js';
import { applyPolicy, expiredIgnores, licenseFromEvidence, loadPolicy, mergePolicy, PolicyError, refusedIgnores, type Policy } from '../audit/policy.js';
import { filesAtRevision, policyChange } from '../audit/policy-at-revision.js';
import { buildAuditReport } from '../audit/report.js';
import { repositoryRoot } from '../audit/tree-file.js';
import { yarnClassicRegistries } from '../audit/yarnrc-classic.js';
import type { SeverityLevel } from '../audit/policy-schema.js';
import { LockfileError, type AuditEntry, type AuditReport, type AuditSubject, type AuditWarning, type SkippedEntry, type UnvouchedRemote } from '../audit/types.js';
import { findIgnore } from '../audit/policy-ignore.js';
import { isYarnPublicRegistry } from '../sources/endpoints.js';
import { nameOfDown, servicesOfDown } from '../sources/services.js';
import { compareFailing } from './audit-compare.js';
import type { CallOptions, Runtime } from './runtime.js';
import type { Report } from '../report/schema.js';

export { repositoryRoot } from '../audit/tree-file.js';

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
  files?: readonly string[] | undefined;
  /** A policy file instead of the one found from `dir` up. */
  policyFile?: string | undefined;
  /** Flags over the policy file. */
  minScore?: number | undefined;
  minCoverage?: number | undefined;
  failOn?: SeverityLevel | undefined;
  /** Only dependencies added or changed since this git ref; the policy is then read at that ref. */
  changedSince?: string | undefined;
  /** With `changedSince`: apply the checkout's policy instead of the base ref's. */
  policyFromHead?: boolean | undefined;
  direct?: boolean;
  omitDev?: boolean;
  /**
   * Audit the MCP servers configured in MCP clients instead of lockfiles (`--mcp`, `--mcp-config`):
   * the places to look (the home folder, the platform) and the files named.
   */
  mcp?: Omit<McpInputRequest, 'project'> | undefined;
}

/** What an audit evaluates, read and validated. */
export interface AuditPlan {
  dir: string;
  inputs: ParsedInput[];
  policy: Policy;
  policySource: string | null;
  /** The pull request changes the policy (read at the base ref): what changed, or null. */
  policyChanged: string | null;
  subjects: AuditSubject[];
  /** What the readers skipped or had to guess (a local path dependency, direct-ness without a manifest…). */
  warnings: AuditWarning[];
  /** The inputs' entries fetched from a git repository or URL no registry vouches for (source-kind.ts), once each. */
  remotes: SkippedEntry[];
  /** `--mcp`: the servers reached by URL, matched to registry entries when the audit runs; [] otherwise. */
  mcpRemotes: ConfiguredRemote[];
  /**
   * Findings about no evaluated package: `--mcp`'s launches that decide the outcome by themselves
   * (OUTCOME_FINDINGS: a container with a wider reach, an image nerq cannot inspect…); else the
   * inputs' own (a pnpmfile, a package extension, a `--hash` that pins nothing).
   */
  findings: AuditWarning[];
  /** `--mcp` / `--mcp-config`: the MCP servers configured, not lockfiles, are audited. */
  mcp: boolean;
}

export async function prepareAudit(request: AuditInputRequest): Promise<AuditPlan> {
  const { dir } = request;
  let inputs: ParsedInput[];
  let policy: Policy;
  let policySource: string | null;
  let policyChanged: string | null = null;
  let mcpRemotes: ConfiguredRemote[] = [];
  let findings: AuditWarning[] = [];
  try {
    if (request.mcp !== undefined) {
      ({ inputs, remotes: mcpRemotes, findings } = await mcpInputs(dir, request.mcp));
    } else {
      const explicit = request.files !== undefined && request.files.length > 0;
      const files = explicit ? request.files! : await detectInputs(dir, request.dirLabel ?? '.');
      if (files.length === 0) {
        throw new AuditInputError(`no lockfile, manifest or SBOM found in ${request.dirLabel ?? '.'} (name one with --file)`);
      }
      inputs = await readInputs(dir, files, { explicit, dirLabel: request.dirLabel });
      // The inputs' own findings (a pnpmfile, a package extension, a `--hash` that pins nothing: lockfiles/types.ts).
      findings = inputs.flatMap((input) => input.findings ?? []);
    }
    const head = await loadPolicy(dir, request.policyFile);
    let loaded = head;
    if (request.changedSince !== undefined && request.policyFromHead !== true) {
      // Pull-request mode: the checkout's policy is the pull request's; the base's applies (policy-at-revision.ts).
      const commit = await resolveRevision(dir, request.changedSince);
      loaded = await loadPolicy(dir, request.policyFile, filesAtRevision(repositoryRoot(dir) ?? dir, commit, request.changedSince));
      policyChanged = policyChange(loaded, head, request.changedSince);
    }
    policy = mergePolicy(loaded.policy, {
      ...(request.minScore === undefined ? {} : { minScore: request.minScore }),
      ...(request.minCoverage === undefined ? {} : { minCoverage: request.minCoverage }),
      ...(request.failOn === undefined ? {} : { failOnSeverity: request.failOn }),
    });
    policySource = loaded.source;
  } catch (error) {
    if (error instanceof LockfileError || error instanceof PolicyError || error instanceof ChangedSinceError) {
      throw new AuditInputError(error.message);
    }
    throw error;
  }

  const selection = { direct: request.direct === true, omitDev: request.omitDev === true };
  let subjects = foldDependencies(inputs, selection);
  // `--direct` and `--omit dev` leave remote entries out by the packages' rule (one the input cannot place is kept).
  let remotes = remoteEntries(inputs).filter(keptBy(selection));
  // MCP client configurations are not diffed: with --changed-since every configured server is audited, against the policy at REF.
  if (request.changedSince !== undefined && request.mcp === undefined) {
    try {
      const keep = await changedSince(dir, request.changedSince, inputs.map((i) => i.file));
      subjects = subjects.filter(keep);
      remotes = remotes.filter(keep.remote);
    } catch (error) {
      throw new AuditInputError(error instanceof Error ? error.message : String(error));
    }
  }
  // A remote entry is a finding of its own (report.ts); its note would say it twice.
  const remoteNotes = new Set(inputs.flatMap((input) => (input.skipped ?? []).filter((s) => s.kind === 'remote').map((s) => s.note)));
  const warnings: AuditWarning[] = inputs.flatMap((input) =>
    input.notes.filter((note) => !remoteNotes.has(note)).map((note) => ({ code: 'input-note', message: notePlaced(input.file, note), details: { file: input.file } })),
  );
  return { dir, inputs, policy, policySource, policyChanged, subjects, warnings, remotes, mcpRemotes, findings, mcp: request.mcp !== undefined };
}

/** A reader's note names its file (and line) first; one that does not is given the input's name. */
function notePlaced(file: string, note: string): string {
  return note.startsWith(`${file}:`) ? note : `${file}: ${note}`;
}

/** The remote entries of the inputs, once per file, line, name and source (a reader may meet one twice). */
function remoteEntries(inputs: readonly ParsedInput[]): SkippedEntry[] {
  const seen = new Map<string, SkippedEntry>();
  for (const entry of inputs.flatMap((input) => input.skipped ?? [])) {
    if (entry.kind !== 'remote') continue;
    const key = [entry.ecosystem, entry.file, entry.line ?? '', entry.name ?? '', entry.source].join('\u0000');
    if (!seen.has(key)) seen.set(key, entry);
  }
  return [...seen.values()];
}

/**
 * Each remote entry as the policy sees it: covered by an unexpired ignore entry that names the
 * package (a name-only entry: no registry version exists to match a range against), or unvouched.
 */
function judgeRemotes(remotes: readonly SkippedEntry[], policy: Policy, now: Date): UnvouchedRemote[] {
  return remotes.map(({ ecosystem, name, file, line, source, host, direct, dev, declaredAs }) => {
    // An ignore entry may name the package or the alias the project declares it under.
    const names = [...(name === null ? [] : [name]), ...(declaredAs ?? [])];
    const ignore = names.map((n) => findIgnore(policy.ignore, { ecosystem, name: n, version: null }, now)).find((found) => found !== null) ?? null;
    return {
      ecosystem,
      name,
      file,
      line,
      source,
      host,
      ...(direct === undefined ? {} : { direct }),
      ...(dev === undefined ? {} : { dev }),
      ...(declaredAs === undefined ? {} : { declaredAs }),
      status: ignore === null ? 'unvouched' : 'ignored',
      ignoredBy: ignore === null ? null : { package: ignore.package, reason: ignore.reason, expires: ignore.expires },
    };
  });
}

/** The configured MCP servers as inputs; none anywhere is bad input (there is nothing to audit). */
async function mcpInputs(dir: string, request: Omit<McpInputRequest, 'project'>) {
  const read = await readMcpInputs({ ...request, project: dir });
  const { inputs, looked } = read;
  // A container with a wider reach is a server too: a file listing only that one has something to audit.
  if (read.remotes.length === 0 && read.findings.length === 0 && inputs.every((input) => input.dependencies.length === 0 && input.notes.length === 0)) {
    throw new AuditInputError(
      `no MCP server configured: ${inputs.length} of ${looked} MCP client configuration file${looked === 1 ? '' : 's'} found, none lists a server (name one with --mcp-config)`,
    );
  }
  return read;
}

/** `--mcp`: the configured servers that launch each package (by subjectKey), once per file, line and key. */
function launchPlaces(plan: AuditPlan): Map<string, McpLaunchPlace[]> {
  const places = new Map<string, McpLaunchPlace[]>();
  for (const dependency of plan.inputs.flatMap((input) => input.dependencies)) {
    if (dependency.mcpServer === undefined) continue;
    const key = subjectKey(dependency);
    const list = places.get(key) ?? [];
    const place = { file: dependency.file, line: dependency.line, server: dependency.mcpServer };
    if (!list.some((p) => p.file === place.file && p.line === place.line && p.server === place.server)) list.push(place);
    places.set(key, list);
  }
  return places;
}

/** The deadline of an audit of `subjects` packages when none is given: 120 s, longer for big projects. */
export function defaultAuditTimeoutS(subjects: number): number {
  return Math.max(120, Math.ceil(subjects / 4));
}

/** The audited directory relative to its git repository root (`/`-separated; `.` at the root or outside a repository). */
export function repositoryRelative(dir: string): string {
  const root = repositoryRoot(dir);
  return root === null ? '.' : path.relative(root, dir).split(path.sep).join('/') || '.';
}

export interface AuditRequest extends CallOptions {
  /** Evaluations in flight (default 64). */
  concurrency?: number | undefined;
  /** --allow-incomplete: incomplete packages do not make the outcome incomplete. */
  allowIncomplete?: boolean | undefined;
  /** Called as each evaluation finishes; `failed` when it fails the policy. */
  onEvaluated?: (failed: boolean) => void;
  /** --compare: the failing packages' standing among peers and their alternatives (audit-compare.ts). */
  compare?: { peers?: number | undefined } | undefined;
}

export async function auditProject(runtime: Runtime, plan: AuditPlan, request: AuditRequest): Promise<AuditReport> {
  const { policy, inputs } = plan;
  // The coverage the policy requires (its file's minCoverage, or the flag over it) is the coverage
  // each report is judged by: below it a score is provisional and never YES (docs/scoring.md §6a),
  // as the policy then calls the package not evaluated.
  const gate = { ...request.gate, minCoverage: policy.minCoverage };
  const ctx = runtime.callContext({ ...request, gate });
  const now = ctx.now;
  // `--mcp`: each server reached by URL is audited as the registry entry that declares the URL, or is unverified.
  const remotes = plan.mcpRemotes.length === 0 ? null : await matchRemotes(plan.mcpRemotes, ctx);
  const subjects = remotes === null ? plan.subjects : [...plan.subjects, ...remotes.subjects];
  // An `mcp` subject's configured servers, which MCP ignore entries match (mcp/ignore.ts).
  const mcpOf = (subject: AuditSubject) =>
    subject.ecosystem === 'mcp' ? { mcpServers: remotes?.servers.get(`${subject.name}@${subject.version ?? ''}`) ?? [] } : {};
  // `--mcp`: a launched package its public registry answered 404 for is a failure (mcp/unpublished.ts).
  // Public: npm's registry for the name is the public one (no scope or default registry of the
  // user's routes it elsewhere); PyPI is the only index this machine's pip and uv configuration names.
  const pypiOnly = runtime.python.indexes.every((index) => isPypiIndex(index.url, [runtime.endpoints.pypi]));
  const launches = launchPlaces(plan);
  const publicRegistry = (subject: AuditSubject): boolean => {
    switch (subject.ecosystem) {
      case 'pypi':
        return pypiOnly;
      case 'npm':
        return privateSourceOf(subject, ctx) === null;
      case 'mcp':
      case 'go':
      case 'cargo':
      case 'maven':
        return false;
      default:
        return subject.ecosystem satisfies never;
    }
  };
  const unpublished = (subject: AuditSubject, report: Report) =>
    plan.mcp ? unpublishedLaunch(subject, report, publicRegistry(subject), launches.get(subjectKey(subject)) ?? []) : null;
  // The registries a subject's lockfile pin may name (lockfile-integrity.ts judges npm's and PyPI's pins only).
  const pinRegistries = (subject: AuditSubject): string[] => {
    switch (subject.ecosystem) {
      case 'pypi':
        return [runtime.endpoints.pypi];
      case 'npm':
        return [runtime.npm.registryFor(subject.name), runtime.npm.registry, runtime.endpoints.npmPublicRegistry, ...runtime.yarn.registriesFor(subject.name)];
      case 'mcp':
      case 'go':
      case 'cargo':
      case 'maven':
        return [];
      default:
        return subject.ecosystem satisfies never;
    }
  };
  const evaluated = await evaluateSubjects(subjects, ctx, {
    concurrency: request.concurrency ?? DEFAULT_CONCURRENCY,
    onDone: (e) =>
      request.onEvaluated?.(applyPolicy(e.report, e.subject, policy, now, { ...mcpOf(e.subject), unpublishedLaunch: unpublished(e.subject, e.report) }).status === 'fail'),
  });
  // After the evaluations: the release each one read tells a private mirror from a different package.
  // pip and uv install a requirements file with the indexes configured on this machine too
  // (those on its own disk aside: python-indexes.ts `isLocalLocation`).
  const machineIndex = runtime.python.indexes.find((index) => !isLocalLocation(index.url) && !isPypiIndex(index.url, [runtime.endpoints.pypi])) ?? null;
  const locks = lockRecords(inputs, machineIndex);
  // The registries the audited project's .npmrc (npm, pnpm, bun, yarn 1) or .yarnrc.yml (yarn berry) sets, not followed.
  // bun reads its bunfig.toml first, never followed by nerq (src/audit/bunfig.ts).
  // yarn 1 reads its .yarnrc as well as the .npmrc (src/audit/yarnrc-classic.ts): either may name the registry it takes.
  const bunfig = bunfigRegistries(plan.dir, repositoryRoot(plan.dir) ?? plan.dir);
  const classicYarnrc = yarnClassicRegistries(plan.dir, repositoryRoot(plan.dir) ?? plan.dir);
  const some = (...registries: (string | null | undefined)[]): string[] => registries.filter((r): r is string => typeof r === 'string');
  const projectRegistries: ProjectRegistries = {
    registryFor: (name, format) =>
      format === 'yarn-berry'
        ? some(runtime.yarn.ignoredProjectRegistry?.(name))
        : format === 'yarn-classic'
          ? some(classicYarnrc(name), runtime.npm.ignoredProjectRegistry?.(name))
          : some((format?.startsWith('bun.lock') === true ? bunfig(name) : null) ?? runtime.npm.ignoredProjectRegistry?.(name)),
    publicRegistry: runtime.endpoints.npmPublicRegistry,
    replaceRegistryHost: runtime.npm.replaceRegistryHost?.() ?? null,
    isYarnPublicRegistry: (url) => isYarnPublicRegistry(url, runtime.endpoints),
  };
  const confusion = await findDependencyConfusion(evaluated, ctx, (subject) => locks.get(subjectKey(subject)) ?? []);
  const judged: AuditEntry[] = evaluated.map(({ subject, report, evidence }) => {
    const remembered = runtime.session.remember(report, evidence);
    const outcome = applyPolicy(remembered, subject, policy, now, {
      ...(evidence === null ? {} : { license: licenseFromEvidence(evidence) }),
      ...mcpOf(subject),
      unpublishedLaunch: unpublished(subject, report),
      dependencyConfusion: confusion.get(subject) ?? null,
      lockfileInjection: lockfileMismatch(subject, locks.get(subjectKey(subject)) ?? [], evidence, pinRegistries(subject), projectRegistries),
    });
    return { subject, report: remembered, policy: outcome };
  });
  const compared =
    request.compare === undefined
      ? { entries: judged, warnings: [] }
      : await compareFailing(
          runtime,
          judged,
          evaluated.map((e) => e.evidence),
          { gate, signal: request.signal, now, category: request.category, peers: request.compare.peers },
        );
  const entries = compared.entries;

  const expired = expiredIgnores(policy, now);
  // `--mcp`: the findings an MCP ignore entry covers carry it; the entries that match nothing are said once.
  const findings = ignoreFindings([...plan.findings, ...(remotes?.insecure ?? []), ...(remotes?.unverified ?? [])], policy.ignore, now);
  const unused = plan.mcp
    ? unusedMcpIgnores(
        policy.ignore,
        [
          ...findings.flatMap((f) => findingRef(f) ?? []),
          ...[...(remotes?.servers.values() ?? [])].flat(),
          ...evaluated.flatMap(({ subject, report }) => unpublished(subject, report)?.servers ?? []),
        ],
        now,
        policy.source,
      )
    : [];
  const warnings: AuditWarning[] = [
    ...plan.warnings,
    ...runtime.npm.warnings.map((message) => ({ code: 'npm-config', message, details: {} })),
    ...runtime.yarn.warnings.map(({ code, message }) => ({ code, message, details: {} })),
    ...runtime.python.warnings.map((message) => ({ code: 'python-config-invalid', message, details: {} })),
    ...expired.map((message) => ({ code: 'ignore-expired', message, details: {} })),
    ...refusedIgnores(entries, policy, now),
    ...unused,
    // A finding of its own: the base's policy decided, and the change needs a reviewer.
    ...(plan.policyChanged === null ? [] : [{ code: 'policy-changed', message: plan.policyChanged, details: {} }]),
    ...compared.warnings,
  ];
  const { endpoints } = runtime;
  const registries = [runtime.npm.registry];
  return buildAuditReport({
    unvouched: judgeRemotes(plan.remotes, policy, now),
    entries,
    inputs,
    policySource: plan.policySource,
    now,
    warnings,
    expiredIgnores: expired.length,
    policyChanged: plan.policyChanged !== null,
    findings,
    allowIncomplete: request.allowIncomplete === true,
    down: runtime.health.down().map((d) => ({ ...d, name: nameOfDown(d, endpoints, registries), services: servicesOfDown(d, endpoints, registries) })),
  });
}
