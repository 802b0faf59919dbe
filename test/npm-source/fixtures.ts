/** Read the recorded npm fixtures (fixtures/http/npm/…) for tests, placeholder filled in. */
import { readFileSync } from 'node:fs';

const NPM_FIXTURES = new URL('../../fixtures/http/npm/', import.meta.url);
export const TEST_REGISTRY = 'http://127.0.0.1:9/npm';

/** The recorded packument of `name`, with `{{REGISTRY}}` replaced by a loopback origin. */
export function loadPackument(name: string): Record<string, unknown> {
  const text = readFileSync(new URL(`${name}.json`, NPM_FIXTURES), 'utf8');
  return JSON.parse(text.replaceAll('{{REGISTRY}}', TEST_REGISTRY)) as Record<string, unknown>;
}

/** A recorded tarball: fixtures/http/npm/<name>/-/<basename>-<version>.tgz. */
export function loadTarball(name: string, version: string): Buffer {
  const base = name.split('/').at(-1) ?? name;
  return readFileSync(new URL(`${name}/-/${base}-${version}.tgz`, NPM_FIXTURES));
}
