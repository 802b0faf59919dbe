/**
 * Hostile world: a package.json whose overrides send a package elsewhere. npm's `overrides`
 * (nested too), yarn's `resolutions` and pnpm's `pnpm.overrides` replace a package wherever it is
 * in the tree: with a git or GitHub spec, a tarball URL or a path, the package manager installs
 * that code; with an `npm:` alias, another package under the name. Read alone (a pull request
 * that adds the override and no lockfile), the manifest must not pass the registry's package of
 * that name: the fetched code is an unvouched-remote finding (docs/security.md, "Dependencies no
 * registry vouches for"), and an alias is audited as the package it installs.
 */
import { describe, it } from 'vitest';
import { parseAudit, serveSynthetic, writeIn, type SyntheticPackage } from '../cli/audit-helpers.js';
import { useAuditWorld } from './support/audit-world.js';
import { runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';

const TRUSTED: SyntheticPackage = { name: 'nerq-trusted', version: '4.1.0' };
const EVIL: SyntheticPackage = { name: 'nerq-evil', version: '1.0.0' };
const ANY_SCORE = { minScore: 0, minCoverage: 0 };

const world = useAuditWorld((server) => {
  serveSynthetic(server, TRUSTED);
  serveSynthetic(server, EVIL);
});
const dirs = world.dirs;

async function audit(manifest: Record<string, unknown>) {
  const dir = dirs.make();
  writeIn(dir, 'package.json', JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` }, ...manifest }, null, 2));
  writeIn(dir, '.nerqrc.json', JSON.stringify(ANY_SCORE));
  const run = await runHostile(['audit', dir, '--json', '--timeout', '30'], { server: world.server });
  return { run, report: parseAudit(run.stdout) as ReturnType<typeof parseAudit> & { warnings: { code: string; details: Record<string, unknown> }[] } };
}

/** [label, the manifest's override fields, the package fetched]: each installs code from git.example under a registry name. */
const REMOTE: [string, Record<string, unknown>, string][] = [
  ['npm overrides, a git URL for a direct dependency', { overrides: { [TRUSTED.name]: 'git+https://git.example/evil/trusted.git' } }, TRUSTED.name],
  ['npm overrides, nested, a tarball URL for a package deeper down', { overrides: { [TRUSTED.name]: { 'ansi-styles': 'https://git.example/evil/ansi-styles-4.3.0.tgz' } } }, 'ansi-styles'],
  ['yarn resolutions, a glob to a tarball URL', { resolutions: { [`**/${TRUSTED.name}`]: 'https://git.example/evil/trusted-4.1.0.tgz' } }, TRUSTED.name],
  ['pnpm.overrides, a parent>child selector to git', { pnpm: { overrides: { [`app>${TRUSTED.name}@^4`]: 'git+https://git.example/evil/trusted.git#main' } } }, TRUSTED.name],
];

describe('an override that fetches a package from outside the registry', () => {
  it.concurrent.for(REMOTE)('%s: an unvouched-remote finding naming the host, the registry package not passed, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, fields, fetched], { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(fields);
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    const remote = report.warnings.filter((w) => w.code === 'unvouched-remote');
    expect(remote.map((w) => [w.details.package, w.details.host]), context).toEqual([[fetched, 'git.example']]);
    if (fetched === TRUSTED.name) expect(report.entries.map((e) => e.subject.name), context).toEqual([]);
  });
});

describe('an override that installs another registry package under the name', () => {
  it.concurrent.for([
    ['npm overrides', { overrides: { [TRUSTED.name]: `npm:${EVIL.name}@${EVIL.version}` } }],
    ['yarn resolutions', { resolutions: { [TRUSTED.name]: `npm:${EVIL.name}@${EVIL.version}` } }],
    ['pnpm.overrides', { pnpm: { overrides: { [TRUSTED.name]: `npm:${EVIL.name}@${EVIL.version}` } } }],
  ] as [string, Record<string, unknown>][])('%s, an npm: alias: audited as the package installed, never as the one named', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, fields], { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(fields);
    expect(report.entries.map((e) => `${e.subject.name}@${e.subject.version}`), `${label}: ${run.stderr}`).toEqual([`${EVIL.name}@${EVIL.version}`]);
  });
});
