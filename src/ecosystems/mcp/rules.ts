/** MCP Registry servers' rules (the interface: ecosystems/types.ts): an entry, not a package registry. */
import type { EcosystemRules } from '../types.js';
import { MCP_TARGET_SYNTAX } from './target-syntax.js';

export const MCP_RULES = {
  id: 'mcp',
  displayName: 'MCP Registry',
  canonicalName: (name) => name,
  versionLabel: (name, version) => `${name}@${version}`,
  specLabel: (name, spec) => `${name}@${spec}`,
  syntax: MCP_TARGET_SYNTAX,
  registry: null,
} as const satisfies EcosystemRules;
