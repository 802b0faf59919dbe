/**
 * Download counts from npm's downloads API: `GET {apiBase}/downloads/point/last-week/{name}`
 * and `…/last-year/{name}`, answered as `{ downloads, start, end, package }`.
 *
 * The stats service not knowing a package (404, or an `{ error }` body) is "unknown", not
 * zero. When only one of the two periods answers, the other is null; when neither does,
 * the source is unavailable. Never throws.
 */
import { DownloadFactsSchema, type DownloadFacts } from '../evidence/schema.js';
import type { HttpClient } from './types.js';

export type DownloadsResult = { status: 'ok'; facts: DownloadFacts } | { status: 'unavailable'; reason: string };

export type DownloadPeriod = 'last-week' | 'last-year';

/** A point-query body is small; anything large is not a real answer. */
const MAX_BYTES = 64 * 1024;

/**
 * The point-query URL, the base path kept. Scoped names keep their `@` and `/` literal
 * (`/downloads/point/last-week/@scope/pkg`, as the API expects); each part is encoded.
 */
export function downloadsUrl(apiBase: string, period: DownloadPeriod, name: string): string {
  const base = apiBase.replace(/\/+$/, '');
  const scoped = /^@([^/]+)\/([^/]+)$/.exec(name);
  const path = scoped
    ? `@${encodeURIComponent(scoped[1] ?? '')}/${encodeURIComponent(scoped[2] ?? '')}`
    : encodeURIComponent(name);
  return new URL(`${base}/downloads/point/${period}/${path}`).toString();
}

export async function fetchDownloads(http: HttpClient, apiBase: string, name: string): Promise<DownloadsResult> {
  const [week, year] = await Promise.all([
    fetchPoint(http, apiBase, 'last-week', name),
    fetchPoint(http, apiBase, 'last-year', name),
  ]);
  if (typeof week === 'string' && typeof year === 'string') {
    return { status: 'unavailable', reason: week === year ? week : `${week}; ${year}` };
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
    : { status: 'unavailable', reason: 'downloads: facts failed validation' };
}

/** The count for one period, or a one-line reason it is unknown. */
async function fetchPoint(
  http: HttpClient,
  apiBase: string,
  period: DownloadPeriod,
  name: string,
): Promise<number | string> {
  let url: string;
  try {
    url = downloadsUrl(apiBase, period, name);
  } catch {
    return 'downloads: invalid API base URL';
  }
  const res = await http.request({ url, headers: { accept: 'application/json' }, maxBytes: MAX_BYTES });
  if (!res.ok) {
    if (res.kind === 'status' && res.status === 404) return `downloads ${period}: the stats API does not know this package`;
    return `downloads ${period}: ${oneLine(res.reason)}`;
  }
  return parsePoint(res.body, period);
}

/** `{ downloads: n }` → n; an `{ error }` body, malformed JSON or a bad count → a reason. */
export function parsePoint(body: Buffer, period: DownloadPeriod): number | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return `downloads ${period}: malformed JSON`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return `downloads ${period}: the body is not a JSON object`;
  }
  const record = parsed as Record<string, unknown>;
  if (record.error !== undefined) {
    return `downloads ${period}: ${oneLine(typeof record.error === 'string' ? record.error : 'error')}`;
  }
  const n = record.downloads;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return `downloads ${period}: no download count`;
  return n;
}

function oneLine(value: unknown): string {
  return String(value).replace(/\s+/g, ' ').trim().slice(0, 200);
}
