/**
 * Every ecosystem's adapter, one entry each: a new ecosystem is a folder beside npm/, pypi/,
 * github/ and mcp/ plus one line here and one in ecosystems/rules.ts (docs/architecture.md).
 */
import type { Ecosystem } from '../target/types.js';
import type { Adapter } from './adapter.js';
import { GITHUB_ADAPTER } from './github/adapter.js';
import { MCP_ADAPTER } from './mcp/adapter.js';
import { NPM_ADAPTER } from './npm/adapter.js';
import { PYPI_ADAPTER } from './pypi/adapter.js';

export const ADAPTERS: Record<Ecosystem, Adapter> = {
  npm: NPM_ADAPTER,
  pypi: PYPI_ADAPTER,
  github: GITHUB_ADAPTER,
  mcp: MCP_ADAPTER,
};
