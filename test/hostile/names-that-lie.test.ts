/**
 * Hostile world: inputs whose package names lie about what is installed.
 *
 * pnpm keys a package it fetches from another registry than the default by that registry's host
 * (its dependency paths: `registry.example.com/pkg/1.0.0`, `…/pkg@1.0.0` in the later formats).
 * Read as a registry key, such an entry names a package called like the host (`registry.example.com/pkg`),
 * which no registry serves: it was dropped with a note, and the code pnpm installs from that host
 * was neither audited nor listed. It is read as pnpm reads it: code from that host, the package
 * named after it, listed as unscorable, never queried under another name.
 */
import { describe, expect, it } from 'vitest';
import { readInputText } from '../../src/lockfiles/index.js';
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
    expect(parsed.skipped.map((s) => [s.name, s.kind, s.host, s.direct])).toEqual(expected.map(([name, host]) => [name, 'remote', host, DIRECT(host)]));
  });

  it('a package whose own name has dots (socket.io) is still a registry package', ({ task }) => {
    noteCases(task);
    const text = ["lockfileVersion: '6.0'", 'dependencies:', '  socket.io:', '    specifier: ^4.0.0', '    version: 4.0.0', 'packages:', '  /socket.io@4.0.0:', '    resolution: {integrity: sha512-AAAA}', ''].join('\n');
    expect(readInputText(text, 'pnpm-lock.yaml').dependencies.map((d) => `${d.name}@${d.version}`)).toEqual(['socket.io@4.0.0']);
  });
});
