/**
 * `nerq audit` of a pnpm project that declares a GitHub dependency under an alias: the lockfile
 * fetches `@CuriousCorrelation/plugin-appload` as a codeload tarball for the importer's
 * `@hoppscotch/plugin-appload`. The lockfile lines are those of hoppscotch/hoppscotch's
 * pnpm-lock.yaml (fixtures/PROVENANCE.md), cut down to this one dependency (an edit: the other
 * importers and packages are left out, and its `@tauri-apps/api` dependency with them). The
 * unvouched entry names the package fetched and the name the project declares; an ignore entry
 * may name either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFixtureServers, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { parseAudit, TempDirs } from './audit-helpers.js';
import { requireBuiltCli } from './helpers.js';

const TARBALL = 'https://codeload.github.com/CuriousCorrelation/tauri-plugin-appload/tar.gz/9d4528be4f385bccbe46859631d31aa2ee1ec0b6';
const KEY = `@CuriousCorrelation/plugin-appload@${TARBALL}`;
const LOCK = `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    dependencies:
      '@hoppscotch/plugin-appload':
        specifier: github:CuriousCorrelation/tauri-plugin-appload#9d4528be4f385bccbe46859631d31aa2ee1ec0b6
        version: '${KEY}'

packages:

  '${KEY}':
    resolution: {gitHosted: true, integrity: sha512-fH4riUTO4+6/Pr87Q4PTV7EqGXEnSuLl01g3ws54V2k+A3LDzbCrSa+50XBbmPgroHxnhefkXig8q8qL099f0g==, tarball: ${TARBALL}}
    version: 0.1.0

snapshots:

  '${KEY}': {}
`;
const MANIFEST = `${JSON.stringify({ name: 'app', private: true, dependencies: { '@hoppscotch/plugin-appload': 'github:CuriousCorrelation/tauri-plugin-appload#9d4528be4f385bccbe46859631d31aa2ee1ec0b6' } }, null, 2)}\n`;

const dirs = new TempDirs();
let server: FixtureServer;

const startServer = useFixtureServers();

beforeAll(() => requireBuiltCli());
afterAll(() => dirs.cleanUp());

describe('nerq audit: a GitHub tarball declared under an alias', () => {
  it('names the declared alias beside the package fetched, in JSON, warnings and SARIF; an ignore entry naming the alias covers it', async () => {
    server = await startServer();
    const dir = dirs.project({ 'pnpm-lock.yaml': LOCK, 'package.json': MANIFEST });
    const json = await runCli(['audit', dir, '--json'], { server });
    expect(json.code, json.stderr).toBe(3);
    const report = parseAudit(json.stdout);
    expect(report.unvouched?.map((r) => [r.name, r.declaredAs, r.host, r.source, r.status])).toEqual([
      ['@CuriousCorrelation/plugin-appload', ['@hoppscotch/plugin-appload'], 'codeload.github.com', TARBALL, 'unvouched'],
    ]);
    expect(report.warnings.find((w) => w.code === 'unvouched-remote')?.details.declaredAs).toEqual(['@hoppscotch/plugin-appload']);

    const sarif = await runCli(['audit', dir, '--format', 'sarif'], { server });
    const results = (JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; properties: Record<string, unknown> }[] }[] }).runs[0]!.results;
    expect(results.map((r) => [r.ruleId, r.properties.package, r.properties.declaredAs])).toEqual([
      ['policy/unvouched-remote', '@CuriousCorrelation/plugin-appload', ['@hoppscotch/plugin-appload']],
    ]);

    const policy = JSON.stringify({ ignore: [{ package: '@hoppscotch/plugin-appload', reason: 'our fork of the Tauri plugin, reviewed' }] });
    const ignored = await runCli(['audit', dirs.project({ 'pnpm-lock.yaml': LOCK, 'package.json': MANIFEST, '.nerqrc.json': policy }), '--json'], { server });
    expect(ignored.code, ignored.stderr).toBe(0);
    expect(parseAudit(ignored.stdout).unvouched?.map((r) => [r.status, r.ignoredBy?.package])).toEqual([['ignored', '@hoppscotch/plugin-appload']]);
    // Nothing is fetched for it.
    expect(server.requests).toEqual([]);
  });
});
