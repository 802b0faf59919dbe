/**
 * mcp-namespace-owner: an `io.github.<owner>/…` server name says the GitHub account `<owner>`
 * publishes it; the entry's repository must belong to that account. A mismatch is a finding
 * naming both sides and caps the score below NO.
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { githubNamespaceOwner } from './lib/mcp.js';
import { OWNERSHIP_MISMATCH_LIMIT } from './mcp-package-ownership.js';

export default defineCheck({
  id: 'mcp-namespace-owner',
  dimension: 'security',
  weight: 3,
  needs: ['mcp'],
  title: 'Namespace matches the repository owner',
  description:
    `For an MCP Registry entry named \`io.github.<owner>/…\`: its repository is on GitHub under \`<owner>\` (100), or under another account (0, a finding naming both, overall score capped at ${OWNERSHIP_MISMATCH_LIMIT}). Unknown when the entry names no GitHub repository; not applicable to a domain namespace (the registry verifies those by DNS or HTTP).`,
  messages: {
    match: 'Namespace {namespace} and repository owner {owner} agree',
    mismatch: 'Namespace io.github.{namespace} names {namespace}, but the repository belongs to {owner}',
    'no-repository': 'Unknown: the entry names no GitHub repository to compare with io.github.{namespace}',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    const namespace = githubNamespaceOwner(mcp.name);
    if (namespace === null) return { score: null, messageId: 'no-repository', notApplicable: true };
    const owner = mcp.repositoryOwner?.toLowerCase() ?? null;
    if (owner === null) return { score: null, messageId: 'no-repository', data: { namespace } };
    if (owner === namespace) return { score: 100, messageId: 'match', data: { namespace: `io.github.${namespace}`, owner } };
    return {
      score: 0,
      messageId: 'mismatch',
      data: { namespace, owner },
      caps: [
        {
          id: 'mcp-namespace-mismatch',
          limit: OWNERSHIP_MISMATCH_LIMIT,
          reason: `server ${mcp.name} is in namespace io.github.${namespace}, but its repository belongs to ${owner}`,
          args: { server: mcp.name, namespace, owner },
        },
      ],
    };
  },
});
