/**
 * PEP 740 provenance for one file of a release (`GET {pypi}/integrity/<project>/<version>/
 * <filename>/provenance`), reduced to nerq's `AttestationFacts`: who published it (a Trusted
 * Publisher: the GitHub or GitLab repository and workflow) and what was attested (the in-toto
 * statement's predicate type, e.g. PyPI's publish attestation).
 *
 * The caller asks only when the Simple API lists a provenance URL for the file, so a 404 here is
 * "unavailable" (listed but not served). An object with no attestation bundles is `ok` with no
 * provenance. Nothing is verified: the Sigstore certificate, transparency-log entry and DSSE
 * signature are not checked against the Sigstore trust root, so `verified` is always false.
 * Never throws.
 */
import type { AttestationFacts } from '../../evidence/schema.js';
import { NO_PROVENANCE } from '../npm/attestations.js';
import { parseJsonBody, PypiProvenanceSchema, type PypiProvenance } from './json.js';
import type { HttpClient } from '../http/types.js';
import { joinUrl } from '../http/url.js';
import { oneLine } from '../http/one-line.js';
import { thrownFailureCode } from '../http/thrown-code.js';
import { httpFailureCode, type SourceUnavailable, type SourceUnavailableCode } from '../../model/source-codes.js';

/** Never not-applicable: the caller asks only for a file the Simple API lists provenance for. */
export type AttestationsResult = { status: 'ok'; facts: AttestationFacts } | SourceUnavailable;

/** A real provenance object is ~10 KiB per attestation. */
export const PROVENANCE_MAX_BYTES = 4 * 1024 * 1024;
export const INTEGRITY_ACCEPT = 'application/vnd.pypi.integrity.v1+json';

const MAX_FIELD_LENGTH = 2048;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
/** Where each Trusted Publisher kind hosts its repositories. */
const PUBLISHER_HOSTS: Readonly<Record<string, string>> = { github: 'https://github.com', gitlab: 'https://gitlab.com' };

export function provenanceUrl(pypiBase: string, project: string, version: string, filename: string): string {
  return joinUrl(pypiBase, 'integrity', project, version, filename, 'provenance');
}

export async function fetchProvenance(
  http: HttpClient,
  pypiBase: string,
  file: { project: string; version: string; filename: string },
): Promise<AttestationsResult> {
  try {
    const url = provenanceUrl(pypiBase, file.project, file.version, file.filename);
    const res = await http.request({ url, headers: { accept: INTEGRITY_ACCEPT }, maxBytes: PROVENANCE_MAX_BYTES });
    if (!res.ok) {
      if (res.kind === 'status' && res.status === 404) return unavailable('provenance listed by the Simple API but not served (HTTP 404)', 'not-found');
      return unavailable(`provenance: ${oneLine(res.reason)}`, httpFailureCode(res));
    }
    const parsed = parseJsonBody(res.body, PypiProvenanceSchema);
    if (!parsed.ok) return unavailable(`provenance: ${parsed.reason}`, 'bad-answer');
    const facts = provenanceFacts(parsed.data, file.filename);
    return typeof facts === 'string' ? unavailable(`provenance: ${facts}`, 'bad-answer') : { status: 'ok', facts };
  } catch (error) {
    return unavailable(`provenance: ${oneLine(error)}`, thrownFailureCode(error));
  }
}

/**
 * A provenance object → facts, or a one-line reason it cannot be read. A statement whose
 * subjects all name other files is refused. Pure.
 */
export function provenanceFacts(provenance: PypiProvenance, filename: string): AttestationFacts | string {
  const bundles = provenance.attestation_bundles.filter((b) => b.attestations.length > 0);
  const bundle = bundles[0];
  if (bundle === undefined) return NO_PROVENANCE;

  const statements: Obj[] = [];
  for (const attestation of bundle.attestations) {
    const statement = decodeStatement(attestation.envelope.statement);
    if (statement === null) return 'an attestation statement is not base64-encoded JSON';
    if (!subjectNames(statement.subject, filename)) return 'the attestation statement is about another file';
    statements.push(statement);
  }
  // SLSA provenance says more than PyPI's publish attestation; report it when both are there.
  const types = statements.map((s) => field(s.predicateType)).filter((t): t is string => t !== null);
  const predicateType = types.find((t) => t.startsWith('https://slsa.dev/provenance/')) ?? types[0] ?? null;

  const publisher = bundle.publisher as Obj;
  const host = PUBLISHER_HOSTS[String(publisher.kind).toLowerCase()];
  const repository = field(publisher.repository);
  const sourceRepository = host !== undefined && repository !== null && /^[\w.-]+(?:\/[\w.-]+)+$/.test(repository) ? `${host}/${repository}` : null;
  // GitHub publishers name `workflow`; GitLab ones `workflow_filepath`.
  const workflow = host === undefined ? null : field(publisher.workflow) ?? field(publisher.workflow_filepath);
  return { ...NO_PROVENANCE, provenance: true, predicateType, sourceRepository, workflow, verified: false };
}

type Obj = Record<string, unknown>;

function decodeStatement(payload: string): Obj | null {
  const compact = payload.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length > PROVENANCE_MAX_BYTES || !BASE64.test(compact)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(compact, 'base64').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : null;
  } catch {
    return null;
  }
}

/** The statement names the file (or names no subjects at all). */
function subjectNames(subject: unknown, filename: string): boolean {
  if (!Array.isArray(subject)) return true;
  const names = subject
    .map((s) => (typeof s === 'object' && s !== null ? (s as Obj).name : undefined))
    .filter((n): n is string => typeof n === 'string');
  return names.length === 0 || names.includes(filename);
}

function field(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_FIELD_LENGTH ? value : null;
}

function unavailable(reason: string, code: SourceUnavailableCode): AttestationsResult {
  return { status: 'unavailable', reason, code };
}
