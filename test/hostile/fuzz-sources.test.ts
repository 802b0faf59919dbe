/**
 * Hostile world, part 5 (continued): property-based fuzzing of the PyPI, pypistats and GitHub
 * response parsers, 10,000 generated cases each. Each source is driven through its
 * entry point with a fake HTTP client that answers every request with a generated body — a
 * recorded answer (trimmed) with structure-aware edits (a value of another type, a key gone,
 * a list where an object was, a hostile key), a body of any shape, or a transport failure.
 *
 * The contract: facts that pass their zod schema, or `unavailable` with a one-line reason that
 * names a cause the source knows (a catch-all reason — an exception the source caught without
 * expecting it — is a bug hidden, and fails the property; the one known today is tolerated for
 * exactly the answers that trigger it, and pinned as `it.fails` at the end), never a throw
 * (GitHub's own typed error, GithubStop, never escapes the source).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GithubFactsSchema } from '../../src/evidence/github-facts.js';
import { PypiFactsSchema } from '../../src/evidence/pypi-facts.js';
import { AttestationFactsSchema, DependencyFactsSchema, DownloadFactsSchema } from '../../src/evidence/schema.js';
import type { Endpoints } from '../../src/sources/endpoints.js';
import { fetchGithubFactsBatch, githubItemKey, GithubRateLimiter, type GithubBatchItem, type GithubClaim } from '../../src/sources/github/source.js';
import { collectPypi } from '../../src/sources/pypi/project.js';
import { resolvePypiDependencies } from '../../src/sources/pypi/dependencies.js';
import { fetchProvenance } from '../../src/sources/pypi/provenance.js';
import { fetchSimple } from '../../src/sources/pypi/simple.js';
import { fetchPypiDownloads } from '../../src/sources/pypi/pypistats.js';
import type { HttpRequest, HttpResult } from '../../src/sources/http/types.js';
import { releaseJsonFrom, syntheticDependency } from '../cli/pypi-helpers.js';
import { GH_SHA, NOW } from '../github/helpers.js';
import { FIXTURES_ROOT } from '../support/fixture-server.js';
import { anyJson, body, check, expectNoPollution, failure, fakeHttp, FUZZ_TEST_TIMEOUT_MS, hostileKey, mutated, ok, ONE_LINE, outcomes, trimmed } from './support/fuzz-kit.js';
import { noteKnownFailure } from './support/metrics.js';

const ORIGIN = 'http://127.0.0.1:9';
const PYPI = `${ORIGIN}/pypi`;
const PYPISTATS = `${ORIGIN}/pypistats`;

/** A recorded answer, parsed, placeholders filled. */
function recorded(file: string): unknown {
  const text = readFileSync(path.join(FIXTURES_ROOT, file), 'utf8').replaceAll('{{ORIGIN}}', ORIGIN).replaceAll('{{REGISTRY}}', `${ORIGIN}/npm`);
  return JSON.parse(text) as unknown;
}

/** The causes the fake client's failures give (support/fuzz-kit.ts `failure`), and the parse failures. */
const CAUSE = String.raw`HTTP \d{3} from h|connection reset by h|run deadline reached while waiting for h|response from h exceeded the 1 MiB limit|too many redirects from h|malformed JSON|unexpected JSON shape at .+|its answer names another project`;

/** A body for an answer: the document as JSON, else the text as is. */
const text = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null'));

type Answer = { kind: 'body'; value: unknown; contentType?: string } | { kind: 'fail'; result: HttpResult };

/** An answer built around a valid document: mostly the document (edited or not), else any body or a failure. */
const answerFor = (doc: unknown, options: { max?: number } = {}): fc.Arbitrary<Answer> =>
  fc.oneof(
    { arbitrary: mutated(doc, options).map((value): Answer => ({ kind: 'body', value })), weight: 6 },
    { arbitrary: body.map((value): Answer => ({ kind: 'body', value })), weight: 1 },
    { arbitrary: failure.map((result): Answer => ({ kind: 'fail', result })), weight: 1 },
  );

function reply(answer: Answer, req: HttpRequest): HttpResult {
  if (answer.kind === 'fail') return answer.result;
  return ok(text(answer.value), req.url, { 'content-type': answer.contentType ?? 'application/json' });
}

// ── PyPI ────────────────────────────────────────────────────────────────────────────────

const KEPT_RELEASES = ['0.1', '2.3.0', '2.3.1', '3.1.2', '3.1.3'];

