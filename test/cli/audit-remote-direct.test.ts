/**
 * `--direct` and `--omit dev` leave remote entries (a git repository or URL no registry vouches
 * for) out by the rule they apply to packages (README.md, `nerq audit`; docs/security.md): a
 * run whose only remote entry is transitive passes with `--direct` (exit 3 → 0), one whose only
 * remote entry is dev-only passes with `--omit dev`, and a direct production one keeps the run
 * INCOMPLETE under both. An entry left out is in no output: JSON `unvouched` and `warnings`,
 * SARIF results and Markdown all agree with the filtered report.
 */
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { integritiesOf, packageLockV3, parseAudit, useAuditServer, type SyntheticPackage } from './audit-helpers.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const PARENT: SyntheticPackage = { name: 'nerq-audit-first', version: '1.0.0' };

let server: FixtureServer;

/** Which remote entry the project has: a production one it declares, one only its registry dependency pulls in, or a development one. */
type Remote = 'direct' | 'transitive' | 'dev';

const SPEC: Record<Remote, { name: string; spec: string; resolved: string }> = {
  direct: { name: 'direct-git', spec: 'github:acme/direct-git#v1', resolved: `git+ssh://git@github.com/acme/direct-git.git#${SHA}` },
  transitive: { name: 'deep-git', spec: 'git+https://git.example.com/acme/deep-git.git', resolved: `git+https://git.example.com/acme/deep-git.git#${SHA}` },
  dev: { name: 'dev-git', spec: 'git+https://dev.example.com/acme/dev-git.git', resolved: `git+https://dev.example.com/acme/dev-git.git#${SHA}` },
};

/** package-lock v3 and package.json: the registry package (direct), and the remote entries asked for. */
function npmProject(remotes: readonly Remote[]): string {
  const { lock, manifest } = packageLockV3([{ ...PARENT, direct: true }], server.url('npm'));
  const lockJson = JSON.parse(lock) as { packages: Record<string, Record<string, unknown>> };
  const root = JSON.parse(manifest) as Record<string, unknown> & { dependencies: Record<string, string> };
  const dependencies = { ...root.dependencies, ...(remotes.includes('direct') ? { [SPEC.direct.name]: SPEC.direct.spec } : {}) };
  const devDependencies = remotes.includes('dev') ? { [SPEC.dev.name]: SPEC.dev.spec } : undefined;
  const rootEntry = { ...lockJson.packages[''], dependencies, ...(devDependencies === undefined ? {} : { devDependencies }) };
  const packages: Record<string, unknown> = { ...lockJson.packages, '': rootEntry };
  if (remotes.includes('transitive')) {
    packages[`node_modules/${PARENT.name}`] = { ...lockJson.packages[`node_modules/${PARENT.name}`], dependencies: { [SPEC.transitive.name]: SPEC.transitive.spec } };
  }
  for (const remote of remotes) {
    packages[`node_modules/${SPEC[remote].name}`] = { version: '1.0.0', resolved: SPEC[remote].resolved, ...(remote === 'dev' ? { dev: true } : {}), license: 'MIT' };
  }
  const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
  return dirs.project({
    'package-lock.json': `${JSON.stringify({ ...lockJson, packages: sorted }, null, 2)}\n`,
    'package.json': `${JSON.stringify({ ...root, dependencies, ...(devDependencies === undefined ? {} : { devDependencies }) }, null, 2)}\n`,
  });
}

