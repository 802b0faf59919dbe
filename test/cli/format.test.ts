/**
 * Output formats and the terminal: Markdown for one target, colour only when asked for
 * (FORCE_COLOR) and never with NO_COLOR or --no-color, `--help` and `--version`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { ANSI, expectPackage, requireBuiltCli } from './helpers.js';

let server: FixtureServer;

beforeAll(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
  expectPackage(server, 'chalk');
  expectPackage(server, '@types/semver');
});

afterEach(() => {
  expectNoUnexpected(server);
});

afterAll(async () => {
  await server?.close();
});

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('--format markdown, one target', () => {
  it('starts with a heading naming the package, then the dimensions and checks as tables', async () => {
    const result = await runCli(['check', 'chalk', '--format', 'markdown'], { server });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toMatch(ANSI);
    const [first] = result.stdout.split('\n');
    expect(first).toMatch(/^#{1,3} .*chalk@4\.1\.0/);
    expect(result.stdout).toMatch(/\*\*74\.1\/100\*\*/);
    expect(result.stdout).toMatch(/^\| Dimension \| Score \| Weight \| Coverage \|$/m);
    for (const title of ['Security', 'Maintenance', 'Documentation', 'Compliance', 'Community']) {
      expect(result.stdout).toMatch(new RegExp(`^\\| ${title} \\| \\d+\\.\\d \\|`, 'm'));
    }
    expect(result.stdout).toMatch(/^\| .*pass \| Known vulnerabilities \| 100\.0 \|/m);
  });

  it('a scoped package is named in the heading too', async () => {
    const result = await runCli(['check', '@types/semver', '--format', 'markdown'], { server });
    expect(result.code).toBe(0);
    // In a code span: no mention and no mailto: link, and the name copies as it is (no zero-width character).
    expect(result.stdout.split('\n')[0]).toMatch(/^#{1,3} .*`@types\/semver@7\.8\.0`$/);
  });
});

describe('-o, --output FILE', () => {
  it('writes the report to the file, nothing to stdout, with the same exit code; plain text, no colour', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-output-'));
    try {
      const file = path.join(dir, 'report.json');
      const json = await runCli(['check', 'chalk', '--json', '-o', file], { server });
      expect(json.code).toBe(0);
      expect(json.stdout).toBe('');
      expect((JSON.parse(readFileSync(file, 'utf8')) as { score: number }).score).toBe(74.1);
      const table = path.join(dir, 'report.txt');
      const forced = await runCli(['check', 'chalk', '--output', table], { server, env: { FORCE_COLOR: '1', NO_COLOR: '' } });
      expect(forced.stdout).toBe('');
      // FORCE_COLOR forces colour; without it a file gets none (it is no terminal).
      expect(readFileSync(table, 'utf8')).toMatch(ANSI);
      await runCli(['check', 'chalk', '--output', table], { server });
      expect(readFileSync(table, 'utf8')).not.toMatch(ANSI);
      expect(readFileSync(table, 'utf8')).toMatch(/^chalk@4\.1\.0 {2}PASS /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file that cannot be written is exit 2 with one line naming it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-output-'));
    try {
      const result = await runCli(['check', 'chalk', '--json', '-o', path.join(dir, 'no-such-dir', 'r.json')], { server });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^nerq: cannot write ".*r\.json": no such file\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('colour', () => {
  it('FORCE_COLOR=1 without NO_COLOR gives ANSI codes in the table', async () => {
    const result = await runCli(['check', 'chalk'], { server, env: { FORCE_COLOR: '1', NO_COLOR: '' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(ANSI);
    // Colour is decoration only: the visible text is the plain report.
    const plain = await runCli(['check', 'chalk'], { server });
    expect(result.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain.stdout);
  });

  it('NO_COLOR wins over FORCE_COLOR', async () => {
    const result = await runCli(['check', 'chalk'], { server, env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
  });

  it('--no-color wins over FORCE_COLOR', async () => {
    const result = await runCli(['check', 'chalk', '--no-color'], { server, env: { FORCE_COLOR: '1', NO_COLOR: '' } });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
  });

  it('no colour when stdout is not a terminal and nothing forces it', async () => {
    const result = await runCli(['check', 'chalk'], { server, env: { NO_COLOR: '' } });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
  });

  it('JSON and Markdown never carry ANSI codes, even with FORCE_COLOR', async () => {
    for (const format of ['json', 'markdown']) {
      const result = await runCli(['check', 'chalk', '--format', format], { server, env: { FORCE_COLOR: '1', NO_COLOR: '' } });
      expect(result.code).toBe(0);
      expect(result.stdout).not.toMatch(ANSI);
    }
  });
});

describe('--help and --version', () => {
  it('--help exits 0 and lists check and score', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\s+check \[options\] <target\.\.\.>/m);
    expect(result.stdout).toMatch(/^\s+score \[options\] <evidence>/m);
  });

  it('nerq alone prints the help on stdout and exits 0', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: nerq /);
    expect(result.stdout).toMatch(/^\s+audit \[options\] \[dir\]/m);
  });

  it('audit --help shows no "(default: [])" for repeatable options', async () => {
    const result = await runCli(['audit', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--file <path>');
    expect(result.stdout).not.toContain('(default: [])');
  });

  /**
   * The README's option table of a command (its `### \`nerq <command>` section) and `--help`
   * give the same default for --timeout and the same effect and default for --min-coverage.
   */
  it.each(['check', 'audit'])('%s --help and the README agree on --timeout and --min-coverage', async (command) => {
    const help = (await runCli([command, '--help'])).stdout.replace(/\s*\n\s+/g, ' ');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf(`### \`nerq ${command} `);
    const section = readme.slice(start, readme.indexOf('\n### ', start + 1));
    const row = (flag: string) => section.split('\n').find((l) => l.startsWith('| ') && l.includes(`\`${flag} `)) ?? '';
    const helpLine = (flag: string) => /--[\w-]+ <[\w]+> +(.*?)(?= --[\w-]+|$)/.exec(help.slice(help.indexOf(`${flag} <`)))?.[1] ?? '';
    // The numbers after "default", in order ("one second per 4 packages" counts as 1 per 4).
    const defaults = (text: string) => (/\(default:? ([^)]*)\)/.exec(text)?.[1] ?? '').replace(/\bone second\b/, '1').match(/\d+(\.\d+)?/g);
    expect(defaults(row('--timeout')), row('--timeout')).not.toBeNull();
    expect(defaults(helpLine('--timeout'))).toEqual(defaults(row('--timeout')));
    // --min-coverage: below it a target is not evaluated (exit 3), not failed, in both.
    expect(helpLine('--min-coverage')).toMatch(/not evaluated/);
    expect(row('--min-coverage')).toMatch(/could not be evaluated|not evaluated/);
    expect(defaults(helpLine('--min-coverage'))).toEqual(defaults(row('--min-coverage')));
  });

  it('check --help exits 0 and lists the gate options', async () => {
    const result = await runCli(['check', '--help']);
    expect(result.code).toBe(0);
    for (const flag of ['--json', '--format', '--min-score', '--min-coverage', '--category', '--timeout', '--save-evidence', '--registry']) {
      expect(result.stdout).toContain(flag);
    }
  });

  it.each([['--version'], ['-v'], ['-V']])('%s prints the package.json version and exits 0', async (flag) => {
    const result = await runCli([flag]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${PACKAGE_VERSION}\n`);
    expect(result.stderr).toBe('');
  });
});
