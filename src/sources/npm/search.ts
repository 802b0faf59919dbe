/**
 * npm's search API (`GET <registry>/-/v1/search?text=keywords:a,b&size=N`): the packages that
 * carry any of a target's keywords, as candidates for its peers (README, "Compared with its
 * peers"; docs/scoring.md §13). The registry is the configured one unless NERQ_NPM_SEARCH_URL
 * names another.
 *
 * The answer is untrusted input: the body is size-capped, validated object by object (an
 * object that does not fit — no name, an invalid package name, a name wrapped in escape
 * sequences — is dropped and counted, never repaired), and every string kept is sanitised
 * (escape sequences and control characters removed) and cut to a bounded length. A failure
 * is data (`unavailable` with a one-line reason), never an exception.
 */
import { z } from 'zod';
import { NPM_RULES } from '../../ecosystems/npm/rules.js';
import { sanitizeForTerminal } from '../../render/sanitize.js';
import { oneLine } from '../http/one-line.js';
import { httpFailureCode, type SourceUnavailableCode } from '../../model/source-codes.js';
import type { HttpClient } from '../http/types.js';
import { queryTerms } from '../../util/query-terms.js';
import { jsonOf, keepListings } from '../search-listings.js';

/** npm's search answers at most 250 objects per request. */
export const SEARCH_MAX_SIZE = 250;
/** 250 objects with long descriptions and maintainer lists stay well under this. */
export const SEARCH_MAX_BYTES = 2 * 1024 * 1024;
/** Keywords put in one query (the first ones the target declares). */
export const SEARCH_MAX_KEYWORDS = 8;
/** What is kept of each listing's strings. */
const MAX_DESCRIPTION = 300;
const MAX_KEYWORDS_PER_LISTING = 30;

/** One package an answer lists, as far as nerq reads it. */
export interface SearchListing {
  name: string;
  version: string | null;
  description: string | null;
  /** Lower case, sanitised, each a query-safe keyword. */
  keywords: string[];
  /** The listing's publish date as the registry gives it (ISO 8601), or null. */
  date: string | null;
}

export type NpmSearchResult =
  | {
      status: 'ok';
      /** The `text` asked (`keywords:a,b`). */
      query: string;
      /** The matches the registry says it has (`total`), or null when it does not say. */
      total: number | null;
      listings: SearchListing[];
      /** Objects dropped because they did not validate. */
      dropped: number;
    }
  | { status: 'unavailable'; query: string; reason: string; code: SourceUnavailableCode };

/**
 * A keyword that can go in a query as it is: lower case letters, digits and `.`, `_`, `+`, `-`
 * (no space, comma or colon, which the search syntax would read), at most 50 characters.
 */
const QUERY_KEYWORD = /^[a-z0-9][a-z0-9._+-]{0,49}$/;

/** The keywords of a list that can be asked for, lower case, first occurrence kept, at most `max`. */
export function queryKeywords(keywords: readonly string[], max = SEARCH_MAX_KEYWORDS): string[] {
  return queryTerms(keywords, QUERY_KEYWORD, max);
}

/** The `text` of a keyword search: `keywords:a,b,c` (a package matches when it has any of them). */
export function searchText(keywords: readonly string[]): string {
  return `keywords:${keywords.join(',')}`;
}

/** `<base>/-/v1/search?text=…&size=N`, the base's path kept. */
export function npmSearchUrl(base: string, text: string, size: number): string {
  const url = new URL(`${base.replace(/\/+$/, '')}/-/v1/search`);
  url.searchParams.set('text', text);
  url.searchParams.set('size', String(Math.max(1, Math.min(SEARCH_MAX_SIZE, Math.floor(size)))));
  return url.toString();
}

const AnswerSchema = z.object({
  objects: z.array(z.unknown()),
  total: z.number().int().nonnegative().optional(),
});

const ListingSchema = z.object({
  package: z.object({
    name: z.string().min(1).max(214),
    version: z.string().max(256).optional(),
    description: z.string().nullish(),
    // npm's own tests serve a keywords string (one keyword) beside the usual array.
    keywords: z.union([z.array(z.unknown()), z.string()]).nullish(),
    date: z.string().max(64).nullish(),
  }),
});

function clean(text: string, max: number): string {
  return sanitizeForTerminal(text).replace(/\s+/g, ' ').trim().slice(0, max);
}

/** One object of the answer as a listing, or null when it does not validate. */
export function listingOf(object: unknown): SearchListing | null {
  const parsed = ListingSchema.safeParse(object);
  if (!parsed.success) return null;
  const pkg = parsed.data.package;
  // A name is kept only when it is a valid package name as given (escape sequences are not).
  if (!NPM_RULES.registry.validName(pkg.name)) return null;
  const rawKeywords = typeof pkg.keywords === 'string' ? [pkg.keywords] : (pkg.keywords ?? []);
  const keywords = queryKeywords(
    rawKeywords.flatMap((k) => (typeof k === 'string' ? [clean(k, 60)] : [])),
    MAX_KEYWORDS_PER_LISTING,
  );
  const description = typeof pkg.description === 'string' ? clean(pkg.description, MAX_DESCRIPTION) : '';
  const date = pkg.date !== undefined && pkg.date !== null && !Number.isNaN(Date.parse(pkg.date)) ? new Date(pkg.date).toISOString() : null;
  const version = pkg.version === undefined ? null : clean(pkg.version, 64);
  return { name: pkg.name, version: version === '' ? null : version, description: description === '' ? null : description, keywords, date };
}

/** Ask the search API for up to `size` packages carrying any of `keywords`. Never throws. */
export async function searchNpm(
  http: HttpClient,
  base: string,
  request: { keywords: readonly string[]; size: number },
): Promise<NpmSearchResult> {
  const text = searchText(request.keywords);
  const unavailable = (reason: string, code: SourceUnavailableCode): NpmSearchResult => ({ status: 'unavailable', query: text, reason: `npm search: ${oneLine(reason)}`, code });
  if (request.keywords.length === 0) return unavailable('the package declares no keyword to search by', 'not-asked');
  const response = await http.request({
    url: npmSearchUrl(base, text, request.size),
    headers: { accept: 'application/json' },
    maxBytes: SEARCH_MAX_BYTES,
  });
  if (!response.ok) return unavailable(response.reason, httpFailureCode(response));
  const json = jsonOf(response.body);
  if (json === undefined) return unavailable('the answer is not JSON', 'bad-answer');
  const answer = AnswerSchema.safeParse(json);
  if (!answer.success) return unavailable('the answer has no list of objects', 'bad-answer');
  const { listings, dropped } = keepListings(answer.data.objects, SEARCH_MAX_SIZE, listingOf, (l) => l.name);
  return { status: 'ok', query: text, total: answer.data.total ?? null, listings, dropped };
}
