/**
 * Download counts from npm's downloads API: `GET {apiBase}/downloads/point/last-week/{name}`
 * and `…/last-year/{name}`, answered as `{ downloads, start, end, package }`.
 *
 * The stats service not knowing a package (404, or an `{ error }` body) is "unknown", not
 * zero. When only one of the two periods answers, the other is null; when neither does,
 * the source is unavailable. Never throws.
 *
 * An audit asks for many packages at once: the bulk form (`…/last-week/a,b,c`, up to 128
 * unscoped names) answers `{ a: {downloads…}, b: null, … }`. What a bulk answer does not
 * answer for is left to the package's own request.
 */
import { z } from 'zod';
import { DownloadFactsSchema, type DownloadFacts } from '../../evidence/schema.js';
import type { HttpClient } from '../http/types.js';
import { httpFailureCode, type SourceUnavailable } from '../../model/source-codes.js';

export type DownloadsResult = { status: 'ok'; facts: DownloadFacts } | SourceUnavailable;

export type DownloadPeriod = 'last-week' | 'last-year';

/** A point-query body is small; anything large is not a real answer. */
const MAX_BYTES = 64 * 1024;

/**
 * The point-query URL, the base path kept. Scoped names keep their `@` and `/` literal
 * (`/downloads/point/last-week/@scope/pkg`, as the API expects); each part is encoded.
 */
export function downloadsUrl(apiBase: string, period: DownloadPeriod, name: string): string {
  const base = apiBase.replace(/(?<!\/)\/+$/, '');
  const scoped = /^@([^/]+)\/([^/]+)$/.exec(name);
  const path = scoped
    ? `@${encodeURIComponent(scoped[1] ?? '')}/${encodeURIComponent(scoped[2] ?? '')}`
    : encodeURIComponent(name);
  return new URL(`${base}/downloads/point/${period}/${path}`).toString();
}

/** A period's count, or a one-line reason it is unknown with its code. */
export type PointAnswer = number | Omit<SourceUnavailable, 'status'>;

/**
 * Both periods for one package. `known` holds answers already fetched (a bulk query); a period
 * missing from it is asked with the package's own request.
 */
export async function fetchDownloads(
  http: HttpClient,
  apiBase: string,
  name: string,
  known: Partial<Record<DownloadPeriod, PointAnswer>> = {},
): Promise<DownloadsResult> {
  const [week, year] = await Promise.all([
    known['last-week'] ?? fetchPoint(http, apiBase, 'last-week', name),
    known['last-year'] ?? fetchPoint(http, apiBase, 'last-year', name),
  ]);
  return combine(week, year);
}

function combine(week: PointAnswer, year: PointAnswer): DownloadsResult {
  if (typeof week !== 'number' && typeof year !== 'number') {
    return { status: 'unavailable', reason: week.reason === year.reason ? week.reason : `${week.reason}; ${year.reason}`, code: week.code };
  }
  const facts = {
    lastWeek: typeof week === 'number' ? week : null,
    // npm's API is asked for the week and the year; the month is not fetched.
    lastMonth: null,
    lastYear: typeof year === 'number' ? year : null,
  };
  const checked = DownloadFactsSchema.safeParse(facts);
  return checked.success
    ? { status: 'ok', facts: checked.data }
    : { status: 'unavailable', reason: 'downloads: facts failed validation', code: 'bad-answer' };
}

/** The most names npm's downloads API answers in one bulk query. */
export const BULK_MAX = 128;

/** A bulk answer for ~128 names is a few kB; anything far larger is not a real answer. */
const BULK_MAX_BYTES = 1024 * 1024;

/**
 * Whether a name can go in a bulk query: unscoped (the bulk form does not take scopes) and made
 * of characters that need no escaping and cannot be confused with the comma separator.
 */
export function bulkEligible(name: string): boolean {
  return name.length <= 214 && /^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(name);
}

/** The bulk point-query URL for two or more eligible names. */
export function bulkDownloadsUrl(apiBase: string, period: DownloadPeriod, names: readonly string[]): string {
  return new URL(`${apiBase.replace(/(?<!\/)\/+$/, '')}/downloads/point/${period}/${names.join(',')}`).toString();
}

