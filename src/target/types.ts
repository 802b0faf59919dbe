/** The ecosystems nerq knows how to parse. Only `npm` is resolved so far. */
export type Ecosystem = 'npm' | 'pypi' | 'github' | 'mcp';

/**
 * A parsed, validated target: what the user asked about, before any request.
 * `name` is canonical for the ecosystem: npm the full name (`@scope/pkg`), PyPI the PEP 503
 * normalised name, GitHub `owner/repo`, an MCP Registry server its
 * reverse-DNS `namespace/name` (or a bare word to search for).
 */
export interface Target {
  /** The text the user typed, unchanged (it is echoed in reports, after sanitising). */
  input: string;
  ecosystem: Ecosystem;
  name: string;
  /** Version, dist-tag, semver range or PEP 440 specifier as given; undefined = the default. */
  spec?: string;
  /**
   * A `github:` target's folder (`github:owner/repo/src/server`, a github.com `/tree/<ref>/<folder>`
   * URL), normalised: the repository read in that folder as an MCP entry's `repository.subfolder`
   * is (docs/scoring.md §9). Undefined: the repository's root.
   */
  folder?: string;
}

/** The decoded components of a package URL, before any normalisation by type. */
export interface PurlParts {
  /** Lower-cased type, e.g. `npm`. */
  type: string;
  namespace: string | undefined;
  name: string;
  version: string | undefined;
  qualifiers: Record<string, string>;
}

/** A target's name as a package URL writes it: the namespace (none: undefined) and the name. */
export interface PurlName {
  namespace: string | undefined;
  base: string;
}

/** Thrown by the parser for input that is not a valid target. Message is one line. */
export class TargetError extends Error {
  override name = 'TargetError';
}
