/**
 * The licence other manifests declare, read as text (pure): setup.cfg, .gemspec, .NET project
 * files, Maven pom.xml, Gradle builds. Real files recorded from public repositories (fixtures/PROVENANCE.md),
 * then edited copies of them for the forms nerq leaves unmapped or does not evaluate.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GithubFiles } from '../../src/evidence/github-facts.js';
import { licenceDeclarationOf, NOT_EVALUATED } from '../../src/sources/github/licence-manifests.js';
import { restRepoFiles } from '../../src/sources/github/repo-files.js';
import type { GithubCall } from '../../src/sources/github/request.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { limiterFor, testClient } from './helpers.js';

const real = (name: string) => readFileSync(new URL(`../../fixtures/github/licence-manifests/${name}`, import.meta.url), 'utf8');

describe('setup.cfg [metadata] license', () => {
  it('Pylons/waitress: `license = ZPL-2.1`', () => {
    expect(licenceDeclarationOf('setup.cfg', real('waitress-setup.cfg'))).toEqual({ license: 'ZPL-2.1' });
  });

  it('a licence name that states its version maps; one that does not is kept unmapped; license_files is a pointer', () => {
    const cfg = (body: string) => `[metadata]\nname = x\n${body}\n[options]\npackages = find:\n`;
    expect(licenceDeclarationOf('setup.cfg', cfg('license = Apache License 2.0'))).toEqual({ license: 'Apache-2.0' });
    expect(licenceDeclarationOf('setup.cfg', cfg('license = BSD'))).toEqual({ license: null, unmapped: 'BSD' });
    expect(licenceDeclarationOf('setup.cfg', cfg('license_files = LICENSE.txt'))).toEqual({ license: 'SEE LICENSE IN LICENSE.txt' });
    expect(licenceDeclarationOf('setup.cfg', cfg('license_files =\n    LICENSE\n    NOTICE'))).toEqual({ license: 'SEE LICENSE IN LICENSE' });
    expect(licenceDeclarationOf('setup.cfg', '[flake8]\nmax-line-length = 88\n')).toEqual({ license: null });
  });
});

describe('setup.cfg license continued on indented lines (configparser multi-line values)', () => {
  const waitress = (license: string) => real('waitress-setup.cfg').replace('license = ZPL-2.1', license);

  it('an SPDX expression across lines is read whole, never its first line', () => {
    expect(licenceDeclarationOf('setup.cfg', waitress('license = ZPL-2.1 OR\n    MIT'))).toEqual({ license: 'ZPL-2.1 OR MIT' });
    expect(licenceDeclarationOf('setup.cfg', waitress('license =\n    Apache-2.0'))).toEqual({ license: 'Apache-2.0' });
    // A whole-line comment inside the value is skipped, as configparser does.
    expect(licenceDeclarationOf('setup.cfg', waitress('license = MIT\n    # dual\n    OR Apache-2.0'))).toEqual({ license: 'MIT OR Apache-2.0' });
  });

  it('a licence text pasted in is not an identifier: unmapped as written, never its first word', () => {
    const text = 'license = MIT License\n\n    Copyright (c) 2019 The Authors\n\n    Permission is hereby granted, free of charge, to any person obtaining a copy';
    const read = licenceDeclarationOf('setup.cfg', waitress(text));
    expect(read?.license).toBeNull();
    expect(read?.unmapped).toMatch(/^MIT License Copyright \(c\) 2019 The Authors Permission is hereby granted/);
    // Two lines that only name a licence are not an SPDX expression either.
    expect(licenceDeclarationOf('setup.cfg', waitress('license = Apache License\n    Version 2.0'))).toEqual({ license: null, unmapped: 'Apache License Version 2.0' });
  });

  it('a line indented no deeper than the key starts the next option; other sections are not read', () => {
    expect(licenceDeclarationOf('setup.cfg', waitress('license = ZPL-2.1\nlicense_files = LICENSE.txt'))).toEqual({ license: 'ZPL-2.1' });
    expect(licenceDeclarationOf('setup.cfg', '[options]\nlicense = MIT\n[metadata]\nname = x\n')).toEqual({ license: null });
    expect(licenceDeclarationOf('setup.cfg', '  [metadata]\n  License: BSD-3-Clause\n')).toEqual({ license: 'BSD-3-Clause' });
  });
});

describe('.gemspec licence, never evaluated', () => {
  it('rack/rack: `s.license = "MIT"`', () => {
    expect(licenceDeclarationOf('rack.gemspec', real('rack.gemspec'))).toEqual({ license: 'MIT' });
  });

  it('a list of literals is a choice; anything not a string literal is not evaluated', () => {
    const gem = (line: string) => real('rack.gemspec').replace('s.license = "MIT"', line);
    expect(licenceDeclarationOf('rack.gemspec', gem("s.licenses = ['MIT', 'Apache-2.0']"))).toEqual({ license: '(MIT OR Apache-2.0)' });
    expect(licenceDeclarationOf('rack.gemspec', gem('spec.licenses = %w[Ruby BSD-2-Clause]'))).toEqual({ license: '(Ruby OR BSD-2-Clause)' });
    expect(licenceDeclarationOf('rack.gemspec', gem('s.license = Rack::LICENSE'))).toEqual({ license: null, unmapped: `Rack::LICENSE ${NOT_EVALUATED}` });
    expect(licenceDeclarationOf('rack.gemspec', gem('s.license = "#{base}-2.0"'))).toEqual({ license: null, unmapped: `"#{base}-2.0" ${NOT_EVALUATED}` });
    expect(licenceDeclarationOf('rack.gemspec', gem('s.licenses = ["MIT", name]'))?.unmapped).toContain(NOT_EVALUATED);
    expect(licenceDeclarationOf('rack.gemspec', gem('s.summary = "x"'))).toEqual({ license: null });
    expect(licenceDeclarationOf('rack.gemspec', gem("s.licenses = [\n    'MIT',\n    'Apache-2.0',\n  ]"))).toEqual({ license: '(MIT OR Apache-2.0)' });
    expect(licenceDeclarationOf('rack.gemspec', gem('s.license = "MIT" # see MIT-LICENSE'))).toEqual({ license: 'MIT' });
  });
});

describe('.NET <PackageLicenseExpression>', () => {
  it('serilog/serilog: src/Serilog/Serilog.csproj declares Apache-2.0; its Directory.Build.props declares none', () => {
    expect(licenceDeclarationOf('src/Serilog/Serilog.csproj', real('Serilog.csproj'))).toEqual({ license: 'Apache-2.0' });
    expect(licenceDeclarationOf('Directory.Build.props', real('serilog-Directory.Build.props'))).toEqual({ license: null });
  });

  it('an MSBuild property is not evaluated; a commented-out element is not read; PackageLicenseFile is a pointer', () => {
    const proj = (inner: string) => `<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    ${inner}\n  </PropertyGroup>\n</Project>\n`;
    expect(licenceDeclarationOf('Directory.Build.props', proj('<PackageLicenseExpression>$(License)</PackageLicenseExpression>'))).toEqual({
      license: null,
      unmapped: `$(License) ${NOT_EVALUATED}`,
    });
    expect(licenceDeclarationOf('A.fsproj', proj('<!-- <PackageLicenseExpression>GPL-3.0-only</PackageLicenseExpression> -->'))).toEqual({ license: null });
    expect(licenceDeclarationOf('A.csproj', proj('<PackageLicenseFile>LICENSE.txt</PackageLicenseFile>'))).toEqual({ license: 'SEE LICENSE IN LICENSE.txt' });
    expect(licenceDeclarationOf('A.csproj', proj('<PackageLicenseExpression>MIT OR Apache-2.0</PackageLicenseExpression>'))).toEqual({ license: 'MIT OR Apache-2.0' });
  });
});

describe('Maven pom.xml <licenses>', () => {
  it('junit-team/junit4: "Eclipse Public License 1.0" names EPL-1.0 unambiguously', () => {
    expect(licenceDeclarationOf('pom.xml', real('junit4-pom.xml'))).toEqual({ license: 'EPL-1.0' });
  });

  it('a name without a version, several licences, or none beside a parent: unmapped, never guessed', () => {
    const pom = real('junit4-pom.xml');
    const named = (name: string) => pom.replace('<name>Eclipse Public License 1.0</name>', `<name>${name}</name>`);
    expect(licenceDeclarationOf('pom.xml', named('BSD'))).toEqual({ license: null, unmapped: 'BSD' });
    expect(licenceDeclarationOf('pom.xml', named('The Apache Software License, Version 2.0'))).toEqual({ license: 'Apache-2.0' });
    expect(licenceDeclarationOf('pom.xml', named('Apache-2.0'))).toEqual({ license: 'Apache-2.0' });
    const two = pom.replace('</licenses>', '<license><name>MIT</name></license></licenses>');
    expect(licenceDeclarationOf('pom.xml', two)).toEqual({ license: null, unmapped: 'Eclipse Public License 1.0, MIT' });
    const inherited = pom.replace(/<licenses>[\s\S]*?<\/licenses>/, '').replace('<modelVersion>', '<parent><groupId>g</groupId></parent><modelVersion>');
    expect(licenceDeclarationOf('pom.xml', inherited)?.unmapped).toContain(NOT_EVALUATED);
    expect(licenceDeclarationOf('pom.xml', '<project><modelVersion>4.0.0</modelVersion></project>')).toEqual({ license: null });
  });
});

describe('Gradle pom { licenses { license { name } } }, string literals only', () => {
  it('apple/servicetalk: Groovy `name = \'The Apache License, Version 2.0\'` maps; the POM\'s own `name = project.name` is not a licence', () => {
    expect(licenceDeclarationOf('build.gradle', real('servicetalk-bom-build.gradle'))).toEqual({ license: 'Apache-2.0' });
  });

  it('modelcontextprotocol/kotlin-sdk: Kotlin `name = "MIT License"` in vanniktech mavenPublishing { pom { } }', () => {
    expect(licenceDeclarationOf('build.gradle.kts', real('kotlin-sdk-mcp.publishing.gradle.kts'))).toEqual({ license: 'MIT' });
  });

  it('name.set("…"), `name \'…\'` and name("…") are literals; a variable, a template, a concatenation or a loop is not evaluated', () => {
    const kts = (line: string) => real('kotlin-sdk-mcp.publishing.gradle.kts').replace('name = "MIT License"', line);
    const groovy = (line: string) => real('servicetalk-bom-build.gradle').replace("name = 'The Apache License, Version 2.0'", line);
    expect(licenceDeclarationOf('build.gradle.kts', kts('name.set("The Apache License, Version 2.0")'))).toEqual({ license: 'Apache-2.0' });
    expect(licenceDeclarationOf('build.gradle', groovy("name 'MIT'"))).toEqual({ license: 'MIT' });
    expect(licenceDeclarationOf('build.gradle', groovy('name("BSD 3-Clause")'))).toEqual({ license: 'BSD-3-Clause' });
    expect(licenceDeclarationOf('build.gradle', groovy("name = 'BSD'"))).toEqual({ license: null, unmapped: 'BSD' });
    expect(licenceDeclarationOf('build.gradle.kts', kts('name = licenseName'))).toEqual({ license: null, unmapped: `name = licenseName ${NOT_EVALUATED}` });
    expect(licenceDeclarationOf('build.gradle.kts', kts('name.set(providers.gradleProperty("POM_LICENCE_NAME"))'))?.unmapped).toContain(NOT_EVALUATED);
    expect(licenceDeclarationOf('build.gradle', groovy('name = "${licence}"'))?.unmapped).toContain(NOT_EVALUATED);
    expect(licenceDeclarationOf('build.gradle', groovy("name = 'Apache' + '-2.0'"))?.unmapped).toContain(NOT_EVALUATED);
    const loop = real('servicetalk-bom-build.gradle').replace(/licenses \{[\s\S]*?\n {8}\}/, 'licenses {\n          ids.each { id -> license { name = id } }\n        }');
    expect(licenceDeclarationOf('build.gradle', loop)?.unmapped).toContain(NOT_EVALUATED);
  });

  it('several licences are unmapped; commented out, outside a pom block, or none: nothing declared', () => {
    const two = real('kotlin-sdk-mcp.publishing.gradle.kts').replace('licenses {', 'licenses {\n            license { name = "Apache-2.0" }');
    expect(licenceDeclarationOf('build.gradle.kts', two)).toEqual({ license: null, unmapped: 'Apache-2.0, MIT License' });
    const commented = real('servicetalk-bom-build.gradle').replace("name = 'The Apache License, Version 2.0'", "// name = 'MIT'\n            /* name = 'MIT' */");
    expect(licenceDeclarationOf('build.gradle', commented)).toEqual({ license: null });
    // The license-header plugin's top-level `license { }` block is not a POM licence (ReactiveX/RxJava's build.gradle).
    expect(licenceDeclarationOf('build.gradle', 'license {\n    header project.file("config/license/HEADER")\n}\nlicenses { license { name = "MIT" } }\n')).toEqual({ license: null });
    expect(licenceDeclarationOf('build.gradle', 'plugins { id "java" }\n')).toEqual({ license: null });
    expect(licenceDeclarationOf('build.gradle', "pom.project { licenses { license { name 'MIT' } } }")).toEqual({ license: 'MIT' });
  });
});

