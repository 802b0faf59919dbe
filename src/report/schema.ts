/**
 * The JSON contract (README.md, JSON), defined once. `schema/report.schema.json` is generated
 * from `ReportSchema` (`npm run generate`) and a test fails when the checked-in file is stale.
 * Bump REPORT_SCHEMA_VERSION on every change: the minor version when members are added, the
 * major version when one is removed or changes meaning.
 */
import { z } from 'zod';
import { DIMENSIONS } from '../model/dimensions.js';
import { SOURCE_UNAVAILABLE_CODES } from '../model/source-codes.js';

export const REPORT_SCHEMA_VERSION = '1.21.0';

/**
 * Why a package's link to its repository is not verified (GithubLink `code`; added in 1.8.0 as a
 * distributed package's `reasonCode`): a request bound cut the search, GitHub could not give a
 * file, a manifest names the package but may not vouch, or none names it.
 */
export const LINK_GAP_CODES = ['budget', 'unreadable', 'refused', 'not-named'] as const;

/**
 * The ecosystems of a dependency or an advisory (ecosystems/osv-ecosystems.ts `DependencyEcosystem`);
 * `maven` (added in 1.20.0): a Maven artifact (`group:artifact`) a Gradle or Maven build declares.
 */
export const DEPENDENCY_ECOSYSTEMS = ['npm', 'pypi', 'go', 'cargo', 'maven'] as const;

export const VERDICT_CODES = ['yes', 'caution', 'no', 'do-not-use', 'unknown'] as const;
export type VerdictCode = (typeof VERDICT_CODES)[number];

export const GRADES = ['A+', 'A', 'B', 'C', 'D', 'E', 'F'] as const;
export type Grade = (typeof GRADES)[number];

const evidenceValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number()])),
]);

export const ReportTargetSchema = z.object({
  input: z.string(),
  /**
   * `mcp` (added in 1.6.0): an MCP Registry server entry; `go` / `cargo` (added in 1.12.0): a Go
   * module or crate an audit lists, checked against OSV only (error `no-registry-adapter`, no score);
   * `maven` (added in 1.20.0): a Maven artifact of a gradle.lockfile, the same way.
   */
  ecosystem: z.enum(['npm', 'pypi', 'github', 'mcp', 'go', 'cargo', 'maven']),
  name: z.string(),
  version: z.string().nullable(),
  purl: z.string().nullable(),
  repository: z.string().nullable(),
  /**
   * A `github:owner/repo@ref` target (added in 1.13.0): the commit the ref named when it was read
   * (40 or 64 hex digits); its files were read at this commit (docs/scoring.md §9, "A pinned
   * ref"). Absent without a ref, and in evidence saved before it was recorded.
   */
  commit: z.string().optional(),
  /**
   * A repository target that is a fork (added in 1.17.0): the repository it was forked from
   * (`parent`, null when GitHub did not name it: one deleted or private) and the target that checks
   * it (`check`, null with it). Its history, contributors and community files are the parent's as
   * much as its own (docs/scoring.md §9, "A fork"). Absent for a repository that is no fork.
   */
  fork: z
    .object({
      parent: z.string().nullable(),
      check: z.string().nullable(),
      /**
       * Added in 1.18.0: its own commits, when GitHub compared its default branch with the parent's
       * — `status` (`ahead`, `behind`, `diverged`, `identical`), the commits it has of its own
       * (`aheadBy`) and lacks (`behindBy`), and the newest own commit's date (null when none is
       * listed). Absent when they were not compared (its history is then the copied one).
       */
      own: z
        .object({
          status: z.enum(['ahead', 'behind', 'diverged', 'identical']),
          aheadBy: z.number().int().nonnegative(),
          behindBy: z.number().int().nonnegative(),
          lastCommitAt: z.string().nullable(),
        })
        .optional(),
    })
    .optional(),
  /** A repository target GitHub answered under another name (added in 1.17.0): the `owner/name` asked for, moved to `repository`. Absent otherwise. */
  renamedFrom: z.string().optional(),
  /**
   * An MCP Registry entry whose repository names a folder (`repository.subfolder`, added in
   * 1.20.0), or a `github:owner/repo/folder` target: the folder its README, manifests and
   * dependencies were read in, normalised (as the registry gave it when refused; the folder's
   * signals are then unknown). Absent otherwise (docs/scoring.md §8a, §9).
   */
  folder: z.string().optional(),
});

