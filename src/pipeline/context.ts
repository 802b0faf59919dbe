/** What one run shares between its targets: the HTTP client, configuration and the clock. */
import type { NpmConfig } from '../sources/npm/config.js';
import type { Endpoints } from '../sources/endpoints.js';
import type { HttpClient } from '../sources/http/types.js';
import type { GateOptions } from '../scoring/gate.js';
import type { GithubClaim, GithubRateLimiter, GithubRepoRef, GithubResult } from '../sources/github/source.js';
import type { VulnerabilitiesResult } from '../sources/osv/query.js';
import type { PackageOsvEcosystem } from '../ecosystems/types.js';
import type { FactsCache } from '../sources/facts-cache.js';
import type { DownloadsResult } from '../sources/npm/downloads.js';

export interface RunContext {
  http: HttpClient;
  npm: NpmConfig;
  endpoints: Endpoints;
  /** GitHub token (GITHUB_TOKEN / GH_TOKEN) or null; the HTTP client sends it to GitHub's API origins only. */
  githubToken: string | null;
  /** The runtime's GitHub rate-limit switch: a limit reached stops every lookup until it resets. */
  githubLimiter: GithubRateLimiter;
  /** The evaluation instant: NERQ_NOW or the clock at the start of the run. */
  now: Date;
  category: string | null;
  gate: GateOptions;
  /**
   * In an audit every dependency is evaluated on its own, so a package's own direct dependencies
   * are not resolved again (the `dependencies` source is not-applicable).
   */
  skipDependencies?: boolean;
  /**
   * The package is collected to be folded into its repository's report (`--include-package`,
   * docs/scoring.md §9): the repository is the target's own, already read and the link verified,
   * so the package's `github` source is not looked up again (it is not-applicable, for this reason).
   */
  repositoryAlreadyRead?: string;
  /**
   * `--include-package` on a repository target: fold a verified package's sources into its
   * evidence; `name` is the package asked for (`x`, `npm:x`, `pypi:x`), null for the rule's pick.
   */
  includePackage?: { name: string | null };
  /**
   * Advisories fetched ahead for many packages in one batch (an audit); undefined for a package
   * that was not in the batch, which then asks OSV itself.
   */
  /** How GitHub facts are fetched (an audit gathers lookups into GraphQL batches); default one by one. */
  githubLookup?: (repo: GithubRepoRef, claim: GithubClaim) => Promise<GithubResult>;
  prefetchedVulnerabilities?: (ecosystem: PackageOsvEcosystem, name: string, version: string) => Promise<VulnerabilitiesResult> | undefined;
  /**
   * npm download counts fetched ahead for many packages (an audit's bulk queries); undefined for
   * a package that was not in a bulk query, which then asks the downloads API itself.
   */
  prefetchedDownloads?: (name: string) => Promise<DownloadsResult> | undefined;
  /** Derived facts kept in the store (facts-cache.ts); absent = no facts cache. */
  facts?: FactsCache;
}
