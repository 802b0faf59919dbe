import type { Adapter } from '../adapter.js';
import { collectMcpTarget } from './collect.js';
import { MCP_RULES } from './rules.js';

export const MCP_ADAPTER: Adapter = { rules: MCP_RULES, collect: collectMcpTarget };
