/**
 * repository-archived: an archived (read-only) or disabled repository will take no more
 * fixes. That is too serious for a mean to dilute: it caps the maintenance dimension.
 */
import type { CapRequest } from './define.js';
import { defineCheck } from './define.js';
import { GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, readGithub } from './lib/github.js';

/** The most the maintenance dimension can score for an archived or disabled repository. */
export const ARCHIVED_MAINTENANCE_LIMIT = 10;

function archivedCap(state: 'archived' | 'disabled', repository: string, reason: string): CapRequest {
  return { id: 'repository-archived', limit: ARCHIVED_MAINTENANCE_LIMIT, dimension: 'maintenance', reason, args: { state, repository } };
}

export default defineCheck({
  id: 'repository-archived',
  dimension: 'maintenance',
  weight: 2,
  needs: ['github'],
  title: 'Repository not archived',
  description:
    `An archived (read-only) or disabled repository scores 0 and caps the maintenance dimension at ${ARCHIVED_MAINTENANCE_LIMIT}, which also keeps the verdict at CAUTION at best; any other repository scores 100.`,
  messages: {
    active: 'Repository {repository} is not archived',
    archived: 'Repository {repository} is archived: read-only, no more fixes will land',
    disabled: 'Repository {repository} is disabled by GitHub: no more fixes will land',
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github }) => {
    const read = readGithub(github);
    if (!read.ok) return read.outcome;
    const { archived, disabled, pushedAt } = read.repository;
    const data = { ...read.data, archived, disabled, pushedAt };
    if (archived) {
      return { score: 0, messageId: 'archived', data, caps: [archivedCap('archived', read.repository.fullName, 'the repository is archived: no more fixes will land')] };
    }
    if (disabled) {
      return { score: 0, messageId: 'disabled', data, caps: [archivedCap('disabled', read.repository.fullName, 'the repository is disabled: no more fixes will land')] };
    }
    return { score: 100, messageId: 'active', data };
  },
});
