/**
 * Evidence: every fact nerq collected about one target, as plain, serialisable data.
 *
 * Sources produce these records; checks read them; `--save-evidence` writes them and
 * `nerq score` reads them back. Each source's record is either `ok` with its facts or
 * `unavailable` with a reason — a failure is data, never an exception.
 *
 * Convention inside facts: `null` means "the source answered but could not tell us"
 * (unknown, e.g. a field a trimmed packument lacks); an empty value / `false` means
 * "the source answered and the thing is absent".
 */
import { z } from 'zod';
import { SOURCE_UNAVAILABLE_CODES } from '../model/source-codes.js';
import { DEPENDENCY_ECOSYSTEMS, ReportTargetSchema } from '../report/schema.js';
import { GithubFactsSchema } from './github-facts.js';
import { McpFactsSchema } from './mcp-facts.js';
import { PypiFactsSchema } from './pypi-facts.js';
import { LicenseFileSchema, README_TAIL_FIELDS, ReadmeFileSchema } from './readme-file.js';
import { RepositoryRefSchema } from './repository-ref.js';

export const EVIDENCE_SCHEMA_VERSION = 3;

/**
 * The shapes of obfuscated JavaScript a tarball's files are read for (docs/checks.md,
 * `obfuscated-code`; checks/lib/obfuscation-signatures.ts): javascript-obfuscator's `_0x…` names
 * and its string array, Dean Edwards' packer, JSFuck, jjencode, aaencode, text written as `\xHH`
 * escapes, code pushed past the edge of the screen by blanks, `require` aliased on the
 * global object, invisible characters (a run, or a payload's kinds spread through a line),
 * bidirectional controls that reorder code, and code run from decoded data (`decoded-eval`,
 * `invisible-payload` and `trojan-source` added later: evidence saved before simply never names them).
 */
export const OBFUSCATION_SIGNATURES = ['obfuscator-names', 'string-array', 'packer', 'jsfuck', 'jjencode', 'aaencode', 'hex-escapes', 'hidden-by-blanks', 'require-alias', 'invisible-code', 'invisible-payload', 'trojan-source', 'decoded-eval'] as const;
export type ObfuscationSignature = (typeof OBFUSCATION_SIGNATURES)[number];

/**
 * `unread`: the source had the data and nerq stopped reading it at a cap (a tarball past its
 * entries or bytes): what was not read may still act (npm installs all of it). A check may hold
 * the verdict on it (`holdsWhenUnread`, checks/define.ts).
 */
const unavailable = z.object({
  status: z.literal('unavailable'),
  reason: z.string(),
  /** Why, as a code (model/source-codes.ts); absent in evidence saved before codes, and where a failure is not classified. */
  code: z.enum(SOURCE_UNAVAILABLE_CODES).optional(),
  unread: z.literal(true).optional(),
});
/**
 * The source does not exist for this target (npm registry facts for a PyPI project, every
 * package source for a `github:` target…). Checks that need it are left out of the report.
 * `undeclared`: the `github` source of an MCP Registry entry or an npm or PyPI package that
 * names no source repository nerq can read (none, or one not on GitHub). Not applicable, but not
 * left out: the checks that need it are unknown and count against coverage (docs/scoring.md §1),
 * so a target that hides its source never fares better than one whose repository could not be read.
 */
const notApplicable = z.object({ status: z.literal('not-applicable'), reason: z.string(), undeclared: z.literal(true).optional() });

/** A source result: `{status:'ok', facts}`, `{status:'unavailable', reason}` or `{status:'not-applicable', reason}`. */
export function sourceResult<T extends z.ZodType>(facts: T) {
  return z.discriminatedUnion('status', [z.object({ status: z.literal('ok'), facts }), unavailable, notApplicable]);
}

export type { RepositoryRef } from './repository-ref.js';
export * from './github-facts.js';
export * from './pypi-facts.js';
export * from './mcp-facts.js';

/** A dependency spec that is not a registry range: where npm would fetch the code from instead. */
export const NonRegistryDependencySchema = z.object({
  name: z.string(),
  /** The spec as written (capped). */
  spec: z.string(),
  /** `git` (git, GitHub and other hosted shorthands), `url` (a tarball URL), `file` (file: tarball or folder), `link`. */
  kind: z.enum(['git', 'url', 'file', 'link']),
  field: z.enum(['dependencies', 'optionalDependencies', 'peerDependencies']),
});
export type NonRegistryDependency = z.infer<typeof NonRegistryDependencySchema>;

