/**
 * PyPI's file host on the fixture server: `/pypi-files/<path>` serves a file from
 * fixtures/http/pypi-files/<path> or from a map of generated bodies, honouring HTTP Range
 * (`bytes=a-b`, `bytes=a-`, `bytes=-n`) as files.pythonhosted.org does, or ignoring it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES_ROOT, type FixtureServer } from './fixture-server.js';

export const PYPI_FILES_PREFIX = 'pypi-files';

export interface PypiFilesOptions {
  /** Generated bodies by path under the prefix (`packages/…/x.whl`); others come from fixtures. */
  files?: Record<string, Buffer>;
  /** Answer 200 with the whole body to every request (a server without range support). */
  ignoreRange?: boolean;
  /** Answer every request with this status. */
  status?: number;
  /** Answer the first this many requests, and HTTP 500 to every later one (a host that fails part-way). */
  failAfter?: number;
}

/** Serve `/pypi-files/…` on `server`; returns the env that points nerq at it. */
export function servePypiFiles(server: FixtureServer, options: PypiFilesOptions = {}): { NERQ_PYPI_FILES_URL: string } {
  let answered = 0;
  server.routePrefix('GET', `/${PYPI_FILES_PREFIX}/`, (req, res, { url }) => {
    answered += 1;
    const status = options.failAfter !== undefined && answered > options.failAfter ? 500 : options.status;
    if (status !== undefined) {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end('error');
      return;
    }
    const rel = decodeURIComponent(url.pathname.slice(PYPI_FILES_PREFIX.length + 2));
    const file = path.join(FIXTURES_ROOT, PYPI_FILES_PREFIX, rel);
    const body = options.files?.[rel] ?? (!rel.includes('..') && existsSync(file) ? readFileSync(file) : undefined);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (options.ignoreRange === true || range === null) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
      res.end(body);
      return;
    }
    const [, from = '', to = ''] = range;
    const start = from === '' ? Math.max(0, body.length - Number(to)) : Number(from);
    const end = from === '' || to === '' ? body.length - 1 : Math.min(Number(to), body.length - 1);
    if (start > end || start >= body.length) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` });
      res.end();
      return;
    }
    const part = body.subarray(start, end + 1);
    res.writeHead(206, { 'content-type': 'application/octet-stream', 'content-length': String(part.length), 'content-range': `bytes ${start}-${end}/${body.length}` });
    res.end(part);
  });
  return { NERQ_PYPI_FILES_URL: server.url(PYPI_FILES_PREFIX) };
}
