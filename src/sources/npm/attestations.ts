/**
 * The `attestations` source: the registry's attestations for one version
 * (`GET {registry}/-/npm/v1/attestations/{name}@{version}`), reduced to who and what built
 * it, from the SLSA provenance statement (v1 or v0.2): the source repository, the workflow,
 * the ref and commit, and the builder.
 *
 * The caller asks only when the packument lists `dist.attestations`. What the registry answers
 * decides (docs/security.md, "Hollow provenance"): a 404, a body that is not an attestations
 * list, an answer without a SLSA provenance attestation, or one whose envelope, payload or
 * statement cannot be read is `ok` with `provenance: false` and a `hollow` reason — a listing
 * that is not provenance. Only a failure to get an answer (network, 5xx, timeout) is unavailable.
 *
 * No cryptographic verification happens here: the Sigstore bundle (certificate chain,
 * transparency-log entry, DSSE signature) is not checked against the Sigstore trust root,
 * so `verified` is always false and the report says the attestation was found, not
 * verified. Never throws.
 */
import hostedGitInfo from 'hosted-git-info';
import npa from 'npm-package-arg';
import type { AttestationFacts, Sources } from '../../evidence/schema.js';
import type { HttpClient } from '../http/types.js';
import { oneLine } from '../http/one-line.js';
import { thrownFailureCode } from '../http/thrown-code.js';
import { httpFailureCode, type SourceUnavailableCode } from '../../model/source-codes.js';

export type AttestationsResult = Sources['attestations'];

/** Real answers are tens of KiB (one Sigstore bundle per attestation). */
export const ATTESTATIONS_MAX_BYTES = 4 * 1024 * 1024;

export const SLSA_PROVENANCE_V1 = 'https://slsa.dev/provenance/v1';
export const SLSA_PROVENANCE_V02 = 'https://slsa.dev/provenance/v0.2';
const SLSA_TYPES: readonly string[] = [SLSA_PROVENANCE_V1, SLSA_PROVENANCE_V02];

/** No field of a real statement is this long; longer values are dropped, not kept. */
const MAX_FIELD_LENGTH = 2048;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

type Obj = Record<string, unknown>;

/** The attestations URL: the registry base (its path kept) + `-/npm/v1/attestations/<escaped name>@<version>`. Throws for an invalid name. */
export function attestationsUrl(registryBase: string, name: string, version: string): string {
  const escaped = npa.resolve(name, 'latest').escapedName;
  if (!escaped) throw new Error(`invalid package name: ${JSON.stringify(name)}`);
  const base = registryBase.endsWith('/') ? registryBase : `${registryBase}/`;
  return new URL(`-/npm/v1/attestations/${escaped}@${encodeURIComponent(version)}`, base).toString();
}

export async function fetchAttestations(
  http: HttpClient,
  registryBase: string,
  name: string,
  version: string,
): Promise<AttestationsResult> {
  try {
    let url: string;
    try {
      url = attestationsUrl(registryBase, name, version);
    } catch (error) {
      return unavailable(`cannot build the attestations URL: ${oneLine(error)}`, 'not-asked');
    }
    const res = await http.request({ url, headers: { accept: 'application/json' }, maxBytes: ATTESTATIONS_MAX_BYTES });
    if (!res.ok) {
      if (res.kind === 'status' && res.status === 404) return hollow('listed, but the attestations endpoint answered HTTP 404');
      return unavailable(`attestations: ${oneLine(res.reason)}`, httpFailureCode(res));
    }
    let body: unknown;
    try {
      body = JSON.parse(res.body.toString('utf8'));
    } catch {
      return hollow('listed, but the attestations endpoint answered malformed JSON');
    }
    const facts = attestationFacts(body, { name, version });
    if (typeof facts === 'string') return hollow(`listed, but ${facts}`);
    if (!facts.provenance) return hollow('listed, but the attestations endpoint lists no SLSA provenance statement');
    return { status: 'ok', facts };
  } catch (error) {
    return unavailable(`attestations: ${oneLine(error)}`, thrownFailureCode(error));
  }
}

/**
 * An attestations answer → facts, or a one-line reason it cannot be read. With `expected`,
 * a provenance statement whose subjects are all other npm packages is refused. Pure.
 */
export function attestationFacts(body: unknown, expected?: { name: string; version: string }): AttestationFacts | string {
  const list = obj(body)?.attestations;
  if (!Array.isArray(list)) return 'the body has no "attestations" list';
  const entry = list.map(obj).find((a) => a !== null && SLSA_TYPES.includes(str(a.predicateType) ?? ''));
  if (entry === undefined || entry === null) return NO_PROVENANCE;

  const envelope = obj(obj(entry.bundle)?.dsseEnvelope);
  const payload = str(envelope?.payload);
  if (payload === null) return 'the provenance attestation has no DSSE payload';
  const statement = decodeStatement(payload);
  if (statement === null) return 'the provenance payload is not base64-encoded JSON';

  const outerType = str(entry.predicateType) ?? '';
  const innerType = str(statement.predicateType);
  if (innerType !== null && innerType !== outerType) return 'the provenance statement contradicts its predicate type';
  if (expected !== undefined && !subjectMatches(statement.subject, expected)) {
    return 'the provenance statement is about another package';
  }
  const predicate = obj(statement.predicate) ?? {};
  const build = outerType === SLSA_PROVENANCE_V1 ? fromV1(predicate) : fromV02(predicate);
  return { provenance: true, predicateType: outerType, ...build, verified: false, hollow: null };
}

