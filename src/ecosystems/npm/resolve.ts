/**
 * npm version resolution (docs/architecture.md, "Data flow"), pure: a packument and the spec the user
 * typed → the exact version npm would pick, via npm-pick-manifest (default tag `latest`; a
 * range takes `latest` when it satisfies it, else the highest match; deprecated versions
 * only when nothing else matches). When nothing matches, it answers why and which existing
 * versions (or dist-tags) are nearest to what was asked.
 *
 * The packument is hostile data: it is copied into a minimal, prototype-free shape first
 * (valid semver keys, string dist-tags, the deprecation flag), so nothing in it can make
 * this throw, and the running Node version plays no part (no `engines` filtering).
 */
import npa from 'npm-package-arg';
import pickManifest from 'npm-pick-manifest';
import type { PickableManifest, PickablePackument } from 'npm-pick-manifest';
import semver from 'semver';
import type { SemVer } from 'semver';
import { quoteForMessage } from '../../target/syntax.js';
import { isTrimmedPackument } from '../../util/trimmed-packument.js';

export type NpmResolution =
  | { ok: true; version: string }
  /** `undetermined`: the packument cannot tell (a trimmed one lacks the dist-tag asked), so the version is not known to be missing. */
  | { ok: false; reason: string; nearest: string[]; undetermined?: true };

/** How many alternatives a failed resolution suggests. */
export const NEAREST_COUNT = 5;

/** Placeholder name: the real one is not needed to pick, and may itself be malformed. */
const PLACEHOLDER_NAME = 'package';

/** Version keys are echoed and used as lookup keys: semver, and nothing but semver's characters. */
const VERSION_KEY = /^[0-9A-Za-z.+-]{1,256}$/;

