/**
 * An MCP Registry package's `registryBaseUrl`: where a client installs it from. nerq evaluates a
 * package on the registry it reads (the configured npm registry, npm's public registry, PyPI); a
 * package an entry says comes from somewhere else is not that package, whatever its name, so it
 * is not evaluated and cannot lend the entry the public package's score (docs/security.md, "MCP
 * servers"). The official registry accepts only the public registries; a registry nerq is pointed
 * at may not. Pure.
 */
import { normaliseHttpUrl } from '../../util/http-url.js';
import { withoutCredentials } from '../../util/url-credentials.js';

/**
 * The reason a package of this registry type is not evaluated because its base URL is none of the
 * registries nerq reads for it (`vouched`), or null when it is one of them or names none (the
 * registry type's default).
 */
export function foreignRegistry(registryBaseUrl: string | undefined, vouched: readonly string[]): string | null {
  if (registryBaseUrl === undefined || registryBaseUrl.trim() === '') return null;
  const base = normaliseHttpUrl(registryBaseUrl);
  if (base !== null && vouched.some((v) => normaliseHttpUrl(v) === base)) return null;
  const shown = withoutCredentials(registryBaseUrl.trim()).slice(0, 200);
  return `installed from ${shown}, not a registry nerq reads for it: not evaluated`;
}
