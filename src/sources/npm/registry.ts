/**
 * Fetch one package's packument (the registry document listing every version) from an
 * npm registry. By default it requests the full document (`Accept: application/json`), not
 * the abbreviated install form: the target's facts need `time`, `maintainers`, `_npmUser`
 * and `deprecated`. Callers that only resolve versions (dependencies) ask for the far
 * smaller abbreviated form with `accept: ABBREVIATED_ACCEPT`. A 404 is "not found"; any
 * other failure, or a body that is not a JSON object, is "unavailable" with a one-line
 * reason. Never throws. With `scan: true` (the target's facts) the body is scanned rather than
 * parsed whole (npm/packument-scan.ts): the same answers, without building thousands of manifests.
 */
import npa from 'npm-package-arg';
import type { HttpClient } from '../http/types.js';
import { oneLine } from '../http/one-line.js';
import { scanPackument } from './packument-scan.js';
import { httpFailureCode, type SourceUnavailable } from '../../model/source-codes.js';

/** Trimmed packuments of big projects exceed 20 MB; full ones can be larger still. */
export const PACKUMENT_MAX_BYTES = 64 * 1024 * 1024;

/** The full packument (every field of every version). */
export const FULL_ACCEPT = 'application/json';

/**
 * The abbreviated install document first (versions, dist-tags, dist, dependencies,
 * deprecated; no descriptions, times or publishers), the full one when a registry lacks it —
 * the same header the npm CLI sends.
 */
export const ABBREVIATED_ACCEPT = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';

export interface FetchPackumentOptions {
  /** `Accept` header (default FULL_ACCEPT). */
  accept?: string;
  /**
   * Scan the body instead of parsing it whole (npm/packument-scan.ts): `packument.versions` then
   * holds stubs, and `manifest(v)` gives a version's whole manifest. For the target's facts.
   */
  scan?: boolean;
}

export type PackumentResult =
  | {
      status: 'ok';
      packument: Record<string, unknown>;
      /** One version's whole manifest (undefined when the packument has no such version). */
      manifest: (version: string) => unknown;
    }
  | { status: 'not-found' }
  | SourceUnavailable;

/**
 * The packument URL: the registry base (its path kept) + the escaped name (`@scope%2fpkg`).
 * Throws for a name npm would not accept for an existing package.
 */
export function packumentUrl(registryBase: string, name: string): string {
  const escaped = npa.resolve(name, 'latest').escapedName;
  if (!escaped) throw new Error(`invalid package name: ${JSON.stringify(name)}`);
  const base = registryBase.endsWith('/') ? registryBase : `${registryBase}/`;
  return new URL(escaped, base).toString();
}

export async function fetchPackument(
  http: HttpClient,
  registryBase: string,
  name: string,
  options: FetchPackumentOptions = {},
): Promise<PackumentResult> {
  let url: string;
  try {
    url = packumentUrl(registryBase, name);
  } catch (error) {
    return { status: 'unavailable', reason: `cannot build the package metadata URL: ${oneLine(error)}`, code: 'not-asked' };
  }
  const res = await http.request({
    url,
    headers: { accept: options.accept ?? FULL_ACCEPT },
    maxBytes: PACKUMENT_MAX_BYTES,
  });
  if (!res.ok) {
    if (res.kind === 'status' && res.status === 404) return { status: 'not-found' };
    return { status: 'unavailable', reason: `package metadata: ${oneLine(res.reason)}`, code: httpFailureCode(res) };
  }
  return options.scan === true ? scanPackumentBody(res.body) : parsePackument(res.body);
}

/** Scan a packument body (npm/packument-scan.ts): the same answers as parsePackument, cut down. */
export function scanPackumentBody(body: Buffer): PackumentResult {
  const scanned = scanPackument(body);
  if (scanned === null) return { status: 'unavailable', reason: MALFORMED, code: 'bad-answer' };
  if (scanned === undefined) return parsePackument(body);
  return { status: 'ok', packument: scanned.packument, manifest: scanned.manifest };
}

const MALFORMED = 'package metadata: malformed JSON';

/** Parse a packument body: a JSON object, or unavailable. */
export function parsePackument(body: Buffer): PackumentResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { status: 'unavailable', reason: MALFORMED, code: 'bad-answer' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { status: 'unavailable', reason: 'package metadata: the body is not a JSON object', code: 'bad-answer' };
  }
  const packument = parsed as Record<string, unknown>;
  const versions = packument.versions;
  const manifest = (version: string): unknown =>
    typeof versions === 'object' && versions !== null && !Array.isArray(versions) && Object.hasOwn(versions, version) ? (versions as Record<string, unknown>)[version] : undefined;
  return { status: 'ok', packument, manifest };
}
