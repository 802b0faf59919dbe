/** The mcp-runtime-reach check on written MCP entry facts (end to end on real entries: test/cli/check-mcp.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpRuntimeReach from '../../src/checks/mcp-runtime-reach.js';
import { NOW, pkg, facts } from './mcp-support.js';

describe('mcp-runtime-reach', () => {
  it('each widening argument is named; secrets listed by name', () => {
    const out = mcpRuntimeReach.evaluate({ mcp: facts({ packages: [pkg({ registryType: 'oci', runtimeArguments: ['--privileged', '-v /var/run/docker.sock:/var/run/docker.sock', '--pid host'], secretVariables: ['TOKEN'] })] }) }, NOW);
    expect(out.data?.findings).toEqual(['privileged', 'docker-socket', 'host-pid']);
    expect(out.caps?.[0]?.id).toBe('mcp-widened-reach');
  });
});
