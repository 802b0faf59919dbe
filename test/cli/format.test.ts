/**
 * Output formats and the terminal: Markdown for one target, colour only when asked for
 * (FORCE_COLOR) and never with NO_COLOR or --no-color, `--help` and `--version`.
 */
import { readFileSync } from 'node:fs';
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
    // The renderer may break the leading `@` (a zero-width space) so GitHub does not read it as a mention.
    expect(result.stdout.split('\n')[0]).toMatch(/^#{1,3} .*@(&#8203;|\u200b)?types\/semver@7\.8\.0/);
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

  it('check --help exits 0 and lists the gate options', async () => {
    const result = await runCli(['check', '--help']);
    expect(result.code).toBe(0);
    for (const flag of ['--json', '--format', '--min-score', '--min-coverage', '--category', '--timeout', '--save-evidence', '--registry']) {
      expect(result.stdout).toContain(flag);
    }
  });

  it.each([['--version'], ['-v']])('%s prints the package.json version and exits 0', async (flag) => {
    const result = await runCli([flag]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${PACKAGE_VERSION}\n`);
    expect(result.stderr).toBe('');
  });
});
