/**
 * A local entry (a folder, link, portal or script of the project, no registry's) is placed as
 * the reader places its packages — direct where a manifest or importer declares it, dev-only when
 * only development roots reach it — and what it depends on is reached through it. Texts are
 * hand-written in the shapes each tool writes (yarn 4 binds a relative path to the package that
 * names it, `fil@file:./x::locator=app%40workspace%3A.`; pnpm 9 keys a folder `name@file:dir`);
 * the real lockfiles of test/lockfiles/real-lockfiles.test.ts (vitejs/vite) hold the pnpm shape.
 */
import { describe, expect, it } from 'vitest';
import { readInputText } from '../../../src/lockfiles/index.js';

const packageJson = `{
  "name": "app",
  "dependencies": { "fil": "file:./vendor/fil", "port": "portal:./vendor/port", "ex": "exec:./gen.js" },
  "devDependencies": { "lnk": "link:./vendor/lnk" }
}
`;

const yarnBerry = `__metadata:
  version: 8
  cacheKey: 10c0

"app@workspace:.":
  version: 0.0.0-use.local
  resolution: "app@workspace:."
  dependencies:
    ex: "exec:./gen.js"
    fil: "file:./vendor/fil"
    lnk: "link:./vendor/lnk"
    port: "portal:./vendor/port"
  languageName: unknown
  linkType: soft

"ex@exec:./gen.js::locator=app%40workspace%3A.":
  version: 0.0.0-use.local
  resolution: "ex@exec:./gen.js#./gen.js::hash=0a1b2c&locator=app%40workspace%3A."
  languageName: node
  linkType: hard

"fil@file:./vendor/fil::locator=app%40workspace%3A.":
  version: 1.0.0
  resolution: "fil@file:./vendor/fil#./vendor/fil::hash=3d4e5f&locator=app%40workspace%3A."
  dependencies:
    leaf: "npm:^1.0.0"
  languageName: node
  linkType: hard

"leaf@npm:^1.0.0":
  version: 1.0.1
  resolution: "leaf@npm:1.0.1"
  checksum: 10c0/dd
  languageName: node
  linkType: hard

"lnk@link:./vendor/lnk::locator=app%40workspace%3A.":
  version: 0.0.0-use.local
  resolution: "lnk@link:./vendor/lnk::locator=app%40workspace%3A."
  languageName: node
  linkType: soft

"port@portal:./vendor/port::locator=app%40workspace%3A.":
  version: 0.0.0-use.local
  resolution: "port@portal:./vendor/port::locator=app%40workspace%3A."
  languageName: node
  linkType: soft
`;

const pnpmV9 = `lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      fil:
        specifier: file:vendor/fil
        version: file:vendor/fil
    devDependencies:
      devfil:
        specifier: file:vendor/devfil
        version: file:vendor/devfil

packages:

  devfil@file:vendor/devfil:
    resolution: {directory: vendor/devfil, type: directory}

  fil@file:vendor/fil:
    resolution: {directory: vendor/fil, type: directory}

  leaf@1.0.1:
    resolution: {integrity: sha512-AAAA}

snapshots:

  devfil@file:vendor/devfil: {}

  fil@file:vendor/fil:
    dependencies:
      leaf: 1.0.1

  leaf@1.0.1: {}
`;

const uvLock = `version = 1
revision = 3
requires-python = ">=3.12"

[[package]]
name = "app"
version = "0.1.0"
source = { editable = "." }
dependencies = [
    { name = "sibling" },
]

[package.dev-dependencies]
dev = [
    { name = "tools" },
]

[[package]]
name = "leaf"
version = "1.0.1"
source = { registry = "https://pypi.org/simple" }
sdist = { url = "https://files.example.com/leaf-1.0.1.tar.gz", hash = "sha256:aa", size = 10 }

[[package]]
name = "sibling"
version = "0.2.0"
source = { editable = "../sibling" }
dependencies = [
    { name = "leaf" },
]

[[package]]
name = "tools"
version = "0.3.0"
source = { directory = "../tools" }
`;

const standing = (input: ReturnType<typeof readInputText>) => Object.fromEntries((input.skipped ?? []).map((s) => [s.name, [s.kind, s.direct, s.dev]]));

describe('local entries are placed like packages', () => {
  it('yarn 4: file:, portal:, link: and exec: entries bound to the workspace are its direct dependencies', () => {
    const input = readInputText(yarnBerry, 'yarn.lock', { manifests: { 'package.json': packageJson } });
    expect(standing(input)).toEqual({
      ex: ['local', true, false],
      fil: ['local', true, false],
      lnk: ['local', true, true],
      port: ['local', true, false],
    });
    // leaf is needed by the production folder fil: production, not direct.
    expect(input.dependencies.map((d) => [d.name, d.version, d.direct, d.dev])).toEqual([['leaf', '1.0.1', false, false]]);
    // The folder each names, without yarn's `#…::hash=…&locator=…` suffixes.
    expect((input.skipped ?? []).map((s) => s.source)).toEqual(['exec:./gen.js', 'file:./vendor/fil', 'link:./vendor/lnk', 'portal:./vendor/port']);
  });

  it('pnpm 9: an importer file: folder is direct, dev only under devDependencies, and its dependencies are production', () => {
    const input = readInputText(pnpmV9, 'pnpm-lock.yaml');
    expect(standing(input)).toEqual({ devfil: ['local', true, true], fil: ['local', true, false] });
    expect(input.dependencies.map((d) => [d.name, d.version, d.direct, d.dev])).toEqual([['leaf', '1.0.1', false, false]]);
  });

  it('uv: an editable of another folder than the project (no workspace member) is a local path dependency, not the project', () => {
    // `sibling = { path = "../sibling", editable = true }` in [tool.uv.sources] locks as `source = { editable = "../sibling" }`.
    const input = readInputText(uvLock, 'uv.lock');
    expect(standing(input)).toEqual({ sibling: ['local', true, false], tools: ['local', true, true] });
    // leaf is what sibling needs: production, not declared by the project.
    expect(input.dependencies.map((d) => [d.name, d.version, d.direct, d.dev])).toEqual([['leaf', '1.0.1', false, false]]);
  });
});
