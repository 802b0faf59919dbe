/**
 * The audit's JSON contract (`nerq audit --json`), in zod: the AuditReport of types.ts, each
 * entry's report being the `nerq check` Report. `renderAuditJson` projects through it (render/
 * contract-order.ts), so key order follows this schema and anything outside the contract is dropped;
 * the tests validate the output against it. A test keeps it
 * and the TypeScript interfaces in step.
 */
import { z } from 'zod';
import { ReportSchema } from '../report/schema.js';

/**
 * `mcp`: an MCP Registry entry a configured remote server was matched to (added in 2.2.0); `go`:
 * a Go module of go.mod, `cargo`: a crate of Cargo.lock, checked against OSV only (added in 2.9.0);
 * `maven`: a Maven artifact of a gradle.lockfile, the same way (added in 2.23.0).
 */
const EcosystemSchema = z.enum(['npm', 'pypi', 'mcp', 'go', 'cargo', 'maven']);

export const AuditSubjectSchema = z.object({
  ecosystem: EcosystemSchema,
  name: z.string(),
  version: z.string().nullable(),
  spec: z.string().nullable(),
  direct: z.boolean(),
  dev: z.boolean(),
  declaredIn: z.array(
    z.object({ file: z.string(), line: z.number().int().min(1).nullable(), workspace: z.string().nullable() }),
  ),
  resolved: z.string().nullable(),
  /**
   * The packages between a direct dependency and this one ([] when direct, null when unknown; added in 2.0.0).
   * A path longer than 64 names keeps its first 32 and last 31 around a `…` element (lockfiles/graph.ts).
   */
  via: z.array(z.string()).nullable(),
  /**
   * The project's own patches applied on top of the registry release (pnpm `patchedDependencies`,
   * yarn `patch:`): the patch file as the lockfile names it (null when it gives only a hash) and
   * the lockfile line of the patched entry. The release is what was evaluated; the patch is not.
   * Absent when the package carries none (added in 2.8.0).
   */
  patches: z.array(z.object({ path: z.string().nullable(), file: z.string(), line: z.number().int().min(1).nullable() })).optional(),
  /**
   * The dependencies the package ships in its own tarball (`bundleDependencies`), as the lockfile
   * lists them (package-lock `inBundle`, v1 `bundled`): the name, the version as written (null
   * when none) and the lockfile line of the bundled entry. npm installs them from this package's
   * tarball, not from the registry: they are not audited as registry releases (docs/security.md,
   * "Bundled dependencies"). Absent when the package bundles none (added in 2.10.0).
   */
  bundled: z
    .array(z.object({ name: z.string(), version: z.string().nullable(), file: z.string(), line: z.number().int().min(1).nullable() }))
    .optional(),
});

export const PolicyFailureSchema = z.object({
  rule: z.string(),
  message: z.string(),
  /** The checks the failure is about, when it is about some (`not-checked`; added in 2.0.0). */
  checks: z.array(z.string()).optional(),
  /**
   * Where in the inputs the finding is, when it is one line rather than the package
   * (`lockfile-injection`, and `dependency-confusion` when a lockfile's `resolved` names the
   * private source: the lockfile pin; line null when the reader does not know it; added in 2.8.0).
   */
  at: z.object({ file: z.string(), line: z.number().int().min(1).nullable() }).optional(),
});

/**
 * The ignore entry that applied: a package entry's `package`, or (added in 2.6.0) an MCP entry's
 * `mcp` and `file` (null: any configuration file) — `package` is absent then.
 */
export const IgnoredBySchema = z.object({
  package: z.string().optional(),
  mcp: z.string().optional(),
  file: z.string().nullable().optional(),
  reason: z.string(),
  expires: z.string().nullable(),
});

export const PolicyOutcomeSchema = z.object({
  status: z.enum(['pass', 'fail', 'ignored', 'error', 'incomplete']),
  failures: z.array(PolicyFailureSchema),
  ignoredBy: IgnoredBySchema.nullable(),
});

export const AuditEntrySchema = z.object({
  subject: AuditSubjectSchema,
  report: ReportSchema,
  policy: PolicyOutcomeSchema,
});

