/**
 * What the validity set keeps of a recorded packument: every field nerq's facts read, nothing
 * of the rest (per-version READMEs, build metadata, the random hashes of versions other than the
 * resolved one), so that the set stays small enough to commit. Field values are never edited,
 * except the top-level `readme`, cut at the same 64 KiB nerq keeps of a README.
 */
export const README_KEEP_BYTES = 64 * 1024;

const TOP_FIELDS = ['_id', 'name', 'description', 'dist-tags', 'time', 'maintainers', 'readme', 'readmeFilename', 'repository', 'license', 'homepage', 'bugs', 'keywords'];
const VERSION_FIELDS = [
  'name', 'version', 'description', 'keywords', 'license', 'licenses', 'homepage', 'bugs', 'repository', 'engines',
  'dependencies', 'devDependencies', 'peerDependencies', 'peerDependenciesMeta', 'optionalDependencies',
  'bundleDependencies', 'bundledDependencies', 'scripts', 'gypfile', 'bin', 'types', 'typings', 'exports', 'main',
  'deprecated', '_npmUser', 'dist', 'hasInstallScript', '_hasShrinkwrap', 'os', 'cpu',
];
/** Scripts npm runs at install (and for git dependencies); the rest is build tooling. */
const SCRIPT_NAMES = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'];
/** `dist` of every version: what history comparisons read (sizes, provenance). */
const DIST_HISTORY = ['fileCount', 'unpackedSize', 'attestations'];
/** `dist` of the resolved version: all of it that nerq reads. */
const DIST_RESOLVED = ['tarball', 'integrity', 'shasum', 'fileCount', 'unpackedSize', 'attestations', 'signatures'];

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

function pick(source: Obj, fields: readonly string[]): Obj {
  const out: Obj = {};
  for (const field of fields) if (Object.hasOwn(source, field)) out[field] = source[field];
  return out;
}

function cutUtf8(text: string, bytes: number): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= bytes) return text;
  // Decoding a cut multi-byte sequence yields U+FFFD at the end: drop it.
  return buffer.subarray(0, bytes).toString('utf8').replace(/\uFFFD$/, '');
}

export function trimPackument(packument: Obj): Obj {
  const out = pick(packument, TOP_FIELDS);
  if (typeof out.readme === 'string') out.readme = cutUtf8(out.readme, README_KEEP_BYTES);
  const latest = isObj(packument['dist-tags']) ? packument['dist-tags'].latest : undefined;
  const versions: Obj = {};
  for (const [version, manifest] of Object.entries(isObj(packument.versions) ? packument.versions : {})) {
    if (!isObj(manifest)) continue;
    const kept = pick(manifest, VERSION_FIELDS);
    if (isObj(kept.scripts)) kept.scripts = pick(kept.scripts, SCRIPT_NAMES);
    if (isObj(kept.dist)) kept.dist = pick(kept.dist, version === latest ? DIST_RESOLVED : DIST_HISTORY);
    versions[version] = kept;
  }
  out.versions = versions;
  return out;
}

/**
 * The public registry's origin written as the `{{REGISTRY}}` placeholder the fixtures use
 * (fixtures/PROVENANCE.md), in tarball URLs and READMEs alike; a bare mention of its host is
 * written `{{REGISTRY_HOST}}`.
 */
export function withRegistryPlaceholder(json: string): string {
  let out = json;
  // Both names the public registry answers to.
  for (const host of ['org', 'com'].map((tld) => ['registry', 'npmjs', tld].join('.'))) {
    out = out.replaceAll(`https://${host}`, '{{REGISTRY}}').replaceAll(`http://${host}`, '{{REGISTRY}}').replaceAll(host, '{{REGISTRY_HOST}}');
  }
  return out;
}
