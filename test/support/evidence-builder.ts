/**
 * Builders for small, schema-valid evidence in tests. Every builder starts from a healthy
 * example package, applies the overrides, and validates the result with the zod schemas
 * (so a test can never run on evidence the real pipeline could not produce).
 *
 *   evidence({ registry: { deprecated: 'use x instead' }, tarball: unavailable('timeout') })
 *
 * A source override is either partial facts (merged over the defaults) or a whole source
 * result (`unavailable(reason)` or `ok(facts)`).
 */
import {
  AdvisoryFactsSchema,
  AttestationFactsSchema,
  DependencyFactsSchema,
  DownloadFactsSchema,
  EVIDENCE_SCHEMA_VERSION,
  GithubFactsSchema,
  PypiFactsSchema,
  EvidenceSchema,
  RegistryFactsSchema,
  TarballFactsSchema,
  VulnerabilityFactsSchema,
} from '../../src/evidence/schema.js';
import type {
  AdvisoryFacts,
  AttestationFacts,
  DependencyFacts,
  DownloadFacts,
  Evidence,
  GithubFacts,
  PypiFacts,
  RegistryFacts,
  TarballFacts,
  TarballManifest,
  VulnerabilityFacts,
} from '../../src/evidence/schema.js';
import { VERSION } from '../../src/version.js';

/** The instant the example evidence was captured; time-based checks run "as of" it. */
export const NOW = new Date('2026-06-01T00:00:00.000Z');
const DAY_MS = 86_400_000;

/** ISO time `days` before NOW (fractions allowed). */
export function daysAgo(days: number, now: Date = NOW): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}

/** A versions list from `[version, days before NOW]` pairs (null = no publish time), oldest first as given. */
export function versionsAgo(entries: readonly (readonly [string, number | null])[], now: Date = NOW): RegistryFacts['versions'] {
  return entries.map(([version, days]) => ({ version, time: days === null ? null : daysAgo(days, now) }));
}

export type Unavailable = { status: 'unavailable'; reason: string; unread?: true };
export type NotApplicable = { status: 'not-applicable'; reason: string };

/** A source that does not exist for the target (checks needing it are left out). */
export function notApplicable(reason = 'not applicable'): NotApplicable {
  return { status: 'not-applicable', reason };
}

/** A source that could not answer. */
export function unavailable(reason: string): Unavailable {
  return { status: 'unavailable', reason };
}

/** A source that answered with these facts. */
export function ok<F>(facts: F): { status: 'ok'; facts: F } {
  return { status: 'ok', facts };
}

const DEFAULT_README = `# example

A small example package used by nerq's tests. It parses things and formats them again,
and this paragraph exists so that the README has enough prose to count as documentation.

## Installation

\`\`\`sh
npm install example
\`\`\`

## Usage

\`\`\`js
import { parse } from 'example';
parse('input');
\`\`\`

## API

### parse(text, options)

Parses the text. Options: \`strict\` (boolean) rejects unknown input.

## License

MIT
`;

export function registryFacts(overrides: Partial<RegistryFacts> = {}): RegistryFacts {
  const name = overrides.name ?? 'example';
  const version = overrides.version ?? '2.1.0';
  return RegistryFactsSchema.parse({
    name,
    version,
    versions: versionsAgo([
      ['1.0.0', 1000],
      ['1.1.0', 700],
      ['2.0.0', 400],
      ['2.0.1', 200],
      ['2.1.0', 30],
    ]),
    distTags: { latest: version },
    trimmed: false,
    description: 'An example package',
    keywords: ['example', 'parser'],
    license: 'MIT',
    licenseLegacyForm: false,
    homepage: 'https://github.com/example/example#readme',
    bugs: 'https://github.com/example/example/issues',
    repository: {
      raw: 'git+https://github.com/example/example.git',
      host: 'github',
      url: 'https://github.com/example/example',
      slug: 'example/example',
      directory: null,
    },
    engines: { node: '>=18' },
    dependencies: 2,
    devDependencies: 5,
    peerDependencies: 0,
    optionalDependencies: 0,
    dependencyRanges: { 'dep-a': '^1.0.0', 'dep-b': '^2.3.0' },
    installScripts: {},
    gypfile: false,
    hasBin: false,
    declaresTypes: true,
    deprecated: false,
    maintainers: 3,
    publisher: 'alice',
    previousPublisher: 'alice',
    attestations: { url: 'https://example.test/attestations/example@2.1.0', predicateType: 'https://slsa.dev/provenance/v1' },
    signatures: 1,
    securityHolding: false,
    isLatest: true,
    previous: {
      version: '2.0.1',
      time: daysAgo(200),
      publisher: 'alice',
      hasAttestations: true,
      installScripts: [],
      hasBin: false,
      unpackedSize: 46_000,
      dependencies: 2,
      dependencyNames: ['dep-a', 'dep-b'],
    },
    priorPublishers: ['alice'],
    tarballUrl: `{{REGISTRY}}/${name}/-/${name.replace(/^@[^/]+\//, '')}-${version}.tgz`,
    integrity: 'sha512-ZXhhbXBsZQ==',
    unpackedSize: 48_000,
    fileCount: 12,
    ...overrides,
  });
}

