/**
 * The synthetic world's model: what each package, repository and advisory is like, decided
 * from the seed alone. Nothing here renders a body; see npm.ts, tarball.ts, osv.ts, github.ts.
 *
 * Prefix-stable: package i depends only on packages with a smaller index, and its name only on
 * the names before it, so the first N packages of a bigger world are the world of N packages
 * (the 100-, 1,000- and 5,000-package audits share their first packages).
 */
import semver from 'semver';
import { streamFor, type Random } from '../random.js';
import { DEV_DEPENDENCIES, LICENSES, NAME_WORDS, ORG_WORDS, PERSON_WORDS, TOPICS } from './words.js';

export const DAY_MS = 86_400_000;

export interface VersionSpec {
  version: string;
  /** ISO publish time. */
  time: string;
  publisher: string;
}

export type RepositorySpec =
  | { kind: 'github'; owner: string; name: string; directory: string | null; url: string }
  | { kind: 'other'; url: string };

export interface AdvisorySpec {
  id: string;
  aliases: string[];
  packageName: string;
  introduced: string;
  /** Null: no fixed version yet. */
  fixed: string | null;
  cvssVector: string;
  summary: string;
  published: string;
  modified: string;
}

export interface PackageSpec {
  index: number;
  name: string;
  /** Oldest first. */
  versions: VersionSpec[];
  latest: string;
  /** The version the lockfile pins. */
  locked: string;
  /** A big project: thousands of versions, a packument of 10–20 MB. */
  big: boolean;
  description: string;
  keywords: string[];
  license: string;
  author: string;
  maintainers: string[];
  repository: RepositorySpec | null;
  /** Runtime dependencies (names of packages with a smaller index) and their ranges. */
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  /** Versions that carry a provenance attestation. */
  attested: ReadonlySet<string>;
  postinstall: boolean;
  deprecatedLatest: boolean;
  types: boolean;
  weeklyDownloads: number;
  /** Advisories about this package (any version). */
  advisories: AdvisorySpec[];
  /** Shape of its tarball: unpacked bytes of code, README and whether a LICENSE ships. */
  codeBytes: number;
  readmeBytes: number;
  hasLicenseFile: boolean;
  /** Bytes of a native binary in the tarball (a platform package's, `@next/swc-*`); 0 for none. */
  binaryBytes: number;
  hasReadme: boolean;
}

export interface RepositoryFacts {
  owner: string;
  name: string;
  /** Packages published from it (a monorepo has several), with their directory. */
  packages: Array<{ name: string; directory: string | null }>;
  license: string;
}

export interface WorldModel {
  seed: number;
  now: Date;
  packages: PackageSpec[];
  byName: Map<string, PackageSpec>;
  /** `owner/name` (lower case) → repository. */
  repositories: Map<string, RepositoryFacts>;
  advisories: Map<string, AdvisorySpec>;
  /** The package the single-check workloads evaluate. */
  checkTarget: PackageSpec;
}

export interface ModelOptions {
  seed: number;
  count: number;
  now: Date;
  /** Indexes of the big projects (default: a few spread over the first 1,000). */
  bigIndexes?: readonly number[];
  /**
   * Indexes of platform-binary packages: named `@next/swc-<platform>`, their tarballs carry a
   * 30–45 MiB incompressible native binary (workloads/heavy.ts). Default: none.
   */
  binaryIndexes?: readonly number[];
}

/** The platforms of `@next/swc-*` packages, in the order binary packages are named. */
const SWC_PLATFORMS = ['linux-x64-gnu', 'linux-x64-musl', 'linux-arm64-gnu', 'linux-arm64-musl', 'darwin-x64', 'darwin-arm64', 'win32-x64-msvc', 'win32-arm64-msvc'] as const;

/** Big projects: two inside the first 100 packages, two more inside the first 1,000. */
export const DEFAULT_BIG_INDEXES = [7, 61, 333, 777] as const;

const GHSA_CHARS = '23456789cfghjmpqrvwx';

