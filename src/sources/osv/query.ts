/**
 * OSV source: the known advisories of a resolved package version and of its direct
 * dependencies' resolved versions.
 *
 * Requests (each path joined onto the configured base, whose own path is kept):
 * - `POST /v1/querybatch` — one batch for the packages of a query (chunks of at most 1,000
 *   queries), answered with advisory ids only; a result that has more carries
 *   `next_page_token`, and those queries are asked again with `page_token` (at most 10 pages
 *   per query; more → unavailable). A check asks the target alone at once, and its dependencies
 *   in a second batch once they resolve (pipeline/vulnerabilities-for.ts);
 * - `GET /v1/vulns/{id}` — once per distinct id, 8 at a time; withdrawn records are dropped;
 * - `GET /v1/vulns/{alias}` — only for a record with no severity at all and no twin fetched
 *   above that has one: its aliases, GHSA first, at most 2 per advisory, each at most once.
 * Queries that share an `OsvRecordReader` (a target's and its dependencies') share these GETs:
 * each record is read once, and at most 8 at a time, for both.
 * - `POST /v1/query` with a package and no version — only for a package the registry no longer
 *   serves at all (pipeline/removed-malicious.ts): every record OSV holds for the package, whole,
 *   in one answer (`next_page_token` followed, at most 10 pages; more → unavailable).
 *
 * Failure is data, never "no vulnerabilities": a batch that fails (network, 5xx after
 * retries, malformed or wrongly shaped body, more pages than the limit) makes the answer of
 * every package it asked about unavailable, with a one-line reason naming what failed. An
 * advisory record that cannot be read makes unavailable the answer of each package the batch
 * listed it for (naming the advisory), never that of a package it was not listed for: in an
 * audit the other packages keep their answers; for a check, a dependency's unreadable advisory
 * leaves the dependencies' advisories unknown and the target's own stand. An alias looked up
 * only for a severity may fail quietly: the advisory then stays of unknown severity.
 */
import { z } from 'zod';
import { VulnerabilityFactsSchema, type AdvisoryFacts, type VulnerabilityFacts } from '../../evidence/schema.js';
import {
  OsvRecordSchema,
  aliasLookupOrder,
  comparatorFor,
  isWithdrawn,
  mergeTwins,
  normaliseAdvisory,
  ownSeverity,
  sortAdvisories,
  type OsvEcosystem,
  type OsvRecord,
  type SeverityFinding,
} from './advisory.js';
import { loadCvssCalculator } from './cvss.js';
import type { HttpClient } from '../http/types.js';
import { joinUrl } from '../http/url.js';
import { thrownFailureCode } from '../http/thrown-code.js';
import { httpFailureCode, type SourceUnavailable, type SourceUnavailableCode } from '../../model/source-codes.js';

export interface OsvPackage {
  name: string;
  version: string;
}

export interface VulnerabilityQuery {
  ecosystem: OsvEcosystem;
  target: OsvPackage;
  /** Direct dependencies at their resolved versions; null when they could not be resolved. */
  dependencies: OsvPackage[] | null;
}

export type VulnerabilitiesResult = { status: 'ok'; facts: VulnerabilityFacts } | SourceUnavailable;

/** The advisories of a package's direct dependencies, asked apart from the package's own. */
export type DependencyAdvisoriesResult =
  | {
      status: 'ok';
      advisories: AdvisoryFacts[];
      /** Packages OSV answered for. */
      queried: number;
      /** Asked `each`: the packages OSV could not answer for (their request failed, an advisory listed for them was unreadable), with why. */
      unknown?: Array<{ name: string; version: string; reason: string; code: SourceUnavailableCode }>;
    }
  | SourceUnavailable;

/**
 * Reads advisory records by id: each at most once (what a record request answered, or the one-line
 * reason it failed), FETCH_CONCURRENCY at a time. The queries made for one package share one.
 */
export type OsvRecordReader = (id: string) => Promise<OsvRecord | OsvUnavailable>;

