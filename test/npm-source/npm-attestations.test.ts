import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { AttestationFactsSchema } from '../../src/evidence/schema.js';
import { createHttpClient } from '../../src/sources/http/client.js';
import {
  SLSA_PROVENANCE_V02,
  SLSA_PROVENANCE_V1,
  attestationFacts,
  attestationsUrl,
  fetchAttestations,
  normaliseRepository,
  NO_PROVENANCE,
} from '../../src/sources/npm/attestations.js';
import type { HttpClient } from '../../src/sources/http/types.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { fakeHttp } from './fake-http.js';

const COMMIT = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c';

/** A SLSA v1 statement as npm CLI ≥ 9.5 publishes it from GitHub Actions. */
function v1Statement(overrides: { subject?: string; workflow?: Record<string, unknown> | null; predicateType?: string } = {}) {
  return {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name: overrides.subject ?? 'pkg:npm/%40nerq/pkg@1.2.3', digest: { sha512: 'ab'.repeat(64) } }],
    predicateType: overrides.predicateType ?? SLSA_PROVENANCE_V1,
    predicate: {
      buildDefinition: {
        buildType: 'https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1',
        externalParameters:
          overrides.workflow === null
            ? {}
            : { workflow: overrides.workflow ?? { ref: 'refs/tags/v1.2.3', repository: 'https://github.com/nerq-fixtures/pkg', path: '.github/workflows/release.yml' } },
        internalParameters: { github: { event_name: 'push', repository_id: '1', repository_owner_id: '2' } },
        resolvedDependencies: [{ uri: 'git+https://github.com/nerq-fixtures/pkg@refs/tags/v1.2.3', digest: { gitCommit: COMMIT } }],
      },
      runDetails: {
        builder: { id: 'https://github.com/actions/runner/github-hosted' },
        metadata: { invocationId: 'https://github.com/nerq-fixtures/pkg/actions/runs/1/attempts/1' },
      },
    },
  };
}

/** npm's publish attestation (always present next to provenance). */
const publishAttestation = {
  predicateType: 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1',
  bundle: { dsseEnvelope: { payloadType: 'application/vnd.in-toto+json', payload: b64({ predicate: { name: 'x', version: '1' } }) } },
};

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

function answer(statement: unknown, predicateType = SLSA_PROVENANCE_V1, payload?: string) {
  return {
    attestations: [
      publishAttestation,
      { predicateType, bundle: { dsseEnvelope: { payloadType: 'application/vnd.in-toto+json', payload: payload ?? b64(statement) } } },
    ],
  };
}

describe('attestationsUrl', () => {
  test.each([
    ['http://127.0.0.1:9/npm/', 'sigstore', '1.0.0', 'http://127.0.0.1:9/npm/-/npm/v1/attestations/sigstore@1.0.0'],
    ['http://127.0.0.1:9/npm', 'sigstore', '1.0.0', 'http://127.0.0.1:9/npm/-/npm/v1/attestations/sigstore@1.0.0'],
    ['http://127.0.0.1:9/', '@scope/name', '1.0.0', 'http://127.0.0.1:9/-/npm/v1/attestations/@scope%2fname@1.0.0'],
    ['http://127.0.0.1:9/a/b/', 'x', '1.0.0+build.7', 'http://127.0.0.1:9/a/b/-/npm/v1/attestations/x@1.0.0%2Bbuild.7'],
  ])('%s + %s@%s → %s', (base, name, version, url) => {
    expect(attestationsUrl(base, name, version)).toBe(url);
  });

  test('an invalid name throws (and fetchAttestations turns it into unavailable without a request)', async () => {
    expect(() => attestationsUrl('http://127.0.0.1:9/', '../x', '1.0.0')).toThrow();
    const http = fakeHttp({});
    const result = await fetchAttestations(http, 'http://127.0.0.1:9/', '../x', '1.0.0');
    expect(result.status).toBe('unavailable');
    expect(http.requests).toHaveLength(0);
  });
});

