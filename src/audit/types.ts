/**
 * The audit's contracts: what lockfile/manifest/SBOM readers produce, what the policy decides,
 * and the audit report every audit renderer (table, JSON, Markdown, SARIF) reads.
 */
import type { ModuleEcosystem, PackageEcosystem } from '../ecosystems/types.js';
import type { Report } from '../report/schema.js';
import type { AUDIT_SCHEMA_VERSION } from './report-schema.js';

/**
 * The ecosystems an audit reads: every package ecosystem (ecosystems/rules.ts), whose
 * dependencies are evaluated as packages, and the module ecosystems (`go`: go.mod, `cargo`:
 * Cargo.lock), whose dependencies are only checked against OSV (README.md, "nerq audit [dir]").
 */
export type AuditEcosystem = PackageEcosystem | ModuleEcosystem;

/** One dependency as one input file declares it. */
export interface DeclaredDependency {
  ecosystem: AuditEcosystem;
  /** npm: the package name; PyPI: the PEP 503 normalised name. */
  name: string;
  /** The exact version the lockfile pins; null when only a range/specifier is known. */
  version: string | null;
  /** The range / specifier as declared (package.json range, requirements specifier), when known. */
  spec: string | null;
  /** Declared by a manifest of the project (or a workspace), not only pulled in by another package. */
  direct: boolean;
  /** Only needed for development (npm devDependencies, `dev: true` in lockfiles, Poetry/uv dev groups, Pipfile `develop`). */
  dev: boolean;
  /** The file (relative to the audited directory, `/`-separated) the entry was read from. */
  file: string;
  /** 1-based line in `file` where the dependency is declared or pinned; null when unknown. */
  line: number | null;
  /** The workspace that declares it (its relative directory, `.` for the root); null when not a workspace project. */
  workspace: string | null;
  /** Where the lockfile says it resolves from (tarball URL / index URL), when it says; used for dependency-confusion checks. */
  resolved: string | null;
  /**
   * The packages between a direct dependency and this one (`['webpack', 'terser']` for
   * webpack › terser › this), when the input says; [] for a direct dependency; absent when
   * the reader cannot tell.
   */
  via?: string[];
  /** The lockfile's integrity for it (SRI), when it pins one: npm installs only bytes that match it. */
  integrity?: string | null;
  /**
   * Where the lockfile pins it, when `file` / `line` name the manifest that declares it instead
   * (a workspace's `package.json`): a lockfile finding is about the pin, not the declaration.
   */
  pinnedAt?: { file: string; line: number | null };
  /**
   * The entry installs this package under a descriptor or key that names another one (a yarn
   * berry `chalk@npm:^4` resolved to `evil@npm:1.0.0`, a pnpm `chalk@4.1.0` entry whose `version`
   * field is another release): that descriptor or key. Null or absent otherwise.
   */
  lockedFor?: string | null;
  /** The project's own patches applied on top of the registry release (pnpm `patchedDependencies`, yarn `patch:`); absent when none. */
  patches?: PatchRef[];
  /**
   * The dependencies this package ships inside its own tarball (`bundleDependencies`) as the
   * lockfile lists them: npm installs them from this package's tarball, not from the registry
   * (docs/security.md, "Bundled dependencies"); absent when none.
   */
  bundled?: BundledRef[];
  /**
   * `nerq audit --mcp`: the key of the configured server that launches this package (`npx -y
   * <name>` under `"ghost"`), which an MCP ignore entry names (mcp/ignore.ts); absent elsewhere.
   */
  mcpServer?: string;
}

/**
 * A dependency a package bundles in its tarball, as a lockfile entry names it (package-lock
 * `inBundle`, v1 `bundled`): not a registry release, its code is the bundling package's.
 */
export interface BundledRef {
  /** The name the entry is installed under (the folder after the last `node_modules/`). */
  name: string;
  /** The version the lockfile gives it, as written; null when it gives none. */
  version: string | null;
  /** The lockfile (relative to the audited directory) and 1-based line of the bundled entry; line null when unknown. */
  file: string;
  line: number | null;
}

/**
 * A patch file of the project's that the package manager applies on top of a registry release
 * (docs/security.md): the release is audited, the patch is the project's own code.
 */
