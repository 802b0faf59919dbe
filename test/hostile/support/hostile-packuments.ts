/**
 * Hostile packuments: chalk's recorded packument (placeholders kept) bent out of shape — tens
 * of thousands of versions, deeply nested JSON, prototype-polluting keys, wrong types where
 * strings belong, impossible dates, numbers past what JavaScript can hold. Each keeps
 * `dist-tags.latest` → 4.1.0 resolvable, so the CLI gets past resolution and into the facts.
 */
import { recordedPackument, VERSION } from './sources.js';

type Json = Record<string, unknown>;

function latestManifest(packument: Json): Json {
  return (packument.versions as Record<string, Json>)[VERSION] as Json;
}

/** `count` extra versions (0.x.y, all older than 4.1.0), each with a publish time. */
export function manyVersions(count: number): Json {
  const packument = recordedPackument() as Json;
  const versions = packument.versions as Record<string, Json>;
  const time = packument.time as Record<string, string>;
  const start = Date.parse('2010-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    const version = `0.${Math.floor(i / 1000)}.${i % 1000}`;
    versions[version] = { name: 'chalk', version, dist: { tarball: `{{REGISTRY}}/chalk/-/chalk-${version}.tgz` }, _npmUser: { name: `publisher${i % 7}` } };
    time[version] = new Date(start + i * 60_000).toISOString();
  }
  return packument;
}

/** `{"a":{"a":…}}` `depth` levels deep, as JSON text (JSON.stringify could not build it). */
export function nestedObjectText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/**
 * The packument as JSON text with deeply nested values where objects are expected (an
 * `exports` map, `repository`, `bugs`, `engines`, `dependencies`-free `scripts`…) and at the
 * top level, `depth` levels each.
 */
export function deeplyNestedText(depth: number): string {
  const packument = recordedPackument() as Json;
  const manifest = latestManifest(packument);
  const marker = (key: string): string => `"@@DEEP-${key}@@"`;
  for (const key of ['exports', 'repository', 'bugs', 'engines', 'scripts', 'license', 'bin', 'types', 'publishConfig']) manifest[key] = marker(key).slice(1, -1);
  packument.deep = marker('top').slice(1, -1);
  packument.readme = marker('readme').slice(1, -1);
  let text = JSON.stringify(packument);
  const deepObject = nestedObjectText(depth);
  const deepArray = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  for (const key of ['exports', 'repository', 'bugs', 'engines', 'scripts', 'top', 'publishConfig']) text = text.replace(marker(key), deepObject);
  for (const key of ['license', 'bin', 'types', 'readme']) text = text.replace(marker(key), deepArray);
  return text;
}

/** `__proto__`, `constructor` and `prototype` keys wherever the packument has a map. */
export function prototypeKeysText(): string {
  const packument = recordedPackument() as Json;
  const manifest = latestManifest(packument);
  // Written as text: an object literal's `__proto__` would set a prototype, not a key.
  const polluting = '{"__proto__":{"polluted":"yes","isAdmin":true},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}';
  const marker = '"@@POLLUTE@@"';
  manifest.engines = '@@POLLUTE@@';
  manifest.scripts = '@@POLLUTE@@';
  manifest.exports = '@@POLLUTE@@';
  manifest.repository = '@@POLLUTE@@';
  (manifest.dist as Json).attestations = '@@POLLUTE@@';
  packument.time = { ...(packument.time as Json), polluteMarker: '@@POLLUTE@@' };
  let text = JSON.stringify(packument);
  text = text.replaceAll(marker, polluting);
  // Maps whose keys are names: dist-tags, versions, dependencies.
  text = text.replace('"dist-tags":{', '"dist-tags":{"__proto__":"4.1.0","constructor":"4.1.0",');
  text = text.replace('"versions":{', '"versions":{"__proto__":{"name":"chalk","version":"9.9.9","polluted":"yes"},"constructor":{"name":"chalk","version":"9.9.8"},');
  text = text.replace(`"version":"${VERSION}",`, `"version":"${VERSION}","__proto__":{"deprecated":"polluted"},"constructor":{"deprecated":"polluted"},`);
  return text;
}

/** Every field nerq reads given the wrong type (numbers, arrays, objects, booleans, null). */
export function wrongTypes(): Json {
  const packument = recordedPackument() as Json;
  const manifest = latestManifest(packument);
  Object.assign(packument, {
    name: 42,
    description: { text: 'not a string' },
    maintainers: 'sindresorhus',
    time: ['2020-06-09T00:00:00.000Z'],
    repository: 17,
    readme: false,
    keywords: 'a,b,c',
    license: ['MIT'],
  });
  Object.assign(manifest, {
    name: ['chalk'],
    description: 99,
    license: { type: { nested: 'MIT' } },
    licenses: 'MIT',
    repository: ['https://github.com/chalk/chalk'],
    homepage: { url: 'https://example.test' },
    bugs: 12,
    keywords: [1, null, { k: 'v' }, 'ok'],
    engines: ['node >= 10'],
    dependencies: ['ansi-styles', 'supports-color'],
    devDependencies: 'many',
    scripts: ['postinstall'],
    bin: 7,
    types: true,
    typings: [],
    exports: 5,
    deprecated: { message: 'an object' },
    _npmUser: 'sindresorhus',
    gypfile: 'yes',
  });
  Object.assign(manifest.dist as Json, { fileCount: '7', unpackedSize: [33631], signatures: 'signed', attestations: 'yes' });
  return packument;
}

/** Dates that do not exist or cannot be represented. */
export function invalidDates(): Json {
  const packument = recordedPackument() as Json;
  const time = packument.time as Record<string, unknown>;
  Object.assign(time, {
    created: 'not a date',
    modified: '+275760-09-13T00:00:00.001Z',
    [VERSION]: '2020-02-30T25:61:61Z',
    '4.0.0': '9999-99-99',
    '3.0.0': 1591660800000,
    '2.4.2': '-000001-01-01T00:00:00Z',
    '2.4.1': '2020-06-09T00:00:00.000+99:99',
    '1.0.0': '',
  });
  return packument;
}

/** Numbers past the safe integer range, infinities (1e400 parses to Infinity), negatives, fractions. */
export function hugeNumbersText(): string {
  const packument = recordedPackument() as Json;
  const manifest = latestManifest(packument);
  Object.assign(manifest.dist as Json, { fileCount: '@@N1@@', unpackedSize: '@@N2@@' });
  manifest.gypfile = '@@N3@@';
  packument.maintainers = '@@N4@@';
  packument.versions = { ...(packument.versions as Json), '99999999999999999999.0.0': { name: 'chalk', version: '99999999999999999999.0.0' } };
  let text = JSON.stringify(packument);
  text = text
    .replace('"@@N1@@"', '1e400')
    .replace('"@@N2@@"', '-9007199254740993')
    .replace('"@@N3@@"', '1.7976931348623157e309')
    .replace('"@@N4@@"', '123456789012345678901234567890');
  return text;
}
