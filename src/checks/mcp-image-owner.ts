/**
 * mcp-image-owner: who controls the container images an MCP Registry entry installs from, as far
 * as the references say without pulling them (docs/mcp.md, "Code nerq cannot inspect"). The
 * namespace proves an account or a domain (lib/mcp.ts): an image on GitHub's container registry
 * under the account an `io.github.<owner>/` namespace names, or on an image registry under the
 * domain a reverse-DNS namespace proves (`mcr.microsoft.com` for `com.microsoft/…`), is the
 * publisher's own; one on GitHub's registry under another account is pushed by that account. An
 * account of the same name elsewhere (Docker Hub, Quay) is nobody's proof: unknown, not a pass.
 * The image's `io.modelcontextprotocol.server.name` label, which the registry checked at publish
 * time, is not read (image registries are not asked).
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { githubNamespaceOwner, hostBelongs, namespaceDomain, namespaceOf } from './lib/mcp.js';
import { acceptedRegistry, ociImageOf, parseOciReference } from './lib/oci.js';

/** An image under another GitHub account: the entry's publisher does not decide what its tags hold. */
const OTHER_ACCOUNT_SCORE = 30;

type Kind = 'namespace-account' | 'namespace-domain' | 'other-account' | 'unproven';
type Finding = { image: string; kind: Kind; score: number | null; registry: string; owner: string };

/** The members an image reference is read with (lib/oci.ts, ociImageOf); one nerq cannot read leaves the image unknown. */
const REFERENCE_MEMBERS = ['version', 'registryBaseUrl'];

function judge(server: string, image: string): Finding {
  const ref = parseOciReference(image);
  // An image that is no reference, or on an image registry the MCP Registry does not accept, is
  // mcp-oci-images' failure; who controls it is not known either.
  if (ref === null || !acceptedRegistry(ref.registry)) return { image, kind: 'unproven', score: null, registry: ref?.registry ?? '', owner: '' };
  const owner = ref.repository.split('/')[0] ?? '';
  if (hostBelongs(ref.registry, server)) return { image, kind: 'namespace-domain', score: 100, registry: ref.registry, owner };
  const account = githubNamespaceOwner(server);
  if (account !== null && ref.registry === 'ghcr.io') {
    return owner === account
      ? { image, kind: 'namespace-account', score: 100, registry: ref.registry, owner }
      : { image, kind: 'other-account', score: OTHER_ACCOUNT_SCORE, registry: ref.registry, owner };
  }
  return { image, kind: 'unproven', score: null, registry: ref.registry, owner };
}

/** Worst first: another account, then an image nobody's proof covers, then the publisher's own. */
const RANK: Record<Kind, number> = { 'other-account': 0, unproven: 1, 'namespace-domain': 2, 'namespace-account': 3 };

export default defineCheck({
  id: 'mcp-image-owner',
  dimension: 'security',
  weight: 1,
  needs: ['mcp'],
  title: 'Container images under the namespace’s owner',
  description: `For an MCP Registry entry's OCI images, read from their references without pulling them: an image on GitHub's container registry (\`ghcr.io/<owner>/…\`) under the account an \`io.github.<owner>/\` namespace names, or on an image registry under the domain a reverse-DNS namespace proves (\`mcr.microsoft.com\` for \`com.microsoft/…\`), scores 100; one on \`ghcr.io\` under another GitHub account ${OTHER_ACCOUNT_SCORE} (that account decides what its tags hold); the weakest image counts. Unknown for any other image — an account of the same name on Docker Hub or Quay, or a GitHub account named like a domain namespace, proves nothing — and for a reference nerq cannot read; the image's \`io.modelcontextprotocol.server.name\` label is not read (image registries are not asked), and not applicable without OCI packages.`,
  messages: {
    'namespace-account': 'Every image is under the namespace’s own account or domain: {image} is under GitHub account {owner} (label not read: {label})',
    'namespace-domain': 'Every image is under the namespace’s own account or domain: {image} is served from {registry}, under {domain} (label not read: {label})',
    'other-account': '{image} is under GitHub account {owner}, not {namespace}: that account decides what its tags hold',
    unproven: 'Unknown: nothing {namespace} proves covers {image}',
    none: 'No OCI image',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    const images = mcp.packages
      .filter((p) => p.registryType === 'oci')
      .map((p): Finding =>
        p.unreadable?.some((m) => REFERENCE_MEMBERS.includes(m.split(' ')[0] ?? '')) === true
          ? { image: p.identifier, kind: 'unproven', score: null, registry: '', owner: '' }
          : judge(mcp.name, ociImageOf(p.identifier, p.version, p.registryBaseUrl ?? null)),
      );
    if (images.length === 0) return { score: null, messageId: 'none', notApplicable: true };
    const worst = images.reduce((a, b) => (RANK[b.kind] < RANK[a.kind] ? b : a));
    return {
      score: worst.score,
      messageId: worst.kind,
      data: {
        image: worst.image,
        owner: worst.owner,
        registry: worst.registry,
        namespace: namespaceOf(mcp.name),
        domain: namespaceDomain(mcp.name),
        label: 'image registries are not asked',
        labelVerified: null,
        images: images.map((i) => `${i.image}: ${i.kind}`),
      },
    };
  },
});
