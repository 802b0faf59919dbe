/**
 * `nerq check` on real packuments as a registry mirror serves them (trimmed: no maintainers,
 * no publishers, `time` holding the mirror's own dates), recorded for the defects a sweep of
 * real packages found (fixtures/PROVENANCE.md): the report must read what the packument says,
 * and never turn the mirror's dates into a finding.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useFixtureServers, type FixtureResponse, type FixtureServer } from '../support/fixture-server.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';
import { makeTarball } from '../support/tarball.js';
import { integrityOf, recordedOsvRecord, serveOsv } from './audit-helpers.js';
import { checkOf, githubAnswers, osvNoAdvisories, parseReport, requireBuiltCli, schemaViolations, syntheticDependency } from './helpers.js';

let server: FixtureServer | undefined;
beforeAll(() => requireBuiltCli());
const startServer = useFixtureServers();

/** The checks that hold a report's verdict (`verdict-held` reasons). */
const heldBy = (report: ReturnType<typeof parseReport>): unknown[] => report.verdictReasonDetails.filter((d) => d.code === 'verdict-held').map((d) => d.args.check);
afterEach(() => {
  server = undefined;
});

/**
 * Routes of one `check <name>`: the recorded packument (or the one given), the tarball
 * (recorded, given, else a 503), no download counts.
 */
async function serve(
  name: string,
  version: string,
  tarballRecorded: boolean | FixtureResponse = false,
  packument?: FixtureResponse,
): Promise<FixtureServer> {
  const s = await startServer();
  s.expect('GET', `/npm/${name}`, packument);
  const tarball = tarballRecorded === true ? undefined : tarballRecorded === false ? { status: 503, body: 'not recorded' } : tarballRecorded;
  s.expect('GET', `/npm/${name}/-/${name}-${version}.tgz`, tarball);
  for (const period of ['last-week', 'last-year']) s.expect('GET', `/npm-api/downloads/point/${period}/${name}`, { status: 404, body: { error: 'not found' } });
  githubAnswers(s);
  s.route('POST', '/osv/v1/querybatch', osvNoAdvisories);
  server = s;
  return s;
}

describe('a trimmed packument whose times are the mirror’s', () => {
  it('mkdirp 3.0.1 is compared with 3.0.0, its semver predecessor, not with 0.3.5 that the mirror dated just before it', async () => {
    const s = await serve('mkdirp', '3.0.1');
    const result = await runCli(['check', 'mkdirp', '--json'], { server: s });
    const report = parseReport(result.stdout);
    expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
    expect(report.target.version).toBe('3.0.1');
    const anomalies = checkOf(report, 'release-anomalies');
    expect(anomalies.evidence.previousVersion).toBe('3.0.0');
    expect(anomalies.evidence.anomalies).toEqual([]);
    expect(anomalies.messageId).not.toMatch(/^(one|several)$/);
    expect(anomalies.score).toBe(100);
  });
});

describe('what a mirror leaves out is unknown, not absent', () => {
  it('mkdirp 3.0.1: no `dist.attestations` in a trimmed packument → provenance unknown, not "no provenance" (50)', async () => {
    const s = await serve('mkdirp', '3.0.1');
    const report = parseReport((await runCli(['check', 'mkdirp', '--json'], { server: s })).stdout);
    const provenance = checkOf(report, 'provenance');
    expect(provenance.messageId).toBe('not-in-packument');
    expect(provenance.score).toBeNull();
    expect(provenance.status).toBe('unknown');
  });
});

describe('a licence file holding several licence texts', () => {
  it('abbrev 5.0.0 declares ISC and ships a LICENSE with the ISC and the MIT texts: consistent, not a contradiction', async () => {
    const s = await serve('abbrev', '5.0.0', true);
    const result = await runCli(['check', 'abbrev', '--json'], { server: s });
    const report = parseReport(result.stdout);
    expect(report.target.version).toBe('5.0.0');
    const file = checkOf(report, 'license-file');
    expect(file.messageId).toBe('consistent');
    expect(file.score).toBe(100);
    expect(file.evidence.found).toEqual(['MIT', 'ISC']);
    expect(file.evidence.declared).toBe('ISC');
  });
});

