/**
 * The SQLite side of the store: open a database file with nerq's pragmas, bring its schema
 * up to date through ordered migrations (`PRAGMA user_version`), and run write transactions.
 * Imports only node built-ins and other store modules, so a child process can load it with
 * Node's own type stripping (see test/store/concurrency.test.ts).
 */
import { DatabaseSync } from 'node:sqlite';

/** How long a writer waits for another process's lock before SQLITE_BUSY (ms). */
export const BUSY_TIMEOUT_MS = 5000;

/** Ordered schema migrations: migration i (1-based) brings user_version from i-1 to i. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE http_cache (
    key           TEXT PRIMARY KEY,
    url           TEXT NOT NULL,
    status        INTEGER NOT NULL,
    headers       TEXT NOT NULL,
    body          BLOB NOT NULL,
    etag          TEXT,
    last_modified TEXT,
    fetched_at    INTEGER NOT NULL,
    size          INTEGER NOT NULL
  );
  CREATE INDEX http_cache_fetched_at ON http_cache (fetched_at);
  CREATE TABLE history (
    id            INTEGER PRIMARY KEY,
    target        TEXT NOT NULL,
    ecosystem     TEXT NOT NULL,
    name          TEXT NOT NULL,
    version       TEXT,
    score         REAL,
    grade         TEXT,
    verdict       TEXT NOT NULL,
    coverage      REAL NOT NULL,
    dimensions    TEXT NOT NULL,
    checks        TEXT NOT NULL,
    evidence_hash TEXT NOT NULL,
    evaluated_at  TEXT NOT NULL,
    tool_version  TEXT NOT NULL
  );
  CREATE INDEX history_target_evaluated_at ON history (target, evaluated_at);
  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // Facts derived from answers (keys carry nerq's version; values are JSON). Pruning
  // and stats read (fetched_at, key, size) from covering indexes: reaching `size` in the row
  // itself walks every body's overflow pages (~100 ms per run for a 130 MB cache).
  `
  CREATE TABLE facts_cache (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    fetched_at INTEGER NOT NULL,
    size       INTEGER NOT NULL
  );
  CREATE INDEX facts_cache_by_age ON facts_cache (fetched_at, key, size);
  DROP INDEX http_cache_fetched_at;
  CREATE INDEX http_cache_by_age ON http_cache (fetched_at, key, size);
  `,
  // Large bodies stored compressed ('gzip'); rows written before stay NULL (as they came).
  `
  ALTER TABLE http_cache ADD COLUMN encoding TEXT;
  `,
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The database's schema is newer than this code knows (written by a later nerq). */
export class SchemaTooNewError extends Error {
  readonly found: number;
  constructor(found: number) {
    super(`its schema version ${found} is newer than this nerq supports (${SCHEMA_VERSION})`);
    this.name = 'SchemaTooNewError';
    this.found = found;
  }
}

/** Runs `fn` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws. */
export type Transact = <T>(fn: () => T) => T;

/** Builds a transaction runner whose BEGIN/COMMIT/ROLLBACK are prepared once. */
export function transactor(db: DatabaseSync): Transact {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  return <T>(fn: () => T): T => {
    begin.run();
    let done = false;
    try {
      const result = fn();
      commit.run();
      done = true;
      return result;
    } finally {
      if (!done && db.isTransaction) rollback.run();
    }
  };
}

function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version?: unknown } | undefined;
  return typeof row?.user_version === 'number' ? row.user_version : 0;
}

/**
 * Opens (creating if needed) the database at `file`, sets the pragmas, probes that it is a
 * readable SQLite file and migrates it. Throws on any failure (the caller classifies it),
 * closing the handle first; throws SchemaTooNewError for a database from a newer nerq.
 */
export function openDatabase(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  try {
    db.exec(`PRAGMA busy_timeout=${BUSY_TIMEOUT_MS}`);
    // A corrupt file only shows itself at the first read: probe before anything else.
    db.prepare('SELECT count(*) AS n FROM sqlite_master').get();
    db.exec('PRAGMA journal_mode=WAL');
    // With WAL, NORMAL is crash-safe for the database (a power cut may lose the last commits, a
    // cache can afford that) and drops the flush per write that dominated an audit's CPU time.
    db.exec('PRAGMA synchronous=NORMAL');
    db.exec('PRAGMA foreign_keys=ON');
    migrate(db);
    return db;
  } catch (error) {
    try {
      db.close();
    } catch {
      // already closed or never opened: nothing to release
    }
    throw error;
  }
}

/** Applies the missing migrations, each in its own IMMEDIATE transaction (safe across processes). */
export function migrate(db: DatabaseSync): void {
  const found = userVersion(db);
  if (found > SCHEMA_VERSION) throw new SchemaTooNewError(found);
  if (found === SCHEMA_VERSION) return;
  const transact = transactor(db);
  for (let target = 1; target <= SCHEMA_VERSION; target++) {
    transact(() => {
      // Re-read under the write lock: another process may have migrated meanwhile.
      const current = userVersion(db);
      if (current > SCHEMA_VERSION) throw new SchemaTooNewError(current);
      if (current >= target) return;
      db.exec(MIGRATIONS[target - 1]!);
      db.exec(`PRAGMA user_version=${target}`);
    });
  }
}

/** The primary SQLite result code of a node:sqlite error, if it is one. */
export function sqliteCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const errcode = (error as { errcode?: unknown }).errcode;
  return typeof errcode === 'number' ? errcode & 0xff : undefined;
}

/** SQLITE_CORRUPT (11) or SQLITE_NOTADB (26): the file is not a usable database. */
export function isCorruption(error: unknown): boolean {
  const code = sqliteCode(error);
  return code === 11 || code === 26;
}
