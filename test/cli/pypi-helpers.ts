/**
 * Set-up for the end-to-end PyPI CLI tests: the fixture projects under fixtures/http/pypi and
 * every route one `nerq check pypi:<project>` requests — the project JSON, a release's own JSON
 * when the resolved version is not the latest (built here from the recorded project JSON), the
 * Simple API's JSON form, PEP 740 provenance, pypistats, the runtime dependencies' project
 * JSONs, OSV, and GitHub (rate-limited unless the test serves a repository).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FixtureResponse, FixtureServer, RouteHandler } from '../support/fixture-server.js';
import { FIXTURES_ROOT } from '../support/fixture-server.js';
import { githubAnswers, osvNoAdvisories } from './helpers.js';

export interface PypiFixtureProject {
  /** The project as its files are named under fixtures/http/pypi (PEP 503 form). */
  project: string;
  /** What is typed after `nerq check`. */
  input: string;
  /** The version the input resolves to. */
  version: string;
  /** Whether the resolved release's own JSON is asked for (not the one the project JSON describes). */
  releaseJson: boolean;
  /** The provenance object asked for, when a file of the release has one. */
  provenance: string | null;
  /**
   * Runtime dependencies (PEP 503 names): each answered with a synthetic project JSON holding the
   * given versions, or `'missing'` (404, as PyPI answers for a project it does not have).
   */
  dependencies: Record<string, string[] | 'missing'>;
}

/** The seven fixture projects, as the CLI table test checks them. */
export const PYPI_PROJECTS: readonly PypiFixtureProject[] = [
  {
    project: 'flask',
    input: 'pypi:flask',
    version: '3.1.3',
    releaseJson: false,
    provenance: '/pypi/integrity/flask/3.1.3/flask-3.1.3.tar.gz/provenance',
    dependencies: {
      blinker: ['1.8.2', '1.9.0'],
      click: ['8.1.7', '8.1.8', '8.2.0'],
      'importlib-metadata': ['8.5.0', '8.6.1'],
      itsdangerous: ['2.1.2', '2.2.0'],
      jinja2: ['3.1.5', '3.1.6'],
      markupsafe: ['2.1.5', '3.0.2'],
      werkzeug: ['3.1.2', '3.1.3'],
    },
  },
  {
    project: 'black',
    input: 'pypi:black==21.11b0',
    version: '21.11b0',
    releaseJson: true,
    provenance: null,
    // PyPI answers 404 for each: the dependencies are listed unresolved, with the reason.
    dependencies: Object.fromEntries(
      ['click', 'platformdirs', 'tomli', 'regex', 'pathspec', 'typing-extensions', 'mypy-extensions', 'dataclasses', 'typed-ast'].map((n) => [n, 'missing' as const]),
    ),
  },
  { project: 'trackpy', input: 'pypi:trackpy', version: '0.4.1', releaseJson: false, provenance: null, dependencies: {} },
  { project: 'filecache', input: 'pypi:filecache', version: '0.81', releaseJson: false, provenance: null, dependencies: {} },
  { project: 'nerq-fixture-inactive', input: 'pypi:nerq-fixture-inactive', version: '1.2.0', releaseJson: false, provenance: null, dependencies: {} },
  { project: 'nerq-fixture-freetext', input: 'pypi:nerq-fixture-freetext', version: '2.0.0', releaseJson: false, provenance: null, dependencies: {} },
  { project: 'nerq-fixture-archived', input: 'pypi:nerq-fixture-archived', version: '1.3.0', releaseJson: false, provenance: null, dependencies: {} },
];

export function pypiProject(project: string): PypiFixtureProject {
  const found = PYPI_PROJECTS.find((p) => p.project === project);
  if (found === undefined) throw new Error(`no PyPI fixture project ${project}`);
  return found;
}

export const projectJsonPath = (project: string): string => `/pypi/pypi/${project}/json`;
export const releaseJsonPath = (project: string, version: string): string => `/pypi/pypi/${project}/${version}/json`;
export const simplePath = (project: string): string => `/pypi/simple/${project}/`;
export const pypistatsPath = (project: string): string => `/pypistats/packages/${project}/recent`;

type Json = Record<string, unknown>;

function recordedProject(project: string): Json {
  return JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'pypi', 'pypi', project, 'json.json'), 'utf8')) as Json;
}

/**
 * A release's own JSON (`/pypi/<project>/<version>/json`), built from the recorded project
 * JSON as PyPI shapes it: the info with that version, the release's files as `urls`, and the
 * advisories PyPI lists for it.
 */
