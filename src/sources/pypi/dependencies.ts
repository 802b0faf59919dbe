/**
 * The `dependencies` source for a PyPI release: each runtime requirement resolved to the
 * release pip would install for it today (newest non-yanked, non-pre-release match; see
 * ecosystems/pypi/resolve.ts), for the OSV lookup of dependencies.
 *
 * - One project-JSON request per distinct project (PEP 503 name), at most `concurrency` at once;
 *   requirements beyond the first 50 are listed unresolved. Environment markers are kept but
 *   not evaluated: nerq does not know the installing interpreter, so every runtime requirement
 *   counts.
 * - A direct URL reference (`name @ https://…`) is not a PyPI release: listed with the reason, no request.
 * - A dependency that is not found, does not resolve or could not be fetched gets version null
 *   and the reason. The source is unavailable only when more than half of the requests failed
 *   for network reasons (error, timeout, 5xx, malformed body).
 * - PyPI has no security-holding placeholder (it removes malware), so `securityHolding` is false.
 *
 * Never throws.
 */
import type { DependencyFacts, Sources } from '../../evidence/schema.js';
import type { PypiFacts } from '../../evidence/pypi-facts.js';
import { pep503 } from '../../ecosystems/pypi/name.js';
import { resolvePypiVersion, type ResolvableRelease } from '../../ecosystems/pypi/resolve.js';
import { parseJsonBody, projectJsonUrl, PypiReleasesOnlySchema } from './json.js';
import type { HttpClient } from '../http/types.js';
import { mapLimit } from '../../util/map-limit.js';
import { oneLine } from '../http/one-line.js';
import { thrownFailureCode } from '../http/thrown-code.js';
import { httpFailureCode, type SourceUnavailable, type SourceUnavailableCode } from '../../model/source-codes.js';

export type PypiDependenciesResult = Sources['dependencies'];
type Entry = DependencyFacts['dependencies'][number];

export const MAX_PYPI_DEPENDENCIES = 50;
export const PYPI_DEPENDENCY_CONCURRENCY = 8;
/**
 * A dependency's project JSON is read for its release list only. Real ones stay well under this
 * (grpcio, with every wheel of every release, is about 13 MB); a body over it leaves that one
 * dependency unresolved. With PYPI_DEPENDENCY_CONCURRENCY answers in flight, the bodies held at
 * once stay under 200 MiB — at the main project's 64 MiB cap they could reach half a GiB.
 */
export const DEPENDENCY_JSON_MAX_BYTES = 24 * 1024 * 1024;
type Fetched = { status: 'ok'; releases: ResolvableRelease[] } | { status: 'not-found' } | SourceUnavailable;

export async function resolvePypiDependencies(
  http: HttpClient,
  pypiBase: string,
  deps: PypiFacts['dependencies'],
  options: { concurrency?: number } = {},
): Promise<PypiDependenciesResult> {
  try {
    return await resolveAll(http, pypiBase, deps, Math.max(1, Math.floor(options.concurrency ?? PYPI_DEPENDENCY_CONCURRENCY) || 1));
  } catch (error) {
    return { status: 'unavailable', reason: `dependencies: ${oneLine(error)}`, code: thrownFailureCode(error) };
  }
}

async function resolveAll(http: HttpClient, pypiBase: string, deps: PypiFacts['dependencies'], concurrency: number): Promise<PypiDependenciesResult> {
  const wanted = deps.slice(0, MAX_PYPI_DEPENDENCIES);
  const projects = [...new Set(wanted.filter((d) => !isDirectReference(d.specifier)).map((d) => pep503(d.name)))];
  const fetched = new Map<string, Fetched>();
  await mapLimit(projects, concurrency, async (project) => {
    fetched.set(project, await fetchReleases(http, pypiBase, project));
  });

  let requested = 0;
  const failures: { reason: string; code: SourceUnavailableCode }[] = [];
  const dependencies: Entry[] = deps.map((dep, index) => {
    const entry = (version: string | null, reason: string | null): Entry => ({ name: dep.name, range: dep.specifier, version, reason, securityHolding: false });
    if (index >= MAX_PYPI_DEPENDENCIES) return entry(null, `not resolved: more than ${MAX_PYPI_DEPENDENCIES} runtime dependencies`);
    if (isDirectReference(dep.specifier)) return entry(null, 'a direct URL reference, not a PyPI release');
    requested += 1;
    const answer: Fetched = fetched.get(pep503(dep.name)) ?? { status: 'unavailable', reason: 'no answer', code: 'bad-answer' };
    if (answer.status === 'not-found') return entry(null, 'not found on PyPI');
    if (answer.status === 'unavailable') {
      failures.push({ reason: `${dep.name}: ${answer.reason}`, code: answer.code });
      return entry(null, answer.reason);
    }
    const resolved = resolvePypiVersion(answer.releases, dep.specifier);
    return resolved.ok ? entry(resolved.version, null) : entry(null, resolved.reason);
  });

  const first = failures[0];
  if (first !== undefined && failures.length * 2 > requested) {
    return { status: 'unavailable', reason: `${failures.length} of ${requested} dependency projects could not be fetched (${first.reason})`, code: first.code };
  }
  return { status: 'ok', facts: { dependencies } };
}

function isDirectReference(specifier: string): boolean {
  return specifier.startsWith('@');
}

async function fetchReleases(http: HttpClient, pypiBase: string, project: string): Promise<Fetched> {
  try {
    const res = await http.request({ url: projectJsonUrl(pypiBase, project), headers: { accept: 'application/json' }, maxBytes: DEPENDENCY_JSON_MAX_BYTES });
    if (!res.ok) {
      if (res.kind === 'status' && res.status === 404) return { status: 'not-found' };
      return { status: 'unavailable', reason: `project JSON: ${oneLine(res.reason)}`, code: httpFailureCode(res) };
    }
    const parsed = parseJsonBody(res.body, PypiReleasesOnlySchema);
    if (!parsed.ok) return { status: 'unavailable', reason: `project JSON: ${parsed.reason}`, code: 'bad-answer' };
    const releases = Object.entries(parsed.data.releases).map(([version, files]) => ({
      version,
      yanked: files.length > 0 && files.every((f) => f.yanked === true),
      files: files.length,
    }));
    return { status: 'ok', releases };
  } catch (error) {
    return { status: 'unavailable', reason: `project JSON: ${oneLine(error)}`, code: thrownFailureCode(error) };
  }
}
