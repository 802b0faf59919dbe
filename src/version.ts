import pkg from '../package.json' with { type: 'json' };

/** nerq's own version, from package.json (inlined by the bundler). */
export const VERSION: string = pkg.version;
export const USER_AGENT = `nerq/${VERSION} (+https://www.npmjs.com/package/nerq)`;

/**
 * Where this version's documentation is published (docs/ ships in the package): SARIF rules
 * link each check to `docs/checks.md#<id>` there, and the policy rules to the README.
 */
export const DOCS_BASE = `https://cdn.jsdelivr.net/npm/nerq@${VERSION}/`;