/** flask's project JSON: five releases of two files, the description cut short. */
const PROJECT = (() => {
  const doc = recorded('pypi/pypi/flask/json.json') as { info: Record<string, unknown>; releases: Record<string, unknown[]> } & Record<string, unknown>;
  const releases = Object.fromEntries(KEPT_RELEASES.filter((v) => doc.releases[v] !== undefined).map((v) => [v, (doc.releases[v] ?? []).slice(0, 2)]));
  return { ...doc, info: { ...doc.info, description: String(doc.info.description).slice(0, 300) }, releases, urls: (doc.urls as unknown[]).slice(0, 2) };
})();
const VERSION_JSON = trimmed(releaseJsonFrom('flask', '3.1.2'), 2);
/** The Simple API's JSON form: the files of the kept releases, provenance URLs as recorded. */
const SIMPLE = (() => {
  const doc = recorded('pypi/simple/flask.json') as { files: { filename: string }[] } & Record<string, unknown>;
  const files = doc.files.filter((f) => /-(0\.1|2\.3\.[01]|3\.1\.[23])[.-]/.test(f.filename));
  return { ...doc, files, versions: KEPT_RELEASES };
})();
const PROVENANCE = recorded('pypi/integrity/flask/3.1.3/flask-3.1.3.tar.gz/provenance.json');
const RECENT = recorded('pypistats/packages/flask/recent.json');

/** PEP 440 versions and things that only look like them. */
const pep440ish = fc.oneof(
  fc.constantFrom('1.0', '1.0.0', '1.0rc1', '1.0.post1', '1.0.dev0', '1!2.0', '1.0+local', '2.0a1', 'v1.0', '1.0-1', '01.00', '1..0', '', ' ', '__proto__', 'latest', '9'.repeat(40), `1.${'0.'.repeat(80)}0`),
  fc.tuple(fc.nat(20), fc.nat(20)).map(([a, b]) => `${a}.${b}`),
  fc.string({ maxLength: 12 }),
);
const pep440Spec = fc.option(
  fc.oneof(
    fc.constantFrom('==3.1.3', '3.1.2', '>=2,<3', '~=3.0', '===0.1', '!=3.1.3', '==3.*', '==2.3.1', '>=99', '<0.1', 'garbage', '>=', '==', '1'.repeat(300), '>=1.0; python_version<"3"', '(>=1)'),
    fc.string({ maxLength: 16 }),
  ),
  { nil: undefined },
);
/** A file entry of the JSON API: mostly right, sometimes with a field of any type. */
const jsonFile = fc.record(
  {
    filename: fc.oneof(fc.constantFrom('flask-3.1.3.tar.gz', 'flask-3.1.3-py3-none-any.whl', 'x.zip'), anyJson),
    packagetype: fc.oneof(fc.constantFrom('sdist', 'bdist_wheel', 'bdist_egg'), anyJson),
    size: fc.oneof(fc.nat(), anyJson),
    upload_time_iso_8601: fc.oneof(fc.constantFrom('2025-01-01T00:00:00.000000Z', '2020-02-30T25:61:00Z', 'yesterday', null), anyJson),
    upload_time: fc.oneof(fc.constantFrom('2025-01-01T00:00:00', null), anyJson),
    yanked: fc.oneof(fc.boolean(), anyJson),
    yanked_reason: fc.oneof(fc.constantFrom(null, 'broken', '\u001b[31mred'), anyJson),
  },
  { requiredKeys: ['filename', 'packagetype', 'size'] },
);
/** A project whose releases are keyed by hostile versions. */
const hostileReleases = fc
  .tuple(fc.dictionary(fc.oneof(pep440ish, hostileKey), fc.array(jsonFile, { maxLength: 2 }), { maxKeys: 6 }), fc.oneof(pep440ish, fc.constant('3.1.3')))
  .map(([releases, version]) => ({ ...PROJECT, info: { ...PROJECT.info, version }, releases }));

const PYPI_ERROR_CODES = ['not-found', 'version-not-found', 'registry-unavailable'];

