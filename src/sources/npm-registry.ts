/**
 * Fetch one package's packument (the registry document listing every version) from an
 * npm registry. Requests the full document (`Accept: application/json`), not the
 * abbreviated install form: the facts need `time`, `maintainers`, `_npmUser` and
 * `deprecated`. A 404 is "not found"; any other failure, or a body that is not a JSON
 * object, is "unavailable" with a one-line reason. Never throws.
 */
import npa from 'npm-package-arg';
import type { HttpClient } from './types.js';

/** Trimmed packuments of big projects exceed 20 MB; full ones can be larger still. */
export const PACKUMENT_MAX_BYTES = 64 * 1024 * 1024;

export type PackumentResult =
  | { status: 'ok'; packument: Record<string, unknown> }
  | { status: 'not-found' }
  | { status: 'unavailable'; reason: string };

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
): Promise<PackumentResult> {
  let url: string;
  try {
    url = packumentUrl(registryBase, name);
  } catch (error) {
    return { status: 'unavailable', reason: `cannot build the packument URL: ${oneLine(error)}` };
  }
  const res = await http.request({
    url,
    headers: { accept: 'application/json' },
    maxBytes: PACKUMENT_MAX_BYTES,
  });
  if (!res.ok) {
    if (res.kind === 'status' && res.status === 404) return { status: 'not-found' };
    return { status: 'unavailable', reason: `packument: ${oneLine(res.reason)}` };
  }
  return parsePackument(res.body);
}

/** Parse a packument body: a JSON object, or unavailable. */
export function parsePackument(body: Buffer): PackumentResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { status: 'unavailable', reason: 'packument: malformed JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { status: 'unavailable', reason: 'packument: the body is not a JSON object' };
  }
  return { status: 'ok', packument: parsed as Record<string, unknown> };
}

function oneLine(value: unknown): string {
  const text = value instanceof Error ? value.message : String(value);
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}