describe('a native addon that opts out of the implicit build', () => {
  it('better-sqlite3 13.2.0 ships binding.gyp with `gypfile: false` and no install script: npm runs nothing at install', async () => {
    // The recorded packument; the tarball is built here (the real one is 11 MB of prebuilt
    // binaries): its package.json says what the registry's does, beside a binding.gyp.
    const recorded = JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures', 'http', 'npm', 'better-sqlite3.json'), 'utf8')) as {
      versions: Record<string, Record<string, unknown>>;
    };
    const manifest = recorded.versions['13.2.0'] as Record<string, unknown>;
    const { dist: _dist, ...fields } = manifest;
    const tarball = makeTarball([
      { path: 'package.json', content: JSON.stringify(fields, null, 2) },
      { path: 'binding.gyp', content: '{ "targets": [] }\n' },
      { path: 'README.md', content: '# better-sqlite3\n' },
    ]);
    manifest.dist = { ...(manifest.dist as object), integrity: integrityOf(tarball), shasum: undefined };
    const s = await serve('better-sqlite3', '13.2.0', { status: 200, body: tarball }, { status: 200, body: JSON.stringify(recorded) });
    s.expect('GET', '/npm/node-addon-api', syntheticDependency('node-addon-api', '^8.0.0'));
    const result = await runCli(['check', 'better-sqlite3', '--json'], { server: s });
    const report = parseReport(result.stdout);
    expect(report.target.version).toBe('13.2.0');
    const install = checkOf(report, 'install-scripts');
    expect(install.messageId).toBe('none');
    expect(install.score).toBe(100);
    expect(install.evidence.gyp).toBe(false);
    expect(install.evidence.bindingGyp).toBe(true);
  });
});

