import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, test } from 'vitest';
import { RegistryFactsSchema } from '../../src/evidence/schema.js';
import { declaredLicense, isoTime, registryFacts, repositoryRef, sortedVersions, tarballManifest } from '../../src/sources/npm/facts.js';
import { TEST_REGISTRY, loadPackument } from './fixtures.js';

describe('registryFacts over recorded packuments', () => {
  test('a full packument (chalk): maintainers, publishers, real times, not deprecated', () => {
    const facts = registryFacts(loadPackument('chalk'), '4.1.0');
    expect(facts.trimmed).toBe(false);
    expect(facts.deprecated).toBe(false);
    expect(facts.maintainers).toBe(2);
    expect(facts.publisher).toBe('sindresorhus');
    expect(facts.previousPublisher).toBe('sindresorhus');
    expect(facts.license).toBe('MIT');
    expect(facts.licenseLegacyForm).toBe(false);
    expect(facts.repository).toEqual({
      raw: 'git+https://github.com/chalk/chalk.git',
      host: 'github',
      url: 'https://github.com/chalk/chalk',
      slug: 'chalk/chalk',
      directory: null,
    });
    expect(facts.distTags).toEqual({ latest: '4.1.0', next: '3.0.0-beta.2' });
    expect(facts.versions).toHaveLength(29);
    expect(facts.versions[0]).toEqual({ version: '0.1.0', time: '2013-08-03T00:21:59.499Z' });
    expect(facts.versions.at(-1)).toEqual({ version: '4.1.0', time: '2020-06-09T07:43:42.525Z' });
    expect(facts.tarballUrl).toBe(`${TEST_REGISTRY}/chalk/-/chalk-4.1.0.tgz`);
    expect(facts.integrity).toMatch(/^sha512-/);
    expect(facts.unpackedSize).toBe(33631);
    expect(facts.fileCount).toBe(7);
    expect(facts.dependencyRanges).toEqual({ 'ansi-styles': '^4.1.0', 'supports-color': '^7.1.0' });
    expect(facts.installScripts).toEqual({});
    expect(facts.securityHolding).toBe(false);
    expect(facts.isLatest).toBe(true);
    expect(facts.previous).toEqual({
      version: '4.0.0',
      time: '2020-04-02T08:20:33.785Z',
      publisher: 'sindresorhus',
      hasAttestations: false,
      installScripts: [],
      hasBin: false,
      commands: [],
      unpackedSize: 33203,
      dependencies: 2,
      dependencyNames: ['ansi-styles', 'supports-color'],
    });
    expect(facts.priorPublishers).toEqual(['sindresorhus', 'jbnicolai', 'qix']);
  });

  test('a deprecated version of a full packument keeps its message', () => {
    const facts = registryFacts(loadPackument('chalk'), '2.0.1');
    expect(typeof facts.deprecated).toBe('string');
    expect(facts.deprecated).not.toBe('');
    expect(registryFacts(loadPackument('chalk'), '2.0.0').deprecated).toBe(false);
  });

  test('versions are sorted by semver, not by key order', () => {
    const facts = registryFacts(loadPackument('express'), '4.17.1');
    const order = facts.versions.map((v) => v.version);
    expect(order.indexOf('4.9.0')).toBeLessThan(order.indexOf('4.10.0'));
    expect(order.indexOf('5.0.0-alpha.1')).toBeGreaterThan(order.indexOf('4.17.1'));
    expect(facts.versions.every((v) => v.time !== null)).toBe(true);
  });

  test('express: previous publisher is that of the version published just before, by time', () => {
    const doc = loadPackument('express');
    const facts = registryFacts(doc, '4.17.1');
    expect(facts.publisher).toBe('dougwilson');
    expect(facts.maintainers).toBeGreaterThan(0);
    // Make the previous release by time (4.17.0) carry another publisher: it must be found.
    const versions = doc.versions as Record<string, Record<string, unknown>>;
    versions['4.17.0'] = { ...versions['4.17.0'], _npmUser: { name: 'someone-else' } };
    expect(registryFacts(doc, '4.17.1').previousPublisher).toBe('someone-else');
  });

  test('a trimmed mirror packument: maintainers and deprecation unknown, offsets parsed', () => {
    const doc = loadPackument('@types/semver');
    const time = doc.time as Record<string, string>;
    expect(time['7.8.0']).toMatch(/\+00:00$/); // the mirror's form
    const facts = registryFacts(doc, '7.8.0');
    expect(facts.trimmed).toBe(true);
    expect(facts.maintainers).toBeNull();
    expect(facts.deprecated).toBeNull();
    expect(facts.publisher).toBeNull();
    expect(facts.priorPublishers).toBeNull(); // no version names a publisher: unknown, not "nobody"
    expect(facts.previous?.version).toBe('7.7.1');
    expect(facts.previous?.publisher).toBeNull();
    expect(facts.previous?.unpackedSize).toBeNull();
    expect(facts.versions.at(-1)?.time).toBe(new Date(Date.parse(time['7.8.0'] ?? '')).toISOString());
    expect(facts.versions.at(-1)?.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  test('scoped package: name, types and the repository directory', () => {
    const facts = registryFacts(loadPackument('@types/semver'), '7.8.0');
    expect(facts.name).toBe('@types/semver');
    expect(facts.declaresTypes).toBe(true);
    expect(facts.repository?.slug).toBe('DefinitelyTyped/DefinitelyTyped');
    expect(facts.repository?.directory).toBe('types/semver');
    expect(facts.tarballUrl).toBe(`${TEST_REGISTRY}/@types/semver/-/semver-7.8.0.tgz`);
  });

  test('a trimmed packument whose manifest carries `deprecated` IS deprecated (request)', () => {
    const facts = registryFacts(loadPackument('request'), '2.88.2');
    expect(facts.trimmed).toBe(true);
    expect(facts.deprecated).toBe('request has been deprecated, see https://github.com/request/request/issues/3142');
    expect(facts.license).toBe('Apache-2.0');
  });

  test('the security-holding placeholder (crossenv)', () => {
    const facts = registryFacts(loadPackument('crossenv'), '0.0.2-security');
    expect(facts.securityHolding).toBe(true);
    expect(facts.repository?.slug).toBe('npm/security-holder');
  });

  test.each([
    ['0.0.1-security', 'anything', true],
    ['0.0.7-security', '', true],
    ['1.0.0', 'Security holding package', true],
    ['1.0.0-security', 'a library', false],
    ['0.0.1-securityx', 'a library', false],
    ['1.0.0', 'security tools', false],
  ])('security holding: version %s, description %j → %s', (version, description, expected) => {
    const doc = { name: 'x', versions: { [version]: { name: 'x', version, description } } };
    expect(registryFacts(doc, version).securityHolding).toBe(expected);
  });

  test('install scripts (esbuild postinstall, bufferutil install) and bin', () => {
    const esbuild = registryFacts(loadPackument('esbuild'), '0.28.2');
    expect(esbuild.installScripts).toEqual({ postinstall: 'node install.js' });
    expect(esbuild.hasBin).toBe(true);
    expect(esbuild.optionalDependencies).toBeGreaterThan(10);
    const bufferutil = registryFacts(loadPackument('bufferutil'), '4.1.0');
    expect(bufferutil.installScripts).toEqual({ install: 'node-gyp-build' });
    expect(bufferutil.installScripts).not.toHaveProperty('prebuild');
  });

  test('a non-SPDX licence string is kept as declared (jsonify)', () => {
    expect(registryFacts(loadPackument('jsonify'), '0.0.1').license).toBe('Public Domain');
  });

  test('the legacy `licenses` array is flattened (json-schema 0.2.3)', () => {
    const old = registryFacts(loadPackument('json-schema'), '0.2.3');
    expect(old.license).toBe('(AFLv2.1 OR BSD)');
    expect(old.licenseLegacyForm).toBe(true);
    const current = registryFacts(loadPackument('json-schema'), '0.4.0');
    expect(current.license).toBe('(AFL-2.1 OR BSD-3-Clause)');
    expect(current.licenseLegacyForm).toBe(false);
  });

  test('a full packument without description, licence or repository: absent, not unknown', () => {
    const facts = registryFacts(loadPackument('nerq-fixture-bare'), '1.0.0');
    expect(facts.trimmed).toBe(false);
    expect(facts.deprecated).toBe(false);
    expect(facts.maintainers).toBe(1);
    expect(facts.license).toBeNull();
    expect(facts.repository).toBeNull();
    expect(facts.description).toBeNull();
    expect(facts.previousPublisher).toBeNull();
    expect(facts.previous).toBeNull(); // the first and only version
    expect(facts.priorPublishers).toEqual([]); // publishers are named, none before this one
  });
});

describe('registryFacts details', () => {
  const base = (manifest: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name: 'p',
    'dist-tags': { latest: '1.0.0' },
    versions: { '1.0.0': { name: 'p', version: '1.0.0', ...manifest } },
    time: { created: '2020-01-01T00:00:00.000Z', '1.0.0': '2020-01-01T00:00:00.000Z' },
    maintainers: [{ name: 'a' }],
    ...extra,
  });

  test('a URL dependency is recorded without its user name, password or query (the spec list and the ranges)', () => {
    const dependencies = {
      helper: 'git+https://user:s3cr3t@git.example/evil/helper.git#v1',
      blob: 'https://files.example/blob.tgz?token=s3cr3t',
      chalk: '^4.1.0',
    };
    const facts = registryFacts(base({ dependencies }), '1.0.0');
    expect(facts.nonRegistryDependencies).toEqual([
      { name: 'helper', spec: 'git+https://git.example/evil/helper.git#v1', kind: 'git', field: 'dependencies' },
      { name: 'blob', spec: 'https://files.example/blob.tgz', kind: 'url', field: 'dependencies' },
    ]);
    expect(facts.dependencyRanges.chalk).toBe('^4.1.0');
    expect(JSON.stringify(facts)).not.toContain('s3cr3t');
    expect(JSON.stringify(tarballManifest({ name: 'p', version: '1.0.0', dependencies }))).not.toContain('s3cr3t');
  });

  test('the maintainers\' account names, from objects or the old "name <email>" strings', () => {
    expect(registryFacts(base({}, { maintainers: [{ name: 'a', email: 'a@x' }, 'b <b@x>', { email: 'c@x' }, 'a'] }), '1.0.0').maintainerNames).toEqual(['a', 'b']);
    expect(registryFacts(base({}, { maintainers: undefined }), '1.0.0').maintainerNames).toBeNull();
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>, unknown]>([
    ['the packument\'s README', {}, { readme: '# p\n\nText.' }, { size: 10, text: '# p\n\nText.', truncated: false }],
    ['the version\'s own README first', { readme: '# own' }, { readme: '# top' }, { size: 5, text: '# own', truncated: false }],
    ['npm\'s placeholder: published without one', {}, { readme: 'ERROR: No README data found!' }, false],
    ['an empty README says nothing', { readme: '' }, { readme: '  ' }, null],
    ['no README field: unknown', {}, {}, null],
    ['not a string: unknown', {}, { readme: { text: 'x' } }, null],
  ])('README the registry shows: %s', (_name, manifest, extra, readme) => {
    expect(registryFacts(base(manifest, extra), '1.0.0').readme).toEqual(readme);
  });

  test('a README over 64 KiB is cut on a character boundary and marked truncated', () => {
    const text = `# p\n${'é'.repeat(40_000)}`;
    const readme = registryFacts(base({}, { readme: text }), '1.0.0').readme;
    expect(readme).toMatchObject({ size: Buffer.byteLength(text), truncated: true });
    const kept = readme === false || readme === null ? '' : readme.text;
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(64 * 1024);
    expect(kept.endsWith('é')).toBe(true);
  });

  test('a README over 64 KiB keeps the headings and counts the fenced blocks past the cut; one within it has none', () => {
    const text = `# p\n\n## Install\n\n${'Text. '.repeat(12_000)}\n\n## Usage\n\n\`\`\`js\np()\n\`\`\`\n\n## License\n`;
    expect(registryFacts(base({}, { readme: text }), '1.0.0').readme).toMatchObject({ truncated: true, tailHeadings: ['Usage', 'License'], tailCodeBlocks: 1 });
    expect(registryFacts(base({}, { readme: '# p\n\n## License\n' }), '1.0.0').readme).not.toHaveProperty('tailHeadings');
  });

  test('attestations and signatures from dist', () => {
    const facts = registryFacts(
      base({
        dist: {
          attestations: { url: 'https://example.test/-/npm/v1/attestations/p@1.0.0', provenance: { predicateType: 'https://slsa.dev/provenance/v1' } },
          signatures: [{ keyid: 'k', sig: 's' }, { keyid: 'k2', sig: 's2' }],
        },
      }),
      '1.0.0',
    );
    expect(facts.attestations).toEqual({
      url: 'https://example.test/-/npm/v1/attestations/p@1.0.0',
      predicateType: 'https://slsa.dev/provenance/v1',
    });
    expect(facts.signatures).toBe(2);
    expect(registryFacts(base({}), '1.0.0').attestations).toBeNull();
  });

  test.each([
    [{ types: 'index.d.ts' }, true],
    [{ typings: './lib/index.d.ts' }, true],
    [{ exports: { '.': { import: { types: './x.d.mts', default: './x.mjs' } } } }, true],
    [{ exports: [{ types: './a.d.ts' }, './a.js'] }, true],
    [{ exports: { '.': './index.js' } }, false],
    [{ types: '' }, false],
    [{}, false],
  ])('declaresTypes %j → %s', (manifest, expected) => {
    expect(registryFacts(base(manifest), '1.0.0').declaresTypes).toBe(expected);
  });

  test.each([
    ['cli.js', true],
    [{ tool: 'cli.js' }, true],
    [{}, false],
    ['', false],
    [['cli.js'], false],
  ])('hasBin %j → %s', (bin, expected) => {
    expect(registryFacts(base({ bin }), '1.0.0').hasBin).toBe(expected);
  });

  // npm's older form: every file in `directories.bin` is a command, read only when `bin` is not set.
  test.each([
    [{ directories: { bin: './bin' } }, true],
    [{ directories: { bin: '' } }, false],
    [{ directories: { doc: 'doc' } }, false],
    [{ bin: {}, directories: { bin: 'bin' } }, false],
    [{ bin: ['cli.js'], directories: { bin: 'bin' } }, false],
    [{ bin: '', directories: { bin: 'bin' } }, true],
  ])('hasBin %j → %s', (manifest, expected) => {
    expect(registryFacts(base(manifest), '1.0.0').hasBin).toBe(expected);
  });

  test('counts, ranges, engines, gypfile, homepage and bugs', () => {
    const facts = registryFacts(
      base({
        dependencies: { a: '^1.0.0', b: 2, c: 'latest' },
        devDependencies: { d: '1' },
        peerDependencies: { e: '*' },
        optionalDependencies: { f: '*', g: '*' },
        engines: { node: '>=18', npm: 7 },
        gypfile: true,
        scripts: { preinstall: 'echo pre', install: 'node-gyp rebuild', postinstall: 42, prepare: 'tsc', test: 'x' },
        homepage: 'https://example.test/p',
        bugs: { url: 'https://example.test/p/issues', email: 'b@example.test' },
        keywords: ['a', 1, null, 'b'],
      }),
      '1.0.0',
    );
    expect(facts.dependencies).toBe(3);
    expect(facts.dependencyRanges).toEqual({ a: '^1.0.0', c: 'latest' });
    expect(facts.devDependencies).toBe(1);
    expect(facts.peerDependencies).toBe(1);
    expect(facts.optionalDependencies).toBe(2);
    expect(facts.engines).toEqual({ node: '>=18' });
    expect(facts.gypfile).toBe(true);
    // npm runs any truthy script: the number too, as its text.
    expect(facts.installScripts).toEqual({ preinstall: 'echo pre', install: 'node-gyp rebuild', postinstall: '42' });
    expect(facts.homepage).toBe('https://example.test/p');
    expect(facts.bugs).toBe('https://example.test/p/issues');
    expect(facts.keywords).toEqual(['a', 'b']);
  });

  test('an un-deprecated version (deprecated: "") is not deprecated', () => {
    expect(registryFacts(base({ deprecated: '' }), '1.0.0').deprecated).toBe(false);
  });

  test('previous publisher falls back to semver order when times are unknown', () => {
    const doc = {
      name: 'p',
      versions: {
        '1.0.0': { _npmUser: { name: 'first' } },
        '1.1.0': { _npmUser: { name: 'second' } },
        '2.0.0': { _npmUser: { name: 'third' } },
      },
      maintainers: [],
    };
    const facts = registryFacts(doc, '2.0.0');
    expect(facts.publisher).toBe('third');
    expect(facts.previousPublisher).toBe('second');
    expect(facts.maintainers).toBe(0);
    expect(facts.trimmed).toBe(false);
  });

  test('previous publisher follows publish time, not semver (a backport published later)', () => {
    const doc = base(
      {},
      {
        versions: {
          '1.0.0': { _npmUser: { name: 'a' } },
          '2.0.0': { _npmUser: { name: 'b' } },
          '1.0.1': { _npmUser: { name: 'c' } },
        },
        time: {
          created: '2020-01-01T00:00:00Z',
          '1.0.0': '2020-01-01T00:00:00Z',
          '2.0.0': '2020-02-01T00:00:00Z',
          '1.0.1': '2020-03-01T00:00:00Z',
        },
      },
    );
    expect(registryFacts(doc, '1.0.1').previousPublisher).toBe('b');
  });

  test('invalid version keys are dropped from the list', () => {
    const doc = base({}, { versions: { '1.0.0': {}, 'not-a-version': {}, 'v2.0.0': {}, '0.9.0': {} } });
    expect(registryFacts(doc, '1.0.0').versions.map((v) => v.version)).toEqual(['0.9.0', '1.0.0']);
  });
});

describe('registryFacts for release comparisons', () => {
  type Manifest = Record<string, unknown>;
  /** A full-shaped packument from `[version, time | null, manifest]` rows. */
  const doc = (rows: [string, string | null, Manifest][], latest: string) => ({
    name: 'p',
    'dist-tags': { latest },
    versions: Object.fromEntries(rows.map(([v, , m]) => [v, { name: 'p', version: v, ...m }])),
    time: {
      created: '2020-01-01T00:00:00.000Z',
      modified: '2021-01-01T00:00:00.000Z',
      ...Object.fromEntries(rows.flatMap(([v, t]) => (t === null ? [] : [[v, t]]))),
    },
    maintainers: [{ name: 'a' }],
  });
  const user = (name: string) => ({ _npmUser: { name, email: `${name}@example.test` } });

  test('isLatest follows the latest dist-tag', () => {
    const packument = doc([['1.0.0', '2020-01-01T00:00:00Z', {}], ['2.0.0', '2020-02-01T00:00:00Z', {}]], '1.0.0');
    expect(registryFacts(packument, '1.0.0').isLatest).toBe(true);
    expect(registryFacts(packument, '2.0.0').isLatest).toBe(false);
    expect(registryFacts({ name: 'p', versions: { '1.0.0': {} } }, '1.0.0').isLatest).toBe(false);
  });

  test('a stable version is compared with the stable release before it, not with pre-releases published between (platform builds, candidates)', () => {
    const packument = doc(
      [
        ['1.0.0', '2020-01-01T00:00:00Z', user('a')],
        ['1.1.0-rc.1', '2020-01-15T00:00:00Z', user('a')],
        ['1.1.0-win32-x64', '2020-02-01T00:00:00Z', user('a')],
        ['1.1.0', '2020-02-01T00:01:00Z', user('a')],
        ['1.2.0-beta.1', '2020-03-01T00:00:00Z', user('a')],
      ],
      '1.1.0',
    );
    expect(registryFacts(packument, '1.1.0').previous?.version).toBe('1.0.0');
    // A pre-release is still compared with what was published just before it.
    expect(registryFacts(packument, '1.2.0-beta.1').previous?.version).toBe('1.1.0');
    expect(registryFacts(packument, '1.1.0-win32-x64').previous?.version).toBe('1.1.0-rc.1');
    // With no stable release before it, a stable version is compared with its pre-release.
    const first = doc([['2.0.0-rc.1', '2020-01-01T00:00:00Z', user('a')], ['2.0.0', '2020-02-01T00:00:00Z', user('a')]], '2.0.0');
    expect(registryFacts(first, '2.0.0').previous?.version).toBe('2.0.0-rc.1');
  });

  test('previous is a snapshot of the version published just before, by time', () => {
    const packument = doc(
      [
        ['1.0.0', '2020-01-01T00:00:00Z', user('a')],
        [
          '2.0.0',
          '2020-02-01T00:00:00Z',
          {
            ...user('b'),
            scripts: { postinstall: 'node x.js', preinstall: 'echo', test: 'vitest', prepare: 'tsc' },
            bin: { tool: 'cli.js' },
            dependencies: { x: '^1', y: '^2', z: '^3' },
            dist: { unpackedSize: 1234, attestations: { url: 'u', provenance: { predicateType: 'https://slsa.dev/provenance/v1' } } },
          },
        ],
        // a backport published after 2.0.0 and before 2.1.0
        ['1.0.1', '2020-03-01T00:00:00Z', user('c')],
        ['2.1.0', '2020-04-01T00:00:00Z', user('d')],
      ],
      '2.1.0',
    );
    expect(registryFacts(packument, '1.0.1').previous).toEqual({
      version: '2.0.0',
      time: '2020-02-01T00:00:00.000Z',
      publisher: 'b',
      hasAttestations: true,
      installScripts: ['preinstall', 'postinstall'],
      hasBin: true,
      commands: ['tool'],
      unpackedSize: 1234,
      dependencies: 3,
      dependencyNames: ['x', 'y', 'z'],
    });
    const latest = registryFacts(packument, '2.1.0');
    expect(latest.previous?.version).toBe('1.0.1'); // by time, not the semver predecessor 2.0.0
    expect(latest.previous?.hasAttestations).toBe(false);
    expect(latest.previous?.installScripts).toEqual([]);
    expect(latest.previous?.hasBin).toBe(false);
    expect(latest.previous?.unpackedSize).toBeNull();
    expect(latest.previous?.dependencies).toBe(0);
  });

  test('previous falls back to semver order when publish times are missing', () => {
    const packument = {
      name: 'p',
      versions: { '1.0.0': user('a'), '1.2.0': user('b'), '1.10.0': user('c'), '2.0.0': user('d') },
      maintainers: [],
    };
    const facts = registryFacts(packument, '2.0.0');
    expect(facts.previous?.version).toBe('1.10.0');
    expect(facts.previous?.time).toBeNull();
    expect(facts.previous?.publisher).toBe('c');
    expect(facts.priorPublishers).toEqual(['a', 'b', 'c']);
  });

  test('a trimmed packument (a mirror: its times are its own) orders releases by version, not by time', () => {
    // Real shape (fixtures/http/npm/mkdirp.json): the mirror dated 3.0.1 before 3.0.0 and 0.3.5 just before 3.0.1.
    const packument = {
      name: 'p',
      'dist-tags': { latest: '3.0.1' },
      versions: { '0.3.5': user('a'), '3.0.0': { ...user('b'), bin: 'cli.js' }, '3.0.1': { ...user('c'), bin: 'cli.js' } },
      time: { '0.3.5': '2024-05-03T11:41:46.491000+00:00', '3.0.0': '2024-12-04T23:30:26.636000+00:00', '3.0.1': '2024-06-23T01:39:14.428000+00:00' },
    };
    const facts = registryFacts(packument, '3.0.1');
    expect(facts.trimmed).toBe(true);
    expect(facts.previous?.version).toBe('3.0.0');
    expect(facts.previous?.hasBin).toBe(true);
    expect(facts.previousPublisher).toBe('b');
    expect(facts.priorPublishers).toEqual(['a', 'b']);
    // The same times in a full packument are publish times: the release published just before wins.
    const full = { ...packument, maintainers: [{ name: 'a' }], time: { ...packument.time, created: '2024-01-01T00:00:00Z' } };
    expect(registryFacts(full, '3.0.1').previous?.version).toBe('0.3.5');
  });

  test('the first version has no previous version and no prior publishers', () => {
    const packument = doc([['1.0.0', '2020-01-01T00:00:00Z', user('a')], ['1.1.0', '2020-02-01T00:00:00Z', user('b')]], '1.1.0');
    const first = registryFacts(packument, '1.0.0');
    expect(first.previous).toBeNull();
    expect(first.previousPublisher).toBeNull();
    expect(first.priorPublishers).toEqual([]);
  });

  test('priorPublishers: distinct names of every earlier version, in publish order, never later ones', () => {
    const packument = doc(
      [
        ['1.0.0', '2020-01-01T00:00:00Z', user('carol')],
        ['1.1.0', '2020-02-01T00:00:00Z', user('alice')],
        ['1.2.0', '2020-03-01T00:00:00Z', user('carol')],
        ['1.3.0', '2020-04-01T00:00:00Z', {}], // no publisher recorded for this one
        ['2.0.0', '2020-05-01T00:00:00Z', user('mallory')],
        ['2.1.0', '2020-06-01T00:00:00Z', user('bob')],
      ],
      '2.1.0',
    );
    expect(registryFacts(packument, '2.0.0').priorPublishers).toEqual(['carol', 'alice']);
    expect(registryFacts(packument, '2.1.0').priorPublishers).toEqual(['carol', 'alice', 'mallory']);
    // The publisher of the resolved version is not its own prior publisher.
    expect(registryFacts(packument, '2.0.0').priorPublishers).not.toContain('mallory');
  });

  test('a trimmed packument (no publisher anywhere) → priorPublishers null; one named publisher → a list', () => {
    const trimmed = { name: 'p', versions: { '1.0.0': {}, '1.1.0': {} }, time: { '1.0.0': '2020-01-01T00:00:00+00:00', '1.1.0': '2020-02-01T00:00:00+00:00' } };
    const facts = registryFacts(trimmed, '1.1.0');
    expect(facts.trimmed).toBe(true);
    expect(facts.priorPublishers).toBeNull();
    expect(facts.previous?.version).toBe('1.0.0');
    expect(facts.previous?.publisher).toBeNull();
    const onlyLatestNamed = { ...trimmed, versions: { '1.0.0': {}, '1.1.0': user('z') } };
    expect(registryFacts(onlyLatestNamed, '1.1.0').priorPublishers).toEqual([]);
  });

  test('install script names in the snapshot: any truthy install script, never other scripts', () => {
    const packument = doc(
      [
        ['1.0.0', '2020-01-01T00:00:00Z', { scripts: { install: 42, postinstall: 'node a.js', build: 'tsc' }, gypfile: true }],
        ['1.1.0', '2020-02-01T00:00:00Z', {}],
      ],
      '1.1.0',
    );
    expect(registryFacts(packument, '1.1.0').previous?.installScripts).toEqual(['install', 'postinstall']);
  });
});

describe('hostile packument shapes never throw and stay schema-valid', () => {
  const hostile: [string, unknown][] = [
    ['versions not an object', { name: 'h', versions: 'nope', time: 5 }],
    ['versions an array', { name: 'h', versions: [1, 2], 'dist-tags': [] }],
    ['license a number', { name: 'h', versions: { '1.0.0': { license: 42, licenses: 'MIT' } } }],
    ['repository an array', { name: 'h', versions: { '1.0.0': { repository: ['a', 'b'] } } }],
    ['keywords with non-strings', { name: 'h', versions: { '1.0.0': { keywords: [1, { a: 1 }, 'ok'] } } }],
    ['everything null', { name: null, versions: { '1.0.0': null }, time: null, maintainers: null, 'dist-tags': null }],
    [
      'wrong types everywhere',
      {
        name: 7,
        versions: {
          '1.0.0': {
            description: {}, homepage: [], bugs: 3, engines: 'node', dependencies: 'a', scripts: [],
            bin: 9, types: false, exports: 'x', _npmUser: 'me', deprecated: true,
            dist: { signatures: 'x', attestations: 'y', unpackedSize: -3, fileCount: 1.5, tarball: 1, integrity: {} },
          },
        },
        time: { '1.0.0': 'yesterday', created: 12 },
        maintainers: 'many',
        'dist-tags': { latest: 1, next: '1.0.0', __proto__: 'x' },
      },
    ],
    ['not an object at all', 'just a string'],
    ['a deeply nested exports map', { versions: { '1.0.0': { exports: nest(5000) } } }],
    ['a prototype-polluting key', JSON.parse('{"versions":{"1.0.0":{"dependencies":{"__proto__":"1.0.0","a":"1"}}},"dist-tags":{"__proto__":"x"}}')],
  ];

  test.each(hostile)('%s', (_label, doc) => {
    const facts = registryFacts(doc as Record<string, unknown>, '1.0.0');
    expect(RegistryFactsSchema.safeParse(facts).success).toBe(true);
    expect(facts.version).toBe('1.0.0');
    expect(Object.getPrototypeOf(facts.dependencyRanges)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('the wrong-types packument yields unknowns and absences, not garbage', () => {
    const facts = registryFacts(hostile[6]?.[1] as Record<string, unknown>, '1.0.0');
    expect(facts.name).toBe('');
    expect(facts.description).toBeNull();
    expect(facts.engines).toEqual({});
    expect(facts.hasBin).toBe(false);
    expect(facts.signatures).toBe(0);
    expect(facts.attestations).toBeNull();
    expect(facts.unpackedSize).toBeNull();
    expect(facts.fileCount).toBeNull();
    expect(facts.tarballUrl).toBeNull();
    expect(facts.versions).toEqual([{ version: '1.0.0', time: null }]);
    expect(facts.distTags).toEqual({ next: '1.0.0' });
    expect(facts.trimmed).toBe(true); // no maintainers array, no string created/modified
    expect(facts.maintainers).toBeNull();
    expect(facts.deprecated).toBe('(no message)'); // npm deprecates on any truthy value: `true` too
    expect(facts.isLatest).toBe(false); // `latest: 1` is not a version
    expect(facts.previous).toBeNull();
    expect(facts.priorPublishers).toBeNull(); // `_npmUser: "me"` names nobody
  });

  test('repository as an array is treated as missing; keywords keep strings only', () => {
    expect(registryFacts(hostile[3]?.[1] as Record<string, unknown>, '1.0.0').repository).toBeNull();
    expect(registryFacts(hostile[4]?.[1] as Record<string, unknown>, '1.0.0').keywords).toEqual(['ok']);
    expect(registryFacts(hostile[2]?.[1] as Record<string, unknown>, '1.0.0').license).toBe('MIT');
  });
});

describe('isoTime', () => {
  test.each([
    ['2020-06-09T07:43:42.525Z', '2020-06-09T07:43:42.525Z'],
    ['2025-10-03T03:58:58.829000+00:00', '2025-10-03T03:58:58.829Z'],
    ['2025-10-03T05:58:58+02:00', '2025-10-03T03:58:58.000Z'],
    ['2025-10-03T05:58:58.1+0200', '2025-10-03T03:58:58.100Z'],
    ['2025-10-03T03:58:58', '2025-10-03T03:58:58.000Z'],
    ['2025-10-03T03:58Z', '2025-10-03T03:58:00.000Z'],
    ['2025-10-03', '2025-10-03T00:00:00.000Z'],
    ['2025-02-30T00:00:00Z', null],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
    ['2025-10-03T24:30:00Z', null],
    ['2025-13-01', null],
    ['yesterday', null],
    ['October 3, 2025', null],
    ['', null],
    [1_700_000_000_000, null],
    [null, null],
  ])('%j → %j', (input, expected) => {
    expect(isoTime(input)).toBe(expected);
  });
});

describe('declaredLicense', () => {
  test.each([
    [{ license: 'MIT' }, 'MIT', false],
    [{ license: 'SEE LICENSE IN LICENSE.md' }, 'SEE LICENSE IN LICENSE.md', false],
    [{ license: '' }, null, false],
    [{ license: { type: 'BSD', url: 'x' } }, 'BSD', true],
    [{ license: [{ type: 'MIT' }, { type: 'Apache 2.0' }] }, '(MIT OR Apache 2.0)', true],
    [{ licenses: [{ type: 'MIT' }] }, 'MIT', true],
    [{ licenses: ['GPL', { type: 'BSD' }] }, '(GPL OR BSD)', true],
    [{ licenses: [{ url: 'only-url' }] }, null, false],
    [{}, null, false],
  ])('%j → %j (legacy %s)', (manifest, license, legacy) => {
    expect(declaredLicense(manifest)).toEqual({ license, legacy });
  });
});

describe('repositoryRef', () => {
  test.each([
    ['github:user/repo', 'github', 'https://github.com/user/repo', 'user/repo'],
    ['user/repo', 'github', 'https://github.com/user/repo', 'user/repo'],
    ['git+ssh://git@github.com/user/repo.git', 'github', 'https://github.com/user/repo', 'user/repo'],
    ['git+https://github.com/user/repo.git#v1.0.0', 'github', 'https://github.com/user/repo', 'user/repo'],
    ['https://gitlab.com/group/proj', 'gitlab', 'https://gitlab.com/group/proj', 'group/proj'],
    ['bitbucket:team/proj', 'bitbucket', 'https://bitbucket.org/team/proj', 'team/proj'],
    ['git+https://git.example.test/a/b.git', null, 'https://git.example.test/a/b.git', null],
    ['svn://svn.example.test/repo', null, null, null],
  ])('%s', (raw, host, url, slug) => {
    expect(repositoryRef(raw)).toEqual({ raw, host, url, slug, directory: null });
  });

  test('object form keeps the directory; empty or missing url → null', () => {
    expect(repositoryRef({ type: 'git', url: 'https://github.com/o/r.git', directory: 'packages/x' })?.directory).toBe('packages/x');
    expect(repositoryRef({ type: 'git' })).toBeNull();
    expect(repositoryRef('')).toBeNull();
    expect(repositoryRef(undefined)).toBeNull();
  });

  test('an absurdly long repository string is kept raw, not parsed', () => {
    const raw = `https://github.com/o/${'r'.repeat(5000)}`;
    expect(repositoryRef(raw)).toEqual({ raw, host: null, url: null, slug: null, directory: null });
  });

  test('credentials in a repository URL never reach the browse URL or slug', () => {
    const ref = repositoryRef('git+https://user:secret@github.com/o/r.git');
    expect(ref?.url).toBe('https://github.com/o/r');
    expect(ref?.slug).toBe('o/r');
  });
});

function nest(depth: number): unknown {
  let value: unknown = './x.js';
  for (let i = 0; i < depth; i++) value = { import: value };
  return value;
}

describe('sortedVersions', () => {
  test('equals filtering with semver.valid and sorting with semver.compare, over generated version lists', () => {
    const part = fc.oneof(fc.nat(20), fc.constantFrom(0, 1, 99999999999999999999));
    const version = fc.oneof(
      fc.tuple(part, part, part).map(([a, b, c]) => `${a}.${b}.${c}`),
      fc.tuple(part, part, part, fc.constantFrom('-beta.1', '-beta.2', '-alpha', '-0', '-rc.1', '+build.5', '-beta.1+x')).map(([a, b, c, d]) => `${a}.${b}.${c}${d}`),
      fc.constantFrom('v1.0.0', '1.0', '01.0.0', ' 1.0.0', '1.0.0 ', '=1.0.0', 'latest', '', '__proto__'),
    );
    fc.assert(
      fc.property(fc.array(version, { maxLength: 40 }), (keys) => {
        expect(sortedVersions(keys)).toEqual(keys.filter((v) => semver.valid(v) === v).sort(semver.compare));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('registryFacts: publish times in the future', () => {
  // chalk 4.1.0 was published 2020-06-09T07:43:42.525Z.
  const published = Date.parse('2020-06-09T07:43:42.525Z');
  const HOUR_MS = 3_600_000;

  test('a time more than a day after the read is kept apart: no publish time, nothing ordered by it', () => {
    const facts = registryFacts(loadPackument('chalk'), '4.1.0', undefined, { now: new Date(published - 3 * 24 * HOUR_MS) });
    expect(facts.versions.at(-1)).toEqual({ version: '4.1.0', time: null, futureTime: '2020-06-09T07:43:42.525Z' });
    expect(RegistryFactsSchema.safeParse(facts).success).toBe(true);
  });

  test('a time within the tolerated clock skew after the read is a publish time', () => {
    const facts = registryFacts(loadPackument('chalk'), '4.1.0', undefined, { now: new Date(published - 2 * HOUR_MS) });
    expect(facts.versions.at(-1)).toEqual({ version: '4.1.0', time: '2020-06-09T07:43:42.525Z' });
  });
});

describe('the commands a version links (command-shadowing)', () => {
  const doc = (manifest: Record<string, unknown>) => ({ name: 'tool-x', 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { name: 'tool-x', version: '1.0.0', ...manifest } } });
  test.each([
    [{ bin: './cli.js' }, ['tool-x'], undefined],
    [{ bin: { '../node': 'a.js', 'NPX.cmd': 'b.js' } }, ['NPX.cmd', 'node'], undefined],
    [{ directories: { bin: './bin' } }, [], 'bin'],
    [{ bin: { x: 'x.js' }, directories: { bin: 'bin' } }, ['x'], undefined],
  ])('%j → commands %j, folder %j', (manifest, commands, folder) => {
    const facts = registryFacts(doc(manifest), '1.0.0');
    expect(facts.commands).toEqual(commands);
    expect(facts.commandsFolder).toBe(folder);
  });
});

