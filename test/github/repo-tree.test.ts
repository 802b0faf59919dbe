/** Which files of a repository's tree matter (pure): another ecosystem's manifests are listed, never read. */
import { readFileSync } from 'node:fs';
import { selectFolderFiles } from '../../src/sources/github/repo-folder.js';
import { describe, expect, it } from 'vitest';
import { CARGO_WITHOUT_LOCK, MAX_LICENSE_FILES, MAX_LICENSE_MANIFESTS, MAX_MODULE_FILES, memberChangelog, selectRepoFiles, type RepoTreeItem } from '../../src/sources/github/repo-tree.js';

const blob = (path: string): RepoTreeItem => ({ path, type: 'blob', size: 100 });

describe('selectRepoFiles', () => {
  it('names the manifests of ecosystems nerq does not evaluate, in published folders only, without reading them', () => {
    const selection = selectRepoFiles(['go.mod', 'go.sum', 'ui/package.json', 'ui/package-lock.json', 'crates/core/Cargo.toml', 'e2e/go.mod', 'examples/demo/Gemfile', 'lib/Gemfile', 'third-party/x/go.mod', 'README.md'].map(blob));
    expect(selection.unevaluated).toEqual([{ path: 'lib/Gemfile', ecosystem: 'RubyGems' }]);
    expect(selection.manifests.map((m) => m.path)).toEqual(['ui/package.json']);
    expect(selection.lockfiles).toEqual(['ui/package-lock.json']);
    // go.mod is read (its requires are the pins), then the Cargo.toml no Cargo.lock pins (its
    // requirements are resolved against crates.io's index); go.sum, a test module and vendored code are not.
    expect(selection.moduleFiles).toEqual(['go.mod', 'crates/core/Cargo.toml']);
  });

  it('Cargo.toml files no Cargo.lock pins are read after the pins, root first; those beyond MAX_MODULE_FILES are named, not read', () => {
    const tree = ['go.mod', 'Cargo.toml', 'crates/a/Cargo.toml', 'crates/b/Cargo.toml', 'crates/c/Cargo.toml', 'examples/x/Cargo.toml'];
    const selection = selectRepoFiles(tree.map(blob));
    expect(selection.moduleFiles).toEqual(['go.mod', 'Cargo.toml', 'crates/a/Cargo.toml', 'crates/b/Cargo.toml']);
    expect(CARGO_WITHOUT_LOCK).toBe('unpinned crates.io');
    expect(selection.unevaluated).toEqual([{ path: 'crates/c/Cargo.toml', ecosystem: CARGO_WITHOUT_LOCK }]);
  });

  it("selects a Cargo workspace's root Cargo.lock for its members' Cargo.toml files, pins first, at most MAX_MODULE_FILES", () => {
    const tree = ['Cargo.toml', 'Cargo.lock', 'crates/a/Cargo.toml', 'crates/b/Cargo.toml', 'crates/c/Cargo.toml', 'tools/go.mod', 'tests/fixture/Cargo.toml'];
    const selection = selectRepoFiles(tree.map(blob));
    expect(selection.moduleFiles).toEqual(['Cargo.lock', 'tools/go.mod', 'Cargo.toml', 'crates/a/Cargo.toml'].slice(0, MAX_MODULE_FILES));
    expect(selection.unevaluated).toEqual([]);
  });

  it('go.mod files beyond MAX_MODULE_FILES are named as unevaluated, never silently left out of the set', () => {
    const tree = ['go.mod', 'a/go.mod', 'b/go.mod', 'c/go.mod', 'd/go.mod', 'e/go.mod'];
    const selection = selectRepoFiles(tree.map(blob));
    expect(selection.moduleFiles).toEqual(['go.mod', 'a/go.mod', 'b/go.mod', 'c/go.mod']);
    expect(selection.unevaluated.map((u) => u.path)).toEqual(['d/go.mod', 'e/go.mod']);
    expect(selection.unevaluated.map((u) => u.ecosystem)).toEqual(['unread Go', 'unread Go']);
  });

  it('Gradle and Maven: a gradle.lockfile beside a build script pins it; else the root version catalog; pom.xml files, parent first; samples never', () => {
    // modelcontextprotocol/kotlin-sdk: the catalog of the root build; the samples' catalogs and builds are not the project's.
    const kotlin = ['build.gradle.kts', 'settings.gradle.kts', 'gradle/libs.versions.toml', 'kotlin-sdk-core/build.gradle.kts', 'samples/server/build.gradle.kts', 'samples/server/gradle/libs.versions.toml', 'buildSrc/build.gradle.kts'];
    const catalog = selectRepoFiles(kotlin.map(blob));
    expect(catalog.moduleFiles).toEqual(['gradle/libs.versions.toml']);
    expect(catalog.unevaluated).toEqual([]);
    // A catalog without a Gradle build is not read; a build with no catalog, lockfile or pom stays named, never parsed.
    expect(selectRepoFiles(['gradle/libs.versions.toml'].map(blob)).moduleFiles).toEqual([]);
    expect(selectRepoFiles(['build.gradle.kts', 'app/build.gradle.kts'].map(blob)).unevaluated).toEqual([
      { path: 'build.gradle.kts', ecosystem: 'Maven' },
      { path: 'app/build.gradle.kts', ecosystem: 'Maven' },
    ]);
    // DataDog/dd-javac-plugin: a gradle.lockfile beside each build (the catalog is then not read); buildscript-gradle.lockfile never.
    const locked = selectRepoFiles(['build.gradle', 'gradle.lockfile', 'buildscript-gradle.lockfile', 'client/build.gradle', 'client/gradle.lockfile', 'gradle/libs.versions.toml', 'other/gradle.lockfile'].map(blob));
    expect(locked.moduleFiles).toEqual(['gradle.lockfile', 'client/gradle.lockfile']);
    expect(locked.unevaluated).toEqual([]);
    // modelcontextprotocol/java-sdk: the parent pom first, then the modules, at most MAX_MODULE_FILES; the rest named.
    const maven = selectRepoFiles(['pom.xml', 'mcp/pom.xml', 'mcp-core/pom.xml', 'mcp-bom/pom.xml', 'mcp-test/pom.xml', 'samples/x/pom.xml'].map(blob));
    expect(maven.moduleFiles).toEqual(['pom.xml', 'mcp-bom/pom.xml', 'mcp-core/pom.xml', 'mcp-test/pom.xml']);
    expect(maven.unevaluated).toEqual([{ path: 'mcp/pom.xml', ecosystem: 'Maven' }]);
  });

  it('a root requirements file is selected with no manifest beside it; one in a sub-folder is not', () => {
    const selection = selectRepoFiles(['requirements.txt', 'server.py', 'scripts/requirements.txt', 'README.md'].map(blob));
    expect(selection.manifests).toEqual([]);
    expect(selection.lockfiles).toEqual(['requirements.txt']);
  });

  it('a root Pipfile.lock is selected with no manifest beside it', () => {
    const selection = selectRepoFiles(['Pipfile', 'Pipfile.lock', 'app.py'].map(blob));
    expect(selection.lockfiles).toEqual(['Pipfile.lock']);
    expect(selection.unevaluated).toEqual([]);
  });

  it('a Python project whose dependencies are in setup.py, setup.cfg or a Pipfile alone is named as unevaluated, never "no manifest"', () => {
    // One per folder.
    expect(selectRepoFiles(['setup.py', 'setup.cfg', 'src/pkg/__init__.py', 'tests/setup.py'].map(blob)).unevaluated).toEqual([{ path: 'setup.cfg', ecosystem: 'PyPI (setup.cfg)' }]);
    expect(selectRepoFiles(['Pipfile', 'server.py'].map(blob)).unevaluated).toEqual([{ path: 'Pipfile', ecosystem: 'PyPI (Pipfile)' }]);
    expect(selectRepoFiles(['package.json', 'python/setup.cfg'].map(blob)).unevaluated).toEqual([{ path: 'python/setup.cfg', ecosystem: 'PyPI (setup.cfg)' }]);
    // A pyproject.toml beside it, or a root requirements file or Pipfile.lock, gives the set.
    expect(selectRepoFiles(['setup.py', 'pyproject.toml'].map(blob)).unevaluated).toEqual([]);
    expect(selectRepoFiles(['setup.py', 'requirements.txt'].map(blob)).unevaluated).toEqual([]);
    expect(selectRepoFiles(['setup.py', 'Pipfile', 'Pipfile.lock'].map(blob)).unevaluated).toEqual([]);
    // A development requirements file does not.
    expect(selectRepoFiles(['setup.py', 'requirements-dev.txt'].map(blob)).unevaluated).toEqual([{ path: 'setup.py', ecosystem: 'PyPI (setup.py)' }]);
  });

  it('more ecosystems nerq does not evaluate are named by their manifests', () => {
    const tree = (names: string[]) => selectRepoFiles(names.map(blob)).unevaluated.map((u) => u.ecosystem).sort();
    expect(tree(['build.sbt', 'Podfile', 'Project.toml', 'pkg.cabal'])).toEqual(['CocoaPods', 'Hackage', 'Julia', 'Maven (sbt)']);
    expect(tree(['mylib.gemspec', 'vcpkg.json', 'deps.edn', 'gleam.toml'])).toEqual(['Clojars', 'Hex', 'RubyGems', 'vcpkg']);
  });

  it('licence files: the project\'s own texts first, never a data file, at most MAX_LICENSE_FILES', () => {
    const tree = ['COPYING', 'LICENSE-3rdparty.csv', 'LICENSE-MIT', 'LICENSE-THIRD-PARTY', 'UNLICENSE', 'license.py', 'README.md'];
    expect(MAX_LICENSE_FILES).toBe(3);
    expect(selectRepoFiles(tree.map(blob)).licenses.map((l) => l.path)).toEqual(['COPYING', 'LICENSE-MIT', 'UNLICENSE']);
    // A third-party list is read when room is left.
    expect(selectRepoFiles(['LICENSE', 'LICENSE-THIRD-PARTY', 'LICENSE-3rdparty.csv'].map(blob)).licenses.map((l) => l.path)).toEqual(['LICENSE', 'LICENSE-THIRD-PARTY']);
  });

  it('a licence named before LICENSE (`MIT-LICENSE`, jnunemaker/httparty @ 2daba91bf3f6) is the licence file; a third-party list so named is not the project\'s', () => {
    const licenses = (names: string[]) => selectRepoFiles(names.map(blob)).licenses.map((l) => l.path);
    expect(licenses(['.editorconfig', 'CONTRIBUTING.md', 'Changelog.md', 'Gemfile', 'MIT-LICENSE', 'README.md', 'httparty.gemspec'])).toEqual(['MIT-LICENSE']);
    expect(licenses(['Apache_License.txt', 'BSD-LICENSE', 'THIRD-PARTY-LICENSE', 'NOTICE-LICENSE', 'mit-license.js'])).toEqual(['Apache_License.txt', 'BSD-LICENSE']);
  });

  it('command entry files: Go main packages beside a go.mod and Rust binaries beside a Cargo.toml, never in tests, examples or fuzz targets', () => {
    const go = ['go.mod', 'main.go', 'cmd/tool/main.go', 'examples/demo/main.go', 'internal/x/main.go'];
    expect(selectRepoFiles(go.map(blob)).commandEntries).toEqual(['main.go', 'cmd/tool/main.go']);
    const rust = ['Cargo.toml', 'Cargo.lock', 'crates/core/main.rs', 'crates/cli/src/lib.rs', 'src/bin/helper.rs', 'fuzz/fuzz_targets/main.rs', 'tests/main.rs'];
    expect(selectRepoFiles(rust.map(blob)).commandEntries).toEqual(['crates/core/main.rs', 'src/bin/helper.rs']);
    // Without the build file nothing builds them: a stray main.go in an npm package is no command.
    expect(selectRepoFiles(['package.json', 'main.go', 'src/main.rs'].map(blob)).commandEntries).toEqual([]);
  });

  it('NuGet project files and a Deno deno.json are named as unevaluated: a C# or Deno project is never called clean on a test package.json alone', () => {
    const selection = selectRepoFiles(['package.json', 'package-lock.json', 'Directory.Packages.props', 'src/Sdk/Sdk.csproj', 'tests/Sdk.Tests/Sdk.Tests.csproj', 'deno.json', 'README.md'].map(blob));
    expect(selection.unevaluated).toEqual([
      { path: 'deno.json', ecosystem: 'JSR/Deno' },
      { path: 'Directory.Packages.props', ecosystem: 'NuGet' },
      { path: 'src/Sdk/Sdk.csproj', ecosystem: 'NuGet' },
    ]);
  });

  it('the root Cargo.toml and composer.json are selected for the licence they declare; nested ones are not', () => {
    const selection = selectRepoFiles(['Cargo.toml', 'composer.json', 'crates/a/Cargo.toml', 'lib/composer.json', 'README.md'].map(blob));
    expect(selection.licenseManifests.map((i) => i.path)).toEqual(['Cargo.toml', 'composer.json']);
    expect(selectRepoFiles(['package.json', 'go.mod'].map(blob)).licenseManifests).toEqual([]);
  });

  it('setup.cfg, a root .gemspec, pom.xml, Directory.Build.props and the shallowest published .csproj are read for their licence, at most MAX_LICENSE_MANIFESTS (recorded trees: fixtures/PROVENANCE.md)', () => {
    const paths = (tree: string[]) => selectRepoFiles(tree.map(blob)).licenseManifests.map((i) => i.path);
    // Pylons/waitress before its move to pyproject.toml alone; rack/rack; junit-team/junit4.
    expect(paths(['pyproject.toml', 'setup.cfg', 'setup.py', 'src/waitress/__init__.py', 'tests/fixtureapps/setup.cfg'])).toEqual(['setup.cfg']);
    expect(paths(['Gemfile', 'rack.gemspec', 'lib/rack.rb', 'test/gemspecs/other.gemspec'])).toEqual(['rack.gemspec']);
    expect(paths(['pom.xml', 'src/main/java/junit/Test.java', 'src/site/resources/images/junit-lambda/contributors/gradle.png'])).toEqual(['pom.xml']);
    // serilog/serilog: the props at the root, then src/Serilog/Serilog.csproj; its test projects never.
    const serilog = ['Directory.Build.props', 'Directory.Version.props', 'Serilog.sln', 'src/Serilog/Serilog.csproj', 'test/AotTestApp/AotTestApp.csproj', 'test/Serilog.Tests/Serilog.Tests.csproj'];
    expect(paths(serilog)).toEqual(['Directory.Build.props', 'src/Serilog/Serilog.csproj']);
    expect(paths(['src/App.Tests/App.Tests.csproj', 'src/App/App.csproj'])).toEqual(['src/App/App.csproj']);
    expect(MAX_LICENSE_MANIFESTS).toBe(2);
    expect(paths(['Cargo.toml', 'composer.json', 'setup.cfg', 'x.gemspec', 'pom.xml'])).toEqual(['Cargo.toml', 'composer.json']);
  });

  it('one root Gradle build and its gradle.properties are read for their licence (build.gradle before build.gradle.kts), after pom.xml; a subproject\'s build is not', () => {
    const paths = (tree: string[]) => selectRepoFiles(tree.map(blob)).licenseManifests.map((i) => i.path);
    // apple/servicetalk and modelcontextprotocol/kotlin-sdk (recorded trees, abridged).
    expect(paths(['build.gradle', 'settings.gradle', 'gradle.properties', 'servicetalk-bom/build.gradle'])).toEqual(['build.gradle', 'gradle.properties']);
    expect(paths(['build.gradle.kts', 'settings.gradle.kts', 'buildSrc/build.gradle.kts', 'kotlin-sdk/build.gradle.kts'])).toEqual(['build.gradle.kts']);
    expect(paths(['build.gradle.kts', 'build.gradle', 'pom.xml'])).toEqual(['pom.xml', 'build.gradle']);
    expect(paths(['build.gradle', 'Directory.Build.props', 'src/App/App.csproj'])).toEqual(['build.gradle', 'Directory.Build.props']);
    // JakeWharton/timber: the gradle.properties its maven-publish plugin reads; one without a Gradle build beside it is not read.
    expect(paths(['build.gradle', 'gradle.properties', 'settings.gradle', 'timber/build.gradle'])).toEqual(['build.gradle', 'gradle.properties']);
    expect(paths(['gradle.properties', 'README.md'])).toEqual([]);
  });

  it('a root conda environment.yml / environment.yaml is named as unevaluated (conda); one in a sub-folder (docs, Binder) is not', () => {
    expect(selectRepoFiles(['environment.yml', 'src/app.py', 'README.md'].map(blob)).unevaluated).toEqual([{ path: 'environment.yml', ecosystem: 'conda' }]);
    expect(selectRepoFiles(['environment.yaml', 'requirements.txt'].map(blob)).unevaluated).toEqual([{ path: 'environment.yaml', ecosystem: 'conda' }]);
    expect(selectRepoFiles(['pyproject.toml', 'uv.lock', 'binder/environment.yml', 'docs/environment.yml'].map(blob)).unevaluated).toEqual([]);
  });

  it("a workspace's changelogs beside its published members' manifests, when the root and docs/ have none (recorded trees of modelcontextprotocol/rust-sdk and typescript-sdk)", () => {
    const recorded = (repo: string, sha: string) =>
      (JSON.parse(readFileSync(new URL(`../../fixtures/http/github/repos/${repo}/git/trees/${sha}.json`, import.meta.url), 'utf8')) as { tree: Array<{ path: string; type: string; size?: number }> }).tree.map(
        (e): RepoTreeItem => ({ path: e.path, type: e.type === 'blob' ? 'blob' : e.type === 'tree' ? 'tree' : 'other', size: e.size ?? null }),
      );
    const rust = selectRepoFiles(recorded('modelcontextprotocol/rust-sdk', '744f9d1723ea1000cf58eed8faa213c1afa459bf'));
    expect(rust.changelog).toBeNull();
    expect(rust.memberChangelogs).toEqual(['crates/rmcp/CHANGELOG.md', 'crates/rmcp-macros/CHANGELOG.md']);
    const ts = selectRepoFiles(recorded('modelcontextprotocol/typescript-sdk', '14c683ec4837efcfb4afc660e9c6458ecf9e6134'));
    expect(ts.memberChangelogs[0]).toBe('packages/client/CHANGELOG.md');
    expect(ts.memberChangelogs.every((p) => p.startsWith('packages/'))).toBe(true);
  });

  it('jlowin/fastmcp: its changelog is the docs site\'s MDX page docs/changelog.mdx (recorded tree, abridged); docs/v2/ is not docs/', () => {
    const tree = ['README.md', 'LICENSE', 'pyproject.toml', 'uv.lock', 'docs/changelog.mdx', 'docs/development/releases.mdx', 'docs/v2/changelog.mdx', 'src/fastmcp/__init__.py'];
    expect(selectRepoFiles(tree.map(blob)).changelog).toBe('docs/changelog.mdx');
    expect(selectRepoFiles(tree.filter((p) => p !== 'docs/changelog.mdx').map(blob)).changelog).toBeNull();
    expect(selectRepoFiles(['CHANGELOG.mdx', 'README.md'].map(blob)).changelog).toBe('CHANGELOG.mdx');
    expect(selectRepoFiles(['changelog.mdxx', 'changelog.jsx'].map(blob)).changelog).toBeNull();
  });

  it('member changelogs: never under test fixtures or examples, none when the root has one; a private member is passed over', () => {
    const tree = ['package.json', 'packages/a/package.json', 'packages/a/CHANGELOG.md', 'test/fixtures/x/package.json', 'test/fixtures/x/CHANGELOG.md', 'examples/demo/package.json', 'examples/demo/CHANGELOG.md', 'packages/b/CHANGELOG.md'];
    const selection = selectRepoFiles(tree.map(blob));
    // packages/b has no manifest: not a member.
    expect(selection.memberChangelogs).toEqual(['packages/a/CHANGELOG.md']);
    expect(selectRepoFiles([...tree, 'CHANGELOG.md'].map(blob))).toMatchObject({ changelog: 'CHANGELOG.md', memberChangelogs: [] });
    const two = selectRepoFiles(['packages/a/package.json', 'packages/a/CHANGELOG.md', 'packages/b/package.json', 'packages/b/HISTORY.md', 'crates/c/Cargo.toml', 'crates/c/CHANGELOG.md'].map(blob));
    expect(two.memberChangelogs).toEqual(['crates/c/CHANGELOG.md', 'packages/a/CHANGELOG.md', 'packages/b/HISTORY.md']);
    const read = (privateA: boolean) => [
      { path: 'packages/a/package.json', private: privateA },
      { path: 'packages/b/package.json', private: false },
    ];
    // A crate folder with no package.json or pyproject.toml read: its Cargo.toml is the member.
    expect(memberChangelog(two.memberChangelogs, two.manifests, read(true))).toBe('crates/c/CHANGELOG.md');
    const npmOnly = two.memberChangelogs.slice(1);
    expect(memberChangelog(npmOnly, two.manifests, read(true))).toBe('packages/b/HISTORY.md');
    expect(memberChangelog(npmOnly, two.manifests, read(false))).toBe('packages/a/CHANGELOG.md');
    // A manifest that could not be read: whether it is published is unknown, so its changelog is not taken.
    expect(memberChangelog(npmOnly, two.manifests, [])).toBeNull();
  });

  it('none in an npm-only tree', () => {
    expect(selectRepoFiles(['package.json', 'package-lock.json'].map(blob)).unevaluated).toEqual([]);
  });
});