describe('gradle.properties POM_LICENSE_NAME (vanniktech maven-publish)', () => {
  it('JakeWharton/timber: `POM_LICENCE_NAME=The Apache Software License, Version 2.0` maps; its build.gradle declares none', () => {
    expect(licenceDeclarationOf('gradle.properties', real('timber-gradle.properties'))).toEqual({ license: 'Apache-2.0' });
    expect(licenceDeclarationOf('build.gradle', real('timber-build.gradle'))).toEqual({ license: null });
  });

  it('read as a properties file: `:` or blanks as the separator, a continued line, escapes; comments and other keys are not read', () => {
    expect(licenceDeclarationOf('gradle.properties', 'POM_LICENSE_NAME: MIT\n')).toEqual({ license: 'MIT' });
    expect(licenceDeclarationOf('gradle.properties', 'POM_LICENSE_NAME The Apache \\\n    License, Version 2.0\n')).toEqual({ license: 'Apache-2.0' });
    expect(licenceDeclarationOf('gradle.properties', 'POM_LICENSE_NAME=BSD\n')).toEqual({ license: null, unmapped: 'BSD' });
    expect(licenceDeclarationOf('gradle.properties', '# POM_LICENSE_NAME=MIT\nPOM_LICENSE_URL=https://opensource.org/licenses/MIT\n')).toEqual({ license: null });
  });
});