/** The tarball's own package.json as the registry's manifest describes it (no manifest confusion). */
export function manifestOf(registry: RegistryFacts): TarballManifest {
  return {
    name: registry.name,
    version: registry.version,
    installScripts: { ...registry.installScripts },
    dependencies: { ...registry.dependencyRanges },
    hasBin: registry.hasBin,
    nonRegistryDependencies: [...registry.nonRegistryDependencies],
    ...(registry.gypfileDisabled === true ? { gypfileDisabled: true } : {}),
  };
}

export function tarballFacts(overrides: Partial<TarballFacts> = {}): TarballFacts {
  return TarballFactsSchema.parse({
    manifest: manifestOf(registryFacts()),
    manifestProblem: null,
    manifestOverCap: false,
    root: 'package',
    fileCount: 12,
    unpackedSize: 48_000,
    readme: { path: 'README.md', size: DEFAULT_README.length, text: DEFAULT_README, truncated: false },
    licenseFiles: [{ path: 'LICENSE', spdx: 'MIT' }],
    securityFile: null,
    contributingFile: null,
    changelogFile: 'CHANGELOG.md',
    declarationFiles: 3,
    bindingGyp: false,
    nativeFiles: 0,
    ...overrides,
  });
}

export function downloadFacts(overrides: Partial<DownloadFacts> = {}): DownloadFacts {
  return DownloadFactsSchema.parse({ lastWeek: 52_000, lastMonth: null, lastYear: 2_600_000, ...overrides });
}

export function dependencyFacts(overrides: Partial<DependencyFacts> = {}): DependencyFacts {
  return DependencyFactsSchema.parse({
    dependencies: [
      { name: 'dep-a', range: '^1.0.0', version: '1.4.2', reason: null, securityHolding: false, versionCount: 14, packumentModified: daysAgo(90) },
      { name: 'dep-b', range: '^2.3.0', version: '2.3.9', reason: null, securityHolding: false, versionCount: 31, packumentModified: daysAgo(400) },
    ],
    ...overrides,
  });
}

/** One advisory affecting the target's resolved version (override anything). */
export function advisory(overrides: Partial<AdvisoryFacts> = {}): AdvisoryFacts {
  return AdvisoryFactsSchema.parse({
    id: 'GHSA-xxxx-yyyy-zzzz',
    aliases: ['CVE-2026-0001'],
    summary: 'Prototype pollution in example',
    severity: 'high',
    severitySource: 'cvss',
    cvss: 7.5,
    cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N',
    package: 'example',
    version: '2.1.0',
    affectsResolved: true,
    fixed: '2.1.1',
    published: daysAgo(40),
    malicious: false,
    url: 'https://osv.dev/vulnerability/GHSA-xxxx-yyyy-zzzz',
    ...overrides,
  });
}

export function vulnerabilityFacts(overrides: Partial<VulnerabilityFacts> = {}): VulnerabilityFacts {
  return VulnerabilityFactsSchema.parse({ advisories: [], dependencyAdvisories: [], dependenciesQueried: 2, ...overrides });
}

export function attestationFacts(overrides: Partial<AttestationFacts> = {}): AttestationFacts {
  return AttestationFactsSchema.parse({
    provenance: true,
    predicateType: 'https://slsa.dev/provenance/v1',
    sourceRepository: 'https://github.com/example/example',
    workflow: '.github/workflows/release.yml',
    ref: 'refs/tags/v2.1.0',
    commit: '0123456789abcdef0123456789abcdef01234567',
    builder: 'https://github.com/actions/runner/github-hosted',
    verified: false,
    ...overrides,
  });
}