describe('a package the registry keeps with no version at all', () => {
  async function removed(records: Record<string, unknown>[]): Promise<FixtureServer> {
    const s = await startServer();
    s.expect('GET', '/npm/flatmap-stream');
    serveOsv(s, records);
    server = s;
    return s;
  }

  it('flatmap-stream (removed for malware: `versions` empty) is asked about by name: its MAL record → NO — DO NOT USE, exit 1', async () => {
    const s = await removed([recordedOsvRecord('MAL-2025-20690')]);
    const result = await runCli(['check', 'flatmap-stream', '--json'], { server: s });
    expect(result.code, result.stderr).toBe(1);
    const report = parseReport(result.stdout);
    expect(report.verdictCode).toBe('do-not-use');
    expect(report.caps.map((c) => c.id)).toContain('malicious');
    expect(s.requests.filter((r) => r.path.startsWith('/osv/')).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /osv/v1/query']);
  });

  it('no record: not found (the package is gone), exit 3', async () => {
    const s = await removed([]);
    const result = await runCli(['check', 'flatmap-stream', '--json'], { server: s });
    expect(result.code, result.stderr).toBe(3);
    expect(parseReport(result.stdout).error?.code).toBe('not-found');
  });
});

describe('a stub package whose registry notice the mirror left out', () => {
  it('@types/node-fetch 3.0.2 (a DefinitelyTyped stub: "node-fetch provides its own type definitions") is held at CAUTION by its README, not YES', async () => {
    // The mirror's packument has no `deprecated`; the recorded tarball's README is the stub's notice.
    const s = await startServer();
    s.expect('GET', '/npm/@types/node-fetch');
    s.expect('GET', '/npm/@types/node-fetch/-/node-fetch-3.0.2.tgz');
    s.expect('GET', '/npm/node-fetch', syntheticDependency('node-fetch', '*'));
    for (const period of ['last-week', 'last-year']) s.expect('GET', `/npm-api/downloads/point/${period}/@types/node-fetch`, { status: 404, body: { error: 'not found' } });
    s.route('POST', '/osv/v1/querybatch', osvNoAdvisories);
    server = s;
    const result = await runCli(['check', '@types/node-fetch@3', '--json'], { server: s });
    const report = parseReport(result.stdout);
    expect(report.target.version).toBe('3.0.2');
    const deprecation = checkOf(report, 'deprecation');
    expect(deprecation.messageId).toBe('readme-declared');
    expect(deprecation.evidence.deprecated).toBeNull();
    expect(deprecation.evidence.where).toBe('first paragraph');
    expect(report.verdictCode).toBe('caution');
    expect(heldBy(report)).toContain('deprecation');
  });
});

describe('a deprecation the README declares in its first section heading', () => {
  it('karma 6.4.4 ("## Karma is deprecated …" under its opening paragraphs, recorded) is held at CAUTION by the deprecation check, its heading quoted', async () => {
    // A mirror-shaped packument (no `deprecated` field) and a tarball whose README is the recorded opening.
    const readme = readFileSync(path.join(REPO_ROOT, 'fixtures', 'readmes', 'karma-6.4.4-opening.md'), 'utf8');
    const manifest = { name: 'karma', version: '6.4.4', description: 'Spectacular Test Runner for JavaScript.', license: 'MIT' };
    const tarball = makeTarball([
      { path: 'package.json', content: JSON.stringify(manifest) },
      { path: 'README.md', content: readme },
      { path: 'LICENSE', content: 'The MIT License\n' },
    ]);
    const packument = {
      status: 200,
      body: JSON.stringify({
        name: 'karma',
        'dist-tags': { latest: '6.4.4' },
        versions: { '6.4.4': { ...manifest, dist: { tarball: '{{REGISTRY}}/karma/-/karma-6.4.4.tgz', integrity: integrityOf(tarball) } } },
        time: { created: '2024-07-29T00:00:00.000Z', modified: '2024-07-29T00:00:00.000Z', '6.4.4': '2024-07-29T00:00:00.000Z' },
      }),
    };
    const s = await serve('karma', '6.4.4', { status: 200, body: tarball }, packument);
    const report = parseReport((await runCli(['check', 'karma', '--json'], { server: s })).stdout);
    expect(report.target.version).toBe('6.4.4');
    const deprecation = checkOf(report, 'deprecation');
    expect(deprecation.messageId).toBe('readme-declared');
    expect(deprecation.evidence.where).toBe('first section heading');
    expect(deprecation.evidence.excerpt).toBe('Karma is deprecated and is not accepting new features or general bug fixes.');
    expect(deprecation.score).toBe(20);
    expect(report.verdictCode).not.toBe('yes');
    expect(heldBy(report)).toContain('deprecation');
  });
});

describe('a dist-tag the mirror left out', () => {
  it('typescript@next: the trimmed packument keeps only `latest`, so "next" is not known missing — registry-unavailable, not version-not-found; exit 3', async () => {
    const s = await startServer();
    s.expect('GET', '/npm/typescript');
    server = s;
    const result = await runCli(['check', 'typescript@next', '--json'], { server: s });
    expect(result.code, result.stderr).toBe(3);
    const report = parseReport(result.stdout);
    expect(report.error?.code).toBe('registry-unavailable');
    expect(report.verdictCode).toBe('unknown');
    // Only the packument was asked: nothing is evaluated.
    expect(s.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /npm/typescript']);
  });

  it('typescript@7.0.2 and typescript (latest) still resolve from the same packument', async () => {
    const s = await serve('typescript', '7.0.2');
    const result = await runCli(['check', 'typescript', '--json'], { server: s });
    expect(parseReport(result.stdout).target.version).toBe('7.0.2');
  });
});

describe("a bundle's code page tables are not a hidden payload", () => {
  it("next 16.5.0 (recorded packument): its compiled raw-body's iconv-lite tables, each row's first Private Use Area character a string of its own, do not hold the verdict", async () => {
    // The recorded packument; the tarball is built here (the real one is 45 MB): its package.json
    // says what the registry's does, beside the entry points and the recorded excerpt of
    // dist/compiled/raw-body/index.js that was read as an invisible payload (fixtures/PROVENANCE.md).
    const recorded = JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures', 'http', 'npm', 'next.json'), 'utf8')) as {
      versions: Record<string, Record<string, unknown>>;
    };
    const manifest = recorded.versions['16.5.0'] as Record<string, unknown>;
    const { dist: _dist, ...fields } = manifest;
    const tables = readFileSync(path.join(REPO_ROOT, 'fixtures', 'obfuscated-code', 'next', 'raw-body-dbcs-tables-excerpt.js'));
    const tarball = makeTarball([
      { path: 'package.json', content: JSON.stringify(fields, null, 2) },
      { path: 'README.md', content: '# Next.js\n\nThe React Framework.\n' },
      { path: 'license.md', content: 'The MIT License (MIT)\n' },
      { path: 'dist/bin/next', content: '#!/usr/bin/env node\n"use strict";\n' },
      { path: 'dist/server/next.js', content: '"use strict";\nmodule.exports = {};\n' },
      { path: 'dist/compiled/raw-body/index.js', content: tables },
    ]);
    manifest.dist = { ...(manifest.dist as object), integrity: integrityOf(tarball), shasum: undefined };
    const s = await serve('next', '16.5.0', { status: 200, body: tarball }, { status: 200, body: JSON.stringify(recorded) });
    const dependencies = { ...(manifest.dependencies as Record<string, string>), ...(manifest.optionalDependencies as Record<string, string>) };
    for (const [name, range] of Object.entries(dependencies)) s.expect('GET', `/npm/${name}`, syntheticDependency(name, range));
    const result = await runCli(['check', 'next', '--json'], { server: s });
    const report = parseReport(result.stdout);
    expect(report.target.version).toBe('16.5.0');
    expect(report.checks.find((c) => c.id === 'obfuscated-code')?.score ?? 100).toBe(100);
    expect(heldBy(report)).not.toContain('obfuscated-code');
  });
});

describe('a name npm has held with a security-holding package', () => {
  it('d3.js 1.0.2 (latest) beside 0.0.2-security: published code, but the verdict is held at CAUTION with the placeholder named, never YES', async () => {
    const s = await serve('d3.js', '1.0.2', true);
    const result = await runCli(['check', 'd3.js', '--json', '--allow-incomplete'], { server: s });
    const report = parseReport(result.stdout);
    expect(schemaViolations(JSON.parse(result.stdout))).toEqual([]);
    expect(report.target.version).toBe('1.0.2');
    const placeholder = checkOf(report, 'security-placeholder');
    expect([placeholder.messageId, placeholder.score, placeholder.evidence.placeholder]).toEqual(['held-before', 50, '0.0.2-security']);
    expect(report.verdictCode).toBe('caution');
    expect(report.verdictReasonDetails.some((d) => d.code === 'verdict-held' && d.args.check === 'security-placeholder')).toBe(true);
  });

  it('crossenv 0.0.2-security, the placeholder itself: still NO — DO NOT USE, not held as a name held before', async () => {
    const s = await serve('crossenv', '0.0.2-security', true);
    const report = parseReport((await runCli(['check', 'crossenv', '--json'], { server: s })).stdout);
    expect(checkOf(report, 'security-placeholder').messageId).toBe('placeholder');
    expect(report.verdictCode).toBe('do-not-use');
  });
});

describe('a deprecation the registry description declares', () => {
  it('@sourcegraph/amp ("Renamed to @ampcode/cli - see …", recorded; no `deprecated`, no tarball) is held at CAUTION by its description', async () => {
    const version = '0.0.1790142911-g7618fb';
    const s = await startServer();
    s.expect('GET', '/npm/@sourcegraph/amp');
    s.expect('GET', `/npm/@sourcegraph/amp/-/amp-${version}.tgz`, { status: 503, body: 'not recorded' });
    s.expect('GET', '/npm/@ampcode/cli', syntheticDependency('@ampcode/cli', version));
    for (const period of ['last-week', 'last-year']) s.expect('GET', `/npm-api/downloads/point/${period}/@sourcegraph/amp`, { status: 404, body: { error: 'not found' } });
    s.route('POST', '/osv/v1/querybatch', osvNoAdvisories);
    server = s;
    const result = await runCli(['check', '@sourcegraph/amp', '--json'], { server: s });
    const report = parseReport(result.stdout);
    expect(report.target.version).toBe(version);
    const deprecation = checkOf(report, 'deprecation');
    expect(deprecation.messageId).toBe('description-declared');
    expect(deprecation.evidence.deprecated).toBeNull();
    expect(deprecation.evidence.descriptionDeclared).toBe(true);
    expect(report.verdictCode).not.toBe('yes');
    expect(heldBy(report)).toContain('deprecation');
  });
});

describe('a stable release beside its platform builds', () => {
  it('@openai/codex 0.171.0 (recorded) is compared with 0.170.0, not with 0.171.0-win32-x64, a platform build semver puts just before it', async () => {
    const s = await startServer();
    s.expect('GET', '/npm/@openai/codex');
    s.expect('GET', '/npm/@openai/codex/-/codex-0.171.0.tgz', { status: 503, body: 'not recorded' });
    for (const period of ['last-week', 'last-year']) s.expect('GET', `/npm-api/downloads/point/${period}/@openai/codex`, { status: 404, body: { error: 'not found' } });
    githubAnswers(s);
    s.route('POST', '/osv/v1/querybatch', osvNoAdvisories);
    server = s;
    const result = await runCli(['check', '@openai/codex', '--json'], { server: s });
    const report = parseReport(result.stdout);
    expect(report.target.version).toBe('0.171.0');
    const anomalies = checkOf(report, 'release-anomalies');
    expect(anomalies.evidence.previousVersion).toBe('0.170.0');
    expect(anomalies.evidence.anomalies).toEqual([]);
    expect(anomalies.score).toBe(100);
  });
});
