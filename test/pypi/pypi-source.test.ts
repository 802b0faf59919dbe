/**
 * collectPypi against the loopback fixture server, one fixture project per case (see
 * fixtures/PROVENANCE.md): the facts each project's answers give, the requests made, and the
 * failures (404, 5xx, malformed or wrongly shaped JSON, a Simple API that does not answer).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { PypiFacts } from '../../src/evidence/schema.js';
import { NO_PROVENANCE } from '../../src/sources/npm/attestations.js';
import { collectPypi, resolvePypiRelease, type PypiCollected } from '../../src/sources/pypi/project.js';
import { fixtureFileFor, FIXTURES_ROOT } from '../support/fixture-server.js';
import { expectProject, usePypiServer } from './helpers.js';

const ctx = usePypiServer();

async function collect(name: string, spec?: string): Promise<PypiCollected> {
  return collectPypi(ctx.http, ctx.pypi, name, spec);
}

async function facts(name: string, spec?: string): Promise<{ facts: PypiFacts; attestations: Extract<PypiCollected, { kind: 'ok' }>['attestations'] }> {
  const result = await collect(name, spec);
  if (result.kind !== 'ok') throw new Error(`expected facts, got ${result.code}: ${result.message}`);
  return result;
}

const FLASK_313 = '/pypi/integrity/flask/3.1.3/flask-3.1.3.tar.gz/provenance';

describe('flask: a healthy project with a GitHub repository, a PEP 639 licence and provenance', () => {
  test('the latest release: facts from the project JSON, status and provenance flags from the Simple API', async () => {
    expectProject(ctx.server, 'flask', FLASK_313);
    const { facts: f, attestations } = await facts('flask');

    expect(f).toMatchObject({
      name: 'Flask',
      version: '3.1.3',
      latest: '3.1.3',
      summary: 'A simple framework for building complex web applications.',
      keywords: [],
      license: { expression: 'BSD-3-Clause', classifiers: [], text: null, spdx: 'BSD-3-Clause', source: 'expression', files: ['LICENSE.txt'] },
      developmentStatus: '5 - Production/Stable',
      typed: true,
      requiresPython: '>=3.9',
      optionalDependencies: 2,
      homepage: null,
      documentationUrl: 'https://flask.palletsprojects.com/',
      changelogUrl: 'https://flask.palletsprojects.com/page/changes/',
      issuesUrl: null,
      repository: { host: 'github', url: 'https://github.com/pallets/flask', slug: 'pallets/flask' },
      hasAuthor: true,
      owners: 1,
      status: { status: 'active', reason: null },
      sdistOnly: false,
      yanked: false,
      yankedReason: null,
      vulnerabilities: [],
    });
    expect(f.dependencies).toEqual([
      { name: 'blinker', specifier: '>=1.9.0', marker: null },
      { name: 'click', specifier: '>=8.1.3', marker: null },
      { name: 'importlib-metadata', specifier: '>=3.6.0', marker: "python_version < '3.10'" },
      { name: 'itsdangerous', specifier: '>=2.2.0', marker: null },
      { name: 'jinja2', specifier: '>=3.1.2', marker: null },
      { name: 'markupsafe', specifier: '>=2.1.1', marker: null },
      { name: 'werkzeug', specifier: '>=3.1.0', marker: null },
    ]);
    expect(f.files).toEqual([
      { filename: 'flask-3.1.3-py3-none-any.whl', packagetype: 'bdist_wheel', size: 103424, uploadTime: '2026-02-19T05:00:56.027Z', yanked: false, hasProvenance: true, sha256: 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670c', url: 'https://files.pythonhosted.org/packages/7f/9c/34f6962f9b9e9c71f6e5ed806e0d0ff03c9d1b0b2340088a0cf4bce09b18/flask-3.1.3-py3-none-any.whl' },
      { filename: 'flask-3.1.3.tar.gz', packagetype: 'sdist', size: 759004, uploadTime: '2026-02-19T05:00:57.678Z', yanked: false, hasProvenance: true, sha256: '0ef0e52b8a9cd932855379197dd8f94047b359ca0a78695144304cb45f87c9eb', url: 'https://files.pythonhosted.org/packages/26/00/35d85dcce6c57fdc871f3867d465d780f302a175ea360f62533f12b27e2b/flask-3.1.3.tar.gz' },
    ]);
    expect(f.description).toMatchObject({ contentType: 'text/markdown', truncated: false });
    expect(f.description?.text).toContain('Flask is a lightweight [WSGI] web application framework.');
    expect(f.description?.length).toBe(f.description?.text.length);

    // Release history: 20 releases oldest first, with the pre-releases of 2.0.0 marked.
    expect(f.releases).toHaveLength(20);
    expect(f.releases[0]).toEqual({ version: '0.1', time: '2010-04-16T14:29:37.458Z', prerelease: false, yanked: false, yankedReason: null, files: 1 });
    expect(f.releases.at(-1)).toMatchObject({ version: '3.1.3', time: '2026-02-19T05:00:56.027Z', files: 2 });
    expect(f.releases.filter((r) => r.prerelease).map((r) => r.version)).toEqual(['2.0.0rc1', '2.0.0rc2']);

    expect(attestations).toEqual({
      status: 'ok',
      facts: {
        ...NO_PROVENANCE,
        provenance: true,
        predicateType: 'https://docs.pypi.org/attestations/publish/v1',
        sourceRepository: 'https://github.com/pallets/flask',
        workflow: 'publish.yaml',
        verified: false,
      },
    });

    // Three requests: project JSON, Simple API (JSON form), one provenance object (the sdist's).
    expect(ctx.paths()).toEqual(['/pypi/pypi/flask/json', '/pypi/simple/flask/', FLASK_313]);
    const simple = ctx.server.requests.find((r) => r.path === '/pypi/simple/flask/');
    expect(simple?.headers.accept).toBe('application/vnd.pypi.simple.v1+json');
  });

  test('the name is PEP 503-normalised before any request', async () => {
    expectProject(ctx.server, 'flask', FLASK_313);
    expect((await facts('Flask')).facts.version).toBe('3.1.3');
    expect(ctx.paths()[0]).toBe('/pypi/pypi/flask/json');
  });

  test('an older release fetches its own JSON; 404 there → version-not-found with the nearest versions', async () => {
    ctx.server.expect('GET', '/pypi/pypi/flask/json');
    ctx.server.expect('GET', '/pypi/simple/flask/');
    ctx.server.expect('GET', '/pypi/pypi/flask/2.0.0rc1/json', { status: 404 });
    const result = await collect('flask', '==2.0.0rc1');
    expect(result).toEqual({
      kind: 'error',
      code: 'version-not-found',
      message: 'flask 2.0.0rc1: PyPI has no JSON for this release (HTTP 404) (nearest: 0.10.1, 1.0, 1.1.4, 2.0.0, 2.2.5)',
      version: '2.0.0rc1',
    });
  });

  test('a specifier nothing matches → version-not-found with the nearest versions, after one request', async () => {
    ctx.server.expect('GET', '/pypi/pypi/flask/json');
    expect(await collect('flask', '>=4')).toEqual({
      kind: 'error',
      code: 'version-not-found',
      message: 'flask: no release matches ">=4" (nearest: 3.0.3, 3.1.0, 3.1.1, 3.1.2, 3.1.3)',
    });
    expect(await collect('flask', '==3.1.4')).toMatchObject({ code: 'version-not-found', message: 'flask: no release matches "==3.1.4" (nearest: 3.0.3, 3.1.0, 3.1.1, 3.1.2, 3.1.3)' });
    expect(ctx.paths()).toEqual(['/pypi/pypi/flask/json', '/pypi/pypi/flask/json']);
  });
});

describe('black: a yanked resolved release, and a project of pre-releases only', () => {
  test('==21.11b0 resolves the yanked release (an exact pin) and reads its own JSON', async () => {
    expectProject(ctx.server, 'black', '/pypi/pypi/black/21.11b0/json');
    const { facts: f, attestations } = await facts('black', '==21.11b0');
    expect(f).toMatchObject({
      name: 'black',
      version: '21.11b0',
      latest: null,
      yanked: true,
      yankedReason: 'Broken regex dependency. Use 21.11b1 instead.',
      license: { spdx: 'MIT', source: 'classifier', text: 'MIT', expression: null },
      developmentStatus: '4 - Beta',
      typed: false,
      requiresPython: '>=3.6.2',
      optionalDependencies: 6,
      repository: { slug: 'psf/black', host: 'github' },
      changelogUrl: 'https://github.com/psf/black/blob/main/CHANGES.md',
      // The project JSON of this recording has no ownership; the release's JSON does.
      owners: 5,
      keywords: ['automation', 'formatter', 'yapf', 'autopep8', 'pyfmt', 'gofmt', 'rustfmt'],
      sdistOnly: false,
    });
    expect(f.dependencies.map((d) => `${d.name}${d.specifier}`)).toEqual([
      'click>=7.1.2',
      'platformdirs>=2',
      'tomli<2.0.0,>=0.2.6',
      'regex>=2020.1.8',
      'pathspec<1,>=0.9.0',
      'typing-extensions>=3.10.0.0',
      'mypy-extensions>=0.4.3',
      'dataclasses>=0.6',
      'typed-ast>=1.4.2',
      'typing-extensions!=3.10.0.1',
    ]);
    expect(f.files.map((x) => [x.filename, x.yanked, x.hasProvenance])).toEqual([
      ['black-21.11b0-py3-none-any.whl', true, false],
      ['black-21.11b0.tar.gz', true, false],
    ]);
    expect(f.releases).toEqual([
      { version: '19.10b0', time: '2019-10-28T23:53:54.000Z', prerelease: true, yanked: false, yankedReason: null, files: 2 },
      { version: '21.11b0', time: '2021-11-17T02:32:14.551Z', prerelease: true, yanked: true, yankedReason: 'Broken regex dependency. Use 21.11b1 instead.', files: 2 },
    ]);
    // The Simple API says neither file has provenance: no provenance, no request for it.
    expect(attestations).toEqual({ status: 'ok', facts: NO_PROVENANCE });
    expect(ctx.paths().sort()).toEqual(['/pypi/pypi/black/21.11b0/json', '/pypi/pypi/black/json', '/pypi/simple/black/']);
  });

  test('the default is the newest pre-release when no final release exists, and the yanked one is skipped', async () => {
    expectProject(ctx.server, 'black');
    const { facts: f } = await facts('black');
    expect(f.version).toBe('19.10b0');
    expect(f.yanked).toBe(false);
    expect(f.owners).toBeNull();
    expect(f.dependencies).toHaveLength(7);
    expect(ctx.paths()).not.toContain('/pypi/pypi/black/19.10b0/json');
  });

  test('a range never picks the yanked release', async () => {
    ctx.server.expect('GET', '/pypi/pypi/black/json');
    expect(await collect('black', '>=21')).toMatchObject({ code: 'version-not-found', message: expect.stringMatching(/only yanked .* releases match ">=21"/) });
  });
});

describe('trackpy: an sdist-only release without any licence metadata', () => {
  test('sdistOnly, no licence, reStructuredText description, no classifiers', async () => {
    expectProject(ctx.server, 'trackpy');
    const { facts: f } = await facts('trackpy');
    expect(f).toMatchObject({
      version: '0.4.1',
      sdistOnly: true,
      license: { expression: null, classifiers: [], text: null, spdx: null, source: null, files: null },
      classifiers: [],
      developmentStatus: null,
      typed: false,
      requiresPython: null,
      dependencies: [],
      repository: { slug: 'soft-matter/trackpy' },
      // The API's empty content type: not given.
      description: { contentType: null, truncated: false },
    });
    expect(f.description?.text.startsWith('trackpy\n=======')).toBe(true);
    expect(f.files).toEqual([
      { filename: 'trackpy-0.4.1.tar.gz', packagetype: 'sdist', size: 121998, uploadTime: '2018-04-21T09:59:50.546Z', yanked: false, hasProvenance: false, sha256: 'f682f75e99f6c29c65e8531899b957c67d9d5a027b28b44258fa2c4a18e851cd', url: 'https://files.pythonhosted.org/packages/62/31/797febf2ea8ea316c345c1d0f10503c3901f3fca5c3ffdc6e92717efdcad/trackpy-0.4.1.tar.gz' },
    ]);
  });
});

describe('filecache: an ambiguous licence classifier', () => {
  test('"BSD License" maps to no SPDX id; the classifier is kept', async () => {
    expectProject(ctx.server, 'filecache');
    const { facts: f } = await facts('filecache');
    expect(f.license).toEqual({
      expression: null,
      classifiers: ['License :: OSI Approved :: BSD License'],
      text: null,
      spdx: null,
      source: null,
      files: null,
    });
    expect(f).toMatchObject({ developmentStatus: '4 - Beta', sdistOnly: false, owners: null, repository: { slug: 'ubershmekel/filecache' } });
  });
});

describe('nerq-fixture-inactive: Development Status :: 7 - Inactive', () => {
  test('the status is read from the classifier; no repository link', async () => {
    expectProject(ctx.server, 'nerq-fixture-inactive');
    const { facts: f } = await facts('nerq-fixture-inactive');
    expect(f).toMatchObject({
      version: '1.2.0',
      developmentStatus: '7 - Inactive',
      license: { spdx: 'MIT', source: 'classifier', text: 'MIT' },
      repository: null,
      homepage: 'https://example.org/nerq-fixture-inactive',
      releases: [{ version: '1.0.0' }, { version: '1.1.0' }, { version: '1.2.0', time: '2018-11-05T16:02:44.500Z' }],
    });
  });
});

describe('nerq-fixture-freetext: only a free-text licence', () => {
  test('a short licence name maps (source text)', async () => {
    expectProject(ctx.server, 'nerq-fixture-freetext');
    const { facts: f } = await facts('nerq-fixture-freetext');
    expect(f.license).toEqual({ expression: null, classifiers: [], text: 'BSD 3-Clause', spdx: 'BSD-3-Clause', source: 'text', files: null });
  });

  test('a pasted licence body does not map; the text is kept', async () => {
    expectProject(ctx.server, 'nerq-fixture-freetext', '/pypi/pypi/nerq-fixture-freetext/1.0.0/json');
    const { facts: f } = await facts('nerq-fixture-freetext', '==1.0.0');
    expect(f.license.spdx).toBeNull();
    expect(f.license.source).toBeNull();
    expect(f.license.text).toMatch(/^Copyright \(c\) 2019 Nerq Fixture\n\nPermission is hereby granted/);
    expect(f.description?.contentType).toBe('text/x-rst');
  });
});

describe('nerq-fixture-archived: a PEP 792 project status', () => {
  test('status and reason from the Simple API', async () => {
    expectProject(ctx.server, 'nerq-fixture-archived');
    const { facts: f } = await facts('nerq-fixture-archived');
    expect(f.status).toEqual({ status: 'archived', reason: 'the project is no longer maintained; use its successor' });
    expect(f.license).toMatchObject({ spdx: 'MIT', source: 'expression', files: ['LICENSE'] });
  });
});

describe('caps', () => {
  test('a description over 256 KiB is cut on a character boundary and marked truncated', async () => {
    const description = 'é'.repeat(200_000); // 400,000 bytes of UTF-8
    const file = { filename: 'big-1.0.tar.gz', packagetype: 'sdist', size: 10, upload_time_iso_8601: '2024-05-01T00:00:00.000000Z', yanked: false, yanked_reason: null };
    ctx.server.expect('GET', '/pypi/pypi/big/json', { body: { info: { name: 'big', version: '1.0', description }, releases: { '1.0': [file] }, urls: [file] } });
    ctx.server.expect('GET', '/pypi/simple/big/', { body: { meta: { 'api-version': '1.4' }, name: 'big', files: [{ filename: 'big-1.0.tar.gz', provenance: null }] } });
    const { facts: f, attestations } = await facts('big');
    expect(f.description).toMatchObject({ contentType: null, length: 200_000, truncated: true });
    expect(Buffer.byteLength(f.description?.text ?? '', 'utf8')).toBe(256 * 1024);
    expect(f.description?.text).toBe('é'.repeat(128 * 1024));
    expect(f.description).toMatchObject({ tailHeadings: [], tailCodeBlocks: 0 });
    // A minimal answer: unknowns stay null, absences are empty.
    expect(f).toMatchObject({ summary: null, requiresPython: null, owners: null, keywords: [], dependencies: [], hasAuthor: false, repository: null, latest: '1.0', status: { status: 'active', reason: null } });
    expect(attestations).toEqual({ status: 'ok', facts: NO_PROVENANCE });
  });
});

describe('a long description past the cut', () => {
  test('its headings and fenced code blocks past 256 KiB are kept, the fences followed from the start', async () => {
    const description = `# big\n\n## Installation\n\n\`\`\`sh\npip install big\n\`\`\`\n\n${'Text about it. '.repeat(18_000)}\n\n## Usage\n\n\`\`\`python\n# a comment\nimport big\n\`\`\`\n\n## License\n\nMIT\n`;
    const file = { filename: 'big-1.0.tar.gz', packagetype: 'sdist', size: 10, upload_time_iso_8601: '2024-05-01T00:00:00.000000Z', yanked: false, yanked_reason: null };
    ctx.server.expect('GET', '/pypi/pypi/big/json', { body: { info: { name: 'big', version: '1.0', description, description_content_type: 'text/markdown' }, releases: { '1.0': [file] }, urls: [file] } });
    ctx.server.expect('GET', '/pypi/simple/big/', { body: { meta: { 'api-version': '1.4' }, name: 'big', files: [{ filename: 'big-1.0.tar.gz', provenance: null }] } });
    const { facts: f } = await facts('big');
    expect(f.description).toMatchObject({ length: description.length, truncated: true, tailHeadings: ['Usage', 'License'], tailCodeBlocks: 1 });
  });
});

describe('failures', () => {
  test('404 for the project → not-found', async () => {
    ctx.server.expect('GET', '/pypi/pypi/no-such-project/json', { status: 404 });
    expect(await collect('no-such-project')).toEqual({ kind: 'error', code: 'not-found', message: 'no-such-project was not found on PyPI' });
  });

  test('500 for the project → registry-unavailable with the reason', async () => {
    ctx.server.expect('GET', '/pypi/pypi/flask/json', { status: 500 });
    const result = await collect('flask');
    expect(result).toMatchObject({ kind: 'error', code: 'registry-unavailable' });
    expect(result.kind === 'error' && result.message).toMatch(/^PyPI could not answer for flask: project JSON: HTTP 500 from 127\.0\.0\.1:\d+/);
  });

  test('malformed JSON → registry-unavailable', async () => {
    ctx.server.expect('GET', '/pypi/pypi/flask/json', { malformed: true });
    expect(await collect('flask')).toEqual({ kind: 'error', code: 'registry-unavailable', message: 'PyPI could not answer for flask: project JSON: malformed JSON' });
  });

  test('a wrongly shaped answer names the field', async () => {
    ctx.server.expect('GET', '/pypi/pypi/flask/json', {
      body: { info: { name: 'Flask', version: '1.0' }, releases: { '1.0': [{ filename: 'f.tar.gz', packagetype: 'sdist', size: 'big' }] } },
    });
    expect(await collect('flask')).toMatchObject({
      code: 'registry-unavailable',
      message: expect.stringMatching(/^PyPI could not answer for flask: project JSON: unexpected JSON shape at releases\.1\.0\.0\.size: /),
    });
  });

  test('an answer without releases or info is refused', async () => {
    ctx.server.expect('GET', '/pypi/pypi/flask/json', { body: { message: 'Not Found' } });
    expect(await collect('flask')).toMatchObject({ code: 'registry-unavailable', message: expect.stringContaining('unexpected JSON shape at info') });
  });

  test('the release JSON failing (not 404) → registry-unavailable', async () => {
    expectProject(ctx.server, 'black');
    ctx.server.expect('GET', '/pypi/pypi/black/21.11b0/json', { malformed: true });
    expect(await collect('black', '==21.11b0')).toEqual({
      kind: 'error',
      code: 'registry-unavailable',
      message: 'PyPI could not answer for black: release JSON: malformed JSON',
      version: '21.11b0',
    });
  });

  test('the Simple API failing → status and provenance unknown (null), never false; no provenance request', async () => {
    ctx.server.expect('GET', '/pypi/pypi/flask/json');
    ctx.server.expect('GET', '/pypi/simple/flask/', { status: 503 });
    const { facts: f, attestations } = await facts('flask');
    expect(f.status).toBeNull();
    expect(f.files.map((x) => x.hasProvenance)).toEqual([null, null]);
    expect(attestations).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'http-status' });
    expect(ctx.paths()).not.toContain(FLASK_313);
  });

  test('an index that answers the Simple API in HTML → unknown as well', async () => {
    ctx.server.expect('GET', '/pypi/pypi/flask/json');
    ctx.server.expect('GET', '/pypi/simple/flask/', { body: '<!DOCTYPE html><html><body></body></html>', headers: { 'content-type': 'text/html' } });
    const { facts: f, attestations } = await facts('flask');
    expect(f.status).toBeNull();
    expect(attestations).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'bad-answer' });
  });

  test('a malformed Simple API answer → unknown, with the shape reason', async () => {
    ctx.server.expect('GET', '/pypi/pypi/trackpy/json');
    ctx.server.expect('GET', '/pypi/simple/trackpy/', { body: { meta: {}, files: 'none' } });
    const { facts: f, attestations } = await facts('trackpy');
    expect(f.status).toBeNull();
    expect(attestations).toMatchObject({ status: 'unavailable', code: 'bad-answer' });
  });

  test('provenance listed but not served → attestations unavailable, facts still ok', async () => {
    expectProject(ctx.server, 'flask');
    ctx.server.expect('GET', FLASK_313, { status: 404 });
    const { facts: f, attestations } = await facts('flask');
    expect(f.files.every((x) => x.hasProvenance === true)).toBe(true);
    expect(attestations).toEqual({ status: 'unavailable', reason: expect.any(String), code: 'not-found' });
  });
});

describe('the release is resolved before the Simple API and the provenance answer', () => {
  test('resolvePypiRelease answers from the JSON API alone; `complete` adds the Simple API\'s status and provenance flags, then the attestations', async () => {
    let answerSimple: () => void = () => {};
    const simpleMayAnswer = new Promise<void>((resolve) => {
      answerSimple = resolve;
    });
    ctx.server.expect('GET', '/pypi/pypi/flask/json');
    ctx.server.route('GET', '/pypi/simple/flask/', async (_req, res) => {
      await simpleMayAnswer;
      const body = readFileSync(fixtureFileFor(FIXTURES_ROOT, '/pypi/simple/flask/') as string);
      res.writeHead(200, { 'content-type': 'application/vnd.pypi.simple.v1+json', 'content-length': String(body.length) });
      res.end(body);
    });
    ctx.server.expect('GET', FLASK_313);

    const resolved = await resolvePypiRelease(ctx.http, ctx.pypi, 'flask', undefined);
    if (resolved.kind !== 'ok') throw new Error(`expected a release, got ${resolved.code}: ${resolved.message}`);
    // The Simple API has not answered: what it says is unknown (null), never false.
    expect(resolved.release).toMatchObject({ name: 'Flask', version: '3.1.3', status: null, repository: { url: 'https://github.com/pallets/flask' } });
    expect(resolved.release.files.map((f) => f.hasProvenance)).toEqual([null, null]);
    expect(resolved.release.dependencies).toHaveLength(7);
    expect(ctx.paths()).not.toContain(FLASK_313);

    answerSimple();
    const { facts: complete, attestations } = await resolved.complete;
    expect(complete.status).toEqual({ status: 'active', reason: null });
    expect(complete.files.map((f) => f.hasProvenance)).toEqual([true, true]);
    expect(attestations).toMatchObject({ status: 'ok', facts: { provenance: true, sourceRepository: 'https://github.com/pallets/flask' } });
    // Only the Simple API's fields differ from the release resolved before it answered.
    expect({ ...complete, status: null, files: complete.files.map((f) => ({ ...f, hasProvenance: null })) }).toEqual(resolved.release);
    // Still 3 requests for the latest release with provenance.
    expect(ctx.paths()).toEqual(['/pypi/pypi/flask/json', '/pypi/simple/flask/', FLASK_313]);
  });

  test('a release JSON that fails → registry-unavailable, once the Simple API asked alongside it has answered (nothing left in flight)', async () => {
    let simpleAnswered = false;
    ctx.server.expect('GET', '/pypi/pypi/black/json');
    ctx.server.expect('GET', '/pypi/pypi/black/21.11b0/json', { status: 500 });
    ctx.server.route('GET', '/pypi/simple/black/', (_req, res) => {
      const body = readFileSync(fixtureFileFor(FIXTURES_ROOT, '/pypi/simple/black/') as string);
      res.writeHead(200, { 'content-type': 'application/vnd.pypi.simple.v1+json', 'content-length': String(body.length) });
      res.end(body, () => {
        simpleAnswered = true;
      });
    });
    expect(await resolvePypiRelease(ctx.http, ctx.pypi, 'black', '==21.11b0')).toMatchObject({ kind: 'error', code: 'registry-unavailable', version: '21.11b0' });
    expect(simpleAnswered).toBe(true);
    expect(ctx.paths().sort()).toEqual(['/pypi/pypi/black/21.11b0/json', '/pypi/pypi/black/json', '/pypi/simple/black/']);
  });
});

describe('an answer that names another project', () => {
  // Its advisories, attestations and repository would be that project's: PyPI is unavailable for this one.
  test('the project JSON', async () => {
    const file = { filename: 'asked-1.0.tar.gz', packagetype: 'sdist', size: 10, upload_time_iso_8601: '2024-05-01T00:00:00.000000Z', yanked: false, yanked_reason: null };
    ctx.server.expect('GET', '/pypi/pypi/asked/json', { body: { info: { name: 'Other_Project', version: '1.0' }, releases: { '1.0': [file] }, urls: [file] } });
    const result = await resolvePypiRelease(ctx.http, ctx.pypi, 'asked', undefined);
    expect(result).toMatchObject({ kind: 'error', code: 'registry-unavailable' });
  });

  test('the same project in another spelling is the project', async () => {
    const file = { filename: 'asked-1.0.tar.gz', packagetype: 'sdist', size: 10, upload_time_iso_8601: '2024-05-01T00:00:00.000000Z', yanked: false, yanked_reason: null };
    ctx.server.expect('GET', '/pypi/pypi/asked-name/json', { body: { info: { name: 'Asked.Name', version: '1.0' }, releases: { '1.0': [file] }, urls: [file] } });
    ctx.server.expect('GET', '/pypi/simple/asked-name/', { body: { meta: { 'api-version': '1.4' }, name: 'asked-name', files: [] } });
    const result = await resolvePypiRelease(ctx.http, ctx.pypi, 'Asked_Name', undefined);
    expect(result.kind).toBe('ok');
    if (result.kind === 'ok') await result.complete;
  });
});
