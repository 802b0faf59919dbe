/**
 * Hostile world: credentials written in the audited files' URLs. A lockfile's `resolved`, a git
 * dependency or a requirements file's direct reference may carry `user:token@`; nerq drops it
 * as the entry is read (docs/security.md, "Secrets stay where they belong"). A URL parser reads
 * more spellings as credentials than `scheme://user:token@host`: for http(s) one slash, none,
 * or backslashes still open an authority (`https:/user:token@host/…`, `https:user:token@host`),
 * and tabs, newlines and leading spaces are dropped before parsing. Each of them is a token npm
 * would send, and none may reach an output format, a warning or the store.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder, makeSandbox, requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';

/** Each spelling with its own token, so a leak names the spelling that leaked. */
const SPELLINGS: [label: string, url: (token: string) => string][] = [
  ['one slash', (t) => `https:/user:${t}@example.com/a/-/a-1.0.0.tgz`],
  ['no slash', (t) => `https:user:${t}@example.com/a/-/a-1.0.0.tgz`],
  ['backslashes', (t) => `https:\\\\user:${t}@example.com/a/-/a-1.0.0.tgz`],
  ['an upper-case scheme', (t) => `HTTPS://user:${t}@example.com/a/-/a-1.0.0.tgz`],
  ['a tab inside the scheme', (t) => `ht\ttps://user:${t}@example.com/a/-/a-1.0.0.tgz`],
  ['a leading space', (t) => ` https://user:${t}@example.com/a/-/a-1.0.0.tgz`],
  ['a git URL with one slash', (t) => `git+https:/user:${t}@github.com/o/r.git#0123456789abcdef0123456789abcdef01234567`],
];
const token = (i: number): string => `tkn${i}SECRETurl${'x'.repeat(12)}`;

let scratch: string;

beforeAll(() => {
  requireCli();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'nerq-url-credentials-'));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function packageLockProject(): string {
  const dir = path.join(scratch, 'npm');
  mkdirSync(dir);
  const names = SPELLINGS.map((_, i) => `p${i}`);
  const dependencies = Object.fromEntries(names.map((name) => [name, '1.0.0']));
  const packages: Record<string, unknown> = { '': { name: 'x', dependencies } };
  SPELLINGS.forEach(([, url], i) => {
    packages[`node_modules/p${i}`] = { version: '1.0.0', resolved: url(token(i)), integrity: `sha512-${'A'.repeat(86)}==` };
  });
  writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ name: 'x', lockfileVersion: 3, packages }, null, 2));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', dependencies }));
  return dir;
}

function requirementsProject(): string {
  const dir = path.join(scratch, 'pypi');
  mkdirSync(dir);
  const offset = SPELLINGS.length;
  const lines = [
    `--index-url https:/user:${token(offset)}@pypi.example.com/simple`,
    `--extra-index-url https:user:${token(offset + 1)}@pypi.example.com/simple`,
    `direct @ https:/user:${token(offset + 2)}@files.example.com/direct-1.0.tar.gz`,
    `vcs @ git+https:/user:${token(offset + 3)}@github.com/o/r.git@0123456789abcdef`,
    'requests==2.31.0',
  ];
  writeFileSync(path.join(dir, 'requirements.txt'), `${lines.join('\n')}\n`);
  return dir;
}

describe('credentials in the audited files\' URLs never reach an output', () => {
  it('every spelling a URL parser reads as user:token@, in every format and the store', { timeout: CLI_TEST_TIMEOUT_MS * 2 }, async ({ task }) => {
    const projects = [packageLockProject(), requirementsProject()];
    const sandbox = makeSandbox();
    const outputs: [where: string, text: string][] = [];
    for (const dir of projects) {
      for (const format of ['json', 'markdown', 'sarif', 'table']) {
        const run = await runHostile(['audit', dir, '--offline', '--format', format], { sandbox });
        const where = `${path.basename(dir)} --format ${format}`;
        expectCleanStderr(run.stderr, where);
        // The remote entries make the run INCOMPLETE (3) or a package fails (1): never a usage error.
        expect([1, 3], `${where}: exit ${run.code}\n${run.stderr}`).toContain(run.code);
        outputs.push([`${where} stdout`, run.stdout], [`${where} stderr`, run.stderr]);
      }
    }
    noteCases(task, SPELLINGS.length + 4);
    // Not vacuous: the entries were read and reported with their hosts.
    const json = outputs.find(([where]) => where === 'npm --format json stdout')![1];
    expect(json).toContain('example.com');
    expect(json).toContain('github.com');
    const found: string[] = [];
    const files = filesUnder(sandbox.root);
    expect(files.some((f) => f.endsWith('nerq.sqlite')), files.join(', ')).toBe(true);
    for (let i = 0; i < SPELLINGS.length + 4; i += 1) {
      const secret = token(i);
      for (const [where, text] of outputs) if (text.includes(secret)) found.push(`${where} holds token ${i}`);
      for (const file of files) if (readFileSync(path.join(sandbox.root, file)).includes(secret)) found.push(`${file} holds token ${i}`);
    }
    sandbox.remove();
    expect(found).toEqual([]);
  });
});