const count = z.number().int().min(0);

export const AuditWarningSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.null(), z.array(z.string())])),
  /** A finding an MCP ignore entry covers: listed, deciding nothing (added in 2.6.0). */
  ignoredBy: IgnoredBySchema.optional(),
});

/**
 * The audit contract's version: 1.1.0 added the coded reasons of each entry's report (report
 * 1.4.0), 1.2.0 its `provisional` flag (report 1.5.0), 2.0.0 warnings as coded objects, 2.1.0
 * the optional comparison members of each entry's report (report 1.6.0; present on the failing
 * entries with `nerq audit --compare`, absent otherwise), 2.2.0 the `mcp` subject ecosystem
 * (`nerq audit --mcp`: a remote server audited as the MCP Registry entry that declares its URL),
 * the warning codes that change the outcome (`mcp-widened-reach`, `mcp-remote-insecure`: fail;
 * `mcp-remote-unverified`: incomplete), and the entries' reports at 1.7.0 (a repository's
 * optional `distribution`), 2.3.0 the entries' reports at 1.8.0 (a distributed package's optional
 * `reasonCode`), 2.4.0 the entries' reports at 1.9.0 (a repository's optional `includedPackage`),
 * 2.5.0 the entries' reports at 1.10.0 (a cap's optional `ceiling`), 2.6.0 the optional `unvouched` list (entries fetched from a git repository or URL no registry
 * vouches for) and its warning codes `unvouched-remote` (incomplete unless allowed) and
 * `unvouched-remote-ignored`, and MCP ignore entries: a warning's optional `ignoredBy` (a finding
 * an entry covers), and `ignoredBy.mcp` / `ignoredBy.file` on an ignored `mcp` entry (whose
 * `ignoredBy.package` is absent), 2.7.0 an unvouched entry's optional `direct` and `dev` (where
 * its input can tell; `--direct` and `--omit dev` leave entries out by them), 2.8.0 the entries'
 * reports at 1.11.0 (an advisory's `ecosystem`), a subject's optional `patches` (the project's
 * patches applied on top of the release) and a failure's optional `at` (the lockfile pin a
 * `lockfile-injection` or `dependency-confusion` finding is about), and an unvouched entry's
 * optional `declaredAs` (the alias the project declares it under), 2.9.0 Go modules and crates
 * (go.mod, Cargo.lock): a subject's and an unvouched entry's ecosystem `go` / `cargo`, the entries'
 * reports at 1.12.0 (their target ecosystem; no score, error `no-registry-adapter`), and the
 * failure rules `malicious`, `not-scored`, 2.10.0 an input's optional `client` and `scope` (`user`,
 * `project`): the MCP client whose configuration it is, when `--mcp` found it where that client keeps it;
 * and a subject's optional `bundled` (the dependencies it ships in its tarball, no longer audited as
 * registry releases), 2.11.0 the failure rule `mcp-package-missing` (`--mcp`: a launched package
 * its public registry does not have, at the configuration line that launches it), 2.12.0 the entries' reports at 1.13.0 (a
 * `github:` target's optional `commit`), 2.13.0 the entries' reports at 1.14.0 (`comparisonUnavailable`'s
 * optional `members` and `sample` when too few peers were scored for a standing), 2.14.0 the
 * entries' reports at 1.15.0 (an unavailable source's `code`; `comparisonUnavailable`'s code
 * `peers-unavailable` with its `counts`), 2.15.0 the entries' reports at 1.16.0
 * (`comparisonUnavailable`'s optional `sourceCode` with `search-unavailable`), 2.16.0 the entries'
 * reports at 1.17.0 (a repository target's optional `fork` and `renamedFrom`; the source code
 * `unreadable-file`), 2.17.0 the entries' reports at 1.18.0 (a fork target's optional `fork.own`:
 * its own commits, compared with its parent), 2.18.0 the warning codes of the package manager's
 * settings and an input's own findings: `unvouched-hook` (a pnpmfile) and `hash-unreadable` (a
 * requirements `--hash` that pins nothing), incomplete unless allowed, and `package-extension`,
 * 2.19.0 the warning codes `yarn-plugin` and `yarn-release` (a `.yarnrc.yml`'s plugins and
 * `yarnPath` in the tree; one from outside it, or a pnpmfile an `.npmrc` names, is an `unvouched-hook`),
 * 2.20.0 the warning code `npmrc-program` (a program or module in the tree or an installed package
 * that the project's `.npmrc` makes npm run: `script-shell`, `node-options` `--require` / `--import`
 * / `--loader`, `git`, `node-gyp`, `onload-script`, and pnpm-workspace.yaml's `scriptShell` and
 * `nodeOptions`; one from outside the project is an `unvouched-hook` with `manager` `npm` or
 * `pnpm` and its `setting`), and yarn 1's `.yarnrc` `yarn-path` as
 * a `yarn-release`, 2.21.0 the warning code `mcp-config-unread` (`--mcp`: an MCP client
 * configuration file found but not read — too large, not a regular file, unreadable — with its
 * `reason`, `size` and `client`; the run is incomplete), 2.22.0 the entries' reports at 1.19.0
 * (a comparison sample's optional `unevaluated`: peers GitHub's rate limit left unevaluated,
 * `rate-limited`), 2.23.0 Maven artifacts (gradle.lockfile): a subject's and an unvouched entry's
 * ecosystem `maven`; the entries' reports at 1.20.0 (`target.folder`: an MCP entry read in its
 * repository's `repository.subfolder`), 2.24.0 the entries' reports at 1.21.0 (a repository
 * target's `distribution.scripts`: README lines that pipe a download into a shell).
 */
