import pkg from '../package.json' with { type: 'json' };

/** nerq's own version, from package.json (inlined by the bundler). */
export const VERSION: string = pkg.version;
/**
 * The User-Agent of every request nerq sends (docs/security.md): nerq's version and Node's, and no
 * URL — a page nerq names for itself is one someone else could come to control.
 */
export const USER_AGENT = `nerq/${VERSION} node/${process.versions.node}`;

