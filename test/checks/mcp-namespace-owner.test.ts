/** The mcp-namespace-owner check on written MCP entry facts (end to end on real entries: test/cli/check-mcp.test.ts, test/cli/check-mcp-namespace-moved.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpNamespaceOwner from '../../src/checks/mcp-namespace-owner.js';
import type { GithubFacts } from '../../src/evidence/schema.js';
import { NOW, facts, pkg } from './mcp-support.js';

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

  describe('the repository\'s owner builds a package that names this server (provenance): it publishes under this namespace', () => {
    // A sibling organisation's repository (io.github.neondatabase names neondatabase-labs/… in the seed).
    const sibling = (packages = [pkg()]) => facts({ repositoryUrl: 'https://github.com/acme-labs/weather', repositoryOwner: 'acme-labs', packages });
    const built = (repository: string | null, extra: Parameters<typeof pkg>[0] = {}) =>
      pkg({ evaluation: { score: 80, grade: 'A', verdictCode: 'yes', coverage: 0.9, doNotUse: false, category: 'mcp-server', error: null, provenanceRepository: repository }, ...extra });

    it('a package naming this server, built from the entry\'s repository, vouches: a match, no cap', () => {
      const out = mcpNamespaceOwner.evaluate({ mcp: sibling([built('https://github.com/acme-labs/weather')]) }, NOW);
      expect(out).toMatchObject({ score: 100, messageId: 'built-by-owner', data: { namespace: 'io.github.acme', owner: 'acme-labs', package: 'npm:weather-mcp@1.0.0' } });
      expect(out.caps ?? []).toEqual([]);
      // The repository's current name on GitHub (a move) is the same repository.
      const moved = mcpNamespaceOwner.evaluate(
        { mcp: sibling([built('https://github.com/acme-labs/weather-next')]), github: github('acme-labs/weather-next', 'acme-labs/weather') },
        NOW,
      );
      expect(moved).toMatchObject({ score: 100, messageId: 'built-by-owner' });
    });

    it('no provenance, provenance from another repository, or a package naming another server: still a mismatch', () => {
      for (const packages of [
        [pkg()],
        [built(null)],
        [built('https://github.com/acme-labs/other')],
        [built('https://github.com/acme/weather')],
        [built('https://github.com/acme-labs/weather', { claim: { known: true, name: 'io.github.acme-labs/weather', where: 'package.json mcpName' } })],
        [built('https://github.com/acme-labs/weather', { claim: { known: false, name: null, where: 'package.json mcpName' } })],
      ]) {
        const out = mcpNamespaceOwner.evaluate({ mcp: sibling(packages) }, NOW);
        expect(out.messageId, JSON.stringify(packages[0]?.evaluation)).toBe('mismatch');
        expect(out.caps?.map((c) => c.id)).toEqual(['mcp-namespace-mismatch']);
      }
    });
  });
});