export function releaseJsonFrom(project: string, version: string, vulnerabilities: Json[] = []): Json {
  const recorded = recordedProject(project);
  const files = (recorded.releases as Record<string, Json[]>)[version];
  if (files === undefined) throw new Error(`${project} has no release ${version} in its recorded JSON`);
  const info = recorded.info as Json;
  const yanked = files.length > 0 && files.every((f) => f.yanked === true);
  return {
    info: {
      ...info,
      version,
      release_url: `https://pypi.org/project/${String(info.name)}/${version}/`,
      yanked,
      yanked_reason: yanked ? (files[0]?.yanked_reason ?? null) : null,
    },
    last_serial: recorded.last_serial,
    urls: files,
    vulnerabilities,
  };
}

/**
 * PyPI's own advisory entry for flask 2.3.0 / 2.3.1 (the JSON API's `vulnerabilities`, after
 * PYSEC-2023-62 in fixtures/http/osv/v1/vulns).
 */
export const FLASK_PYSEC_2023_62: Json = {
  aliases: ['CVE-2023-30861', 'GHSA-m2qf-hxjv-5gpq'],
  details: 'Flask is a lightweight WSGI web application framework. When all of the following conditions are met, a response containing data intended for one client may be cached and subsequently sent by the proxy to other clients.',
  fixed_in: ['2.2.5', '2.3.2'],
  id: 'PYSEC-2023-62',
  link: 'https://osv.dev/vulnerability/PYSEC-2023-62',
  source: 'osv',
  summary: null,
  withdrawn: null,
};

/** A dependency's project JSON: just its releases (one wheel each), as dependency resolution reads it. */
export function syntheticDependency(project: string, versions: readonly string[]): Json {
  const file = (version: string): Json => ({
    filename: `${project.replace(/-/g, '_')}-${version}-py3-none-any.whl`,
    packagetype: 'bdist_wheel',
    size: 20_000,
    upload_time_iso_8601: '2025-01-01T00:00:00.000000Z',
    yanked: false,
    yanked_reason: null,
  });
  const latest = versions[versions.length - 1] ?? '1.0';
  return {
    info: { name: project, version: latest },
    releases: Object.fromEntries(versions.map((v) => [v, [file(v)]])),
    urls: [file(latest)],
    vulnerabilities: [],
  };
}

export interface PypiRouteOverrides {
  /** OSV's querybatch (default: no advisory for any query). */
  osv?: RouteHandler;
  /** The release's own JSON, when the fixture asks for one (default: the recorded one, else built by releaseJsonFrom). */
  releaseJson?: FixtureResponse;
  /** Every GitHub request (default: the hourly budget is spent). */
  github?: FixtureResponse | 'served-by-test';
}

/** Declare every route `check <fixture.input>` requests. */
export function expectPypiProject(server: FixtureServer, fixture: PypiFixtureProject, overrides: PypiRouteOverrides = {}): void {
  const { project } = fixture;
  server.expect('GET', projectJsonPath(project));
  server.expect('GET', simplePath(project));
  if (fixture.releaseJson) {
    // A recorded release JSON (black 21.11b0) is served as is; otherwise one is built.
    const recorded = existsSync(path.join(FIXTURES_ROOT, 'pypi', 'pypi', project, fixture.version, 'json.json'));
    const built: FixtureResponse = recorded ? {} : { body: releaseJsonFrom(project, fixture.version) };
    server.expect('GET', releaseJsonPath(project, fixture.version), overrides.releaseJson ?? built);
  }
  if (fixture.provenance !== null) server.expect('GET', fixture.provenance);
  server.expect('GET', pypistatsPath(project));
  expectDependencies(server, fixture.dependencies);
  server.route('POST', '/osv/v1/querybatch', overrides.osv ?? osvNoAdvisories);
  if (overrides.github !== 'served-by-test') {
    githubAnswers(server, overrides.github);
  }
}

export function expectDependencies(server: FixtureServer, dependencies: PypiFixtureProject['dependencies']): void {
  for (const [name, versions] of Object.entries(dependencies)) {
    server.expect('GET', projectJsonPath(name), versions === 'missing' ? { status: 404, body: { message: 'Not Found' } } : { body: syntheticDependency(name, versions) });
  }
}

interface OsvQuery {
  package: { name: string; ecosystem: string };
  version: string;
}

/** OSV answering `ids` for one package version and nothing for every other query. */
export function osvAdvisoriesFor(ecosystem: string, name: string, version: string, ids: readonly string[]): RouteHandler {
  return (_req, res, { body }) => {
    const queries = (JSON.parse(body.toString('utf8')) as { queries: OsvQuery[] }).queries;
    const results = queries.map((q) =>
      q.package.ecosystem === ecosystem && q.package.name === name && q.version === version
        ? { vulns: ids.map((id) => ({ id, modified: '2024-09-20T05:28:57Z' })) }
        : {},
    );
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ results }));
  };
}
