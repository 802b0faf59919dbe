/**
 * Peers for comparison tests of the front doors: three synthetic npm packages found by the
 * search (test/support/npm-search.ts) and the two curated replacements module-replacements
 * names for `request` (ofetch, ky), plus `nerq-alt-target` (keyword http) to compare.
 */
import { serveSynthetic } from '../cli/audit-helpers.js';
import type { FixtureServer } from './fixture-server.js';

/** Peers of `request` (keywords http, simple, util, utility) and of `nerq-alt-target` (http). */
export const PEERS = [
  { name: 'nerq-peer-fetch', keywords: ['http', 'fetch', 'client'] },
  { name: 'nerq-peer-util', keywords: ['util', 'utility'] },
  { name: 'nerq-peer-old', keywords: ['http'], deprecated: 'no longer maintained' },
];
/** The curated replacements named for request, served as synthetic packages. */
export const CURATED = ['ofetch', 'ky'];

/** Serve the peers, the curated replacements and `nerq-alt-target` on the registry. */
export function servePeers(server: FixtureServer): void {
  for (const peer of [...PEERS, ...CURATED.map((name) => ({ name, keywords: ['http', 'fetch'] }))]) serveSynthetic(server, { version: '2.0.0', ...peer });
  serveSynthetic(server, { name: 'nerq-alt-target', version: '1.0.0', keywords: ['http'] });
}
