/**
 * Every lockfile format describing the same project (fixtures/lockfiles/*: chalk@4.1.0,
 * debug@4.2.0, @types/semver@7.8.0 and their six transitive packages) gives the same result list
 * — name, version, status, score — through the CLI with `--file`. The three direct packages are
 * the recorded fixture packages; the transitive ones are synthetic, served from handlers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { integritiesOf, kindOf, parseAudit, repeated, resultRows, useAuditServer } from './audit-helpers.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { expectPackage } from './helpers.js';

const FIXTURE_PACKAGES = ['chalk', 'debug', '@types/semver'];
const TRANSITIVE = [
  { name: 'ansi-styles', version: '4.3.0' },
  { name: 'color-convert', version: '2.0.1' },
  { name: 'color-name', version: '1.1.4' },
  { name: 'has-flag', version: '4.0.0' },
  { name: 'ms', version: '2.1.2' },
  { name: 'supports-color', version: '7.2.0' },
];
const EXPECTED_PACKAGES = ['@types/semver@7.8.0', 'ansi-styles@4.3.0', 'chalk@4.1.0', 'color-convert@2.0.1', 'color-name@1.1.4', 'debug@4.2.0', 'has-flag@4.0.0', 'ms@2.1.2', 'supports-color@7.2.0'];

const FORMATS: [fixture: string, file: string, format: string][] = [
  ['npm-v3', 'package-lock.json', 'package-lock@3'],
  ['npm-v2', 'package-lock.json', 'package-lock@2'],
  ['npm-v1', 'package-lock.json', 'package-lock@1'],
  ['npm-shrinkwrap', 'npm-shrinkwrap.json', 'npm-shrinkwrap@2'],
  ['pnpm-v5', 'pnpm-lock.yaml', 'pnpm-lock@5.4'],
  ['pnpm-v6', 'pnpm-lock.yaml', 'pnpm-lock@6.0'],
  ['pnpm-v9', 'pnpm-lock.yaml', 'pnpm-lock@9.0'],
  ['yarn-berry', 'yarn.lock', 'yarn-berry'],
  ['bun', 'bun.lock', 'bun.lock@1'],
  ['sbom-cyclonedx', 'bom.cdx.json', 'cyclonedx'],
  ['sbom-cyclonedx', 'bom.cdx.xml', 'cyclonedx'],
];

/** What the test's registry publishes for each locked package: the lockfiles pin these bytes. */
const SERVED_INTEGRITY: Record<string, string> = Object.fromEntries([
  ...FIXTURE_PACKAGES.map((name) => {
    const packument = JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures', 'http', 'npm', `${name}.json`), 'utf8')) as {
      'dist-tags': { latest: string };
      versions: Record<string, { dist: { integrity: string } }>;
    };
    const version = EXPECTED_PACKAGES.find((p) => p.startsWith(`${name}@`))!.slice(name.length + 1);
    return [`${name}@${version}`, packument.versions[version]!.dist.integrity];
  }),
  ...TRANSITIVE.map((pkg) => [`${pkg.name}@${pkg.version}`, integritiesOf(pkg)[pkg.version]!]),
]);

let server: FixtureServer;
let reference: string[] | undefined;

// The packages are declared first: the fixture packages' helper declares synthetic answers for their dependencies' packuments too.
const dirs = useAuditServer({ packages: TRANSITIVE }, (started) => {
  server = started;
  for (const name of FIXTURE_PACKAGES) expectPackage(server, name);
});

/** Rows sorted by package: the order inside a status is by score, then name, for every format alike. */
const sortedRows = (rows: string[]) => [...rows].sort();

/** Audit `fixtures/lockfiles/<fixture>` with `--file <file>`; compare with the first format's result list. */
async function expectSameResults(fixture: string, file: string, format: string): Promise<void> {
    const dir = dirs.fixtureCopy(fixture, server.url('npm'), SERVED_INTEGRITY);
    const before = server.requests.length;
    const result = await runCli(['audit', dir, '--file', file, '--json'], { server });
    const requests = server.requests.slice(before);
    expect([0, 1, 3], result.stderr).toContain(result.code);
    const report = parseAudit(result.stdout);
    expect(report.inputs).toEqual([{ file, format }]);
    expect(report.entries.map((e) => `${e.subject.name}@${e.subject.version}`).sort()).toEqual(EXPECTED_PACKAGES);
    // Every package evaluated once, each packument fetched once and in full.
    expect(repeated(requests)).toEqual([]);
    expect(requests.filter((r) => kindOf(r) === 'packument-full')).toHaveLength(EXPECTED_PACKAGES.length);
    expect(requests.filter((r) => kindOf(r) === 'packument-abbreviated')).toEqual([]);
    expect(requests.filter((r) => kindOf(r) === 'osv-querybatch')).toHaveLength(1);

    const rows = resultRows(report);
    expect(rows).toHaveLength(EXPECTED_PACKAGES.length);
    expect(rows.every((row) => !row.endsWith(' null')), rows.join('\n')).toBe(true);
    reference ??= rows;
    expect(sortedRows(rows)).toEqual(sortedRows(reference));
    expect(rows, 'worst first, in the same order').toEqual(reference);
}

describe('the same dependency set in every lockfile format', () => {
  it.each(FORMATS)('%s/%s', expectSameResults);

  // The bundled @yarnpkg/lockfile reads __filename: the build's shims (tsup.config.ts) define it.
  it('yarn-classic/yarn.lock', () => expectSameResults('yarn-classic', 'yarn.lock', 'yarn-classic'));
});