/** OSV's limit on queries per batch request. */
export const QUERYBATCH_LIMIT = 1000;
/** Pages of results read per query before giving up. */
export const MAX_PAGES = 10;
/** Advisory records fetched at once. */
export const FETCH_CONCURRENCY = 8;
/** Extra records fetched per advisory to find a severity among its aliases. */
export const MAX_ALIAS_LOOKUPS = 2;

/** A batch answer is ids and dates only; a record is small (the biggest real ones are ~1 MB). */
const BATCH_MAX_BYTES = 16 * 1024 * 1024;
const RECORD_MAX_BYTES = 8 * 1024 * 1024;

/** OSV ids: `GHSA-…`, `PYSEC-…`, `MAL-…`, `CVE-…`, `RHSA-2024:1234`, `DEBIAN-DSA-3029-1` … */
const ADVISORY_ID = /^[A-Za-z0-9][A-Za-z0-9._:+-]{0,199}$/;

const BatchResponseSchema = z.object({
  results: z.array(
    z.object({
      vulns: z.array(z.object({ id: z.string(), modified: z.string().optional() })).optional(),
      next_page_token: z.string().optional(),
    }),
  ),
});

/** Internal: the one-line reason the source is unavailable. */
class OsvUnavailable extends Error {
  override name = 'OsvUnavailable';
  readonly code: SourceUnavailableCode;
  constructor(message: string, code: SourceUnavailableCode = 'bad-answer') {
    super(message);
    this.code = code;
  }
}