describe('fuzzing: PyPI, pypistats and GitHub answers, 10,000 cases each', () => {
  it('PyPI JSON API: project and release answers (with the Simple and Integrity APIs) → facts or a one-line error', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const project: fc.Arbitrary<Answer> = fc.oneof(
      { arbitrary: answerFor(PROJECT), weight: 4 },
      { arbitrary: hostileReleases.map((value): Answer => ({ kind: 'body', value })), weight: 2 },
    );
    const simple = fc.oneof(
      { arbitrary: answerFor(SIMPLE), weight: 4 },
      { arbitrary: fc.constant<Answer>({ kind: 'body', value: '<!DOCTYPE html><html><body><a href="x">x</a></body></html>', contentType: 'text/html' }), weight: 1 },
    );
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(project, answerFor(VERSION_JSON), simple, answerFor(PROVENANCE), pep440Spec, async (projectAnswer, versionAnswer, simpleAnswer, provenanceAnswer, spec) => {
        const http = fakeHttp((req) => {
          const route = new URL(req.url).pathname;
          if (route === '/pypi/pypi/flask/json') return reply(projectAnswer, req);
          if (route.startsWith('/pypi/pypi/flask/')) return reply(versionAnswer, req);
          if (route.startsWith('/pypi/simple/')) return reply(simpleAnswer, req);
          if (route.startsWith('/pypi/integrity/')) return reply(provenanceAnswer, req);
          throw new Error(`unexpected request ${route}`);
        });
        const result = await collectPypi(http, PYPI, 'flask', spec);
        if (result.kind === 'ok') {
          seen.note('ok');
          const facts = PypiFactsSchema.safeParse(result.facts);
          expect(facts.success, JSON.stringify(facts.error?.issues[0])).toBe(true);
          if (result.attestations.status === 'ok') expect(AttestationFactsSchema.safeParse(result.attestations.facts).success).toBe(true);
          else expect(result.attestations.reason).toMatch(ONE_LINE);
        } else {
          seen.note('error');
          expect(PYPI_ERROR_CODES).toContain(result.code);
          expect(result.message).toMatch(ONE_LINE);
          if (result.code === 'registry-unavailable') {
            // Only the failures the source knows: a caught exception would name itself here.
            expect(result.message).toMatch(new RegExp(`^PyPI could not answer for flask: (?:(?:project|release) JSON: (?:${CAUSE})|the answers did not make valid facts)$`));
          }
        }
        expectNoPollution();
      }),
    );
    seen.expectBoth('ok', 'error');
  });

  it('PyPI Simple API (PEP 691 JSON): status and per-file provenance, or a one-line reason', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const status = fc.oneof(
      fc.record({ status: fc.oneof(fc.constantFrom('active', 'archived', 'quarantined', 'deprecated', 'ARCHIVED ', '', 'x'.repeat(300)), anyJson), reason: anyJson }, { requiredKeys: [] }),
      fc.record({ state: fc.constantFrom('archived', 'quarantined'), reason: fc.constantFrom(null, 'moved', '\u001b[2J') }),
      anyJson,
    );
    const page = fc
      .tuple(mutated(SIMPLE), fc.option(status, { nil: undefined }), fc.constantFrom('1.0', '1.1', '1.3', '1.4', '2.0', 'x', ''))
      .map(([doc, projectStatus, apiVersion]) => {
        if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return doc;
        const meta = (doc as { meta?: unknown }).meta;
        return { ...doc, meta: typeof meta === 'object' && meta !== null ? { ...meta, 'api-version': apiVersion } : meta, ...(projectStatus === undefined ? {} : { 'project-status': projectStatus }) };
      });
    const answer = fc.oneof(
      { arbitrary: page.map((value): Answer => ({ kind: 'body', value })), weight: 5 },
      { arbitrary: fc.constantFrom('text/html', 'text/html; charset=utf-8', 'application/vnd.pypi.simple.v1+html').map((contentType): Answer => ({ kind: 'body', value: '<html></html>', contentType })), weight: 1 },
      { arbitrary: answerFor(SIMPLE), weight: 2 },
    );
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(answer, async (given) => {
        const result = await fetchSimple(fakeHttp((req) => reply(given, req)), PYPI, 'flask');
        seen.note(result.ok ? 'ok' : 'unavailable');
        if (!result.ok) {
          expect(result.reason).toMatch(ONE_LINE);
          expect(result.reason).toMatch(new RegExp(`^Simple API: (?:${CAUSE}|the index answered HTML, not the JSON form)$`));
          return;
        }
        const { status: got, provenance } = result.facts;
        if (got !== null) {
          expect(got.status).toBe(got.status.trim().toLowerCase());
          expect(got.status).not.toBe('');
          expect(got.reason === null || typeof got.reason === 'string').toBe(true);
        }
        for (const [file, has] of provenance) {
          expect(typeof file).toBe('string');
          expect([true, false, null]).toContain(has);
        }
      }),
    );
    seen.expectBoth('ok', 'unavailable');
  });

  it('PyPI Integrity API (PEP 740 provenance): attestation facts or a one-line reason', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const statement = fc.record(
      {
        _type: fc.oneof(fc.constant('https://in-toto.io/Statement/v1'), anyJson),
        subject: fc.oneof(fc.constant([{ name: 'flask-3.1.3.tar.gz' }]), fc.constant([{ name: 'other.tar.gz' }]), fc.constant([]), anyJson),
        predicateType: fc.oneof(fc.constantFrom('https://docs.pypi.org/attestations/publish/v1', 'https://slsa.dev/provenance/v1'), anyJson),
        predicate: anyJson,
      },
      { requiredKeys: [] },
    );
    const envelope = fc.oneof(
      statement.map((s) => Buffer.from(JSON.stringify(s)).toString('base64')),
      statement.map((s) => Buffer.from(JSON.stringify(s)).toString('base64url')),
      fc.constantFrom('', '====', 'not base64!', Buffer.from('[1,2]').toString('base64'), Buffer.from('{"a":').toString('base64')),
      fc.string({ maxLength: 40 }),
    );
    const publisher = fc.oneof(
      fc.record({ kind: fc.constantFrom('GitHub', 'GitLab', 'Google', 'github'), repository: fc.oneof(fc.constantFrom('pallets/flask', 'a/b/c', '../x', 'evil.test/x', '', 'x'.repeat(3000)), anyJson), workflow: anyJson, workflow_filepath: anyJson }, { requiredKeys: ['kind'] }),
      anyJson,
    );
    const object = fc
      .tuple(fc.array(fc.tuple(publisher, fc.array(envelope, { maxLength: 2 })), { maxLength: 2 }), fc.oneof(fc.constant(1), anyJson))
      .map(([bundles, version]) => ({ version, attestation_bundles: bundles.map(([p, statements]) => ({ publisher: p, attestations: statements.map((s) => ({ version: 1, envelope: { statement: s, signature: 'MEUCIQ' } })) })) }));
    const answer = fc.oneof(
      { arbitrary: object.map((value): Answer => ({ kind: 'body', value })), weight: 4 },
      { arbitrary: answerFor(PROVENANCE), weight: 3 },
      { arbitrary: fc.constant<Answer>({ kind: 'fail', result: { ok: false, kind: 'status', status: 404, reason: 'HTTP 404 from h' } }), weight: 1 },
    );
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(answer, async (given) => {
        const result = await fetchProvenance(fakeHttp((req) => reply(given, req)), PYPI, { project: 'flask', version: '3.1.3', filename: 'flask-3.1.3.tar.gz' });
        seen.note(result.status === 'ok' ? (result.facts.provenance ? 'provenance' : 'none') : result.status);
        if (result.status === 'ok') {
          expect(AttestationFactsSchema.safeParse(result.facts).success).toBe(true);
          expect(result.facts.verified).toBe(false);
          if (result.facts.sourceRepository !== null) expect(result.facts.sourceRepository).toMatch(/^https:\/\/(github|gitlab)\.com\/[\w.-]+(\/[\w.-]+)+$/);
        } else {
          expect(result.reason).toMatch(ONE_LINE);
          expect(result.reason).toMatch(
            new RegExp(`^provenance listed by the Simple API but not served \\(HTTP 404\\)$|^provenance: (?:an attestation statement is not base64-encoded JSON|the attestation statement is about another file|${CAUSE})$`),
          );
        }
        expectNoPollution();
      }),
    );
    seen.expectBoth('provenance', 'unavailable');
  });

  it('pypistats: recent (and overall-shaped) answers → download counts or a one-line reason', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const count = fc.oneof(fc.nat(), fc.constantFrom(-1, 1.5, 1e21, null, '100', Number.MAX_SAFE_INTEGER + 2));
    const recent = fc.record({ last_day: count, last_week: count, last_month: count }, { requiredKeys: [] }).map((data) => ({ data, package: 'flask', type: 'recent_downloads' }));
    const overall = fc
      .array(fc.record({ category: fc.constantFrom('with_mirrors', 'without_mirrors'), date: fc.constantFrom('2026-11-01', 'x'), downloads: count }), { maxLength: 3 })
      .map((data) => ({ data, package: 'flask', type: 'overall_downloads' }));
    const answer = fc.oneof(
      { arbitrary: answerFor(RECENT), weight: 3 },
      { arbitrary: recent.map((value): Answer => ({ kind: 'body', value })), weight: 3 },
      { arbitrary: overall.map((value): Answer => ({ kind: 'body', value })), weight: 1 },
    );
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(answer, fc.constantFrom('flask', 'Flask', 'zope.interface', 'a_b-c'), async (given, name) => {
        const result = await fetchPypiDownloads(fakeHttp((req) => reply(given, req)), PYPISTATS, name);
        seen.note(result.status);
        if (result.status === 'ok') {
          expect(DownloadFactsSchema.safeParse(result.facts).success).toBe(true);
          // pypistats gives no yearly figure: unknown, never a made-up one.
          expect(result.facts.lastYear).toBeNull();
          for (const n of [result.facts.lastWeek, result.facts.lastMonth]) if (n !== null) expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
        } else {
          expect(result.reason).toMatch(ONE_LINE);
          expect(result.reason).toMatch(new RegExp(`^pypistats does not know this project$|^pypistats: (?:no download counts in the answer|${CAUSE})$`));
        }
      }),
    );
    seen.expectBoth('ok', 'unavailable');
  });

  it("PyPI dependencies: each requirement resolved against its project's answer, or listed with the reason", { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const names = fc.oneof(fc.constantFrom('click', 'Jinja2', 'jinja2', 'zope.interface', 'a__b', '__proto__', 'constructor', 'x'.repeat(300), ''), fc.string({ maxLength: 10 }));
    const requirement = fc.record({
      name: names,
      specifier: fc.oneof(fc.constantFrom('', '>=8.1', '==8.1.8', '<0', '~=2.0', '@ https://example.test/x.whl', '===weird', '>=1,<2,!=1.5'), fc.string({ maxLength: 10 })),
      marker: fc.option(fc.constantFrom('python_version < "3.10"', 'extra == "dev"', '"'), { nil: null }),
    });
    const project = (name: string) => syntheticDependency(name, ['8.1.7', '8.1.8', '9.0.0rc1']);
    const answer = fc.oneof(
      { arbitrary: answerFor(project('click')), weight: 4 },
      { arbitrary: hostileReleases.map((value): Answer => ({ kind: 'body', value })), weight: 1 },
    );
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(fc.array(requirement, { maxLength: 5 }), fc.array(answer, { minLength: 1, maxLength: 5 }), async (deps, answers) => {
        let served = 0;
        const http = fakeHttp((req) => reply(answers[served++ % answers.length] as Answer, req));
        const result = await resolvePypiDependencies(http, PYPI, deps, { concurrency: 2 });
        if (result.status === 'ok') {
          seen.note(result.facts.dependencies.some((d) => d.version !== null) ? 'resolved' : 'none resolved');
          expect(DependencyFactsSchema.safeParse(result.facts).success).toBe(true);
          expect(result.facts.dependencies).toHaveLength(deps.length);
          for (const d of result.facts.dependencies) {
            // A version or the reason there is none, never both missing.
            expect(d.version !== null || (d.reason !== null && ONE_LINE.test(d.reason))).toBe(true);
          }
        } else if (result.status === 'unavailable') {
          seen.note('unavailable');
          expect(result.reason).toMatch(ONE_LINE);
          expect(result.reason).toMatch(/^\d+ of \d+ dependency projects could not be fetched \(/);
        } else {
          throw new Error(`unexpected status ${result.status}`);
        }
        expectNoPollution();
      }),
    );
    seen.expectBoth('resolved', 'unavailable');
  });
});

