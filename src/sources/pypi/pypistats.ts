/**
 * Download counts from pypistats (`GET {pypistats}/packages/<project>/recent`, answered as
 * `{ data: { last_day, last_week, last_month }, package, type }`): the last week and the last
 * month. pypistats gives no yearly figure, so `lastYear` is null (unknown, not zero).
 *
 * pypistats not knowing a project (404) is "unknown", not zero downloads. Never throws.
 */
import type { DownloadFacts } from '../../evidence/schema.js';
import { pep503 } from '../../ecosystems/pypi/name.js';
import { parseJsonBody, PypistatsRecentSchema } from './json.js';
import type { HttpClient } from '../http/types.js';
import { joinUrl } from '../http/url.js';
import { oneLine } from '../http/one-line.js';
import { thrownFailureCode } from '../http/thrown-code.js';
import { httpFailureCode, type SourceUnavailable, type SourceUnavailableCode } from '../../model/source-codes.js';

export type PypiDownloadsResult = { status: 'ok'; facts: DownloadFacts } | SourceUnavailable;

/** The answer is a few dozen bytes. */
const MAX_BYTES = 64 * 1024;

/** pypistats keys projects by their PEP 503 name. */
export function pypistatsUrl(pypiStatsBase: string, name: string): string {
  return joinUrl(pypiStatsBase, 'packages', pep503(name), 'recent');
}

export async function fetchPypiDownloads(http: HttpClient, pypiStatsBase: string, name: string): Promise<PypiDownloadsResult> {
  try {
    const res = await http.request({ url: pypistatsUrl(pypiStatsBase, name), headers: { accept: 'application/json' }, maxBytes: MAX_BYTES });
    if (!res.ok) {
      if (res.kind === 'status' && res.status === 404) return unavailable('pypistats does not know this project', 'not-found');
      return unavailable(`pypistats: ${oneLine(res.reason)}`, httpFailureCode(res));
    }
    const parsed = parseJsonBody(res.body, PypistatsRecentSchema);
    if (!parsed.ok) return unavailable(`pypistats: ${parsed.reason}`, 'bad-answer');
    const { last_week: lastWeek, last_month: lastMonth } = parsed.data.data;
    if ((lastWeek ?? null) === null && (lastMonth ?? null) === null) return unavailable('pypistats: no download counts in the answer', 'bad-answer');
    return { status: 'ok', facts: { lastWeek: lastWeek ?? null, lastMonth: lastMonth ?? null, lastYear: null } };
  } catch (error) {
    return unavailable(`pypistats: ${oneLine(error)}`, thrownFailureCode(error));
  }
}

function unavailable(reason: string, code: SourceUnavailableCode): PypiDownloadsResult {
  return { status: 'unavailable', reason, code };
}