function oneLine(value: unknown): string {
  return String(value)
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** The known advisories of `query.target` and `query.dependencies`, in one batch. Never throws. */
export async function fetchVulnerabilities(
  http: HttpClient,
  osvBase: string,
  query: VulnerabilityQuery,
  read: OsvRecordReader = osvRecordReader(http, osvBase),
): Promise<VulnerabilitiesResult> {
  try {
    return validated(await collect(http, osvBase, query, read));
  } catch (error) {
    return unavailableFrom(error);
  }
}

/**
 * The known advisories of a package's direct dependencies (at their resolved versions), in one
 * batch of their own; none to ask → none found, without a request. Never throws. A package OSV
 * could not answer for makes the whole answer unavailable — or, asked `each` (a repository's set,
 * pipeline/vulnerabilities-for.ts), only that package unknown (`unknown`, with why), the others
 * keeping their answers, as the audit's batch does (fetchVulnerabilitiesMany).
 */
export async function fetchDependencyAdvisories(
  http: HttpClient,
  osvBase: string,
  ecosystem: OsvEcosystem,
  dependencies: readonly OsvPackage[],
  read: OsvRecordReader = osvRecordReader(http, osvBase),
  each = false,
): Promise<DependencyAdvisoriesResult> {
  try {
    checkBase(osvBase);
    checkPackages(dependencies);
    const queried = distinctPackages(dependencies);
    if (queried.length === 0) return { status: 'ok', advisories: [], queried: 0 };
    const advisoriesOf = await advisoriesByPackage(http, osvBase, ecosystem, queried, read);
    if (each) {
      const unknown: Array<{ name: string; version: string; reason: string; code: SourceUnavailableCode }> = [];
      const found: AdvisoryFacts[] = [];
      for (const p of queried) {
        const got = advisoriesOf.get(keyOf(p));
        if (got instanceof OsvUnavailable) unknown.push({ name: p.name, version: p.version, reason: got.message, code: got.code });
        else found.push(...(got ?? []));
      }
      const checked = VulnerabilityFactsSchema.shape.advisories.safeParse(sortAdvisories(found));
      return checked.success
        ? { status: 'ok', advisories: checked.data, queried: queried.length - unknown.length, unknown }
        : { status: 'unavailable', reason: INVALID, code: 'bad-answer' };
    }
    const advisories = sortAdvisories(queried.flatMap((p) => readOrThrow(advisoriesOf.get(keyOf(p)))));
    const checked = VulnerabilityFactsSchema.shape.advisories.safeParse(advisories);
    return checked.success
      ? { status: 'ok', advisories: checked.data, queried: queried.length }
      : { status: 'unavailable', reason: INVALID, code: 'bad-answer' };
  } catch (error) {
    return unavailableFrom(error);
  }
}

const INVALID = 'OSV: the advisories failed validation';

/** The source's answer for facts built from OSV's answers: they must hold the evidence schema. */
function validated(facts: VulnerabilityFacts): VulnerabilitiesResult {
  const checked = VulnerabilityFactsSchema.safeParse(facts);
  return checked.success ? { status: 'ok', facts: checked.data } : { status: 'unavailable', reason: INVALID, code: 'bad-answer' };
}

/** What a failure thrown while asking OSV makes of the source: another error is coded by its kind (http/thrown-code.ts). */
function unavailableFrom(error: unknown): SourceUnavailable {
  const failure = asOsvUnavailable(error);
  return { status: 'unavailable', reason: failure.message, code: failure.code };
}

/** A thrown error as the source's own failure: its code from the error's kind, `unclassified` only for an unexpected one. */
function asOsvUnavailable(error: unknown): OsvUnavailable {
  return error instanceof OsvUnavailable ? error : new OsvUnavailable(`OSV: ${oneLine(error instanceof Error ? error.message : error)}`, thrownFailureCode(error));
}

/** Reads records from `osvBase` for the queries that share it (see OsvRecordReader). */
export function osvRecordReader(http: HttpClient, osvBase: string): OsvRecordReader {
  const limit = limiter(FETCH_CONCURRENCY);
  const read = new Map<string, Promise<OsvRecord | OsvUnavailable>>();
  return (id) => {
    let pending = read.get(id);
    if (pending === undefined) {
      pending = limit(() => getRecord(http, osvBase, id));
      read.set(id, pending);
    }
    return pending;
  };
}

const keyOf = (p: OsvPackage): string => `${p.name}\u0000${p.version}`;

/**
 * The advisories of many packages of one ecosystem at once (an audit): one querybatch per 1,000
 * packages and one record request per distinct advisory, shared by all. The result maps
 * `packageKey(name, version)` to what `fetchVulnerabilities` would give for that package alone
 * with no dependencies queried. When the batch fails every package gets the same unavailable
 * reason; an advisory that cannot be read makes unavailable only the packages it was listed for.
 */
export async function fetchVulnerabilitiesMany(
  http: HttpClient,
  osvBase: string,
  ecosystem: OsvEcosystem,
  packages: readonly OsvPackage[],
): Promise<Map<string, VulnerabilitiesResult>> {
  const out = new Map<string, VulnerabilitiesResult>();
  try {
    checkBase(osvBase);
    const queried = distinctPackages(packages.filter((p) => p.name !== '' && p.version !== ''));
    if (queried.length === 0) return out;
    const advisoriesOf = await advisoriesByPackage(http, osvBase, ecosystem, queried, osvRecordReader(http, osvBase));
    for (const p of queried) {
      const found = advisoriesOf.get(keyOf(p));
      out.set(
        keyOf(p),
        found instanceof OsvUnavailable
          ? { status: 'unavailable', reason: found.message, code: found.code }
          : validated({ advisories: sortAdvisories(found ?? []), dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null }),
      );
    }
  } catch (error) {
    const unavailable = unavailableFrom(error);
    for (const p of packages) out.set(keyOf(p), unavailable);
  }
  return out;
}

/** The key `fetchVulnerabilitiesMany` files a package's result under. */
export function packageKey(name: string, version: string): string {
  return keyOf({ name, version });
}

async function collect(http: HttpClient, osvBase: string, query: VulnerabilityQuery, read: OsvRecordReader): Promise<VulnerabilityFacts> {
  checkBase(osvBase);
  const packages = [query.target, ...(query.dependencies ?? [])];
  checkPackages(packages);
  const advisoriesOf = await advisoriesByPackage(http, osvBase, query.ecosystem, distinctPackages(packages), read);
  const advisories = sortAdvisories(readOrThrow(advisoriesOf.get(keyOf(query.target))));
  if (query.dependencies === null) return { advisories, dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: null };
  const dependencyKeys = [...new Set(query.dependencies.map(keyOf))];
  // A dependency's unreadable advisory leaves the dependencies' advisories unknown, not the target's own.
  const unread = dependencyKeys.map((k) => advisoriesOf.get(k)).find((found) => found instanceof OsvUnavailable);
  if (unread !== undefined) return { advisories, dependencyAdvisories: null, dependenciesQueried: 0, dependencyAdvisoriesReason: unread.message };
  return {
    advisories,
    dependencyAdvisories: sortAdvisories(dependencyKeys.flatMap((k) => readOrThrow(advisoriesOf.get(k)))),
    dependenciesQueried: dependencyKeys.length,
    dependencyAdvisoriesReason: null,
  };
}

/** A package's advisories from `advisoriesByPackage`; the reason one of them could not be read is thrown. */
function readOrThrow(found: AdvisoryFacts[] | OsvUnavailable | undefined): AdvisoryFacts[] {
  if (found instanceof OsvUnavailable) throw found;
  return found ?? [];
}

function checkPackages(packages: readonly OsvPackage[]): void {
  for (const p of packages) {
    if (p.name === '' || p.version === '') throw new OsvUnavailable('OSV: cannot query a package without a name and a version', 'not-asked');
  }
}

/** One query per distinct package version (first listed first). */
function distinctPackages(packages: readonly OsvPackage[]): OsvPackage[] {
  const distinct = new Map<string, OsvPackage>();
  for (const p of packages) if (!distinct.has(keyOf(p))) distinct.set(keyOf(p), { name: p.name, version: p.version });
  return [...distinct.values()];
}

/**
 * Each package's live advisories (twins merged), by `keyOf`, or the one-line reason the first of
 * its advisories (in the batch's order) that could not be read gives: one batch for `packages`
 * (distinct), then the records of every id it named through `read`. A record that cannot be read
 * touches only the packages it was listed for. Throws OsvUnavailable when the batch fails.
 */
async function advisoriesByPackage(
  http: HttpClient,
  osvBase: string,
  ecosystem: OsvEcosystem,
  packages: readonly OsvPackage[],
  read: OsvRecordReader,
): Promise<Map<string, AdvisoryFacts[] | OsvUnavailable>> {
  const idsPerQuery = await queryBatch(http, osvBase, ecosystem, packages);
  const { records, unread } = await fetchRecords(read, [...new Set(idsPerQuery.flatMap((ids) => (ids instanceof OsvUnavailable ? [] : ids)))]);
  // Their severities are scored from CVSS vectors: the calculator loads only for a run that reads records.
  if (records.size > 0) await loadCvssCalculator();
  const borrowed = await borrowSeverities(read, records);
  const compare = comparatorFor(ecosystem);
  const advisoriesOf = new Map<string, AdvisoryFacts[] | OsvUnavailable>();
  packages.forEach((p, index) => {
    const ids = idsPerQuery[index] ?? [];
    // The request that asked about it failed: the batch's reason.
    if (ids instanceof OsvUnavailable) {
      advisoriesOf.set(keyOf(p), ids);
      return;
    }
    const failed = ids.find((id) => unread.has(id));
    if (failed !== undefined) {
      const why = unread.get(failed);
      advisoriesOf.set(keyOf(p), new OsvUnavailable(`OSV: advisory ${failed} could not be read: ${why?.message ?? 'no answer'}`, why?.code ?? 'bad-answer'));
      return;
    }
    const found: AdvisoryFacts[] = [];
    for (const id of ids) {
      const record = records.get(id);
      if (record === undefined || isWithdrawn(record)) continue;
      found.push(normaliseAdvisory(record, { ecosystem, name: p.name, version: p.version, compare }, borrowed.get(id) ?? null));
    }
    advisoriesOf.set(keyOf(p), mergeTwins(found, compare));
  });
  return advisoriesOf;
}

function checkBase(osvBase: string): void {
  let url: URL;
  try {
    url = new URL(osvBase);
  } catch {
    throw new OsvUnavailable('OSV: invalid API base URL', 'not-asked');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OsvUnavailable('OSV: invalid API base URL', 'not-asked');
}

// ---------------------------------------------------------------------------------------
// POST /v1/querybatch

interface PendingQuery {
  index: number;
  token: string | undefined;
}

/**
 * Advisory ids per package (same order), every page read; for the packages of a request of at
 * most QUERYBATCH_LIMIT that failed (or that still had pages past MAX_PAGES), the one-line reason
 * instead: one request failing leaves the packages of the others their answers.
 */
async function queryBatch(http: HttpClient, osvBase: string, ecosystem: OsvEcosystem, packages: readonly OsvPackage[]): Promise<(string[] | OsvUnavailable)[]> {
  const ids: (string[] | OsvUnavailable)[] = packages.map(() => []);
  for (let start = 0; start < packages.length; start += QUERYBATCH_LIMIT) {
    let pending: PendingQuery[] = packages
      .slice(start, start + QUERYBATCH_LIMIT)
      .map((_, offset) => ({ index: start + offset, token: undefined }));
    try {
      for (let page = 1; pending.length > 0; page++) {
        if (page > MAX_PAGES) {
          const first = packages[pending[0]?.index ?? 0];
          const which = first === undefined ? '' : ` for ${first.name}@${first.version}`;
          throw new OsvUnavailable(`OSV querybatch: more than ${MAX_PAGES} pages of advisories${which}`);
        }
        const queries = pending.map(({ index, token }) => {
          const p = packages[index] as OsvPackage;
          return { package: { name: p.name, ecosystem }, version: p.version, ...(token === undefined ? {} : { page_token: token }) };
        });
        const results = await postBatch(http, osvBase, queries);
        const next: PendingQuery[] = [];
        results.forEach((result, j) => {
          const index = (pending[j] as PendingQuery).index;
          const list = ids[index] as string[];
          for (const { id } of result.vulns ?? []) if (!list.includes(id)) list.push(id);
          const token = result.next_page_token;
          if (token !== undefined && token !== '') next.push({ index, token });
        });
        pending = next;
      }
    } catch (error) {
      // Every package of this request is unknown, including those whose earlier pages were read.
      const failure = asOsvUnavailable(error);
      for (let index = start; index < Math.min(packages.length, start + QUERYBATCH_LIMIT); index++) ids[index] = failure;
    }
  }
  return ids;
}

async function postBatch(http: HttpClient, osvBase: string, queries: readonly object[]): Promise<z.output<typeof BatchResponseSchema>['results']> {
  const { results } = await postJson(http, osvBase, 'querybatch', { queries }, BatchResponseSchema);
  if (results.length !== queries.length) {
    throw new OsvUnavailable(`OSV querybatch: ${results.length} results for ${queries.length} queries`);
  }
  for (const result of results) {
    for (const { id } of result.vulns ?? []) {
      if (!ADVISORY_ID.test(id)) throw new OsvUnavailable('OSV querybatch: a malformed advisory id');
    }
  }
  return results;
}

// ---------------------------------------------------------------------------------------
// GET /v1/vulns/{id}

type Limit = <T>(task: () => Promise<T>) => Promise<T>;

/** Run at most `n` tasks at once (a freed slot passes straight to the next waiter). */
function limiter(n: number): Limit {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active < n) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) active--;
      else next();
    }
  };
}

