/**
 * Packument → RegistryFacts for one resolved version. Pure and defensive: the packument is
 * hostile data, so every field may be missing or of the wrong type; nothing here throws.
 *
 * A packument is "trimmed" when it lacks what a full one always carries (a `maintainers`
 * array and `time.created` / `time.modified`): mirrors strip those, along with
 * `deprecated`, so their absence there means "unknown" (null), not "absent".
 *
 * For release-anomaly comparisons it also snapshots the version published just before the
 * resolved one (`previous`) and lists everyone who published an earlier version
 * (`priorPublishers`).
 */
import hostedGitInfo from 'hosted-git-info';
import npa from 'npm-package-arg';
import semver, { type SemVer } from 'semver';
import { RegistryFactsSchema, type NonRegistryDependency, type RegistryFacts, type RepositoryRef, type TarballManifest } from '../../evidence/schema.js';
import { withoutCredentials } from '../../util/url-credentials.js';
import { readmeTail } from '../../util/readme-tail.js';
import { isFutureTime } from '../../checks/lib/releases.js';
import { isTrimmedPackument } from '../../util/trimmed-packument.js';
import { commandsFolder, linkedCommands } from './commands.js';

type Obj = Record<string, unknown>;

/** npm's description of a security-holding package (the whole description). */
const HOLDING_DESCRIPTION = /^\s*security holding package\.?\s*$/i;

/** Lifecycle scripts npm runs when the package is installed from a registry. */
export const INSTALL_SCRIPT_NAMES = ['preinstall', 'install', 'postinstall'] as const;

export interface RegistryFactsOptions {
  /**
   * When the packument was read: a publish time after it (beyond the tolerated clock skew) is
   * impossible (a registry cannot publish in the future) and is read as unknown, never as "just released".
   */
  now?: Date;
}

/**
 * `manifestOf` gives a version's whole manifest when `packument.versions` holds only stubs
 * (a scanned packument: npm/packument-scan.ts); by default the manifests are read from `versions`.
 */
export function registryFacts(
  packument: Record<string, unknown>,
  version: string,
  manifestOf?: (version: string) => unknown,
  options: RegistryFactsOptions = {},
): RegistryFacts {
  let facts: RegistryFacts;
  try {
    facts = buildFacts(isObj(packument) ? packument : {}, version, manifestOf, options);
  } catch {
    facts = emptyFacts(str(packument?.name) ?? '', version);
  }
  const checked = RegistryFactsSchema.safeParse(facts);
  return checked.success ? checked.data : emptyFacts(facts.name, version);
}

