/**
 * The PyPI source: a project's facts for the release a specifier resolves to.
 *
 * Requests, in order:
 * 1. `GET {pypi}/pypi/<project>/json` — the latest release's metadata and every release's files.
 *    404 → not-found; any other failure, malformed JSON or an unexpected shape → registry-unavailable.
 * 2. The version is resolved (PEP 440, PEP 592; ecosystems/pypi/resolve.ts); nothing matching → version-not-found
 *    with the nearest versions.
 * 3. In parallel: `GET {pypi}/pypi/<project>/<version>/json` only when the resolved version is not
 *    the one the project JSON's `info` describes (404 → version-not-found), and the Simple API's JSON
 *    (`GET {pypi}/simple/<project>/`) for PEP 792 status and PEP 740 provenance flags. A Simple API
 *    failure leaves status and provenance unknown (null), never false.
 * 4. When a file of the resolved release has provenance, one request for it (pypi/provenance.ts) →
 *    the `attestations` source; none has → no provenance; the Simple API failed → unavailable.
 *
 * So 2 requests for the latest release without provenance, 3 with it, 4 for an older release with
 * provenance. Never throws.
 *
 * The release is resolved (`resolvePypiRelease`) once the JSON API answered (steps 1–3 without the
 * Simple API): its name, version, dependencies and repository — all that the other sources need —
 * are known then. The Simple API and the provenance complete the facts later (`complete`), so a
 * stalled Simple or Integrity API holds back only what they answer.
 */
import { PypiFactsSchema, type AttestationFacts, type PypiFacts } from '../../evidence/schema.js';
import { pep503 } from '../../ecosystems/pypi/name.js';
import { nearestVersions, resolvePypiVersion } from '../../ecosystems/pypi/resolve.js';
import { NO_PROVENANCE } from '../npm/attestations.js';
import { parseJsonBody, PROJECT_JSON_MAX_BYTES, projectJsonUrl, PypiProjectJsonSchema, PypiVersionJsonSchema, type PypiVersionJson } from './json.js';
import { fetchProvenance } from './provenance.js';
import { buildPypiFacts, releaseList, withSimpleFacts } from './release-facts.js';
import { fetchSimple, type SimpleResult } from './simple.js';
import type { HttpClient } from '../http/types.js';
import { joinUrl } from '../http/url.js';
import { oneLine } from '../http/one-line.js';
import { thrownFailureCode } from '../http/thrown-code.js';
import type { SourceUnavailable } from '../../model/source-codes.js';

export { fetchPypiDownloads } from './pypistats.js';
export { resolvePypiDependencies } from './dependencies.js';

export type SourceResult<F> = { status: 'ok'; facts: F } | SourceUnavailable;

export type PypiError = { kind: 'error'; code: 'not-found' | 'version-not-found' | 'registry-unavailable'; message: string; version?: string };

/** A release's complete facts (the Simple API's status and provenance flags in) and its `attestations` source. */
export interface PypiComplete {
  facts: PypiFacts;
  attestations: SourceResult<AttestationFacts>;
}

export type PypiCollected = ({ kind: 'ok' } & PypiComplete) | PypiError;

export type PypiResolved =
  | {
      kind: 'ok';
      /**
       * The release's facts from the JSON API alone: the Simple API's fields (status, every file's
       * provenance flag) are null (unknown) here; the rest is as in the complete facts.
       */
      release: PypiFacts;
      /** The complete facts and the attestations, once the Simple API (and the provenance) answered. Never rejects. */
      complete: Promise<PypiComplete>;
    }
  | PypiError;

/** One release's JSON is the size of its metadata and file list. */
const VERSION_JSON_MAX_BYTES = 16 * 1024 * 1024;

export function versionJsonUrl(pypiBase: string, project: string, version: string): string {
  return joinUrl(pypiBase, 'pypi', project, version, 'json');
}

/**
 * Resolve `name` (a PEP 503 name, as the target parser gives it) at `spec` (a PEP 440 specifier,
 * a bare version, or undefined for the default release) from the JSON API; the Simple API and the
 * provenance are asked meanwhile and complete the facts in `complete`.
 */
export async function resolvePypiRelease(http: HttpClient, pypiBase: string, name: string, spec: string | undefined): Promise<PypiResolved> {
  try {
    return await resolve(http, pypiBase, pep503(name), spec);
  } catch (error) {
    return { kind: 'error', code: 'registry-unavailable', message: `PyPI could not answer for ${name}: ${oneLine(error)}` };
  }
}

/** The release's complete facts and attestations: `resolvePypiRelease`, then its completion awaited. */
export async function collectPypi(http: HttpClient, pypiBase: string, name: string, spec: string | undefined): Promise<PypiCollected> {
  const resolved = await resolvePypiRelease(http, pypiBase, name, spec);
  return resolved.kind === 'ok' ? { kind: 'ok', ...(await resolved.complete) } : resolved;
}

