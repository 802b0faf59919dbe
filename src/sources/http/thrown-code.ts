/**
 * What a source makes of an error thrown while it asked a service, as a source code
 * (docs/scoring.md §11). The HTTP client returns its failures as data (types.ts), so a throw is
 * rare; when one reaches a source's catch-all it is classified by its kind, the way the client
 * classifies what undici throws (client.ts): a failure thrown on as a value, a code the source
 * set itself, an abort or timeout, a refused, reset or unresolvable connection, TLS, a body over
 * a cap, a body that is not JSON or not the expected shape, an error status, a URL that cannot
 * be built. Only an error of none of these kinds stays `unclassified`. Pure.
 */
import { httpFailureCode, SOURCE_UNAVAILABLE_CODES, type SourceUnavailableCode } from '../../model/source-codes.js';

/** TLS failures by their OpenSSL / Node code (shared with client.ts). */
export const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME_MISMATCH|ERR_TLS/;

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ABORT_ERR', 'UND_ERR_ABORTED']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_PRX_CONN',
  'UND_ERR_PRX_TLS',
  'Z_DATA_ERROR',
  'Z_BUF_ERROR',
  'ERR_BROTLI_DECOMPRESSION_FAILED',
]);
const TOO_LARGE_CODES = new Set(['ERR_BUFFER_TOO_LARGE', 'ERR_STRING_TOO_LONG', 'UND_ERR_RES_EXCEEDED_MAX_SIZE']);
const HTTP_FAILURE_KINDS = new Set(['network', 'timeout', 'status', 'too-large', 'redirect']);
const SOURCE_CODES: ReadonlySet<string> = new Set(SOURCE_UNAVAILABLE_CODES);

/** How deep a chain of `cause`s is followed (a cycle ends there too). */
const MAX_CAUSES = 5;

/** The code for `error`, thrown while a source asked a service; `unclassified` when it has no known kind. */
export function thrownFailureCode(error: unknown): SourceUnavailableCode {
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSES && current !== null && typeof current === 'object'; depth++) {
    const code = kindOf(current as Record<string, unknown>);
    if (code !== undefined) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return 'unclassified';
}

function kindOf(error: Record<string, unknown>): SourceUnavailableCode | undefined {
  // An HttpFailure thrown on as it came from the client.
  if (error.ok === false && typeof error.kind === 'string' && HTTP_FAILURE_KINDS.has(error.kind)) {
    return httpFailureCode(error as { kind: string; status?: number; hostDown?: true });
  }
  const code = typeof error.code === 'string' ? error.code : undefined;
  // A source's own error that already carries its source code (OSV's, for one).
  if (code !== undefined && code !== 'unclassified' && SOURCE_CODES.has(code)) return code as SourceUnavailableCode;
  const name = typeof error.name === 'string' ? error.name : '';
  if (name === 'AbortError' || name === 'TimeoutError' || (code !== undefined && TIMEOUT_CODES.has(code))) return 'timeout';
  if (code !== undefined && TOO_LARGE_CODES.has(code)) return 'too-large';
  if (code !== undefined && (NETWORK_CODES.has(code) || TLS_CODES.test(code) || code.startsWith('HPE_'))) return 'network-error';
  // A URL nerq cannot build from what it has: nothing was asked.
  if (code === 'ERR_INVALID_URL' || name === 'UrlSegmentError') return 'not-asked';
  // The answer came but is not what was asked: not JSON (JSON.parse), or not the expected shape (zod).
  if (name === 'SyntaxError' || name === 'ZodError') return 'bad-answer';
  if (typeof error.status === 'number' && Number.isInteger(error.status) && error.status >= 400 && error.status <= 599) {
    return httpFailureCode({ kind: 'status', status: error.status });
  }
  return undefined;
}