// ── GitHub ──────────────────────────────────────────────────────────────────────────────

const ENDPOINTS: Endpoints = {
  npmApi: `${ORIGIN}/npm-api`,
  pypi: PYPI,
  pypiStats: PYPISTATS,
  githubApi: `${ORIGIN}/github`,
  githubGraphql: `${ORIGIN}/github/graphql`,
  osvApi: `${ORIGIN}/osv`,
  mcpRegistry: `${ORIGIN}/mcp-registry`,
  npmPublicRegistry: `${ORIGIN}/npm/`,
};
const FUZZ_TOKEN = 'ghp_fuzzTokenNeverInFacts0123456789abcdef';

/** acme/widget's REST answers, trimmed (lists of 3). */
const REST = {
  repo: recorded('github/repos/acme/widget.json'),
  commits: trimmed(recorded('github/repos/acme/widget/commits.json')),
  releases: trimmed(recorded('github/repos/acme/widget/releases.json')),
  issues: trimmed(recorded('github/repos/acme/widget/issues.json')),
  community: recorded('github/repos/acme/widget/community/profile.json'),
  contents: recorded('github/repos/acme/widget/contents.json'),
  tree: trimmed(recorded(`github/repos/acme/widget/git/trees/${GH_SHA}.json`), 6),
  manifest: readFileSync(path.join(FIXTURES_ROOT, 'github/repos/acme/widget/contents/package.json'), 'utf8'),
};
type RestRoute = keyof typeof REST;