/**
 * A healthy, active, verified GitHub repository (github.com/example/example). Sections are
 * replaced whole: `githubFacts({ activity: null, unknown: { activity: '202 …' } })`.
 */
export function githubFacts(overrides: Partial<GithubFacts> = {}): GithubFacts {
  return GithubFactsSchema.parse({
    state: 'present',
    absentReason: null,
    repository: {
      host: 'github.com',
      fullName: 'example/example',
      renamedFrom: null,
      htmlUrl: 'https://github.com/example/example',
      archived: false,
      disabled: false,
      fork: false,
      createdAt: daysAgo(1500),
      pushedAt: daysAgo(3),
      defaultBranch: 'main',
      stars: 4_200,
      forks: 310,
      watchers: 60,
      openIssues: 25,
      license: 'MIT',
      topics: ['parser'],
      homepage: null,
      hasIssues: true,
    },
    activity: { commits90d: 42, commits365d: 180, authors90d: 5, authors365d: 12, lastCommitAt: daysAgo(3), truncated: false },
    releases: {
      last12Months: 6,
      latest: { tag: 'v2.1.0', publishedAt: daysAgo(30), signatureAssets: ['example-2.1.0.tgz.sigstore'], assets: 2 },
      signedReleases: 5,
      examined: 6,
    },
    contributors: { count: 48, busFactor: 3, topShare: 0.35 },
    responsiveness: {
      windowDays: 180,
      issues: { sampled: 40, responded: 36, medianHoursToResponse: 20 },
      pulls: { sampled: 30, responded: 29, merged: 24, closedUnmerged: 4, medianHoursToResponse: 12 },
      method: 'first-response',
    },
    community: {
      readme: true,
      contributing: true,
      codeOfConduct: true,
      issueTemplate: true,
      pullRequestTemplate: true,
      securityPolicy: true,
      healthPercentage: 100,
    },
    ci: { workflows: 3, otherCi: [], dependencyUpdates: ['dependabot'] },
    link: { verifiedBy: 'manifest', reason: 'package.json at main names "example"' },
    unknown: {},
    via: { api: 'rest', requests: 9 },
    ...overrides,
  });
}

/** A healthy PyPI project (example 2.1.0, wheel and sdist, MIT by PEP 639 expression, typed). */
export function pypiFacts(overrides: Partial<PypiFacts> = {}): PypiFacts {
  const version = overrides.version ?? '2.1.0';
  return PypiFactsSchema.parse({
    name: 'example',
    version,
    releases: [
      ['1.0.0', 1000],
      ['1.1.0', 700],
      ['2.0.0', 400],
      ['2.0.1', 200],
      ['2.1.0', 30],
    ].map(([v, days]) => ({ version: v, time: daysAgo(days as number), prerelease: false, yanked: false, yankedReason: null, files: 2 })),
    latest: version,
    summary: 'An example project',
    description: { text: DEFAULT_README, contentType: 'text/markdown', length: DEFAULT_README.length, truncated: false },
    keywords: ['example', 'parser'],
    license: { expression: 'MIT', classifiers: [], text: null, spdx: 'MIT', source: 'expression', files: ['LICENSE'] },
    classifiers: ['Development Status :: 5 - Production/Stable', 'Typing :: Typed', 'Programming Language :: Python :: 3'],
    developmentStatus: '5 - Production/Stable',
    typed: true,
    requiresPython: '>=3.9',
    dependencies: [{ name: 'dep-a', specifier: '>=1.0', marker: null }],
    optionalDependencies: 1,
    projectUrls: {
      Homepage: 'https://github.com/example/example',
      Documentation: 'https://example.readthedocs.io',
      Changelog: 'https://github.com/example/example/blob/main/CHANGES.md',
    },
    homepage: 'https://github.com/example/example',
    documentationUrl: 'https://example.readthedocs.io',
    changelogUrl: 'https://github.com/example/example/blob/main/CHANGES.md',
    issuesUrl: 'https://github.com/example/example/issues',
    repository: {
      raw: 'https://github.com/example/example',
      host: 'github',
      url: 'https://github.com/example/example',
      slug: 'example/example',
      directory: null,
    },
    hasAuthor: true,
    owners: 2,
    status: { status: 'active', reason: null },
    files: [
      { filename: `example-${version}-py3-none-any.whl`, packagetype: 'bdist_wheel', size: 40_000, uploadTime: daysAgo(30), yanked: false, hasProvenance: true },
      { filename: `example-${version}.tar.gz`, packagetype: 'sdist', size: 38_000, uploadTime: daysAgo(30), yanked: false, hasProvenance: true },
    ],
    sdistOnly: false,
    // Its wheel read by range requests: no `.pth` startup hook.
    wheelContents: {
      wheel: `example-${version}-py3-none-any.whl`,
      unavailable: null,
      size: 40_000,
      bytesRead: 1_200,
      entries: 10,
      hooks: [],
      hooksUnread: 0,
      importCode: { files: [{ path: 'example/__init__.py', size: 600, unread: null, flags: [], excerpts: [] }], skipped: 0 },
    },
    yanked: false,
    yankedReason: null,
    vulnerabilities: [],
    ...overrides,
  });
}

