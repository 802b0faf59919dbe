/**
 * npm search answers for the fixture server, in the shape the registry documents
 * (`objects[].package{name,version,description,keywords,date,links,publisher,maintainers}`,
 * `score`, `searchScore`, `total`), built from the recorded answer
 * (fixtures/http/npm-search/libnpm.npm-cli.json): each listing is a copy of its first record
 * with the name, version, description and keywords replaced, and the `score` / `searchScore`
 * members the recorded answer lacks added as the README there describes. `hostile: true` keeps
 * the recorded edge cases (a keywords string, escape sequences in keywords, a name wrapped in
 * colour codes) in the answer as they are.
 */
import { readFileSync } from 'node:fs';
import type { FixtureServer } from './fixture-server.js';

interface RecordedObject {
  package: Record<string, unknown> & { name: string };
}

const RECORDED = JSON.parse(
  readFileSync(new URL('../../fixtures/http/npm-search/libnpm.npm-cli.json', import.meta.url), 'utf8'),
) as { objects: RecordedObject[] };

export interface Listing {
  name: string;
  keywords: string[];
  description?: string;
  version?: string;
}

/** One search object for `listing`, from the recorded first record. */
export function searchObject(listing: Listing, rank: number): Record<string, unknown> {
  const template = structuredClone(RECORDED.objects[0]!.package);
  const pkg = {
    ...template,
    name: listing.name,
    version: listing.version ?? '1.0.0',
    description: listing.description ?? `Synthetic package ${listing.name}`,
    keywords: listing.keywords,
    date: '2026-09-15T10:00:00.000Z',
    links: { npm: `https://www.npmjs.com/package/${listing.name}` },
  };
  const score = Math.max(0.1, 1 - rank * 0.05);
  return { package: pkg, score: { final: score, detail: { quality: 1, popularity: 1, maintenance: 1 } }, searchScore: score, flags: { insecure: 0 } };
}

/** A whole answer: the listings in order, then (hostile) the recorded records as they are. */
export function searchAnswer(listings: readonly Listing[], options: { hostile?: boolean } = {}): Record<string, unknown> {
  const objects = [...listings.map((l, i) => searchObject(l, i)), ...(options.hostile === true ? structuredClone(RECORDED.objects) : [])];
  return { objects, total: objects.length, time: 'Wed Dec 02 2026 10:00:00 GMT+0000 (Coordinated Universal Time)' };
}

/** The recorded answer's names, as they are (escape sequences included). */
export const RECORDED_NAMES: readonly string[] = RECORDED.objects.map((o) => o.package.name);

type SearchServed = Record<string, unknown> | { status: number };

/** The answer each server serves per prefix now (the route is declared once; a test swaps the answer). */
const served = new WeakMap<FixtureServer, Map<string, SearchServed>>();

/**
 * Serve `answer` for every keyword search (any `size`) on the registry (`/npm`) unless `prefix`
 * says, from now on: a later call replaces the answer.
 */
export function serveSearch(server: FixtureServer, answer: SearchServed, prefix = 'npm'): void {
  let answers = served.get(server);
  if (answers === undefined) served.set(server, (answers = new Map()));
  const declared = answers.has(prefix);
  answers.set(prefix, answer);
  if (declared) return;
  server.route('GET', `/${prefix}/-/v1/search`, (_req, res) => {
    const current = answers.get(prefix)!;
    if ('status' in current && typeof current.status === 'number') {
      res.writeHead(current.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'search is unavailable' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(current));
  });
}

/** The search requests a server received, as `text` and `size`. */
export function searchRequests(server: FixtureServer): { text: string | null; size: string | null }[] {
  return server.requests
    .filter((r) => r.path.includes('/-/v1/search'))
    .map((r) => {
      const params = new URL(r.path, 'http://x').searchParams;
      return { text: params.get('text'), size: params.get('size') };
    });
}