/** The REST route a URL is for. */
function restRoute(url: string): RestRoute {
  const route = new URL(url).pathname.replace(/^\/github\/repos\/[^/]+\/[^/]+/, '');
  if (route === '') return 'repo';
  if (route === '/commits') return 'commits';
  if (route === '/releases') return 'releases';
  if (route === '/issues') return 'issues';
  if (route === '/community/profile') return 'community';
  if (route === '/contents') return 'contents';
  if (route.startsWith('/git/trees/')) return 'tree';
  return 'manifest';
}

/** GitHub's own refusals: rate limits (primary, secondary, 429), a block, a missing or empty repository. */
const githubRefusal = fc.constantFrom<HttpResult>(
  { ok: false, kind: 'status', status: 403, reason: 'HTTP 403 from h', headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(NOW.getTime() / 1000) + 600) }, body: '{"message":"API rate limit exceeded"}' },
  { ok: false, kind: 'status', status: 403, reason: 'HTTP 403 from h', headers: { 'retry-after': '60' }, body: '{"message":"You have exceeded a secondary rate limit"}' },
  { ok: false, kind: 'status', status: 403, reason: 'HTTP 403 from h', headers: {}, body: '{"message":"Resource not accessible"}' },
  { ok: false, kind: 'status', status: 429, reason: 'HTTP 429 from h', headers: {}, body: '' },
  { ok: false, kind: 'status', status: 451, reason: 'HTTP 451 from h', headers: {}, body: '{"message":"Repository access blocked","block":{"reason":"dmca\\u001b[31m"}}' },
  { ok: false, kind: 'status', status: 404, reason: 'HTTP 404 from h', headers: {}, body: '{"message":"Not Found"}' },
  { ok: false, kind: 'status', status: 409, reason: 'HTTP 409 from h', headers: {}, body: '{"message":"Git Repository is empty."}' },
  { ok: false, kind: 'status', status: 401, reason: 'HTTP 401 from h', headers: {}, body: '{"message":"Bad credentials"}' },
);

