/**
 * Hostile world: inputs whose package names lie about what is installed.
 *
 * pnpm keys a package it fetches from another registry than the default by that registry's host
 * (its dependency paths: `registry.example.com/pkg/1.0.0`, `…/pkg@1.0.0` in the later formats).
 * Read as a registry key, such an entry names a package called like the host (`registry.example.com/pkg`),
 * which no registry serves: it was dropped with a note, and the code pnpm installs from that host
 * was neither audited nor listed. It is read as pnpm reads it: code from that host, the package
 * named after it, listed as unscorable, never queried under another name.
 *
 * A name longer than any registry accepts (npm refuses more than 214 characters): a 300,000-character
 * name in a posted lockfile was audited as a package, asked about, and echoed about ten times
 * (a 3.3 MB answer). It is code nerq cannot place: listed with its name shortened, never asked
 * about, and the run is incomplete (`unvouched-remote`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputText } from '../../src/lockfiles/index.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { testApp, type TestApp } from '../serve/support.js';
import { noteCases } from './support/metrics.js';

const HOST = 'registry.example.com';

const V5 = [
  'lockfileVersion: 5.4',
  'dependencies:',
  `  pkg: ${HOST}/pkg/1.0.0`,
  `  two: /${HOST}/two/1.0.0`,
  `  '@corp/three': ${HOST}/@corp/three/1.0.0`,
  'packages:',
  `  ${HOST}/pkg/1.0.0:`,
  '    resolution: {integrity: sha512-AAAA}',
  `  /${HOST}/two/1.0.0:`,
  '    resolution: {integrity: sha512-AAAA}',
  `  ${HOST}/@corp/three/1.0.0:`,
  '    resolution: {integrity: sha512-AAAA}',
  '',
].join('\n');
const V6 = [
  "lockfileVersion: '6.0'",
  'dependencies:',
  '  pkg:',
  '    specifier: ^1.0.0',
  `    version: /${HOST}/pkg@1.0.0`,
  '  two:',
  '    specifier: ^1.0.0',
  `    version: ${HOST}/two@1.0.0`,
  "  '@corp/three':",
  '    specifier: ^1.0.0',
  `    version: ${HOST}/@corp/three@1.0.0(react@18.2.0)`,
  'packages:',
  `  /${HOST}/pkg@1.0.0:`,
  '    resolution: {integrity: sha512-AAAA}',
  `  ${HOST}/two@1.0.0:`,
  '    resolution: {integrity: sha512-AAAA}',
  `  ${HOST}/@corp/three@1.0.0(react@18.2.0):`,
  '    resolution: {integrity: sha512-AAAA}',
  '',
].join('\n');
const V9 = [
  "lockfileVersion: '9.0'",
  'importers:',
  '  .:',
  '    dependencies:',
  '      pkg:',
  '        specifier: ^1.0.0',
  `        version: ${HOST}/pkg@1.0.0`,
  '      two:',
  '        specifier: ^1.0.0',
  `        version: ${HOST}:8443/two@1.0.0`,
  'packages:',
  `  ${HOST}/pkg@1.0.0:`,
  '    resolution: {integrity: sha512-AAAA}',
  `  ${HOST}:8443/two@1.0.0:`,
  '    resolution: {integrity: sha512-AAAA}',
  'snapshots:',
  `  ${HOST}/pkg@1.0.0: {}`,
  `  ${HOST}:8443/two@1.0.0: {}`,
  '',
].join('\n');

describe("pnpm keys that start with another registry's host", () => {
  const CASES: [label: string, text: string, expected: [name: string, host: string][]][] = [
    ['lockfile v5 (with and without a leading slash, scoped)', V5, [['pkg', HOST], ['two', HOST], ['@corp/three', HOST]]],
    ['lockfile v6 (with and without a leading slash, scoped with peers)', V6, [['pkg', HOST], ['two', HOST], ['@corp/three', HOST]]],
    ['lockfile v9 (with a port)', V9, [['pkg', HOST], ['two', `${HOST}:8443`]]],
  ];
  // A reference with a port reads as a URL, not as an alias key: the entry is listed, not placed under its importer.
  const DIRECT = (host: string) => !host.includes(':');
  it.for(CASES)('%s: listed as code from that host under the name after it, none audited under a host-like name', ([, text, expected], { task }) => {
    noteCases(task, expected.length);
    const parsed = readInputText(text, 'pnpm-lock.yaml');
    expect(parsed.dependencies.map((d) => d.name)).toEqual([]);
    expect((parsed.skipped ?? []).map((s) => [s.name, s.kind, s.host, s.direct])).toEqual(expected.map(([name, host]) => [name, 'remote', host, DIRECT(host)]));
  });

  it('a package whose own name has dots (socket.io) is still a registry package', ({ task }) => {
    noteCases(task);
    const text = ["lockfileVersion: '6.0'", 'dependencies:', '  socket.io:', '    specifier: ^4.0.0', '    version: 4.0.0', 'packages:', '  /socket.io@4.0.0:', '    resolution: {integrity: sha512-AAAA}', ''].join('\n');
    expect(readInputText(text, 'pnpm-lock.yaml').dependencies.map((d) => `${d.name}@${d.version}`)).toEqual(['socket.io@4.0.0']);
  });
});

const LONG = 'a'.repeat(300_000);
const PYPI_LONG = `flask-${'x'.repeat(300_000)}`;
const packageLock = (name: string) =>
  JSON.stringify({
    name: 'app',
    version: '1.0.0',
    lockfileVersion: 3,
    packages: { '': { name: 'app', version: '1.0.0', dependencies: { [name]: '1.0.0' } }, [`node_modules/${name}`]: { version: '1.0.0', resolved: 'https://registry.example.test/x/-/x-1.0.0.tgz', integrity: 'sha512-AAAA' } },
  });
const cyclonedx = (name: string, purl: string) => JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', components: [{ type: 'library', name, version: '1.0.0', purl }] });

describe('a package name longer than any registry accepts', () => {
  const CASES: [label: string, file: string, text: string][] = [
    ['package-lock.json', 'package-lock.json', packageLock(LONG)],
    ['a scoped name of 215 characters', 'package-lock.json', packageLock(`@s/${'b'.repeat(212)}`)],
    ['requirements.txt', 'requirements.txt', `${PYPI_LONG}==1.0.0\n`],
    ['a CycloneDX component and its purl', 'bom.cdx.json', cyclonedx(LONG, `pkg:npm/${LONG}@1.0.0`)],
    ['a requirements.txt version of 300,000 characters', 'requirements.txt', `flask==3.1.${'9'.repeat(300_000)}\n`],
  ];
  it.for(CASES)('%s: never a package to ask about, listed shortened', ([, file, text], { task }) => {
    noteCases(task);
    const parsed = readInputText(text, file);
    expect(parsed.dependencies).toEqual([]);
    expect(JSON.stringify(parsed).length).toBeLessThan(5_000);
    const skipped = parsed.skipped ?? [];
    expect(skipped.map((s) => s.kind)).toEqual(['remote']);
    expect(skipped[0]?.name?.length ?? 0).toBeLessThan(100);
  });

  it('214 characters is still a name', ({ task }) => {
    noteCases(task);
    expect(readInputText(packageLock('c'.repeat(214)), 'package-lock.json').dependencies.map((d) => d.name.length)).toEqual([214]);
  });

  describe('POST /v1/audit', () => {
    let server: FixtureServer;
    let serve: TestApp;
    beforeAll(async () => {
      server = await startFixtureServer();
      serve = testApp(server);
    });
    afterAll(async () => {
      await serve?.close();
      await server?.close();
    });
    it('a posted lockfile with a 300,000-character name: incomplete (unvouched-remote), a small answer, no request for it', async ({ task }) => {
      noteCases(task);
      const response = await serve.app.inject({ method: 'POST', url: '/v1/audit', payload: JSON.stringify({ fileName: 'package-lock.json', content: packageLock(LONG) }), headers: { 'content-type': 'application/json' } });
      expect(response.statusCode).toBe(200);
      expect(response.body.length).toBeLessThan(20_000);
      const report = response.json<{ outcome: { result: string }; warnings: { code: string }[] }>();
      expect(report.outcome.result).toBe('incomplete');
      expect(report.warnings.map((w) => w.code)).toContain('unvouched-remote');
      expect(server.requests.filter((r) => r.path.includes('aaaaaaaaaa') || r.body.includes('aaaaaaaaaa'))).toEqual([]);
    });
  });
});
