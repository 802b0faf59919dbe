/**
 * What a peer source gives `compareWithPeers` (app/compare.ts): the candidates it chose to
 * evaluate, with why each was chosen, and the sample it came from; or why it could not search.
 * docs/scoring.md §13 says how the standing and the alternatives follow from them.
 */
import type { PeerEvaluation } from '../../report/comparison.js';
import { ruleCategoryOf } from '../../scoring/category.js';
import type { Target } from '../../target/types.js';
import type { SourceUnavailableCode } from '../../model/source-codes.js';

export interface Candidate {
  target: Target;
  /** Keywords (npm), topics (GitHub) or name and description words (MCP Registry) it shares with the target. */
  sharedKeywords: string[];
  curated: PeerEvaluation['curated'];
}

/** The candidates a search gave, or why there are none. */
export type PeerSearch =
  | {
      status: 'ok';
      /** The source's id in the sample (`mcp-registry-search`, `github-search`). */
      source: string;
      /** What was asked, as the sample shows it. */
      query: string;
      /** Candidates the search listed (the target itself left out). */
      listed: number;
      /** The ones to evaluate, best first, at most the peer limit. */
      chosen: Candidate[];
      /** Chosen, but left unevaluated: GitHub's REST budget could not cover them (withinRateLimit). */
      unevaluated: Candidate[];
      notes: string[];
    }
  /** `code`: why, as the search's source code (`not-asked` when there was nothing to search by). */
  | { status: 'unavailable'; reason: string; code: SourceUnavailableCode; notes: string[] };

/** GitHub's REST requests an hour without a token. */
export const NO_TOKEN_REST_LIMIT = 60;

/**
 * The REST requests a repository takes to evaluate without a token, as measured on the recorded
 * microsoft/playwright-mcp (docs/scoring.md: 16, and 2 for its workflows; a workspace's member
 * manifests take more). A peer read from cached evidence takes none, so this errs on the safe side.
 */
export const REPOSITORY_REST_REQUESTS = 18;

/**
 * Keywords (npm) and topics (GitHub) that say what a package is written in, runs on or is
 * packaged as, or praise it, never what it does: two packages sharing only these are not peers
 * ("javascript", "typescript", "util", "mcp"…), so they are neither searched by nor counted as
 * shared (docs/scoring.md §13).
 */
const GENERIC_KEYWORDS: ReadonlySet<string> = new Set([
  'javascript', 'js', 'node', 'nodejs', 'node-js', 'node.js', 'typescript', 'ts', 'deno', 'bun', 'npm', 'npm-package',
  'package', 'module', 'modules', 'library', 'lib', 'es6', 'es2015', 'esm', 'commonjs', 'cjs', 'api', 'sdk', 'cli',
  'tool', 'tools', 'util', 'utils', 'utility', 'utilities', 'helper', 'helpers', 'simple', 'fast', 'lightweight', 'tiny',
  'mcp', 'mcp-server', 'mcp-servers', 'modelcontextprotocol', 'model-context-protocol', 'ai', 'llm',
]);

/** The keywords that say what a package does: the generic ones left out. */
export function specificKeywords(keywords: readonly string[]): string[] {
  return keywords.filter((k) => !GENERIC_KEYWORDS.has(k.toLowerCase()));
}

/**
 * Whether a listing can be a peer of a target of `category`, by what the listing says: the
 * keyword and description rules must give it the same risk or framework category (a listing
 * does not tell a command from a library, so `cli` and `library` stay together here; the
 * evaluation decides).
 */
export function sameCategoryByListing(keywords: readonly string[], description: string | null, category: string): boolean {
  const ruled = ruleCategoryOf(keywords, description ?? '');
  return category === 'library' || category === 'cli' ? ruled === null : ruled === category;
}

/**
 * The chosen peers that GitHub's REST budget covers, for a source whose peers are read from
 * GitHub repositories (a `github:` target, an MCP Registry entry), each costing
 * REPOSITORY_REST_REQUESTS: the budget is what GitHub last said is left (`remaining`, from the
 * run's answers; the target's own evaluation spent its share), else 60 without a token (no cap
 * with one). The rest are not evaluated (`rate-limited` in the sample), and a note says why.
 */
export function withinRateLimit(
  chosen: readonly Candidate[],
  tokenInUse: boolean,
  remaining: number | null,
): { chosen: Candidate[]; unevaluated: Candidate[]; notes: string[] } {
  const budget = remaining ?? (tokenInUse ? null : NO_TOKEN_REST_LIMIT);
  const fit = budget === null ? chosen.length : Math.floor(budget / REPOSITORY_REST_REQUESTS);
  if (chosen.length <= fit) return { chosen: [...chosen], unevaluated: [], notes: [] };
  const left = remaining === null ? `GitHub allows ${NO_TOKEN_REST_LIMIT} REST requests an hour without a token` : `GitHub's REST API has ${remaining} requests left this hour`;
  const skipped = chosen.length - fit;
  const note = `${left} and a peer's repository takes about ${REPOSITORY_REST_REQUESTS}: ${skipped} of the ${chosen.length} peers chosen ${skipped === 1 ? 'was' : 'were'} not evaluated${tokenInUse ? '' : ' (set GITHUB_TOKEN for more)'}`;
  return { chosen: chosen.slice(0, fit), unevaluated: chosen.slice(fit), notes: [note] };
}