/** One record, or a one-line reason it could not be read. */
async function getRecord(http: HttpClient, osvBase: string, id: string): Promise<OsvRecord | OsvUnavailable> {
  const res = await http.request({
    url: joinUrl(osvBase, 'v1', 'vulns', id),
    headers: { accept: 'application/json' },
    maxBytes: RECORD_MAX_BYTES,
  });
  if (!res.ok) return new OsvUnavailable(oneLine(res.reason), httpFailureCode(res));
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    return new OsvUnavailable('malformed JSON');
  }
  const parsed = OsvRecordSchema.safeParse(body);
  return parsed.success ? parsed.data : new OsvUnavailable('not an OSV record');
}

/** Every record by id, and apart the one-line reason each id that could not be read gives. */
async function fetchRecords(read: OsvRecordReader, ids: readonly string[]): Promise<{ records: Map<string, OsvRecord>; unread: Map<string, OsvUnavailable> }> {
  const fetched = await Promise.all(ids.map(read));
  const records = new Map<string, OsvRecord>();
  const unread = new Map<string, OsvUnavailable>();
  for (const [i, id] of ids.entries()) {
    const record = fetched[i];
    if (record instanceof OsvUnavailable || record === undefined) unread.set(id, record ?? new OsvUnavailable('no answer'));
    else records.set(id, record);
  }
  return { records, unread };
}

