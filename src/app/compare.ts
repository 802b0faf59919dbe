/**
 * Use cases: a target among its peers (`check --compare`), and targets side by side
 * (`nerq compare`). Peers are found live, by the sources the target's ecosystem offers — npm's
 * search API by the package's keywords and the curated replacement list (npm), the MCP
 * Registry's search by the entry's name and description words (`mcp:`, peers/mcp.ts), GitHub's
 * repository search by the repository's topics (`github:`, peers/github.ts) — and evaluated by
 * the same engine through `checkTargets` (so through the store's cache, with the call's
 * deadline), concurrently. docs/scoring.md §13 says how the standing and the alternatives
 * follow from them.
 *
 * Sources not asked, and why, are notes of the sample: PyPI has no search API; for an npm
 * package that is an MCP server, the MCP Registry's search is not asked.
 */
import type { Evidence } from '../evidence/schema.js';
import { CURATED_SOURCE, curatedReplacementsFor, type CuratedReplacement } from '../ecosystems/npm/replacements.js';
import { compareToPeers, type ComparisonResult, type PeerEvaluation } from '../report/comparison.js';
import type { Report } from '../report/schema.js';
import { sideBySide, type SideBySide } from '../report/side-by-side.js';
import { queryKeywords, searchNpm, SEARCH_MAX_SIZE } from '../sources/npm/search.js';
import { parseTarget } from '../target/parse.js';
import type { Target } from '../target/types.js';
import { checkTargets, type TargetOutcome } from './check.js';
import { sameCategoryByListing, specificKeywords, type Candidate, type PeerSearch } from './peers/candidate.js';
import { findRepositoryPeers } from './peers/github.js';
import { findMcpPeers } from './peers/mcp.js';
import type { CallOptions, Runtime } from './runtime.js';

/** Peers evaluated by default (`--peers N`). */
export const DEFAULT_PEERS = 12;
/** The most `--peers` accepts. */
export const MAX_PEERS = 50;
/** Curated replacements evaluated at most, beside the peers. */
const MAX_CURATED = 3;

export const NOTE_PYPI = 'PyPI has no search API: no peers are found for PyPI projects';
export const NOTE_MCP = "the MCP Registry's search is not asked for an npm package: peers come from npm's search only";
const NOTE_MODULES = 'Go modules, crates and Maven artifacts are checked against OSV only: no peers are found for them';

/**
 * Where each ecosystem a report names finds its peers, or why it finds none: an exhaustive record,
 * so a new ecosystem does not compile until it says (docs/architecture.md, "Add an ecosystem").
 */
const PEER_SOURCES: Record<Report['target']['ecosystem'], 'npm-search' | 'mcp-registry' | 'github-search' | { none: string }> = {
  npm: 'npm-search',
  pypi: { none: NOTE_PYPI },
  github: 'github-search',
  mcp: 'mcp-registry',
  go: { none: NOTE_MODULES },
  cargo: { none: NOTE_MODULES },
  maven: { none: NOTE_MODULES },
};

/**
 * How a use case evaluates several targets: by default `checkTargets` with the call's options;
 * a long-lived front door passes its shared evaluator instead (coalescing, reuse, its queue).
 * An error it throws (a full queue, a deadline) ends the use case with that error.
 */
export type EvaluateTargets = (targets: readonly Target[]) => Promise<TargetOutcome[]>;

export interface PeersRequest extends CallOptions {
  /** Peers to evaluate at most (default DEFAULT_PEERS). */
  peers?: number;
  /** How the peers are evaluated (default: `checkTargets`, concurrently). */
  evaluateTargets?: EvaluateTargets;
}

/** What the target's own evidence says to search by. */
function npmFacts(evidence: Evidence | null): { keywords: string[] } | null {
  const registry = evidence?.sources.registry;
  return registry?.status === 'ok' ? { keywords: registry.facts.keywords } : null;
}

