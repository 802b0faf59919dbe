/**
 * An OCI image reference as an MCP Registry entry names it (`registry/namespace/repository:tag`,
 * or `…@sha256:<digest>`; fixtures/mcp-registry/docs/package-types.mdx), and the image
 * registries the MCP Registry accepts. Pure.
 */

export interface OciReference {
  /** Lower case, without https's default port (`:443`); `docker.io` when the reference names none (Docker's default). */
  registry: string;
  repository: string;
  tag: string | null;
  /** `sha256:<64 hex>` when the reference pins a digest. */
  digest: string | null;
}

/** The image registries the MCP Registry accepts OCI packages from (package-types.mdx). */
export function acceptedRegistry(host: string): boolean {
  const h = host.toLowerCase();
  return ['docker.io', 'index.docker.io', 'registry-1.docker.io', 'ghcr.io', 'quay.io', 'mcr.microsoft.com'].includes(h) || h.endsWith('.pkg.dev') || h.endsWith('.azurecr.io');
}

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;

/** `ghcr.io/acme/box:1.2@sha256:…` → its parts; null when it is not an image reference. */
export function parseOciReference(identifier: string): OciReference | null {
  const text = identifier.trim();
  if (text === '' || /\s/.test(text) || text.length > 512) return null;
  let rest = text;
  let digest: string | null = null;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!/^sha256:[a-f0-9]{64}$/.test(digest)) return null;
  }
  const parts = rest.split('/');
  let registry = 'docker.io';
  const first = parts[0] ?? '';
  if (parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    // A host written with https's default port is that host's registry (`ghcr.io:443` is `ghcr.io`); any other port is another.
    const host = first.toLowerCase();
    registry = host.length > 4 && host.endsWith(':443') ? host.slice(0, -4) : host;
    parts.shift();
  }
  const last = parts.pop() ?? '';
  const colon = last.indexOf(':');
  const tag = colon < 0 ? null : last.slice(colon + 1);
  const name = colon < 0 ? last : last.slice(0, colon);
  if (tag !== null && !/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(tag)) return null;
  const components = [...parts, name];
  if (components.some((c) => !COMPONENT.test(c))) return null;
  return { registry, repository: components.join('/'), tag, digest };
}

/** Whether an identifier names its image registry (`ghcr.io/…`, `localhost:5000/…`) rather than Docker's default. */
function namesRegistry(identifier: string): boolean {
  const slash = identifier.indexOf('/');
  if (slash < 0) return false;
  const first = identifier.slice(0, slash);
  return first.includes('.') || first.includes(':') || first === 'localhost';
}

/**
 * The image an OCI package of an MCP Registry entry means. Since schema 2025-10-11 the identifier
 * is the whole reference (`ghcr.io/owner/repo:v1.0.0`); entries published before it name the
 * image registry in `registryBaseUrl` (`https://docker.io`) and the tag in `version`
 * (fixtures/mcp-registry/docs/server-json-CHANGELOG.md, 2025-10-11). An identifier that pins
 * a tag or digest, or names a registry, keeps it. Pure.
 */
export function ociImageOf(identifier: string, version: string | null, registryBaseUrl: string | null): string {
  let image = identifier.trim();
  if (registryBaseUrl !== null && !namesRegistry(image)) {
    let host: string | null = null;
    try {
      host = new URL(registryBaseUrl.trim()).host.toLowerCase();
    } catch {
      host = null;
    }
    if (host !== null && host !== '') image = `${host}/${image}`;
  }
  const ref = parseOciReference(image);
  const tag = version?.trim() ?? '';
  if (ref !== null && ref.tag === null && ref.digest === null && tag !== '') image = `${image}:${tag}`;
  return image;
}

/**
 * What can be known of an image from its reference alone, without pulling it — the same in both
 * of nerq's doors (the `mcp-oci-images` check of `nerq check mcp:…`, and a container launch of
 * `nerq audit --mcp`; docs/mcp.md, "Code nerq cannot inspect"): pinned by digest (what was
 * reviewed is what runs), a tag the publisher can move, `latest` or no tag (whatever was pushed
 * last), an image registry the MCP Registry does not accept, or no image reference at all.
 */
export type OciPinning = 'digest' | 'tag' | 'latest' | 'foreign-registry' | 'malformed';

export function ociPinning(image: string): { pinning: OciPinning; registry: string | null } {
  const ref = parseOciReference(image);
  if (ref === null) return { pinning: 'malformed', registry: null };
  if (!acceptedRegistry(ref.registry)) return { pinning: 'foreign-registry', registry: ref.registry };
  if (ref.digest !== null) return { pinning: 'digest', registry: ref.registry };
  if (ref.tag === null || ref.tag === 'latest') return { pinning: 'latest', registry: ref.registry };
  return { pinning: 'tag', registry: ref.registry };
}
