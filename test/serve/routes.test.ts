/**
 * `nerq serve`'s routes in process (Fastify's inject) against the fixture server: every answer
 * checked against its zod schema, the preflight answer field for field against the published
 * shape, the report byte for byte against `nerq check --json`.
 */
import os from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReportSchema } from '../../src/report/schema.js';
import {
  BatchResponseSchema,
  ErrorSchema,
  HealthSchema,
  HistoryResponseSchema,
  PreflightSchema,
} from '../../src/serve/schemas.js';
import { expectPackage, requireBuiltCli } from '../cli/helpers.js';
import { packageLockV3, serveOsv, serveSynthetic, TempDirs } from '../cli/audit-helpers.js';
import { AuditReportSchema } from '../../src/audit/report-schema.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { allowedHostOf, hostPolicyOf } from '../../src/front/allowed-host.js';
import { isLoopbackAddress } from '../../src/front/loopback.js';
import { ServerConfigError } from '../../src/front/token-file.js';
import { buildServer } from '../../src/serve/server.js';
import { corsOriginOf } from '../../src/serve/start.js';
import { parseTarget } from '../../src/app/targets.js';
import { SERVICE_SHORT_NAMES } from '../../src/sources/services.js';
import { testApp, type TestApp } from './support.js';

/** The published Preflight API's fields, in its order. */
const PUBLISHED_FIELDS = [
  'target',
  'target_trust',
  'target_grade',
  'target_verified',
  'target_category',
  'target_source',
  'target_last_updated',
  'details_url',
  'caller',
  'caller_trust',
  'caller_grade',
  'caller_verified',
  'interaction_risk',
  'recommendation',
  'compliance_flags',
  'security',
  'popularity',
  'activity',
  'alternatives',
  'checked_at',
  'response_time_ms',
];

let server: FixtureServer;
const apps: TestApp[] = [];
const open = (...args: Parameters<typeof testApp>[1][]) => {
  const made = testApp(server, args[0]);
  apps.push(made);
  return made;
};

beforeAll(() => requireBuiltCli());
useSharedFixtureServer((started) => {
  server = started;
  expectPackage(server, 'chalk');
  expectPackage(server, 'request');
  serveSynthetic(server, { name: 'nerq-serve-ok', version: '1.0.0' });
  serveSynthetic(server, { name: 'nerq-serve-old', version: '2.0.0', deprecated: 'use nerq-serve-ok' });
  serveOsv(server, []);
  server.expect('GET', '/npm/nerq-slow', { delayMs: 1_500, status: 404, body: { error: 'not found' } });
  server.expect('GET', '/npm/nerq-slow-two', { delayMs: 1_500, status: 404, body: { error: 'not found' } });
});

afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const dirs = new TempDirs();

afterAll(async () => {
  dirs.cleanUp();
});

const packumentRequests = (name: string) => server.requests.filter((r) => r.method === 'GET' && r.path === `/npm/${name}`).length;

