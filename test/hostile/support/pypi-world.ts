/**
 * The healthy PyPI world of the fault suite: `pypi:flask` exactly as `test/cli/check-pypi.test.ts`
 * serves it (test/cli/pypi-helpers.ts) — the project JSON, the Simple API's JSON form, the PEP 740
 * provenance of the sdist, pypistats, the seven runtime dependencies' project JSONs and OSV.
 */
import type { FixtureServer } from '../../support/fixture-server.js';
import { expectPypiProject, projectJsonPath, pypiProject, syntheticDependency } from '../../cli/pypi-helpers.js';
import { recordedAnswer } from './recorded.js';

export const FLASK = pypiProject('flask');

const provenance = FLASK.provenance;
if (provenance === null) throw new Error('the flask fixture lists no provenance object');
/** The Integrity API route of flask 3.1.3's sdist. */
export const PROVENANCE_PATH: string = provenance;

export function flaskWorld(server: FixtureServer): void {
  expectPypiProject(server, FLASK);
}

/** The project-JSON routes of flask's runtime dependencies (each answered with a synthetic project). */
export function flaskDependencyPaths(): string[] {
  return Object.keys(FLASK.dependencies).map(projectJsonPath);
}

/** The healthy answer of a route of this world (placeholders filled for `server`). */
export function pypiSample(server: FixtureServer, route: string): Buffer {
  for (const [name, versions] of Object.entries(FLASK.dependencies)) {
    if (route === projectJsonPath(name) && versions !== 'missing') return Buffer.from(JSON.stringify(syntheticDependency(name, versions)));
  }
  return recordedAnswer(server, route);
}
