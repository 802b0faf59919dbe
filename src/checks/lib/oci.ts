/**
 * An OCI image reference as an MCP Registry entry names it (`registry/namespace/repository:tag`,
 * or `…@sha256:<digest>`; fixtures/mcp-registry/docs/package-types.mdx), and the image
 * registries the MCP Registry accepts. Pure.
 */

export interface OciReference {
  /** Lower case; `docker.io` when the reference names none (Docker's default). */
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
    registry = first.toLowerCase();
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