function buildFacts(doc: Obj, version: string, manifestOf: ((version: string) => unknown) | undefined, options: RegistryFactsOptions): RegistryFacts {
  const manifests = isObj(doc.versions) ? doc.versions : {};
  const whole = (v: string): unknown => (manifestOf ? manifestOf(v) : manifests[v]);
  const manifest = obj(whole(version)) ?? {};
  const time = obj(doc.time) ?? {};
  const dist = obj(manifest.dist) ?? {};
  const trimmed = isTrimmedPackument(doc);

  // A publish time past the tolerated clock skew is no publish time: kept apart (`futureTime`), never ordered or dated by.
  const publishTime = (v: string): VersionEntry => {
    const at = isoTime(time[v]);
    return at !== null && options.now !== undefined && isFutureTime(new Date(at), options.now) ? { version: v, time: null, futureTime: at } : { version: v, time: at };
  };
  const versions = sortedVersions(Object.keys(manifests)).map(publishTime);
  const manifestDeprecated = deprecationOf(manifest.deprecated);
  const listing = attestationListing(dist.attestations);
  const { license, legacy } = declaredLicense(manifest);
  const description = nonEmpty(manifest.description);
  const previous = previousVersion(versions, version, !trimmed);
  const previousManifest = previous === null ? null : (obj(whole(previous)) ?? {});
  const distTags = stringRecord(doc['dist-tags']);

  return {
    name: str(doc.name) ?? str(manifest.name) ?? '',
    version,
    versions,
    distTags,
    trimmed,
    description,
    keywords: Array.isArray(manifest.keywords) ? manifest.keywords.filter((k): k is string => typeof k === 'string') : [],
    license,
    licenseLegacyForm: legacy,
    homepage: nonEmpty(manifest.homepage),
    bugs: nonEmpty(manifest.bugs) ?? nonEmpty(obj(manifest.bugs)?.url),
    repository: repositoryRef(manifest.repository),
    engines: stringRecord(manifest.engines),
    dependencies: countKeys(manifest.dependencies),
    devDependencies: countKeys(manifest.devDependencies),
    peerDependencies: countKeys(manifest.peerDependencies),
    optionalDependencies: countKeys(manifest.optionalDependencies),
    dependencyRanges: dependencySpecs(manifest.dependencies),
    installScripts: installScripts(manifest.scripts),
    hasInstallScript: manifest.hasInstallScript === undefined || manifest.hasInstallScript === null ? null : Boolean(manifest.hasInstallScript),
    nonRegistryDependencies: nonRegistryDependencies(manifest),
    gypfile: manifest.gypfile === true,
    ...(manifest.gypfile === false ? { gypfileDisabled: true } : {}),
    hasBin: hasBin(manifest),
    commands: linkedCommands(manifest),
    ...commandsFolderOf(manifest),
    declaresTypes: nonEmpty(manifest.types) !== null || nonEmpty(manifest.typings) !== null || hasTypesCondition(manifest.exports, 0),
    deprecated: manifestDeprecated ?? (trimmed ? null : false),
    latestDeprecated: latestDeprecation(distTags.latest, version, whole),
    maintainers: Array.isArray(doc.maintainers) ? doc.maintainers.length : null,
    maintainerNames: Array.isArray(doc.maintainers) ? maintainerNames(doc.maintainers) : null,
    readme: registryReadme(manifest.readme, doc.readme),
    mcpName: mcpNameOf(manifest.mcpName),
    otherMcpNames: otherMcpNames(manifests, versions, version),
    publisher: npmUser(manifest),
    previousPublisher: previousManifest === null ? null : npmUser(previousManifest),
    attestations: listing.attestations,
    hollowAttestations: listing.hollow,
    signatures: Array.isArray(dist.signatures) ? dist.signatures.length : 0,
    // npm's own description of its holding package, the whole of it (a description that merely
    // mentions the words is not one), or its `-security` version (docs/checks.md, `security-placeholder`).
    securityHolding:
      HOLDING_DESCRIPTION.test(description ?? '') ||
      HOLDING_DESCRIPTION.test(str(doc.description) ?? '') ||
      /^0\.0\.\d+-security$/.test(version),
    isLatest: distTags.latest === version,
    previous: previous === null ? null : snapshot(previousManifest ?? {}, previous, versions),
    priorPublishers: priorPublishers(manifests, versions, version, !trimmed),
    tarballUrl: nonEmpty(dist.tarball),
    integrity: nonEmpty(dist.integrity),
    shasum: typeof dist.shasum === 'string' && /^[0-9a-f]{40}$/i.test(dist.shasum) ? dist.shasum.toLowerCase() : null,
    unpackedSize: count(dist.unpackedSize),
    fileCount: count(dist.fileCount),
  };
}

/** `mcpName`: a server name as the registry writes them, else null (longer text is not one). */
function mcpNameOf(value: unknown): string | null {
  const name = nonEmpty(value);
  return name !== null && name.length <= 200 ? name : null;
}

/** Distinct server names other versions give, at most this many. */
const OTHER_MCP_NAMES_MAX = 8;

/**
 * The `mcpName` each other version gives, newest version first, one entry per distinct name (its
 * newest version): what the package's publisher says the package is when the resolved version
 * says nothing (docs/checks.md, `mcp-package-ownership`). Read from `versions` (a scanned
 * packument's stubs keep `mcpName`).
 */
