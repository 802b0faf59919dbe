/** Request log helpers for tables: one request shown, routes with names and ids taken out. */
import type { RequestRecord } from './server.js';

/** A request as shown in tables: method, service path without the origin, shortened. */
export function showRequest(r: Pick<RequestRecord, 'method' | 'path'>): string {
  const text = `${r.method} ${r.path}`;
  return text.length > 90 ? `${text.slice(0, 87)}…` : text;
}

/** A request path with its names and ids taken out: `/github/repos/{o}/{r}/contributors`, `/npm/{name}`. */
export function routeOf(path: string): string {
  const parts = path.split('?')[0]!.split('/');
  if (parts[1] === 'github' && parts[2] === 'repos') return ['', 'github', 'repos', '{owner}', '{repo}', ...parts.slice(5, 6)].join('/');
  if (parts[1] === 'npm' || parts[1] === 'npm-public') return path.includes('/-/') ? `/${parts[1]}/{tarball or attestation}` : `/${parts[1]}/{name}`;
  if (parts[1] === 'npm-api') return `/npm-api/${parts.slice(2, 4).join('/')}/{period}/{name}`;
  if (parts[1] === 'osv' && parts[3] === 'vulns') return '/osv/v1/vulns/{id}';
  return parts.join('/');
}

/** `\`GET /npm/{name}\` ×1000, …`: requests grouped by route, most first. */
export function byRoute(requests: readonly RequestRecord[], limit = 12): string {
  const kinds = new Map<string, number>();
  for (const r of requests) kinds.set(`${r.method} ${routeOf(r.path)}`, (kinds.get(`${r.method} ${routeOf(r.path)}`) ?? 0) + 1);
  return [...kinds]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([k, n]) => `\`${k}\` ×${n}`)
    .join(', ');
}