export interface PatchRef {
  /** The patch file as the lockfile names it (`patches/sirv@3.0.2.patch`, `~/.yarn/patches/….patch`); null when it gives only a hash. */
  path: string | null;
  /** The lockfile (relative to the audited directory) and 1-based line of the patched entry; line null when unknown. */
  file: string;
  line: number | null;
}

/** One place a lockfile pins a subject: what npm or yarn would fetch, and the hash it would accept. */
export interface LockRecord {
  file: string;
  line: number | null;
  resolved: string | null;
  integrity: string | null;
  lockedFor: string | null;
  /**
   * A Python pin whose `resolved` index is not named by the audited file but configured on the
   * machine that installs it (src/audit/python-indexes.ts): the setting's name
   * (`PIP_EXTRA_INDEX_URL`, `pip.conf extra-index-url`).
   */
  indexFrom?: string;
  /** The format of the input the pin is in (`package-lock@3`, `yarn-berry`…). */
  format?: string;
}

/** Thrown by readers for an unreadable or malformed input: the message names the file and line. */
export class LockfileError extends Error {
  override name = 'LockfileError';
  readonly file: string;
  readonly line: number | null;

  constructor(
    file: string,
    line: number | null,
    detail: string,
  ) {
    super(`${file}${line === null ? '' : `:${line}`}: ${detail}`);
    this.file = file;
    this.line = line;
  }
}

/**
 * An entry an input reader skipped because no registry serves it (docs/security.md, "Dependencies
 * no registry vouches for"). `remote`: code fetched from elsewhere — a git repository (a URL, an
 * scp-style address, a hosted shorthand such as `github:o/r` or `o/r#ref`), a tarball or archive
 * URL, a Python VCS or URL reference — which nerq cannot evaluate. `local`: the project's own code
 * (a workspace, `file:` / `link:` / `portal:` / `workspace:`, a relative or absolute path, an
 * editable local install).
 */
export interface SkippedEntry {
  kind: 'remote' | 'local';
  ecosystem: AuditEcosystem;
  /** The package name as the input gives it (PyPI: PEP 503 normalised); null when it gives none. */
  name: string | null;
  file: string;
  line: number | null;
  /** Where it comes from, as written but without credentials (util/url-credentials.ts). */
  source: string;
  /** The host it is fetched from (`github.com`), null for a local entry or when none can be told. */
  host: string | null;
  /** The note the reader wrote for it (one line). */
  note: string;
  /**
   * Declared by a manifest of the project (true) or only pulled in by another package (false),
   * where the input can tell; absent when it cannot (`--direct` then keeps it: fold.ts `keptBy`).
   */
  direct?: boolean;
  /** Only needed for development (true) or not (false), where the input can tell; absent when it cannot (`--omit dev` then keeps it). */
  dev?: boolean;
  /**
   * The names the project's manifests declare it under, when they are not `name` (an alias:
   * `@hoppscotch/plugin-appload` for a GitHub tarball whose package is named
   * `@CuriousCorrelation/plugin-appload`); absent otherwise. An ignore entry may name either.
   */
  declaredAs?: string[];
}

/** What an input knows of an entry's place in the project: direct or transitive, dev-only or not; absent where it cannot tell. */
export type Standing = Pick<SkippedEntry, 'direct' | 'dev'>;

/** A remote entry of the inputs as the audit judged it: unvouched (the run is incomplete) or covered by an ignore entry. */
export interface UnvouchedRemote extends Omit<SkippedEntry, 'kind' | 'note'> {
  status: 'unvouched' | 'ignored';
  ignoredBy: { package: string; reason: string; expires: string | null } | null;
}

/** The result of reading one input file. */
export interface InputFile {
  /** Relative path, `/`-separated. */
  file: string;
  /** e.g. `package-lock@3`, `pnpm-lock@9`, `yarn-classic`, `yarn-berry`, `requirements`, `poetry.lock`, `cyclonedx`, `spdx`. */
  format: string;
  dependencies: DeclaredDependency[];
  /** An MCP client configuration found where a client keeps it: the client and whether it is the user's or the project's. */
  mcpClient?: McpClientPlace;
}