/**
 * For each live record with no severity of its own: the severity of a twin — an alias
 * already fetched, else up to MAX_ALIAS_LOOKUPS alias records fetched for it (GHSA first).
 */
async function borrowSeverities(read: OsvRecordReader, records: ReadonlyMap<string, OsvRecord>): Promise<Map<string, SeverityFinding>> {
  const lookUp = async (alias: string): Promise<OsvRecord | null> => {
    const record = await read(alias);
    return record instanceof OsvUnavailable ? null : record;
  };
  const severityOf = (record: OsvRecord | null | undefined): SeverityFinding | null =>
    record === null || record === undefined || isWithdrawn(record) ? null : ownSeverity(record);

  const borrowed = new Map<string, SeverityFinding>();
  await Promise.all(
    [...records].map(async ([id, record]) => {
      if (isWithdrawn(record) || ownSeverity(record) !== null) return;
      const aliases = aliasLookupOrder(record).filter((alias) => ADVISORY_ID.test(alias));
      for (const alias of aliases) {
        const twin = severityOf(records.get(alias));
        if (twin !== null) {
          borrowed.set(id, twin);
          return;
        }
      }
      for (const alias of aliases.filter((a) => !records.has(a)).slice(0, MAX_ALIAS_LOOKUPS)) {
        const twin = severityOf(await lookUp(alias));
        if (twin !== null) {
          borrowed.set(id, twin);
          return;
        }
      }
    }),
  );
  return borrowed;
}

