/**
 * collectPypiTarget for one check (`pypi:flask`, as test/cli/check-pypi.test.ts serves it): the
 * other sources start as soon as the JSON API resolved the release, never after the Simple API
 * or the provenance (the hostile suite's PYPI_EXTRAS_HOLD_OTHERS), and the target's OSV query
 * never waits for its dependencies (DEPENDENCIES_HOLD_OSV). Each held route answers only once
 * the requests it must not hold back have arrived — shown by the request log, no timing: were
 * they held back, the held route would never answer and the facts it gives would be missing.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Evidence } from '../../src/evidence/schema.js';
import type { Collected } from '../../src/ecosystems/adapter.js';
import { collectPypiTarget } from '../../src/ecosystems/pypi/collect.js';
import type { RunContext } from '../../src/pipeline/context.js';
import type { GithubClaim } from '../../src/sources/github/source.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import type { Target } from '../../src/target/types.js';
import { osvNoAdvisories } from '../cli/helpers.js';
import { expectPypiProject, projectJsonPath, pypiProject, pypistatsPath, simplePath } from '../cli/pypi-helpers.js';
import { expectNoUnexpected, fixtureFileFor, FIXTURES_ROOT, startFixtureServer, type FixtureServer, type RouteHandler, expectNoUnexpectedRequests } from '../support/fixture-server.js';
import { runContextFor, testHttpClient } from './helpers.js';

const NOW = new Date('2026-11-30T00:00:00Z');
const FLASK = pypiProject('flask');
const QUERYBATCH = '/osv/v1/querybatch';
const provenancePath = FLASK.provenance as string;

let server: FixtureServer;
let http: HttpClient;
/** The claims GitHub was asked to verify. */
let claims: GithubClaim[];

beforeEach(async () => {
  server = await startFixtureServer();
  http = testHttpClient();
  claims = [];
});

afterEach(async () => {
  await http.close();
  await server.close();
});
expectNoUnexpectedRequests(() => server);

/** One `nerq check`: dependencies resolved and queried, no facts cache, GitHub answered by a stub. */
function checkContext(): RunContext {
  return runContextFor(http, server, NOW, {
    githubLookup: async (_repo, claim) => {
      claims.push(claim);
      return { status: 'unavailable', reason: 'not asked in this test', code: 'not-asked' };
    },
  });
}

const flask: Target = { input: 'pypi:flask', ecosystem: 'pypi', name: 'flask' };

function evidenceOf(collected: Collected): Evidence {
  if (collected.kind !== 'evidence') throw new Error(`expected evidence, got ${collected.code}: ${collected.message}`);
  return collected.evidence;
}

/** Resolves once `count` requests of `path` have arrived (the request log says so). */
function arrived(path: string, count = 1): Promise<void> {
  return new Promise((resolve) => {
    const look = () => (server.requests.filter((r) => r.path === path).length >= count ? resolve() : setTimeout(look, 2));
    look();
  });
}

function sendFixture(res: ServerResponse, path: string, contentType: string): void {
  const file = fixtureFileFor(FIXTURES_ROOT, path);
  if (file === undefined) throw new Error(`no fixture for ${path}`);
  const body = readFileSync(file);
  res.writeHead(200, { 'content-type': contentType, 'content-length': String(body.length) });
  res.end(body);
}

/** Answers `path`'s fixture once `waitFor` settled, noting how many requests had arrived by then. */
function heldUntil(waitFor: () => Promise<unknown>, path: string, contentType: string, answered: { after: number }): RouteHandler {
  return async (_req, res) => {
    await waitFor();
    answered.after = server.requests.length;
    sendFixture(res, path, contentType);
  };
}

const indexOf = (path: string, nth = 1): number => {
  const at = server.requests.flatMap((r, i) => (r.path === path ? [i] : []))[nth - 1];
  if (at === undefined) throw new Error(`${path} was not requested ${nth} time(s): ${server.requests.map((r) => r.path).join(', ')}`);
  return at;
};

/** Every OSV batch's queries, in order, as `name@version`. */
const batches = (): string[][] =>
  server.requests
    .filter((r) => r.path === QUERYBATCH)
    .map((r) => (JSON.parse(r.body) as { queries: { package: { name: string }; version: string }[] }).queries.map((q) => `${q.package.name}@${q.version}`));

const DEPENDENCY_VERSIONS = ['blinker@1.9.0', 'click@8.2.0', 'importlib-metadata@8.6.1', 'itsdangerous@2.2.0', 'jinja2@3.1.6', 'markupsafe@3.0.2', 'werkzeug@3.1.3'];