export const DimensionResultSchema = z.object({
  id: z.enum(DIMENSIONS),
  title: z.string(),
  score: z.number().nullable(),
  /** The category profile's weight of this dimension in the overall score. */
  weight: z.number(),
  /** Known check weight ÷ total check weight in this dimension (0–1). */
  coverage: z.number(),
});

export const CheckResultSchema = z.object({
  id: z.string(),
  dimension: z.enum(DIMENSIONS),
  title: z.string(),
  weight: z.number(),
  score: z.number().nullable(),
  status: z.enum(['pass', 'warn', 'fail', 'unknown']),
  messageId: z.string(),
  message: z.string(),
  evidence: z.record(z.string(), evidenceValue),
});

/** A value a coded reason names (model/reason.ts). */
const reasonArg = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * A reason as a program reads it (added in 1.4.0): a stable `code` (docs/scoring.md lists them),
 * the values it names, and `text`, the same sentence as the plain reason string beside it.
 */
export const ReasonSchema = z.object({
  code: z.string(),
  args: z.record(z.string(), reasonArg),
  text: z.string(),
});

export const CapSchema = z.object({
  /** The cap's code (docs/scoring.md §5). */
  id: z.string(),
  limit: z.number(),
  reason: z.string(),
  /** The values the reason names (added in 1.4.0): `id`, `args` and `reason` are the cap's coded reason. */
  args: z.record(z.string(), reasonArg),
  /** Null for a cap on the overall score; a dimension id for a cap on that dimension (added in 1.3.0). */
  dimension: z.enum(DIMENSIONS).nullable(),
  /**
   * True for a ceiling (added in 1.10.0): a bound — carried from another evaluation (an MCP
   * server's weakest package) or set by code nerq cannot inspect (`mcp-uninspected`) — that
   * lowers the score but does not fail the gate by itself.
   */
  ceiling: z.literal(true).optional(),
});

export const SourceStatusSchema = z.object({
  id: z.string(),
  status: z.enum(['ok', 'unavailable']),
  reason: z.string().nullable(),
  /**
   * Why an unavailable source is unavailable, as a stable code (added in 1.15.0; docs/scoring.md
   * §11 lists them): present on every unavailable source, absent on an ok one. `unclassified`
   * for evidence saved before the codes; `unreadable-file` added in 1.17.0 (a repository's
   * manifest or lockfile there but giving no dependency set).
   */
  code: z.enum(SOURCE_UNAVAILABLE_CODES).optional(),
});

export const AdvisorySchema = z.object({
  id: z.string(),
  aliases: z.array(z.string()),
  summary: z.string().nullable(),
  severity: z.enum(['critical', 'high', 'moderate', 'low', 'unknown']),
  cvss: z.number().nullable(),
  package: z.string(),
  /**
   * The ecosystem of `package` (added in 1.11.0): `npm`, `pypi`, `go` (a Go module) or `cargo` (a
   * crate) — a repository's dependencies of several ecosystems may share a name and a version.
   * Null only when evidence saved before it does not say (a repository target's).
   */
  ecosystem: z.enum(DEPENDENCY_ECOSYSTEMS).nullable(),
  version: z.string().nullable(),
  affectsResolved: z.boolean(),
  fixed: z.string().nullable(),
  published: z.string().nullable(),
  url: z.string().nullable(),
  /** A known-malicious-package record (OSV `MAL-` or the malicious-packages database). Added in 1.1.0. */
  malicious: z.boolean(),
  /**
   * Added in 1.20.0: true for an advisory of an MCP entry's repository's dependencies when one of
   * the entry's packages is evaluated — listed so that it is seen, not counted (the score rests on
   * the packages' own; docs/scoring.md §8a). Absent otherwise.
   */
  repository: z.literal(true).optional(),
});

export const GateSchema = z.object({
  threshold: z.number(),
  minCoverage: z.number(),
  /** true passed, false failed, null could not be evaluated. */
  passed: z.boolean().nullable(),
  reasons: z.array(z.string()),
  /** `reasons` with their codes, in the same order (added in 1.4.0). */
  reasonDetails: z.array(ReasonSchema),
});

/** The previous evaluation of the same target, from the local store (added in 1.2.0). */
export const PreviousSchema = z.object({
  evaluatedAt: z.string(),
  version: z.string().nullable(),
  score: z.number().nullable(),
  grade: z.enum(GRADES).nullable(),
  /** score − previous score, one decimal; null when either is null. */
  change: z.number().nullable(),
  /** When the score moved by 5 or more: the dimensions and checks that moved, largest first. */
  movers: z.array(
    z.object({
      kind: z.enum(['dimension', 'check']),
      id: z.string(),
      from: z.number().nullable(),
      to: z.number().nullable(),
    }),
  ),
});
export type Previous = z.infer<typeof PreviousSchema>;