/** pnpm-lock.yaml v9 and package.json, the same project as pnpm writes it. */
function pnpmProject(remotes: readonly Remote[]): string {
  const integrity = integritiesOf(PARENT)[PARENT.version] as string;
  const ref = (remote: Remote) => `${SPEC[remote].resolved.replace(/^git\+ssh:\/\/git@github\.com\/(.+)\.git#/, 'https://codeload.github.com/$1/tar.gz/')}`;
  const key = (remote: Remote) => `${SPEC[remote].name}@${ref(remote)}`;
  const importer = [
    '  .:',
    '    dependencies:',
    ...(remotes.includes('direct') ? [`      ${SPEC.direct.name}:`, `        specifier: ${SPEC.direct.spec}`, `        version: ${ref('direct')}`] : []),
    `      ${PARENT.name}:`,
    `        specifier: ^${PARENT.version}`,
    `        version: ${PARENT.version}`,
    ...(remotes.includes('dev') ? ['    devDependencies:', `      ${SPEC.dev.name}:`, `        specifier: ${SPEC.dev.spec}`, `        version: ${ref('dev')}`] : []),
  ];
  const packages = [
    ...remotes.flatMap((remote) => [
      `  ${key(remote)}:`,
      remote === 'direct' ? `    resolution: {tarball: ${ref(remote)}}` : `    resolution: {commit: ${SHA}, repo: ${SPEC[remote].spec.replace(/^git\+/, '')}, type: git}`,
      '    version: 1.0.0',
      '',
    ]),
    `  ${PARENT.name}@${PARENT.version}:`,
    `    resolution: {integrity: ${integrity}}`,
    '',
  ];
  const snapshots = [
    ...remotes.flatMap((remote) => [`  ${key(remote)}: {}`, '']),
    ...(remotes.includes('transitive')
      ? [`  ${PARENT.name}@${PARENT.version}:`, '    dependencies:', `      ${SPEC.transitive.name}: ${ref('transitive')}`]
      : [`  ${PARENT.name}@${PARENT.version}: {}`]),
  ];
  const lock = [
    "lockfileVersion: '9.0'",
    '',
    'settings:',
    '  autoInstallPeers: true',
    '  excludeLinksFromLockfile: false',
    '',
    'importers:',
    '',
    ...importer,
    '',
    'packages:',
    '',
    ...packages,
    'snapshots:',
    '',
    ...snapshots,
    '',
  ].join('\n');
  const manifest = {
    name: 'audited-app',
    version: '1.0.0',
    private: true,
    dependencies: { [PARENT.name]: `^${PARENT.version}`, ...(remotes.includes('direct') ? { [SPEC.direct.name]: SPEC.direct.spec } : {}) },
    ...(remotes.includes('dev') ? { devDependencies: { [SPEC.dev.name]: SPEC.dev.spec } } : {}),
  };
  return dirs.project({ 'pnpm-lock.yaml': lock, 'package.json': `${JSON.stringify(manifest, null, 2)}\n` });
}

/** pip-compile output: requirements.txt (a transitive entry is one whose `# via` names a package) and requirements-dev.txt. */
function requirementsProject(remotes: readonly Remote[]): string {
  const header = (input: string) => `#\n# This file is autogenerated by pip-compile with Python 3.11\n# by the following command:\n#\n#    pip-compile ${input}\n#\n`;
  const line = (remote: Remote, via: string) => `${SPEC[remote].name} @ ${SPEC[remote].spec.replace(/^github:acme\/(.+)#(.+)$/, 'git+https://github.com/acme/$1.git@$2')}\n    # via ${via}\n`;
  const prod = remotes.filter((r) => r !== 'dev');
  return dirs.project({
    'requirements.txt': `${header('requirements.in')}${prod.map((r) => line(r, r === 'direct' ? '-r requirements.in' : 'some-library')).join('')}`,
    ...(remotes.includes('dev') ? { 'requirements-dev.txt': `${header('requirements-dev.in')}${line('dev', '-r requirements-dev.in')}` } : {}),
  });
}

const FORMATS: [string, (remotes: readonly Remote[]) => string][] = [
  ['package-lock.json', npmProject],
  ['pnpm-lock.yaml', pnpmProject],
  ['requirements*.txt', requirementsProject],
];

const dirs = useAuditServer({ packages: [PARENT] }, (started) => {
  server = started;
});