interface GithubAnswer {
  answer: Answer | { kind: 'refusal'; result: HttpResult } | { kind: 'empty'; status: 202 | 204 };
  /** Headers of a body answer: a pagination `Link`, rate-limit counters. */
  headers: Record<string, string>;
}

const linkHeader = fc.oneof(
  fc.constantFrom(
    '<http://127.0.0.1:9/github/repos/acme/widget/commits?page=2>; rel="next", <http://127.0.0.1:9/github/repos/acme/widget/commits?page=5>; rel="last"',
    '<http://127.0.0.1:9/x?page=99999999999999999999>; rel="last"',
    '<not a url>; rel="last"',
    '<http://127.0.0.1:9/x?page=-1>; rel=last',
    '',
  ),
  fc.string({ maxLength: 30 }),
);
const githubHeaders = fc.record(
  {
    link: linkHeader,
    'x-ratelimit-remaining': fc.constantFrom('0', '1', '4999', 'x', ''),
    'x-ratelimit-reset': fc.constantFrom('0', '1796036400', String(Math.floor(NOW.getTime() / 1000) + 60), 'soon'),
  },
  { requiredKeys: [] },
);

const githubAnswerFor = (doc: unknown): fc.Arbitrary<GithubAnswer> =>
  fc.record({
    answer: fc.oneof(
      { arbitrary: answerFor(doc), weight: 8 },
      { arbitrary: githubRefusal.map((result) => ({ kind: 'refusal' as const, result })), weight: 1 },
      { arbitrary: fc.constantFrom(202, 204).map((status) => ({ kind: 'empty' as const, status: status as 202 | 204 })), weight: 1 },
    ),
    headers: fc.oneof({ arbitrary: fc.constant({}), weight: 3 }, { arbitrary: githubHeaders, weight: 1 }),
  });

function githubReply({ answer, headers }: GithubAnswer, req: HttpRequest): HttpResult {
  if (answer.kind === 'refusal') return answer.result;
  if (answer.kind === 'empty') return ok('', req.url, headers, answer.status);
  if (answer.kind === 'fail') return answer.result;
  return ok(text(answer.value), req.url, { 'content-type': 'application/json', ...headers });
}

const restAnswers = fc.record(Object.fromEntries(Object.entries(REST).map(([route, doc]) => [route, githubAnswerFor(doc)])) as Record<RestRoute, fc.Arbitrary<GithubAnswer>>);

const claim = fc.constantFrom<GithubClaim>(
  { kind: 'target' },
  { kind: 'package', ecosystem: 'npm', name: 'widget', directory: null, provenanceRepository: null },
  { kind: 'package', ecosystem: 'npm', name: 'widget', directory: 'packages/../../x', provenanceRepository: 'https://github.com/acme/widget' },
  { kind: 'package', ecosystem: 'pypi', name: 'widget', directory: null, provenanceRepository: null },
);

/** Reasons a source gives when it caught something it did not expect: a hidden bug. */
const CATCH_ALL = /unexpected error|GitHub source: no answer/;

/**
 * Found by this fuzzing (src/sources/github/rest.ts `restListings`): a root listing whose `.github`
 * or `docs` directory had an empty (or dot-only) `sha` made the tree URL throw, and the source
 * lost every GitHub fact to "unexpected error". Fixed: a tree id that is not hex is a listing
 * problem with its own reason (pinned by the test at the end of this file).
 */