interface CleanPackument {
  'dist-tags': Record<string, string>;
  /** A mirror's trimmed packument (util/trimmed-packument.ts): it may keep only the `latest` dist-tag. */
  trimmed: boolean;
  versions: Record<string, PickableManifest>;
  parsed: SemVer[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A dist-tag name npm would accept (URL-safe), short enough to echo. */
function isTagName(tag: string): boolean {
  return tag.length > 0 && tag.length <= 100 && encodeURIComponent(tag) === tag;
}

function clean(packument: unknown): CleanPackument | string {
  if (!isRecord(packument)) return 'malformed package metadata: not a JSON object';
  const rawVersions = packument.versions;
  if (!isRecord(rawVersions)) return 'malformed package metadata: no "versions" object';
  const versions: Record<string, PickableManifest> = Object.create(null);
  const parsed: SemVer[] = [];
  for (const [key, manifest] of Object.entries(rawVersions)) {
    if (!VERSION_KEY.test(key) || !isRecord(manifest)) continue;
    const version = semver.parse(key, { loose: true });
    if (version === null) continue;
    // As npm reads it: any truthy value deprecates (`true`, a whitespace-only message, an object).
    const deprecated = Boolean(manifest.deprecated);
    versions[key] = deprecated ? { version: key, deprecated: 'deprecated' } : { version: key };
    parsed.push(version);
  }
  const tags: Record<string, string> = Object.create(null);
  const rawTags = packument['dist-tags'];
  if (isRecord(rawTags)) {
    for (const [tag, version] of Object.entries(rawTags)) {
      if (isTagName(tag) && typeof version === 'string' && VERSION_KEY.test(version)) tags[tag] = version;
    }
  }
  return { 'dist-tags': tags, versions, parsed, trimmed: isTrimmedPackument(packument) };
}

/** Resolve `spec` (undefined = the `latest` dist-tag) against a packument. Never throws. */
export function resolveNpmVersion(packument: unknown, spec: string | undefined): NpmResolution {
  const exact = publishedExactVersion(packument, spec);
  return exact !== null ? { ok: true, version: exact } : resolveByPicking(packument, spec);
}

/**
 * An exact version that is published (what a lockfile pins): npm-pick-manifest takes exactly
 * that version (its `semver.clean` form), deprecated or not, so the packument's other versions —
 * thousands for a big project — need not be read. Null when the spec is anything else, or that
 * version is not there (resolveByPicking then says why).
 */
function publishedExactVersion(packument: unknown, spec: string | undefined): string | null {
  const wanted = spec?.trim() || undefined;
  if (wanted === undefined || !isRecord(packument) || !isRecord(packument.versions)) return null;
  let type: string | undefined;
  try {
    type = npa.resolve(PLACEHOLDER_NAME, wanted, '/').type;
  } catch {
    return null;
  }
  if (type !== 'version') return null;
  const version = semver.clean(wanted, { loose: true });
  if (version === null || !Object.hasOwn(packument.versions, version) || !VERSION_KEY.test(version)) return null;
  if (!isRecord(packument.versions[version]) || semver.parse(version, { loose: true }) === null) return null;
  return version;
}

/** Resolution through npm-pick-manifest over every version (exported for the equivalence test). */
export function resolveByPicking(packument: unknown, spec: string | undefined): NpmResolution {
  const data = clean(packument);
  if (typeof data === 'string') return { ok: false, reason: data, nearest: [] };
  if (data.parsed.length === 0) return { ok: false, reason: 'the package has no published versions', nearest: [] };

  const wanted = spec?.trim() || undefined;
  let type: string | undefined;
  if (wanted !== undefined) {
    try {
      type = npa.resolve(PLACEHOLDER_NAME, wanted, '/').type;
    } catch {
      type = undefined;
    }
    if (type !== 'tag' && type !== 'version' && type !== 'range') {
      return { ok: false, reason: `${quoteForMessage(wanted)} is not a version, range or dist-tag`, nearest: [] };
    }
  }

  const pickable: PickablePackument = {
    name: PLACEHOLDER_NAME,
    'dist-tags': data['dist-tags'],
    versions: data.versions,
  };
  try {
    const picked = pickManifest(pickable, wanted, { nodeVersion: null, npmVersion: null });
    if (picked && typeof picked.version === 'string' && picked.version in data.versions) {
      return { ok: true, version: picked.version };
    }
  } catch {
    // nothing matched: explained below
  }
  return explainMiss(data, wanted, type);
}

function explainMiss(data: CleanPackument, wanted: string | undefined, type: string | undefined): NpmResolution {
  const tags = data['dist-tags'];
  if (wanted === undefined) {
    return {
      ok: false,
      reason: 'no version to pick: no "latest" dist-tag and no stable release',
      nearest: highest(data.parsed, NEAREST_COUNT),
    };
  }
  if (type === 'tag') {
    const target = tags[wanted];
    if (target === undefined && data.trimmed) {
      // A mirror that trims packuments keeps the `latest` dist-tag only: `next@canary` is not known missing.
      return {
        ok: false,
        reason: `the registry serves trimmed package metadata (likely a mirror) without dist-tag ${quoteForMessage(wanted)}, so which version it names cannot be told; name the version instead`,
        nearest: tagSuggestions(data),
        undetermined: true,
      };
    }
    const reason =
      target === undefined
        ? `no dist-tag ${quoteForMessage(wanted)}`
        : `dist-tag ${quoteForMessage(wanted)} points to ${target}, which is not a published version`;
    return { ok: false, reason, nearest: tagSuggestions(data) };
  }
  if (type === 'version') {
    const asked = semver.parse(wanted, { loose: true });
    return {
      ok: false,
      reason: `version ${quoteForMessage(wanted)} does not exist`,
      nearest: asked ? closest(data.parsed, asked, NEAREST_COUNT) : highest(data.parsed, NEAREST_COUNT),
    };
  }
  let reference: SemVer | null = null;
  try {
    reference = semver.minVersion(wanted, { loose: true });
  } catch {
    reference = null;
  }
  return {
    ok: false,
    reason: `no version matches ${quoteForMessage(wanted)}`,
    nearest: reference ? closest(data.parsed, reference, NEAREST_COUNT) : highest(data.parsed, NEAREST_COUNT),
  };
}

/** The dist-tag names (`latest` first), then the version `latest` points to (or the highest). */
function tagSuggestions(data: CleanPackument): string[] {
  const tags = data['dist-tags'];
  const names = Object.keys(tags).sort((a, b) => (a === 'latest' ? -1 : b === 'latest' ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const latest = tags.latest !== undefined && tags.latest in data.versions ? tags.latest : highest(data.parsed, 1)[0];
  const suggestions = names.slice(0, latest === undefined ? NEAREST_COUNT : NEAREST_COUNT - 1);
  if (latest !== undefined) suggestions.push(latest);
  return suggestions;
}

/** The `count` highest versions, stable ones first, highest first. */
function highest(versions: SemVer[], count: number): string[] {
  const sorted = [...versions].sort((a, b) => {
    const pre = Number(a.prerelease.length > 0) - Number(b.prerelease.length > 0);
    return pre !== 0 ? pre : semver.rcompare(a, b);
  });
  return sorted.slice(0, count).map((v) => v.raw);
}

/**
 * The `count` versions nearest to `asked`, listed highest first. Nearness: stable versions
 * before pre-releases (unless a pre-release was asked), then the same major, then within it the
 * same minor, then the closest patch; remaining ties go to the version next to `asked` in
 * version order (older releases first, since an unpublished version is usually beyond them).
 */
function closest(versions: SemVer[], asked: SemVer, count: number): string[] {
  const askedPre = asked.prerelease.length > 0;
  const distance = (v: SemVer): number[] => {
    const sameMajor = v.major === asked.major;
    const sameMinor = sameMajor && v.minor === asked.minor;
    return [
      Number(!askedPre && v.prerelease.length > 0),
      Math.abs(v.major - asked.major),
      sameMajor ? Math.abs(v.minor - asked.minor) : 0,
      sameMinor ? Math.abs(v.patch - asked.patch) : 0,
      Number(semver.gt(v, asked)),
    ];
  };
  const ranked = [...versions].sort((a, b) => {
    const da = distance(a);
    const db = distance(b);
    for (let i = 0; i < da.length; i++) {
      const d = (da[i] ?? 0) - (db[i] ?? 0);
      if (d !== 0) return d;
    }
    // both below `asked`: the higher is nearer; both above: the lower is nearer
    return semver.gt(a, asked) ? semver.compare(a, b) : semver.rcompare(a, b);
  });
  return ranked
    .slice(0, count)
    .sort((a, b) => semver.rcompare(a, b))
    .map((v) => v.raw);
}
