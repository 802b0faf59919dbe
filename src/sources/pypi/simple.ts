/**
 * The Simple API's JSON form for one project (`GET {pypi}/simple/<project>/` with
 * `Accept: application/vnd.pypi.simple.v1+json`), read for two things the JSON API lacks:
 *
 * - PEP 792 project status (`active`, `archived`, `quarantined`, `deprecated`) and its reason.
 *   From api-version 1.4 on, an index may leave the key out for active projects, so a missing
 *   key then means active; before 1.4 it means "not said" (null).
 * - PEP 740 provenance per file: a URL → true, `null` → false, key missing (api-version before
 *   1.3) → null.
 *
 * Never throws; a failure is a one-line reason (the caller then knows neither: null, not false).
 */
import { comparePep440 } from '../../ecosystems/pypi/resolve.js';
import { parseJsonBody, PypiSimpleJsonSchema, SIMPLE_JSON_ACCEPT, type PypiSimpleJson } from './json.js';
import type { HttpClient } from '../http/types.js';
import { joinUrl } from '../http/url.js';
import { oneLine } from '../http/one-line.js';
import { thrownFailureCode } from '../http/thrown-code.js';
import { httpFailureCode, type SourceUnavailableCode } from '../../model/source-codes.js';

/** The simple page lists every file of every release; big projects reach tens of MB. */
export const SIMPLE_MAX_BYTES = 64 * 1024 * 1024;

export interface SimpleFacts {
  /** PEP 792 status; null when the index did not say. */
  status: { status: string; reason: string | null } | null;
  /** filename → has a provenance object (null: the index did not say). */
  provenance: Map<string, boolean | null>;
}

export type SimpleResult = { ok: true; facts: SimpleFacts } | { ok: false; reason: string; code: SourceUnavailableCode };

export function simpleUrl(pypiBase: string, project: string): string {
  return `${joinUrl(pypiBase, 'simple', project)}/`;
}

export async function fetchSimple(http: HttpClient, pypiBase: string, project: string): Promise<SimpleResult> {
  try {
    const res = await http.request({ url: simpleUrl(pypiBase, project), headers: { accept: SIMPLE_JSON_ACCEPT }, maxBytes: SIMPLE_MAX_BYTES });
    if (!res.ok) return { ok: false, reason: `Simple API: ${oneLine(res.reason)}`, code: httpFailureCode(res) };
    const type = res.headers['content-type'] ?? '';
    // An index that ignores the Accept header answers HTML (PEP 503): no status, no provenance.
    if (/text\/html/i.test(type)) return { ok: false, reason: 'Simple API: the index answered HTML, not the JSON form', code: 'bad-answer' };
    const parsed = parseJsonBody(res.body, PypiSimpleJsonSchema);
    if (!parsed.ok) return { ok: false, reason: `Simple API: ${parsed.reason}`, code: 'bad-answer' };
    return { ok: true, facts: simpleFacts(parsed.data) };
  } catch (error) {
    return { ok: false, reason: `Simple API: ${oneLine(error)}`, code: thrownFailureCode(error) };
  }
}

/** Status and per-file provenance from a parsed Simple API answer. Pure. */
export function simpleFacts(page: PypiSimpleJson): SimpleFacts {
  const apiVersion = page.meta['api-version'];
  const declared = page['project-status'];
  const name = declared?.status ?? declared?.state;
  let status: SimpleFacts['status'] = null;
  if (name !== undefined && name.trim() !== '') status = { status: name.trim().toLowerCase(), reason: declared?.reason ?? null };
  else if (atLeast(apiVersion, '1.4')) status = { status: 'active', reason: null };

  const provenance = new Map<string, boolean | null>();
  for (const file of page.files) {
    provenance.set(file.filename, file.provenance === undefined ? null : file.provenance !== null);
  }
  return { status, provenance };
}

function atLeast(version: string, minimum: string): boolean {
  const order = comparePep440(version, minimum);
  return order !== null && order >= 0;
}