function otherMcpNames(manifests: Obj, versions: readonly VersionEntry[], resolved: string): { version: string; name: string }[] {
  const found: { version: string; name: string }[] = [];
  for (let i = versions.length - 1; i >= 0 && found.length < OTHER_MCP_NAMES_MAX; i--) {
    const v = versions[i]?.version;
    if (v === undefined || v === resolved) continue;
    const name = mcpNameOf(obj(manifests[v])?.mcpName);
    if (name !== null && !found.some((f) => f.name === name)) found.push({ version: v, name });
  }
  return found;
}

/** Schema-valid facts with nothing known beyond name and version (last-resort fallback). */
function emptyFacts(name: string, version: string): RegistryFacts {
  return {
    name, version, versions: [], distTags: {}, trimmed: true, description: null, keywords: [],
    license: null, licenseLegacyForm: false, homepage: null, bugs: null, repository: null, engines: {},
    dependencies: 0, devDependencies: 0, peerDependencies: 0, optionalDependencies: 0,
    dependencyRanges: {}, installScripts: {}, hasInstallScript: null, nonRegistryDependencies: [], gypfile: false, hasBin: false, declaresTypes: false,
    deprecated: null, maintainers: null, maintainerNames: null, readme: null, mcpName: null, otherMcpNames: [], publisher: null, previousPublisher: null, attestations: null, hollowAttestations: null,
    latestDeprecated: null, signatures: 0, securityHolding: false, isLatest: false, previous: null, priorPublishers: null, tarballUrl: null, integrity: null, shasum: null, unpackedSize: null, fileCount: null,
  };
}

// ── versions and times ────────────────────────────────────────────────────────────────

/** Valid semver versions, oldest first. */
export function sortedVersions(keys: string[]): string[] {
  // Each key parsed once (a big project has thousands: comparing strings would parse both sides
  // of every comparison).
  const parsed: SemVer[] = [];
  for (const key of keys) {
    const version = semver.parse(key);
    if (version !== null && version.version === key) parsed.push(version);
  }
  return parsed.sort((a, b) => a.compare(b)).map((v) => v.version);
}

const ISO_8601 =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * An ISO 8601 timestamp (offsets like `+00:00`, any number of fraction digits) → UTC
 * `toISOString()`, or null. A timestamp without a zone is taken as UTC, never local time.
 */
export function isoTime(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = ISO_8601.exec(value.trim());
  if (!m) return null;
  const [, date, clock, fraction, zone] = m;
  if (!validCalendar(date ?? '', clock)) return null;
  const ms = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
  let offset = 'Z';
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    offset = `${zone[0]}${digits.slice(0, 2)}:${(digits.slice(2) || '00').padEnd(2, '0')}`;
  }
  const text = clock ? `${date}T${clock.length === 5 ? `${clock}:00` : clock}${ms}${offset}` : `${date}T00:00:00Z`;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
}

/** Reject what Date.parse would roll over (Feb 30 → Mar 2, 25:00 → next day). */
function validCalendar(date: string, clock: string | undefined): boolean {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return false;
  if (!clock) return true;
  const [h, mi, sec = 0] = clock.split(':').map(Number) as [number, number, number?];
  return h <= 23 && mi <= 59 && sec <= 59;
}

/**
 * The version published just before `version`: by publish time when both are known,
 * otherwise the previous one in semver order. A trimmed packument's times are a mirror's
 * (docs/scoring.md §12: often its ingestion dates, in no relation to the release order), so
 * there the previous version is always the semver predecessor. A stable version is compared
 * with the stable release before it when there is one: pre-releases of the same version are
 * other builds (`0.171.0-win32-x64`, a platform's binary published beside @openai/codex
 * 0.171.0) or candidates whose changes the stable-to-stable comparison includes.
 */