async function resolve(http: HttpClient, pypiBase: string, project: string, spec: string | undefined): Promise<PypiResolved> {
  const unavailable = (reason: string, version?: string): PypiError => ({
    kind: 'error',
    code: 'registry-unavailable',
    message: `PyPI could not answer for ${project}: ${reason}`,
    ...(version === undefined ? {} : { version }),
  });

  const res = await http.request({ url: projectJsonUrl(pypiBase, project), headers: { accept: 'application/json' }, maxBytes: PROJECT_JSON_MAX_BYTES });
  if (!res.ok) {
    if (res.kind === 'status' && res.status === 404) return { kind: 'error', code: 'not-found', message: `${project} was not found on PyPI` };
    return unavailable(`project JSON: ${oneLine(res.reason)}`);
  }
  const parsed = parseJsonBody(res.body, PypiProjectJsonSchema);
  if (!parsed.ok) return unavailable(`project JSON: ${parsed.reason}`);
  const projectJson = parsed.data;
  // An answer that says it is another project is not this one's: that project's advisories,
  // attestations and repository would be looked up in its place.
  if (pep503(projectJson.info.name) !== project) return unavailable('project JSON: its answer names another project');

  const releases = releaseList(projectJson.releases);
  const resolved = resolvePypiVersion(releases, spec);
  if (!resolved.ok) {
    const nearest = resolved.nearest.length > 0 ? ` (nearest: ${resolved.nearest.join(', ')})` : '';
    return { kind: 'error', code: 'version-not-found', message: `${project}: ${resolved.reason}${nearest}` };
  }
  const version = resolved.version;

  // Asked alongside the release JSON; only the facts it completes wait for it.
  const simple = fetchSimple(http, pypiBase, project);
  const release = version === projectJson.info.version ? null : await fetchVersionJson(http, pypiBase, project, version);
  if (release !== null && release.kind === 'ok' && pep503(release.json.info.name) !== project) {
    await simple;
    return unavailable('release JSON: its answer names another project', version);
  }
  if (release !== null && release.kind !== 'ok') {
    // An error leaves nothing in flight behind it.
    await simple;
    if (release.kind === 'unavailable') return unavailable(`release JSON: ${release.reason}`, version);
    const near = nearestVersions(releases.filter((r) => r.version !== version), `==${version}`);
    const suggestion = near.length > 0 ? ` (nearest: ${near.join(', ')})` : '';
    return { kind: 'error', code: 'version-not-found', message: `${project} ${version}: PyPI has no JSON for this release (HTTP 404)${suggestion}`, version };
  }

  const facts = PypiFactsSchema.safeParse(buildPypiFacts({ project: projectJson, version, release: release?.json ?? null, simple: null }));
  if (!facts.success) {
    await simple;
    return unavailable('the answers did not make valid facts', version);
  }
  return { kind: 'ok', release: facts.data, complete: simple.then((answer) => complete(http, pypiBase, project, facts.data, answer)) };
}

type VersionJsonResult = { kind: 'ok'; json: PypiVersionJson } | { kind: 'not-found' } | { kind: 'unavailable'; reason: string };

async function fetchVersionJson(http: HttpClient, pypiBase: string, project: string, version: string): Promise<VersionJsonResult> {
  const res = await http.request({ url: versionJsonUrl(pypiBase, project, version), headers: { accept: 'application/json' }, maxBytes: VERSION_JSON_MAX_BYTES });
  if (!res.ok) {
    if (res.kind === 'status' && res.status === 404) return { kind: 'not-found' };
    return { kind: 'unavailable', reason: oneLine(res.reason) };
  }
  const parsed = parseJsonBody(res.body, PypiVersionJsonSchema);
  if (!parsed.ok) return { kind: 'unavailable', reason: parsed.reason };
  return { kind: 'ok', json: parsed.data };
}

/** The release's facts with what the Simple API said, and its attestations (steps 3–4). Never rejects. */
async function complete(http: HttpClient, pypiBase: string, project: string, release: PypiFacts, simple: SimpleResult): Promise<PypiComplete> {
  const facts = simple.ok ? withSimpleFacts(release, simple.facts) : release;
  try {
    return { facts, attestations: await attestationsFor(http, pypiBase, project, facts, simple) };
  } catch (error) {
    return { facts, attestations: { status: 'unavailable', reason: `provenance: ${oneLine(error)}`, code: thrownFailureCode(error) } };
  }
}

/** The `attestations` source from the resolved release's files (see step 4 above). */
async function attestationsFor(
  http: HttpClient,
  pypiBase: string,
  project: string,
  facts: PypiFacts,
  simple: SimpleResult,
): Promise<SourceResult<AttestationFacts>> {
  if (!simple.ok) return { status: 'unavailable', reason: `provenance unknown: ${simple.reason}`, code: simple.code };
  // Prefer the sdist's provenance (every release has at most one), else the first file's.
  const attested = facts.files.filter((f) => f.hasProvenance === true);
  const file = attested.find((f) => f.packagetype === 'sdist') ?? attested[0];
  if (file === undefined) {
    if (facts.files.length > 0 && facts.files.every((f) => f.hasProvenance === false)) return { status: 'ok', facts: NO_PROVENANCE };
    if (facts.files.length === 0) return { status: 'ok', facts: NO_PROVENANCE };
    return { status: 'unavailable', reason: 'provenance unknown: the Simple API did not say for every file', code: 'bad-answer' };
  }
  const result = await fetchProvenance(http, pypiBase, { project, version: facts.version, filename: file.filename });
  return result;
}
