/**
 * Hostile world: dependencies no registry vouches for. A package whose dependencies include a
 * git or GitHub spec, a tarball URL, a `file:` or `link:` path makes npm fetch code nothing
 * scored describes (a git dependency even runs its `prepare` script). Such a package is not
 * "clean": the dependencies are listed, and the verdict is held, whether the packument or only
 * the tarball's own package.json declares them.
 *
 * The same for a PyPI release whose `requires_dist` holds a PEP 508 direct reference
 * (`name @ git+https://…`, `@ https://…`, `@ file:///…`): pip installs it from that URL. One that
 * only an extra installs is listed apart and does not hold the verdict. A token in such a URL
 * (`user:token@`, `?token=`) never reaches the output, the evidence or the store's records.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkOf, osvNoAdvisories } from '../cli/helpers.js';
import { projectJsonPath } from '../cli/pypi-helpers.js';
import { FIXTURES_ROOT, startFixtureServer } from '../support/fixture-server.js';
import { makeSandbox, runHostile } from './support/cli.js';
import { expectCleanStderr } from './support/expect.js';
import { flaskWorld } from './support/pypi-world.js';
import { makeTarball } from '../support/tarball.js';
import { requireCli } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { noteCases } from './support/metrics.js';
import { closeWorlds, evaluate, version, vouchedFor } from './support/package-world.js';

beforeAll(() => requireCli());
afterAll(() => closeWorlds());

const DEPENDENCIES = { 'ansi-styles': '^4.1.0', 'supports-color': '^7.1.0' };
const manifest = (dependencies: Record<string, string>) => ({ name: 'chalk', version: '4.1.0', dependencies });
const tarballOf = (dependencies: Record<string, string>) =>
  makeTarball([{ path: 'package.json', content: JSON.stringify(manifest(dependencies)) }, { path: 'readme.md', content: '# chalk\n' }]);

const SPECS: [label: string, name: string, spec: string, kind: string][] = [
  ['a GitHub shorthand', 'helper', 'github:evil/helper', 'git'],
  ['a bare owner/repo', 'helper', 'evil/helper#main', 'git'],
  ['a git+https URL', 'helper', 'git+https://git.example/evil/helper.git', 'git'],
  ['a tarball URL', 'helper', 'https://evil.example/helper-1.0.0.tgz', 'url'],
  ['a file: folder', 'helper', 'file:../helper', 'file'],
  ['a link: path', 'helper', 'link:../helper', 'link'],
];

describe('dependencies npm would fetch from outside a registry', () => {
  it.concurrent.for(SPECS)('%s in the packument: listed, and the verdict is held', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, name, spec, kind], { task, expect }) => {
    noteCases(task);
    const dependencies = { ...DEPENDENCIES, [name]: spec };
    const overrides = vouchedFor(tarballOf(dependencies), (p) => void (version(p).dependencies = dependencies));
    const { report, sandbox } = await evaluate(task, label, { ...overrides, osv: osvNoAdvisories });
    sandbox.remove();
    const check = checkOf(report, 'unvouched-dependencies');
    expect(check.score, label).toBe(20);
    expect(check.evidence.dependencies, label).toEqual([`${name} (${kind}: ${spec})`]);
    expect(report.verdictCode, label).not.toBe('yes');
  });

  it('declared only in the tarball\'s package.json: listed too', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const label = 'tarball only';
    const { report, sandbox } = await evaluate(task, label, { ...vouchedFor(tarballOf({ ...DEPENDENCIES, helper: 'github:evil/helper' })), osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'unvouched-dependencies').evidence.dependencies, label).toEqual(['helper (git: github:evil/helper)']);
    expect(report.verdictCode, label).not.toBe('yes');
  });

  it('registry ranges and npm: aliases only: nothing to hold', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const dependencies = { ...DEPENDENCIES, styles: 'npm:ansi-styles@^4.1.0' };
    const { report, sandbox } = await evaluate(task, 'aliases', { ...vouchedFor(tarballOf(dependencies), (p) => void (version(p).dependencies = dependencies)), osv: osvNoAdvisories });
    sandbox.remove();
    expect(checkOf(report, 'unvouched-dependencies').score).toBe(100);
  });
});

/** A secret each hostile URL carries; found nowhere nerq writes. */
const SECRET = 'pypi-s3cr3t-T0KEN';

/** flask 3.1.3's recorded project JSON with more `requires_dist` entries. */
function flaskRequiring(extra: readonly string[]) {
  const recorded = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, 'pypi', 'pypi', 'flask', 'json.json'), 'utf8')) as { info: { requires_dist: string[] } };
  recorded.info.requires_dist = [...recorded.info.requires_dist, ...extra];
  return recorded;
}

