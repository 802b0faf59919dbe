/**
 * A tiny in-test HttpClient: answers from a route table keyed by exact URL and records
 * every request. Unknown URLs answer a network failure, so a wrong URL fails the test.
 */
import type { HttpClient, HttpRequest, HttpResult } from '../../src/sources/http/types.js';

export type FakeAnswer =
  | { status: number; body?: string | Buffer; headers?: Record<string, string> }
  | { fail: 'network' | 'timeout' | 'too-large' | 'redirect'; reason?: string };

export interface FakeHttp extends HttpClient {
  requests: HttpRequest[];
}

export function fakeHttp(routes: Record<string, FakeAnswer>): FakeHttp {
  const requests: HttpRequest[] = [];
  return {
    requests,
    async request(req: HttpRequest): Promise<HttpResult> {
      requests.push(req);
      const answer = routes[req.url];
      if (!answer) return { ok: false, kind: 'network', reason: `no route for ${req.url}` };
      if ('fail' in answer) return { ok: false, kind: answer.fail, reason: answer.reason ?? answer.fail };
      const body = Buffer.from(answer.body ?? '');
      if (req.maxBytes !== undefined && body.length > req.maxBytes) {
        return { ok: false, kind: 'too-large', reason: `body exceeds ${req.maxBytes} bytes` };
      }
      if (answer.status < 200 || answer.status > 299) {
        return { ok: false, kind: 'status', status: answer.status, reason: `HTTP ${answer.status}` };
      }
      return { ok: true, status: answer.status, headers: answer.headers ?? {}, body, url: req.url };
    },
    async close() {},
  };
}
