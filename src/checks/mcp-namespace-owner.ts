/**
 * mcp-namespace-owner: an `io.github.<owner>/…` server name says the GitHub account `<owner>`
 * publishes it; the entry's repository must belong to that account. A mismatch is a finding
 * naming both sides and caps the score below NO.
 *
 * The owner is read from the entry's repository URL and, when GitHub answered for that URL, from
 * the repository's canonical name GitHub gives (`fullName`: a repository renamed or transferred
 * is answered under its new name; docs/checks.md). That name comes from GitHub itself, not from
 * the entry, so an entry cannot forge it: a repository transferred to the namespace's account
 * (its URL still naming the old owner, which GitHub redirects) is that account's — a match, said
 * to have moved; one whose URL names the namespace's account but that GitHub now has under
 * another stays a match (the account that published the entry named its own repository), and
 * the message says where it lives now.
 *
 * A namespace's account and the repository's owner may differ and both be the publisher's (a
 * sibling organisation, `io.github.neondatabase` naming `neondatabase-labs/…`). That is taken
 * only on the repository owner's own word, which the entry cannot forge: a package of the entry
 * that names this server (its `mcpName` / `mcp-name:`) and whose provenance attestation says it
 * was built from the entry's repository — the repository's CI published a package naming this
 * server, as a repository target's package is vouched for by its provenance (docs/checks.md).
 * An account name alike (`acme` and `acme-labs`) proves nothing and is not read.
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { githubNamespaceOwner } from './lib/mcp.js';
import type { McpFacts } from '../evidence/schema.js';
import { repositoryKey } from './provenance.js';
import { OWNERSHIP_MISMATCH_LIMIT } from './mcp-package-ownership.js';

export default defineCheck({
  id: 'mcp-namespace-owner',
  dimension: 'security',
  weight: 3,
  needs: ['mcp'],
  // Optional: without GitHub's answer the URL's owner is compared alone, as before it answers.
  optional: ['github'],
  title: 'Namespace matches the repository owner',
  description:
    `For an MCP Registry entry named \`io.github.<owner>/…\`: its repository is on GitHub under \`<owner>\` (100), or under another account (0, a finding naming both, overall score capped at ${OWNERSHIP_MISMATCH_LIMIT}). The owner is the repository URL's and, when GitHub answers for that URL, the one of the repository's current name on GitHub: a repository transferred to \`<owner>\` (the URL still naming the old owner) matches, said to have moved; one whose URL names \`<owner>\` but that GitHub now has under another account still matches, the message saying where it is now; under another account, it matches only on that account's own word — a package of the entry that names this server and whose provenance attestation says it was built from the entry's repository (100), never an account name alike. Unknown when the entry names no GitHub repository; not applicable to a domain namespace (the registry verifies those by DNS or HTTP).`,
  messages: {
    match: 'Namespace {namespace} and repository owner {owner} agree',
    moved: 'Namespace {namespace} owns the repository: {url} moved to {repository}',
    'match-moved-away': 'Namespace {namespace} and repository owner {owner} agree; GitHub now has the repository under {repository}',
    mismatch: 'Namespace io.github.{namespace} names {namespace}, but the repository belongs to {owner}',
    'built-by-owner': 'Namespace {namespace} is not the repository owner {owner}, but {package} names this server and was built from {repository} (its provenance): the repository\'s owner publishes it under this namespace',
    'no-repository': 'Unknown: the entry names no GitHub repository to compare with io.github.{namespace}',
  },
  evaluate: ({ mcp, github }): CheckOutcome => {
    const namespace = githubNamespaceOwner(mcp.name);
    if (namespace === null) return { score: null, messageId: 'no-repository', notApplicable: true };
    const urlOwner = mcp.repositoryOwner?.toLowerCase() ?? null;
    if (urlOwner === null) return { score: null, messageId: 'no-repository', data: { namespace } };
    // GitHub's current name for the repository at the URL, when it answered with one.
    const repository = github?.repository?.fullName ?? null;
    const current = repository?.split('/')[0]?.toLowerCase() ?? null;
    const shown = `io.github.${namespace}`;
    if (urlOwner === namespace) {
      if (current === null || current === namespace) return { score: 100, messageId: 'match', data: { namespace: shown, owner: urlOwner } };
      return { score: 100, messageId: 'match-moved-away', data: { namespace: shown, owner: urlOwner, repository: repository ?? '' } };
    }
    if (current === namespace) {
      return { score: 100, messageId: 'moved', data: { namespace: shown, url: github?.repository?.renamedFrom ?? mcp.repositoryUrl ?? urlOwner, repository: repository ?? '' } };
    }
    const owner = current ?? urlOwner;
    const vouching = builtFromRepository(mcp, [mcp.repositoryUrl, repository === null ? null : `https://github.com/${repository}`]);
    if (vouching !== null) {
      return { score: 100, messageId: 'built-by-owner', data: { namespace: shown, owner, package: vouching.package, repository: vouching.repository } };
    }
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

/** Letter case aside, as mcp-package-ownership compares a claim: a DNS name or a GitHub account. */
const namesServer = (claimed: string | null, server: string) => claimed !== null && claimed.toLowerCase() === server.toLowerCase();

/**
 * The first package that names this server and whose provenance says it was built from the
 * repository (its URL, or its current name on GitHub), or null.
 */
function builtFromRepository(mcp: McpFacts, repositories: readonly (string | null)[]): { package: string; repository: string } | null {
  const keys = new Set(repositories.flatMap((r) => (r === null ? [] : (repositoryKey(r) ?? []))));
  for (const p of mcp.packages) {
    const built = p.evaluation?.provenanceRepository ?? null;
    if (built === null || p.claim?.known !== true || !namesServer(p.claim.name, mcp.name)) continue;
    const key = repositoryKey(built);
    if (key !== null && keys.has(key)) return { package: p.target ?? p.identifier, repository: built };
  }
  return null;
}
