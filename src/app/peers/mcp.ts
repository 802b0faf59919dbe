/**
 * Peers of an `mcp:` target: the MCP Registry's search (`GET /v0.1/servers?search=…&version=latest`,
 * cursor paging, through the registry client and its cache) by the words of the entry's name,
 * then of its description. The registry matches a word anywhere in a server's name, so a
 * listing is kept only when its own name or description words share one with the target's; the
 * rest are evaluated as `mcp:` targets (docs/scoring.md §13).
 */
import type { Evidence } from '../../evidence/schema.js';
import { sanitizeForTerminal } from '../../render/sanitize.js';
import { searchServers, SEARCH_MAX_PAGES, SEARCH_PAGE_SIZE, type McpEntry } from '../../sources/mcp-registry/read.js';
import { parseTarget } from '../../target/parse.js';
import type { Target } from '../../target/types.js';
import type { CallOptions, Runtime } from '../runtime.js';
import { withinRateLimit, type Candidate, type PeerSearch } from './candidate.js';

export const MCP_SEARCH_SOURCE = 'mcp-registry-search';
/** Searches sent at most (each reads up to SEARCH_MAX_PAGES pages). */
export const MCP_SEARCH_WORDS = 2;

/** Words that say nothing of what a server does (every entry is an MCP server). */
const GENERIC = new Set([
  'mcp', 'server', 'servers', 'model', 'context', 'protocol', 'official', 'the', 'and', 'for', 'with', 'from', 'into', 'your',
  'you', 'that', 'this', 'using', 'use', 'via', 'api', 'apis', 'tool', 'tools', 'access', 'allows', 'provides', 'data', 'client',
  'clients', 'github', 'com', 'io', 'app', 'integration', 'support', 'simple', 'based', 'llm', 'llms', 'agent', 'agents', 'search',
]);

/** The words of a text that can be asked for: 3–30 lower-case letters or digits, generic ones left out (escape sequences removed first). */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  for (const raw of sanitizeForTerminal(text).toLowerCase().split(/[^a-z0-9]+/)) {
    if (/^[a-z0-9]{3,30}$/.test(raw) && !/^\d+$/.test(raw) && !GENERIC.has(raw) && !words.includes(raw)) words.push(raw);
  }
  return words;
}

/** `namespace/name` → the words of `name` (the namespace is its owner's reverse DNS). */
function nameWords(serverName: string): string[] {
  return searchWords(serverName.slice(serverName.indexOf('/') + 1));
}

function entryWords(entry: McpEntry): Set<string> {
  return new Set([...nameWords(entry.server.name), ...searchWords(entry.server.description ?? '')]);
}

/** A target text nerq accepts for a server name from the registry, or null. */
function entryTarget(name: string): Target | null {
  try {
    const target = parseTarget(`mcp:${name}`);
    return target.ecosystem === 'mcp' && target.name === name ? target : null;
  } catch {
    return null;
  }
}

export async function findMcpPeers(runtime: Runtime, evidence: Evidence | null, request: CallOptions & { limit: number }): Promise<PeerSearch> {
  const mcp = evidence?.sources.mcp;
  if (mcp?.status !== 'ok') return { status: 'unavailable', reason: "MCP Registry search: the entry's facts to search by are not at hand", code: 'depends-on-source', notes: [] };
  const own = [...nameWords(mcp.facts.name), ...searchWords(mcp.facts.description ?? '')];
  const targetWords = new Set(own);
  const words = [...targetWords].slice(0, MCP_SEARCH_WORDS);
  if (words.length === 0) return { status: 'unavailable', reason: "MCP Registry search: the entry's name and description give no word to search by", code: 'not-asked', notes: [] };

  const ctx = runtime.callContext(request);
  const read = { http: ctx.http, base: runtime.endpoints.mcpRegistry };
  const searches = await Promise.all(words.map((word) => searchServers(read, word)));
  const failed = searches.find((s) => s.status === 'unavailable');
  if (failed !== undefined && failed.status === 'unavailable') return { status: 'unavailable', reason: failed.reason, code: failed.code, notes: [] };

  const listed = new Map<string, McpEntry>();
  const partial: string[] = [];
  searches.forEach((search, i) => {
    if (search.status !== 'ok') return;
    if (!search.complete) partial.push(words[i]!);
    for (const entry of search.entries) if (entry.server.name !== mcp.facts.name && !listed.has(entry.server.name)) listed.set(entry.server.name, entry);
  });
  const ranked = [...listed.values()]
    .map((entry) => ({ entry, shared: [...entryWords(entry)].filter((w) => targetWords.has(w)) }))
    .filter((c) => c.shared.length > 0)
    // Most words in common first, then by name (the registry's order is by name).
    .sort((a, b) => b.shared.length - a.shared.length || a.entry.server.name.localeCompare(b.entry.server.name));
  const chosen: Candidate[] = [];
  for (const { entry, shared } of ranked) {
    if (chosen.length === request.limit) break;
    const target = entryTarget(entry.server.name);
    if (target !== null) chosen.push({ target, sharedKeywords: shared, curated: null });
  }
  const cut = partial.map((w) => `the MCP Registry lists more than ${SEARCH_MAX_PAGES * SEARCH_PAGE_SIZE} servers matching "${w}": the first ${SEARCH_MAX_PAGES * SEARCH_PAGE_SIZE} were read`);
  // An entry is evaluated with its repository on GitHub: what the target's evaluation left of GitHub's REST budget decides how many.
  const budget = withinRateLimit(chosen, runtime.githubToken !== null, ctx.githubLimiter.remaining(runtime.endpoints.githubApi, ctx.now));
  return {
    status: 'ok',
    source: MCP_SEARCH_SOURCE,
    query: words.map((w) => `search=${w}`).join('; '),
    listed: listed.size,
    chosen: budget.chosen,
    unevaluated: budget.unevaluated,
    notes: [...budget.notes, ...cut],
  };
}