describe('the Simple and Integrity APIs hold back no other source', () => {
  test('the Simple API answers only after pypistats, the dependencies and both OSV batches were asked; its facts are still in', async () => {
    const answered = { after: -1 };
    const others = async () => Promise.all([arrived(pypistatsPath('flask')), arrived(projectJsonPath('werkzeug')), arrived(QUERYBATCH, 2)]);
    server.route('GET', simplePath('flask'), heldUntil(others, simplePath('flask'), 'application/vnd.pypi.simple.v1+json', answered));
    expectPypiProject(server, FLASK, { osv: osvNoAdvisories });

    const evidence = evidenceOf(await collectPypiTarget(flask, checkContext()));

    for (const path of [pypistatsPath('flask'), projectJsonPath('werkzeug'), QUERYBATCH]) expect(indexOf(path), path).toBeLessThan(answered.after);
    expect(indexOf(QUERYBATCH, 2)).toBeLessThan(answered.after);
    // The provenance object is asked once the Simple API said the sdist has one.
    expect(indexOf(provenancePath)).toBeGreaterThanOrEqual(answered.after);
    // The final facts hold what the Simple API said: status and provenance flags, never left unknown.
    const pypi = evidence.sources.pypi;
    if (pypi.status !== 'ok') throw new Error(`pypi ${pypi.status}`);
    expect(pypi.facts.status).toEqual({ status: 'active', reason: null });
    expect(pypi.facts.files.map((f) => f.hasProvenance)).toEqual([true, true]);
    expect(evidence.sources.attestations).toMatchObject({ status: 'ok', facts: { provenance: true, sourceRepository: 'https://github.com/pallets/flask' } });
    expect(evidence.sources.downloads.status).toBe('ok');
    expect(evidence.sources.vulnerabilities).toMatchObject({ status: 'ok', facts: { dependenciesQueried: 7 } });
    // GitHub still waits for the attestation: the claim it verifies names the attested repository.
    expect(claims).toEqual([expect.objectContaining({ ecosystem: 'pypi', name: 'Flask', provenanceRepository: 'https://github.com/pallets/flask' })]);
    expectNoUnexpected(server);
  });

  test('the Integrity API answers only after pypistats, the dependencies and both OSV batches were asked', async () => {
    const answered = { after: -1 };
    const others = async () => Promise.all([arrived(pypistatsPath('flask')), arrived(projectJsonPath('werkzeug')), arrived(QUERYBATCH, 2)]);
    server.route('GET', provenancePath, heldUntil(others, provenancePath, 'application/vnd.pypi.integrity.v1+json', answered));
    expectPypiProject(server, FLASK, { osv: osvNoAdvisories });

    const evidence = evidenceOf(await collectPypiTarget(flask, checkContext()));

    expect(indexOf(pypistatsPath('flask'))).toBeLessThan(answered.after);
    expect(indexOf(QUERYBATCH, 2)).toBeLessThan(answered.after);
    expect(evidence.sources.attestations).toMatchObject({ status: 'ok', facts: { provenance: true } });
    expect(claims).toEqual([expect.objectContaining({ provenanceRepository: 'https://github.com/pallets/flask' })]);
    expectNoUnexpected(server);
  });

  test('a Simple API that fails leaves status and provenance unknown (null) in the final facts, never false', async () => {
    server.expect('GET', simplePath('flask'), { status: 503 });
    expectPypiProject(server, { ...FLASK, provenance: null }, { osv: osvNoAdvisories });

    const evidence = evidenceOf(await collectPypiTarget(flask, checkContext()));

    const pypi = evidence.sources.pypi;
    if (pypi.status !== 'ok') throw new Error(`pypi ${pypi.status}`);
    expect(pypi.facts.status).toBeNull();
    expect(pypi.facts.files.map((f) => f.hasProvenance)).toEqual([null, null]);
    expect(evidence.sources.attestations).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'http-status' });
    expect(server.requests.map((r) => r.path)).not.toContain(provenancePath);
    // The other sources are as healthy as ever; GitHub verifies without a provenance repository.
    expect(evidence.sources.vulnerabilities).toMatchObject({ status: 'ok', facts: { dependenciesQueried: 7 } });
    expect(claims).toEqual([expect.objectContaining({ provenanceRepository: null })]);
  });
});

describe("the target's OSV query does not wait for its dependencies", () => {
  test("a dependency's project JSON answers only after the target's batch was asked; the dependencies get a batch of their own", async () => {
    const answered = { after: -1 };
    server.route('GET', projectJsonPath('click'), async (_req, res) => {
      await arrived(QUERYBATCH);
      answered.after = server.requests.length;
      const body = JSON.stringify({ info: { name: 'click', version: '8.2.0' }, releases: { '8.2.0': [wheel('click', '8.2.0')] }, urls: [], vulnerabilities: [] });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    expectPypiProject(server, FLASK, { osv: osvNoAdvisories });

    const evidence = evidenceOf(await collectPypiTarget(flask, checkContext()));

    expect(indexOf(QUERYBATCH)).toBeLessThan(answered.after);
    // First the target alone, then only its dependencies, each at the version it resolves to.
    expect(batches()).toEqual([['flask@3.1.3'], DEPENDENCY_VERSIONS]);
    expect(evidence.sources.vulnerabilities).toEqual({
      status: 'ok',
      facts: { advisories: [], dependencyAdvisories: [], dependenciesQueried: 7, dependencyAdvisoriesReason: null },
    });
    expectNoUnexpected(server);
  });
});

function wheel(project: string, version: string): object {
  return {
    filename: `${project}-${version}-py3-none-any.whl`,
    packagetype: 'bdist_wheel',
    size: 20_000,
    upload_time_iso_8601: '2025-01-01T00:00:00.000000Z',
    yanked: false,
    yanked_reason: null,
  };
}