type SourceOverride<F> = Partial<F> | { status: 'ok'; facts: F } | Unavailable | NotApplicable;

export interface EvidenceOverrides {
  capturedAt?: string;
  target?: Partial<Evidence['target']>;
  categoryOverride?: string | null;
  registry?: SourceOverride<RegistryFacts>;
  tarball?: SourceOverride<TarballFacts>;
  downloads?: SourceOverride<DownloadFacts>;
  dependencies?: SourceOverride<DependencyFacts>;
  vulnerabilities?: SourceOverride<VulnerabilityFacts>;
  attestations?: SourceOverride<AttestationFacts>;
  /** PyPI facts: not-applicable unless given (the default evidence is an npm package). */
  pypi?: SourceOverride<PypiFacts>;
  /** GitHub facts: not-applicable unless given; `{}` gives the healthy default repository. */
  github?: SourceOverride<GithubFacts>;
}

function isResult<F>(value: SourceOverride<F>): value is { status: 'ok'; facts: F } | Unavailable | NotApplicable {
  // PyPI facts have a `status` field of their own (the project status): a result's is a string.
  return typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'string';
}

function source<F>(override: SourceOverride<F> | undefined, build: (o: Partial<F>) => F) {
  if (override !== undefined && isResult(override)) return override;
  return ok(build(override ?? {}));
}

/** A package URL for an npm name and version (`@scope` encoded as `%40scope`). */
function npmPurl(name: string, version: string): string {
  return `pkg:npm/${name.startsWith('@') ? `%40${name.slice(1)}` : name}@${version}`;
}

/** A full, schema-valid Evidence: every source ok, no advisories, provenance from the declared repository. */
export function evidence(overrides: EvidenceOverrides = {}): Evidence {
  const registry = source(overrides.registry, registryFacts);
  const name = registry.status === 'ok' ? registry.facts.name : 'example';
  const version = registry.status === 'ok' ? registry.facts.version : null;
  return EvidenceSchema.parse({
    evidenceVersion: EVIDENCE_SCHEMA_VERSION,
    capturedAt: overrides.capturedAt ?? NOW.toISOString(),
    tool: { name: 'nerq', version: VERSION },
    target: {
      input: name,
      ecosystem: 'npm',
      name,
      version,
      purl: version === null ? null : npmPurl(name, version),
      repository: registry.status === 'ok' ? registry.facts.repository?.url ?? null : null,
      ...overrides.target,
    },
    categoryOverride: overrides.categoryOverride ?? null,
    sources: {
      registry,
      // The tarball's package.json says what the registry says unless a test changes it.
      tarball: source(overrides.tarball, (o) => tarballFacts({ ...(registry.status === 'ok' ? { manifest: manifestOf(registry.facts) } : {}), ...o })),
      downloads: source(overrides.downloads, downloadFacts),
      dependencies: source(overrides.dependencies, dependencyFacts),
      vulnerabilities: source(overrides.vulnerabilities, vulnerabilityFacts),
      attestations: source(overrides.attestations, attestationFacts),
      pypi: overrides.pypi === undefined ? notApplicable('not a PyPI project') : source(overrides.pypi, pypiFacts),
      github:
        overrides.github === undefined ? notApplicable('no GitHub repository') : source(overrides.github, githubFacts),
    },
  });
}
