/** The mcp-packages check on written MCP entry facts (end to end on real entries: test/cli/check-mcp.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpPackages from '../../src/checks/mcp-packages.js';
import { NOW, pkg, facts } from './mcp-support.js';

describe('mcp-packages', () => {
  it('scores the weakest package and caps the entry there', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg(), pkg({ target: 'pypi:w==1', evaluation: { ...pkg().evaluation!, score: 42.5 } })] }) }, NOW);
    expect(out).toMatchObject({ score: 42.5, messageId: 'weakest' });
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-package-weakest', limit: 42.5, ceiling: true });
  });
  it('a package held below YES (a guarding check could not run) holds the entry at CAUTION; a YES package does not', () => {
    const held = mcpPackages.evaluate({ mcp: facts({ packages: [pkg(), pkg({ target: 'npm:held@1.0.0', evaluation: { ...pkg().evaluation!, score: 91.8, verdictCode: 'caution' } })] }) }, NOW);
    expect(held.holdVerdict).toMatch(/npm:held@1\.0\.0/);
    expect(mcpPackages.evaluate({ mcp: facts({ packages: [pkg()] }) }, NOW).holdVerdict).toBeUndefined();
  });
  it('a do-not-use package makes the entry do-not-use', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg({ evaluation: { ...pkg().evaluation!, score: 0, verdictCode: 'do-not-use', doNotUse: true } })] }) }, NOW);
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-package-do-not-use', doNotUse: true });
  });
  it('a registry that could not answer leaves it unknown (not missing)', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [pkg({ evaluation: { ...pkg().evaluation!, score: null, error: 'registry-unavailable' } })] }) }, NOW);
    expect(out).toMatchObject({ score: null, messageId: 'none-evaluated' });
    // …and what nothing evaluated cannot score as vouched for.
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-uninspected', limit: 69.9 });
  });
  it('a remote-only entry: not applicable', () => {
    const remote = { url: 'https://mcp.example.com/mcp', type: 'streamable-http', headers: [], secretHeaders: [] };
    expect(mcpPackages.evaluate({ mcp: facts({ packages: [], remotes: [remote] }) }, NOW).notApplicable).toBe(true);
  });
  it('an entry with neither a package nor a remote: unknown, capped as uninspected (it scored 100 on its own checks)', () => {
    const out = mcpPackages.evaluate({ mcp: facts({ packages: [], remotes: [] }) }, NOW);
    expect(out).toMatchObject({ score: null, messageId: 'nothing-to-run' });
    expect(out.notApplicable).toBeUndefined();
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-uninspected', limit: 69.9 });
  });
});