export const VersionEntrySchema = z.object({
  version: z.string(),
  /** ISO 8601 publish time in UTC, or null when the registry gave none (or one in the future). */
  time: z.string().nullable(),
  /**
   * A publish time the registry gave more than the tolerated clock skew after the packument was
   * read (checks/lib/releases.ts FUTURE_TOLERANCE_MS): invalid, so `time` is null and nothing
   * orders or dates by it; the release checks read it as a reason the dates are unknown.
   */
  futureTime: z.string().optional(),
});

export const RegistryFactsSchema = z.object({
  name: z.string(),
  /** The resolved version. */
  version: z.string(),
  /** Every published version, oldest first, with publish time where known. */
  versions: z.array(VersionEntrySchema),
  distTags: z.record(z.string(), z.string()),
  /**
   * True when the packument lacks the fields a full packument always has (maintainers,
   * time.created/modified): a mirror trimmed it, so their absence means "unknown".
   */
  trimmed: z.boolean(),
  description: z.string().nullable(),
  keywords: z.array(z.string()),
  /** The declared licence as a string (object/array forms flattened), or null when none. */
  license: z.string().nullable(),
  /** True when the legacy object/array `licenses` form was used. */
  licenseLegacyForm: z.boolean(),
  homepage: z.string().nullable(),
  bugs: z.string().nullable(),
  repository: RepositoryRefSchema.nullable(),
  engines: z.record(z.string(), z.string()),
  dependencies: z.number().int().nonnegative(),
  devDependencies: z.number().int().nonnegative(),
  peerDependencies: z.number().int().nonnegative(),
  optionalDependencies: z.number().int().nonnegative(),
  /** Direct runtime dependencies with their ranges (for later vulnerability lookups). */
  dependencyRanges: z.record(z.string(), z.string()),
  /** Lifecycle scripts npm runs on install: preinstall, install, postinstall (and prepare for git deps). */
  installScripts: z.record(z.string(), z.string()),
  /**
   * The version's `hasInstallScript` as npm reads it (truthy or not); null when the registry does
   * not say. npm decides from it, and runs the scripts of the tarball's own package.json.
   */
  hasInstallScript: z.boolean().nullable().default(null),
  /**
   * Dependencies (runtime, optional, peer) no registry vouches for: git, GitHub, URL tarballs,
   * `file:` and `link:` specs. npm fetches them as they are (a git one runs `prepare`).
   */
  nonRegistryDependencies: z.array(NonRegistryDependencySchema).default([]),
  /** `gypfile: true` in the manifest (npm runs node-gyp rebuild). */
  gypfile: z.boolean(),
  /** `gypfile: false` in the manifest: npm does not add its implicit `node-gyp rebuild` for a `binding.gyp` (present only when so). */
  gypfileDisabled: z.boolean().optional(),
  hasBin: z.boolean(),
  /**
   * The command names its `bin` links into `node_modules/.bin` (sources/npm/commands.ts); absent in
   * evidence saved before they were recorded. Those of `directories.bin` need the tarball's listing
   * (`commandsFolder`, and the tarball's `commands`).
   */
  commands: z.array(z.string()).optional(),
  /** `directories.bin` when `bin` is not set (npm then links every file in it); absent otherwise. */
  commandsFolder: z.string().optional(),
  /** `types` / `typings` field, or an `exports` map with a `types` condition. */
  declaresTypes: z.boolean(),
  /** Deprecation message; false when not deprecated; null when unknown (trimmed packument). */
  deprecated: z.union([z.string(), z.literal(false)]).nullable(),
  /**
   * The `latest` dist-tag's version and its deprecation message when that version is deprecated and
   * is not the resolved one (npm passes over a deprecated `latest`, so an older version resolves);
   * null otherwise, or in evidence saved before it was recorded.
   */
  latestDeprecated: z.object({ version: z.string(), message: z.string() }).nullable().default(null),
  /** Number of maintainers, or null when unknown (trimmed packument). */
  maintainers: z.number().int().nonnegative().nullable(),
  /**
   * The maintainers' npm account names, or null when unknown (a trimmed packument; evidence
   * saved before they were recorded).
   */
  maintainerNames: z.array(z.string()).nullable().default(null),
  /**
   * The README the registry shows (the resolved version's `readme`, else the packument's), its
   * text capped like a tarball README's; false when the packument says there is none (npm's "No
   * README data found" placeholder); null when it does not say (no text, or an empty one; a
   * trimmed packument; evidence saved before it was recorded). The fallback when the tarball
   * cannot be read. Cut short, the rest is read for its headings and code blocks
   * (evidence/readme-file.ts).
   */
  readme: z
    .union([
      z.object({
        size: z.number().int().nonnegative(),
        text: z.string(),
        truncated: z.boolean(),
        ...README_TAIL_FIELDS,
      }),
      z.literal(false),
    ])
    .nullable()
    .default(null),
  /**
   * The resolved version's `mcpName` (the MCP Registry server it says it is, docs/checks.md
   * `mcp-package-ownership`); null when it names none or evidence was saved before it was recorded.
   */
  mcpName: z.string().max(200).nullable().default(null),
  /**
   * The `mcpName` other versions give, newest first, one per distinct name (at most 8): read when
   * the resolved version names no server (docs/checks.md `mcp-package-ownership`); empty when
   * none does or evidence was saved before it was recorded.
   */
  otherMcpNames: z.array(z.object({ version: z.string().max(256), name: z.string().max(200) })).max(8).default([]),
  /** `_npmUser.name` of the resolved version and of the version published before it. */
  publisher: z.string().nullable(),
  previousPublisher: z.string().nullable(),
  /** `dist.attestations` (npm provenance); null when the version has none, or a hollow one. */
  attestations: z
    .object({ url: z.string().nullable(), predicateType: z.string().nullable() })
    .nullable(),
  /**
   * Why `dist.attestations` is present but not a listing (`{}`, no URL, not an object): it is no
   * provenance, and `attestations` is null. Null when absent or valid.
   */
  hollowAttestations: z.string().nullable().default(null),
  /** Count of `dist.signatures` (registry signatures; recorded, earns nothing alone). */
  signatures: z.number().int().nonnegative(),
  /** The registry replaced the package with a security-holding placeholder. */
  securityHolding: z.boolean(),
  /** The resolved version is the `latest` dist-tag. */
  isLatest: z.boolean(),
  /**
   * The version published just before the resolved one (by time, else semver), as a
   * snapshot for release-anomaly comparisons; null when there is none.
   */
  previous: z
    .object({
      version: z.string(),
      time: z.string().nullable(),
      publisher: z.string().nullable(),
      hasAttestations: z.boolean(),
      installScripts: z.array(z.string()),
      hasBin: z.boolean(),
      /** Its command names, as the resolved version's `commands` (absent in evidence written before they were kept). */
      commands: z.array(z.string()).optional(),
      unpackedSize: z.number().int().nonnegative().nullable(),
      dependencies: z.number().int().nonnegative(),
      /** Its direct runtime dependencies' names (absent in evidence written before they were kept). */
      dependencyNames: z.array(z.string()).optional(),
    })
    .nullable(),
  /**
   * Distinct `_npmUser` names of every version published before the resolved one; null when
   * the packument names no publisher at all (trimmed).
   */
  priorPublishers: z.array(z.string()).nullable(),
  tarballUrl: z.string().nullable(),
  integrity: z.string().nullable(),
  /** `dist.shasum` (hex SHA-1), which old lockfiles pin instead of an SRI hash. */
  shasum: z.string().nullable().default(null),
  /** `dist.unpackedSize` and `dist.fileCount` as the registry reports them. */
  unpackedSize: z.number().int().nonnegative().nullable(),
  fileCount: z.number().int().nonnegative().nullable(),
});
export type RegistryFacts = z.infer<typeof RegistryFactsSchema>;

