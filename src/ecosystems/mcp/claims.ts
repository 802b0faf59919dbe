/**
 * What a package says about the MCP server it belongs to (the MCP Registry's ownership rules,
 * fixtures/mcp-registry/docs/package-types.mdx): npm's `mcpName` in package.json; PyPI's
 * `mcp-name: <server name>` in the README (the package description), possibly in an HTML
 * comment, followed by a boundary (whitespace, a tag, `-->` or the end). Pure.
 */
import type { Evidence, McpPackageFacts } from '../../evidence/schema.js';

/** A name does not end in `.`: `mcp-name: io.github.a/b.` names nothing (the registry's boundary rule). */
const MCP_NAME_LINE = /mcp-name:\s*([A-Za-z0-9.-]+\/[A-Za-z0-9._-]*[A-Za-z0-9_-])(?=\s|<|-->|$)/g;

/** The `mcp-name:` values of a README, in order (at most 16). */
export function readmeMcpNames(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(MCP_NAME_LINE)) {
    if (match[1] !== undefined && !names.includes(match[1])) names.push(match[1]);
    if (names.length >= 16) break;
  }
  return names;
}

/** The claim a package's own evidence makes about `server`; null for a registry type nerq does not read. */
export function claimOf(evidence: Evidence | null, registryType: string, server: string): McpPackageFacts['claim'] {
  if (registryType === 'npm') {
    const registry = evidence?.sources.registry;
    if (registry?.status !== 'ok') return { known: false, name: null, where: 'package.json mcpName' };
    if (registry.facts.mcpName !== null) return { known: true, name: registry.facts.mcpName, where: 'package.json mcpName' };
    // The resolved version names no server: what the package's other versions name is its
    // publisher's word — this server (an entry pinning a release from before `mcpName` was
    // added), or another one (a look-alike entry pinning a release from before its owner claimed
    // it); a version naming this server is preferred (docs/checks.md, `mcp-package-ownership`).
    const others = registry.facts.otherMcpNames;
    const other = others.find((o) => o.name.toLowerCase() === server.toLowerCase()) ?? others[0];
    if (other === undefined) return { known: true, name: null, where: 'package.json mcpName' };
    // Another server of the same namespace is the same publisher under another name (the registry
    // authenticates namespaces at publish): a rename, not a look-alike — unclaimed, not a mismatch.
    const namespaceOf = (n: string) => n.slice(0, n.indexOf('/') + 1).toLowerCase();
    if (other.name.toLowerCase() !== server.toLowerCase() && namespaceOf(other.name) !== '' && namespaceOf(other.name) === namespaceOf(server)) {
      return { known: true, name: null, where: `package.json mcpName (version ${registry.facts.version} names none; version ${other.version} names ${other.name}, of the same namespace)` };
    }
    return { known: true, name: other.name, where: `package.json mcpName (of version ${other.version}; version ${registry.facts.version} names none)` };
  }
  if (registryType === 'pypi') {
    const pypi = evidence?.sources.pypi;
    if (pypi?.status !== 'ok' || pypi.facts.description === null) return { known: false, name: null, where: 'README mcp-name' };
    const names = readmeMcpNames(pypi.facts.description.text);
    // Several lines may name several servers: the one naming this server (letter case aside) is its claim.
    const own = names.find((n) => n.toLowerCase() === server.toLowerCase());
    // A README cut short (its first 256 KiB kept) that names no server may name one past the cut: unknown, not "names none".
    if (own === undefined && names.length === 0 && pypi.facts.description.truncated) return { known: false, name: null, where: 'README mcp-name' };
    return { known: true, name: own ?? names[0] ?? null, where: 'README mcp-name' };
  }
  return null;
}
