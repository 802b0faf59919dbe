/** The mcp-repository-id check on written MCP entry facts (end to end on a real entry: test/cli/check-mcp-repository-id.test.ts). */
import { describe, expect, it } from 'vitest';
import mcpRepositoryId from '../../src/checks/mcp-repository-id.js';
import type { GithubFacts } from '../../src/evidence/schema.js';
import { NOW, facts } from './mcp-support.js';

/** Only the repository section is read; the rest of the facts are not this check's. */
function github(id: string | null, state: GithubFacts['state'] = 'present'): GithubFacts {
  const repository = state === 'present' ? { fullName: 'acme/weather', id } : null;
  return { state, repository } as unknown as GithubFacts;
}

describe('mcp-repository-id', () => {
  it('the same id → 100; another id → 0 with the mcp-repository-replaced cap naming both', () => {
    expect(mcpRepositoryId.evaluate({ mcp: facts({ repositoryId: '898077246' }), github: github('898077246') }, NOW)).toMatchObject({ score: 100, messageId: 'match' });
    const replaced = mcpRepositoryId.evaluate({ mcp: facts({ repositoryId: '898077246' }), github: github('1017') }, NOW);
    expect(replaced).toMatchObject({ score: 0, messageId: 'mismatch', data: { actual: '1017', recorded: '898077246' } });
    expect(replaced.caps?.map((c) => [c.id, c.limit])).toEqual([['mcp-repository-replaced', 29.9]]);
  });

  it('no id recorded, or no GitHub repository → not applicable (GitHub answering or not); GitHub silent, or no id or no repository from it → unknown', () => {
    expect(mcpRepositoryId.evaluate({ mcp: facts({ repositoryId: null }), github: github('1017') }, NOW).notApplicable).toBe(true);
    expect(mcpRepositoryId.evaluate({ mcp: facts({ repositoryId: null }) }, NOW).notApplicable).toBe(true);
    expect(mcpRepositoryId.evaluate({ mcp: facts({ repositoryId: '12345', repositoryOwner: null, repositoryUrl: 'https://gitlab.com/acme/weather' }) }, NOW).notApplicable).toBe(true);
    expect(mcpRepositoryId.evaluate({ mcp: facts({ repositoryId: '898077246' }) }, NOW)).toMatchObject({ score: null, messageId: 'unknown' });
    expect(mcpRepositoryId.evaluate({ mcp: facts({ repositoryId: '898077246' }), github: github(null) }, NOW)).toMatchObject({ score: null, messageId: 'unknown' });
    expect(mcpRepositoryId.evaluate({ mcp: facts({ repositoryId: '898077246' }), github: github(null, 'missing') }, NOW)).toMatchObject({ score: null, messageId: 'unknown' });
  });

  it('a recorded id that is not a number (the registry docs\' example `xyz789ab-cdef-0123-4567-890ghijklmno`) is not GitHub\'s: unknown, not a finding', () => {
    const outcome = mcpRepositoryId.evaluate({ mcp: facts({ repositoryId: 'xyz789ab-cdef-0123-4567-890ghijklmno' }), github: github('1017') }, NOW);
    expect(outcome).toMatchObject({ score: null, messageId: 'not-github-id' });
    expect(outcome.caps ?? []).toEqual([]);
  });
});