/** A peer evaluated for a comparison (added in 1.6.0). */
export const PeerSchema = z.object({
  /** The target text it was evaluated as (`name@version`). */
  target: z.string(),
  score: z.number(),
  grade: z.enum(GRADES).nullable(),
  verdictCode: z.enum(VERDICT_CODES),
});

/**
 * Where the peers came from (added in 1.6.0): the sources asked, the query, how many
 * candidates they gave and what became of them, when.
 */
export const ComparisonSampleSchema = z.object({
  /** `npm-search`, `module-replacements`. */
  sources: z.array(z.string()),
  /** The search text asked (`keywords:a,b`), or null when no search was asked. */
  query: z.string().nullable(),
  /** Candidates the sources gave (the target itself left out). */
  candidates: z.number().int(),
  /** Candidates left out before evaluation: no shared keyword, another category by its listing, over the peer limit. */
  skipped: z.number().int(),
  /** Evaluated peers left out: another category, or no score (not found, out of time). */
  excluded: z.number().int(),
  evaluatedAt: z.string(),
  /** What the sample could not cover, as sentences (PyPI has no search API…). */
  notes: z.array(z.string()),
  /**
   * Candidates chosen as peers but not evaluated (added in 1.19.0; counted in `skipped`), each
   * with why as a source code (docs/scoring.md §11): `rate-limited` when what GitHub said is left
   * of its REST budget (60 requests an hour without a token) could not cover their repositories.
   * Absent when every chosen candidate was evaluated.
   */
  unevaluated: z.array(z.object({ target: z.string(), code: z.enum(SOURCE_UNAVAILABLE_CODES) })).optional(),
});

/** The target's standing among the peers of its category (added in 1.6.0; docs/scoring.md §13). */
export const ComparisonSchema = z.object({
  category: z.string(),
  /** Peers evaluated and compared (the target not counted). */
  peers: z.number().int(),
  /** 1 = highest: 1 + the peers scoring strictly higher. */
  rank: z.number().int(),
  /** Share of peers scoring below the target, ties counting half, 0–100 (integer). */
  percentile: z.number(),
  median: z.number(),
  p25: z.number(),
  p75: z.number(),
  members: z.array(PeerSchema),
  sample: ComparisonSampleSchema,
});

/** Why a comparison could not be made (added in 1.6.0): a stable code and a sentence. */
export const ComparisonUnavailableSchema = z.object({
  code: z.enum(['not-evaluated', 'no-search-source', 'search-unavailable', 'no-peers', 'peers-unavailable']),
  /**
   * `search-unavailable` only (added in 1.16.0): why the search gave no peers, as a source code
   * (docs/scoring.md §11): the search service's failure (`timeout`, `rate-limited`, `bad-answer`…),
   * `not-asked` when the target gave nothing to search by (no keyword, no topic, no word), or
   * `depends-on-source` when the facts to search by are missing because their source did not answer.
   */
  sourceCode: z.enum(SOURCE_UNAVAILABLE_CODES).optional(),
  reason: z.string(),
  /** Notes on the sources, as in a sample's. */
  notes: z.array(z.string()),
  /**
   * `peers-unavailable` only (added in 1.15.0): too few peers were scored because some could not be
   * evaluated — their registry did not answer (report error `registry-unavailable`), or (1.19.0)
   * GitHub's rate limit left them unevaluated (the sample's `unevaluated`) — and with
   * them there could have been enough. `candidates` peers were chosen (1.19.0: the unevaluated
   * ones too), `unavailable` of them could not be evaluated, `scored` scored in the category. `no-peers` says the peers exist and scored too few.
   */
  counts: z.object({ candidates: z.number().int(), unavailable: z.number().int(), scored: z.number().int() }).optional(),
  /**
   * `no-peers` (added in 1.14.0) and `peers-unavailable` (1.15.0): the peers of the category that
   * were scored — fewer than a standing needs (docs/scoring.md §13) — best first, and the sample
   * they came from. Absent with the other codes.
   */
  members: z.array(PeerSchema).optional(),
  sample: ComparisonSampleSchema.optional(),
});

