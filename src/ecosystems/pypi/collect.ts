/**
 * PyPI: resolve the release from the project's JSON (PEP 440, yanked files, pre-releases), then
 * collect in parallel: the `.pth` startup hooks of the wheel pip would install (range requests
 * to PyPI's file host, sources/pypi/wheel-hooks.ts) and, for an sdist-only release, the sdist's
 * build files (sources/pypi/sdist-build.ts), downloads (pypistats), the runtime dependencies as pip would install them
 * today, OSV advisories for the release and those dependencies, and the GitHub repository.
 * They start as soon as the JSON API has resolved the release: none of them needs what the Simple
 * API and the provenance answer (status, provenance flags, attestations), which complete the
 * release's facts meanwhile — except GitHub, which waits for the attestations (a provenance
 * statement naming the repository verifies the package's link to it).
 * The release's facts and provenance come from the facts cache when a run already read them.
 */
import type { Sources } from '../../evidence/schema.js';
import { fetchPypiDownloads, resolvePypiDependencies, resolvePypiRelease, type PypiResolved } from '../../sources/pypi/project.js';
import { cachedPypiRelease, rememberPypiRelease } from '../../sources/pypi/facts-cache.js';
import { purlOf } from '../../target/purl.js';
import { pep503 } from './name.js';
import type { Target } from '../../target/types.js';
import { githubSourceFor } from '../../pipeline/collect-github-source.js';
import type { Collected } from '../adapter.js';
import type { RunContext } from '../../pipeline/context.js';
import { vulnerabilitiesFor } from '../../pipeline/vulnerabilities-for.js';
import { evidenceOf } from '../../pipeline/evidence-of.js';
import { readWheelContents } from '../../sources/pypi/wheel-hooks.js';
import { readSdistBuild } from '../../sources/pypi/sdist-build.js';

const NOT_NPM = 'not an npm package';

export async function collectPypiTarget(target: Target, ctx: RunContext): Promise<Collected> {
  const resolved = await pypiRelease(target, ctx);
  if (resolved.kind === 'error') {
    return { kind: 'error', code: resolved.code, message: resolved.message, ...(resolved.version ? { version: resolved.version } : {}) };
  }
  // Name, version, dependencies and repository: what the other sources need, known already.
  const { release, complete } = resolved;
  const attestations = complete.then((c) => c.attestations);

  const dependenciesResult: Promise<Sources['dependencies']> = ctx.skipDependencies
    ? Promise.resolve({ status: 'not-applicable', reason: 'in an audit every dependency is evaluated on its own' })
    : resolvePypiDependencies(ctx.http, ctx.endpoints.pypi, release.dependencies);
  const [completed, downloads, dependencies, vulnerabilities, github, wheelContents, sdistBuild] = await Promise.all([
    complete,
    fetchPypiDownloads(ctx.http, ctx.endpoints.pypiStats, release.name),
    dependenciesResult,
    // OSV matches PyPI names after PEP 503 normalisation; ask with the canonical form.
    vulnerabilitiesFor(ctx, 'PyPI', { name: pep503(release.name), version: release.version }, dependenciesResult),
    githubSourceFor(ctx, { ecosystem: 'pypi', name: release.name, repository: release.repository }, attestations),
    // The startup hooks of the wheel pip would install: range requests for its central directory.
    readWheelContents(ctx.http, ctx.endpoints, release.files, release.yanked),
    // An sdist-only release is built on the installing machine: its setup.py / build backend.
    release.sdistOnly ? readSdistBuild(ctx.http, ctx.endpoints, release.files, release.yanked) : Promise.resolve(undefined),
  ]);

  const { facts } = completed;
  const sources: Sources = {
    registry: { status: 'not-applicable', reason: NOT_NPM },
    tarball: { status: 'not-applicable', reason: NOT_NPM },
    downloads,
    dependencies,
    vulnerabilities,
    attestations: completed.attestations,
    pypi: { status: 'ok', facts: { ...facts, wheelContents, ...(sdistBuild === undefined ? {} : { sdistBuild }) } },
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

/**
 * The release's facts and their completion: from the facts cache (complete already), else from
 * PyPI — kept once complete, when every part answered.
 */
export async function pypiRelease(target: Target, ctx: RunContext): Promise<PypiResolved> {
  const project = pep503(target.name);
  const cached = cachedPypiRelease(ctx.facts, ctx.endpoints.pypi, project, target.spec);
  if (cached !== undefined) return { kind: 'ok', release: cached.facts, complete: Promise.resolve(cached) };
  const resolved = await resolvePypiRelease(ctx.http, ctx.endpoints.pypi, target.name, target.spec);
  if (resolved.kind === 'error') return resolved;
  return {
    ...resolved,
    complete: resolved.complete.then((completed) => {
      rememberPypiRelease(ctx.facts, ctx.endpoints.pypi, project, target.spec, completed);
      return completed;
    }),
  };
}