/** A version without provenance: the registry answered, and there is none. */
export const NO_PROVENANCE: AttestationFacts = {
  provenance: false,
  predicateType: null,
  sourceRepository: null,
  workflow: null,
  ref: null,
  commit: null,
  builder: null,
  verified: false,
  hollow: null,
};

type BuildFacts = Pick<AttestationFacts, 'sourceRepository' | 'workflow' | 'ref' | 'commit' | 'builder'>;

/** SLSA v1 (npm CLI ≥ 9.5): `buildDefinition.externalParameters.workflow` and `runDetails.builder`. */
function fromV1(predicate: Obj): BuildFacts {
  const definition = obj(predicate.buildDefinition) ?? {};
  const workflow = obj(obj(definition.externalParameters)?.workflow) ?? {};
  const dependencies = Array.isArray(definition.resolvedDependencies) ? definition.resolvedDependencies.map(obj) : [];
  const commit = dependencies.map((d) => field(obj(d?.digest)?.gitCommit)).find((c) => c !== null) ?? null;
  // Without the workflow block, the source is the first resolved dependency: `git+https://host/o/r@ref`.
  const fallback = splitRef(field(dependencies.map((d) => d?.uri).find((u) => typeof u === 'string')));
  const repository = field(workflow.repository) ?? fallback.repository;
  return {
    sourceRepository: repository === null ? null : normaliseRepository(repository),
    workflow: field(workflow.path),
    ref: field(workflow.ref) ?? (field(workflow.repository) === null ? fallback.ref : null),
    commit,
    builder: field(obj(obj(predicate.runDetails)?.builder)?.id),
  };
}

/**
 * SLSA v0.2 (npm CLI 9.x before v1): `invocation.configSource` carries
 * `uri: git+https://github.com/o/r@refs/…`, `digest.sha1` and
 * `entryPoint: o/r/.github/workflows/x.yml@refs/…`.
 */
function fromV02(predicate: Obj): BuildFacts {
  const source = obj(obj(predicate.invocation)?.configSource) ?? {};
  const { repository: raw, ref } = splitRef(field(source.uri));
  const repository = raw === null ? null : normaliseRepository(raw);
  return {
    sourceRepository: repository,
    workflow: workflowPath(field(source.entryPoint), repository),
    ref,
    commit: field(obj(source.digest)?.sha1),
    builder: field(obj(predicate.builder)?.id),
  };
}

/** `git+https://host/o/r@refs/…` → the repository URL and the ref (an `@` in user info is not the separator). */
function splitRef(uri: string | null): { repository: string | null; ref: string | null } {
  if (uri === null) return { repository: null, ref: null };
  const scheme = uri.indexOf('://');
  const pathStart = scheme === -1 ? 0 : uri.indexOf('/', scheme + 3);
  const at = pathStart === -1 ? -1 : uri.indexOf('@', pathStart);
  return at === -1 ? { repository: uri, ref: null } : { repository: uri.slice(0, at), ref: field(uri.slice(at + 1)) };
}

/** `o/r/.github/workflows/x.yml@refs/tags/v1` → `.github/workflows/x.yml`. */
function workflowPath(entryPoint: string | null, repository: string | null): string | null {
  if (entryPoint === null) return null;
  const at = entryPoint.indexOf('@');
  let path = at === -1 ? entryPoint : entryPoint.slice(0, at);
  const slug = repository === null ? null : repository.replace(/^https:\/\/[^/]+\//, '');
  if (slug && path.toLowerCase().startsWith(`${slug.toLowerCase()}/`)) path = path.slice(slug.length + 1);
  return field(path);
}

/**
 * A repository URL as `https://host/owner/repo`: hosted-git-info's browse URL for known hosts
 * (the form the packument's `repository` is given in), else the http(s) URL without
 * credentials, `.git`, query or fragment. Null when it is not an http(s) or git URL.
 */
export function normaliseRepository(raw: string): string | null {
  if (raw.length > MAX_FIELD_LENGTH) return null;
  try {
    const info = hostedGitInfo.fromUrl(raw);
    if (info && info.user && info.project) return info.browse({ noCommittish: true });
  } catch {
    // not a known host: fall through
  }
  let url: URL;
  try {
    url = new URL(raw.replace(/^git\+/, ''));
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const path = url.pathname.replace(/(?<!\/)\/+$/, '').replace(/\.git$/, '');
  return path === '' ? null : `https://${url.host.toLowerCase()}${path}`;
}

function subjectMatches(subject: unknown, expected: { name: string; version: string }): boolean {
  if (!Array.isArray(subject)) return true;
  const names = subject.map((s) => str(obj(s)?.name)).filter((n): n is string => n !== null);
  const npmNames = names.filter((n) => n.startsWith('pkg:npm/'));
  if (npmNames.length === 0) return true;
  const wanted = `pkg:npm/${expected.name}@${expected.version}`;
  return npmNames.some((n) => safeDecode(n) === wanted);
}

function decodeStatement(payload: string): Obj | null {
  const compact = payload.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length > ATTESTATIONS_MAX_BYTES || !BASE64.test(compact)) return null;
  try {
    return obj(JSON.parse(Buffer.from(compact, 'base64').toString('utf8')));
  } catch {
    return null;
  }
}

function unavailable(reason: string, code: SourceUnavailableCode): AttestationsResult {
  return { status: 'unavailable', reason, code };
}

/** A listing the registry does not back with provenance: an answer, and no provenance. */
function hollow(reason: string): AttestationsResult {
  return { status: 'ok', facts: { ...NO_PROVENANCE, hollow: reason } };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function obj(value: unknown): Obj | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A non-empty string of sane length, else null. */
function field(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_FIELD_LENGTH ? value : null;
}