function previousVersion(all: VersionEntry[], version: string, byTime: boolean): string | null {
  const stable = semver.valid(version) !== null && semver.prerelease(version) === null;
  const earlierStable = stable && all.some((v) => v.version !== version && semver.valid(v.version) !== null && semver.prerelease(v.version) === null && semver.lt(v.version, version));
  const versions = earlierStable ? all.filter((v) => v.version === version || (semver.valid(v.version) !== null && semver.prerelease(v.version) === null)) : all;
  const own = versions.find((v) => v.version === version);
  if (byTime && own?.time) {
    let best: { version: string; time: string } | null = null;
    for (const v of versions) {
      if (v.version === version || v.time === null || v.time >= own.time) continue;
      if (best === null || v.time > best.time) best = { version: v.version, time: v.time };
    }
    if (best) return best.version;
  }
  const index = versions.findIndex((v) => v.version === version);
  if (index > 0) return versions[index - 1]?.version ?? null;
  if (index === -1 && semver.valid(version)) {
    const older = versions.filter((v) => semver.lt(v.version, version));
    return older.at(-1)?.version ?? null;
  }
  return null;
}

type VersionEntry = { version: string; time: string | null; futureTime?: string };

/** What a release-anomaly comparison needs of the previous version. */
function snapshot(manifest: Obj, version: string, versions: VersionEntry[]): NonNullable<RegistryFacts['previous']> {
  const dist = obj(manifest.dist) ?? {};
  return {
    version,
    time: versions.find((v) => v.version === version)?.time ?? null,
    publisher: npmUser(manifest),
    hasAttestations: attestationListing(dist.attestations).attestations !== null,
    installScripts: Object.keys(installScripts(manifest.scripts)),
    hasBin: hasBin(manifest),
    // Those of `directories.bin` need that version's tarball: not known, so not compared (absent).
    ...(commandsFolder(manifest) === null ? { commands: linkedCommands(manifest) } : {}),
    unpackedSize: count(dist.unpackedSize),
    dependencies: countKeys(manifest.dependencies),
    dependencyNames: Object.keys(obj(manifest.dependencies) ?? {}),
  };
}

/**
 * Distinct publishers (`_npmUser.name`) of the versions published before `version`, in
 * publish order; null when no version of the packument names a publisher (a trimmed mirror).
 * "Before" is by publish time when both times are known (not in a trimmed packument: see
 * `previousVersion`), else by semver order.
 */
function priorPublishers(manifests: Obj, versions: VersionEntry[], version: string, byTime: boolean): string[] | null {
  const publisherOf = (v: string): string | null => npmUser(obj(manifests[v]) ?? {});
  if (!versions.some((v) => publisherOf(v.version) !== null) && publisherOf(version) === null) return null;
  const ownTime = byTime ? (versions.find((v) => v.version === version)?.time ?? null) : null;
  const ownValid = semver.valid(version) !== null;
  const before = versions.filter((v) => {
    if (v.version === version) return false;
    if (ownTime !== null && v.time !== null) return v.time < ownTime;
    return ownValid && semver.lt(v.version, version);
  });
  // Publish order: versions with a known time by time, then the rest in semver order (stable sort).
  const key = (v: VersionEntry): string => (v.time === null ? '~' : v.time);
  before.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const names: string[] = [];
  for (const v of before) {
    const name = publisherOf(v.version);
    if (name !== null && !names.includes(name)) names.push(name);
  }
  return names;
}

// ── manifest fields ───────────────────────────────────────────────────────────────────

/**
 * The declared licence as one string. `license: "MIT"` is the modern form; the object form
 * `{type}` and the `licenses: [{type}]` array are legacy (an array becomes `(A OR B)`).
 */