// ---------------------------------------------------------------------------------------
// POST /v1/query (a package, no version)

export type PackageRecordsResult = { status: 'ok'; records: OsvRecord[] } | SourceUnavailable;

const QueryResponseSchema = z.object({
  vulns: z.array(z.unknown()).optional(),
  next_page_token: z.string().optional(),
});

/**
 * Every live record OSV holds for a package, whatever the version (one request per page of
 * answers). A record that does not read as one is left out; a failed page makes the whole
 * answer unavailable. Never throws.
 */
export async function fetchPackageRecords(http: HttpClient, osvBase: string, ecosystem: OsvEcosystem, name: string): Promise<PackageRecordsResult> {
  try {
    checkBase(osvBase);
    if (name === '') throw new OsvUnavailable('OSV: cannot query a package without a name', 'not-asked');
    const records: OsvRecord[] = [];
    let token: string | undefined;
    for (let page = 1; ; page++) {
      if (page > MAX_PAGES) throw new OsvUnavailable(`OSV query: more than ${MAX_PAGES} pages of advisories for ${name}`);
      const answer = await postJson(http, osvBase, 'query', { package: { name, ecosystem }, ...(token === undefined ? {} : { page_token: token }) }, QueryResponseSchema);
      for (const entry of answer.vulns ?? []) {
        const record = OsvRecordSchema.safeParse(entry);
        if (record.success && !isWithdrawn(record.data)) records.push(record.data);
      }
      token = answer.next_page_token;
      if (token === undefined || token === '') return { status: 'ok', records };
    }
  } catch (error) {
    return unavailableFrom(error);
  }
}

/** POST `body` to `/v1/{endpoint}` and read the answer as `schema`. Throws OsvUnavailable. */
async function postJson<S extends z.ZodType>(http: HttpClient, osvBase: string, endpoint: 'query' | 'querybatch', body: object, schema: S): Promise<z.output<S>> {
  const res = await http.request({
    url: joinUrl(osvBase, 'v1', endpoint),
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    maxBytes: BATCH_MAX_BYTES,
    retry: true,
  });
  if (!res.ok) throw new OsvUnavailable(`OSV ${endpoint}: ${oneLine(res.reason)}`, httpFailureCode(res));
  let answer: unknown;
  try {
    answer = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new OsvUnavailable(`OSV ${endpoint}: malformed JSON`);
  }
  const parsed = schema.safeParse(answer);
  if (!parsed.success) throw new OsvUnavailable(`OSV ${endpoint}: unexpected response shape`);
  return parsed.data;
}