/**
 * What the tarball's own package.json says where it matters to what npm does: the name and
 * version, the install scripts it runs, the dependencies and `bin`. Read in memory, capped.
 */
export const TarballManifestSchema = z.object({
  name: z.string().nullable(),
  version: z.string().nullable(),
  installScripts: z.record(z.string(), z.string()),
  dependencies: z.record(z.string(), z.string()),
  hasBin: z.boolean(),
  nonRegistryDependencies: z.array(NonRegistryDependencySchema),
  /** `gypfile: false`, as in the registry's facts (present only when so). */
  gypfileDisabled: z.boolean().optional(),
  /**
   * The dependencies it ships in its tarball (`bundleDependencies` / `bundledDependencies`;
   * `true` names every dependency): present only when it declares some.
   */
  bundleDependencies: z.array(z.string()).optional(),
  /** `optionalDependencies`, present only when it has some (what a bundle holds follows them too). */
  optionalDependencies: z.record(z.string(), z.string()).optional(),
  /**
   * Keys the package.json names twice with different values, among the members npm and nerq
   * read and inside their maps (`scripts.postinstall`), with both values as written, cut short
   * (packument-scan.ts, `repeatedKeys`): parsers differ on which one counts. Present only when
   * there are some.
   */
  repeatedKeys: z.array(z.object({ key: z.string(), first: z.string(), last: z.string() })).optional(),
});
export type TarballManifest = z.infer<typeof TarballManifestSchema>;

