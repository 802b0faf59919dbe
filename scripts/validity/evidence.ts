/**
 * A recorded packument → the evidence nerq would have collected on its recording date, through
 * the same code a live check uses for the packument (src/sources/npm/facts.ts). Sources that a
 * packument cannot replay are stated, never invented (MEASUREMENT_SOURCES says how each enters).
 */
import { EVIDENCE_SCHEMA_VERSION, type Evidence, type Sources } from '../../src/evidence/schema.js';
import { NO_PROVENANCE } from '../../src/sources/npm/attestations.js';
import { registryFacts } from '../../src/sources/npm/facts.js';
import { undeclaredRepository } from '../../src/pipeline/collect-github-source.js';
import { resolveEndpoints } from '../../src/sources/endpoints.js';
import { githubRepoOf } from '../../src/sources/github/source.js';
import { purlOf } from '../../src/target/purl.js';
import { VERSION } from '../../src/version.js';

const NOT_RECORDED = 'not recorded in the validity set';

/** How each evidence source enters the measurement (printed by `npm run validity`). */
export const MEASUREMENT_SOURCES: readonly { source: string; how: string }[] = [
  { source: 'registry', how: 'the recorded full packument, read by nerq\'s own packument code; the version judged is `latest` at the recording date, "now" is the recording date' },
  { source: 'tarball', how: 'unavailable (not recorded): the README comes from the packument\'s `readme`, as in a live check without the tarball; licence files, changelog and declaration files are unknown' },
  { source: 'downloads', how: 'unavailable (not recorded): weekly-downloads is unknown and lowers coverage' },
  { source: 'dependencies', how: 'unavailable (not recorded): vulnerable-dependencies is unknown and lowers coverage' },
  { source: 'vulnerabilities', how: 'ASSUMED "no advisory" for the package itself (OSV cannot be replayed as of a past date): this can only raise a score, so the YES shares of abandoned and dormant packages are upper bounds' },
  { source: 'attestations', how: 'none listed in the packument → none (as a live check); listed → unavailable (no bundle recorded)' },
  { source: 'github', how: 'not applicable (not recorded) for a package that declares a GitHub repository: its repository checks (commit activity, archived, …), which would mostly lower stale packages further, are left out; for one that declares none nerq can read, unknown as in a live check (docs/scoring.md §1)' },
];

/**
 * Readings of the unrecorded sources other than the one the figures use, to show what the
 * figures depend on (`npm run validity -- --sensitivity`).
 */
export const VARIANTS = {
  'sizes-small': 'every unknown unpacked size read as small (the finished rule at its most lenient: the tarball would have told)',
  'github-unavailable': 'GitHub unavailable (a rate-limited live run) instead of not applicable: its checks unknown, coverage lower',
} as const;
export type Variant = keyof typeof VARIANTS;

/** The `github` source as a live check would have it, but for the repository's facts, which were not recorded. */
function githubAt(repository: Parameters<typeof undeclaredRepository>[0], variant: Variant | undefined): Sources['github'] {
  // github.com only: the set was recorded from public packages (no Enterprise host is configured).
  if (githubRepoOf(repository, resolveEndpoints({})) === null) return undeclaredRepository(repository);
  return variant === 'github-unavailable' ? { status: 'unavailable', reason: NOT_RECORDED } : { status: 'not-applicable', reason: NOT_RECORDED };
}

export function evidenceAt(packument: Record<string, unknown>, version: string, recordedAt: string, variant?: Variant): Evidence {
  const facts = registryFacts(packument, version);
  if (variant === 'sizes-small' && facts.unpackedSize === null) facts.unpackedSize = 1;
  const sources: Sources = {
    registry: { status: 'ok', facts },
    tarball: { status: 'unavailable', reason: NOT_RECORDED },
    downloads: { status: 'unavailable', reason: NOT_RECORDED },
    dependencies: { status: 'unavailable', reason: NOT_RECORDED },
    vulnerabilities: {
      status: 'ok',
      facts: { advisories: [], dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: NOT_RECORDED },
    },
    attestations: facts.attestations === null ? { status: 'ok', facts: NO_PROVENANCE } : { status: 'unavailable', reason: NOT_RECORDED },
    pypi: { status: 'not-applicable', reason: 'not a PyPI project' },
    github: githubAt(facts.repository, variant),
  };
  return {
    evidenceVersion: EVIDENCE_SCHEMA_VERSION,
    capturedAt: recordedAt,
    tool: { name: 'nerq', version: VERSION },
    target: {
      input: `${facts.name}@${version}`,
      ecosystem: 'npm',
      name: facts.name,
      version,
      purl: purlOf('npm', facts.name, version),
      repository: facts.repository?.url ?? facts.repository?.raw ?? null,
    },
    categoryOverride: null,
    sources,
  };
}