const audit = async (dir: string, ...args: string[]) => {
  const result = await runCli(['audit', dir, '--json', ...args], { server });
  return { code: result.code, report: parseAudit(result.stdout), stderr: result.stderr };
};

describe.each(FORMATS)('%s: --direct and --omit dev filter remote entries as they filter packages', (_, project) => {
  it('only a transitive remote entry: exit 3, and 0 with --direct (nothing left unvouched)', async () => {
    const dir = project(['transitive']);
    const all = await audit(dir);
    expect(all.code, all.stderr).toBe(3);
    expect(all.report.unvouched?.map((u) => [u.name, u.direct, u.dev])).toEqual([[SPEC.transitive.name, false, false]]);
    const direct = await audit(dir, '--direct');
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.report.outcome).toEqual({ result: 'pass', exitCode: 0, allowIncomplete: false });
    expect(direct.report.unvouched).toBeUndefined();
    expect(direct.report.warnings.filter((w) => w.code === 'unvouched-remote')).toEqual([]);
  });

  it('only a dev-only remote entry: exit 3, and 0 with --omit dev', async () => {
    const dir = project(['dev']);
    const all = await audit(dir);
    expect(all.code, all.stderr).toBe(3);
    expect(all.report.unvouched?.map((u) => [u.name, u.direct, u.dev])).toEqual([[SPEC.dev.name, true, true]]);
    const prod = await audit(dir, '--omit', 'dev');
    expect(prod.code, prod.stderr).toBe(0);
    expect(prod.report.unvouched).toBeUndefined();
  });

  it('a direct production remote entry keeps the run incomplete (exit 3) under --direct and --omit dev', async () => {
    const dir = project(['direct']);
    for (const args of [['--direct'], ['--omit', 'dev'], ['--direct', '--omit', 'dev']]) {
      const run = await audit(dir, ...args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(3);
      expect(run.report.unvouched?.map((u) => [u.name, u.status, u.direct, u.dev])).toEqual([[SPEC.direct.name, 'unvouched', true, false]]);
    }
  });
});

describe('every output agrees with the filtered report', () => {
  it('--direct over a direct, a transitive and a dev-only entry (lockfile order): JSON, SARIF, Markdown and the annotations name the entries left in only', async () => {
    const dir = npmProject(['direct', 'transitive', 'dev']);
    const json = await audit(dir, '--direct');
    expect(json.code, json.stderr).toBe(3);
    expect(json.report.unvouched?.map((u) => u.name)).toEqual([SPEC.dev.name, SPEC.direct.name]);
    expect(json.report.warnings.filter((w) => w.code === 'unvouched-remote').map((w) => w.details.package)).toEqual([SPEC.dev.name, SPEC.direct.name]);

    const both = await audit(dir, '--direct', '--omit', 'dev');
    expect(both.code, both.stderr).toBe(3);
    expect(both.report.unvouched?.map((u) => u.name)).toEqual([SPEC.direct.name]);

    const sarif = await runCli(['audit', dir, '--format', 'sarif', '--direct', '--omit', 'dev'], { server, env: { GITHUB_ACTIONS: 'true' } });
    expect(sarif.code, sarif.stderr).toBe(3);
    const results = (JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string }[] }[] }).runs[0]!.results.filter((r) => r.ruleId === 'policy/unvouched-remote');
    expect(results).toHaveLength(1);
    // The annotations go to stderr: only the entry left in is there.
    expect(sarif.stderr).toContain('github.com');
    expect(sarif.stderr).not.toContain('git.example.com');
    expect(sarif.stderr).not.toContain('dev.example.com');

    const markdown = await runCli(['audit', dir, '--format', 'markdown', '--direct', '--omit', 'dev'], { server });
    expect(markdown.code, markdown.stderr).toBe(3);
    expect(markdown.stdout).toContain('github.com');
    expect(markdown.stdout).not.toContain('git.example.com');
    expect(markdown.stdout).not.toContain('dev.example.com');
  });
});