describe('settings beside a Python project', () => {
  it("the root's uv.toml, pip.conf and pip.ini are selected beside a pyproject.toml or a requirements file, not beside no Python project", () => {
    const tree = ['pyproject.toml', 'uv.lock', 'uv.toml', 'pip.conf', 'pip.ini', '.python-version', 'docs/pip.conf'];
    expect(selectRepoFiles(tree.map(blob)).settings).toEqual(['pip.conf', 'pip.ini', 'uv.toml']);
    expect(selectRepoFiles(['requirements.txt', 'pip.conf'].map(blob)).settings).toEqual(['pip.conf']);
    expect(selectRepoFiles(['package.json', 'uv.toml', 'pip.conf', '.npmrc'].map(blob)).settings).toEqual(['.npmrc']);
  });

  it("a folder target reads the folder's and the root's", () => {
    const tree = ['uv.toml', 'servers/py/pyproject.toml', 'servers/py/pip.conf', 'servers/js/package.json'];
    expect(selectFolderFiles(tree.map(blob), 'servers/py').settings.sort()).toEqual(['servers/py/pip.conf', 'uv.toml']);
    expect(selectFolderFiles(tree.map(blob), 'servers/js').settings).toEqual([]);
  });
});

describe('a folder target in a Rust workspace', () => {
  // The recorded modelcontextprotocol/rust-sdk tree (fixtures/http/github/repos), with the Cargo.lock a workspace commits at its root.
  const recorded = JSON.parse(
    readFileSync(new URL('../../fixtures/http/github/repos/modelcontextprotocol/rust-sdk/git/trees/744f9d1723ea1000cf58eed8faa213c1afa459bf.json', import.meta.url), 'utf8'),
  ) as { tree: RepoTreeItem[] };

  it("a member crate is pinned by the workspace root's Cargo.lock, above its folder", () => {
    const selection = selectFolderFiles([...recorded.tree, blob('Cargo.lock')], 'crates/rmcp');
    expect(selection.moduleFiles).toEqual(['Cargo.lock', 'crates/rmcp/Cargo.toml']);
    expect(selection.unevaluated.filter((u) => u.ecosystem === CARGO_WITHOUT_LOCK)).toEqual([]);
  });

  it('without a Cargo.lock anywhere above, its Cargo.toml stays unpinned', () => {
    expect(selectFolderFiles(recorded.tree, 'crates/rmcp').moduleFiles).toEqual(['crates/rmcp/Cargo.toml']);
  });
});