/** The MCP client (or clients, comma-separated, for a file several read) a configuration belongs to, and its scope. */
export interface McpClientPlace {
  client: string;
  scope: 'user' | 'project';
}

/** A dependency after folding duplicates: one evaluation per ecosystem + name + version. */
export interface AuditSubject {
  /** A package ecosystem, or `mcp`: an MCP Registry entry a configured remote server was matched to (`nerq audit --mcp`). */
  ecosystem: AuditEcosystem | 'mcp';
  name: string;
  /** Pinned version; null when unresolved (a range to resolve as the registry would). */
  version: string | null;
  spec: string | null;
  direct: boolean;
  dev: boolean;
  /** Every place that declares it (first one first). */
  declaredIn: { file: string; line: number | null; workspace: string | null }[];
  resolved: string | null;
  /** The shortest chain of packages from a direct dependency to it (see DeclaredDependency.via); null when unknown. */
  via: string[] | null;
  /** The project's patches applied on top of the release (DeclaredDependency.patches); absent when none. */
  patches?: PatchRef[];
  /** The dependencies the package bundles in its tarball (DeclaredDependency.bundled); absent when none. */
  bundled?: BundledRef[];
}

/** One reason a package fails the policy. */
export interface PolicyFailure {
  /** `min-score`, `min-coverage`, `dimension-floor`, `license-denied`, `license-not-allowed`, `verdict`, `not-evaluated`, `not-checked`, `uninspected`, `dependency-confusion`, `lockfile-injection`, `mcp-package-missing` (mcp/unpublished.ts). */
  rule: string;
  message: string;
  /** The checks the failure is about (`not-checked`: the guarding checks that could not run, or `lockfile-injection` for a Python pin from another index nothing vouches for). */
  checks?: string[];
  /** Where in the inputs the finding is, when it is about one line rather than the package (`lockfile-injection`, `dependency-confusion` named by a `resolved`: the lockfile pin). */
  at?: { file: string; line: number | null };
}

export interface PolicyOutcome {
  /**
   * pass: meets the policy; fail: below the bar; ignored: failing but covered by an ignore
   * entry; error: could not be evaluated; incomplete: fails nothing, but a guarding check
   * (known vulnerabilities, malicious packages) could not run.
   */
  status: 'pass' | 'fail' | 'ignored' | 'error' | 'incomplete';
  failures: PolicyFailure[];
  /** The ignore entry that applied, when status is `ignored`. */
  ignoredBy: IgnoredBy | null;
}

/**
 * The ignore entry that applied: a package entry's `package` as written, or an MCP entry's `mcp`
 * (and `file`, when it names one), with its reason and expiry day.
 */
export interface IgnoredBy {
  package?: string;
  mcp?: string;
  file?: string | null;
  reason: string;
  expires: string | null;
}

export interface AuditEntry {
  subject: AuditSubject;
  report: Report;
  policy: PolicyOutcome;
}

/**
 * Something the reader of an audit must know once (not per package): `input-note` (what an input
 * reader skipped or guessed), `unvouched-remote` (an entry fetched from a git repository or URL no
 * registry vouches for: the run is incomplete), `unvouched-remote-ignored` (one an ignore entry
 * covers), `npm-config`, `yarnrc-ignored` (the audited project's `.yarnrc.yml` registries, not
 * followed without --trust-project-npmrc), `yarnrc-invalid` (a `.yarnrc.yml` or one of its
 * registries that cannot be used), `python-config-invalid` (a pip.conf or uv.toml of this machine
 * that cannot be read: its indexes are not known), `ignore-expired`, `ignore-refused` (an ignore entry naming a package
 * that is NO — DO NOT USE: not applied), `service-unreachable` (a host or
 * service that failed and was not asked again: `services` by id, and the `checks` it leaves
 * unchecked that no evidence source says, `dependency-confusion` for the public npm registry), `source-unavailable` (an evidence source missing
 * for some packages, with the checks it left unknown), `compare-limited` (`--compare` compared
 * only the worst failing packages).
 */
