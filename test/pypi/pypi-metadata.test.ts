/**
 * Pure pieces of the PyPI facts: `requires_dist` parsing, project links and the repository they
 * point at, the Simple API's status and provenance flags, release ordering and description caps.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { buildPypiFacts, capUtf8, latestRelease, releaseList, withSimpleFacts } from '../../src/sources/pypi/release-facts.js';
import { parseJsonBody, PypiProjectJsonSchema, PypiSimpleJsonSchema, type PypiJsonFile } from '../../src/sources/pypi/json.js';
import { directReferenceKind } from '../../src/ecosystems/pypi/direct-reference.js';
import { parseRequirement, splitRequirements } from '../../src/sources/pypi/requirements.js';
import { simpleFacts } from '../../src/sources/pypi/simple.js';
import { projectLinks, repositoryFromUrl } from '../../src/sources/pypi/urls.js';
import { FIXTURES_ROOT } from '../support/fixture-server.js';

describe('requires_dist', () => {
  test.each([
    ['click (>=7.1.2)', { name: 'click', specifier: '>=7.1.2', marker: null, extraOnly: false }],
    ['tomli (<2.0.0,>=0.2.6)', { name: 'tomli', specifier: '<2.0.0,>=0.2.6', marker: null, extraOnly: false }],
    ['appdirs', { name: 'appdirs', specifier: '', marker: null, extraOnly: false }],
    ['blinker>=1.9.0', { name: 'blinker', specifier: '>=1.9.0', marker: null, extraOnly: false }],
    [
      "importlib-metadata>=3.6.0; python_version < '3.10'",
      { name: 'importlib-metadata', specifier: '>=3.6.0', marker: "python_version < '3.10'", extraOnly: false },
    ],
    [
      'typed-ast (>=1.4.2) ; python_version < "3.8" and implementation_name == "cpython"',
      { name: 'typed-ast', specifier: '>=1.4.2', marker: 'python_version < "3.8" and implementation_name == "cpython"', extraOnly: false },
    ],
    ["aiohttp (>=3.7.4) ; extra == 'd'", { name: 'aiohttp', specifier: '>=3.7.4', marker: "extra == 'd'", extraOnly: true }],
    ['asgiref>=3.2 ; extra == "async"', { name: 'asgiref', specifier: '>=3.2', marker: 'extra == "async"', extraOnly: true }],
    [
      'pywin32>=300; sys_platform == "win32" and (extra == "win")',
      { name: 'pywin32', specifier: '>=300', marker: 'sys_platform == "win32" and (extra == "win")', extraOnly: true },
    ],
    ['requests[security,socks] >= 2.8.1, == 2.8.*', { name: 'requests', specifier: '>=2.8.1,==2.8.*', marker: null, extraOnly: false }],
    [
      'pip @ https://github.com/pypa/pip/archive/22.0.2.zip ; python_version >= "3.8"',
      { name: 'pip', specifier: '@ https://github.com/pypa/pip/archive/22.0.2.zip', marker: 'python_version >= "3.8"', extraOnly: false },
    ],
  ])('%s', (entry, expected) => {
    expect(parseRequirement(entry)).toEqual(expected);
  });

  test('lines that are not requirements are dropped', () => {
    expect(parseRequirement('')).toBeNull();
    expect(parseRequirement('-e git+https://example.org/x')).toBeNull();
    expect(parseRequirement('foo bar')).toBeNull();
    expect(splitRequirements(['click', '???', "x ; extra == 'y'"])).toEqual({
      runtime: [{ name: 'click', specifier: '', marker: null, extraOnly: false }],
      extras: [{ name: 'x', specifier: '', marker: "extra == 'y'", extraOnly: true }],
    });
    expect(splitRequirements(null)).toEqual({ runtime: [], extras: [] });
  });

  test.each([
    ['helper @ git+https://user:s3cr3t@git.example/evil/helper.git@main', '@ git+https://git.example/evil/helper.git@main', 'git'],
    ['helper@https://files.example/helper-1.0.tar.gz?token=s3cr3t#sha256=abc', '@ https://files.example/helper-1.0.tar.gz#sha256=abc', 'url'],
    ['helper @ git+ssh://git:s3cr3t@git.example:evil/helper.git', '@ git+ssh://git.example:evil/helper.git', 'git'],
    ['helper @ hg+https://hg.example/helper', '@ hg+https://hg.example/helper', 'vcs'],
    ['helper @ file:///opt/wheels/helper-1.0-py3-none-any.whl', '@ file:///opt/wheels/helper-1.0-py3-none-any.whl', 'file'],
  ])('a direct reference is kept without its credentials: %s', (entry, specifier, kind) => {
    const requirement = parseRequirement(entry);
    expect(requirement?.specifier).toBe(specifier);
    expect(directReferenceKind(specifier)).toBe(kind);
    expect(JSON.stringify(requirement)).not.toContain('s3cr3t');
  });

  test('a version specifier is no direct reference', () => {
    expect(directReferenceKind('>=1.0')).toBeNull();
    expect(directReferenceKind('')).toBeNull();
  });
});

describe('direct references in the facts', () => {
  test('runtime and extra-only ones are recorded apart, without credentials; version specifiers are not', () => {
    const project = PypiProjectJsonSchema.parse(JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'pypi', 'pypi', 'flask', 'json.json'), 'utf8')));
    const requires = [
      ...(project.info.requires_dist ?? []),
      'helper @ git+https://user:s3cr3t@git.example/evil/helper.git@main ; sys_platform == "linux"',
      'devtool @ https://files.example/devtool-1.0.tar.gz?token=s3cr3t ; extra == "dev"',
    ];
    const facts = buildPypiFacts({ project: { ...project, info: { ...project.info, requires_dist: requires } }, version: '3.1.3', release: null, simple: null });
    expect(facts.directReferences).toEqual([
      { name: 'helper', url: 'git+https://git.example/evil/helper.git@main', kind: 'git', extraOnly: false },
      { name: 'devtool', url: 'https://files.example/devtool-1.0.tar.gz', kind: 'url', extraOnly: true },
    ]);
    expect(facts.dependencies.find((d) => d.name === 'helper')?.specifier).toBe('@ git+https://git.example/evil/helper.git@main');
    expect(JSON.stringify(facts)).not.toContain('s3cr3t');
    expect(buildPypiFacts({ project, version: '3.1.3', release: null, simple: null }).directReferences).toEqual([]);
  });
});

describe('project links and repository', () => {
  test('flask-style project_urls: Source on GitHub, the rest by label', () => {
    const links = projectLinks({
      project_urls: {
        Changes: 'https://flask.palletsprojects.com/page/changes/',
        Chat: 'https://discord.gg/pallets',
        Documentation: 'https://flask.palletsprojects.com/',
        Source: 'https://github.com/pallets/flask/',
      },
      home_page: null,
    });
    expect(links).toEqual({
      projectUrls: {
        Changes: 'https://flask.palletsprojects.com/page/changes/',
        Chat: 'https://discord.gg/pallets',
        Documentation: 'https://flask.palletsprojects.com/',
        Source: 'https://github.com/pallets/flask/',
      },
      homepage: null,
      documentationUrl: 'https://flask.palletsprojects.com/',
      changelogUrl: 'https://flask.palletsprojects.com/page/changes/',
      issuesUrl: null,
      repository: { raw: 'https://github.com/pallets/flask/', host: 'github', url: 'https://github.com/pallets/flask', slug: 'pallets/flask', directory: null },
    });
  });

  test('labels are matched normalised; home_page joins projectUrls when it is new', () => {
    const links = projectLinks({
      project_urls: { 'Source Code': 'https://gitlab.com/group/proj', 'Bug Tracker': 'https://github.com/o/r/issues', 'release-notes': 'https://x.org/n' },
      home_page: 'https://x.org',
      bugtrack_url: null,
      docs_url: 'https://pythonhosted.org/x/',
    });
    expect(links.projectUrls.home_page).toBe('https://x.org');
    expect(links.homepage).toBe('https://x.org');
    expect(links.issuesUrl).toBe('https://github.com/o/r/issues');
    expect(links.changelogUrl).toBe('https://x.org/n');
    expect(links.documentationUrl).toBe('https://pythonhosted.org/x/');
    // A source label on GitLab beats a GitHub link that is only an issue tracker.
    expect(links.repository).toMatchObject({ host: 'gitlab', slug: 'group/proj' });
  });

  test('GitHub first among the source links; home_page counts as one', () => {
    const links = projectLinks({
      project_urls: { Repository: 'https://bitbucket.org/o/mirror', Homepage: 'https://example.org' },
      home_page: 'https://github.com/o/r',
    });
    expect(links.repository).toMatchObject({ host: 'github', slug: 'o/r' });
  });

  test('no repository host anywhere → null (not guessed)', () => {
    expect(projectLinks({ project_urls: { Homepage: 'http://pyyaml.org/wiki/PyYAML' }, home_page: 'UNKNOWN' }).repository).toBeNull();
    expect(projectLinks({ project_urls: null, home_page: null })).toMatchObject({ projectUrls: {}, repository: null, homepage: null });
  });

  test.each([
    ['https://github.com/psf/black/tree/main/src/black', 'psf/black', 'https://github.com/psf/black'],
    ['https://github.com/psf/black.git', 'psf/black', 'https://github.com/psf/black'],
    ['git+https://github.com/psf/black.git', 'psf/black', 'https://github.com/psf/black'],
    ['https://www.github.com/psf/black/blob/main/CHANGES.md', 'psf/black', 'https://github.com/psf/black'],
    ['https://gitlab.com/group/sub/proj/-/tree/main', 'group/sub/proj', 'https://gitlab.com/group/sub/proj'],
    ['https://bitbucket.org/o/r/src/master/', 'o/r', 'https://bitbucket.org/o/r'],
  ])('%s → %s', (raw, slug, url) => {
    expect(repositoryFromUrl(raw)).toMatchObject({ raw, slug, url });
  });

  test.each(['https://github.com/sponsors/someone', 'https://github.com/pallets', 'https://example.org/o/r', 'not a url', 'ftp://github.com/o/r'])(
    '%s → no repository',
    (raw) => {
      expect(repositoryFromUrl(raw)).toBeNull();
    },
  );
});

describe('Simple API: status and provenance', () => {
  const file = (filename: string, provenance?: string | null) => ({ filename, ...(provenance === undefined ? {} : { provenance }) });

  test('PEP 792 status and reason; provenance per file', () => {
    const facts = simpleFacts({
      meta: { 'api-version': '1.4' },
      name: 'sampleproject',
      files: [file('a.whl', 'https://pypi.org/integrity/x/1/a.whl/provenance'), file('a.tar.gz', null), file('old.tar.gz')],
      'project-status': { status: 'quarantined', reason: 'the project is haunted' },
    });
    expect(facts.status).toEqual({ status: 'quarantined', reason: 'the project is haunted' });
    expect([...facts.provenance]).toEqual([
      ['a.whl', true],
      ['a.tar.gz', false],
      ['old.tar.gz', null],
    ]);
  });

  test('status: missing key at api-version 1.4 means active; before 1.4 it is not said', () => {
    expect(simpleFacts({ meta: { 'api-version': '1.4' }, name: 'x', files: [] }).status).toEqual({ status: 'active', reason: null });
    expect(simpleFacts({ meta: { 'api-version': '1.1' }, name: 'x', files: [] }).status).toBeNull();
    expect(simpleFacts({ meta: { 'api-version': '1.4' }, name: 'x', files: [], 'project-status': { state: 'Archived', reason: null } }).status).toEqual({
      status: 'archived',
      reason: null,
    });
  });
});

describe('release list', () => {
  const f = (time: string | null, yanked = false, reason: string | null = null): PypiJsonFile => ({
    filename: 'x',
    packagetype: 'sdist',
    size: 1,
    upload_time_iso_8601: time,
    upload_time: null,
    yanked,
    yanked_reason: reason,
  });

  test('oldest first by earliest upload; file-less releases by PEP 440 among them', () => {
    const list = releaseList({
      '2.0': [f('2021-01-01T00:00:00Z'), f('2020-12-31T00:00:00.5Z')],
      '1.0': [f('2019-05-01T00:00:00Z')],
      '1.5': [],
      '3.0b1': [f('2022-01-01T00:00:00Z', true, 'broken'), f('2022-01-01T00:00:01Z', true)],
      '2.1': [f('2021-06-01T00:00:00Z', true), f('2021-06-01T00:00:00Z', false)],
    });
    expect(list).toEqual([
      { version: '1.0', time: '2019-05-01T00:00:00.000Z', prerelease: false, yanked: false, yankedReason: null, files: 1 },
      { version: '1.5', time: null, prerelease: false, yanked: false, yankedReason: null, files: 0 },
      { version: '2.0', time: '2020-12-31T00:00:00.500Z', prerelease: false, yanked: false, yankedReason: null, files: 2 },
      // One file of two yanked: the release is not (PEP 592 yanks per file).
      { version: '2.1', time: '2021-06-01T00:00:00.000Z', prerelease: false, yanked: false, yankedReason: null, files: 2 },
      { version: '3.0b1', time: '2022-01-01T00:00:00.000Z', prerelease: true, yanked: true, yankedReason: 'broken', files: 2 },
    ]);
    expect(latestRelease(list)).toBe('2.1');
    // A key that is not a PEP 440 version is never "latest".
    expect(latestRelease(releaseList({ 'dev-build': [f('2010-01-01T00:00:00Z')], '1.0': [f('2019-01-01T00:00:00Z')] }))).toBe('1.0');
  });

  test('an old answer without the ISO field uses upload_time as UTC', () => {
    const list = releaseList({ '0.12.2': [{ ...f(null), upload_time: '2015-11-25T18:29:51' }] });
    expect(list[0]?.time).toBe('2015-11-25T18:29:51.000Z');
  });
});

describe('capUtf8', () => {
  test('cuts on a character boundary within the byte budget', () => {
    expect(capUtf8('abc', 10)).toBe('abc');
    expect(capUtf8('ééé', 5)).toBe('éé');
    expect(capUtf8('a😀b', 4)).toBe('a');
    expect(capUtf8('a😀b', 5)).toBe('a😀');
  });
});

describe('the Simple API completes facts built without it', () => {
  function recorded<T extends z.ZodType>(file: string, schema: T): z.output<T> {
    const parsed = parseJsonBody(readFileSync(path.join(FIXTURES_ROOT, 'pypi', file)), schema);
    if (!parsed.ok) throw new Error(`${file}: ${parsed.reason}`);
    return parsed.data;
  }

  test('withSimpleFacts(facts built with simple: null) are the facts built with it (flask 3.1.3), in the same order', () => {
    const project = recorded('pypi/flask/json.json', PypiProjectJsonSchema);
    const simple = simpleFacts(recorded('simple/flask.json', PypiSimpleJsonSchema));
    const unknown = buildPypiFacts({ project, version: '3.1.3', release: null, simple: null });
    expect(unknown.status).toBeNull();
    expect(unknown.files.map((f) => f.hasProvenance)).toEqual([null, null]);
    const completed = withSimpleFacts(unknown, simple);
    expect(completed.status).toEqual({ status: 'active', reason: null });
    expect(completed.files.map((f) => f.hasProvenance)).toEqual([true, true]);
    expect(JSON.stringify(completed)).toBe(JSON.stringify(buildPypiFacts({ project, version: '3.1.3', release: null, simple })));
  });

  test('a file the Simple API does not list stays unknown (null), never false', () => {
    const project = recorded('pypi/flask/json.json', PypiProjectJsonSchema);
    const completed = withSimpleFacts(buildPypiFacts({ project, version: '3.1.3', release: null, simple: null }), { status: null, provenance: new Map() });
    expect(completed.files.map((f) => f.hasProvenance)).toEqual([null, null]);
  });
});
