/** A yarn berry (v4) lockfile for tests: what `yarn install` writes for one dependency of the root workspace. */

interface BerryEntry {
  name: string;
  /** The range the root workspace declares, as `npm:<range>`. */
  range: string;
  /** What the lockfile says was locked: its version, its resolution and, when given, its checksum. */
  version: string;
  resolution: string;
  checksum?: string;
}

export function berryLock({ name, range, version, resolution, checksum }: BerryEntry): string {
  return [
    '__metadata:',
    '  version: 8',
    '  cacheKey: 10c0',
    '',
    `"${name}@npm:${range}":`,
    `  version: ${version}`,
    `  resolution: "${resolution}"`,
    ...(checksum === undefined ? [] : [`  checksum: ${checksum}`]),
    '  languageName: node',
    '  linkType: hard',
    '',
    '"app@workspace:.":',
    '  version: 0.0.0-use.local',
    '  resolution: "app@workspace:."',
    '  dependencies:',
    `    "${name}": "npm:${range}"`,
    '  languageName: unknown',
    '  linkType: soft',
    '',
  ].join('\n');
}
