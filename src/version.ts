import pkg from '../package.json' with { type: 'json' };

/** nerq's own version, from package.json (inlined by the bundler). */
export const VERSION: string = pkg.version;
export const USER_AGENT = `nerq/${VERSION} (+https://www.npmjs.com/package/nerq)`;

