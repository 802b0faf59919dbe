/**
 * Hostile world: symbolic links and special files. The audited tree belongs to whoever wrote
 * the pull request; a lockfile, requirements file, SBOM or policy in it may be a symbolic link
 * to a file elsewhere on the machine, whose lines would travel as package names to public
 * APIs and into reports. Every file read from the tree must resolve inside it; a path named
 * explicitly (`--file`, `--policy`) may lie outside, but never through a link inside the tree.
 * The store's own files are never opened through a FIFO (which would block the run for ever)
 * or a symbolic link. Nor is a report file: a pull request can commit a link where the CI job
 * writes its report (`--output nerq.sarif` → `~/.npmrc`), and nerq's text, carrying strangers'
 * lines, would land in that file. Nor is `nerq score`'s evidence file read unless it is a regular
 * file (a link to `/dev/zero`, a FIFO).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidence } from '../support/evidence-builder.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { makeSandbox, requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr, expectWithinDeadline } from './support/expect.js';
import { noteCases } from './support/metrics.js';

/** A name that must never reach a server: it only exists in the file outside the tree. */
const SECRET = 'secret-internal-name-7f3a';

let scratch: string;
let outside: string;
let server: FixtureServer;

beforeAll(async () => {
  requireCli();
  server = await startFixtureServer();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'nerq-symlinks-'));
  outside = path.join(scratch, 'outside');
  mkdirSync(outside);
  writeFileSync(
    path.join(outside, 'package-lock.json'),
    JSON.stringify({ name: 'x', lockfileVersion: 3, packages: { '': { dependencies: { [SECRET]: '1.0.0' } }, [`node_modules/${SECRET}`]: { version: '1.0.0' } } }),
  );
  writeFileSync(path.join(outside, 'requirements.txt'), `${SECRET}==1.0.0\n`);
  writeFileSync(path.join(outside, 'bom.json'), JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', components: [{ type: 'library', name: SECRET, version: '1.0.0', purl: `pkg:npm/${SECRET}@1.0.0` }] }));
  writeFileSync(path.join(outside, 'policy.json'), JSON.stringify({ minScore: 0, ignore: [{ package: SECRET, reason: 'x' }] }));
  writeFileSync(path.join(outside, 'mcp.json'), JSON.stringify({ mcpServers: { box: { command: 'npx', args: ['-y', SECRET] } } }));
  mkdirSync(path.join(outside, 'pkg'));
  writeFileSync(path.join(outside, 'pkg', 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', dependencies: {} }));
});

afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A fresh project directory holding `files` (name → content, or `{ link }` to a path). */
function project(files: Record<string, string | { link: string } | { fifo: true }>): string {
  const dir = mkdtempSync(path.join(scratch, 'project-'));
  for (const [name, content] of Object.entries(files)) {
    const at = path.join(dir, name);
    mkdirSync(path.dirname(at), { recursive: true });
    if (typeof content === 'string') writeFileSync(at, content);
    else if ('link' in content) symlinkSync(content.link, at);
    else execFileSync('mkfifo', [at]);
  }
  return dir;
}

const EMPTY_MANIFEST = JSON.stringify({ name: 'x', version: '1.0.0', dependencies: {} });

describe('inputs that are symbolic links out of the audited tree', () => {
  const cases: [label: string, files: () => Record<string, string | { link: string }>, args: (dir: string) => string[]][] = [
    ['a detected package-lock.json', () => ({ 'package-lock.json': { link: path.join(outside, 'package-lock.json') } }), () => []],
    ['a detected requirements.txt', () => ({ 'requirements.txt': { link: path.join(outside, 'requirements.txt') } }), () => []],
    ['a relative link (../../outside/…)', () => ({ 'package-lock.json': { link: '../outside/package-lock.json' } }), () => []],
    ['--file naming a link inside the tree', () => ({ 'bom.json': { link: path.join(outside, 'bom.json') } }), (dir) => ['--file', path.join(dir, 'bom.json')]],
    ['--file naming a link in a subdirectory', () => ({ 'sub/requirements.txt': { link: path.join(outside, 'requirements.txt') } }), () => ['--file', 'sub/requirements.txt']],
    ['a discovered .nerqrc.json', () => ({ 'package.json': EMPTY_MANIFEST, '.nerqrc.json': { link: path.join(outside, 'policy.json') } }), () => []],
    ['--policy naming a link inside the tree', () => ({ 'package.json': EMPTY_MANIFEST, 'p.json': { link: path.join(outside, 'policy.json') } }), (dir) => ['--policy', path.join(dir, 'p.json')]],
    ['an MCP client configuration --mcp finds in the project', () => ({ '.cursor/mcp.json': { link: path.join(outside, 'mcp.json') } }), () => ['--mcp']],
    ['a relative link as the project\'s .mcp.json', () => ({ '.mcp.json': { link: '../outside/mcp.json' } }), () => ['--mcp']],
    ['--mcp-config naming a link inside the tree', () => ({ 'servers.json': { link: path.join(outside, 'mcp.json') } }), (dir) => ['--mcp-config', path.join(dir, 'servers.json')]],
  ];
  it.concurrent.for(cases)('%s: refused (exit 2), nothing sent', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, files, args], { task, expect }) => {
    noteCases(task);
    const dir = project(files());
    const before = server.requests.length;
    const run = await runHostile(['audit', dir, '--json', '--timeout', '10', ...args(dir)], { server });
    const context = `${label}: exit ${run.code}, stderr ${run.stderr}`;
    expect(run.code, context).toBe(2);
    expectCleanStderr(run.stderr, context);
    expect(run.stderr, context).toMatch(/outside the audited directory/);
    expect(run.stdout + run.stderr, context).not.toContain(SECRET);
    expect(server.requests.slice(before).filter((r) => `${r.path} ${r.body}`.includes(SECRET)), context).toEqual([]);
  });

  it('a file named explicitly outside the tree is read (the user chose it)', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const dir = project({});
    const run = await runHostile(['audit', dir, '--json', '--offline', '--file', path.join(outside, 'pkg', 'package.json'), '--policy', path.join(outside, 'policy.json')], { server });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).inputs, run.stderr).toHaveLength(1);
  });

  it('a FIFO as the lockfile is refused at once', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const dir = project({ 'package-lock.json': { fifo: true } });
    const run = await runHostile(['audit', dir, '--json', '--timeout', '5'], { server });
    expect(run.code, run.stderr).toBe(2);
    expectCleanStderr(run.stderr);
  });
});

