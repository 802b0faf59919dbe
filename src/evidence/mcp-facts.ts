/**
 * The `mcp` source: what the MCP Registry says about one server entry, and what nerq found about
 * the packages it names (each evaluated as a target of its own ecosystem). The entry checks
 * (`mcp-*`, docs/checks.md) read only these facts, so `nerq score` re-scores them unchanged.
 */
import { z } from 'zod';

/** A package's own evaluation, as the entry's checks read it (its report is nested in the entry's). */
export const McpPackageEvaluationSchema = z.object({
  score: z.number().min(0).max(100).nullable(),
  grade: z.string().nullable(),
  verdictCode: z.string(),
  coverage: z.number().min(0).max(1),
  /** The package's report has a do-not-use cap (malicious, a security placeholder). */
  doNotUse: z.boolean(),
  /** The package's category (code-execution carries over to the entry). */
  category: z.string().nullable(),
  /** Its error code when it could not be evaluated (not found, registry unavailable). */
  error: z.string().nullable(),
  /**
   * Its guarding checks (known vulnerabilities, malicious packages) that could not run, as
   * `title: reason` lines (its gate's `not-checked`): the entry is no more checked than it is.
   * Absent in evidence saved before it was recorded.
   */
  unchecked: z.array(z.string()).optional(),
  /**
   * The source repository the release's provenance attestation names (npm SLSA provenance, PyPI
   * PEP 740: the repository whose CI built it); null when it carries none or it could not be read.
   * Absent in evidence saved before it was recorded: none.
   */
  provenanceRepository: z.string().nullable().optional(),
});

export const McpPackageFactsSchema = z.object({
  registryType: z.string(),
  identifier: z.string(),
  version: z.string().nullable(),
  /** The entry's `registryBaseUrl` as written (an OCI image's registry before schema 2025-10-11); absent in evidence saved before it was recorded. */
  registryBaseUrl: z.string().nullable().optional(),
  /** An MCP bundle's `fileSha256` as written; absent in evidence saved before it was recorded. */
  fileSha256: z.string().nullable().optional(),
  /** The target nerq evaluated it as (`npm:name@1.2.3`, `pypi:name==1.2.3`); null when not evaluated. */
  target: z.string().nullable(),
  evaluation: McpPackageEvaluationSchema.nullable(),
  /** Why it was not evaluated (a registry type nerq does not evaluate yet, an invalid name). */
  notEvaluated: z.string().nullable(),
  /**
   * The server name the package itself claims: npm `mcpName`, the PyPI README's `mcp-name:` line.
   * `known: false` when nerq could not read the claim (no package facts).
   */
  claim: z.object({ known: z.boolean(), name: z.string().nullable(), where: z.string() }).nullable(),
  runtimeHint: z.string().nullable(),
  /**
   * The members a check judges that the entry writes in a shape nerq cannot read, each with why
   * (`version (a number, not text)`): read as none, and the package not evaluated on them.
   * Absent when there are none, and in evidence saved before it was recorded.
   */
  unreadable: z.array(z.string()).optional(),
  /** `runtimeArguments` as `name value` words (a docker run's flags). */
  runtimeArguments: z.array(z.string()),
  /** Names of the environment variables it requires that the registry marks secret. */
  secretVariables: z.array(z.string()),
});
export type McpPackageFacts = z.infer<typeof McpPackageFactsSchema>;

export const McpRemoteFactsSchema = z.object({
  type: z.string(),
  url: z.string(),
  /** Header names it declares (values are never recorded), and those marked secret. */
  headers: z.array(z.string()),
  secretHeaders: z.array(z.string()),
  /**
   * The proxy package whose arguments name it (`npm:mcp-remote`; ecosystems/mcp/proxies.ts);
   * absent for the entry's own `remotes` and a package's HTTP transport.
   */
  via: z.string().optional(),
});

export const McpFactsSchema = z.object({
  /** `namespace/name` as the registry writes it. */
  name: z.string(),
  version: z.string(),
  description: z.string().nullable(),
  /** Registry status; null when the answer carried no registry metadata or no status nerq knows. */
  status: z.enum(['active', 'deprecated']).nullable(),
  /**
   * The status as the registry wrote it when it is none nerq knows (`active`, `deprecated`,
   * `deleted`), else null. Absent in evidence saved before it was recorded: null.
   */
  statusUnrecognised: z.string().nullable().default(null),
  statusMessage: z.string().nullable(),
  isLatest: z.boolean().nullable(),
  publishedAt: z.string().nullable(),
  /** The repository URL the entry names, and its GitHub owner when it is on GitHub. */
  repositoryUrl: z.string().nullable(),
  repositoryOwner: z.string().nullable(),
  /**
   * The repository's id as the entry records it (`repository.id`, the forge's id of the
   * repository it was published from); null when the entry carries none. Absent in evidence
   * saved before it was recorded: null.
   */
  repositoryId: z.string().nullable().default(null),
  /**
   * The folder of the repository the entry names (`repository.subfolder`) as the registry gave it;
   * its files are read there (docs/scoring.md §8a). Null when it names none; absent in evidence
   * saved before it was recorded: null.
   */
  repositorySubfolder: z.string().nullable().default(null),
  packages: z.array(McpPackageFactsSchema),
  remotes: z.array(McpRemoteFactsSchema),
});
export type McpFacts = z.infer<typeof McpFactsSchema>;
