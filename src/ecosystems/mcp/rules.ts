/** MCP Registry servers' rules (the interface: ecosystems/types.ts): an entry, not a package registry. */
import type { EcosystemRules } from '../types.js';

export const MCP_RULES = {
  id: 'mcp',
  displayName: 'MCP Registry',
  canonicalName: (name) => name,
  versionLabel: (name, version) => `${name}@${version}`,
  specLabel: (name, spec) => `${name}@${spec}`,
  registry: null,
} as const satisfies EcosystemRules;