function expectGithubResults(
  results: Map<string, { status: string; facts?: unknown; reason?: string }>,
  items: readonly GithubBatchItem[],
  seen: ReturnType<typeof outcomes>,
): void {
  const hidden = (reason: string | undefined): boolean => reason !== undefined && CATCH_ALL.test(reason);
  for (const item of items) {
    const result = results.get(githubItemKey(item));
    expect(result, githubItemKey(item)).toBeDefined();
    if (result?.status === 'ok') {
      const parsed = GithubFactsSchema.safeParse(result.facts);
      expect(parsed.success, JSON.stringify(parsed.error?.issues[0])).toBe(true);
      if (!parsed.success) return;
      seen.note(parsed.data.state === 'present' ? 'present' : 'absent');
      for (const reason of Object.values(parsed.data.unknown)) {
        expect(reason).toMatch(ONE_LINE);
        expect(hidden(reason), reason).toBe(false);
      }
      expect(parsed.data.link.reason).toMatch(ONE_LINE);
    } else {
      seen.note('unavailable');
      expect(result?.reason).toMatch(ONE_LINE);
      expect(hidden(result?.reason), result?.reason).toBe(false);
    }
    expect(JSON.stringify(result)).not.toContain(FUZZ_TOKEN);
  }
}

describe('fuzzing: GitHub answers, 10,000 cases each', () => {
  it('GitHub REST (no token): repository, commits, releases, issues, community, listings, files → facts or a one-line reason', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(restAnswers, claim, async (answers, given) => {
        const http = fakeHttp((req) => githubReply(answers[restRoute(req.url)], req));
        const items = [{ repo: { host: 'github.com', owner: 'acme', name: 'widget' }, claim: given }];
        const results = await fetchGithubFactsBatch({ http, endpoints: ENDPOINTS, token: null, now: NOW, limiter: new GithubRateLimiter() }, items);
        expectGithubResults(results, items, seen);
        expectNoPollution();
      }),
    );
    seen.expectBoth('present', 'unavailable');
  });

  it('GitHub GraphQL (token): data, errors, partial data, node limits and rate limits, with REST behind it → facts or a one-line reason', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const GQL = recorded('github/graphql/acme-widget.json') as { data: { r0: unknown } };
    const NODE = trimmed(GQL.data.r0);
    const node = fc.oneof({ arbitrary: mutated(NODE), weight: 6 }, { arbitrary: fc.constant(null), weight: 1 }, { arbitrary: anyJson, weight: 1 });
    const fields = fc.constantFrom('releases', 'defaultBranchRef', 'recentIssues', 'recentPulls', 'rootTree', 'githubTree', 'f0', 'f1', 'nope');
    const error = fc.record(
      {
        type: fc.oneof(fc.constantFrom('MAX_NODE_LIMIT_EXCEEDED', 'RESOURCE_LIMITS_EXCEEDED', 'TIMEOUT', 'NOT_FOUND', 'FORBIDDEN', 'RATE_LIMITED', 'timeout'), anyJson),
        message: fc.oneof(fc.constantFrom('Something went wrong', 'Timeout on validation of query', 'Could not resolve to a Repository', '\u001b]8;;x\u0007'), anyJson),
        path: fc.oneof(fc.tuple(fc.constantFrom('r0', 'r1', 'r2'), fields).map((p) => [...p]), fc.constantFrom(['r0'], [], ['r0', 'f0', 0]), anyJson),
      },
      { requiredKeys: [] },
    );
    /** A GraphQL answer: nodes for the aliases asked (in order), errors, or no data at all. */
    const graphqlAnswer = fc.oneof(
      { arbitrary: fc.record({ nodes: fc.array(node, { minLength: 1, maxLength: 3 }), errors: fc.option(fc.array(error, { maxLength: 2 }), { nil: undefined }) }).map((a) => ({ kind: 'data' as const, ...a })), weight: 6 },
      { arbitrary: fc.array(error, { minLength: 1, maxLength: 2 }).map((errors) => ({ kind: 'errors' as const, errors })), weight: 1 },
      { arbitrary: githubAnswerFor({ data: null }).map((answer) => ({ kind: 'raw' as const, answer })), weight: 1 },
    );
    const files = fc.oneof(
      fc.record({ text: fc.oneof(fc.constant(REST.manifest), fc.string({ maxLength: 30 }), anyJson), isTruncated: fc.oneof(fc.boolean(), anyJson), isBinary: fc.oneof(fc.boolean(), anyJson) }, { requiredKeys: [] }),
      fc.record({ entries: fc.oneof(fc.constant([{ name: 'package.json', type: 'blob' }]), anyJson) }, { requiredKeys: [] }),
      anyJson,
    );
    const items = fc.uniqueArray(fc.constantFrom('widget', 'w2', 'w3'), { minLength: 1, maxLength: 3 }).chain((names) =>
      fc.tuple(...names.map((name) => claim.map((c): GithubBatchItem => ({ repo: { host: 'github.com', owner: 'acme', name }, claim: c })))),
    );
    const seen = outcomes();
    await check(
      task,
      fc.asyncProperty(items, fc.array(graphqlAnswer, { minLength: 1, maxLength: 4 }), files, restAnswers, fc.constantFrom(1, 2, 25), async (batch, queries, file, answers, batchSize) => {
        let asked = 0;
        const http = fakeHttp((req) => {
          if (req.method === 'POST') {
            const query = (JSON.parse(req.body ?? '{}') as { query?: string }).query ?? '';
            if (query.includes('query NerqFiles')) {
              const aliases = [...query.matchAll(/\b(x\d+): object\(/g)].map((m) => m[1] as string);
              return ok(JSON.stringify({ data: { repository: Object.fromEntries(aliases.map((a) => [a, file])) } }), req.url);
            }
            const spec = queries[asked++ % queries.length];
            if (spec === undefined || spec.kind === 'raw') return githubReply(spec?.answer ?? { answer: { kind: 'body', value: '{}' }, headers: {} }, req);
            if (spec.kind === 'errors') return ok(JSON.stringify({ data: null, errors: spec.errors }), req.url);
            const aliases = [...query.matchAll(/\b(r\d+): repository\(/g)].map((m) => m[1] as string);
            const data = Object.fromEntries(aliases.map((alias, i) => [alias, spec.nodes[i % spec.nodes.length]]));
            return ok(JSON.stringify({ data, ...(spec.errors === undefined ? {} : { errors: spec.errors }) }), req.url);
          }
          return githubReply(answers[restRoute(req.url)], req);
        });
        const results = await fetchGithubFactsBatch({ http, endpoints: ENDPOINTS, token: FUZZ_TOKEN, now: NOW, limiter: new GithubRateLimiter() }, batch, { batchSize });
        expectGithubResults(results, batch, seen);
        expectNoPollution();
      }),
    );
    seen.expectBoth('present', 'unavailable');
  });
});

