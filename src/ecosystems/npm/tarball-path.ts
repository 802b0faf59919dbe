/**
 * The path npm registries give a release's tarball, `…/<name>/-/<unscoped name>-<version>.tgz`
 * (scoped names as `@scope/name` or `@scope%2fname`). A URL of another shape is not a registry
 * tarball path (private registries use other shapes too). Pure.
 */

/** `@scope/name` and `1.2.3` from a registry tarball path (`…/@scope/name/-/name-1.2.3.tgz`), or null for another shape. */
export function tarballIdentity(url: string): { name: string; file: string } | null {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  const segments = pathname.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  const dash = segments.lastIndexOf('-');
  const file = segments.at(-1) ?? '';
  if (dash < 1 || dash !== segments.length - 2 || !file.endsWith('.tgz')) return null;
  // `@scope%2fname` decodes to one segment `@scope/name`; `@scope/name` is two.
  const before = segments[dash - 1] ?? '';
  const name = before.includes('/') ? before : (segments[dash - 2] ?? '').startsWith('@') ? `${segments[dash - 2]}/${before}` : before;
  return { name, file };
}