/**
 * `nerq score`'s evidence file may come from an artifact or a checked-out tree: a link there to
 * `/dev/zero` would be read until memory runs out, a FIFO waited on for ever. Only a regular file
 * is read (a link to one followed: the user named it); anything else is bad input at once.
 */
describe("nerq score's evidence file", () => {
  it.for([
    ['a link to /dev/zero', { link: '/dev/zero' }],
    ['a FIFO', { fifo: true }],
    ['a directory', { link: os.tmpdir() }],
  ] as [string, { link: string } | { fifo: true }][])('%s is refused at once: exit 2, one line', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, file], { task }) => {
    noteCases(task);
    const dir = project({ 'evidence.json': file });
    const run = await runHostile(['score', path.join(dir, 'evidence.json'), '--json'], { server });
    expect(run.code, `${label}: ${run.stderr}`).toBe(2);
    expectCleanStderr(run.stderr);
    expect(run.stderr.trim().split('\n'), label).toHaveLength(1);
    expect(run.stderr, label).toMatch(/not a regular file|a directory/);
    expect(run.stdout, label).toBe('');
  });

  it('a link to a regular evidence file is read (the user named it)', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const saved = path.join(outside, 'evidence.json');
    writeFileSync(saved, JSON.stringify(evidence()));
    const dir = project({ 'evidence.json': { link: saved } });
    const run = await runHostile(['score', path.join(dir, 'evidence.json'), '--json'], { server });
    expect([0, 1], run.stderr).toContain(run.code);
    expect(JSON.parse(run.stdout).target.ecosystem).toBe('npm');
  });
});

