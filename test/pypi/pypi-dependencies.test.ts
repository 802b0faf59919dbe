/**
 * Runtime requirements resolved as pip would install them today: one project-JSON request per
 * project, newest non-yanked final match, reasons for what cannot be resolved, and the source
 * unavailable only when most requests failed.
 */
import { describe, expect, test } from 'vitest';
import type { PypiFacts } from '../../src/evidence/schema.js';
import { MAX_PYPI_DEPENDENCIES } from '../../src/sources/pypi/dependencies.js';
import { resolvePypiDependencies } from '../../src/sources/pypi/project.js';
import { usePypiServer } from './helpers.js';

const ctx = usePypiServer();
type Dep = PypiFacts['dependencies'][number];
const dep = (name: string, specifier = '', marker: string | null = null): Dep => ({ name, specifier, marker });

/** A dependency's project JSON in PyPI's shape, reduced to what matters here: releases and their files. */
function projectJson(name: string, releases: Record<string, { yanked?: boolean; files?: number }>) {
  const file = (version: string, yanked: boolean, i: number) => ({
    filename: `${name}-${version}${i === 0 ? '.tar.gz' : '-py3-none-any.whl'}`,
    packagetype: i === 0 ? 'sdist' : 'bdist_wheel',
    size: 1000,
    upload_time_iso_8601: '2024-01-01T00:00:00.000000Z',
    yanked,
    yanked_reason: yanked ? 'broken' : null,
  });
  return {
    info: { name, version: Object.keys(releases).at(-1) },
    releases: Object.fromEntries(
      Object.entries(releases).map(([version, r]) => [version, Array.from({ length: r.files ?? 2 }, (_, i) => file(version, r.yanked ?? false, i))]),
    ),
    urls: [],
    vulnerabilities: [],
  };
}

const WERKZEUG = projectJson('werkzeug', { '3.0.6': {}, '3.1.0': {}, '3.1.3': {}, '3.1.4': { yanked: true }, '3.2.0rc1': {} });
const CLICK = projectJson('click', { '8.1.3': {}, '8.1.8': {}, '8.2.0': { files: 0 } });

describe('resolvePypiDependencies', () => {
  test('newest non-yanked final release matching each specifier; markers do not matter', async () => {
    ctx.server.expect('GET', '/pypi/pypi/werkzeug/json', { body: WERKZEUG, times: 1 });
    ctx.server.expect('GET', '/pypi/pypi/click/json', { body: CLICK, times: 1 });
    const result = await resolvePypiDependencies(ctx.http, ctx.pypi, [
      dep('Werkzeug', '>=3.1.0'),
      dep('click', '>=8.1.3', "python_version < '3.10'"),
      dep('werkzeug', '<3.1'),
    ]);
    expect(result).toEqual({
      status: 'ok',
      facts: {
        dependencies: [
          { name: 'Werkzeug', range: '>=3.1.0', version: '3.1.3', reason: null, securityHolding: false },
          { name: 'click', range: '>=8.1.3', version: '8.1.8', reason: null, securityHolding: false },
          { name: 'werkzeug', range: '<3.1', version: '3.0.6', reason: null, securityHolding: false },
        ],
      },
    });
    // One request per project (PEP 503 names), however often it is required.
    expect(ctx.paths().sort()).toEqual(['/pypi/pypi/click/json', '/pypi/pypi/werkzeug/json']);
    expect(ctx.server.pending()).toEqual([]);
  });

  test('not found, nothing matching, a direct URL reference: version null with the reason', async () => {
    ctx.server.expect('GET', '/pypi/pypi/werkzeug/json', { body: WERKZEUG });
    ctx.server.expect('GET', '/pypi/pypi/gone/json', { status: 404 });
    const result = await resolvePypiDependencies(ctx.http, ctx.pypi, [
      dep('werkzeug', '>=4'),
      dep('gone', '>=1'),
      dep('pip', '@ https://github.com/pypa/pip/archive/22.0.2.zip'),
      dep('werkzeug', '~=3.1.4'),
    ]);
    expect(result.status === 'ok' && result.facts.dependencies).toEqual([
      { name: 'werkzeug', range: '>=4', version: null, reason: 'no release matches ">=4"', securityHolding: false },
      { name: 'gone', range: '>=1', version: null, reason: 'not found on PyPI', securityHolding: false },
      { name: 'pip', range: '@ https://github.com/pypa/pip/archive/22.0.2.zip', version: null, reason: 'a direct URL reference, not a PyPI release', securityHolding: false },
      { name: 'werkzeug', range: '~=3.1.4', version: null, reason: expect.stringMatching(/^only yanked/), securityHolding: false },
    ]);
    expect(ctx.paths()).not.toContain('/pypi/pypi/pip/json');
  });

  test('no dependencies → no request', async () => {
    expect(await resolvePypiDependencies(ctx.http, ctx.pypi, [])).toEqual({ status: 'ok', facts: { dependencies: [] } });
    expect(ctx.paths()).toEqual([]);
  });

  test('a minority of failed fetches is data; a majority makes the source unavailable', async () => {
    ctx.server.expect('GET', '/pypi/pypi/werkzeug/json', { body: WERKZEUG });
    ctx.server.expect('GET', '/pypi/pypi/click/json', { body: CLICK });
    ctx.server.expect('GET', '/pypi/pypi/broken/json', { malformed: true });
    const some = await resolvePypiDependencies(ctx.http, ctx.pypi, [dep('werkzeug'), dep('click'), dep('broken')]);
    expect(some.status === 'ok' && some.facts.dependencies.map((d) => [d.name, d.version, d.reason])).toEqual([
      ['werkzeug', '3.1.3', null],
      ['click', '8.1.8', null],
      ['broken', null, 'project JSON: malformed JSON'],
    ]);

    ctx.server.expect('GET', '/pypi/pypi/down/json', { status: 503 });
    const most = await resolvePypiDependencies(ctx.http, ctx.pypi, [dep('werkzeug'), dep('broken'), dep('down')]);
    expect(most).toEqual({ status: 'unavailable', reason: expect.stringMatching(/^2 of 3 dependency projects could not be fetched \(broken: /), code: 'bad-answer' });
  });

  test(`more than ${MAX_PYPI_DEPENDENCIES} requirements: the rest are listed unresolved, without requests`, async () => {
    const deps = Array.from({ length: MAX_PYPI_DEPENDENCIES + 2 }, (_, i) => dep(`dep-${i}`));
    for (let i = 0; i < MAX_PYPI_DEPENDENCIES; i++) ctx.server.expect('GET', `/pypi/pypi/dep-${i}/json`, { body: projectJson(`dep-${i}`, { '1.0': {} }) });
    const result = await resolvePypiDependencies(ctx.http, ctx.pypi, deps, { concurrency: 8 });
    if (result.status !== 'ok') throw new Error(result.reason);
    expect(result.facts.dependencies.filter((d) => d.version === '1.0')).toHaveLength(MAX_PYPI_DEPENDENCIES);
    expect(result.facts.dependencies.slice(-2)).toEqual([
      { name: `dep-${MAX_PYPI_DEPENDENCIES}`, range: '', version: null, reason: `not resolved: more than ${MAX_PYPI_DEPENDENCIES} runtime dependencies`, securityHolding: false },
      { name: `dep-${MAX_PYPI_DEPENDENCIES + 1}`, range: '', version: null, reason: `not resolved: more than ${MAX_PYPI_DEPENDENCIES} runtime dependencies`, securityHolding: false },
    ]);
    expect(ctx.server.requests).toHaveLength(MAX_PYPI_DEPENDENCIES);
  });
});
