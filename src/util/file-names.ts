/**
 * The file names that make a project's documents, matched the same way wherever the files are
 * read: in an npm tarball (npm/tarball.ts) or in a repository's tree (github/repo-files.ts).
 */
export const TEXT_EXT = String.raw`(?:\.(?:md|markdown|mdown|mkdn|mkd|txt|text|rst|adoc|asciidoc|org|textile|html?))?`;
export const README_RE = new RegExp(`^readme${TEXT_EXT}$`, 'i');
/**
 * A licence text's name: `LICENSE`, `COPYING`, `UNLICENSE`, with a suffix (`LICENSE-MIT`, `LICENSE.md`)
 * or the licence's name before it (`MIT-LICENSE`, Rails' and many gems' convention, which GitHub and
 * npm read as the licence too) — a licence name only, so `THIRD-PARTY-LICENSE` is not the project's.
 */
export const LICENSE_RE = /^(?:(?:mit|isc|bsd|apache|[al]?gpl|mpl|epl)[-_])?(?:licen[cs]e|copying|unlicen[cs]e)(?:[-._][a-z0-9._+-]*)?$/i;
/** Code and data files: never documents, whatever their name (`license.js` is code). */
const CODE_EXT_RE = /\.(?:[cm]?js|[cm]?ts|jsx|tsx|json|map|node|sh)$/i;
/** A root file name an npm tarball's licence files are read from: named like a licence, not code. */
export const isLicenseFileName = (name: string): boolean => LICENSE_RE.test(name) && !CODE_EXT_RE.test(name);
export const SECURITY_RE = new RegExp(`^security${TEXT_EXT}$`, 'i');
export const CONTRIBUTING_RE = new RegExp(`^contributing${TEXT_EXT}$`, 'i');
/** A changelog may also be a docs site's MDX page (`docs/changelog.mdx`, as Mintlify sites keep theirs). */
export const CHANGELOG_RE = new RegExp(`^(?:changelog|change-log|changes|history|releases)(?:${TEXT_EXT}|\\.mdx)$`, 'i');

/** The README text kept in the facts is capped at this many bytes (tarball and repository alike). */
export const README_TEXT_BYTES = 64 * 1024;
