/** The mcp-namespace-owner check on written MCP entry facts (end to end on real entries: test/cli/check-mcp.test.ts, test/cli/check-mcp-namespace-moved.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpNamespaceOwner from '../../src/checks/mcp-namespace-owner.js';
import type { GithubFacts } from '../../src/evidence/schema.js';
import { NOW, facts } from './mcp-support.js';

/** GitHub's answer for the entry's URL: only the repository's current name (and the one asked, when it moved) is read. */
function github(fullName: string, renamedFrom: string | null = null): GithubFacts {
  return { state: 'present', repository: { fullName, renamedFrom } } as unknown as GithubFacts;
}

describe('mcp-namespace-owner', () => {
  it('case-insensitive match; a domain namespace is not applicable; no repository is unknown', () => {
    expect(mcpNamespaceOwner.evaluate({ mcp: facts({ repositoryOwner: 'ACME' }) }, NOW)).toMatchObject({ score: 100, messageId: 'match' });
    expect(mcpNamespaceOwner.evaluate({ mcp: facts({ name: 'com.example/weather' }) }, NOW).notApplicable).toBe(true);
    expect(mcpNamespaceOwner.evaluate({ mcp: facts({ repositoryOwner: null }) }, NOW)).toMatchObject({ score: null, messageId: 'no-repository' });
  });

  it('a repository transferred to the namespace\'s account (the URL naming the old owner, GitHub answering under the new) is a match, said to have moved', () => {
    const moved = mcpNamespaceOwner.evaluate(
      { mcp: facts({ repositoryUrl: 'https://github.com/former/weather', repositoryOwner: 'former' }), github: github('Acme/weather', 'former/weather') },
      NOW,
    );
    expect(moved).toMatchObject({ score: 100, messageId: 'moved', data: { namespace: 'io.github.acme', url: 'former/weather', repository: 'Acme/weather' } });
    expect(moved.caps ?? []).toEqual([]);
  });

  it('a URL naming the namespace\'s account whose repository GitHub now has under another stays a match, saying where it is', () => {
    const away = mcpNamespaceOwner.evaluate({ mcp: facts(), github: github('elsewhere/weather', 'acme/weather') }, NOW);
    expect(away).toMatchObject({ score: 100, messageId: 'match-moved-away', data: { owner: 'acme', repository: 'elsewhere/weather' } });
    expect(away.caps ?? []).toEqual([]);
    // GitHub answering under the same owner (another spelling) is a plain match.
    expect(mcpNamespaceOwner.evaluate({ mcp: facts(), github: github('ACME/weather') }, NOW)).toMatchObject({ score: 100, messageId: 'match' });
  });

  it('neither the URL nor GitHub naming the namespace\'s account is a mismatch naming where the repository is; without GitHub the URL decides', () => {
    const other = facts({ repositoryUrl: 'https://github.com/former/weather', repositoryOwner: 'former' });
    const mismatch = mcpNamespaceOwner.evaluate({ mcp: other, github: github('third/weather', 'former/weather') }, NOW);
    expect(mismatch).toMatchObject({ score: 0, messageId: 'mismatch', data: { namespace: 'acme', owner: 'third' } });
    expect(mismatch.caps?.map((c) => [c.id, c.limit])).toEqual([['mcp-namespace-mismatch', 29.9]]);
    expect(mcpNamespaceOwner.evaluate({ mcp: other }, NOW)).toMatchObject({ score: 0, messageId: 'mismatch', data: { owner: 'former' } });
  });
});
