/**
 * A stand-in for the GitHub API for every test that does not serve GitHub itself (the GitHub
 * fault rows serve a healthy GitHub world: support/github-world.ts): one loopback
 * server (per test process) that answers every REST and GraphQL request 404 — a repository
 * GitHub does not know, the same answer in a healthy run and in a faulted one, so GitHub
 * never changes what a test compares. It records every request (with its headers) for the
 * tests that must see none, or must see where a token went.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface GithubStub {
  origin: string;
  requests: StubRequest[];
  /** The environment that points nerq's GitHub endpoints here. */
  env: Record<string, string>;
}

let started: Promise<GithubStub> | undefined;

export function githubStub(): Promise<GithubStub> {
  started ??= new Promise((resolve, reject) => {
    const requests: StubRequest[] = [];
    const server = createServer((req, res) => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
      req.resume();
      req.on('end', () => {
        const body = JSON.stringify({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
        res.writeHead(404, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        res.end(body);
      });
    });
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({ origin, requests, env: { NERQ_GITHUB_API_URL: `${origin}/github`, NERQ_GITHUB_GRAPHQL_URL: `${origin}/github/graphql` } });
    });
  });
  return started;
}
