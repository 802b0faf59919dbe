/**
 * The README's `nerq serve` transcript (README.md, "`nerq serve`") is what the built CLI answers
 * against the fixture server, whose answers the README says it shows: chalk 4.1.0 as recorded
 * (the sample report's package), express and flask as recorded, OSV with no advisory, GitHub's
 * hourly budget spent. Each `$ …` line is run — `nerq serve`, and `curl` with the `jq` filter
 * it pipes into — and what follows it, up to the next `$`, is compared with what it prints; the
 * port is the one the system picked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPackage, requireBuiltCli } from '../cli/helpers.js';
import { expectPypiProject, pypiProject } from '../cli/pypi-helpers.js';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { CLI_BIN, cliEnv, REPO_ROOT } from '../support/run-cli.js';
import { freshHome } from './support.js';

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const section = README.slice(README.indexOf('### `nerq serve`'), README.indexOf('### `nerq mcp`'));
const BLOCK = /```sh\n(\$ nerq serve[\s\S]*?)```/.exec(section)?.[1] ?? '';

interface Step {
  command: string;
  printed: string;
}

/** The transcript's commands (a line ending in `\` continues on the next) and the lines each prints. */
function steps(block: string): Step[] {
  const out: Step[] = [];
  const lines = block.split('\n').slice(0, -1);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('$ ')) {
      let command = line.slice(2);
      while (command.endsWith('\\')) command = `${command.slice(0, -1)}${lines[++i]!.trim()}`;
      out.push({ command, printed: '' });
    } else {
      const last = out.at(-1);
      expect(last, line).toBeDefined();
      last!.printed += `${line}\n`;
    }
  }
  return out;
}

/** What `jq FILTER` prints for the filters the transcript uses. */
function jq(filter: string, value: unknown): string {
  const pick = /^\{([\w, ]+)\}$/.exec(filter);
  if (pick) {
    const body = value as Record<string, unknown>;
    return `${JSON.stringify(Object.fromEntries(pick[1]!.split(',').map((k) => [k.trim(), body[k.trim()]])), null, 2)}\n`;
  }
  const each = /^\.(\w+)\[\]\.(\w+)$/.exec(filter);
  if (each) return ((value as Record<string, Record<string, unknown>[]>)[each[1]!] ?? []).map((r) => `${JSON.stringify(r[each[2]!])}\n`).join('');
  throw new Error(`a jq filter this test does not read: ${filter}`);
}

/** Run one `curl -s [-X POST] URL [-H …] [-d '…'] [| jq '…']` against the origin serve printed. */
async function curl(command: string, origin: string): Promise<string> {
  const [request, filter] = command.split(' | jq ');
  const url = /'?(http:\/\/127\.0\.0\.1:\d+\/[^' ]*)'?/.exec(request!)![1]!.replace(/^http:\/\/127\.0\.0\.1:\d+/, origin);
  const data = / -d '([^']*)'/.exec(request!)?.[1];
  const response = await fetch(url, {
    method: / -X POST /.test(request!) ? 'POST' : 'GET',
    ...(data === undefined ? {} : { body: data, headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  if (filter === undefined) return `${text}\n`;
  return jq(/^'(.*)'$/.exec(filter.trim())![1]!, JSON.parse(text));
}

let server: FixtureServer;
let home: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
  for (const name of ['chalk', 'express']) expectPackage(server, name);
  expectPypiProject(server, pypiProject('flask'));
  home = freshHome();
});

afterAll(async () => {
  child?.kill('SIGTERM');
  expectNoUnexpected(server);
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe("the README's `nerq serve` transcript", () => {
  it('each command prints what the README shows after it', async () => {
    const [serve, ...rest] = steps(BLOCK);
    expect(serve?.command).toBe('nerq serve --port 0 &');
    child = spawn(process.execPath, [CLI_BIN, 'serve', '--port', '0'], { cwd: home, env: cliEnv(home, { server }), stdio: ['ignore', 'pipe', 'ignore'] });
    const listening = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('serve did not start')), 20_000);
      let out = '';
      child!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(out.slice(0, out.indexOf('\n') + 1));
        }
      });
    });
    const origin = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(listening)?.[1];
    expect(origin, listening).toBeDefined();
    // The README's port is one the system picked once: the line is the same but for it.
    expect(serve!.printed.replace(/:\d+\n$/, ':PORT\n')).toBe(listening.replace(/:\d+\n$/, ':PORT\n'));
    expect(rest.length).toBeGreaterThan(0);
    for (const step of rest) {
      expect(step.command, 'a curl command').toMatch(/^curl -s /);
      expect(await curl(step.command, origin!), step.command).toBe(step.printed);
    }
  });
});
