/**
 * A body read as it arrives, from any HttpClient: its `stream` when it has one, else its
 * `request` with the whole body handed to the consumer as one piece (a client that holds bodies
 * whole anyway: a test double, a decorator that does not stream).
 */
import type { BodyConsumer, HttpClient, HttpRequest, HttpStreamResult } from './types.js';

export async function streamBody<T>(http: HttpClient, req: HttpRequest, consume: BodyConsumer<T>): Promise<HttpStreamResult<T>> {
  if (http.stream !== undefined) return http.stream(req, consume);
  const res = await http.request(req);
  if (!res.ok) return res;
  const value = await consume(once(res.body));
  return { ok: true, status: res.status, headers: res.headers, value, url: res.url };
}

async function* once(body: Buffer): AsyncGenerator<Buffer> {
  yield body;
}
