import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeProblem, writeRegularFile } from '../../src/cli/write-file.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-write-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error code writeRegularFile throws for `file`, or null when it wrote. */
function attempt(file: string, text: string): string | null {
  try {
    writeRegularFile(file, text);
    return null;
  } catch (error) {
    return writeProblem(error);
  }
}

describe('writeRegularFile', () => {
  it('creates a file, and replaces a longer one whole', () => {
    const file = path.join(dir, 'report.json');
    expect(attempt(file, 'x'.repeat(100))).toBeNull();
    expect(attempt(file, '{}\n')).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
  });

  it('never writes through a symbolic link, dangling or not', () => {
    const victim = path.join(dir, 'victim');
    writeFileSync(victim, 'kept');
    symlinkSync(victim, path.join(dir, 'link'));
    symlinkSync(path.join(dir, 'absent'), path.join(dir, 'dangling'));
    expect(attempt(path.join(dir, 'link'), 'evil')).toBe('it is a symbolic link (not followed)');
    expect(attempt(path.join(dir, 'dangling'), 'evil')).toBe('it is a symbolic link (not followed)');
    expect(readFileSync(victim, 'utf8')).toBe('kept');
    expect(existsSync(path.join(dir, 'absent'))).toBe(false);
  });

  it('refuses a FIFO at once instead of waiting for a reader', () => {
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(attempt(fifo, 'x')).toBe('not a regular file');
  });

  it('refuses a folder inside the working directory that is a link out of it; a path typed outside it is written', () => {
    const cwd = path.join(dir, 'checkout');
    const victim = path.join(dir, 'victim-dir');
    mkdirSync(path.join(cwd, 'real'), { recursive: true });
    mkdirSync(victim);
    symlinkSync(victim, path.join(cwd, 'reports'));
    symlinkSync(path.join(cwd, 'real'), path.join(cwd, 'inside'));
    const refused = (file: string): string | null => {
      try {
        writeRegularFile(file, 'x', cwd);
        return null;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code ?? null;
      }
    };
    expect(refused(path.join(cwd, 'reports', 'out.json'))).toBe('ELEAVESCWD');
    expect(refused(path.join(cwd, 'inside', 'out.json'))).toBeNull();
    expect(refused(path.join(dir, 'outside-link', 'out.json'))).toBe('ENOENT');
    symlinkSync(victim, path.join(dir, 'outside-link'));
    expect(refused(path.join(dir, 'outside-link', 'out.json'))).toBeNull();
    expect(readFileSync(path.join(victim, 'out.json'), 'utf8')).toBe('x');
    expect(existsSync(path.join(cwd, 'real', 'out.json'))).toBe(true);
  });

  it('refuses a directory', () => {
    expect(attempt(dir, 'x')).toBe('a directory');
  });
});
