/**
 * mcp-repository-id: an MCP Registry entry records the id of the repository it was published from
 * (`repository.id`, the forge's id — fixtures/mcp-registry/server.schema.2025-12-11.json: "may be
 * used to detect repository resurrection attacks - if a repository is deleted and recreated, the
 * ID should change"). GitHub keeps a repository's id through renames and transfers, so a
 * repository at the entry's URL with another id is not the one the entry was published from.
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { OWNERSHIP_MISMATCH_LIMIT } from './mcp-package-ownership.js';

export default defineCheck({
  id: 'mcp-repository-id',
  dimension: 'security',
  weight: 3,
  needs: ['mcp'],
  // Optional, so that an entry recording no id (or no GitHub repository) is left out whether or
  // not GitHub answered; an entry that records one is unknown while GitHub does not answer.
  optional: ['github'],
  title: 'Repository is the one the entry was published from',
  description:
    `For an MCP Registry entry that records its repository's id (\`repository.id\`): the GitHub repository at the entry's URL has that id (100), or another one — deleted and created again, or replaced, since the entry was published — (0, a finding naming both ids, overall score capped at ${OWNERSHIP_MISMATCH_LIMIT}). Unknown when GitHub did not answer or give the id, or the repository is gone, or when the recorded id is not a GitHub repository id (GitHub's are numbers); not applicable when the entry records no id or no GitHub repository.`,
  messages: {
    match: 'Repository {repository} is the one the entry was published from (id {id})',
    mismatch: 'Repository {repository} has id {actual}, but the entry was published from repository id {recorded}: it was deleted and created again or replaced since',
    unknown: 'Unknown: GitHub did not give the id of repository {repository} to compare with the entry’s {recorded}',
    'not-github-id': 'Unknown: the entry records repository id {recorded}, which is not a GitHub repository id',
  },
  evaluate: ({ mcp, github }): CheckOutcome => {
    const recorded = mcp.repositoryId;
    if (recorded === null || mcp.repositoryOwner === null) return { score: null, messageId: 'unknown', notApplicable: true };
    const repository = github?.repository?.fullName ?? mcp.repositoryUrl ?? '';
    // GitHub's repository ids are numbers; anything else was not GitHub's and proves nothing either way.
    if (!/^\d{1,20}$/.test(recorded)) return { score: null, messageId: 'not-github-id', data: { repository, recorded } };
    const actual = github?.repository?.id ?? null;
    if (actual === null) return { score: null, messageId: 'unknown', data: { repository, recorded } };
    if (actual === recorded) return { score: 100, messageId: 'match', data: { repository, id: actual } };
    return {
      score: 0,
      messageId: 'mismatch',
      data: { repository, actual, recorded },
      caps: [
        {
          id: 'mcp-repository-replaced',
          limit: OWNERSHIP_MISMATCH_LIMIT,
          reason: `repository ${repository} is not the one ${mcp.name} was published from (id ${actual}, the entry records ${recorded})`,
          args: { server: mcp.name, repository, actual, recorded },
        },
      ],
    };
  },
});