export interface AuditWarning {
  code: string;
  /** One line of plain text. */
  message: string;
  /** The values the message names (file, source, host, counts, check titles…). */
  details: Record<string, string | number | null | string[]>;
  /** A finding (OUTCOME_FINDINGS) an MCP ignore entry covers: listed, but it no longer decides the outcome. */
  ignoredBy?: IgnoredBy;
}

/**
 * Warning codes that decide the outcome although no package carries them (`nerq audit --mcp`):
 * `fail` ones fail the run (exit 1) like a failing package, `incomplete` ones leave it
 * incomplete (exit 3) like an unevaluated one, `unvouched` ones (the inputs' install-time code
 * nerq does not evaluate: a pnpmfile, a program `.npmrc` names from outside the project; a `--hash` that pins nothing) leave it incomplete like an
 * unvouched remote entry (exit 3 unless `--allow-incomplete`). `mcp-config-unread` is an MCP
 * client configuration file `--mcp` found but could not read (too large, not a regular file,
 * unreadable): the servers it lists are unknown, and no flag or ignore entry accepts that.
 */
export const OUTCOME_FINDINGS = {
  fail: ['mcp-widened-reach', 'mcp-remote-insecure'],
  incomplete: ['mcp-remote-unverified', 'mcp-fetched-script', 'mcp-uninspected', 'mcp-config-unread'],
  unvouched: ['unvouched-hook', 'hash-unreadable'],
} as const satisfies Record<'fail' | 'incomplete' | 'unvouched', readonly string[]>;

/**
 * What an MCP ignore entry (`{ mcp, finding? }` in the policy's `ignore`) may cover: the findings
 * about a configured server a review can accept — a container with a wider reach, a remote no
 * registry entry vouches for, a container image, NuGet tool or package nerq cannot inspect, a package it
 * launches that its public registry does not have (`mcp-package-missing`, the failure of that
 * package's entry: mcp/unpublished.ts) — and `mcp-entry-policy`, the policy outcome of the MCP Registry
 * entry a remote server was matched to (an `mcp` audit entry).
 */
export const MCP_IGNORABLE = ['mcp-widened-reach', 'mcp-remote-unverified', 'mcp-fetched-script', 'mcp-uninspected', 'mcp-package-missing', 'mcp-entry-policy'] as const;
export type McpIgnorableCode = (typeof MCP_IGNORABLE)[number];

/** Findings no ignore entry covers (docs/security.md, "Ignoring MCP findings"). */
export const MCP_NEVER_IGNORED = ['mcp-remote-insecure'] as const;
export const MCP_NEVER_IGNORED_WHY = 'a remote server over plain http cannot be made safe by a review (anyone on the path reads its credentials and rewrites its answers); switch its URL to https';

/** The run's result and the exit code it has. */
export interface AuditOutcome {
  /** fail: a package fails the policy (or an ignore entry expired); incomplete: one could not be evaluated or fully checked; pass. */
  result: 'pass' | 'fail' | 'incomplete';
  exitCode: 0 | 1 | 3;
  /** --allow-incomplete was given: incomplete packages do not make the exit code 3. */
  allowIncomplete: boolean;
}

export interface AuditReport {
  auditSchemaVersion: typeof AUDIT_SCHEMA_VERSION;
  tool: { name: 'nerq'; version: string };
  evaluatedAt: string;
  /** Audited input files (relative paths) and their formats; an MCP client configuration found where a client keeps it also names the client and scope. */
  inputs: { file: string; format: string; client?: string; scope?: McpClientPlace['scope'] }[];
  /** Where the policy came from (relative path, `package.json#nerq`, or null for defaults + flags). */
  policySource: string | null;
  summary: { total: number; passed: number; failed: number; ignored: number; errors: number; incomplete: number };
  outcome: AuditOutcome;
  /** Worst first: failed, then errors, then incomplete, then ignored, then passed; by score ascending inside each. */
  entries: AuditEntry[];
  /** What the reader must know once: skipped inputs, unreachable services, unavailable sources, … */
  warnings: AuditWarning[];
  /**
   * The inputs' entries fetched from a git repository or URL no registry vouches for (a
   * `unvouched-remote` warning each, or `unvouched-remote-ignored` when an ignore entry covers
   * it); absent when there is none.
   */
  unvouched?: UnvouchedRemote[];
}