/** What the fault suite found in the PyPI sources, pinned (each fixed in src/sources). */
describe('fault-suite findings, pinned', () => {
  it("a dependency's project JSON is read with a 24 MiB cap, not the main project's 64 MiB: eight at once stay under 200 MiB", async () => {
    const caps: number[] = [];
    const http = fakeHttp((req) => {
      caps.push(req.maxBytes ?? Number.POSITIVE_INFINITY);
      return ok(JSON.stringify(syntheticDependency('click', ['8.1.8'])), req.url);
    });
    const deps = ['click', 'jinja2', 'werkzeug'].map((name) => ({ name, specifier: '', marker: null }));
    const result = await resolvePypiDependencies(http, PYPI, deps);
    expect(result.status).toBe('ok');
    expect(caps).toEqual([24 * 1024 * 1024, 24 * 1024 * 1024, 24 * 1024 * 1024]);
  });
});

/** What the GitHub fuzzing found in src/sources/github/rest.ts, fixed: an invalid tree id is a listing problem, not a lost repository. */
describe('GitHub fuzzing findings', () => {
  it("a root listing whose .github directory has an empty sha keeps the repository's facts, with a specific reason", async ({ expect }) => {
    const listing = (REST.contents as { name: string; sha?: string }[]).map((entry) => (entry.name === '.github' ? { ...entry, sha: '' } : entry));
    const http = fakeHttp((req) => {
      const route = restRoute(req.url);
      const doc = route === 'contents' ? listing : REST[route];
      return ok(text(doc), req.url, { 'content-type': 'application/json' });
    });
    const result = await fetchGithubFactsBatch({ http, endpoints: ENDPOINTS, token: null, now: NOW, limiter: new GithubRateLimiter() }, [{ repo: { host: 'github.com', owner: 'acme', name: 'widget' }, claim: { kind: 'target' } }]);
    const only = [...result.values()][0];
    // The repository answered: its facts stand, and at most the listing-based section (CI) is unknown, with a reason that says why.
    expect(only?.status, only?.status === 'unavailable' ? only.reason : '').toBe('ok');
    if (only?.status === 'ok') for (const reason of Object.values(only.facts.unknown)) expect(reason).not.toMatch(CATCH_ALL);
  });
});
