/** The mcp-package-ownership check on written MCP entry facts (end to end on real entries: test/cli/check-mcp.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpPackageOwnership from '../../src/checks/mcp-package-ownership.js';
import { NOW, pkg, facts } from './mcp-support.js';

describe('mcp-package-ownership', () => {
  it('a package that names no server holds the verdict', () => {
    const out = mcpPackageOwnership.evaluate({ mcp: facts({ packages: [pkg({ claim: { known: true, name: null, where: 'README mcp-name' } })] }) }, NOW);
    expect(out).toMatchObject({ score: 50, messageId: 'unclaimed' });
    expect(out.holdVerdict).toBeDefined();
  });
  it('an unreadable claim is unknown; OCI only is not applicable', () => {
    expect(mcpPackageOwnership.evaluate({ mcp: facts({ packages: [pkg({ claim: { known: false, name: null, where: 'package.json mcpName' } })] }) }, NOW)).toMatchObject({ score: null, messageId: 'unknown' });
    expect(mcpPackageOwnership.evaluate({ mcp: facts({ packages: [pkg({ registryType: 'oci', claim: null })] }) }, NOW).notApplicable).toBe(true);
  });
});
