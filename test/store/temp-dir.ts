/** Temporary directories for the store tests, removed after each test. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) {
    try {
      fs.chmodSync(dir, 0o700);
    } catch {
      // already gone
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A fresh empty directory under the OS temp dir. */
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nerq-store-'));
  made.push(dir);
  return dir;
}