describe('the files nerq writes (--output; --save-evidence shares its writer, test/cli/write-file.test.ts)', () => {
  const writes: [label: string, args: (dir: string, out: string) => string[]][] = [
    ['audit --output', (dir, out) => ['audit', dir, '--offline', '--output', out]],
    ['audit --json --output', (dir, out) => ['audit', dir, '--offline', '--json', '--output', out]],
    ['check --output', (dir, out) => ['check', 'chalk', '--offline', '--output', out]],
  ];
  const cases = writes.flatMap(([label, args]) => (['link', 'dangling link', 'fifo'] as const).map((kind) => [`${label} to a ${kind}`, args, kind] as const));
  it.concurrent.for(cases)('%s: refused (exit 2), nothing written through it', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, args, kind], { task, expect }) => {
    noteCases(task);
    const victim = path.join(mkdtempSync(path.join(scratch, 'victim-')), '.npmrc');
    if (kind === 'link') writeFileSync(victim, 'registry=https://registry.example/\n');
    const dir = project({
      'package.json': EMPTY_MANIFEST,
      'package-lock.json': JSON.stringify({ name: 'x', lockfileVersion: 3, packages: { '': {} } }),
      'nerq.out': kind === 'fifo' ? { fifo: true } : { link: victim },
    });
    const run = await runHostile([...args(dir, path.join(dir, 'nerq.out')), '--timeout', '5']);
    const context = `${label}: exit ${run.code}\n${run.stderr}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(2);
    expect(run.stderr, context).toMatch(/nerq\.out/);
    if (kind === 'link') expect(readFileSync(victim, 'utf8'), context).toBe('registry=https://registry.example/\n');
    if (kind === 'dangling link') expect(existsSync(victim), context).toBe(false);
  });

  it('a regular file in place is replaced', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const dir = project({ 'package.json': EMPTY_MANIFEST, 'package-lock.json': JSON.stringify({ name: 'x', lockfileVersion: 3, packages: { '': {} } }), 'nerq.out': 'old text that is longer than the report will be '.repeat(200) });
    const run = await runHostile(['audit', dir, '--offline', '--json', '--output', path.join(dir, 'nerq.out')]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'nerq.out'), 'utf8')), run.stderr).toHaveProperty('outcome');
  });
});

describe('a report folder that is a symbolic link out of the working directory (--save-evidence shares the writer, test/cli/write-file.test.ts)', () => {
  // The checkout a CI job runs nerq in is the pull request's: it can commit `reports -> ~/.ssh`,
  // and `--output reports/nerq.sarif` would write there. A path inside the working directory must
  // stay inside it once its folder's links are resolved; one typed outside it is the user's own.
  const writes: [label: string, args: (out: string) => string[]][] = [
    ['audit --output', (out) => ['audit', '.', '--offline', '--output', out]],
    ['audit --json --output', (out) => ['audit', '.', '--offline', '--json', '--output', out]],
    ['check --output', (out) => ['check', 'chalk', '--offline', '--output', out]],
  ];
  const spellings: [label: string, out: (cwd: string) => string][] = [
    ['relative', () => path.join('reports', 'nerq.out')],
    ['absolute inside the working directory', (cwd) => path.join(cwd, 'reports', 'nerq.out')],
    ['through a nested link', () => path.join('deep', 'reports', 'nerq.out')],
  ];
  const cases = writes.flatMap(([label, args]) => spellings.map(([spelled, out]) => [`${label}, ${spelled}`, args, out] as const));
  it.concurrent.for(cases)('%s: refused (exit 2), nothing written outside', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, args, out], { task, expect }) => {
    noteCases(task);
    const sandbox = makeSandbox();
    try {
      const victim = mkdtempSync(path.join(sandbox.tmp, 'victim-'));
      writeFileSync(path.join(sandbox.cwd, 'package.json'), EMPTY_MANIFEST);
      writeFileSync(path.join(sandbox.cwd, 'package-lock.json'), JSON.stringify({ name: 'x', lockfileVersion: 3, packages: { '': {} } }));
      symlinkSync(victim, path.join(sandbox.cwd, 'reports'));
      mkdirSync(path.join(sandbox.cwd, 'deep'));
      symlinkSync(victim, path.join(sandbox.cwd, 'deep', 'reports'));
      const run = await runHostile([...args(out(sandbox.cwd)), '--timeout', '5'], { server, sandbox });
      const context = `${label}: exit ${run.code}\n${run.stderr}`;
      expectCleanStderr(run.stderr, context);
      expect(run.code, context).toBe(2);
      expect(run.stderr, context).toMatch(/nerq\.out/);
      expect(existsSync(path.join(victim, 'nerq.out')), context).toBe(false);
    } finally {
      sandbox.remove();
    }
  });

  const allowed: [label: string, out: (sandbox: { cwd: string; tmp: string }) => string][] = [
    // The user typed a place outside the working directory: their own, links and all.
    ['an absolute path outside the working directory, through a link', (sandbox) => path.join(sandbox.tmp, 'elsewhere', 'nerq.out')],
    // A link that stays inside the working directory leads nowhere else.
    ['a link to a folder inside the working directory', () => path.join('inside', 'nerq.out')],
  ];
  it.concurrent.for(allowed)('%s: written', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, out], { task, expect }) => {
    noteCases(task);
    const sandbox = makeSandbox();
    try {
      const target = mkdtempSync(path.join(sandbox.tmp, 'target-'));
      symlinkSync(target, path.join(sandbox.tmp, 'elsewhere'));
      mkdirSync(path.join(sandbox.cwd, 'real'));
      symlinkSync(path.join(sandbox.cwd, 'real'), path.join(sandbox.cwd, 'inside'));
      writeFileSync(path.join(sandbox.cwd, 'package.json'), EMPTY_MANIFEST);
      writeFileSync(path.join(sandbox.cwd, 'package-lock.json'), JSON.stringify({ name: 'x', lockfileVersion: 3, packages: { '': {} } }));
      const run = await runHostile(['audit', '.', '--offline', '--json', '--output', out(sandbox)], { server, sandbox });
      expect(run.code, `${label}: ${run.stderr}`).toBe(0);
      const written = path.join(label.startsWith('an absolute') ? target : path.join(sandbox.cwd, 'real'), 'nerq.out');
      expect(JSON.parse(readFileSync(written, 'utf8')), label).toHaveProperty('outcome');
    } finally {
      sandbox.remove();
    }
  });
});

describe("the store's own files", () => {
  it('a FIFO in place of the store: the run goes on without it and ends at its deadline', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const sandbox = makeSandbox();
    try {
      mkdirSync(sandbox.store, { recursive: true });
      execFileSync('mkfifo', [path.join(sandbox.store, 'nerq.sqlite')]);
      const run = await runHostile(['check', 'chalk', '--json', '--timeout', '4', '--offline'], { server, sandbox });
      expectWithinDeadline(task, run, 4000, run.stderr);
      expectCleanStderr(run.stderr);
      expect(run.stderr).toMatch(/store/);
    } finally {
      sandbox.remove();
    }
  });

  it.for(['nerq.sqlite', 'nerq.sqlite-wal', 'nerq.sqlite-shm'])('a symbolic link as %s is not followed', { timeout: CLI_TEST_TIMEOUT_MS }, async (name, { task }) => {
    noteCases(task);
    const sandbox = makeSandbox();
    try {
      mkdirSync(sandbox.store, { recursive: true });
      const victim = path.join(sandbox.tmp, 'victim.txt');
      writeFileSync(victim, 'precious');
      symlinkSync(victim, path.join(sandbox.store, name));
      const run = await runHostile(['check', 'chalk', '--json', '--timeout', '4', '--offline'], { server, sandbox });
      expectCleanStderr(run.stderr);
      expect(run.stderr).toMatch(/store/);
      expect(readFileSync(victim, 'utf8')).toBe('precious');
      expect(existsSync(`${victim}-wal`)).toBe(false);
    } finally {
      sandbox.remove();
    }
  });
});

describe("the audited project's .npmrc", () => {
  // npm's configuration reads the project's .npmrc (docs/security.md, "The audited tree is
  // untrusted"): a pull request can make it a FIFO, a device or a link out of the tree. It must
  // be refused (an `npm-config` warning, the file not used) without being waited on or read.
  // Each case waited for ever (a FIFO, /dev/zero), or read the file (/dev/stdin, a link out).
  const LOCK = JSON.stringify({ name: 'x', lockfileVersion: 3, packages: { '': {} } });
  /** The outside configuration: a registry and a scope named by the secret, on a server of its own. */
  const outsideNpmrc = (registry: string): string => `registry=${registry}/\n@${SECRET}:registry=${registry}/\n`;

  let elsewhere: FixtureServer;
  beforeAll(async () => {
    elsewhere = await startFixtureServer();
    writeFileSync(path.join(outside, 'npmrc'), outsideNpmrc(elsewhere.url('npm')));
  });
  afterAll(async () => {
    await elsewhere.close();
  });

  const warningCodes = (stdout: string): string[] => (JSON.parse(stdout) as { warnings: { code: string }[] }).warnings.map((w) => w.code);

  const cases: [label: string, npmrc: () => { link: string } | { fifo: true }][] = [
    ['a FIFO', () => ({ fifo: true })],
    ['a link to /dev/zero', () => ({ link: '/dev/zero' })],
    ['a link to /dev/stdin', () => ({ link: '/dev/stdin' })],
    ['a link to a file outside the tree', () => ({ link: path.join(outside, 'npmrc') })],
    ['a relative link out of the tree', () => ({ link: '../outside/npmrc' })],
  ];
  it.concurrent.for(cases)('%s: refused at once with an npm-config warning, nothing of it read', { timeout: CLI_TEST_TIMEOUT_MS }, async ([label, npmrc], { task, expect }) => {
    noteCases(task);
    const dir = project({ 'package.json': EMPTY_MANIFEST, 'package-lock.json': LOCK, '.npmrc': npmrc() });
    const run = await runHostile(['audit', dir, '--json', '--offline', '--timeout', '3']);
    const context = `${label}: exit ${run.code}\n${run.stderr}`;
    expectCleanStderr(run.stderr, context);
    expect(run.code, context).toBe(0);
    expect(warningCodes(run.stdout).filter((code) => code === 'npm-config'), context).toEqual(['npm-config']);
    expect(run.stdout + run.stderr, context).not.toContain(SECRET);
  });

  it('a link out of the tree with --trust-project-npmrc: the registry it names is never asked', { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const lock = JSON.stringify({
      name: 'x',
      lockfileVersion: 3,
      packages: { '': { dependencies: { 'left-pad': '1.3.0' } }, 'node_modules/left-pad': { version: '1.3.0' } },
    });
    const dir = project({ 'package.json': EMPTY_MANIFEST, 'package-lock.json': lock, '.npmrc': { link: path.join(outside, 'npmrc') } });
    const sandbox = makeSandbox();
    try {
      // The user's registry comes from their own ~/.npmrc, below the project's in npm's order.
      writeFileSync(path.join(sandbox.home, '.npmrc'), `registry=${server.url('npm')}/\n`);
      const before = server.requests.length;
      const run = await runHostile(['audit', dir, '--json', '--trust-project-npmrc', '--timeout', '10'], { server, sandbox, env: { NERQ_NPM_REGISTRY: '' } });
      const context = `exit ${run.code}\n${run.stderr}`;
      expectCleanStderr(run.stderr, context);
      expect(elsewhere.requests, context).toEqual([]);
      expect(server.requests.slice(before).some((r) => r.path.startsWith('/npm/left-pad')), context).toBe(true);
      expect(warningCodes(run.stdout), context).toContain('npm-config');
      expect(run.stdout + run.stderr, context).not.toContain(SECRET);
    } finally {
      sandbox.remove();
    }
  });
});

describe("the user's own npm configuration", () => {
  it("a FIFO as ~/.npmrc: skipped with a warning, never waited on", { timeout: CLI_TEST_TIMEOUT_MS }, async ({ task }) => {
    noteCases(task);
    const sandbox = makeSandbox();
    try {
      execFileSync('mkfifo', [path.join(sandbox.home, '.npmrc')]);
      const run = await runHostile(['check', 'chalk', '--json', '--offline', '--timeout', '3'], { server, sandbox });
      expectCleanStderr(run.stderr, run.stderr);
      expect(run.stderr).toMatch(/\.npmrc/);
    } finally {
      sandbox.remove();
    }
  });
});
