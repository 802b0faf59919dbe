/**
 * MCP ignore entries (`{ mcp, file?, finding?, reason, expires? }` in the policy's `ignore`;
 * README.md, "The policy file"): which findings of `nerq audit --mcp` they cover, and which match
 * nothing. A finding is about one configured server — its key in one configuration file — or,
 * for `mcp-entry-policy`, about the MCP Registry entry a remote server was matched to. An entry's
 * `mcp` matches the server's key or the entry's registry name exactly (no case folding, no
 * substring); with `file`, only in that configuration file (as the report names it), else in
 * every one read. A finding no review can accept (MCP_NEVER_IGNORED) is never covered. Pure.
 */
import { sanitizeForTerminal } from '../../render/sanitize.js';
import { ignoreLabel, isExpired } from '../policy-ignore.js';
import type { IgnoreEntry, McpIgnoreEntry } from '../policy-schema.js';
import { MCP_IGNORABLE, type AuditWarning, type IgnoredBy, type McpIgnorableCode } from '../types.js';

/** One thing an MCP ignore entry can cover. */
export interface McpFindingRef {
  code: McpIgnorableCode;
  /** The configuration file as the report names it (`.mcp.json`, `~/.cursor/mcp.json`). */
  file: string;
  /** The server's key in that file. */
  server: string;
  /** The MCP Registry name, for `mcp-entry-policy`; null otherwise. */
  entry: string | null;
}

export function mcpIgnoreMatches(entry: McpIgnoreEntry, ref: McpFindingRef): boolean {
  if (entry.findings !== null && !entry.findings.includes(ref.code)) return false;
  if (entry.file !== null && entry.file !== ref.file) return false;
  return entry.mcp === ref.server || (ref.entry !== null && entry.mcp === ref.entry);
}

const isMcp = (entry: IgnoreEntry): entry is McpIgnoreEntry => entry.kind === 'mcp';

/** The first unexpired MCP entry covering one of the refs (a registry entry configured in several places), or null. */
export function findMcpIgnore(entries: readonly IgnoreEntry[], refs: readonly McpFindingRef[], now: Date): McpIgnoreEntry | null {
  return entries.find((entry): entry is McpIgnoreEntry => isMcp(entry) && !isExpired(entry, now) && refs.some((ref) => mcpIgnoreMatches(entry, ref))) ?? null;
}

export function mcpIgnoredBy(entry: McpIgnoreEntry): IgnoredBy {
  return { mcp: entry.mcp, file: entry.file, reason: entry.reason, expires: entry.expires };
}

/** What a coded finding is about, when an MCP entry may cover it (its code ignorable, its file and server known). */
export function findingRef(finding: AuditWarning): McpFindingRef | null {
  const code = MCP_IGNORABLE.find((c) => c === finding.code);
  const { file, server } = finding.details;
  if (code === undefined || typeof file !== 'string' || typeof server !== 'string') return null;
  return { code, file, server, entry: null };
}

/** The findings, each an entry covers carrying that entry (`ignoredBy`): listed still, no longer deciding the outcome. */
export function ignoreFindings(findings: readonly AuditWarning[], entries: readonly IgnoreEntry[], now: Date): AuditWarning[] {
  return findings.map((finding) => {
    const ref = findingRef(finding);
    const ignore = ref === null ? null : findMcpIgnore(entries, [ref], now);
    return ignore === null ? finding : { ...finding, ignoredBy: mcpIgnoredBy(ignore) };
  });
}

/**
 * One `ignore-unused` warning per unexpired MCP entry that matches none of the refs (every finding
 * an entry could cover and every matched registry entry, passing or not): a server renamed or
 * removed, or an entry misspelt. It changes nothing in the outcome.
 */
export function unusedMcpIgnores(entries: readonly IgnoreEntry[], refs: readonly McpFindingRef[], now: Date, source: string | null): AuditWarning[] {
  return entries.flatMap((entry, index) => {
    if (!isMcp(entry) || isExpired(entry, now) || refs.some((ref) => mcpIgnoreMatches(entry, ref))) return [];
    const what = entry.findings === null ? 'any finding' : entry.findings.join(', ');
    return [
      {
        code: 'ignore-unused',
        message: sanitizeForTerminal(`${source ?? 'policy'}: ignore[${index}] ${ignoreLabel(entry)} matches no configured MCP server with ${what}; remove it or correct it`),
        details: { index, mcp: entry.mcp, file: entry.file },
      },
    ];
  });
}
