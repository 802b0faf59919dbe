/** Written MCP entry facts for the `mcp-*` check tests (test/checks/mcp-*.test.ts). */
import type { McpFacts, McpPackageFacts } from '../../src/evidence/schema.js';

export const NOW = { now: new Date('2026-11-30T00:00:00Z') };
export const SERVER = 'io.github.acme/weather';

export function pkg(extra: Partial<McpPackageFacts> = {}): McpPackageFacts {
  return {
    registryType: 'npm',
    identifier: 'weather-mcp',
    version: '1.0.0',
    target: 'npm:weather-mcp@1.0.0',
    evaluation: { score: 80, grade: 'A', verdictCode: 'yes', coverage: 0.9, doNotUse: false, category: 'mcp-server', error: null },
    notEvaluated: null,
    claim: { known: true, name: SERVER, where: 'package.json mcpName' },
    runtimeHint: 'npx',
    runtimeArguments: [],
    secretVariables: [],
    ...extra,
  };
}

export function facts(extra: Partial<McpFacts> = {}): McpFacts {
  return {
    name: SERVER,
    version: '1.0.0',
    description: null,
    status: 'active',
    statusUnrecognised: null,
    statusMessage: null,
    isLatest: true,
    publishedAt: null,
    repositoryUrl: 'https://github.com/acme/weather',
    repositoryOwner: 'acme',
    repositoryId: null,
    repositorySubfolder: null,
    packages: [pkg()],
    remotes: [],
    ...extra,
  };
}