/** Why a peer is named as an alternative (added in 1.6.0). */
export const AlternativeWhySchema = z.object({
  code: z.enum(['shared-keywords', 'curated-replacement']),
  /** The keywords it shares with the target (shared-keywords). */
  keywords: z.array(z.string()),
  /** The curated dataset (curated-replacement), or null. */
  source: z.string().nullable(),
  /** The dataset's page about the replacement, or null. */
  url: z.string().nullable(),
  text: z.string(),
});

/** A peer that scores strictly higher, in the same category (added in 1.6.0). */
export const AlternativeSchema = z.object({
  target: z.string(),
  score: z.number(),
  grade: z.enum(GRADES).nullable(),
  verdict: z.string(),
  verdictCode: z.enum(VERDICT_CODES),
  why: z.array(AlternativeWhySchema),
  /** The dimensions where it scores higher than the target, by the margin, largest first. */
  better: z.array(z.enum(DIMENSIONS)),
});

/**
 * Regulatory context for AI tools and MCP servers (added in 1.6.0; docs/scoring.md §13): the
 * EU AI Act category a transparent rule set suggests, the rule and its words. Informational:
 * never part of the score. Absent for other packages.
 */
export const AiActSchema = z.object({
  category: z.enum(['prohibited', 'high-risk', 'transparency', 'general-purpose', 'minimal']),
  /** The rule that fired (report/ai-act.ts), or null for minimal. */
  rule: z.string().nullable(),
  /** Where in the Act the rule comes from. */
  basis: z.string().nullable(),
  /** The rule's phrases found as whole words. */
  words: z.array(z.string()),
  note: z.string(),
});

/**
 * What a repository target distributes (added in 1.7.0, `github` targets only; docs/scoring.md
 * §9): the npm and PyPI packages its README's install commands name or its published manifests
 * declare, each looked up in its registry, and the container images its README runs (listed here;
 * the `advertised-packages` check judges them from their references). `check` offers the package's own evaluation when its link to the repository verifies.
 */
export const DistributionSchema = z.object({
  packages: z.array(
    z.object({
      ecosystem: z.enum(['npm', 'pypi']),
      name: z.string(),
      /** `verified`, `unconfirmed` (links here, no manifest here names it), `elsewhere`, `unlinked`, `missing`, `unavailable`. */
      status: z.enum(['verified', 'unconfirmed', 'elsewhere', 'unlinked', 'missing', 'unavailable']),
      /** The README's install command that names it; null when only a manifest declares it. */
      command: z.string().nullable(),
      declared: z.boolean(),
      /** The repository the published package links to; null when none or not published. */
      linksTo: z.string().nullable(),
      reason: z.string(),
      /**
       * `unconfirmed` only (added in 1.8.0; absent otherwise): why the link could not be confirmed —
       * `budget` (a request bound cut the search), `unreadable`, `refused` (a manifest names it but
       * may not vouch: private, a test/fixture/example folder, not a workspace member), `not-named`.
       */
      reasonCode: z.enum(LINK_GAP_CODES).optional(),
      /** The target that evaluates the package itself (`npm:x`) when its link verifies; null otherwise. */
      check: z.string().nullable(),
    }),
  ),
  /** Container images the README runs, by name (judged by the `advertised-packages` check, not here). */
  images: z.array(z.object({ name: z.string(), command: z.string() })),
  /** Names beyond the lookup limit, not looked up. */
  skipped: z.array(z.string()),
  /**
   * Added in 1.21.0 (absent when the README pipes nothing into a shell, and in evidence saved
   * before): the README's lines that pipe a download into a shell, each with whose script it runs
   * as the `advertised-packages` check judges it (docs/scoring.md §9) — `own` (the project's own
   * domain or GitHub account: context), `unrelated` (another host: a warning), `unsafe` (plain
   * http, an IP host, a URL shortener or credentials in the URL: the verdict is held). URLs and
   * commands never carry the credentials a README gave.
   */
  scripts: z.array(z.object({ url: z.string(), host: z.string(), kind: z.enum(['own', 'unrelated', 'unsafe']), reason: z.string(), command: z.string() })).optional(),
});

/**
 * Why a verified package was folded in (`named` by --include-package, `root-manifest`: a manifest
 * at the repository root declares it, `first-verified`: the first verified one in the
 * distribution's order — README installs, then manifests) or why none was (`no-verified-package`,
 * `package-unavailable`: its registry could not answer, its checks are unknown).
 */
export const INCLUDED_PACKAGE_CODES = ['named', 'root-manifest', 'first-verified', 'no-verified-package', 'package-unavailable'] as const;

