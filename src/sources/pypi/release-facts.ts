/**
 * PyPI's answers for a project → `PypiFacts` for its resolved release. Pure: the project JSON
 * (every release's files), the release's own JSON when it is not the one the project JSON's
 * `info` describes, and what the Simple API said (null when it did not answer).
 */
import type { PypiFacts, PypiFile, PypiRelease } from '../../evidence/schema.js';
import { comparePep440, isPep440Prerelease, validPep440 } from '../../ecosystems/pypi/resolve.js';
import type { PypiJsonFile, PypiJsonInfo, PypiProjectJson, PypiVersionJson } from './json.js';
import { pypiLicense } from './license.js';
import { directReference } from '../../ecosystems/pypi/direct-reference.js';
import { splitRequirements } from './requirements.js';
import type { SimpleFacts } from './simple.js';
import { projectLinks } from './urls.js';
import { readmeTail } from '../../util/readme-tail.js';

/** The long description is kept up to this many UTF-8 bytes. */
export const MAX_DESCRIPTION_BYTES = 256 * 1024;
const MAX_KEYWORDS = 50;
const PLACEHOLDER = 'UNKNOWN';
/** Direct references kept in the facts. */
const MAX_DIRECT_REFERENCES = 50;

export interface PypiFactsInput {
  project: PypiProjectJson;
  /** The resolved version (a key of `project.releases`, or the version JSON's). */
  version: string;
  /** `/pypi/<name>/<version>/json`, when the resolved version is not `project.info.version`. */
  release: PypiVersionJson | null;
  simple: SimpleFacts | null;
}

export function buildPypiFacts({ project, version, release, simple }: PypiFactsInput): PypiFacts {
  const info: PypiJsonInfo = release?.info ?? project.info;
  const classifiers = [...new Set(info.classifiers ?? [])];
  const jsonFiles = releaseFiles(project, version, release);
  const files = jsonFiles.map((f) => fileFacts(f, simple));
  const releases = releaseList(project.releases);
  const resolved = releases.find((r) => r.version === version);
  const { runtime, extras } = splitRequirements(info.requires_dist);
  const links = projectLinks(info);
  const yanked = files.length > 0 ? files.every((f) => f.yanked) : resolved?.yanked ?? false;

  return {
    name: info.name,
    version,
    releases,
    latest: latestRelease(releases),
    summary: clean(info.summary),
    description: description(info),
    keywords: keywords(info.keywords),
    license: pypiLicense({ license_expression: info.license_expression, license: info.license, license_files: info.license_files, classifiers }),
    classifiers,
    developmentStatus: developmentStatus(classifiers),
    typed: classifiers.includes('Typing :: Typed'),
    requiresPython: clean(info.requires_python),
    dependencies: runtime.map((r) => ({ name: r.name, specifier: r.specifier, marker: r.marker })),
    optionalDependencies: extras.length,
    directReferences: [...runtime, ...extras]
      .flatMap((r) => directReference(r.name, r.specifier, r.extraOnly) ?? [])
      .slice(0, MAX_DIRECT_REFERENCES),
    ...links,
    hasAuthor: [info.author, info.author_email, info.maintainer, info.maintainer_email].some((v) => clean(v) !== null),
    owners: owners(project.ownership ?? release?.ownership ?? null),
    status: simple?.status ?? null,
    files,
    sdistOnly: files.some((f) => f.packagetype === 'sdist') && !files.some((f) => f.packagetype === 'bdist_wheel'),
    yanked,
    yankedReason: yanked ? (jsonFiles.map((f) => f.yanked_reason).find((r) => r !== null) ?? clean(info.yanked_reason)) : null,
    vulnerabilities: ((release ?? project).vulnerabilities ?? []).map((v) => ({
      id: v.id,
      aliases: v.aliases ?? [],
      summary: v.summary ?? null,
      fixedIn: v.fixed_in ?? [],
      withdrawn: v.withdrawn ?? null,
    })),
  };
}

/**
 * `facts` built without the Simple API (`simple: null`) completed with what it said: the PEP 792
 * status and each file's provenance flag — the same facts `buildPypiFacts` makes with it. Pure.
 */
export function withSimpleFacts(facts: PypiFacts, simple: SimpleFacts): PypiFacts {
  return { ...facts, status: simple.status, files: facts.files.map((file) => ({ ...file, hasProvenance: provenanceOf(file.filename, simple) })) };
}

/** The resolved release's files: the project JSON's `releases` entry, else the version JSON's `urls`. */
function releaseFiles(project: PypiProjectJson, version: string, release: PypiVersionJson | null): PypiJsonFile[] {
  const listed = Object.hasOwn(project.releases, version) ? project.releases[version] : undefined;
  if (listed !== undefined && listed.length > 0) return listed;
  if (release !== null) return release.urls;
  return version === project.info.version ? (project.urls ?? listed ?? []) : (listed ?? []);
}

function fileFacts(file: PypiJsonFile, simple: SimpleFacts | null): PypiFile {
  return {
    filename: file.filename,
    packagetype: file.packagetype,
    size: file.size,
    uploadTime: uploadTime(file),
    yanked: file.yanked === true,
    hasProvenance: simple === null ? null : provenanceOf(file.filename, simple),
    sha256: sha256Of(file),
    url: file.url ?? null,
  };
}

