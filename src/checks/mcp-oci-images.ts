/**
 * mcp-oci-images: what can honestly be said of the container images an MCP Registry entry
 * installs from without pulling them — the image registry (one the MCP Registry accepts:
 * package-types.mdx) and whether the reference pins a digest (what was reviewed is what runs)
 * or a tag the publisher can move (an entry of an older schema names its registry and tag apart:
 * lib/oci.ts). The image's `io.modelcontextprotocol.server.name` label
 * (the registry's ownership proof) is not read: nerq does not ask image registries, and says so.
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { ociImageOf, ociPinning, type OciPinning } from './lib/oci.js';

/** A tag the publisher can move to another image. */
const TAG_SCORE = 60;
/** `latest` or no tag at all: whatever was pushed last. */
const LATEST_SCORE = 30;

type Finding = { identifier: string; score: number | null; messageId: 'pinned' | 'tag' | 'latest' | 'foreign-registry' | 'malformed' | 'unreadable'; registry: string | null; member?: string };

/** The score of each pinning (lib/oci.ts, ociPinning: the same reading `nerq audit --mcp` gives a container launch). */
const PINNING: Record<OciPinning, { score: number; messageId: Exclude<Finding['messageId'], 'unreadable'> }> = {
  digest: { score: 100, messageId: 'pinned' },
  tag: { score: TAG_SCORE, messageId: 'tag' },
  latest: { score: LATEST_SCORE, messageId: 'latest' },
  'foreign-registry': { score: 0, messageId: 'foreign-registry' },
  malformed: { score: 0, messageId: 'malformed' },
};

function judge(identifier: string): Finding {
  const { pinning, registry } = ociPinning(identifier);
  return { identifier, registry, ...PINNING[pinning] };
}

/** The members an image reference is read with (lib/oci.ts, ociImageOf). */
const REFERENCE_MEMBERS = ['version', 'registryBaseUrl'];

/**
 * An image whose tag (`version`) or registry (`registryBaseUrl`) the entry writes in a shape nerq
 * cannot read (a number, an over-long text; sources/mcp-registry/schema.ts) has no reference nerq
 * knows: unknown, never judged as the reference read without that member.
 */
function unreadableMember(p: { unreadable?: string[] | undefined }): string | null {
  return p.unreadable?.find((m) => REFERENCE_MEMBERS.includes(m.split(' ')[0] ?? '')) ?? null;
}

/** Worst first: a failure, then an image nerq could not read, then the lowest score. */
const rank = (f: Finding): number => (f.score === null ? 0.5 : f.score);

export default defineCheck({
  id: 'mcp-oci-images',
  dimension: 'security',
  weight: 2,
  needs: ['mcp'],
  title: 'Container images of the MCP server',
  description: `Reads the OCI image references of an MCP Registry entry's packages without pulling them: an image pinned by digest scores 100, a tag ${TAG_SCORE} (the publisher can move it), \`latest\` or no tag ${LATEST_SCORE}, and a reference that does not parse or names an image registry the MCP Registry does not accept (Docker Hub, GHCR, Quay, Google Artifact Registry, Azure Container Registry, Microsoft Container Registry; a host written with https's default port, \`ghcr.io:443\`, is that registry, any other port is not) 0; the weakest image counts (an entry published before schema 2025-10-11 names the image registry in \`registryBaseUrl\` and the tag in \`version\`, and the image is read with them; unknown when either is written in a shape nerq cannot read, a number or an over-long text). The image's \`io.modelcontextprotocol.server.name\` label, the registry's ownership proof, is not read (image registries are not asked), and the evidence says so. Not applicable without OCI packages.`,
  messages: {
    pinned: 'Every image is pinned by digest (label not read: {label})',
    tag: '{image} is pinned by tag only: the publisher can move it to another image (label not read: {label})',
    latest: '{image} names no tag or `latest`: whatever was pushed last runs (label not read: {label})',
    'foreign-registry': '{image} is on {registry}, not an image registry the MCP Registry accepts',
    malformed: '{image} is not an OCI image reference',
    unreadable: 'Unknown: {image} is read with its {member}, which cannot be read',
    none: 'No OCI image',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    const images = mcp.packages
      .filter((p) => p.registryType === 'oci')
      .map((p): Finding => {
        const member = unreadableMember(p);
        return member === null ? judge(ociImageOf(p.identifier, p.version, p.registryBaseUrl ?? null)) : { identifier: p.identifier, score: null, messageId: 'unreadable', registry: null, member };
      });
    if (images.length === 0) return { score: null, messageId: 'none', notApplicable: true };
    const worst = images.reduce((a, b) => (rank(b) < rank(a) ? b : a));
    const label = 'image registries are not asked';
    return {
      score: worst.score,
      messageId: worst.messageId,
      data: {
        image: worst.identifier,
        registry: worst.registry ?? '',
        ...(worst.member === undefined ? {} : { member: worst.member }),
        label,
        labelVerified: null,
        images: images.map((i) => `${i.identifier}: ${i.messageId}`),
      },
    };
  },
});