/**
 * Split names into as few bulk queries as `BULK_MAX` allows, of near-equal size, so that no
 * query holds a single name (a one-name bulk URL is the single-package URL, answered in
 * another shape). Fewer than two names → no query.
 */
export function bulkChunks(names: readonly string[]): string[][] {
  if (names.length < 2) return [];
  const count = Math.ceil(names.length / BULK_MAX);
  const size = Math.ceil(names.length / count);
  const chunks: string[][] = [];
  for (let i = 0; i < names.length; i += size) chunks.push(names.slice(i, i + size));
  return chunks;
}

const BulkEntrySchema = z.union([
  z.null(),
  z.object({ downloads: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), package: z.string().optional() }),
]);

/**
 * One bulk query for one period: name → count, or the reason it is unknown (`null` = the
 * stats API does not know the package, as a 404 says for one). A name the answer leaves out
 * or answers with something else is absent from the map; a failed query → an empty map.
 */
export async function fetchDownloadsBulk(
  http: HttpClient,
  apiBase: string,
  period: DownloadPeriod,
  names: readonly string[],
): Promise<Map<string, PointAnswer>> {
  const answers = new Map<string, PointAnswer>();
  const asked = names.filter(bulkEligible);
  if (asked.length < 2 || asked.length > BULK_MAX) return answers;
  let url: string;
  try {
    url = bulkDownloadsUrl(apiBase, period, asked);
  } catch {
    return answers;
  }
  const res = await http.request({ url, headers: { accept: 'application/json' }, maxBytes: BULK_MAX_BYTES });
  if (!res.ok) return answers;
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body.toString('utf8'));
  } catch {
    return answers;
  }
  // An `{ error: "…" }` body is a refused query (a package named "error" answers an object or null).
  const body = z.record(z.string(), z.unknown()).safeParse(parsed);
  if (!body.success || typeof body.data.error === 'string') return answers;
  for (const name of asked) {
    if (!Object.hasOwn(body.data, name)) continue;
    const entry = BulkEntrySchema.safeParse(body.data[name]);
    if (!entry.success) continue;
    if (entry.data === null) answers.set(name, unknownPackage(period));
    else if (entry.data.package === undefined || entry.data.package === name) answers.set(name, entry.data.downloads);
  }
  return answers;
}

const unknownPackage = (period: DownloadPeriod): PointAnswer => ({ reason: `downloads ${period}: the stats API does not know this package`, code: 'not-found' });
const badAnswer = (reason: string): PointAnswer => ({ reason, code: 'bad-answer' });

/** The count for one period, or a one-line reason it is unknown. */
async function fetchPoint(
  http: HttpClient,
  apiBase: string,
  period: DownloadPeriod,
  name: string,
): Promise<PointAnswer> {
  let url: string;
  try {
    url = downloadsUrl(apiBase, period, name);
  } catch {
    return { reason: 'downloads: invalid API base URL', code: 'not-asked' };
  }
  const res = await http.request({ url, headers: { accept: 'application/json' }, maxBytes: MAX_BYTES });
  if (!res.ok) {
    if (res.kind === 'status' && res.status === 404) return unknownPackage(period);
    return { reason: `downloads ${period}: ${oneLine(res.reason)}`, code: httpFailureCode(res) };
  }
  return parsePoint(res.body, period);
}

/** `{ downloads: n }` → n; an `{ error }` body, malformed JSON or a bad count → a reason. */
export function parsePoint(body: Buffer, period: DownloadPeriod): PointAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return badAnswer(`downloads ${period}: malformed JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return badAnswer(`downloads ${period}: the body is not a JSON object`);
  }
  const record = parsed as Record<string, unknown>;
  if (record.error !== undefined) {
    return badAnswer(`downloads ${period}: ${oneLine(typeof record.error === 'string' ? record.error : 'error')}`);
  }
  const n = record.downloads;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return badAnswer(`downloads ${period}: no download count`);
  return n;
}

function oneLine(value: unknown): string {
  return String(value).replace(/\s+/g, ' ').trim().slice(0, 200);
}