const CVSS_VECTORS = [
  'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', // critical
  'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H', // high
  'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:H', // moderate
  'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', // moderate
  'CVSS:3.1/AV:L/AC:H/PR:L/UI:N/S:U/C:L/I:N/A:N', // low
] as const;

const ADVISORY_KINDS = [
  'Regular expression denial of service',
  'Prototype pollution',
  'Path traversal',
  'Uncontrolled resource consumption',
  'Improper input validation',
  'Command injection',
] as const;

export function buildModel(options: ModelOptions): WorldModel {
  const { seed, count, now } = options;
  const big = new Set(options.bigIndexes ?? DEFAULT_BIG_INDEXES);
  const binaries = [...(options.binaryIndexes ?? [])];
  const packages: PackageSpec[] = [];
  const byName = new Map<string, PackageSpec>();
  const repositories = new Map<string, RepositoryFacts>();
  const advisories = new Map<string, AdvisorySpec>();

  for (let index = 0; index < count; index++) {
    const r = streamFor(seed, 'package', index);
    const generatedName = uniqueName(r, byName);
    const binary = binaries.indexOf(index);
    const name = binary < 0 ? generatedName : `@next/swc-${SWC_PLATFORMS[binary % SWC_PLATFORMS.length]}${binary < SWC_PLATFORMS.length ? '' : `-${binary}`}`;
    const spec = packageSpec(r, seed, index, name, big.has(index), now, packages);
    if (binary >= 0) spec.binaryBytes = streamFor(seed, 'binary', index).int(30 * 1024 * 1024, 45 * 1024 * 1024);
    packages.push(spec);
    byName.set(name, spec);
    if (spec.repository?.kind === 'github') {
      const key = `${spec.repository.owner}/${spec.repository.name}`.toLowerCase();
      const repo = repositories.get(key) ?? {
        owner: spec.repository.owner,
        name: spec.repository.name,
        packages: [],
        license: spec.license,
      };
      repo.packages.push({ name, directory: spec.repository.directory });
      repositories.set(key, repo);
    }
    for (const advisory of spec.advisories) advisories.set(advisory.id, advisory);
  }
  return { seed, now, packages, byName, repositories, advisories, checkTarget: pickCheckTarget(packages) };
}

/**
 * The package of the single-check workloads: a typical one — a GitHub repository, a handful
 * of dependencies (their packuments are fetched too), a usual version history, not big.
 */
export function pickCheckTarget(packages: readonly PackageSpec[]): PackageSpec {
  const typical = packages.find(
    (p) =>
      p.index >= 40 &&
      !p.big &&
      p.repository?.kind === 'github' &&
      p.repository.directory === null &&
      Object.keys(p.dependencies).length >= 4 &&
      Object.keys(p.dependencies).length <= 8 &&
      p.versions.length >= 8 &&
      p.versions.length <= 60 &&
      p.advisories.length === 0 &&
      !p.deprecatedLatest,
  );
  return typical ?? packages[packages.length - 1]!;
}

function uniqueName(r: Random, taken: ReadonlyMap<string, unknown>): string {
  for (let attempt = 0; ; attempt++) {
    const words = r.int(1, 10) <= 7 ? 2 : 3;
    const parts = Array.from({ length: words }, () => r.pick(NAME_WORDS));
    let name = parts.join('-');
    if (attempt > 3) name = `${name}-${r.int(2, 99)}`;
    if (r.chance(0.15)) name = `@${r.pick(ORG_WORDS)}/${name}`;
    if (!taken.has(name)) return name;
  }
}

