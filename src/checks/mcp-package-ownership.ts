/**
 * mcp-package-ownership: each npm / PyPI package of an MCP Registry entry must name that server
 * itself (npm `mcpName`, PyPI README `mcp-name:`), as the registry requires at publish time.
 * A package that names another server is a look-alike entry borrowing someone else's package:
 * a finding naming both sides, which caps the entry's score below NO.
 */
import { defineCheck, type CheckOutcome } from './define.js';

export const OWNERSHIP_MISMATCH_LIMIT = 29.9;

/**
 * A claim names this server when it is its name up to letter case: the namespace is a DNS name
 * or a GitHub account, neither of which letter case tells apart, so `io.github.GLips/Figma-MCP`
 * (as a publisher writes it) and `io.github.glips/figma-mcp` (as an entry may be listed) are
 * one owner's, and a name under it cannot be another owner's server.
 */
function sameServer(claimed: string, server: string): boolean {
  return claimed.toLowerCase() === server.toLowerCase();
}

export default defineCheck({
  id: 'mcp-package-ownership',
  dimension: 'security',
  weight: 4,
  needs: ['mcp'],
  guardsDanger: true,
  title: 'Packages name this MCP server',
  description:
    `Reads the server name each npm and PyPI package of an MCP Registry entry claims (npm \`mcpName\`, an \`mcp-name:\` line in the PyPI README; an npm version that gives no \`mcpName\` is read by what the package's other versions give — one naming this server, else the newest naming another, where one of the same namespace (a rename by the same publisher: the registry authenticates namespaces) counts as naming none — since an entry may pin a release from before its publisher added it, and a look-alike may pin a release from before its owner named its own server): all name this entry (letter case aside: the namespace is a DNS name or a GitHub account), 100; one names another server, 0, a finding naming both, and the overall score is capped at ${OWNERSHIP_MISMATCH_LIMIT} (a look-alike entry must not borrow a popular package's score); one names none, 50 and the verdict held at CAUTION. Unknown when the packages' facts could not be read, or a PyPI README nerq kept only the first 256 KiB of names no server in that part; not applicable without an npm or PyPI package.`,
  messages: {
    'all-match': 'Every package names this server ({packages})',
    mismatch: '{package} names {claimed} in its {where}, not {server}',
    unclaimed: '{package} names no MCP server in its {where}',
    unknown: 'Unknown: the packages\' claims could not be read ({packages})',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    const claims = mcp.packages.filter((p) => p.claim !== null);
    if (claims.length === 0) return { score: null, messageId: 'unknown', notApplicable: true };
    for (const p of claims) {
      const claim = p.claim;
      if (claim?.known === true && claim.name !== null && !sameServer(claim.name, mcp.name)) {
        const label = p.target ?? p.identifier;
        return {
          score: 0,
          messageId: 'mismatch',
          data: { package: label, claimed: claim.name, where: claim.where, server: mcp.name },
          caps: [
            {
              id: 'mcp-ownership-mismatch',
              limit: OWNERSHIP_MISMATCH_LIMIT,
              reason: `package ${label} belongs to MCP server ${claim.name}, not ${mcp.name}`,
              args: { package: label, claimed: claim.name, server: mcp.name },
            },
          ],
        };
      }
    }
    const unclaimed = claims.find((p) => p.claim?.known === true && p.claim.name === null);
    if (unclaimed !== undefined) {
      const label = unclaimed.target ?? unclaimed.identifier;
      return {
        score: 50,
        messageId: 'unclaimed',
        data: { package: label, where: unclaimed.claim?.where ?? '' },
        holdVerdict: `package ${label} does not name ${mcp.name} (its ${unclaimed.claim?.where ?? 'metadata'}); a package that names the server would lift this`,
      };
    }
    const labels = claims.map((p) => p.target ?? p.identifier).join(', ');
    if (claims.some((p) => p.claim?.known !== true)) return { score: null, messageId: 'unknown', data: { packages: labels } };
    return { score: 100, messageId: 'all-match', data: { packages: labels } };
  },
});
