/** Lockfiles for tests, as the package managers write them for one dependency of the root project. */

interface BerryEntry {
  name: string;
  /** The range the root workspace declares, as `npm:<range>` (unless `declared` says otherwise). */
  range?: string;
  /** The entry's key, as yarn writes it (default `<name>@npm:<range>`). */
  key?: string;
  /** What the root workspace declares (default `npm:<range>`). */
  declared?: string;
  /** What the lockfile says was locked: its version, its resolution and, when given, its checksum. */
  version: string;
  resolution: string;
  checksum?: string;
}

/** A yarn berry (v4) lockfile. */
export function berryLock({ name, range, key = `${name}@npm:${range}`, declared = `npm:${range}`, version, resolution, checksum }: BerryEntry): string {
  return [
    '__metadata:',
    '  version: 8',
    '  cacheKey: 10c0',
    '',
    `"${key}":`,
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
    `    "${name}": "${declared}"`,
    '  languageName: unknown',
    '  linkType: soft',
    '',
  ].join('\n');
}

/** A pnpm v9 lockfile: `name` declared as `range`, locked at `version` with the given `resolution` object's text (`{integrity: …}`). */
export function pnpmV9Lock({ name, range, version, resolution }: { name: string; range: string; version: string; resolution: string }): string {
  return [
    "lockfileVersion: '9.0'",
    'importers:',
    '  .:',
    '    dependencies:',
    `      ${name}:`,
    `        specifier: ${range}`,
    `        version: ${version}`,
    'packages:',
    `  ${name}@${version}:`,
    `    resolution: ${resolution}`,
    'snapshots:',
    `  ${name}@${version}: {}`,
    '',
  ].join('\n');
}

/** A uv.lock of an app depending on flask 3.1.3, whose entry ends with `flaskLines` (its source and wheels). */
export function uvLock(...flaskLines: string[]): string {
  return [
    'version = 1',
    'revision = 3',
    '',
    '[[package]]',
    'name = "app"',
    'version = "0.1.0"',
    'source = { virtual = "." }',
    'dependencies = [{ name = "flask" }]',
    '',
    '[[package]]',
    'name = "flask"',
    'version = "3.1.3"',
    ...flaskLines,
    '',
  ].join('\n');
}
