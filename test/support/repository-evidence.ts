/**
 * Evidence for a `github:owner/repo` target: every package source not applicable, the repository
 * (the healthy default of evidence-builder.ts, verified as the target itself) with its own files.
 */
import type { DistributedPackage, Evidence, GithubDistribution, GithubFiles, GithubReleases, GithubRepository } from '../../src/evidence/schema.js';
import { daysAgo, evidence, githubFacts, notApplicable, type EvidenceOverrides } from './evidence-builder.js';

const NO_PACKAGE = 'a repository target publishes no package';

export function repoManifest(overrides: Partial<GithubFiles['manifests'][number]> = {}): GithubFiles['manifests'][number] {
  return {
    path: 'package.json',
    ecosystem: 'npm',
    name: 'example',
    private: false,
    license: 'MIT',
    keywords: [],
    description: 'Parses examples',
    dependencies: ['zod'],
    devDependencies: ['typescript'],
    hasBin: false,
    ...overrides,
  };
}

export function repoFiles(overrides: Partial<GithubFiles> = {}): GithubFiles {
  return {
    branch: 'main',
    treeTruncated: false,
    entries: 40,
    readme: {
      path: 'README.md',
      size: 120,
      text: '# example\n\nParses examples.\n\n## Install\n\n```sh\nnpm install example\n```\n\n## Usage\n\nCall `parse(text)`.\n',
      truncated: false,
    },
    licenseFiles: [{ path: 'LICENSE', spdx: 'MIT' }],
    changelog: 'CHANGELOG.md',
    docsFolder: false,
    examplesFolder: false,
    securityPolicy: null,
    manifests: [repoManifest()],
    lockfiles: ['package-lock.json'],
    workflows: 1,
    tags: { count: 12, complete: true },
    history: { firstCommitAt: daysAgo(1500), commits: 420, reason: null },
    unread: [],
    requests: 7,
    ...overrides,
  };
}

export interface RepositoryEvidenceOptions {
  /** The files (`null`: they could not be listed, with `filesReason`). */
  files?: GithubFiles | null;
  filesReason?: string;
  repository?: Partial<GithubRepository>;
  /** What it distributes, looked up (absent: not looked up). */
  distribution?: GithubDistribution;
  /** The releases listed (absent: the healthy default of evidence-builder.ts). */
  releases?: GithubReleases | null;
  extra?: Pick<EvidenceOverrides, 'capturedAt' | 'categoryOverride'>;
}

export function repositoryEvidence(options: RepositoryEvidenceOptions = {}): Evidence {
  const base = githubFacts();
  const repository = { ...(base.repository as GithubRepository), createdAt: daysAgo(1500), ...options.repository };
  const files = options.files === undefined ? repoFiles() : options.files;
  return evidence({
    ...options.extra,
    target: { input: 'github:example/example', ecosystem: 'github', name: 'example/example', version: null, purl: 'pkg:github/example/example' },
    registry: notApplicable(NO_PACKAGE),
    tarball: notApplicable(NO_PACKAGE),
    downloads: notApplicable(NO_PACKAGE),
    dependencies: notApplicable(NO_PACKAGE),
    vulnerabilities: notApplicable(NO_PACKAGE),
    attestations: notApplicable(NO_PACKAGE),
    github: githubFacts({
      repository,
      link: { verifiedBy: 'target', reason: 'the target is the repository itself' },
      files,
      ...(options.releases === undefined ? {} : { releases: options.releases }),
      ...(options.distribution === undefined ? {} : { distribution: options.distribution }),
      unknown: files === null ? { files: options.filesReason ?? 'repository tree: HTTP 500' } : {},
    }),
  });
}

/** A package the repository advertises (`command`) or declares, as looked up. */
export function distributed(overrides: Partial<DistributedPackage> = {}): DistributedPackage {
  return {
    ecosystem: 'npm',
    name: 'example',
    command: 'npm install example',
    declared: true,
    status: 'verified',
    linksTo: 'https://github.com/example/example',
    reason: 'package.json at main names "example"',
    ...overrides,
  };
}
