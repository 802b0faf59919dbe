import pkg from '../package.json' with { type: 'json' };

/** nerq's own version, from package.json (inlined by the bundler). */
export const VERSION: string = pkg.version;
/**
 * The User-Agent of every request nerq sends (docs/security.md): nerq's version and Node's, and no
 * URL — a page nerq names for itself is one someone else could come to control.
 */
export const USER_AGENT = `nerq/${VERSION} node/${process.versions.node}`;

/** The fields of a package.json this module reads; any may be missing or of another type. */
interface ManifestLinks {
  repository?: unknown;
  homepage?: unknown;
}

/**
 * The page of the check documentation (docs/checks.md, whose headings are the check ids) in the
 * repository package.json declares: its `repository` (a string or `{ url, directory }`) when it
 * is an https URL (`git+` and `.git` stripped), as `<repository>/blob/HEAD/[<directory>/]docs/checks.md`.
 * No repository, or one of another form (a shorthand, ssh, http): null — a link is never made
 * up from a host package.json does not name (docs/security.md). `homepage` is not read: it need
 * not be a repository, and no path under it is known to hold the docs.
 */
export function checksDocUrlOf(manifest: ManifestLinks): string | null {
  const { repository } = manifest;
  const raw = typeof repository === 'string' ? repository : typeof repository === 'object' && repository !== null ? (repository as { url?: unknown }).url : undefined;
  const directory = typeof repository === 'object' && repository !== null ? (repository as { directory?: unknown }).directory : undefined;
  if (typeof raw !== 'string') return null;
  let url: URL;
  try {
    url = new URL(raw.trim().replace(/^git\+/, ''));
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return null;
  const segments = url.pathname.replace(/\.git\/?$/, '').split('/').filter((s) => s !== '');
  if (segments.length < 2) return null;
  const sub = typeof directory === 'string' ? directory.split('/').filter((s) => s !== '' && s !== '.') : [];
  if (sub.includes('..')) return null;
  return `${url.origin}/${[...segments, 'blob', 'HEAD', ...sub, 'docs', 'checks.md'].join('/')}`;
}

/** docs/checks.md in nerq's own repository (checksDocUrlOf its package.json), or null when package.json names none. */
export const CHECKS_DOC_URL: string | null = checksDocUrlOf(pkg as ManifestLinks);
