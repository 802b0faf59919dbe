import type { Adapter } from '../adapter.js';
import { MCP_RULES } from './rules.js';

// The collector is loaded when a target of this ecosystem is first collected, so a run loads only
// the ecosystems it evaluates (docs/architecture.md, "Start-up").
export const MCP_ADAPTER: Adapter = {
  rules: MCP_RULES,
  collect: async (target, ctx, checkNested) => (await import('./collect.js')).collectMcpTarget(target, ctx, checkNested),
};
