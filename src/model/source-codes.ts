/**
 * Why a source is unavailable, as a stable code: the evidence's and the report's
 * `sources[].code` beside the sentence in `reason`. Programs (JSON, an API, an MCP client) switch
 * on the code; people read the reason. The list is closed and defined once, here
 * (docs/scoring.md §11 lists it); a code's meaning never changes, a new kind of failure gets a
 * new code.
 */

export const SOURCE_UNAVAILABLE_CODES = [
  'network-error',
  'timeout',
  'host-down',
  'rate-limited',
  'auth-required',
  'not-found',
  'http-status',
  'too-large',
  'redirect',
  'bad-answer',
  'integrity-mismatch',
  'not-asked',
  'depends-on-source',
  'unreadable-file',
  'unclassified',
] as const;
export type SourceUnavailableCode = (typeof SOURCE_UNAVAILABLE_CODES)[number];

/** What each code means, for docs/scoring.md. */
export const SOURCE_UNAVAILABLE_MEANINGS: Readonly<Record<SourceUnavailableCode, string>> = {
  'network-error': 'the service could not be reached: DNS, a refused or reset connection, TLS',
  timeout: 'the service did not answer in time, or the run deadline came first',
  'host-down': 'the host failed for good earlier in the run and was not asked again (README, "Unreachable hosts")',
  'rate-limited': 'the service refused for its rate limit (HTTP 429, GitHub\'s rate limits)',
  'auth-required': 'the service refused without the right credentials (HTTP 401 or 403)',
  'not-found': 'the service does not know what was asked (HTTP 404 or 410)',
  'http-status': 'the service answered with another error status',
  'too-large': 'the answer was larger than nerq reads (its facts may be `unread`)',
  redirect: 'the service redirected too often, or somewhere nerq does not follow',
  'bad-answer': 'the service answered, but not with what was asked: unparseable, the wrong shape, or about another package',
  'integrity-mismatch': 'the downloaded file does not match the hash the registry lists',
  'not-asked': 'nerq had nothing to ask the service with (no URL, no version, no name it can read)',
  'depends-on-source': 'the facts are derived from another source that is unavailable (its reason follows)',
  'unreadable-file':
    'a file the facts come from is there but could not be read as the text it must be (a repository\'s manifest or lockfile that does not parse; a link, submodule, Git LFS pointer or binary in its place; one past the files read per repository) — added in report schema 1.17.0',
  unclassified: 'the failure has no code: evidence saved before source codes, or one nerq does not classify',
};

/**
 * Whether a code is the service's final word on what was asked: asking again within minutes
 * gets the same answer (it does not know the name, nerq had nothing to ask with, the answer is
 * over nerq's cap, a redirect nerq does not follow, a file that does not match its hash). The
 * other codes may heal — a timeout, a refused connection, an error status, a rate limit, a
 * credential refused, a garbled answer, a source waiting on another, an unexpected error — so
 * `nerq serve` keeps a report with such a source only briefly (docs/serve.md, "Under load").
 * A record over every code: a new code must say which it is.
 */
export const SOURCE_CODE_IS_FINAL: Readonly<Record<SourceUnavailableCode, boolean>> = {
  'network-error': false,
  timeout: false,
  'host-down': false,
  'rate-limited': false,
  'auth-required': false,
  'not-found': true,
  'http-status': false,
  'too-large': true,
  redirect: true,
  'bad-answer': false,
  'integrity-mismatch': true,
  'not-asked': true,
  'depends-on-source': false,
  'unreadable-file': true,
  unclassified: false,
};

/** The HTTP layer's failure as a code (`kind` and `status` of sources/http/types.ts's HttpFailure). */
export function httpFailureCode(failure: { kind: string; status?: number; hostDown?: true }): SourceUnavailableCode {
  if (failure.hostDown === true) return 'host-down';
  switch (failure.kind) {
    case 'network':
      return 'network-error';
    case 'timeout':
      return 'timeout';
    case 'too-large':
      return 'too-large';
    case 'redirect':
      return 'redirect';
    default:
      break;
  }
  const status = failure.status;
  if (status === 429) return 'rate-limited';
  if (status === 401 || status === 403) return 'auth-required';
  if (status === 404 || status === 410) return 'not-found';
  return 'http-status';
}

/** A source that did not answer: the sentence for people and the code for programs. */
export interface SourceUnavailable {
  status: 'unavailable';
  reason: string;
  code: SourceUnavailableCode;
}
