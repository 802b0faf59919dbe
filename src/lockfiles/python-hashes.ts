/**
 * What Python lockfiles say of the bytes they install (docs/security.md, "Lockfile injection"):
 * the hashes an entry pins (`--hash=sha256:…`, uv's `hash = "sha256:…"`, Poetry's and pdm's
 * `files`, Pipfile.lock's `hashes`), kept as an SRI string in the dependency's `integrity`
 * (`sha256-<base64>`, one token per hash) so that the same lockfile check reads npm's and
 * Python's pins; and whether an index URL is PyPI's. Pure.
 */

/** `<algorithm>:<hex>` (pip, uv, Poetry, pdm, Pipfile.lock) or `<algorithm>=<hex>` (a URL fragment). */
const HASH = /^(sha256|sha384|sha512):([0-9a-f]+)$/i;
const HEX_LENGTH: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };

/** One pinned hash as an SRI token (`sha256-<base64>`), or null for one nerq cannot read (md5, a malformed digest). */
export function hashToken(hash: string): string | null {
  const match = HASH.exec(hash.trim().replace('=', ':'));
  const algorithm = match?.[1]?.toLowerCase();
  const hex = match?.[2];
  if (algorithm === undefined || hex === undefined || hex.length !== HEX_LENGTH[algorithm]) return null;
  return `${algorithm}-${Buffer.from(hex, 'hex').toString('base64')}`;
}

/** The SRI string of the hashes an entry pins (readable ones, each once); null when it pins none. */
export function pythonIntegrity(hashes: readonly string[]): string | null {
  const tokens = [...new Set(hashes.flatMap((hash) => hashToken(hash) ?? []))];
  return tokens.length === 0 ? null : tokens.join(' ');
}

/** The hosts PyPI serves its index and files from. */
const PYPI_HOSTS = new Set(['pypi.org', 'www.pypi.org', 'pypi.python.org', 'files.pythonhosted.org']);

/**
 * Whether an index or find-links URL is PyPI's (pip's and uv's default): an entry from it is
 * PyPI's release. `configured`: the PyPI base URLs nerq reads (`NERQ_PYPI_URL`), whose host counts too.
 */
export function isPypiIndex(url: string, configured: readonly string[] = []): boolean {
  const parsed = URL.parse(url.trim());
  if (parsed === null) return false;
  if (configured.some((base) => URL.parse(base)?.host === parsed.host)) return true;
  return parsed.protocol === 'https:' && PYPI_HOSTS.has(parsed.hostname.toLowerCase());
}

/**
 * Where an entry whose index is `index` (null: PyPI) is really fetched from, given the file URLs
 * its lockfile records (uv.lock's `sdist.url` and `wheels[].url`, pdm.lock's `files[].url`):
 * uv and PDM download those URLs as written. The first that is on neither PyPI nor the index's
 * host, when the index is PyPI's; else `index` (docs/security.md, "Lockfile injection").
 */
export function fetchedFrom(index: string | null, fileUrls: readonly (string | undefined)[]): string | null {
  if (index !== null && !isPypiIndex(index)) return index;
  return fileUrls.find((url): url is string => url !== undefined && URL.canParse(url.trim()) && !isPypiIndex(url)) ?? index;
}

/** The `integrity` member of a dependency that pins hashes; none when it pins none. */
export function withIntegrity(integrity: string | null): { integrity?: string } {
  return integrity === null ? {} : { integrity };
}