/** `check pypi:flask` with `extra` requirements; the report, and every record nerq kept that could hold the secret. */
async function evaluateFlask(task: { meta: object }, label: string, extra: readonly string[]) {
  const { report, run, sandbox } = await evaluate(task, label, {}, {
    target: 'pypi:flask',
    // Outside HOME, the cwd and TMPDIR (which must stay empty).
    args: ['--save-evidence', path.join('..', 'evidence.json')],
    world: (server) => {
      server.expect('GET', projectJsonPath('flask'), { body: flaskRequiring(extra) });
      flaskWorld(server);
    },
  });
  const db = new DatabaseSync(path.join(sandbox.store, 'nerq.sqlite'), { readOnly: true });
  const rows = [...db.prepare('SELECT value AS text FROM facts_cache').all(), ...db.prepare('SELECT checks AS text FROM history').all()];
  db.close();
  const records = [run.stdout, run.stderr, readFileSync(path.join(sandbox.root, 'evidence.json'), 'utf8'), ...rows.map((r) => String(r.text))];
  sandbox.remove();
  return { report, records, stored: rows.length };
}

const PYPI_REFERENCES: [label: string, entry: string, listed: string][] = [
  ['a git+https URL with a token', `helper @ git+https://ci:${SECRET}@git.example/evil/helper.git@main`, 'helper (git: git+https://git.example/evil/helper.git@main)'],
  ['a download URL with a query token', `helper @ https://files.example/helper-1.0.tar.gz?token=${SECRET}`, 'helper (url: https://files.example/helper-1.0.tar.gz)'],
  ['a file: URL', 'helper @ file:///opt/wheels/helper-1.0-py3-none-any.whl', 'helper (file: file:///opt/wheels/helper-1.0-py3-none-any.whl)'],
  ['under a platform marker (still installed by default)', `helper @ git+https://${SECRET}@git.example/evil/helper.git ; sys_platform == "linux"`, 'helper (git: git+https://git.example/evil/helper.git)'],
];

describe('direct references pip would fetch from outside an index', () => {
  it.concurrent.for(PYPI_REFERENCES)('%s in requires_dist: listed without credentials, and the verdict is held', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, entry, listed], { task, expect }) => {
    noteCases(task);
    const { report, records, stored } = await evaluateFlask(task, label, [entry]);
    const check = checkOf(report, 'unvouched-dependencies');
    expect(check.score, label).toBe(20);
    expect(check.evidence.dependencies, label).toEqual([listed]);
    expect(report.verdictCode, label).not.toBe('yes');
    expect(stored, `${label}: the store kept facts and history to search`).toBeGreaterThan(0);
    for (const text of records) expect(text.includes(SECRET), label).toBe(false);
  });

  it('only under an extra: listed apart, the verdict not held', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const label = 'extra only';
    const { report, records } = await evaluateFlask(task, label, [`devtool @ https://${SECRET}@files.example/devtool-1.0.tar.gz ; extra == "dev"`]);
    const check = checkOf(report, 'unvouched-dependencies');
    expect({ messageId: check.messageId, dependencies: check.evidence.dependencies, extras: check.evidence.extras }, label).toEqual({
      messageId: 'extras-only',
      dependencies: [],
      extras: ['devtool (url: https://files.example/devtool-1.0.tar.gz)'],
    });
    expect(report.verdictCode, label).toBe('yes');
    for (const text of records) expect(text.includes(SECRET), label).toBe(false);
  });

  it('version specifiers only (flask as published): nothing to hold', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task, expect }) => {
    noteCases(task);
    const { report } = await evaluateFlask(task, 'flask', []);
    expect(checkOf(report, 'unvouched-dependencies').score).toBe(100);
    expect(report.verdictCode).toBe('yes');
  });
});

/**
 * `nerq audit` over Python inputs whose entries come from no index (VCS, URL, path, editable,
 * `name @ url`): none is audited or counted as passed, and no request is made for it. A remote
 * one (VCS, URL) is an `unvouched-remote` finding at its file and line that leaves the run
 * incomplete (exit 3), as npm lockfile entries with git or URL sources are; a local one (a path,
 * an editable checkout of a folder) stays an `input-note`. The token in its URL is in no output.
 */