/** A file of install-time or load-time code as read from the archive (`installCode`, `loadCode`). */
/**
 * The cap that left a file of install-time or load-time code unread (src/sources/npm/install-code.ts):
 * `files`, the files read in all; `characters`, the text read in all; `module-size`, a module larger
 * than a loaded module is kept to; `module-pool`, the bytes of such modules kept in all; `wanted-files`,
 * the files the commands name kept; `paths`, the paths of the archive remembered; `not-kept`, a file
 * that streamed past unkept (not a code file's name, or before the package.json named it).
 */
export const UNREAD_CAPS = ['files', 'characters', 'module-size', 'module-pool', 'wanted-files', 'paths', 'not-kept'] as const;
/** Of `unread`, why each was left unread (its path: the cap, with `limit`, its value in files, characters or bytes); absent in evidence saved before nerq recorded it. */
const UnreadCausesSchema = z.record(z.string(), z.object({ cap: z.enum(UNREAD_CAPS), limit: z.number().int().nonnegative().optional() })).optional();

const CodeFileSchema = z.object({
  path: z.string(),
  /** `gyp`: a binding.gyp node-gyp reads (its command expansions and actions run). */
  language: z.enum(['javascript', 'shell', 'python', 'gyp']),
  size: z.number().int().nonnegative(),
  text: z.string(),
  truncated: z.boolean(),
  /**
   * A module the install code loads (not a file a command names): the exports of it that the code
   * which runs calls (checks/lib/install-reach.ts), none when it is only loaded; it is judged by
   * its load-time code and those calls. Absent: all of it may run, and it is judged whole.
   */
  calls: z.array(z.string()).optional(),
});