describe('Cargo.toml and composer.json as before', () => {
  it('read by repo-manifests.ts declaredLicenseOf; a file that does not parse is undefined', () => {
    expect(licenceDeclarationOf('Cargo.toml', '[package]\nname = "a"\nlicense = "MIT"\n')).toEqual({ license: 'MIT' });
    expect(licenceDeclarationOf('composer.json', '{')).toBeUndefined();
  });
});

describe('read through the repository reader (repo-files.ts) within the request budget', () => {
  let server: FixtureServer;
  beforeEach(async () => {
    server = await startFixtureServer();
  });
  afterEach(async () => {
    expectNoUnexpected(server);
    await server.close();
  });

  /** A subset of a repository's recorded listing served with its real files; no tags, a one-commit history. */
  async function readRepo(fullName: string, files: Record<string, string>): Promise<{ files: GithubFiles; requests: number }> {
    const base = `/github/repos/${fullName}`;
    const tree = Object.entries(files).map(([path, text]) => ({ path, type: 'blob', size: Buffer.byteLength(text) }));
    server.expect('GET', `${base}/git/trees/main`, { body: { sha: 'a'.repeat(40), tree, truncated: false } });
    server.expect('GET', `${base}/tags`, { body: [] });
    const commit = { sha: 'b'.repeat(40), commit: { author: { date: '2026-02-14T15:25:19Z' }, committer: { date: '2026-02-15T22:54:53Z' } }, author: null, parents: [] };
    server.expect('GET', `${base}/commits`, { body: [commit] });
    for (const [path, text] of Object.entries(files)) server.expect('GET', `${base}/contents/${path}`, { body: text });
    const { http } = testClient();
    const call: GithubCall = { http, limiter: limiterFor(http), api: server.url('github'), graphql: `${server.url('github')}/graphql`, tokenInUse: false, now: new Date('2026-03-01T00:00:00Z'), counter: { requests: 0 } };
    const [owner = '', name = ''] = fullName.split('/');
    const got = await restRepoFiles(call, { owner, name }, `${server.url('github')}/repos/${fullName}`, 'main');
    if (!got.ok) throw new Error(got.reason);
    return { files: got.value, requests: call.counter.requests };
  }

  it('serilog/serilog: Directory.Build.props and src/Serilog/Serilog.csproj, never a test project; one request each', async () => {
    const { files, requests } = await readRepo('serilog/serilog', {
      'Directory.Build.props': real('serilog-Directory.Build.props'),
      'src/Serilog/Serilog.csproj': real('Serilog.csproj'),
      'test/Serilog.Tests/Serilog.Tests.csproj': '<Project><PropertyGroup><PackageLicenseExpression>GPL-3.0-only</PackageLicenseExpression></PropertyGroup></Project>',
    });
    expect(files.declaredLicenses).toEqual([
      { path: 'Directory.Build.props', license: null },
      { path: 'src/Serilog/Serilog.csproj', license: 'Apache-2.0' },
    ]);
    // The tree, the tags, the one-page history, then the two project files.
    expect(requests).toBe(3 + 2);
    expect(server.requests.map((r) => r.path)).not.toContain('/github/repos/serilog/serilog/contents/test/Serilog.Tests/Serilog.Tests.csproj');
  });

  it('apple/servicetalk build.gradle: the Gradle build takes a licence-manifest slot after pom.xml, one request; build.gradle.kts beside it is not read', async () => {
    const { files, requests } = await readRepo('apple/servicetalk', {
      'build.gradle': real('servicetalk-bom-build.gradle'),
      'build.gradle.kts': real('kotlin-sdk-mcp.publishing.gradle.kts'),
      'settings.gradle': 'rootProject.name = "servicetalk"\n',
    });
    expect(files.declaredLicenses).toEqual([{ path: 'build.gradle', license: 'Apache-2.0' }]);
    expect(requests).toBe(3 + 1);
  });

  it('JakeWharton/timber: build.gradle and the gradle.properties beside it fill the 2-manifest budget; a subproject\'s build is not read', async () => {
    const { files, requests } = await readRepo('JakeWharton/timber', {
      'build.gradle': real('timber-build.gradle'),
      'gradle.properties': real('timber-gradle.properties'),
      'timber/build.gradle': 'apply plugin: "com.vanniktech.maven.publish"\n',
    });
    expect(files.declaredLicenses).toEqual([
      { path: 'build.gradle', license: null },
      { path: 'gradle.properties', license: 'Apache-2.0' },
    ]);
    expect(requests).toBe(3 + 2);
  });

  it('a pom.xml and a Gradle build both at the root: both read, pom.xml first, within the 2-manifest budget', async () => {
    const { files, requests } = await readRepo('junit-team/junit4', { 'pom.xml': real('junit4-pom.xml'), 'build.gradle.kts': real('kotlin-sdk-mcp.publishing.gradle.kts') });
    expect(files.declaredLicenses).toEqual([
      { path: 'pom.xml', license: 'EPL-1.0' },
      { path: 'build.gradle.kts', license: 'MIT' },
    ]);
    expect(requests).toBe(3 + 2);
  });

  it('junit-team/junit4: its pom.xml licence mapped', async () => {
    expect((await readRepo('junit-team/junit4', { 'pom.xml': real('junit4-pom.xml') })).files.declaredLicenses).toEqual([{ path: 'pom.xml', license: 'EPL-1.0' }]);
  });

  it('a pom.xml licence name without its version: kept as written, unmapped', async () => {
    const edited = real('junit4-pom.xml').replace('<name>Eclipse Public License 1.0</name>', '<name>Eclipse Public License</name>');
    expect((await readRepo('junit-team/junit4', { 'pom.xml': edited })).files.declaredLicenses).toEqual([{ path: 'pom.xml', license: null, unmapped: 'Eclipse Public License' }]);
  });
});
