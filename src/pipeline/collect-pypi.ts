/**
 * PyPI: resolve the release from the project's JSON (PEP 440, yanked files, pre-releases), then
 * collect in parallel: downloads (pypistats), the runtime dependencies as pip would install them
 * today, OSV advisories for the release and those dependencies, and the GitHub repository.
 */
import type { Evidence, Sources } from '../evidence/schema.js';
import { EVIDENCE_SCHEMA_VERSION } from '../evidence/schema.js';
import { collectPypi, fetchPypiDownloads, resolvePypiDependencies } from '../sources/pypi.js';
import { pep503, purlOf } from '../target/purl.js';
import type { Target } from '../target/types.js';
import { VERSION } from '../version.js';
import { githubSourceFor } from './collect-github-source.js';
import type { Collected } from './collect-npm.js';
import type { RunContext } from './context.js';
import { vulnerabilitiesFor } from './vulnerabilities-for.js';

const NOT_NPM = 'not an npm package';

export async function collectPypiTarget(target: Target, ctx: RunContext): Promise<Collected> {
  const collected = await collectPypi(ctx.http, ctx.endpoints.pypi, target.name, target.spec);
  if (collected.kind === 'error') {
    return { kind: 'error', code: collected.code, message: collected.message, ...(collected.version ? { version: collected.version } : {}) };
  }
  const { facts } = collected;
  const attestations = Promise.resolve(collected.attestations);

  const dependenciesResult: Promise<Sources['dependencies']> = ctx.skipDependencies
    ? Promise.resolve({ status: 'not-applicable', reason: 'in an audit every dependency is evaluated on its own' })
    : resolvePypiDependencies(ctx.http, ctx.endpoints.pypi, facts.dependencies);
  const [downloads, dependencies, vulnerabilities, github] = await Promise.all([
    fetchPypiDownloads(ctx.http, ctx.endpoints.pypiStats, facts.name),
    dependenciesResult,
    // OSV matches PyPI names after PEP 503 normalisation; ask with the canonical form.
    vulnerabilitiesFor(ctx, 'PyPI', { name: pep503(facts.name), version: facts.version }, dependenciesResult),
    githubSourceFor(ctx, { ecosystem: 'pypi', name: facts.name, repository: facts.repository }, attestations),
  ]);

  const sources: Sources = {
    registry: { status: 'not-applicable', reason: NOT_NPM },
    tarball: { status: 'not-applicable', reason: NOT_NPM },
    downloads,
    dependencies,
    vulnerabilities,
    attestations: collected.attestations,
    pypi: { status: 'ok', facts },
    github,
  };
  return { kind: 'evidence', evidence: evidenceOf(target, ctx, sources, facts.name, facts.version, facts.repository?.url ?? null) };
}

function evidenceOf(
  target: Target,
  ctx: RunContext,
  sources: Sources,
  name: string,
  version: string,
  repository: string | null,
): Evidence {
  return {
    evidenceVersion: EVIDENCE_SCHEMA_VERSION,
    capturedAt: ctx.now.toISOString(),
    tool: { name: 'nerq', version: VERSION },
    target: { input: target.input, ecosystem: 'pypi', name, version, purl: purlOf('pypi', name, version), repository },
    categoryOverride: ctx.category ?? null,
    sources,
  };
}