export const AUDIT_SCHEMA_VERSION = '2.24.0';

/** An input's entry fetched from a git repository or URL no registry vouches for (added in 2.6.0). */
export const UnvouchedRemoteSchema = z.object({
  ecosystem: z.enum(['npm', 'pypi', 'go', 'cargo', 'maven']),
  /** The package name as the input gives it; null when it gives none (a bare URL line of a requirements file). */
  name: z.string().nullable(),
  file: z.string(),
  line: z.number().int().min(1).nullable(),
  /** Where it comes from, as written without credentials. */
  source: z.string(),
  host: z.string().nullable(),
  /** Declared by a manifest of the project (true) or only pulled in by another package (false); absent when the input cannot tell (added in 2.7.0). */
  direct: z.boolean().optional(),
  /** Only needed for development; absent when the input cannot tell (added in 2.7.0). */
  dev: z.boolean().optional(),
  /** The names the project's manifests declare it under when they are not `name` (an alias); absent otherwise (added in 2.8.0). */
  declaredAs: z.array(z.string()).optional(),
  /** unvouched: the run is incomplete (exit 3) unless `--allow-incomplete`; ignored: a policy ignore entry covers it. */
  status: z.enum(['unvouched', 'ignored']),
  ignoredBy: z.object({ package: z.string(), reason: z.string(), expires: z.string().nullable() }).nullable(),
});

export const AuditReportSchema = z.object({
  auditSchemaVersion: z.literal(AUDIT_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('nerq'), version: z.string() }),
  evaluatedAt: z.string(),
  /** `client` and `scope`: an MCP client configuration found where that client keeps it (added in 2.10.0). */
  inputs: z.array(z.object({ file: z.string(), format: z.string(), client: z.string().optional(), scope: z.enum(['user', 'project']).optional() })),
  policySource: z.string().nullable(),
  summary: z.object({ total: count, passed: count, failed: count, ignored: count, errors: count, incomplete: count }),
  /** The run's result and its exit code (added in 2.0.0). */
  outcome: z.object({
    result: z.enum(['pass', 'fail', 'incomplete']),
    exitCode: z.union([z.literal(0), z.literal(1), z.literal(3)]),
    allowIncomplete: z.boolean(),
  }),
  entries: z.array(AuditEntrySchema),
  /** Objects with a code since 2.0.0 (plain strings before). */
  warnings: z.array(AuditWarningSchema),
  /** Added in 2.6.0; absent when no input has such an entry. */
  unvouched: z.array(UnvouchedRemoteSchema).optional(),
});

export type AuditReportJson = z.infer<typeof AuditReportSchema>;