const T = SECRET;
type Kind = 'remote' | 'local';
const PYTHON_INPUTS: [format: string, file: string, text: string, skipped: [line: string, name: string | null, kind: Kind][]][] = [
  [
    'requirements.txt',
    'requirements.txt',
    `helper @ git+https://ci:${T}@git.example/helper.git@main\ngit+https://${T}@git.example/other.git#egg=other\n./vendor/local-1.0.tar.gz\n-e git+https://${T}@git.example/editable.git#egg=editable\n`,
    [['helper @', 'helper', 'remote'], ['git+https://', null, 'remote'], ['./vendor', null, 'local'], ['-e ', null, 'remote']],
  ],
  ['pyproject.toml (PEP 621)', 'pyproject.toml', `[project]\nname = "app"\nversion = "1.0"\ndependencies = ["helper @ git+https://ci:${T}@git.example/helper.git"]\n`, [['dependencies = ', 'helper', 'remote']]],
  [
    'pyproject.toml (Poetry)',
    'pyproject.toml',
    `[tool.poetry]\nname = "app"\nversion = "1.0"\n\n[tool.poetry.dependencies]\npython = "^3.11"\nhelper = { git = "https://ci:${T}@git.example/helper.git" }\nlocal = { path = "../local" }\n`,
    [['helper = ', 'helper', 'remote'], ['local = ', 'local', 'local']],
  ],
  [
    'uv.lock',
    'uv.lock',
    `version = 1\nrevision = 1\nrequires-python = ">=3.11"\n\n[[package]]\nname = "helper"\nversion = "1.0"\nsource = { git = "https://ci:${T}@git.example/helper.git?rev=main#0123" }\n\n[[package]]\nname = "local"\nversion = "1.0"\nsource = { path = "../local" }\n`,
    [['name = "helper"', 'helper', 'remote'], ['name = "local"', 'local', 'local']],
  ],
  [
    'poetry.lock',
    'poetry.lock',
    `[[package]]\nname = "helper"\nversion = "1.0"\noptional = false\npython-versions = "*"\ngroups = ["main"]\n\n[package.source]\ntype = "git"\nurl = "https://ci:${T}@git.example/helper.git"\nreference = "main"\nresolved_reference = "0123"\n\n[metadata]\nlock-version = "2.0"\npython-versions = "^3.11"\ncontent-hash = "x"\n`,
    [['name = "helper"', 'helper', 'remote']],
  ],
  [
    'pdm.lock',
    'pdm.lock',
    `[metadata]\ngroups = ["default"]\nlock_version = "4.5.0"\n\n[[package]]\nname = "helper"\nversion = "1.0"\ngit = "https://ci:${T}@git.example/helper.git"\nrevision = "0123"\ngroups = ["default"]\n\n[[package]]\nname = "local"\nversion = "1.0"\npath = "../local"\ngroups = ["default"]\n`,
    [['name = "helper"', 'helper', 'remote'], ['name = "local"', 'local', 'local']],
  ],
  [
    'Pipfile.lock',
    'Pipfile.lock',
    JSON.stringify({ _meta: { sources: [] }, default: { helper: { git: `https://ci:${T}@git.example/helper.git`, ref: '0123' }, local: { path: '../local', editable: true } }, develop: {} }, null, 2),
    [['"helper": {', 'helper', 'remote'], ['"local": {', 'local', 'local']],
  ],
];

/** The 1-based number of the first line that starts with `needle` (after its indentation). */
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.trimStart().startsWith(needle)) + 1;

describe('nerq audit over Python entries no index vouches for', () => {
  it.concurrent.for(PYTHON_INPUTS)('%s: remote ones are unvouched-remote findings (exit 3), local ones input-notes, each at its line; none audited, no token in the output', { timeout: CLI_TEST_TIMEOUT_MS }, async ([format, file, text, skipped], { task, expect }) => {
    noteCases(task);
    const server = await startFixtureServer();
    const sandbox = makeSandbox();
    try {
      const dir = path.join(sandbox.root, 'project');
      mkdirSync(dir);
      writeFileSync(path.join(dir, file), text);
      const run = await runHostile(['audit', dir, '--json', '--timeout', '15'], { server, sandbox });
      expectCleanStderr(run.stderr, format);
      // Every input here has a remote entry: the run is incomplete.
      expect(run.code, `${format}: ${run.stderr}`).toBe(3);
      const report = JSON.parse(run.stdout) as { entries: unknown[]; summary: { total: number; passed: number }; warnings: { code: string; message: string; details: Record<string, unknown> }[] };
      expect({ entries: report.entries.length, total: report.summary.total, passed: report.summary.passed }, format).toEqual({ entries: 0, total: 0, passed: 0 });
      const notes = report.warnings.filter((w) => w.code === 'input-note' && w.message.includes(' skipped: ')).map((w) => w.message);
      const remote = report.warnings.filter((w) => w.code === 'unvouched-remote');
      const locals = skipped.filter(([, , kind]) => kind === 'local');
      const remotes = skipped.filter(([, , kind]) => kind === 'remote');
      expect(notes.length, format).toBe(locals.length);
      locals.forEach(([needle, name], i) => {
        expect(notes[i], format).toContain(`${file}:${lineOf(text, needle)}: ${name === null ? '' : `"${name}" `}skipped: `);
      });
      expect(remote.map((w) => w.details.line), format).toEqual(remotes.map(([needle]) => lineOf(text, needle)));
      expect(remote.map((w) => w.details.host), format).toEqual(remotes.map(() => 'git.example'));
      remotes.forEach(([needle, name], i) => {
        expect(remote[i]?.message, format).toContain(`${file}:${lineOf(text, needle)}: `);
        if (name !== null) expect(remote[i]?.details.package, format).toBe(name);
      });
      expect(server.requests, `${format}: nothing is requested for these entries`).toEqual([]);
      expect(`${run.stdout}${run.stderr}`.includes(SECRET), format).toBe(false);
    } finally {
      sandbox.remove();
      await server.close();
    }
  });
});
