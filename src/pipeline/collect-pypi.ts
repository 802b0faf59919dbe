/**
 * PyPI: resolve the release from the project's JSON (PEP 440, yanked files, pre-releases), then
 * collect in parallel: downloads (pypistats), the runtime dependencies as pip would install them
 * today, OSV advisories for the release and those dependencies, and the GitHub repository.
 * The release's facts and provenance come from the facts cache when a run already read them.
 */
import type { Sources } from '../evidence/schema.js';
import { collectPypi, fetchPypiDownloads, resolvePypiDependencies, type PypiCollected } from '../sources/pypi.js';
import { cachedPypiRelease, rememberPypiRelease } from '../sources/pypi-facts-cache.js';
import { pep503, purlOf } from '../target/purl.js';
import type { Target } from '../target/types.js';
import { githubSourceFor } from './collect-github-source.js';
import type { Collected } from './collect-npm.js';
import type { RunContext } from './context.js';
import { vulnerabilitiesFor } from './vulnerabilities-for.js';
import { evidenceOf } from './evidence-of.js';

const NOT_NPM = 'not an npm package';

export async function collectPypiTarget(target: Target, ctx: RunContext): Promise<Collected> {
  const collected = await pypiRelease(target, ctx);
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
  const { name, version } = facts;
  return {
    kind: 'evidence',
    evidence: evidenceOf(
      ctx,
      { input: target.input, ecosystem: 'pypi', name, version, purl: purlOf('pypi', name, version), repository: facts.repository?.url ?? null },
      sources,
    ),
  };
}

/** The release's facts and attestations: from the facts cache, else from PyPI (then kept when complete). */
async function pypiRelease(target: Target, ctx: RunContext): Promise<PypiCollected> {
  const project = pep503(target.name);
  const cached = cachedPypiRelease(ctx.facts, ctx.endpoints.pypi, project, target.spec);
  if (cached !== undefined) return { kind: 'ok', ...cached };
  const collected = await collectPypi(ctx.http, ctx.endpoints.pypi, target.name, target.spec);
  if (collected.kind === 'ok') rememberPypiRelease(ctx.facts, ctx.endpoints.pypi, project, target.spec, collected);
  return collected;
}
