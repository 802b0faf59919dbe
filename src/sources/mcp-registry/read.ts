/**
 * The MCP Registry read API v0.1 (fixtures/mcp-registry/openapi.yaml):
 *
 * - `GET {base}/v0.1/servers/{name}/versions/{version|latest}` — one entry, the name as ONE
 *   percent-encoded segment. 404 → not-found.
 * - `GET {base}/v0.1/servers?search=…&version=latest&limit=…&cursor=…` — the latest entry of
 *   every server whose name contains the word, page by page (`metadata.nextCursor`).
 *
 * Never throws: a failed request, a body over the cap, malformed JSON or an answer of another
 * shape is `unavailable` with a one-line reason.
 */
import type { HttpClient } from '../http/types.js';
import { joinUrl, withQuery } from '../http/url.js';
import { oneLine } from '../http/one-line.js';
import { httpFailureCode, type SourceUnavailableCode } from '../../model/source-codes.js';
import {
  McpServerListSchema,
  McpServerResponseSchema,
  OFFICIAL_META,
  type McpOfficialMeta,
  type McpServerDetail,
} from './schema.js';

/** An entry is a few KiB; a page of 100 a few hundred. */
export const ENTRY_MAX_BYTES = 1024 * 1024;
export const PAGE_MAX_BYTES = 4 * 1024 * 1024;
/** Entries asked for per search page, and the pages read at most (a bare word is narrow). */
export const SEARCH_PAGE_SIZE = 100;
export const SEARCH_MAX_PAGES = 5;

export interface McpEntry {
  server: McpServerDetail;
  /** The registry's status (`_meta`); null when the answer carried none. */
  official: McpOfficialMeta | null;
}

export type EntryResult =
  | { status: 'ok'; entry: McpEntry }
  | { status: 'not-found'; reason: string }
  | { status: 'unavailable'; reason: string };

export type SearchResult =
  /**
   * `unreadable`: entries left out because nerq cannot read them (an answer of another shape); the
   * list is then not complete, so no single match is picked from it. `cursorRepeated`: the
   * registry sent a cursor it had sent before — its list did not end, so it is not complete either.
   */
  | { status: 'ok'; entries: McpEntry[]; pages: number; complete: boolean; unreadable: number; cursorRepeated: boolean }
  | { status: 'unavailable'; reason: string; code: SourceUnavailableCode };

export interface RegistryReadContext {
  http: HttpClient;
  /** The registry's base URL (endpoints.ts, NERQ_MCP_REGISTRY_URL). */
  base: string;
  signal?: AbortSignal;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** First zod issue as one line: where and what. */
function shapeReason(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const first = issues[0];
  if (first === undefined) return 'unexpected answer';
  const where = first.path.map(String).join('.') || 'answer';
  return oneLine(`unexpected answer (${where}: ${first.message})`);
}

export async function fetchServerEntry(ctx: RegistryReadContext, name: string, version: string): Promise<EntryResult> {
  const url = joinUrl(ctx.base, 'v0.1', 'servers', name, 'versions', version);
  const response = await ctx.http.request({ url, maxBytes: ENTRY_MAX_BYTES, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  if (!response.ok) {
    if (response.kind === 'status' && response.status === 404) {
      return { status: 'not-found', reason: `${name}${version === 'latest' ? '' : `@${version}`} is not in the MCP Registry` };
    }
    return { status: 'unavailable', reason: `MCP Registry: ${response.reason}` };
  }
  const parsed = McpServerResponseSchema.safeParse(parseJson(response.body));
  if (!parsed.success) return { status: 'unavailable', reason: `MCP Registry: ${shapeReason(parsed.error.issues)}` };
  const official = parsed.data._meta?.[OFFICIAL_META] ?? null;
  // A deleted entry is gone for every purpose (the registry keeps it for its own history).
  if (official?.status === 'deleted') return { status: 'not-found', reason: `${name} was deleted from the MCP Registry` };
  if (parsed.data.server.name !== name) {
    return { status: 'unavailable', reason: oneLine(`MCP Registry answered for another server (${parsed.data.server.name})`) };
  }
  // Another version than the one asked for, or — asked for the latest — one the registry's own
  // metadata says is not the latest: an answer that contradicts itself is not scored as the entry.
  if (version !== 'latest' && parsed.data.server.version !== version) {
    return { status: 'unavailable', reason: oneLine(`MCP Registry answered for another version (${parsed.data.server.version})`) };
  }
  if (version === 'latest' && official?.isLatest === false) {
    return { status: 'unavailable', reason: oneLine(`MCP Registry answered for the latest version with ${parsed.data.server.version}, which it marks not latest`) };
  }
  return { status: 'ok', entry: { server: parsed.data.server, official } };
}

/** Every server whose name contains `word` (latest versions), following the cursor. */
export async function searchServers(ctx: RegistryReadContext, word: string): Promise<SearchResult> {
  const entries: McpEntry[] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  // Entries nerq cannot read are left out one by one (a whole search refused for one odd entry
  // would hide every other server); the first one's reason is kept for a search of nothing else.
  let unreadable = 0;
  let firstUnreadable: string | null = null;
  const done = (pages: number, complete: boolean, cursorRepeated = false): SearchResult =>
    entries.length === 0 && firstUnreadable !== null
      ? { status: 'unavailable', reason: `MCP Registry search: ${firstUnreadable}`, code: 'bad-answer' }
      : { status: 'ok', entries, pages, complete: complete && unreadable === 0, unreadable, cursorRepeated };
  for (let page = 1; page <= SEARCH_MAX_PAGES; page++) {
    const url = withQuery(joinUrl(ctx.base, 'v0.1', 'servers'), { search: word, version: 'latest', limit: SEARCH_PAGE_SIZE, cursor });
    const response = await ctx.http.request({ url, maxBytes: PAGE_MAX_BYTES, ...(ctx.signal ? { signal: ctx.signal } : {}) });
    if (!response.ok) return { status: 'unavailable', reason: `MCP Registry search: ${response.reason}`, code: httpFailureCode(response) };
    const parsed = McpServerListSchema.safeParse(parseJson(response.body));
    if (!parsed.success) return { status: 'unavailable', reason: `MCP Registry search: ${shapeReason(parsed.error.issues)}`, code: 'bad-answer' };
    for (const [index, raw] of parsed.data.servers.entries()) {
      const item = McpServerResponseSchema.safeParse(raw);
      if (!item.success) {
        unreadable += 1;
        firstUnreadable ??= shapeReason(item.error.issues.map((i) => ({ ...i, path: ['servers', index, ...i.path] })));
        continue;
      }
      const official = item.data._meta?.[OFFICIAL_META] ?? null;
      if (official?.status === 'deleted') continue;
      entries.push({ server: item.data.server, official });
    }
    const next = parsed.data.metadata?.nextCursor ?? undefined;
    // An absent or empty cursor ends the list. A repeated one would loop forever: the search stops,
    // but the registry still says there is more, so what was read is not the whole list.
    if (next === undefined || next === '') return done(page, true);
    if (seen.has(next)) return done(page, false, true);
    seen.add(next);
    cursor = next;
  }
  return done(SEARCH_MAX_PAGES, false);
}