export function declaredLicense(manifest: Obj): { license: string | null; legacy: boolean } {
  const modern = manifest.license;
  if (typeof modern === 'string') return { license: nonEmpty(modern), legacy: false };
  for (const value of [modern, manifest.licenses]) {
    if (value === undefined || value === null) continue;
    const items = (Array.isArray(value) ? value : [value])
      .map((item) => nonEmpty(item) ?? nonEmpty(obj(item)?.type))
      .filter((t): t is string => t !== null);
    if (items.length === 1) return { license: items[0] ?? null, legacy: true };
    if (items.length > 1) return { license: `(${items.join(' OR ')})`, legacy: true };
  }
  return { license: null, legacy: false };
}

/** `repository` (string shorthand or `{url, directory}`) → host, browse URL and slug. */
export function repositoryRef(value: unknown): RepositoryRef | null {
  const raw = nonEmpty(value) ?? nonEmpty(obj(value)?.url);
  if (raw === null) return null;
  const directory = nonEmpty(obj(value)?.directory);
  let info: ReturnType<typeof hostedGitInfo.fromUrl>;
  try {
    // No real repository URL is this long; don't hand megabytes of hostile text to a parser.
    info = raw.length <= MAX_URL_LENGTH ? hostedGitInfo.fromUrl(hostedSpelling(raw)) : undefined;
  } catch {
    info = undefined;
  }
  if (info && info.project) {
    let url: string | null = null;
    try {
      url = info.browse({ noCommittish: true });
    } catch {
      url = null;
    }
    return {
      raw,
      host: info.type,
      url,
      slug: info.user ? `${info.user}/${info.project}` : info.project,
      directory,
    };
  }
  return { raw, host: null, url: raw.length <= MAX_URL_LENGTH ? httpUrl(raw) : null, slug: null, directory };
}

const MAX_URL_LENGTH = 2048;

/** git's scp-like remote without a user, on github.com exactly (`github.com:owner/repo`). */
const GITHUB_SCP_WITHOUT_USER = /^github\.com:(?!\/)/i;

/**
 * The spelling hosted-git-info reads for a declared repository. git reads `github.com:owner/repo`
 * as an SSH remote on github.com (its scp-like form, the user left out); hosted-git-info reads it
 * only with the user and a lower-case host (`git@github.com:owner/repo`), so it is given that
 * (a host name's case means nothing). Nothing else changes, so
 * no other host is read as GitHub (docs/scoring.md §9).
 */
function hostedSpelling(raw: string): string {
  return GITHUB_SCP_WITHOUT_USER.test(raw) ? `git@github.com:${raw.slice('github.com:'.length)}` : raw;
}

function httpUrl(raw: string): string | null {
  const candidate = raw.replace(/^git\+/, '');
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * The install scripts npm would run, as npm reads them: any truthy value runs (a number or an
 * object is run as its text), an empty string does not.
 */
function installScripts(scripts: unknown): Record<string, string> {
  const all = obj(scripts) ?? {};
  const out: Record<string, string> = {};
  for (const name of INSTALL_SCRIPT_NAMES) {
    const script = Object.hasOwn(all, name) ? all[name] : undefined;
    if (typeof script === 'string') {
      if (script !== '') out[name] = script;
    } else if (script) out[name] = typeof script === 'object' ? JSON.stringify(script).slice(0, MAX_URL_LENGTH) : String(script);
  }
  return out;
}

/**
 * A deprecation as npm reads it: any truthy `deprecated` deprecates the version (`true`, a
 * whitespace-only message, an object…) with its text, or "(no message)"; falsy ones do not.
 */
/** The `latest` version's deprecation when that version is not the resolved one (RegistryFacts.latestDeprecated). */
function latestDeprecation(latest: string | undefined, version: string, whole: (v: string) => unknown): { version: string; message: string } | null {
  if (latest === undefined || latest === version) return null;
  const message = deprecationOf(obj(whole(latest))?.deprecated);
  return message === null ? null : { version: latest, message };
}

function deprecationOf(value: unknown): string | null {
  if (!value) return null;
  if (typeof value === 'string') return value.trim() === '' ? NO_MESSAGE : value;
  return NO_MESSAGE;
}

const NO_MESSAGE = '(no message)';

/** Longest spec kept in the facts. */
const MAX_SPEC_LENGTH = 200;
const DEPENDENCY_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;

/** How npm would fetch a dependency spec: from a registry (null), or from somewhere no registry vouches for. */
export function specKind(name: string, spec: string): NonRegistryDependency['kind'] | null {
  if (/^\s*link:/i.test(spec)) return 'link';
  let parsed: ReturnType<typeof npa.resolve>;
  try {
    parsed = npa.resolve(name, spec);
  } catch {
    return null; // npm refuses the spec: nothing is fetched
  }
  const type = parsed.type === 'alias' ? (parsed.subSpec?.type ?? 'range') : parsed.type;
  if (type === 'git') return 'git';
  if (type === 'remote') return 'url';
  if (type === 'file' || type === 'directory') return 'file';
  return null;
}

/** The dependencies of a manifest that no registry vouches for. */
export function nonRegistryDependencies(manifest: Obj): NonRegistryDependency[] {
  const found: NonRegistryDependency[] = [];
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, spec] of Object.entries(stringRecord(manifest[field]))) {
      const kind = specKind(name, spec);
      // The spec is recorded without a URL's credentials (docs/security.md).
      if (kind !== null) found.push({ name: name.slice(0, MAX_SPEC_LENGTH), spec: withoutCredentials(spec).slice(0, MAX_SPEC_LENGTH), kind, field });
    }
  }
  return found;
}

