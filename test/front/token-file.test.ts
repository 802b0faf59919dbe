/**
 * The token file both HTTP front doors read (docs/serve.md, "Tokens"): a regular file or a link
 * to one; a FIFO, a directory, a file every user may write or an oversized one is a
 * ServerConfigError (exit 2) at start, never a server that hangs before it listens.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTokenFile, ServerConfigError } from '../../src/front/token-file.js';

const dir = mkdtempSync(path.join(tmpdir(), 'nerq-token-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tokenFile(name: string, text: string, mode: number): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

const refusal = (file: string): string => {
  try {
    readTokenFile(file);
  } catch (error) {
    expect(error).toBeInstanceOf(ServerConfigError);
    return (error as Error).message;
  }
  throw new Error(`${file} was read`);
};

describe.skipIf(process.platform === 'win32')('readTokenFile', () => {
  it('reads a private file, and a symbolic link to one (a mounted secret)', () => {
    const file = tokenFile('private', '# ci\ntoken-one\n\ntoken-two\n', 0o600);
    const link = path.join(dir, 'link');
    symlinkSync(file, link);
    const warnings: string[] = [];
    expect(readTokenFile(file, (m) => warnings.push(m))).toEqual(['token-one', 'token-two']);
    expect(readTokenFile(link, (m) => warnings.push(m))).toEqual(['token-one', 'token-two']);
    expect(warnings).toEqual([]);
  });

  it('reads CRLF lines and a byte-order mark; refuses a line no Authorization header can carry, naming its line (two tokens on one line, a trailing comment, CR-only line ends, a space, a non-ASCII character)', () => {
    expect(readTokenFile(tokenFile('crlf', '\uFEFFtoken-one\r\n# note\r\n  token-two\t\r\n', 0o600))).toEqual(['token-one', 'token-two']);
    const cases: [string, number][] = [
      ['ok\ntok2 tok3\n', 2],
      ['tok # the CI fleet\n', 1],
      ['one\rtwo\rthree\r', 1],
      ['# a\n\nfine\nnon\u00a0breaking\n', 4],
      ['t\u00f6ken\n', 1],
      ['nul\u0000byte\n', 1],
    ];
    for (const [text, line] of cases) {
      const message = refusal(tokenFile('odd', text, 0o600));
      expect(message, JSON.stringify(text)).toContain(`line ${line}`);
      // The token itself is never echoed.
      expect(message).not.toMatch(/tok2|tok3|CI fleet|three|breaking|t\u00f6ken|nul\u0000/);
    }
  });

  it('warns for a file every user may read; refuses one every user may write', () => {
    const warnings: string[] = [];
    expect(readTokenFile(tokenFile('readable', 'tok\n', 0o644), (m) => warnings.push(m))).toEqual(['tok']);
    expect(warnings).toHaveLength(1);
    expect(refusal(tokenFile('writable', 'tok\n', 0o666))).toMatch(/writable by every user/);
  });

  it('refuses a FIFO at once (no writer: reading it would wait forever), a directory, an oversized file, an empty one, a missing one', () => {
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(fifo)).toMatch(/not a regular file/);
    const folder = path.join(dir, 'folder');
    mkdirSync(folder);
    expect(refusal(folder)).toMatch(/not a regular file/);
    expect(refusal(tokenFile('big', 'x'.repeat(65 * 1024), 0o600))).toMatch(/over 64 KiB/);
    expect(refusal(tokenFile('empty', '# none\n\n', 0o600))).toMatch(/holds no token/);
    expect(refusal(path.join(dir, 'missing'))).toMatch(/ENOENT/);
  });
});