function packageSpec(
  r: Random,
  seed: number,
  index: number,
  name: string,
  big: boolean,
  now: Date,
  earlier: readonly PackageSpec[],
): PackageSpec {
  const versions = versionHistory(r, big, now);
  const latestEntry = versions.filter((v) => semver.prerelease(v.version) === null).at(-1) ?? versions.at(-1)!;
  const latest = latestEntry.version;
  const releases = versions.filter((v) => semver.prerelease(v.version) === null).map((v) => v.version);
  // Lockfiles drift: most pins are the latest release, some an older one.
  const locked = r.chance(0.8) || releases.length < 2 ? latest : r.pick(releases.slice(-10, -1));

  const scoped = name.startsWith('@');
  const org = scoped ? name.slice(1, name.indexOf('/')) : null;
  const bare = scoped ? name.slice(name.indexOf('/') + 1) : name;
  const author = r.pick(PERSON_WORDS);
  const repository = repositorySpec(r, org, bare, author);

  const dependencies: Record<string, string> = {};
  const wanted = Math.min(index, big ? r.int(8, 20) : Math.round(Math.min(25, r.logNormal(2, 0.9))));
  for (let tries = 0; Object.keys(dependencies).length < wanted && tries < wanted * 4; tries++) {
    // Earlier packages are the popular ones: bias the pick towards small indexes.
    const dep = earlier[Math.floor(index * r.next() ** 2)];
    if (dep !== undefined) dependencies[dep.name] = `^${dep.locked}`;
  }
  const devDependencies: Record<string, string> = {};
  for (let i = r.int(2, big ? 25 : 10); i > 0; i--) devDependencies[r.pick(DEV_DEPENDENCIES)] = `^${r.int(1, 9)}.${r.int(0, 20)}.0`;

  const attested = new Set<string>();
  if (repository?.kind === 'github' && r.chance(0.12)) {
    for (const v of versions.slice(-r.int(1, 6))) attested.add(v.version);
  }

  const advisories: AdvisorySpec[] = [];
  if (r.chance(big ? 0.5 : 0.04) && releases.length >= 3) {
    for (let i = r.int(1, 2); i > 0; i--) advisories.push(advisorySpec(streamFor(seed, 'advisory', index, i), name, releases, versions, now));
  }
  // Half the vulnerable packages are pinned at an affected version.
  const affected = advisories.flatMap((a) => releases.filter((v) => isAffected(v, a)));
  const lockedFinal = advisories.length > 0 && affected.length > 0 && r.chance(0.5) ? r.pick(affected.slice(-5)) : locked;

  return {
    index,
    name,
    versions,
    latest,
    locked: lockedFinal,
    big,
    description: `${capitalise(bare.replace(/-/g, ' '))} for Node.js: ${r.pick(['small', 'fast', 'typed', 'tested', 'zero-dependency', 'streaming'])} and ${r.pick(['simple', 'safe', 'extensible', 'well documented', 'battle tested'])}`,
    keywords: Array.from(new Set(bare.split('-').concat(r.pick(TOPICS)))),
    license: r.chance(0.02) ? 'UNLICENSED' : r.pick(LICENSES),
    author,
    maintainers: Array.from(new Set([author, ...Array.from({ length: r.int(0, big ? 6 : 2) }, () => r.pick(PERSON_WORDS))])),
    repository,
    dependencies,
    devDependencies,
    attested,
    postinstall: r.chance(0.02),
    deprecatedLatest: !big && r.chance(0.01),
    types: r.chance(0.4),
    weeklyDownloads: Math.round(big ? r.logNormal(20_000_000, 0.8) : r.logNormal(4_000, 2.2)),
    advisories,
    codeBytes: Math.round(Math.min(big ? 4_000_000 : 1_500_000, r.logNormal(big ? 600_000 : 14_000, 1.1))),
    readmeBytes: Math.round(Math.min(60_000, r.logNormal(big ? 20_000 : 3_000, 0.8))),
    hasLicenseFile: r.chance(0.93),
    hasReadme: r.chance(0.97),
    binaryBytes: 0,
  };
}

function repositorySpec(r: Random, org: string | null, bare: string, author: string): RepositorySpec | null {
  if (org !== null) {
    // Scoped packages of an organisation live in its monorepo.
    return { kind: 'github', owner: org, name: org, directory: `packages/${bare}`, url: `git+https://github.com/${org}/${org}.git` };
  }
  const roll = r.next();
  if (roll < 0.08) return null;
  if (roll < 0.13) return { kind: 'other', url: `git+https://gitlab.com/${author}/${bare}.git` };
  const owner = r.chance(0.5) ? author : `${author}${r.int(1, 99)}`;
  return { kind: 'github', owner, name: bare, directory: null, url: `git+https://github.com/${owner}/${bare}.git` };
}