describe('fetchAttestations against the fixture server', () => {
  let server: FixtureServer;
  let http: HttpClient;

  beforeEach(async () => {
    server = await startFixtureServer();
    http = createHttpClient({ retry: { retries: 0 }, env: {} });
  });
  afterEach(async () => {
    await http.close();
    await server.close();
  });

  test('the recorded sigstore@1.0.0 answer (SLSA v0.2 next to the publish attestation)', async () => {
    server.expect('GET', '/npm/-/npm/v1/attestations/sigstore@1.0.0');
    const result = await fetchAttestations(http, server.url('npm'), 'sigstore', '1.0.0');
    expectNoUnexpected(server);
    expect(result).toEqual({
      status: 'ok',
      facts: {
        provenance: true,
        predicateType: SLSA_PROVENANCE_V02,
        sourceRepository: 'https://github.com/sigstore/sigstore-js',
        workflow: '.github/workflows/publish.yml',
        ref: 'refs/tags/v1.0.0',
        commit: '06528997c3c8ab9f864fad9a3658446aca7fd86d',
        builder: 'https://github.com/npm/cli@9.4.2',
        verified: false,
        hollow: null,
      },
    });
    expect(server.requests[0]?.headers.accept).toBe('application/json');
  });

  test('a scoped package with a SLSA v1 statement: escaped name, base path kept', async () => {
    server.expect('GET', '/npm/-/npm/v1/attestations/@nerq%2fpkg@1.2.3', { body: answer(v1Statement()) });
    const result = await fetchAttestations(http, `${server.url('npm')}/`, '@nerq/pkg', '1.2.3');
    expectNoUnexpected(server);
    expect(server.requests.map((r) => r.path)).toEqual(['/npm/-/npm/v1/attestations/@nerq%2fpkg@1.2.3']);
    expect(result).toEqual({
      status: 'ok',
      facts: {
        provenance: true,
        predicateType: SLSA_PROVENANCE_V1,
        sourceRepository: 'https://github.com/nerq-fixtures/pkg',
        workflow: '.github/workflows/release.yml',
        ref: 'refs/tags/v1.2.3',
        commit: COMMIT,
        builder: 'https://github.com/actions/runner/github-hosted',
        verified: false,
        hollow: null,
      },
    });
  });

  // What the registry answered decides: a listing it does not back is no provenance (hollow).
  test.each([
    ['a 404 (listed in dist.attestations but not served)', { status: 404 }, 'listed, but the attestations endpoint answered HTTP 404'],
    ['a malformed body', { malformed: true }, 'listed, but the attestations endpoint answered malformed JSON'],
    ['a body without an attestations list', { body: { error: 'nope' } }, 'listed, but the body has no "attestations" list'],
    ['only the publish attestation', { body: { attestations: [{ predicateType: 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1' }] } }, 'listed, but the attestations endpoint lists no SLSA provenance statement'],
  ])('%s → answered: no provenance, hollow', async (_label, response, reason) => {
    server.expect('GET', '/npm/-/npm/v1/attestations/x@1.0.0', response);
    const result = await fetchAttestations(http, server.url('npm'), 'x', '1.0.0');
    expect(result).toEqual({ status: 'ok', facts: { ...NO_PROVENANCE, hollow: reason } });
    expectNoUnexpected(server);
  });

  test.each([
    ['a 500', { status: 500 }, 'attestations: '],
    ['a reset connection', { reset: true }, 'attestations: '],
  ])('%s → unavailable', async (_label, response, reason) => {
    server.expect('GET', '/npm/-/npm/v1/attestations/x@1.0.0', response);
    const result = await fetchAttestations(http, server.url('npm'), 'x', '1.0.0');
    expect(result.status).toBe('unavailable');
    if (result.status === 'unavailable') {
      expect(result.reason.startsWith(reason)).toBe(true);
      expect(result.reason).not.toMatch(/\n/);
    }
    expectNoUnexpected(server);
  });
});

describe('attestationFacts', () => {
  const expected = { name: '@nerq/pkg', version: '1.2.3' };

  test('only the publish attestation → answered, no provenance', () => {
    const facts = attestationFacts({ attestations: [publishAttestation] }, expected);
    expect(facts).toEqual({
      provenance: false, predicateType: null, sourceRepository: null, workflow: null, ref: null, commit: null, builder: null, verified: false, hollow: null,
    });
    expect(attestationFacts({ attestations: [] })).toMatchObject({ provenance: false });
  });

  test('SLSA v1 without a workflow block: the repository comes from the resolved dependency', () => {
    const facts = attestationFacts(answer(v1Statement({ workflow: null })), expected);
    expect(facts).toMatchObject({
      provenance: true,
      sourceRepository: 'https://github.com/nerq-fixtures/pkg',
      workflow: null,
      ref: 'refs/tags/v1.2.3',
      commit: COMMIT,
    });
  });

  test('a GitLab repository is normalised to its https browse URL', () => {
    const statement = v1Statement({ workflow: { repository: 'https://gitlab.com/group/proj.git', path: '.gitlab-ci.yml', ref: 'main' } });
    expect(attestationFacts(answer(statement), expected)).toMatchObject({
      sourceRepository: 'https://gitlab.com/group/proj',
      workflow: '.gitlab-ci.yml',
      ref: 'main',
    });
  });

  test('SLSA v0.2: repository and ref from configSource.uri, workflow path from the entry point', () => {
    const statement = {
      subject: [{ name: 'pkg:npm/%40nerq/pkg@1.2.3' }],
      predicateType: SLSA_PROVENANCE_V02,
      predicate: {
        builder: { id: 'https://github.com/npm/cli@9.5.0' },
        invocation: {
          configSource: {
            uri: 'git+https://github.com/Nerq-Fixtures/pkg@refs/heads/main',
            digest: { sha1: COMMIT },
            entryPoint: 'Nerq-Fixtures/pkg/.github/workflows/ci.yml@refs/heads/main',
          },
        },
      },
    };
    expect(attestationFacts(answer(statement, SLSA_PROVENANCE_V02), expected)).toEqual({
      provenance: true,
      predicateType: SLSA_PROVENANCE_V02,
      sourceRepository: 'https://github.com/Nerq-Fixtures/pkg',
      workflow: '.github/workflows/ci.yml',
      ref: 'refs/heads/main',
      commit: COMMIT,
      builder: 'https://github.com/npm/cli@9.5.0',
      verified: false,
      hollow: null,
    });
  });

  test('a provenance statement with its fields missing or of the wrong type: provenance, nothing else known', () => {
    const statement = { predicateType: SLSA_PROVENANCE_V1, predicate: { buildDefinition: { externalParameters: { workflow: { repository: 7, path: [], ref: {} } }, resolvedDependencies: 'x' }, runDetails: null } };
    const facts = attestationFacts(answer(statement));
    expect(facts).toEqual({
      provenance: true, predicateType: SLSA_PROVENANCE_V1, sourceRepository: null, workflow: null, ref: null, commit: null, builder: null, verified: false, hollow: null,
    });
    expect(AttestationFactsSchema.safeParse(facts).success).toBe(true);
  });

  test.each([
    ['not an object', 'nope', 'the body has no "attestations" list'],
    ['attestations not a list', { attestations: {} }, 'the body has no "attestations" list'],
    ['no DSSE envelope', { attestations: [{ predicateType: SLSA_PROVENANCE_V1, bundle: {} }] }, 'the provenance attestation has no DSSE payload'],
    ['a payload that is not base64', answer(null, SLSA_PROVENANCE_V1, '%%% not base64 %%%'), 'the provenance payload is not base64-encoded JSON'],
    ['base64 of something that is not JSON', answer(null, SLSA_PROVENANCE_V1, Buffer.from('{"predicate": ').toString('base64')), 'the provenance payload is not base64-encoded JSON'],
    ['base64 of a JSON array', answer(null, SLSA_PROVENANCE_V1, b64([1, 2])), 'the provenance payload is not base64-encoded JSON'],
    ['an empty payload', answer(null, SLSA_PROVENANCE_V1, ''), 'the provenance payload is not base64-encoded JSON'],
    ['a statement of another predicate type', answer(v1Statement({ predicateType: 'https://example.test/other' })), 'the provenance statement contradicts its predicate type'],
    ['a statement about another package', answer(v1Statement({ subject: 'pkg:npm/evil@1.2.3' })), 'the provenance statement is about another package'],
  ])('%s → a reason, not facts', (_label, body, reason) => {
    expect(attestationFacts(body, expected)).toBe(reason);
  });

  test('hostile bodies never throw', () => {
    const bodies: unknown[] = [null, 42, [], { attestations: [null, 1, 'x', [], { predicateType: 5 }] }, { attestations: [{ predicateType: SLSA_PROVENANCE_V1, bundle: { dsseEnvelope: { payload: 9 } } }] }];
    for (const body of bodies) expect(() => attestationFacts(body, expected)).not.toThrow();
  });
});

describe('normaliseRepository', () => {
  test.each([
    ['https://github.com/o/r', 'https://github.com/o/r'],
    ['git+https://github.com/o/r.git', 'https://github.com/o/r'],
    ['https://github.com/o/r/', 'https://github.com/o/r'],
    ['git+ssh://git@github.com/o/r.git', 'https://github.com/o/r'],
    ['https://user:secret@github.com/o/r', 'https://github.com/o/r'],
    ['https://GIT.Example.test/team/proj.git?x=1#y', 'https://git.example.test/team/proj'],
    ['https://git.example.test/', null],
    ['ftp://git.example.test/team/proj', null],
    ['not a url', null],
  ])('%s → %s', (raw, url) => {
    expect(normaliseRepository(raw)).toBe(url);
  });

  test('an absurdly long URL is dropped, not parsed', () => {
    expect(normaliseRepository(`https://github.com/o/${'r'.repeat(3000)}`)).toBeNull();
  });
});
