import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/db.js';
import { openStore } from '../../src/store/open-store.js';
import { tempDir } from './temp-dir.js';

function collect(): { warnings: string[]; warn: (m: string) => void } {
  const warnings: string[] = [];
  return { warnings, warn: (m) => warnings.push(m) };
}

describe('openStore faults', () => {
  it('moves a corrupt database aside with its -wal and -shm files, warns once, starts fresh', () => {
    const dir = tempDir();
    const file = path.join(dir, 'nerq.sqlite');
    const garbage = Buffer.alloc(8192, 'this is not a database ');
    fs.writeFileSync(file, garbage);
    fs.writeFileSync(`${file}-wal`, 'fake wal');
    fs.writeFileSync(`${file}-shm`, 'fake shm');

    const { warnings, warn } = collect();
    const store = openStore({ dir, warn });
    expect(store).not.toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/was unreadable and was moved aside to .*nerq\.sqlite\.corrupt-/);

    const names = fs.readdirSync(dir);
    const aside = names.find((n) => /^nerq\.sqlite\.corrupt-[^-]/.test(n) && !n.endsWith('-wal') && !n.endsWith('-shm'));
    expect(aside).toBeDefined();
    expect(fs.readFileSync(path.join(dir, aside!)).equals(garbage)).toBe(true);
    expect(fs.readFileSync(path.join(dir, `${aside!}-wal`), 'utf8')).toBe('fake wal');
    expect(fs.readFileSync(path.join(dir, `${aside!}-shm`), 'utf8')).toBe('fake shm');
    expect(warnings[0]).toContain(aside!);

    store!.cache.put({
      key: 'k', url: 'https://example.test/k', status: 200, headers: {}, body: Buffer.from('ok'),
      etag: null, lastModified: null, fetchedAt: 1,
    });
    expect(store!.cache.get('k')?.body.toString()).toBe('ok');
    store!.close();

    // The fresh store reopens without any further warning.
    const again = collect();
    const reopened = openStore({ dir, warn: again.warn });
    expect(again.warnings).toEqual([]);
    expect(reopened?.cache.stats().entries).toBe(1);
    reopened?.close();
  });

  it.each([
    { name: 'a short file', bytes: Buffer.from('SQLite') },
    { name: 'a SQLite header over garbage', bytes: Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4096, 0xab)]) },
  ])('moves aside $name and starts fresh', ({ bytes }) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'nerq.sqlite'), bytes);
    const { warnings, warn } = collect();
    const store = openStore({ dir, warn });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/moved aside/);
    const aside = fs.readdirSync(dir).find((n) => /^nerq\.sqlite\.corrupt-.*Z$/.test(n));
    expect(fs.readFileSync(path.join(dir, aside!)).equals(bytes)).toBe(true);
    store!.history.record({
      target: 'npm:x', ecosystem: 'npm', name: 'x', version: '1.0.0', score: 1, grade: 'F', verdict: 'NO',
      coverage: 0, dimensions: {}, checks: {}, evidenceHash: 'h', evaluatedAt: '2024-01-01T00:00:00.000Z', toolVersion: 't',
    });
    expect(store!.history.list('npm:x')).toHaveLength(1);
    store!.close();
  });

  it('returns null with one warning when the directory cannot be written', () => {
    const base = tempDir();
    let dir = path.join(base, 'ro');
    fs.mkdirSync(dir, { mode: 0o500 });
    fs.chmodSync(dir, 0o500);
    // chmod does not stop root (or Windows): make mkdir fail instead, under a regular file.
    let chmodBinds = true;
    try {
      fs.writeFileSync(path.join(dir, 'probe'), '');
      chmodBinds = false;
    } catch {
      // writes are refused: the read-only directory is a faithful test
    }
    if (!chmodBinds) {
      fs.writeFileSync(path.join(base, 'afile'), '');
      dir = path.join(base, 'afile', 'sub');
    }

    const { warnings, warn } = collect();
    expect(openStore({ dir, warn })).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not be used .*running without it/);
  });

  it('returns null with a warning for a database from a newer nerq, and leaves it alone', () => {
    const dir = tempDir();
    const file = path.join(dir, 'nerq.sqlite');
    const db = new DatabaseSync(file);
    db.exec(`CREATE TABLE future (x); PRAGMA user_version=${SCHEMA_VERSION + 1}`);
    db.close();

    const { warnings, warn } = collect();
    expect(openStore({ dir, warn })).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/newer nerq/);

    const check = new DatabaseSync(file);
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION + 1 });
    expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'future'").get()).toEqual({ name: 'future' });
    check.close();
    expect(fs.readdirSync(dir).some((n) => n.includes('corrupt'))).toBe(false);
  });

  it('never throws, even for an unusable path', () => {
    const { warnings, warn } = collect();
    expect(openStore({ dir: '\0bad', warn })).toBeNull();
    expect(warnings).toHaveLength(1);
  });
});
