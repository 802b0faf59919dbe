/**
 * Package URLs (purl) through packageurl-js: build the canonical purl of a target, and split
 * a purl typed by the user into its decoded components. Validation of names per ecosystem is
 * the parser's job (each ecosystem's `target-syntax.ts`); this module only speaks the purl format.
 */
import { PackageURL } from 'packageurl-js';
import { rulesOf } from '../ecosystems/rules.js';
import type { ModuleEcosystem } from '../ecosystems/types.js';
import type { Ecosystem, PurlParts } from './types.js';

/**
 * The canonical package URL of a package, e.g. `pkg:npm/%40scope/pkg@1.0.0`,
 * `pkg:pypi/requests@2.31.0`, `pkg:github/owner/repo`.
 *
 * packageurl-js applies each type's normalisation rules (npm, PyPI and GitHub names are
 * lower-cased; PyPI `_` becomes `-`), so this is the form other tools compare against.
 * `name` is the target name: npm `@scope/pkg` or `pkg`, PyPI the project, GitHub `owner/repo`.
 * Throws (a packageurl-js error) for names that cannot form a package URL.
 */
export function purlOf(ecosystem: Ecosystem, name: string, version?: string): string {
  const { namespace, base } = rulesOf(ecosystem).syntax.purlName(name);
  return new PackageURL(ecosystem, namespace, base, version || undefined).toString();
}

/**
 * The package URL of a Go module (`pkg:golang/golang.org/x/net@v0.38.0`: the path up to its last
 * `/` is the namespace), a crate (`pkg:cargo/serde@1.0.219`) or a Maven artifact (`pkg:maven/group/artifact@version`);
 * null when the name cannot form one.
 */
export function modulePurl(ecosystem: ModuleEcosystem, name: string, version: string | null): string | null {
  try {
    if (ecosystem === 'cargo') return new PackageURL('cargo', undefined, name, version ?? undefined).toString();
    // A Maven artifact `group:artifact`: the group is the namespace (`pkg:maven/org.slf4j/slf4j-api@2.0.18`).
    if (ecosystem === 'maven') {
      const [group, artifact, ...rest] = name.split(':');
      return group === undefined || artifact === undefined || group === '' || artifact === '' || rest.length > 0 ? null : new PackageURL('maven', group, artifact, version ?? undefined).toString();
    }
    const slash = name.lastIndexOf('/');
    if (slash <= 0) return null;
    return new PackageURL('golang', name.slice(0, slash), name.slice(slash + 1), version ?? undefined).toString();
  } catch {
    return null;
  }
}

/**
 * Split `pkg:type/namespace/name@version?qualifiers#subpath` into decoded components, keeping
 * the name's case (npm names such as `JSONStream` are case-sensitive in the registry).
 * Returns a short, fixed-text reason instead of throwing when the text is not a purl.
 */
export function splitPurl(text: string): PurlParts | { error: string } {
  let parts: ReturnType<typeof PackageURL.parseString>;
  try {
    parts = PackageURL.parseString(text);
  } catch {
    return { error: 'not a valid package URL (expected pkg:type/name@version)' };
  }
  const [type, namespace, name, version, qualifiers] = parts;
  if (!type) return { error: 'package URL has no type (expected pkg:type/name)' };
  if (!name) return { error: 'package URL has no name (expected pkg:type/name)' };
  const flat: Record<string, string> = {};
  if (qualifiers) {
    // parseString hands back URLSearchParams at run time (typed as a plain record).
    const entries: Iterable<[string, string]> =
      qualifiers instanceof URLSearchParams ? qualifiers : Object.entries(qualifiers);
    for (const [key, value] of entries) flat[key.toLowerCase()] = value;
  }
  return { type: type.toLowerCase(), namespace: namespace || undefined, name, version: version || undefined, qualifiers: flat };
}