describe('GET /v1/preflight', () => {
  it('answers the published shape, field for field; the recommendation follows the verdict', async () => {
    const { app } = open();
    const res = await app.inject({ method: 'GET', url: '/v1/preflight?target=chalk' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(PUBLISHED_FIELDS);
    const answer = PreflightSchema.strict().parse(body);
    expect(answer).toMatchObject({
      target: 'chalk',
      target_trust: 74.1,
      target_source: 'npm',
      target_verified: false,
      recommendation: 'CAUTION',
      interaction_risk: 'MEDIUM',
      caller: null,
      caller_verified: null,
      alternatives: [],
      checked_at: '2026-11-30T00:00:00.000Z',
      // chalk 4.1.0's publish time in the recorded packument.
      target_last_updated: '2020-06-09T07:43:42.525Z',
    });
    expect(Object.keys(answer.security)).toEqual(['known_cves', 'max_severity', 'has_active_advisory', 'license', 'license_category']);
    expect(Object.keys(answer.popularity)).toEqual(['npm_weekly_downloads', 'pypi_weekly_downloads', 'github_stars']);
    expect(Object.keys(answer.activity)).toEqual(['last_commit_days_ago', 'contributor_metrics']);
    expect(answer.security).toMatchObject({ known_cves: 0, has_active_advisory: false, max_severity: null, license: 'MIT', license_category: 'permissive' });
    // GitHub is rate limited in the fixtures: stars unknown, not zero.
    expect(answer.popularity.github_stars).toBeNull();
    expect(answer.popularity.pypi_weekly_downloads).toBeNull();
    expect(typeof answer.popularity.npm_weekly_downloads).toBe('number');
    expect(res.headers.etag).toMatch(/^"/);
    // What is left of the reuse window of the evaluation it was made from: GitHub did not
    // answer, so 5 s, not 60 (docs/serve.md, "Under load").
    expect(res.headers['cache-control']).toMatch(/^private, max-age=[45]$/);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();

    const again = await app.inject({ method: 'GET', url: '/v1/preflight?target=chalk', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('If-None-Match is compared as HTTP says (RFC 9110 13.1.2): weakly, in a list, or * — a 304 with the ETag and Cache-Control; another tag gets the answer', async () => {
    const { app } = open();
    for (const url of ['/v1/preflight?target=chalk', '/v1/report?target=chalk']) {
      const first = await app.inject({ method: 'GET', url });
      const etag = String(first.headers.etag);
      // A proxy that compresses the answer turns the tag weak: the client sends it back so.
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, `"other",W/${etag}`, '*']) {
        const again = await app.inject({ method: 'GET', url, headers: { 'if-none-match': header } });
        expect(again.statusCode, `${url} ${header}`).toBe(304);
        expect(again.headers.etag).toBe(etag);
        expect(again.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
        expect(again.body).toBe('');
      }
      for (const header of ['"other"', `${etag.slice(0, -2)}"`, etag.slice(1, -1), `W/"other"`]) {
        const fresh = await app.inject({ method: 'GET', url, headers: { 'if-none-match': header } });
        expect(fresh.statusCode, `${url} ${header}`).toBe(200);
      }
    }
  });

  it('DENY for NO, with the cap as a compliance flag; a caller raises the interaction risk to the worse of both', async () => {
    const { app } = open();
    const res = await app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-serve-ok&caller=request' });
    expect(res.statusCode).toBe(200);
    const answer = PreflightSchema.strict().parse(res.json());
    expect(answer.caller).toBe('request');
    expect(answer.caller_verified).toBe(false);
    expect(answer.caller_trust).not.toBeNull();
    expect(answer.interaction_risk).toBe('HIGH');

    const denied = PreflightSchema.parse((await app.inject({ method: 'GET', url: '/v1/preflight?target=request' })).json());
    expect(denied.recommendation).toBe('DENY');
    expect(denied.compliance_flags).toContain('deprecated');
  });

  it('include=history adds the evaluations, oldest first', async () => {
    const { app } = open();
    const res = await app.inject({ method: 'GET', url: '/v1/preflight?target=chalk&include=history' });
    const answer = PreflightSchema.strict().parse(res.json());
    expect(answer.history).toEqual([{ evaluatedAt: '2026-11-30T00:00:00.000Z', score: 74.1, grade: answer.target_grade, verdictCode: 'caution' }]);
  });

  it('a target the parser refuses is a 400 with a JSON error and no upstream request', async () => {
    const { app } = open();
    const before = server.requests.length;
    for (const target of ['https://evil.example/payload', 'file:/etc/passwd', '../../etc/passwd', 'http://127.0.0.1:9/', 'a'.repeat(300), 'pkg:generic/x@1']) {
      const res = await app.inject({ method: 'GET', url: `/v1/preflight?target=${encodeURIComponent(target)}` });
      expect(res.statusCode, target).toBe(400);
      expect(ErrorSchema.parse(res.json()).error.code).toMatch(/^bad-(target|request)$/);
    }
    // A git URL naming a GitHub repository (nerq's own parser, as for the CLI): the target to use, no credential echoed.
    const gitUrl = await app.inject({ method: 'GET', url: `/v1/preflight?target=${encodeURIComponent('git+https://user:s3cret@github.com/chalk/chalk.git')}` });
    expect(gitUrl.statusCode).toBe(400);
    expect(ErrorSchema.parse(gitUrl.json()).error).toEqual({ code: 'bad-target', message: '"git+https://github.com/chalk/chalk.git" is a git URL, not a target: for the repository, check github:chalk/chalk' });
    const badCaller = await app.inject({ method: 'GET', url: '/v1/preflight?target=chalk&caller=https%3A%2F%2Fevil.example' });
    expect(badCaller.statusCode).toBe(400);
    expect(ErrorSchema.parse(badCaller.json()).error.code).toBe('bad-target');
    // The parameter at fault is named: a bad caller is the caller's error, a bad target the target's.
    for (const [url, parameter] of [
      ['/v1/preflight?target=debug&caller=%1b%5b31m', /^caller: the caller /],
      ['/v1/preflight?target=debug&caller=%E2%80%AEx', /^caller: the caller /],
      ['/v1/preflight?target=%1b%5b31m&caller=debug', /^the target /],
    ] as const) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      const { error } = ErrorSchema.parse(res.json());
      expect(error.code, url).toBe('bad-target');
      expect(error.message, url).toMatch(parameter);
    }
    for (const url of ['/v1/preflight', '/v1/preflight?target=chalk&extra=1', '/v1/preflight?target=chalk&include=everything']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(ErrorSchema.parse(res.json()).error.code).toBe('bad-request');
    }
    // A query key or body key quoted back loses its escape, bidirectional and control characters.
    for (const [method, url, payload] of [
      ['GET', `/v1/preflight?target=chalk&${encodeURIComponent('x\u202e\u001b[2J\u0007')}=1`, undefined],
      ['POST', '/v1/preflight/batch', { targets: ['chalk'], ['x\u202e\u001b[2J\u0085']: 1 }],
    ] as const) {
      const res = await app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
      expect(res.statusCode, url).toBe(400);
      const { message } = ErrorSchema.parse(res.json()).error;
      expect(message).toMatch(/^Unrecognized key/);
      expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    }
    expect(server.requests.length).toBe(before);
  });
});

describe('coalescing, the queue and deadlines', () => {
  it('concurrent requests for one target share one evaluation: one packument request, one history row', async () => {
    const { app, evaluator, runtime } = open();
    const before = packumentRequests('nerq-serve-ok');
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-serve-ok' })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(packumentRequests('nerq-serve-ok') - before).toBe(1);
    // A request routed after the evaluation ended is answered by it too (reuse): still one evaluation.
    const stats = evaluator.stats();
    expect(stats).toMatchObject({ evaluations: 1, pending: 0 });
    expect(stats.coalesced + stats.reused).toBe(19);
    expect(runtime.session.store?.history.list('npm:nerq-serve-ok')).toHaveLength(1);
  });

  it('under load over loopback HTTP (300 requests, 30 concurrent, 6 targets): no error, one evaluation per target', async () => {
    const { app, evaluator } = open();
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    const targets = ['chalk', 'request', 'nerq-serve-ok', 'nerq-serve-old', 'npm:chalk', 'chalk@4'];
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, async () => {
        while (next < 300) {
          const target = targets[next++ % targets.length]!;
          const res = await fetch(`${origin}/v1/preflight?target=${encodeURIComponent(target)}`);
          PreflightSchema.strict().parse(await res.json());
          statuses.push(res.status);
        }
      }),
    );
    expect(statuses).toEqual(Array(300).fill(200));
    // npm:chalk and chalk are one target; chalk@4 is another spec of it.
    const { evaluations, coalesced, reused } = evaluator.stats();
    expect(evaluations).toBe(5);
    expect(evaluations + coalesced + reused).toBe(300);
  });

  it('a finished evaluation answers again for a minute, then the target is evaluated anew', async () => {
    let clock = 0;
    const { app, evaluator } = open({ evaluator: { monotonicNow: () => clock } });
    // Every source of this package answers (a report a source did not answer is kept 5 s: test/serve/degraded-reuse.test.ts).
    const first = await app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-serve-ok' });
    clock += 59_000;
    const second = await app.inject({ method: 'GET', url: '/v1/preflight?target=npm:nerq-serve-ok' });
    expect(PreflightSchema.parse(second.json())).toMatchObject({ target: 'npm:nerq-serve-ok', target_trust: PreflightSchema.parse(first.json()).target_trust });
    expect(evaluator.stats()).toMatchObject({ evaluations: 1, reused: 1 });
    clock += 2_000;
    await app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-serve-ok' });
    expect(evaluator.stats()).toMatchObject({ evaluations: 2, reused: 1 });
  });

  it('answers 429 with Retry-After when the queue is full, before any request', async () => {
    const { app } = open({ evaluator: { maxPending: 1, concurrency: 1 } });
    const asked = packumentRequests('nerq-slow');
    const first = app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-slow' });
    await expect.poll(() => packumentRequests('nerq-slow') > asked).toBe(true);
    const before = server.requests.length;
    const refused = await app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-slow-two' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(ErrorSchema.parse(refused.json()).error.code).toBe('queue-full');
    expect(server.requests.length).toBe(before);
    // The same target joins the evaluation under way instead.
    const joined = app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-slow' });
    expect((await first).statusCode).toBe(200);
    expect((await joined).statusCode).toBe(200);
  });

  it('Cache-Control: max-age is what is left of the reuse window of the evaluations an answer was made from', async () => {
    let clock = 1_000_000;
    const { app } = open({ evaluator: { monotonicNow: () => clock } });
    const first = await app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-serve-ok' });
    expect(first.headers['cache-control']).toBe('private, max-age=60');
    clock += 45_500;
    const later = await app.inject({ method: 'GET', url: '/v1/report?target=nerq-serve-ok' });
    expect(later.headers['cache-control']).toBe('private, max-age=14');
    // With a caller, the one that goes stale first.
    const both = await app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-serve-old&caller=nerq-serve-ok' });
    expect(both.headers['cache-control']).toBe('private, max-age=14');
    // A report a source did not answer (GitHub is rate limited for chalk in the fixtures) is kept 5 s at most.
    const degraded = await app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-serve-old&caller=chalk' });
    expect(degraded.headers['cache-control']).toBe('private, max-age=5');
    const none = open({ evaluator: { reuseMs: 0 } });
    const uncached = await none.app.inject({ method: 'GET', url: '/v1/preflight?target=chalk' });
    expect(uncached.headers['cache-control']).toBe('private, max-age=0');
  });

  it("two identical requests share one evaluation: the one whose deadline passes first is a 504, the other still gets its answer", async () => {
    // Two front doors over one evaluator, deadlines 200 ms and 20 s; the packument answers after 1.5 s.
    const { app: hasty, runtime, evaluator } = open({ server: { requestTimeoutMs: 200 } });
    const patient = buildServer({ runtime, evaluator, logLevel: 'silent', requestTimeoutMs: 20_000 });
    try {
      const [late, answered] = await Promise.all([
        hasty.inject({ method: 'GET', url: '/v1/preflight?target=nerq-slow-two' }),
        patient.inject({ method: 'GET', url: '/v1/preflight?target=nerq-slow-two' }),
      ]);
      expect(late.statusCode).toBe(504);
      expect(ErrorSchema.parse(late.json()).error.code).toBe('deadline');
      expect(answered.statusCode).toBe(200);
      expect(answered.json()).toMatchObject({ target: 'nerq-slow-two', recommendation: 'UNKNOWN' });
      expect(evaluator.stats()).toMatchObject({ evaluations: 1, coalesced: 1 });
    } finally {
      await patient.close();
    }
  });

  it("a request past its own deadline is a 504; the evaluation goes on for the others", async () => {
    const { app, evaluator } = open({ server: { requestTimeoutMs: 200 } });
    const late = await app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-slow-two' });
    expect(late.statusCode).toBe(504);
    expect(ErrorSchema.parse(late.json()).error.code).toBe('deadline');
    await evaluator.idle();
    expect(evaluator.stats().evaluations).toBe(1);
  });
});

describe('POST /v1/preflight/batch', () => {
  it('answers each target in order, at most 50, body capped', async () => {
    const { app } = open();
    const res = await app.inject({ method: 'POST', url: '/v1/preflight/batch', payload: { targets: ['chalk', 'request', 'chalk'] } });
    expect(res.statusCode).toBe(200);
    const batch = BatchResponseSchema.parse(res.json());
    expect(batch.count).toBe(3);
    expect(batch.results.map((r) => [r.target, r.recommendation])).toEqual([
      ['chalk', 'CAUTION'],
      ['request', 'DENY'],
      ['chalk', 'CAUTION'],
    ]);
    for (const r of batch.results) expect(Object.keys(r)).toEqual(PUBLISHED_FIELDS);

    const before = server.requests.length;
    const tooMany = await app.inject({ method: 'POST', url: '/v1/preflight/batch', payload: { targets: Array(51).fill('chalk') } });
    expect(tooMany.statusCode).toBe(400);
    const badOne = await app.inject({ method: 'POST', url: '/v1/preflight/batch', payload: { targets: ['chalk', 'https://evil.example/x'] } });
    // Which of the targets it is, as a schema error names it: `targets.1: …`.
    expect(ErrorSchema.parse(badOne.json()).error).toMatchObject({ code: 'bad-target', message: expect.stringMatching(/^targets\.1: /) });
    const huge = await app.inject({ method: 'POST', url: '/v1/preflight/batch', payload: { targets: ['chalk'], pad: 'x'.repeat(70_000) } });
    expect(huge.statusCode).toBe(413);
    expect(ErrorSchema.parse(huge.json()).error.code).toBe('body-too-large');
    const notJson = await app.inject({ method: 'POST', url: '/v1/preflight/batch', payload: '{"targets": [', headers: { 'content-type': 'application/json' } });
    expect(notJson.statusCode).toBe(400);
    expect(ErrorSchema.parse(notJson.json()).error.code).toBe('bad-request');
    expect(server.requests.length).toBe(before);
  });
});

describe('a batch when the queue is full', () => {
  it('the targets the queue refused are entries saying so (queue-full, retry_after_s, every fact unknown); the others are answered', async () => {
    const { app } = open({ evaluator: { maxPending: 1, concurrency: 1 } });
    const before = { chalk: packumentRequests('chalk'), request: packumentRequests('request') };
    const res = await app.inject({ method: 'POST', url: '/v1/preflight/batch', payload: { targets: ['nerq-serve-ok', 'chalk', 'pypi:requests'] } });
    expect(res.statusCode).toBe(200);
    const batch = BatchResponseSchema.parse(res.json());
    const [ok, refused, refusedPypi] = batch.results;
    expect(ok).toMatchObject({ target: 'nerq-serve-ok', recommendation: 'PROCEED' });
    expect(ok!.error).toBeUndefined();
    expect(Object.keys(refused!)).toEqual([...PUBLISHED_FIELDS, 'error']);
    expect(PreflightSchema.strict().parse(refused)).toMatchObject({
      target: 'chalk',
      target_trust: null,
      target_grade: null,
      target_verified: false,
      target_source: 'npm',
      recommendation: 'UNKNOWN',
      interaction_risk: 'UNKNOWN',
      security: { known_cves: null, has_active_advisory: null },
      popularity: { npm_weekly_downloads: null },
      error: { code: 'queue-full' },
    });
    expect(refused!.error!.retry_after_s).toBeGreaterThanOrEqual(1);
    expect(refusedPypi).toMatchObject({ target: 'pypi:requests', target_source: 'pypi', error: { code: 'queue-full' } });
    expect(packumentRequests('chalk')).toBe(before.chalk);
  });

  it("a target still under way at the request's deadline is an entry saying so; the others are answered", async () => {
    const { app, evaluator } = open({ server: { requestTimeoutMs: 400 } });
    // chalk is evaluated already (and answers again from the reuse window); nerq-slow-two takes 1.5 s.
    await evaluator.evaluate(parseTarget('chalk'));
    const res = await app.inject({ method: 'POST', url: '/v1/preflight/batch', payload: { targets: ['chalk', 'nerq-slow-two'] } });
    expect(res.statusCode).toBe(200);
    const [ok, late] = BatchResponseSchema.parse(res.json()).results;
    expect(ok).toMatchObject({ target: 'chalk', target_trust: 74.1 });
    expect(late).toMatchObject({ target: 'nerq-slow-two', target_trust: null, recommendation: 'UNKNOWN', error: { code: 'deadline' } });
    expect(late!.error!.retry_after_s).toBeUndefined();
    await evaluator.idle();
  });

  it('a batch whose every target the queue refused is a 429 with Retry-After', async () => {
    const { app } = open({ evaluator: { maxPending: 1, concurrency: 1 } });
    const asked = packumentRequests('nerq-slow');
    const holding = app.inject({ method: 'GET', url: '/v1/preflight?target=nerq-slow' });
    await expect.poll(() => packumentRequests('nerq-slow') > asked).toBe(true);
    const refused = await app.inject({ method: 'POST', url: '/v1/preflight/batch', payload: { targets: ['chalk', 'request'] } });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(ErrorSchema.parse(refused.json()).error.code).toBe('queue-full');
    expect((await holding).statusCode).toBe(200);
  });
});

describe('CORS', () => {
  it('off by default: no CORS header, a browser preflight is not answered', async () => {
    const { app } = open();
    const res = await app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'https://app.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await app.inject({ method: 'OPTIONS', url: '/v1/preflight?target=chalk', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    // On loopback another site's page is refused outright; on a network address the preflight is a plain 405.
    expect(preflight.statusCode).toBe(403);
    expect(ErrorSchema.parse(preflight.json()).error.code).toBe('forbidden-origin');
    const network = open({ server: { hosts: { kind: 'any' } } });
    const networkPreflight = await network.app.inject({ method: 'OPTIONS', url: '/v1/preflight?target=chalk', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
    expect(networkPreflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(networkPreflight.statusCode).toBe(405);
    expect(ErrorSchema.parse(networkPreflight.json()).error.code).toBe('method-not-allowed');
  });

  it('--cors-origin: exactly the configured origins may read the answers; a browser preflight needs no token', async () => {
    const token = 'tok-cors-0123456789';
    const { app } = open({ server: { corsOrigins: ['https://app.example', 'http://localhost:3000'], tokens: [token] } });
    const allowed = await app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'https://app.example' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(String(allowed.headers.vary)).toMatch(/Origin/i);
    for (const origin of ['https://evil.example', 'https://app.example.evil.example', 'http://app.example', 'https://app.example:444', 'null']) {
      const res = await app.inject({ method: 'GET', url: '/healthz', headers: { origin } });
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    const before = server.requests.length;
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/v1/preflight?target=chalk',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/authorization/);
    expect(server.requests.length).toBe(before);
    // The answer itself still needs the token.
    const noToken = await app.inject({ method: 'GET', url: '/v1/history?target=chalk', headers: { origin: 'https://app.example' } });
    expect(noToken.statusCode).toBe(401);
  });

  it('only exact http(s) origins are accepted as --cors-origin', () => {
    expect(corsOriginOf('https://app.example')).toBe('https://app.example');
    expect(corsOriginOf('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    for (const bad of ['*', 'https://app.example/', 'https://app.example/path', 'app.example', 'file:///etc', 'null', 'https://*.example', 'HTTPS://APP.EXAMPLE', '']) {
      expect(() => corsOriginOf(bad), bad).toThrow(ServerConfigError);
    }
  });
});

describe('GET /v1/report and /v1/history', () => {
  it('the report is `nerq check --json`, byte for byte', async () => {
    const { app } = open();
    const res = await app.inject({ method: 'GET', url: '/v1/report?target=chalk' });
    expect(res.statusCode).toBe(200);
    ReportSchema.parse(res.json());
    const cli = await runCli(['check', 'chalk', '--json'], { server });
    expect(res.body).toBe(cli.stdout);
  });

  it('history lists the evaluations under the target key; bad targets are 400', async () => {
    const { app } = open();
    const empty = HistoryResponseSchema.parse((await app.inject({ method: 'GET', url: '/v1/history?target=chalk' })).json());
    expect(empty).toEqual({ target: 'npm:chalk', evaluations: [], olderNotShown: false });
    await app.inject({ method: 'GET', url: '/v1/preflight?target=chalk' });
    const one = HistoryResponseSchema.parse((await app.inject({ method: 'GET', url: '/v1/history?target=npm:chalk' })).json());
    expect(one.evaluations).toEqual([{ evaluatedAt: '2026-11-30T00:00:00.000Z', version: '4.1.0', score: 74.1, grade: one.evaluations[0]?.grade, verdictCode: 'caution' }]);
    const bad = await app.inject({ method: 'GET', url: '/v1/history?target=..%2F..' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /v1/audit', () => {
  it('a body nested deeper than 64 levels is a 400 before it is parsed (a policy nested a million deep was a 500: the stack overflowed)', async () => {
    const { app } = open();
    const before = server.requests.length;
    for (const depth of [65, 1_000_000]) {
      const payload = `{"fileName":"package-lock.json","content":"{}","policy":${'{"a":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)}}`;
      const res = await app.inject({ method: 'POST', url: '/v1/audit', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode, String(depth)).toBe(400);
      expect(ErrorSchema.parse(res.json()).error).toMatchObject({ code: 'bad-request', message: expect.stringMatching(/64 levels/) });
    }
    expect(server.requests.length).toBe(before);
  });

  it('audits a lockfile given as content: the report `nerq audit --file <name> --json` prints', async () => {
    const { app } = open();
    const { lock } = packageLockV3(
      [
        { name: 'nerq-serve-ok', version: '1.0.0', direct: true },
        { name: 'nerq-serve-old', version: '2.0.0', direct: true },
      ],
      server.url('npm'),
    );
    const res = await app.inject({ method: 'POST', url: '/v1/audit', payload: { fileName: 'package-lock.json', content: lock } });
    expect(res.statusCode).toBe(200);
    const audit = AuditReportSchema.parse(res.json());
    expect(audit.summary).toMatchObject({ total: 2, passed: 1, failed: 1 });
    expect(audit.outcome.result).toBe('fail');
    expect(audit.policySource).toBeNull();
    expect(res.body).not.toContain(os.tmpdir());

    const dir = dirs.project({ 'package-lock.json': lock });
    const cli = await runCli(['audit', '--file', 'package-lock.json', '--json'], { server, cwd: dir });
    expect(cli.code).toBe(1);
    expect(res.body).toBe(cli.stdout);
  });

  it('a policy in the body applies as .nerqrc.json would (same schema): the report of `nerq audit` with that policy file, its source `request`', async () => {
    const { app } = open();
    const { lock } = packageLockV3(
      [
        { name: 'nerq-serve-ok', version: '1.0.0', direct: true },
        { name: 'nerq-serve-old', version: '2.0.0', direct: true },
      ],
      server.url('npm'),
    );
    const policy = { minScore: 40, ignore: [{ package: 'nerq-serve-old', reason: 'replaced in the next release' }] };
    const res = await app.inject({ method: 'POST', url: '/v1/audit', payload: { fileName: 'package-lock.json', content: lock, policy } });
    expect(res.statusCode).toBe(200);
    const audit = AuditReportSchema.parse(res.json());
    expect(audit.summary).toMatchObject({ total: 2, passed: 1, failed: 0, ignored: 1 });
    expect(audit.outcome.result).toBe('pass');
    expect(audit.policySource).toBe('request');

    const dir = dirs.project({ 'package-lock.json': lock, '.nerqrc.json': JSON.stringify(policy) });
    const cli = await runCli(['audit', '--file', 'package-lock.json', '--json'], { server, cwd: dir });
    expect(cli.code).toBe(0);
    expect({ ...(JSON.parse(cli.stdout) as object), policySource: 'request' }).toEqual(res.json());
  });

  it('a bad policy is a 400 naming the key, with no upstream request; a policy over 64 KiB is refused', async () => {
    const { app } = open();
    const before = server.requests.length;
    const cases: [unknown, RegExp][] = [
      [{ minScore: 200 }, /^policy: minScore: /],
      [{ minScroe: 50 }, /^policy: minScroe: unknown key/],
      [{ ignore: [{ package: 'x' }] }, /^policy: ignore\[0\]\.reason: /],
      [{ licenses: { allow: ['NOT-A-LICENCE-ID'] } }, /^policy: licenses\.allow/],
      [{ ignore: Array.from({ length: 2_000 }, (_, i) => ({ package: `pkg-${i}`, reason: 'x'.repeat(40) })) }, /policy is too large/],
    ];
    for (const [policy, message] of cases) {
      const res = await app.inject({ method: 'POST', url: '/v1/audit', payload: { fileName: 'package-lock.json', content: '{}', policy } });
      expect(res.statusCode, JSON.stringify(policy).slice(0, 60)).toBe(400);
      const error = ErrorSchema.parse(res.json()).error;
      expect(error.code).toBe('bad-input');
      expect(error.message).toMatch(message);
    }
    for (const policy of [[1, 2], 'strict', null]) {
      const res = await app.inject({ method: 'POST', url: '/v1/audit', payload: { fileName: 'package-lock.json', content: '{}', policy } });
      expect(res.statusCode).toBe(400);
      expect(ErrorSchema.parse(res.json()).error.code).toBe('bad-request');
    }
    expect(server.requests.length).toBe(before);
  });

  it('audits run one at a time, their packages at most --concurrency at once: a second audit while one runs is a 429 queue-full with Retry-After, nothing read for it', async () => {
    const { app, evaluator } = open({ evaluator: { concurrency: 2 } });
    const start = server.requests.length;
    // Five packages whose packuments answer slowly: count how many are asked at once.
    let asked = 0;
    let most = 0;
    const names = Array.from({ length: 5 }, (_, i) => `nerq-audit-held-${i}`);
    for (const name of names) {
      server.route('GET', `/npm/${name}`, async (_req, res) => {
        asked += 1;
        most = Math.max(most, asked);
        await new Promise((resolve) => setTimeout(resolve, 300));
        asked -= 1;
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      });
    }
    const { lock } = packageLockV3(names.map((name) => ({ name, version: '1.0.0', direct: true })), server.url('npm'));
    const first = app.inject({ method: 'POST', url: '/v1/audit', payload: { fileName: 'package-lock.json', content: lock } });
    // Once the first audit is asking the registry, a second one is refused before it reads anything.
    while (asked === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await app.inject({ method: 'POST', url: '/v1/audit', payload: { fileName: 'package-lock.json', content: lock } });
    expect(second.statusCode).toBe(429);
    expect(ErrorSchema.parse(second.json()).error.code).toBe('queue-full');
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Bad input is told as such, audit or not.
    const bad = await app.inject({ method: 'POST', url: '/v1/audit', payload: { fileName: '../package-lock.json', content: lock } });
    expect(ErrorSchema.parse(bad.json()).error.code).toBe('bad-input');
    const done = await first;
    expect(done.statusCode).toBe(200);
    expect(AuditReportSchema.parse(done.json()).summary.total).toBe(5);
    expect(most).toBe(2);
    // Each package asked once: by the first audit only.
    expect(server.requests.slice(start).filter((r) => r.path.startsWith('/npm/nerq-audit-held-'))).toHaveLength(5);
    expect(evaluator.stats().refused).toBe(1);
    // The first audit done, the next one is taken.
    const third = await app.inject({ method: 'POST', url: '/v1/audit', payload: { fileName: 'package-lock.json', content: '{}' } });
    expect(third.statusCode).toBe(200);
  });

  it('bad input is a 400 (bad file name, unreadable content, too large) with no upstream request', async () => {
    const { app } = open();
    const before = server.requests.length;
    for (const payload of [
      { fileName: '../package-lock.json', content: '{}' },
      { fileName: 'package-lock.json', content: '{ not json' },
      { fileName: 'notes.docx', content: 'x' },
      { fileName: 'package-lock.json' },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/v1/audit', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(ErrorSchema.parse(res.json()).error.code).toMatch(/^bad-(input|request)$/);
    }
    const huge = await app.inject({ method: 'POST', url: '/v1/audit', payload: { fileName: 'requirements.txt', content: 'a\n'.repeat(3_000_000) } });
    expect(huge.statusCode).toBe(400);
    expect(ErrorSchema.parse(huge.json()).error.code).toBe('bad-input');
    expect(server.requests.length).toBe(before);
  });
});

describe('health, OpenAPI, tokens, unknown routes', () => {
  it('a Host that is not a loopback name (DNS rebinding) is a 403 forbidden-host on every route, before the token; on a network address (hosts: any) any Host is answered', async () => {
    const token = 'serve-host-token-7d2e';
    const { app } = open({ server: { tokens: [token] } });
    const before = server.requests.length;
    const routes: Array<['GET' | 'POST' | 'HEAD' | 'OPTIONS', string]> = [
      ['GET', '/healthz'], ['GET', '/openapi.json'], ['GET', '/v1/preflight?target=chalk'], ['POST', '/v1/preflight/batch'], ['GET', '/v1/report?target=chalk'],
      ['POST', '/v1/audit'], ['GET', '/v1/history?target=chalk'], ['HEAD', '/healthz'], ['OPTIONS', '/v1/preflight'], ['GET', '/nothing'],
    ];
    for (const host of ['evil.example', 'evil.example:8787', '127.0.0.1.evil.example', 'localhost.evil.example:8787']) {
      for (const [method, url] of routes) {
        const res = await app.inject({ method, url, headers: { host, authorization: `Bearer ${token}` } });
        expect(res.statusCode, `${host} ${method} ${url}`).toBe(403);
        if (method !== 'HEAD') expect(ErrorSchema.parse(res.json()).error.code).toBe('forbidden-host');
      }
    }
    for (const host of ['localhost:8787', '127.0.0.1', '127.0.0.2:80', '[::1]:8787', 'LOCALHOST']) {
      const res = await app.inject({ method: 'GET', url: '/healthz', headers: { host } });
      expect(res.statusCode, host).toBe(200);
    }
    // A page of another site (its Origin) is refused too; a loopback page or a --cors-origin is not.
    const withCors = open({ server: { corsOrigins: ['https://app.example'] } });
    for (const [origin, status] of [['https://evil.example', 403], ['null', 403], ['http://localhost:5173', 200], ['https://app.example', 200]] as const) {
      const res = await withCors.app.inject({ method: 'GET', url: '/v1/history?target=chalk', headers: { origin } });
      expect(res.statusCode, origin).toBe(status);
      if (status === 403) expect(ErrorSchema.parse(res.json()).error.code).toBe('forbidden-origin');
    }
    expect(server.requests.length).toBe(before);
    const network = open({ server: { hosts: { kind: 'any' } } });
    expect((await network.app.inject({ method: 'GET', url: '/healthz', headers: { host: 'nerq.internal.example:8787' } })).statusCode).toBe(200);
    expect([isLoopbackAddress('127.0.0.1'), isLoopbackAddress('::1'), isLoopbackAddress('localhost'), isLoopbackAddress('0.0.0.0'), isLoopbackAddress('::'), isLoopbackAddress('10.0.0.5')]).toEqual([true, true, true, false, false, false]);
  });

  it('--allowed-host: a network-bound server answers only the listed names (and loopback ones); any other Host is a 403 forbidden-host before the token, nothing fetched', async () => {
    const token = 'serve-allowed-host-token-41c9';
    const hosts = hostPolicyOf(isLoopbackAddress('0.0.0.0'), ['nerq.internal.example', '10.0.0.5', '[FD00::1]']);
    const { app } = open({ server: { tokens: [token], hosts } });
    const before = server.requests.length;
    for (const host of ['evil.example', 'evil.example:8787', 'nerq.internal.example.evil.example', 'internal.example', '10.0.0.6:8787', '[fd00::2]:8787']) {
      for (const [method, url] of [['GET', '/healthz'], ['GET', '/v1/report?target=chalk'], ['POST', '/v1/preflight/batch']] as const) {
        const res = await app.inject({ method, url, headers: { host, authorization: `Bearer ${token}` } });
        expect(res.statusCode, `${host} ${method} ${url}`).toBe(403);
        expect(ErrorSchema.parse(res.json()).error.code).toBe('forbidden-host');
      }
    }
    expect(server.requests.length).toBe(before);
    for (const host of ['nerq.internal.example', 'NERQ.internal.example:8787', '10.0.0.5:80', '[fd00::1]:8787', 'localhost:8787', '127.0.0.1']) {
      expect((await app.inject({ method: 'GET', url: '/healthz', headers: { host } })).statusCode, host).toBe(200);
    }
    // Bound to loopback the list adds names (a proxy on the machine forwarding its own); without one, a network bind answers any name.
    expect(hostPolicyOf(true, ['proxy.example'])).toEqual({ kind: 'listed', names: new Set(['proxy.example']) });
    expect(hostPolicyOf(true, [])).toEqual({ kind: 'loopback' });
    expect(hostPolicyOf(false, [])).toEqual({ kind: 'any' });
    // A name with a port, a scheme, a path or a wildcard is a configuration error, not a silent mismatch.
    for (const bad of ['nerq.example:8787', 'http://nerq.example', 'nerq.example/x', '*.example', '', 'a b', 'user@nerq.example']) {
      expect(() => allowedHostOf(bad), bad).toThrow(ServerConfigError);
    }
  });

  it('/healthz lists each service found down on its own, a whole host as each service nerq asks there', async () => {
    const { app, runtime } = open();
    // Every endpoint of the test runtime is on the fixture server's origin: one host, many services.
    runtime.health.failed(new URL(`${server.url('osv')}/v1/querybatch`), 'refused', 'network', 'connection refused');
    const health = HealthSchema.parse((await app.inject({ method: 'GET', url: '/healthz' })).json());
    const names: readonly string[] = Object.values(SERVICE_SHORT_NAMES);
    expect(health.down.length).toBeGreaterThan(3);
    expect(health.down.filter((d) => !names.includes(d))).toEqual([]);
    expect(new Set(health.down).size).toBe(health.down.length);
    expect(health.down).toContain(SERVICE_SHORT_NAMES.osv);
    expect(health.down).toContain(SERVICE_SHORT_NAMES['npm-registry']);
  });

  it('/healthz and /openapi.json follow their schemas; the OpenAPI document is generated from the zod schemas', async () => {
    const { app } = open();
    const health = HealthSchema.parse((await app.inject({ method: 'GET', url: '/healthz' })).json());
    expect(health.status).toBe('ok');
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/healthz', '/v1/audit', '/v1/history', '/v1/preflight', '/v1/preflight/batch', '/v1/report']);
    expect(Object.keys(doc.components.schemas.Preflight?.properties ?? {})).toEqual([...PUBLISHED_FIELDS, 'history', 'alternatives_unavailable', 'error', 'included_package']);
    expect(doc.components.schemas.Preflight).toEqual(z.toJSONSchema(PreflightSchema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }));
    const missing = await app.inject({ method: 'GET', url: '/v1/nothing' });
    expect(missing.statusCode).toBe(404);
    expect(ErrorSchema.parse(missing.json()).error.code).toBe('not-found');
  });

  it('a per-client rate limit answers 429 with Retry-After, before the token check; /healthz is not limited', async () => {
    const { app } = open({ server: { rateLimit: { max: 3, windowMs: 60_000 }, tokens: ['t0ken-for-rate-limit'] } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await app.inject({ method: 'GET', url: '/v1/history?target=chalk', headers: { authorization: 'Bearer t0ken-for-rate-limit' } })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await app.inject({ method: 'GET', url: '/v1/history?target=chalk', headers: { authorization: 'Bearer wrong' } });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(ErrorSchema.parse(limited.json()).error.code).toBe('rate-limited');
    // Another client address has its own budget.
    const other = await app.inject({ method: 'GET', url: '/v1/history?target=chalk', remoteAddress: '127.0.0.2', headers: { authorization: 'Bearer t0ken-for-rate-limit' } });
    expect(other.statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // A probe's query (a load balancer's cache-buster) is still /healthz: neither limited nor asked for a token.
    for (const url of ['/healthz?probe=1', '/healthz?', '/healthz?x=1&y=2']) {
      for (let i = 0; i < 4; i++) expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
  });

  it('with tokens, a request needs a valid bearer token; the token is never logged', async () => {
    const token = 'tok-7f3a9c1e5b2d4f6a8c0e';
    const { app, logs } = open({ server: { tokens: [token, 'another-token'] } });
    const before = server.requests.length;
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${token}`, `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`]) {
      const res = await app.inject({ method: 'GET', url: '/v1/preflight?target=chalk', headers: authorization === undefined ? {} : { authorization } });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(ErrorSchema.parse(res.json()).error.code).toBe('unauthorized');
    }
    expect(server.requests.length).toBe(before);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ok = await app.inject({ method: 'GET', url: '/v1/preflight?target=chalk', headers: { authorization: `Bearer ${token}` } });
    expect(ok.statusCode).toBe(200);
    const other = await app.inject({ method: 'GET', url: '/v1/history?target=chalk', headers: { authorization: 'bearer another-token' } });
    expect(other.statusCode).toBe(200);
    // A token sent where it does not belong (a query parameter, as some clients do) is refused and not logged either: the log has the path only.
    const inQuery = await app.inject({ method: 'GET', url: `/v1/preflight?target=chalk&access_token=${token}`, headers: { authorization: `Bearer ${token}` } });
    expect(ErrorSchema.parse(inQuery.json()).error.code).toBe('bad-request');
    expect((await app.inject({ method: 'GET', url: `/v1/history?target=chalk&token=${token}` })).statusCode).toBe(401);
    expect(logs()).toContain('"url":"/v1/preflight"');
    expect(logs()).toContain('"statusCode":401');
    expect(logs()).not.toContain(token);
    expect(logs()).not.toContain('another-token');
  });
});
