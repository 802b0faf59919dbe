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
  it('a claim that differs from the entry only in letter case is this server (a DNS name or a GitHub account is case-blind); another name is a mismatch', () => {
    // Real pairs: the 2025-09 production seed lists io.github.glips/figma-context-mcp, while figma-developer-mcp's later package.json says io.github.GLips/Figma-Context-MCP.
    const claiming = (name: string) => facts({ name: 'io.github.glips/figma-context-mcp', packages: [pkg({ claim: { known: true, name, where: 'package.json mcpName' } })] });
    expect(mcpPackageOwnership.evaluate({ mcp: claiming('io.github.GLips/Figma-Context-MCP') }, NOW)).toMatchObject({ score: 100, messageId: 'all-match' });
    const other = mcpPackageOwnership.evaluate({ mcp: claiming('io.github.GLips/Figma-Context') }, NOW);
    expect(other).toMatchObject({ score: 0, messageId: 'mismatch' });
    expect(other.caps?.[0]?.id).toBe('mcp-ownership-mismatch');
  });
  it('an unreadable claim is unknown; OCI only is not applicable', () => {
    expect(mcpPackageOwnership.evaluate({ mcp: facts({ packages: [pkg({ claim: { known: false, name: null, where: 'package.json mcpName' } })] }) }, NOW)).toMatchObject({ score: null, messageId: 'unknown' });
    expect(mcpPackageOwnership.evaluate({ mcp: facts({ packages: [pkg({ registryType: 'oci', claim: null })] }) }, NOW).notApplicable).toBe(true);
  });
});
