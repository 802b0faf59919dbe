/**
 * Crate version requirements resolved through crates.io's sparse index (docs/scoring.md §9): one
 * request per crate, `<index>/<prefix>/<name>` (lower-cased name; prefix `1/`, `2/`, `3/<first
 * letter>/`, else `<first two>/<next two>/`), whose body has one JSON object per published
 * version (`name`, `vers`, `yanked`, …). Each requirement gets the version cargo would pick today
 * (ecosystems/cargo-requirement.ts).
 *
 * - A line that is not JSON, or not an object with a string `vers`, is skipped, not fatal.
 * - A crate that is not in the index (404), whose body is over `CRATE_INDEX_MAX_BYTES`, or whose
 *   request failed gets version null and the reason, never a version. The answer is unavailable
 *   only when more than half of the requests failed for network reasons (error, timeout, 5xx).
 * - crates.io keeps no security-holding placeholder: `securityHolding` is false.
 *
 * Never throws.
 */
import type { DependencyFacts, Sources } from '../../evidence/schema.js';
import { resolveCargoRequirement, type PublishedCrateVersion } from '../../ecosystems/cargo-requirement.js';
import type { HttpClient } from '../http/types.js';
import { mapLimit } from '../../util/map-limit.js';
import { oneLine } from '../http/one-line.js';
import { thrownFailureCode } from '../http/thrown-code.js';
import { httpFailureCode, type SourceUnavailable, type SourceUnavailableCode } from '../../model/source-codes.js';

type Entry = DependencyFacts['dependencies'][number];

/**
 * A crate's index file is read whole. The largest real ones (crates with thousands of versions and
 * many features) stay within a few MiB; a body over this leaves that crate unresolved.
 */
export const CRATE_INDEX_MAX_BYTES = 8 * 1024 * 1024;
const CONCURRENCY = 8;
/** A crate name as crates.io allows it. */
const CRATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

type Fetched = { status: 'ok'; versions: PublishedCrateVersion[] } | { status: 'not-found' } | SourceUnavailable;

/** The sparse index path of a crate (cargo's layout: by the length and first letters of its lower-cased name). */
export function crateIndexPath(name: string): string {
  const lower = name.toLowerCase();
  if (lower.length === 1) return `1/${lower}`;
  if (lower.length === 2) return `2/${lower}`;
  if (lower.length === 3) return `3/${lower[0]}/${lower}`;
  return `${lower.slice(0, 2)}/${lower.slice(2, 4)}/${lower}`;
}

/** The published versions in an index file's lines (lines that are not a version's JSON skipped). */
export function indexVersions(text: string, name: string): PublishedCrateVersion[] {
  const versions: PublishedCrateVersion[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof row !== 'object' || row === null) continue;
    const { name: rowName, vers, yanked } = row as Record<string, unknown>;
    if (typeof vers !== 'string' || (typeof rowName === 'string' && rowName.toLowerCase() !== name.toLowerCase())) continue;
    versions.push({ vers, yanked: yanked === true });
  }
  return versions;
}

/** Each requirement (in the order asked) resolved to the version cargo would pick, or unresolved with the reason. */
export async function resolveCrateRequirements(
  http: HttpClient,
  indexBase: string,
  asked: ReadonlyArray<{ name: string; requirement: string }>,
): Promise<Sources['dependencies']> {
  try {
    const crates = [...new Set(asked.filter((a) => CRATE_NAME.test(a.name)).map((a) => a.name.toLowerCase()))];
    const fetched = new Map<string, Fetched>();
    await mapLimit(crates, CONCURRENCY, async (crate) => {
      fetched.set(crate, await fetchVersions(http, indexBase, crate));
    });
    let requested = 0;
    const failures: { reason: string; code: SourceUnavailableCode }[] = [];
    const dependencies: Entry[] = asked.map(({ name, requirement }) => {
      const entry = (version: string | null, reason: string | null): Entry => ({ name, range: requirement, version, reason, securityHolding: false });
      if (!CRATE_NAME.test(name)) return entry(null, 'not a crates.io crate name');
      requested += 1;
      const answer: Fetched = fetched.get(name.toLowerCase()) ?? { status: 'unavailable', reason: 'no answer', code: 'bad-answer' };
      if (answer.status === 'not-found') return entry(null, 'not found in the crates.io index');
      if (answer.status === 'unavailable') {
        failures.push({ reason: `${name}: ${answer.reason}`, code: answer.code });
        return entry(null, answer.reason);
      }
      const picked = resolveCargoRequirement(answer.versions, requirement);
      return picked.ok ? entry(picked.version, null) : entry(null, picked.reason);
    });
    const first = failures[0];
    if (first !== undefined && failures.length * 2 > requested) {
      return { status: 'unavailable', reason: `${failures.length} of ${requested} crates could not be looked up (${first.reason})`, code: first.code };
    }
    return { status: 'ok', facts: { dependencies } };
  } catch (error) {
    return { status: 'unavailable', reason: `crates.io index: ${oneLine(error)}`, code: thrownFailureCode(error) };
  }
}

async function fetchVersions(http: HttpClient, indexBase: string, crate: string): Promise<Fetched> {
  try {
    const res = await http.request({ url: `${indexBase}/${crateIndexPath(crate)}`, maxBytes: CRATE_INDEX_MAX_BYTES });
    if (!res.ok) {
      if (res.kind === 'status' && (res.status === 404 || res.status === 410 || res.status === 451)) return { status: 'not-found' };
      return { status: 'unavailable', reason: `crates.io index: ${oneLine(res.reason)}`, code: httpFailureCode(res) };
    }
    return { status: 'ok', versions: indexVersions(res.body.toString('utf8'), crate) };
  } catch (error) {
    return { status: 'unavailable', reason: `crates.io index: ${oneLine(error)}`, code: thrownFailureCode(error) };
  }
}
