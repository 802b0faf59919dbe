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
      notes: string[];
    }
  /** `code`: why, as the search's source code (`not-asked` when there was nothing to search by). */
  | { status: 'unavailable'; reason: string; code: SourceUnavailableCode; notes: string[] };

/**
 * Peers evaluated at most for a target whose peers are read from GitHub repositories (a
 * `github:` target, an MCP Registry entry) when no GitHub token is set: without one GitHub
 * allows 60 requests an hour and a repository costs about 12 (README, "Compared with its peers").
 */
export const NO_TOKEN_REPOSITORY_PEERS = 3;

export const NOTE_NO_TOKEN = `without a GitHub token at most ${NO_TOKEN_REPOSITORY_PEERS} peers are evaluated (GitHub allows 60 requests an hour without one, and each peer's repository costs about 12): set GITHUB_TOKEN for more`;

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

/** The peer limit for a source that reads repositories from GitHub, and the note when a missing token lowered it. */
export function repositoryPeerLimit(limit: number, tokenInUse: boolean): { limit: number; notes: string[] } {
  if (tokenInUse || limit <= NO_TOKEN_REPOSITORY_PEERS) return { limit, notes: [] };
  return { limit: NO_TOKEN_REPOSITORY_PEERS, notes: [NOTE_NO_TOKEN] };
}