/** Versions oldest first, with publish times between creation and (a while before) now. */
function versionHistory(r: Random, big: boolean, now: Date): VersionSpec[] {
  const count = big ? r.int(2400, 3000) : Math.max(1, Math.min(400, Math.round(r.logNormal(12, 1.0))));
  const ageDays = big ? r.int(3000, 4500) : Math.max(30, Math.round(r.logNormal(1200, 0.7)));
  const quietDays = big ? r.int(1, 10) : Math.min(ageDays - 1, Math.round(r.logNormal(120, 1.3)));
  const first = now.getTime() - ageDays * DAY_MS;
  const last = now.getTime() - quietDays * DAY_MS;
  let major = r.chance(0.3) ? 0 : 1;
  let minor = major === 0 ? 1 : 0;
  let patch = 0;
  const publishers = [r.pick(PERSON_WORDS), r.pick(PERSON_WORDS)];
  const out: VersionSpec[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      const roll = r.next();
      if (roll < (big ? 0.01 : 0.05)) [major, minor, patch] = [major + 1, 0, 0];
      else if (roll < 0.3) [minor, patch] = [minor + 1, 0];
      else patch += 1;
    }
    const base = `${major}.${minor}.${patch}`;
    // Big projects publish prereleases (nightlies, betas) too.
    const version = big && i < count - 1 && r.chance(0.3) ? `${base}-dev.${i}` : base;
    const time = new Date(first + ((last - first) * i) / Math.max(1, count - 1)).toISOString();
    out.push({ version, time, publisher: publishers[i % 7 === 0 ? 1 : 0]! });
  }
  // Prerelease keys may collide with later bumps of the same base; keep the first.
  const seen = new Set<string>();
  return out.filter((v) => (seen.has(v.version) ? false : (seen.add(v.version), true)));
}

function advisorySpec(r: Random, packageName: string, releases: readonly string[], versions: readonly VersionSpec[], now: Date): AdvisorySpec {
  const fixedAt = r.chance(0.85) ? r.int(Math.max(1, releases.length - 8), releases.length - 1) : null;
  const introducedAt = fixedAt === null ? r.int(0, releases.length - 1) : r.int(Math.max(0, fixedAt - 6), fixedAt - 1);
  const fixed = fixedAt === null ? null : (releases[fixedAt] as string);
  const group = () => Array.from({ length: 4 }, () => GHSA_CHARS[r.int(0, GHSA_CHARS.length - 1)]).join('');
  const published = versions.find((v) => v.version === (fixed ?? releases.at(-1)))?.time ?? now.toISOString();
  const kind = r.pick(ADVISORY_KINDS);
  return {
    id: `GHSA-${group()}-${group()}-${group()}`,
    aliases: [`CVE-${r.int(2019, 2026)}-${r.int(10000, 59999)}`],
    packageName,
    introduced: introducedAt === 0 ? '0' : (releases[introducedAt] as string),
    fixed,
    cvssVector: r.pick(CVSS_VECTORS),
    summary: `${kind} in ${packageName}`,
    published,
    modified: published,
  };
}

/** OSV's ECOSYSTEM range semantics: introduced ≤ v < fixed (no fix: every later version). */
export function isAffected(version: string, advisory: AdvisorySpec): boolean {
  if (advisory.introduced !== '0' && semver.lt(version, advisory.introduced)) return false;
  return advisory.fixed === null || semver.lt(version, advisory.fixed);
}

/** Versions of a package whose tarballs and manifests the workloads may fetch. */
export function materialisedVersions(spec: PackageSpec): string[] {
  return spec.locked === spec.latest ? [spec.latest] : [spec.locked, spec.latest];
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