/** `digests.sha256` when it is one (64 hex digits), lower-cased; null otherwise. */
function sha256Of(file: PypiJsonFile): string | null {
  const digest = file.digests?.sha256?.trim().toLowerCase();
  return digest !== undefined && /^[0-9a-f]{64}$/.test(digest) ? digest : null;
}

function provenanceOf(filename: string, simple: SimpleFacts): boolean | null {
  return simple.provenance.get(filename) ?? null;
}

/**
 * Every release, oldest first: by earliest upload time, PEP 440 order breaking ties; releases
 * without files (no time) are placed by PEP 440 order among the others.
 */
export function releaseList(releases: Record<string, PypiJsonFile[]>): PypiRelease[] {
  const all: PypiRelease[] = Object.entries(releases).map(([version, files]) => {
    const times = files.map(uploadTime).filter((t): t is string => t !== null).sort();
    const yanked = files.length > 0 && files.every((f) => f.yanked === true);
    return {
      version,
      time: times[0] ?? null,
      prerelease: isPep440Prerelease(version),
      yanked,
      yankedReason: yanked ? (files.map((f) => f.yanked_reason).find((r) => r !== null) ?? null) : null,
      files: files.length,
    };
  });
  const byVersion = (a: PypiRelease, b: PypiRelease) => comparePep440(a.version, b.version) ?? compareText(a.version, b.version);
  const timed = all.filter((r) => r.time !== null).sort((a, b) => compareText(a.time ?? '', b.time ?? '') || byVersion(a, b));
  const untimed = all.filter((r) => r.time === null).sort(byVersion);
  // Merge: an untimed release goes before the first timed one that PEP 440 orders after it.
  const merged: PypiRelease[] = [];
  let u = 0;
  for (const release of timed) {
    while (u < untimed.length && byVersion(untimed[u] as PypiRelease, release) < 0) merged.push(untimed[u++] as PypiRelease);
    merged.push(release);
  }
  return [...merged, ...untimed.slice(u)];
}

/** The newest release that is neither a pre-release nor yanked (and has files). */
export function latestRelease(releases: readonly PypiRelease[]): string | null {
  let best: string | null = null;
  for (const r of releases) {
    if (r.prerelease || r.yanked || r.files === 0 || validPep440(r.version) === null) continue;
    const order = best === null ? 1 : comparePep440(r.version, best);
    if (order !== null && order > 0) best = r.version;
  }
  return best;
}

/** ISO 8601 UTC (milliseconds), from the ISO field or the zone-less UTC one; null when neither parses. */
function uploadTime(file: PypiJsonFile): string | null {
  const raw = file.upload_time_iso_8601 ?? (file.upload_time === null ? null : `${file.upload_time}Z`);
  if (raw === null) return null;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function description(info: PypiJsonInfo): PypiFacts['description'] {
  if (info.description === undefined || info.description === null) return null;
  // setuptools writes UNKNOWN when a project gave no long description: nothing to read.
  const full = info.description.trim() === PLACEHOLDER ? '' : info.description;
  const text = capUtf8(full, MAX_DESCRIPTION_BYTES);
  const kept = { text, contentType: info.description_content_type, length: full.length, truncated: text.length < full.length };
  if (!kept.truncated) return kept;
  // The sections and examples past the cut are still the README's (util/readme-tail.ts): their headings and code blocks.
  const tail = readmeTail(full, text.length);
  return { ...kept, tailHeadings: tail.headings, tailCodeBlocks: tail.codeBlocks };
}

/** The longest prefix of `text` within `maxBytes` of UTF-8, never splitting a character. */
export function capUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/** `Keywords` is one string, comma- or space-separated (newer metadata: a list). */
function keywords(value: string | string[] | null | undefined): string[] {
  if (value === undefined || value === null) return [];
  const parts = Array.isArray(value) ? value : value.includes(',') ? value.split(',') : value.split(/\s+/);
  return [...new Set(parts.map((k) => k.trim()).filter((k) => k !== ''))].slice(0, MAX_KEYWORDS);
}

/** `Development Status :: N - Name` → `N - Name`; with several, the highest stage. */
function developmentStatus(classifiers: readonly string[]): string | null {
  const stages = classifiers
    .map((c) => /^Development Status :: (\d+ - .+)$/.exec(c)?.[1]?.trim())
    .filter((s): s is string => s !== undefined)
    .sort((a, b) => Number.parseInt(b, 10) - Number.parseInt(a, 10));
  return stages[0] ?? null;
}

/** Distinct users holding a role; null when PyPI gave no ownership, or an organisation owns it and lists no one. */
function owners(ownership: PypiProjectJson['ownership']): number | null {
  if (ownership === undefined || ownership === null || ownership.roles === undefined || ownership.roles === null) return null;
  const users = new Set(ownership.roles.map((r) => r.user));
  if (users.size === 0 && ownership.organization !== null) return null;
  return users.size;
}

function clean(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' || trimmed === PLACEHOLDER ? null : trimmed;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
