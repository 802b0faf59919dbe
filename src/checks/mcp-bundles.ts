/**
 * mcp-bundles: what can honestly be said of the MCP bundles (`registryType: mcpb`) an MCP
 * Registry entry installs without downloading them — whether the entry gives the bundle's
 * SHA-256 (`fileSha256`, which a client compares before it installs: the MCP Registry requires it
 * and does not check it, fixtures/mcp-registry/docs/package-types.mdx), and whether the bundle is
 * a release asset of the repository the entry names (the registry accepts only GitHub and GitLab
 * releases). The bundle itself is not downloaded, so its hash is not compared, and the evidence
 * says so; its code stays uninspected (docs/mcp.md, "Code nerq cannot inspect").
 */
import { defineCheck, type CheckOutcome } from './define.js';

type Kind = 'release' | 'other-repository' | 'no-repository' | 'hash-unrecorded' | 'not-a-release' | 'no-hash';
type Finding = { bundle: string; kind: Kind; score: number | null; source: string };

/** A release of another repository than the one the entry names: its code is not that source's. */
const OTHER_REPOSITORY_SCORE = 30;
const SHA256 = /^[0-9a-f]{64}$/i;

/** `github.com/owner/repo` or `gitlab.com/group/…/project` of a release asset URL; null when it is none. */
function releaseSource(identifier: string): string | null {
  let url: URL;
  try {
    url = new URL(identifier);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
  const parts = url.pathname.split('/').filter((p) => p !== '');
  const host = url.hostname.toLowerCase();
  if (host === 'github.com') {
    // /owner/repo/releases/download/<tag>/<file>
    if (parts.length < 6 || parts[2] !== 'releases' || parts[3] !== 'download') return null;
    return `github.com/${parts[0]}/${parts[1]}`.toLowerCase();
  }
  if (host === 'gitlab.com') {
    // /group/…/project/-/releases/<tag>/downloads/<file>
    const dash = parts.indexOf('-');
    if (dash < 2 || parts[dash + 1] !== 'releases') return null;
    return `gitlab.com/${parts.slice(0, dash).join('/')}`.toLowerCase();
  }
  return null;
}

/** The entry's repository as `host/path`, lower case, without `.git`; null when it names none or not a URL. */
function repositorySource(repositoryUrl: string | null): string | null {
  if (repositoryUrl === null) return null;
  try {
    const url = new URL(repositoryUrl);
    const path = url.pathname.replace(/\/+$/, '').replace(/\.git$/i, '');
    return `${url.hostname}${path}`.toLowerCase();
  } catch {
    return null;
  }
}

function judge(identifier: string, fileSha256: string | null | undefined, repository: string | null): Finding {
  const source = releaseSource(identifier);
  if (source === null) return { bundle: identifier, kind: 'not-a-release', score: 0, source: '' };
  // Absent: evidence saved before the hash was recorded (evidence/mcp-facts.ts), which says nothing of the entry.
  if (fileSha256 === undefined) return { bundle: identifier, kind: 'hash-unrecorded', score: null, source };
  if (fileSha256 === null || !SHA256.test(fileSha256)) return { bundle: identifier, kind: 'no-hash', score: 0, source };
  if (repository === null) return { bundle: identifier, kind: 'no-repository', score: null, source };
  if (source !== repository) return { bundle: identifier, kind: 'other-repository', score: OTHER_REPOSITORY_SCORE, source };
  return { bundle: identifier, kind: 'release', score: 100, source };
}

/** Worst first: a failure, then the other repository, then unknown, then a pass. */
const RANK: Record<Kind, number> = { 'not-a-release': 0, 'no-hash': 1, 'other-repository': 2, 'no-repository': 3, 'hash-unrecorded': 3, release: 4 };

export default defineCheck({
  id: 'mcp-bundles',
  dimension: 'security',
  weight: 2,
  needs: ['mcp'],
  title: 'MCP bundles of the MCP server',
  description: `Reads the MCP bundles (\`mcpb\`) of an MCP Registry entry without downloading them: a GitHub or GitLab release asset of the repository the entry names, with its SHA-256 (\`fileSha256\`) given, scores 100; a release of another repository ${OTHER_REPOSITORY_SCORE}; a bundle without a well-formed SHA-256, or not a release asset on https, 0; the weakest bundle counts. Unknown when the entry names no repository to compare with, or in evidence saved before the SHA-256 was recorded; the bundle is not downloaded, so its hash is not compared (the evidence says so). Not applicable without bundles.`,
  messages: {
    release: 'Every bundle is a release asset of {repository} with its SHA-256 given (not downloaded: {hashChecked})',
    'other-repository': '{bundle} is a release asset of {source}, not of {repository}, the repository the entry names',
    'no-repository': 'Unknown: the entry names no repository to compare {bundle} with',
    'hash-unrecorded': 'Unknown: this evidence was saved before the SHA-256 of {bundle} was recorded',
    'not-a-release': '{bundle} is not a GitHub or GitLab release asset on https',
    'no-hash': '{bundle} gives no SHA-256: a client cannot tell the file it downloads is the one published',
    none: 'No MCP bundle',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    const repository = repositorySource(mcp.repositoryUrl);
    const bundles = mcp.packages.filter((p) => p.registryType === 'mcpb').map((p) => judge(p.identifier, p.fileSha256, repository));
    if (bundles.length === 0) return { score: null, messageId: 'none', notApplicable: true };
    const worst = bundles.reduce((a, b) => (RANK[b.kind] < RANK[a.kind] ? b : a));
    return {
      score: worst.score,
      messageId: worst.kind,
      data: {
        bundle: worst.bundle,
        source: worst.source,
        repository: repository ?? '',
        hashChecked: 'the hash is compared by the client that installs it',
        hashVerified: null,
        bundles: bundles.map((b) => `${b.bundle}: ${b.kind}`),
      },
    };
  },
});
