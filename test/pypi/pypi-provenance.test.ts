/**
 * PEP 740 provenance objects → AttestationFacts: GitHub and GitLab Trusted Publishers, the
 * statement's predicate type, statements about other files, and unreadable answers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { NO_PROVENANCE } from '../../src/sources/npm/attestations.js';
import { PypiProvenanceSchema, type PypiProvenance } from '../../src/sources/pypi/json.js';
import { fetchProvenance, provenanceFacts, provenanceUrl } from '../../src/sources/pypi/provenance.js';
import { usePypiServer } from './helpers.js';

const FLASK = JSON.parse(
  readFileSync(new URL('../../fixtures/http/pypi/integrity/flask/3.1.3/flask-3.1.3.tar.gz/provenance.json', import.meta.url), 'utf8'),
) as PypiProvenance;

const statement = (subject: string, predicateType: string) =>
  Buffer.from(JSON.stringify({ _type: 'https://in-toto.io/Statement/v1', subject: [{ name: subject, digest: { sha256: '00' } }], predicateType, predicate: null })).toString('base64');

function provenance(publisher: Record<string, unknown>, statements: string[]): PypiProvenance {
  return PypiProvenanceSchema.parse({
    version: 1,
    attestation_bundles: [{ publisher, attestations: statements.map((s) => ({ version: 1, envelope: { statement: s, signature: 'MEUCIQ' } })) }],
  });
}

describe('provenanceFacts', () => {
  test('the flask fixture: GitHub publisher, PyPI publish attestation, not verified', () => {
    expect(provenanceFacts(PypiProvenanceSchema.parse(FLASK), 'flask-3.1.3.tar.gz')).toEqual({
      ...NO_PROVENANCE,
      provenance: true,
      predicateType: 'https://docs.pypi.org/attestations/publish/v1',
      sourceRepository: 'https://github.com/pallets/flask',
      workflow: 'publish.yaml',
      verified: false,
    });
  });

  test('a GitLab publisher names workflow_filepath; SLSA provenance is preferred as the predicate type', () => {
    const facts = provenanceFacts(
      provenance({ kind: 'GitLab', repository: 'group/project', workflow_filepath: '.gitlab-ci.yml', environment: '' }, [
        statement('p-1.0.tar.gz', 'https://docs.pypi.org/attestations/publish/v1'),
        statement('p-1.0.tar.gz', 'https://slsa.dev/provenance/v1'),
      ]),
      'p-1.0.tar.gz',
    );
    expect(facts).toMatchObject({ provenance: true, sourceRepository: 'https://gitlab.com/group/project', workflow: '.gitlab-ci.yml', predicateType: 'https://slsa.dev/provenance/v1' });
  });

  test('a publisher kind without a repository (Google) → provenance without a source repository', () => {
    const facts = provenanceFacts(provenance({ kind: 'Google', email: 'x@example.iam.gserviceaccount.com' }, [statement('p.whl', 'https://docs.pypi.org/attestations/publish/v1')]), 'p.whl');
    expect(facts).toMatchObject({ provenance: true, sourceRepository: null, workflow: null });
  });

  test('a statement about another file is refused', () => {
    expect(provenanceFacts(provenance({ kind: 'GitHub', repository: 'o/r', workflow: 'w.yml' }, [statement('other-1.0.tar.gz', 'x')]), 'p-1.0.tar.gz')).toBe(
      'the attestation statement is about another file',
    );
  });

  test('a statement that is not base64 JSON is refused', () => {
    expect(provenanceFacts(provenance({ kind: 'GitHub', repository: 'o/r', workflow: 'w.yml' }, ['%%%not base64%%%']), 'p.whl')).toBe(
      'an attestation statement is not base64-encoded JSON',
    );
  });

  test('no attestation bundles → no provenance', () => {
    expect(provenanceFacts({ version: 1, attestation_bundles: [] }, 'p.whl')).toEqual(NO_PROVENANCE);
  });

  test('a hostile repository value is not turned into a URL', () => {
    const facts = provenanceFacts(provenance({ kind: 'GitHub', repository: '../../evil?x=1', workflow: 'w.yml' }, [statement('p.whl', 't')]), 'p.whl');
    expect(facts).toMatchObject({ provenance: true, sourceRepository: null });
  });
});

describe('fetchProvenance', () => {
  const ctx = usePypiServer();
  const path = '/pypi/integrity/flask/3.1.3/flask-3.1.3.tar.gz/provenance';
  const file = { project: 'flask', version: '3.1.3', filename: 'flask-3.1.3.tar.gz' };

  test('URL: every segment encoded under the base path', () => {
    expect(provenanceUrl('http://h/pypi', 'p', '1.0+local', 'p-1.0+local.tar.gz')).toBe('http://h/pypi/integrity/p/1.0%2Blocal/p-1.0%2Blocal.tar.gz/provenance');
  });

  test('the recorded object, with the integrity Accept header', async () => {
    ctx.server.expect('GET', path);
    expect(await fetchProvenance(ctx.http, ctx.pypi, file)).toMatchObject({ status: 'ok', facts: { provenance: true, workflow: 'publish.yaml' } });
    expect(ctx.server.requests[0]?.headers.accept).toBe('application/vnd.pypi.integrity.v1+json');
  });

  const wheel = { ...file, filename: 'flask-3.1.3-py3-none-any.whl' };
  const recorded = { fixture: 'pypi/integrity/flask/3.1.3/flask-3.1.3.tar.gz/provenance.json' };
  test.each([
    ['404', file, { status: 404 }, 'not-found'],
    ['malformed JSON', file, { malformed: true }, 'bad-answer'],
    ['a wrong shape', file, { body: { version: 1, attestation_bundles: 'none' } }, 'bad-answer'],
    // The sdist's object served for the wheel: its statement names the sdist.
    ['a statement about another file', wheel, recorded, 'bad-answer'],
  ])('%s → unavailable', async (_label, target, response, code) => {
    ctx.server.expect('GET', `/pypi/integrity/${target.project}/${target.version}/${target.filename}/provenance`, response);
    expect(await fetchProvenance(ctx.http, ctx.pypi, target)).toEqual({ status: 'unavailable', reason: expect.any(String), code });
  });
});
