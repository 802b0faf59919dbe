/**
 * How an MCP Registry server is written as a target (docs/architecture.md, "Add an ecosystem"):
 * `mcp:namespace/name[@version]` or `mcp:word[@version]`; no package URL type.
 */
import { fail, quoteForMessage, scopeIfAt } from '../../target/syntax.js';
import type { Target } from '../../target/types.js';
import type { TargetSyntax } from '../types.js';

/** The registry's server name (server.schema.json `ServerDetail.name`): `namespace/name`. */
const MCP_SERVER_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
/** A bare word searched for in the registry (`mcp:filesystem`). */
const MCP_SEARCH_WORD = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/;
/** A registry version: an exact version or `latest` (the registry rejects ranges). */
const MCP_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,254}$/;

/**
 * True for a server name nerq accepts: `namespace/name`, the namespace reverse DNS (no leading,
 * trailing or doubled dot), letters, digits, ".", "_" and "-" only, at most 200 characters. The
 * same rule for a name a user types and one a registry search returns (docs/security.md).
 */
export function isMcpServerName(name: string): boolean {
  if (name.length > 200 || !MCP_SERVER_NAME.test(name)) return false;
  const namespace = name.slice(0, name.indexOf('/'));
  return !namespace.startsWith('.') && !namespace.endsWith('.') && !namespace.includes('..');
}

/**
 * `mcp:namespace/name[@version]` (the namespace is reverse DNS: `io.github.owner/server`) or
 * `mcp:word[@version]`, a search in the registry. README.md, "MCP servers".
 */
function parseMcp(input: string, text: string): Target {
  if (text.includes('%')) fail('percent-encoding is not allowed in an MCP server name');
  const at = text.indexOf('@');
  const name = at < 0 ? text : text.slice(0, at);
  if (name === '') fail('missing MCP server name (expected mcp:namespace/name, e.g. mcp:io.github.owner/server)');
  if (name.includes('/')) {
    if (!isMcpServerName(name)) {
      fail(`invalid MCP server name ${quoteForMessage(name)}: expected a reverse-DNS namespace, "/" and a name (letters, digits, ".", "_", "-")`);
    }
  } else if (!MCP_SEARCH_WORD.test(name) || name.length > 100) {
    fail(`invalid MCP server name ${quoteForMessage(name)}: expected namespace/name or one word to search for`);
  }
  if (at < 0) return { input, ecosystem: 'mcp', name };
  const version = text.slice(at + 1);
  if (!MCP_VERSION.test(version)) {
    fail(`invalid MCP server version ${quoteForMessage(version)}: an exact version or "latest" (ranges are not served by the registry)`);
  }
  return { input, ecosystem: 'mcp', name, spec: version };
}

export const MCP_TARGET_SYNTAX: TargetSyntax = { prefixed: parseMcp, purl: null, purlName: scopeIfAt };
