/**
 * Bad input is rejected before any request (docs/security.md): every target is validated first,
 * so a bad one exits 2 with one line on stderr and the fixture server sees nothing at all,
 * even when good targets come before it. The server declares no route: any request would
 * also show up as unexpected.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoUnexpected, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { expectUsageError, requireBuiltCli } from './helpers.js';

let server: FixtureServer;

beforeAll(async () => {
  requireBuiltCli();
  server = await startFixtureServer();
});

afterEach(() => {
  expectNoUnexpected(server);
  expect(server.requests, 'the fixture server saw a request').toEqual([]);
});

afterAll(async () => {
  await server?.close();
});

const BAD_TARGETS: [label: string, input: string][] = [
  ['a relative path', '../x'],
  ['an encoded dot-dot', '%2e%2e'],
  ['a URL to another host', 'https://evil.example/x'],
  ['a 300-character name', 'a'.repeat(300)],
  ['a control character', 'a\u0007b'],
  ['an escape sequence', 'chalk\u001b[31m'],
  ['an empty string', ''],
  ['a git+https URL', 'git+https://github.com/a/b'],
  ['an unknown ecosystem prefix', 'foo:bar'],
  ['a name with spaces', 'left pad'],
  ['a scoped name without a package', '@scope/'],
  ['an absolute path', '/etc/passwd'],
];

describe('a bad target exits 2 with no request', () => {
  it.each(BAD_TARGETS)('%s', async (_label, input) => {
    const result = await runCli(['check', input], { server });
    expectUsageError(result);
    // The one line never echoes a raw control character back to the terminal.
    expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  });

  it.each(BAD_TARGETS)('%s, in JSON mode too', async (_label, input) => {
    expectUsageError(await runCli(['check', input, '--json'], { server }));
  });
});

describe('one bad target among good ones: exit 2, and not one request for the good ones', () => {
  it.each([
    ['check chalk ../x', ['chalk', '../x']],
    ['check ../x chalk', ['../x', 'chalk']],
    ['check chalk express %2e%2e', ['chalk', 'express', '%2e%2e']],
    ['check chalk https://evil.example/x express --json', ['chalk', 'https://evil.example/x', 'express', '--json']],
    ['check express <300 characters> --format markdown', ['express', 'a'.repeat(300), '--format', 'markdown']],
  ])('%s', async (_label, args) => {
    expectUsageError(await runCli(['check', ...args], { server }));
  });
});
