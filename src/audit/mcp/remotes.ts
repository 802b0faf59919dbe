/**
 * The remote MCP servers of the audited configurations, matched to the MCP Registry entry whose
 * `remotes[]` declare their URL (README.md, "nerq audit --mcp"): the registry is searched with
 * the words of the URL's host (its search is a substring match on names; remote-url.ts), and
 * an entry matches when one of its remotes is the configured URL — scheme, host and path, the
 * query string and credentials never compared, kept nor sent. A matched server is audited as
 * that entry (an `mcp` subject, evaluated like `nerq check mcp:<name>@<version>`); a URL no
 * entry declares, several entries declare, or the registry could not be asked about is
 * unverified: a coded warning that leaves the run incomplete, never a passing entry.
 */
import type { RunContext } from '../../pipeline/context.js';
import { searchServers, type McpEntry, type RegistryReadContext, type SearchResult } from '../../sources/mcp-registry/read.js';
import { quote } from '../../lockfiles/text.js';
import type { AuditSubject, AuditWarning } from '../types.js';
import type { ConfiguredRemote } from './inputs.js';
import type { McpFindingRef } from './ignore.js';
import { remoteUrlMatches, searchWordsOf } from './remote-url.js';

export interface MatchedRemotes {
  /** One `mcp` subject per matched entry (name and version), declared where each URL is configured. */
  subjects: AuditSubject[];
  /** Each subject's configured servers (by `name@version`), as MCP ignore entries match them (`mcp-entry-policy`). */
  servers: Map<string, McpFindingRef[]>;
  /** `mcp-remote-unverified`, one per unmatched server; `mcp-remote-insecure`, one per server reached over http. */
  unverified: AuditWarning[];
  insecure: AuditWarning[];
}

/** The entries declaring `url` among those searched; `unavailable` when a search failed and none matched. */
async function entriesDeclaring(
  url: string,
  search: (word: string) => Promise<SearchResult>,
): Promise<{ entries: McpEntry[]; unavailable: string | null; words: string[] }> {
  const words = searchWordsOf(url);
  const found = new Map<string, McpEntry>();
  let unavailable: string | null = null;
  for (const word of words) {
    const result = await search(word);
    if (result.status !== 'ok') {
      unavailable ??= result.reason;
      continue;
    }
    for (const entry of result.entries) {
      if ((entry.server.remotes ?? []).some((r) => remoteUrlMatches(url, r.url))) found.set(`${entry.server.name}@${entry.server.version}`, entry);
    }
    // An entry the search returned that nerq could not read may be the one declaring the URL:
    // none found is then not "not declared".
    if (result.unreadable > 0) unavailable ??= `${result.unreadable} entr${result.unreadable === 1 ? 'y' : 'ies'} it returned could not be read`;
    if (found.size > 0) break;
  }
  return { entries: [...found.values()], unavailable: found.size > 0 ? null : unavailable, words };
}

export async function matchRemotes(remotes: readonly ConfiguredRemote[], ctx: Pick<RunContext, 'http' | 'endpoints'>): Promise<MatchedRemotes> {
  const read: RegistryReadContext = { http: ctx.http, base: ctx.endpoints.mcpRegistry };
  // One search per word per run, however many servers share a host.
  const searches = new Map<string, Promise<SearchResult>>();
  const search = (word: string) => {
    let pending = searches.get(word);
    if (pending === undefined) searches.set(word, (pending = searchServers(read, word)));
    return pending;
  };
  const subjects = new Map<string, AuditSubject>();
  const servers = new Map<string, McpFindingRef[]>();
  const unverified: AuditWarning[] = [];
  const insecure: AuditWarning[] = [];
  for (const remote of remotes) {
    const where = `${remote.file}: line ${remote.line ?? '?'}`;
    const base = { file: remote.file, line: remote.line, server: remote.server, origin: remote.origin };
    if (remote.insecure) {
      insecure.push({
        code: 'mcp-remote-insecure',
        message: `${where}: ${remote.who} is reached over http at ${quote(remote.origin)}, not https: fails the policy`,
        details: base,
      });
    }
    const { entries, unavailable, words } = await entriesDeclaring(remote.url, search);
    const entry = entries.length === 1 ? entries[0] : undefined;
    if (entry !== undefined) {
      const { name, version } = entry.server;
      const key = `${name}@${version}`;
      const known = subjects.get(key);
      const declared = { file: remote.file, line: remote.line, workspace: null };
      servers.set(key, [...(servers.get(key) ?? []), { code: 'mcp-entry-policy', file: remote.file, server: remote.server, entry: name }]);
      if (known !== undefined) known.declaredIn.push(declared);
      else subjects.set(key, { ecosystem: 'mcp', name, version, spec: null, direct: true, dev: false, declaredIn: [declared], resolved: null, via: [] });
      continue;
    }
    const why =
      entries.length > 1
        ? { reason: 'ambiguous', text: `${entries.length} MCP Registry entries declare its URL (${entries.map((e) => e.server.name).sort().join(', ')})` }
        : unavailable !== null
          ? { reason: 'registry-unavailable', text: `the MCP Registry could not be asked (${unavailable})` }
          : words.length === 0
            ? { reason: 'no-search-word', text: 'its host names nothing the MCP Registry can be searched for' }
            : { reason: 'not-declared', text: 'no MCP Registry entry declares its URL' };
    unverified.push({
      code: 'mcp-remote-unverified',
      message: `${where}: ${remote.who} at ${quote(remote.origin)} is unverified: ${why.text}, and its code cannot be inspected`,
      details: { ...base, reason: why.reason, candidates: entries.map((e) => e.server.name).sort() },
    });
  }
  return { subjects: [...subjects.values()], servers, unverified, insecure };
}