/** What the tarball's own package.json says (tarball.ts), read with the same rules as the packument's manifest. */
export function tarballManifest(manifest: Obj): TarballManifest {
  return {
    name: str(manifest.name),
    version: str(manifest.version),
    installScripts: installScripts(manifest.scripts),
    dependencies: dependencySpecs(manifest.dependencies),
    hasBin: hasBin(manifest),
    nonRegistryDependencies: nonRegistryDependencies(manifest),
    ...(manifest.gypfile === false ? { gypfileDisabled: true } : {}),
    ...bundleDependencies(manifest),
    ...optionalDependencies(manifest),
  };
}

function optionalDependencies(manifest: Obj): { optionalDependencies?: Record<string, string> } {
  const specs = dependencySpecs(manifest.optionalDependencies);
  return Object.keys(specs).length === 0 ? {} : { optionalDependencies: specs };
}

/** `bundleDependencies` (or the older `bundledDependencies`) as names; `true` bundles every dependency. */
function bundleDependencies(manifest: Obj): { bundleDependencies?: string[] } {
  const value = Object.hasOwn(manifest, 'bundleDependencies') ? manifest.bundleDependencies : manifest.bundledDependencies;
  const names =
    value === true
      ? Object.keys(stringRecord(manifest.dependencies))
      : Array.isArray(value)
        ? value.filter((n): n is string => typeof n === 'string' && n !== '')
        : [];
  return names.length === 0 ? {} : { bundleDependencies: [...new Set(names)] };
}

/**
 * Whether a package.json declares commands: a `bin` (a path, or a map with entries), or, without
 * one, `directories.bin` (npm's older form: every file in that folder is a command; npm reads it
 * only when `bin` is not set).
 */
function hasBin(manifest: Obj): boolean {
  const bin = manifest.bin;
  if (typeof bin === 'string' && bin.trim() !== '') return true;
  const map = obj(bin);
  if (map !== null) return Object.keys(map).length > 0;
  // npm's test is `!bin`: any other set value (an array, a number) keeps it from reading the folder.
  if (bin !== undefined && bin !== null && bin !== '' && bin !== false && bin !== 0) return false;
  const dir = obj(manifest.directories)?.bin;
  return typeof dir === 'string' && dir.trim() !== '';
}

function commandsFolderOf(manifest: Obj): { commandsFolder?: string } {
  const folder = commandsFolder(manifest);
  return folder === null ? {} : { commandsFolder: folder };
}