export const TarballFactsSchema = z.object({
  /** Root folder of the archive (its first path component, usually `package`). */
  root: z.string(),
  fileCount: z.number().int().nonnegative(),
  unpackedSize: z.number().int().nonnegative(),
  /**
   * The README (first match at the root), its text the first README_TEXT_BYTES; null when none
   * shipped; the rest is read for its headings and code blocks as the file streams past
   * (evidence/readme-file.ts).
   */
  readme: ReadmeFileSchema.nullable(),
  /**
   * Licence files at the root, with the SPDX id their text matches (null when unrecognised) and
   * the further licences the same file holds (`others`, only when there are any).
   */
  licenseFiles: z.array(LicenseFileSchema),
  securityFile: z.string().nullable(),
  contributingFile: z.string().nullable(),
  changelogFile: z.string().nullable(),
  /** Count of `.d.ts` / `.d.mts` / `.d.cts` files shipped. */
  declarationFiles: z.number().int().nonnegative(),
  /** `binding.gyp` at the root (implicit `node-gyp rebuild` install script). */
  bindingGyp: z.boolean(),
  /** Native sources or binaries (.c, .cc, .cpp, .h, .node) shipped. */
  nativeFiles: z.number().int().nonnegative(),
  /** The archive's own package.json (the last one at depth one, as extraction leaves it); null when unreadable. */
  manifest: TarballManifestSchema.nullable().default(null),
  /** Why `manifest` is null (none in the archive, over the cap, not JSON); null when read. */
  manifestProblem: z.string().nullable().default(null),
  /** The archive's package.json is larger than nerq reads: npm reads it whole, so its scripts are unknown, not absent. */
  manifestOverCap: z.boolean().default(false),
  /**
   * Files at depth one that a case-insensitive or Windows file system reads as package.json
   * (`PACKAGE.JSON`, `package.json.`, `PACKAG~1.JSO`): what npm runs there. `manifest` null when
   * unreadable, with the `problem`.
   */
  manifestAliases: z
    .array(z.object({ path: z.string(), manifest: TarballManifestSchema.nullable(), problem: z.string().nullable() }))
    .default([]),
  /**
   * Packages shipped under the archive's `node_modules/` (bundled dependencies, nested ones
   * too): the folder (`node_modules/a`, `node_modules/a/node_modules/@s/b`), its package.json
   * (null when unreadable, with the `problem`; null with no problem when none was read), whether the folder holds a `binding.gyp`, and
   * whether the archive's package.json declares it in `bundleDependencies` (a nested folder
   * goes with the top one). npm runs a bundled dependency's install scripts as it installs.
   */
  bundled: z
    .array(
      z.object({
        path: z.string(),
        /** What npm acts on at install: the name, version, install scripts and `gypfile: false`. */
        manifest: TarballManifestSchema.pick({ name: true, version: true, installScripts: true, gypfileDisabled: true }).nullable(),
        problem: z.string().nullable(),
        bindingGyp: z.boolean(),
        declared: z.boolean(),
      }),
    )
    .default([]),
  /** Bundled package.json files past the number read (tarball.ts): their scripts are unknown. */
  bundledUnread: z.number().int().nonnegative().default(0),
  /**
   * JavaScript files whose text is an obfuscator's output (checks/lib/js-code.ts,
   * `distinctObfuscatorNames`; docs/checks.md, `obfuscated-code`). Absent in evidence saved before
   * nerq looked (the check is then not applicable).
   */
  obfuscated: z
    .object({
      /** JavaScript files read for obfuscator output (all `.js` / `.cjs` / `.mjs`, bundled ones too). */
      scanned: z.number().int().nonnegative(),
      /**
       * Files with a signature of obfuscation (checks/lib/obfuscation-signatures.ts), at most 16:
       * `names` is how many distinct `_0x…` names were seen (capped at MIN_OBFUSCATED_FILE_NAMES),
       * `signatures` the shapes found. Evidence saved before nerq read more than those names lists
       * none: its files were listed for them.
       */
      files: z.array(z.object({ path: z.string(), names: z.number().int().nonnegative(), signatures: z.array(z.enum(OBFUSCATION_SIGNATURES)).default(['obfuscator-names']) })),
      /** Such files past the 16 listed. */
      more: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * The files of the package its install scripts run, and the local modules those load
   * (checks/lib/install-targets.ts; docs/checks.md, `install-scripts`): texts capped, `truncated`
   * when a file was kept in part (install-scripts then does not read it as clean). `missing`:
   * files a script names that the archive does not hold; `unread`: files it holds that were not
   * kept (past a cap). Absent when the package has no install script, and in evidence saved
   * before nerq read them (the scripts are then judged by their commands alone).
   */
  installCode: z
    .object({
      files: z.array(CodeFileSchema),
      missing: z.array(z.string()),
      unread: z.array(z.string()),
      unreadCauses: UnreadCausesSchema,
      /**
       * Of `unread`, the files a bundled package's install command names (not the modules they
       * load), left unread at the caps on such files: code npm runs that nerq did not read (at most 64 listed).
       */
      unreadBundled: z.array(z.string()).optional(),
      /** Files left unread past the 256 `unread` lists for the package's own code and for bundled code each. */
      unreadMore: z.number().int().positive().optional(),
    })
    .optional(),
  /**
   * The package's entry modules, what a `require` or `import` of it runs first (its `main`, else
   * index.js, and the entries its `exports` gives: `entries`, as paths), and the local modules
   * they load, read with the caps of `installCode` (docs/checks.md, `load-time-code`). Absent when
   * the archive's package.json was not read, and in evidence saved before nerq read them.
   */
  loadCode: z
    .object({
      /** `.` for the `main` (else index.js), then the paths `exports` gives. */
      entries: z.array(z.string()),
      files: z.array(CodeFileSchema),
      missing: z.array(z.string()),
      unread: z.array(z.string()),
      unreadCauses: UnreadCausesSchema,
    })
    .optional(),
  /**
   * The entry points the archive's package.json names (`main`, `bin`, `exports`, `types`) that
   * the archive does not hold, resolved as Node, npm and TypeScript resolve them
   * (checks/lib/entry-points.ts; docs/checks.md, `entry-points`): `declared`, the targets looked
   * up; `listedAll`, false when the archive had more files than nerq lists (a target not found
   * may then be there). Absent when the package.json was not read, and in evidence saved before
   * nerq looked.
   */
  /**
   * The command names npm links for the archive's own package.json (sources/npm/commands.ts): its
   * `bin`, or without one every file its listing holds under `directories.bin`. Absent when the
   * package.json was not read, and in evidence saved before nerq looked.
   */
  commands: z.array(z.string()).optional(),
  /** False when the archive had more files than nerq lists: `directories.bin` may link more commands. */
  commandsListedAll: z.boolean().optional(),
  entryPoints: z
    .object({
      declared: z.number().int().nonnegative(),
      missing: z.array(z.object({ field: z.enum(['main', 'bin', 'exports', 'types']), key: z.string(), target: z.string(), primary: z.boolean() })),
      listedAll: z.boolean(),
      /**
       * Whether a `require` or `import` of the package finds anything to load: its package.json
       * declares `main`, `module`, `browser`, `exports`, `types` or `typings`, or the archive holds
       * a root index.js / .cjs / .mjs / .json / .node (checks/lib/entry-points.ts, `offersImport`).
       * Absent when nothing is declared and not every file was listed (`listedAll` false), and in
       * evidence saved before nerq looked.
       */
      importable: z.boolean().optional(),
    })
    .optional(),
});
export type TarballFacts = z.infer<typeof TarballFactsSchema>;

export const DownloadFactsSchema = z.object({
  /** Downloads in the last 7 days, or null when the API did not give it. */
  lastWeek: z.number().int().nonnegative().nullable(),
  /** Downloads in the last 30 days, or null when the API did not give it. */
  lastMonth: z.number().int().nonnegative().nullable(),
  /** Downloads in the last 365 days, or null when the API did not give it. */
  lastYear: z.number().int().nonnegative().nullable(),
});
export type DownloadFacts = z.infer<typeof DownloadFactsSchema>;

export const DependencyFactsSchema = z.object({
  /** Direct runtime dependencies, each resolved to what its range installs today. */
  dependencies: z.array(
    z.object({
      name: z.string(),
      range: z.string(),
      /** Resolved version, or null when it could not be resolved (reason says why). */
      version: z.string().nullable(),
      reason: z.string().nullable(),
      /** The registry replaced this dependency with a security-holding placeholder. */
      securityHolding: z.boolean(),
      /**
       * npm only: how many versions its packument lists, and when the packument was last changed
       * (the abbreviated document's `modified`, else `time.modified`); absent when it was not
       * fetched, or in evidence written before they were kept.
       */
      versionCount: z.number().int().nonnegative().optional(),
      packumentModified: z.string().nullable().optional(),
      /** A repository's dependency set only (absent for a package's direct dependencies): its ecosystem. */
      ecosystem: z.enum(DEPENDENCY_ECOSYSTEMS).optional(),
      /** Needed only for development (a repository's lockfile or manifest says so). */
      dev: z.boolean().optional(),
      /** The packages between the manifest and this one (`['express']` for express › path-to-regexp); [] for a direct one. */
      path: z.array(z.string()).optional(),
      /** The lockfile or manifest it was read from, relative to the repository root. */
      file: z.string().optional(),
      /**
       * A repository's dependency set only: true when no lockfile pins it and the version is the
       * one its declared range resolves to in the registry today (a direct dependency: resolved
       * from ranges, direct only).
       */
      resolvedFromRange: z.boolean().optional(),
    }),
  ),
  /**
   * A repository's dependency set only: the manifests with no lockfile beside them. Their direct
   * dependencies' ranges are resolved against the registry as the package manager would today
   * (`resolvedFromRange`, within `rangeLookups.limit`); their transitive dependencies are unknown.
   */
  unpinned: z.array(z.string()).optional(),
  /** A repository's dependency set only: registry lookups made to resolve ranges, and the most allowed. */
  rangeLookups: z.object({ used: z.number().int().nonnegative(), limit: z.number().int().nonnegative() }).optional(),
  /** A repository's dependency set only: declarations no registry vouches for (git, URL, file), not resolved (the reader's notes). */
  unvouched: z.array(z.string()).optional(),
  /** A repository's dependency set only: the lockfiles it was read from. */
  lockfiles: z.array(z.string()).optional(),
  /**
   * A repository's dependency set only: its manifests of ecosystems nerq does not evaluate (Ruby's
   * `Gemfile`, a `Cargo.toml` no `Cargo.lock` pins …). Their dependencies are not in the set: a set without advisories is then not
   * known to be clean (docs/scoring.md §9).
   */
  unevaluated: z.array(z.object({ file: z.string(), ecosystem: z.string() })).optional(),
});
export type DependencyFacts = z.infer<typeof DependencyFactsSchema>;

export const SEVERITIES = ['critical', 'high', 'moderate', 'low', 'unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const AdvisoryFactsSchema = z.object({
  /** The primary id (twins merged: every other id is in aliases). */
  id: z.string(),
  aliases: z.array(z.string()),
  summary: z.string().nullable(),
  severity: z.enum(SEVERITIES),
  /** Where the severity came from: a CVSS vector, the database's label, a twin's record, or nowhere. */
  severitySource: z.enum(['cvss', 'database', 'alias', 'none']),
  cvss: z.number().min(0).max(10).nullable(),
  cvssVector: z.string().nullable(),
  /** The package and version it was matched against (the target or a direct dependency). */
  package: z.string(),
  /**
   * The ecosystem of the package it was matched against: a Go module, a crate and an npm package
   * may share a name and a version. Absent in evidence written before it (the target's ecosystem
   * then, for a package target).
   */
  ecosystem: z.enum(DEPENDENCY_ECOSYSTEMS).optional(),
  version: z.string().nullable(),
  affectsResolved: z.boolean(),
  /** The first fixed version above `version`, or null when no fix is known. */
  fixed: z.string().nullable(),
  published: z.string().nullable(),
  /** A known-malicious-package record (an OSV `MAL-` id or the malicious-packages database). */
  malicious: z.boolean(),
  url: z.string().nullable(),
});
export type AdvisoryFacts = z.infer<typeof AdvisoryFactsSchema>;

export const VulnerabilityFactsSchema = z.object({
  /** Advisories affecting the resolved version of the target (withdrawn ones dropped). */
  advisories: z.array(AdvisoryFactsSchema),
  /**
   * Advisories affecting the resolved versions of the direct dependencies; null when the
   * dependencies were not queried (their resolution was unavailable).
   */
  dependencyAdvisories: z.array(AdvisoryFactsSchema).nullable(),
  /** How many dependency versions were queried. */
  dependenciesQueried: z.number().int().nonnegative(),
  /**
   * Why `dependencyAdvisories` is null (the dependencies could not be resolved, or OSV could not
   * answer for them; the target's own advisories are known all the same); null otherwise, and
   * when the dependencies were not asked for at all. Absent in evidence written before it: null.
   */
  dependencyAdvisoriesReason: z.string().nullable().default(null),
  /**
   * False when only the dependencies were asked (a repository target publishes no version of
   * its own to look up: `advisories` is then empty by construction, not by a clean answer).
   * Absent: the target's own version was asked.
   */
  ownAsked: z.boolean().optional(),
  /**
   * A repository target's dependencies OSV could not answer for (the request of their ecosystem's
   * batch failed, or an advisory listed for them could not be read), by ecosystem and reason: their
   * advisories are unknown, the others' stand (`dependencyAdvisories`, `dependenciesQueried` count
   * only those OSV answered for). Absent when OSV answered for every one, and in older evidence.
   */
  dependencyAdvisoriesUnknown: z.array(z.object({ ecosystem: z.string(), packages: z.number().int().positive(), reason: z.string() })).optional(),
  /**
   * True when the package was asked about by name with no version (its registry no longer serves
   * it at all, docs/security.md): `advisories` then holds only the malicious-package records that
   * affect every version, and no version's other advisories are known. Absent: a version was asked.
   */
  versionless: z.boolean().optional(),
});
export type VulnerabilityFacts = z.infer<typeof VulnerabilityFactsSchema>;

export const AttestationFactsSchema = z.object({
  /** The registry lists a SLSA provenance attestation for this version. */
  provenance: z.boolean(),
  predicateType: z.string().nullable(),
  /** Source repository the build ran from (https URL), per the provenance predicate. */
  sourceRepository: z.string().nullable(),
  workflow: z.string().nullable(),
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  builder: z.string().nullable(),
  /** Cryptographic verification against the Sigstore trust root was done and passed. */
  verified: z.boolean(),
  /**
   * The version lists attestations but they are no provenance: the attestations endpoint answered
   * 404, or with no SLSA statement, or with one that cannot be read. Null otherwise.
   */
  hollow: z.string().nullable().default(null),
});
export type AttestationFacts = z.infer<typeof AttestationFactsSchema>;

/** Source ids a check can depend on (keys of `Evidence.sources`). */
export const SOURCE_IDS = [
  'registry',
  'tarball',
  'downloads',
  'dependencies',
  'vulnerabilities',
  'attestations',
  'pypi',
  'github',
  'mcp',
] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

export const SourcesSchema = z.object({
  registry: sourceResult(RegistryFactsSchema),
  tarball: sourceResult(TarballFactsSchema),
  downloads: sourceResult(DownloadFactsSchema),
  dependencies: sourceResult(DependencyFactsSchema),
  vulnerabilities: sourceResult(VulnerabilityFactsSchema),
  attestations: sourceResult(AttestationFactsSchema),
  /** PyPI project and release facts (not-applicable for other ecosystems). */
  pypi: sourceResult(PypiFactsSchema),
  /** The source repository on GitHub (not-applicable when the target has no GitHub repository). */
  github: sourceResult(GithubFactsSchema),
  /**
   * The MCP Registry entry of an `mcp:` target; absent (read as not-applicable: `sourceOf`) for
   * every other target and in evidence saved before it existed.
   */
  mcp: sourceResult(McpFactsSchema).optional(),
});
export type Sources = z.infer<typeof SourcesSchema>;

const NOT_AN_MCP_ENTRY = { status: 'not-applicable', reason: 'not an MCP Registry entry' } as const;

/** A source of the evidence by id; an absent optional source (`mcp`) is not-applicable. */
export function sourceOf<K extends SourceId>(sources: Sources, id: K): NonNullable<Sources[K]> | typeof NOT_AN_MCP_ENTRY {
  return sources[id] ?? NOT_AN_MCP_ENTRY;
}

/** The target as reports show it (the same shape, defined once in the JSON contract). */
export const EvidenceTargetSchema = ReportTargetSchema;

const EvidenceBaseSchema = z.object({
  evidenceVersion: z.literal(EVIDENCE_SCHEMA_VERSION),
  /** ISO 8601 time the facts were collected; `nerq score` evaluates "as of" this instant. */
  capturedAt: z.string(),
  tool: z.object({ name: z.literal('nerq'), version: z.string() }),
  target: EvidenceTargetSchema,
  /** `--category` given on the command line, kept so `nerq score` reproduces it. */
  categoryOverride: z.string().nullable(),
  sources: SourcesSchema,
});

/**
 * What became of one package of an MCP Registry entry (`sources.mcp.facts.packages`, in order),
 * so that `nerq score` re-scores its nested report too: the package's own evidence, the error
 * it could not be evaluated for (not found, its registry unavailable), or null when it was not
 * evaluated (an OCI image, a package nerq does not read).
 */
export const McpPackageOutcomeSchema = z.union([
  z.object({ evidence: EvidenceBaseSchema }),
  z.object({
    error: z.object({
      ecosystem: ReportTargetSchema.shape.ecosystem,
      name: z.string(),
      version: z.string().nullable(),
      code: z.string(),
      message: z.string(),
    }),
  }),
  z.null(),
]);
export type McpPackageOutcome = z.infer<typeof McpPackageOutcomeSchema>;

export const EvidenceSchema = EvidenceBaseSchema.extend({
  /**
   * An `mcp:` target's packages, one per `sources.mcp.facts.packages` entry (their own evidence
   * holds none). Absent for every other target and in evidence saved before it was recorded:
   * `nerq score` then re-scores the entry without its packages' nested reports.
   */
  mcpPackages: z.array(McpPackageOutcomeSchema).optional(),
  /**
   * An `mcp:` entry one of whose packages is evaluated: its repository's dependency advisories
   * (docs/scoring.md §8a), listed in the report's `advisories` as the repository's and never read
   * by a check (the packages' nested reports carry the score). Absent otherwise and in evidence
   * saved before it was recorded.
   */
  mcpRepositoryAdvisories: sourceResult(VulnerabilityFactsSchema).optional(),
});
export type Evidence = z.infer<typeof EvidenceSchema>;