/** Evaluate candidates concurrently through the same use case as any check. */
async function evaluate(runtime: Runtime, candidates: readonly Candidate[], request: PeersRequest): Promise<PeerEvaluation[]> {
  if (candidates.length === 0) return [];
  const targets = candidates.map((c) => c.target);
  const outcomes =
    request.evaluateTargets === undefined
      ? await checkTargets(runtime, { targets, gate: request.gate, signal: request.signal, now: request.now, category: request.category, concurrency: candidates.length })
      : await request.evaluateTargets(targets);
  return outcomes.map((outcome, i) => ({ report: outcome.report, sharedKeywords: candidates[i]!.sharedKeywords, curated: candidates[i]!.curated }));
}

/** A target text nerq accepts for a name from a listing or the curated data, or null. */
function targetOf(name: string): Target | null {
  try {
    const target = parseTarget(name);
    return target.ecosystem === 'npm' && target.name === name ? target : null;
  } catch {
    return null;
  }
}

/** What the curated list suggests that is no package to score (`fetch`, `util.styleText`), as a note; none when it names none. */
function nativeNote(targetName: string, curated: CuratedReplacement | null): string[] {
  if (curated === null || curated.native.length === 0) return [];
  return [`${CURATED_SOURCE} also suggests the platform's own ${curated.native.join(', ')} instead of ${targetName}${curated.url === null ? '' : ` (${curated.url})`}`];
}

function curatedCandidates(targetName: string, curated: CuratedReplacement | null): Candidate[] {
  if (curated === null) return [];
  return curated.packages
    .filter((name) => name !== targetName)
    .slice(0, MAX_CURATED)
    .flatMap((name) => {
      const target = targetOf(name);
      return target === null ? [] : [{ target, sharedKeywords: [], curated: { source: CURATED_SOURCE, url: curated.url } }];
    });
}

/**
 * The target's standing among its peers and its alternatives, for one evaluated target. Never
 * throws: a source that fails leaves the comparison null with the reason.
 */
export async function compareWithPeers(runtime: Runtime, outcome: TargetOutcome, request: PeersRequest): Promise<ComparisonResult> {
  const report = outcome.report;
  const limit = Math.max(1, Math.min(MAX_PEERS, request.peers ?? DEFAULT_PEERS));
  const evaluatedAt = (request.now ?? runtime.now()).toISOString();
  const unavailable = (code: 'not-evaluated' | 'no-search-source' | 'search-unavailable', reason: string, notes: string[] = []): ComparisonResult => ({
    comparison: null,
    comparisonUnavailable: { code, reason, notes },
    alternatives: [],
  });
  if (report.error !== null || report.score === null) return unavailable('not-evaluated', 'the target has no score to compare');
  const source = PEER_SOURCES[report.target.ecosystem];
  if (typeof source !== 'string') return unavailable('no-search-source', source.none, [source.none]);
  const category = report.category?.id ?? 'library';
  if (source !== 'npm-search') {
    const call = { ...request, limit };
    const found =
      source === 'mcp-registry'
        ? await findMcpPeers(runtime, outcome.evidence, call)
        : await findRepositoryPeers(runtime, outcome.evidence, { ...call, category, name: report.target.name });
    return compareFound(runtime, report, found, request, evaluatedAt);
  }

  const declared = npmFacts(outcome.evidence)?.keywords ?? [];
  const keywords = queryKeywords(specificKeywords(declared));
  const curated = curatedReplacementsFor(report.target.name);
  const notes = [...(category === 'mcp-server' ? [NOTE_MCP] : []), ...nativeNote(report.target.name, curated)];
  const curatedPeers = curatedCandidates(report.target.name, curated);
  const sources = curatedPeers.length > 0 ? ['npm-search', CURATED_SOURCE] : ['npm-search'];

  const base = runtime.endpoints.npmSearch ?? runtime.npm.registry;
  const search =
    keywords.length === 0
      ? null
      : await searchNpm(runtime.callContext(request).http, base, { keywords, size: Math.min(SEARCH_MAX_SIZE, Math.max(limit * 3, 25)) });

  if (search === null || search.status === 'unavailable') {
    const reason =
      search !== null
        ? search.reason
        : declared.length === 0
          ? 'the package declares no keyword to search its peers by'
          : `the package declares only generic keywords (${queryKeywords(declared, 3).join(', ')}) to search its peers by`;
    // The curated list still names alternatives; the standing needs the search's sample.
    const peers = await evaluate(runtime, curatedPeers, request);
    const result = compareToPeers(report, peers, { sources, query: search?.query ?? null, candidates: curatedPeers.length, skipped: 0, evaluatedAt, notes });
    // The notes keep what the curated list names and was not offered (report/comparison.ts).
    const kept = result.comparison?.sample.notes ?? result.comparisonUnavailable?.notes ?? notes;
    // No keyword to search by: nothing was asked.
    const sourceCode = search !== null ? search.code : 'not-asked';
    return { comparison: null, comparisonUnavailable: { code: 'search-unavailable', sourceCode, reason, notes: kept }, alternatives: result.alternatives };
  }

  const targetKeywords = new Set(keywords);
  const curatedNames = new Set(curatedPeers.map((c) => c.target.name));
  const listings = search.listings.filter((l) => l.name !== report.target.name);
  const chosen: Candidate[] = [];
  for (const listing of listings) {
    if (chosen.length === limit) break;
    const shared = listing.keywords.filter((k) => targetKeywords.has(k));
    if (shared.length === 0 || !sameCategoryByListing(listing.keywords, listing.description, category) || curatedNames.has(listing.name)) continue;
    const target = targetOf(listing.name);
    if (target !== null) chosen.push({ target, sharedKeywords: shared, curated: null });
  }
  // A curated replacement the search also found carries both reasons.
  const curatedWithKeywords = curatedPeers.map((c) => {
    const listing = listings.find((l) => l.name === c.target.name);
    return listing === undefined ? c : { ...c, sharedKeywords: listing.keywords.filter((k) => targetKeywords.has(k)) };
  });
  const peers = await evaluate(runtime, [...chosen, ...curatedWithKeywords], request);
  const searchedAlso = curatedWithKeywords.filter((c) => c.sharedKeywords.length > 0).length;
  return compareToPeers(report, peers, {
    sources,
    query: search.query,
    candidates: listings.length + curatedPeers.length - searchedAlso,
    skipped: listings.length - chosen.length - searchedAlso,
    evaluatedAt,
    notes,
  });
}