export const IncludedPackageSchema = z.object({
  included: z.boolean(),
  code: z.enum(INCLUDED_PACKAGE_CODES),
  ecosystem: z.enum(['npm', 'pypi']).nullable(),
  name: z.string().nullable(),
  /** The version evaluated (the registry's latest); null when none was folded in. */
  version: z.string().nullable(),
  reason: z.string(),
});

/** The members every report has; a package report nested in an MCP entry's is one of these. */
const ReportBaseSchema = z.object({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('nerq'), version: z.string() }),
  evaluatedAt: z.string().nullable(),
  target: ReportTargetSchema,
  /**
   * The category and the rule that decided it; `matches` (1.6.0) when several categories apply,
   * each with the rule that fired, strictest first: the first one's profile governs.
   */
  category: z
    .object({ id: z.string(), reason: z.string(), matches: z.array(z.object({ id: z.string(), reason: z.string() })).optional() })
    .nullable(),
  score: z.number().nullable(),
  grade: z.enum(GRADES).nullable(),
  verdict: z.string(),
  verdictCode: z.enum(VERDICT_CODES),
  verdictReasons: z.array(z.string()),
  /** `verdictReasons` with their codes, in the same order (added in 1.4.0). */
  verdictReasonDetails: z.array(ReasonSchema),
  /**
   * The score rests on less evidence than the gate needs (coverage below `--min-coverage`): it is
   * provisional, and the verdict is at most CAUTION (added in 1.5.0).
   */
  provisional: z.boolean(),
  coverage: z.number(),
  dimensions: z.array(DimensionResultSchema),
  checks: z.array(CheckResultSchema),
  caps: z.array(CapSchema),
  sources: z.array(SourceStatusSchema),
  advisories: z.array(AdvisorySchema),
  gate: GateSchema,
  /** Null on a fresh store, with --no-history, and always from `nerq score` (it never reads history). */
  previous: PreviousSchema.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /**
   * With `--compare` (added in 1.6.0): the target's standing among its peers, null when it could
   * not be made (`comparisonUnavailable` says why). Absent without `--compare`.
   */
  comparison: ComparisonSchema.nullable().optional(),
  comparisonUnavailable: ComparisonUnavailableSchema.optional(),
  /** With `--compare` (added in 1.6.0): peers scoring strictly higher, best first, at most 3. */
  alternatives: z.array(AlternativeSchema).optional(),
  /** AI tools and MCP servers (added in 1.6.0): the suggested EU AI Act category, informational. */
  aiAct: AiActSchema.optional(),
  /** Repository targets (added in 1.7.0): the packages it advertises or declares, looked up, and its container images. */
  distribution: DistributionSchema.optional(),
  /**
   * Repository targets checked with `--include-package` (added in 1.9.0): the verified package
   * whose registry checks are folded into the report (`included`), or the coded reason none is.
   */
  includedPackage: IncludedPackageSchema.optional(),
});

/**
 * An MCP Registry entry's packages (added in 1.6.0, `mcp` targets only): each package it names
 * with the report nerq made for it as a target of its own ecosystem, or why it was not evaluated.
 */
export const McpSectionSchema = z.object({
  server: z.string(),
  version: z.string(),
  packages: z.array(
    z.object({
      registryType: z.string(),
      identifier: z.string(),
      version: z.string().nullable(),
      /** The target the package was evaluated as; null when it was not. */
      target: z.string().nullable(),
      /** Why it was not evaluated (e.g. `oci packages are not evaluated yet`); null when it was. */
      notEvaluated: z.string().nullable(),
      report: ReportBaseSchema.nullable(),
    }),
  ),
  remotes: z.array(z.object({ type: z.string(), url: z.string() })),
});
export type McpSection = z.infer<typeof McpSectionSchema>;

export const ReportSchema = ReportBaseSchema.extend({
  /** Present for `mcp` targets (added in 1.6.0). */
  mcp: McpSectionSchema.optional(),
});

export type Report = z.infer<typeof ReportSchema>;
export type CheckResult = z.infer<typeof CheckResultSchema>;
export type DimensionResult = z.infer<typeof DimensionResultSchema>;
export type Gate = z.infer<typeof GateSchema>;
export type Comparison = z.infer<typeof ComparisonSchema>;
export type ComparisonSample = z.infer<typeof ComparisonSampleSchema>;
export type ComparisonUnavailable = z.infer<typeof ComparisonUnavailableSchema>;
export type Alternative = z.infer<typeof AlternativeSchema>;
export type Peer = z.infer<typeof PeerSchema>;
export type AiAct = z.infer<typeof AiActSchema>;