/** An `exports` map with a `types` condition at any depth (bounded). */
function hasTypesCondition(value: unknown, depth: number): boolean {
  if (depth > 8 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => hasTypesCondition(v, depth + 1));
  for (const [key, v] of Object.entries(value)) {
    if (key === 'types' && (typeof v === 'string' || (v !== null && typeof v === 'object'))) return true;
    if (hasTypesCondition(v, depth + 1)) return true;
  }
  return false;
}

/** Account names of a `maintainers` list: `{ name }` objects, or the old `"name <email>"` strings. */
function maintainerNames(list: unknown[]): string[] {
  const names: string[] = [];
  for (const entry of list) {
    const raw = typeof entry === 'string' ? entry.replace(/<[^>]*>|\([^)]*\)/g, '') : (nonEmpty(obj(entry)?.name) ?? '');
    const name = truncateName(raw.trim());
    if (name !== '' && !names.includes(name)) names.push(name);
  }
  return names;
}

const MAX_NAME_CHARS = 214;
const truncateName = (name: string) => (name.length > MAX_NAME_CHARS ? name.slice(0, MAX_NAME_CHARS) : name);

/** The README text kept, as for a tarball's README (sources/tarball.ts). */
export const REGISTRY_README_BYTES = 64 * 1024;
/** What npm writes when a package was published without a README. */
const NO_README = /^ERROR: No README data found!?$/i;

/**
 * The README the registry shows: the version's own `readme`, else the packument's. npm's "No
 * README data found" placeholder means the package was published without one (false); no text
 * at all — absent or empty, as the registry leaves it for some publishes that do ship a README —
 * says nothing (null).
 */
function registryReadme(own: unknown, top: unknown): RegistryFacts['readme'] {
  const text = [own, top].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  if (text === undefined) return null;
  if (NO_README.test(text.trim())) return false;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= REGISTRY_README_BYTES) return { size: bytes, text, truncated: false };
  // Cut on a character boundary: a cut multi-byte sequence decodes to U+FFFD, dropped.
  const cut = Buffer.from(text, 'utf8').subarray(0, REGISTRY_README_BYTES).toString('utf8').replace(/\uFFFD$/, '');
  // The sections and examples past the cut are still the README's (util/readme-tail.ts): their headings and code blocks.
  const tail = readmeTail(text, cut.length);
  return { size: bytes, text: cut, truncated: true, tailHeadings: tail.headings, tailCodeBlocks: tail.codeBlocks };
}

function npmUser(manifest: Obj): string | null {
  return nonEmpty(obj(manifest._npmUser)?.name);
}

/**
 * `dist.attestations` as a listing, or why it is hollow: a listing names the URL the attestations
 * are served from. `{}`, an object without a URL, or a value of another type is no provenance.
 */
function attestationListing(value: unknown): { attestations: RegistryFacts['attestations']; hollow: string | null } {
  if (value === undefined || value === null) return { attestations: null, hollow: null };
  const att = obj(value);
  if (att === null) return { attestations: null, hollow: '`dist.attestations` is not an object' };
  const url = nonEmpty(att.url);
  if (url === null) return { attestations: null, hollow: Object.keys(att).length === 0 ? '`dist.attestations` is empty' : '`dist.attestations` names no URL' };
  return { attestations: { url, predicateType: nonEmpty(obj(att.provenance)?.predicateType) }, hollow: null };
}

// ── defensive readers ─────────────────────────────────────────────────────────────────

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function obj(value: unknown): Obj | null {
  return isObj(value) ? value : null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

function countKeys(value: unknown): number {
  return isObj(value) ? Object.keys(value).length : 0;
}

/** A dependencies object's specs, a URL spec without its credentials (docs/security.md). */
function dependencySpecs(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(stringRecord(value)).map(([name, spec]) => [name, withoutCredentials(spec)]));
}

/** The string-valued entries of an object (own keys only, no `__proto__`). */
function stringRecord(value: unknown): Record<string, string> {
  if (!isObj(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== '__proto__'),
  );
}