/** The comparison from a search's candidates (MCP Registry, GitHub): null with the reason when it failed, never an average. */
async function compareFound(runtime: Runtime, report: Report, found: PeerSearch, request: PeersRequest, evaluatedAt: string): Promise<ComparisonResult> {
  if (found.status === 'unavailable') {
    return { comparison: null, comparisonUnavailable: { code: 'search-unavailable', sourceCode: found.code, reason: found.reason, notes: found.notes }, alternatives: [] };
  }
  const peers = await evaluate(runtime, found.chosen, request);
  return compareToPeers(report, peers, {
    sources: [found.source],
    query: found.query,
    candidates: found.listed,
    skipped: found.listed - found.chosen.length,
    evaluatedAt,
    notes: found.notes,
    ...(found.unevaluated.length === 0 ? {} : { unevaluated: found.unevaluated.map((c) => ({ target: c.target.name, code: 'rate-limited' as const })) }),
  });
}

/** A report with its comparison (the JSON contract's optional members, in place). */
export function withComparison(report: Report, result: ComparisonResult): Report {
  return {
    ...report,
    comparison: result.comparison,
    ...(result.comparisonUnavailable === undefined ? {} : { comparisonUnavailable: result.comparisonUnavailable }),
    alternatives: result.alternatives,
  };
}

export interface CompareTargetsRequest extends CallOptions {
  targets: readonly Target[];
  /** How the targets are evaluated (default: `checkTargets`, concurrently). */
  evaluateTargets?: EvaluateTargets;
}

/** `nerq compare`: every target evaluated (concurrently), and the side-by-side view of them. */
export async function compareTargets(
  runtime: Runtime,
  request: CompareTargetsRequest,
): Promise<{ outcomes: TargetOutcome[]; comparison: SideBySide }> {
  const { evaluateTargets, ...call } = request;
  const outcomes = evaluateTargets === undefined ? await checkTargets(runtime, { ...call, concurrency: request.targets.length }) : await evaluateTargets(request.targets);
  return { outcomes, comparison: sideBySide(outcomes.map((o) => o.report)) };
}
