/**
 * Opens nerq's local store (`<dir>/nerq.sqlite`). Never throws: a database from a newer nerq,
 * a read-only directory or any other failure warns and returns null (run without a store);
 * a corrupt file is moved aside with its -wal and -shm files and a fresh store is created.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { isCorruption, openDatabase, SchemaTooNewError, transactor } from './db.js';
import { createFacts } from './facts.js';
import { createHistory } from './history.js';
import { createHttpCache } from './http-cache.js';
import { pruner } from './prune.js';
import type { Store } from './types.js';
import { createWriteQueue, type WriteQueueOptions } from './write-queue.js';

export const STORE_FILE = 'nerq.sqlite';

export interface OpenStoreOptions {
  dir: string;
  warn: (message: string) => void;
  /** When grouped writes are flushed (defaults: 4 MiB queued, or 100 ms after the first write). */
  flush?: WriteQueueOptions;
  /** Cached bodies longer than this are stored compressed (default COMPRESS_ABOVE_BYTES, 256 KiB). */
  compressAbove?: number;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Renames `file` and its -wal/-shm companions to `<file>.corrupt-<timestamp>[-wal|-shm]`. */
function moveAside(file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const aside = `${file}.corrupt-${stamp}`;
  fs.renameSync(file, aside);
  for (const suffix of ['-wal', '-shm']) {
    try {
      fs.renameSync(file + suffix, aside + suffix);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return aside;
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * True when `file` exists, is not empty and does not start with SQLite's header. Checked before
 * SQLite opens it because closing a handle on such a file deletes its -wal and -shm, which we
 * want to keep beside it. Deeper corruption is still caught by openDatabase's probe query.
 */
function hasForeignHeader(file: string): boolean {
  let fd: number;
  try {
    // Never through a link, never blocking (refuseSpecialFiles has checked; this closes the race).
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return false; // missing (a new store) or unreadable (openDatabase reports it)
  }
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return read > 0 && (read < head.length || !head.equals(SQLITE_MAGIC));
  } finally {
    fs.closeSync(fd);
  }
}

function wrap(file: string, db: DatabaseSync, { flush, compressAbove }: Pick<OpenStoreOptions, 'flush' | 'compressAbove'>): Store {
  const transact = transactor(db);
  const queue = createWriteQueue(transact, flush);
  const pruneRows = pruner(db);
  const prune = (maxBytes: number): void => queue.flush(() => pruneRows(maxBytes));
  const cache = createHttpCache(db, transact, queue, prune, compressAbove);
  const history = createHistory(db, queue);
  const facts = createFacts(db, transact, queue);
  let open = true;
  return {
    file,
    cache,
    history,
    facts,
    flush: () => queue.flush(),
    prune,
    compact() {
      queue.flush();
      db.exec('VACUUM');
      // In WAL mode the rewritten pages sit in the log until a checkpoint: move them into the file now.
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    },
    close() {
      if (!open) return;
      open = false;
      try {
        queue.flush();
      } finally {
        queue.dispose();
        db.close();
      }
    },
  };
}

/** The files SQLite opens for a database (the database, its write-ahead log and shared memory, a rollback journal). */
const COMPANIONS = ['', '-wal', '-shm', '-journal'];

/**
 * Refuse a store whose files are not regular files (docs/security.md): SQLite would follow a
 * symbolic link (and write through it) or block for ever opening a FIFO, with no deadline able to
 * interrupt a synchronous open.
 */
function refuseSpecialFiles(file: string): void {
  for (const suffix of COMPANIONS) {
    let info: fs.Stats;
    try {
      info = fs.lstatSync(file + suffix);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (!info.isFile()) {
      const kind = info.isSymbolicLink() ? 'a symbolic link' : info.isFIFO() ? 'a FIFO' : info.isDirectory() ? 'a directory' : 'not a regular file';
      throw new Error(`${path.basename(file + suffix)} is ${kind}`);
    }
  }
}

/** Opens the database; a corrupt one is moved aside (warning once) and replaced by a new one. */
function openOrReplace(file: string, warn: (message: string) => void): DatabaseSync {
  if (!hasForeignHeader(file)) {
    try {
      return openDatabase(file);
    } catch (error) {
      if (!isCorruption(error)) throw error;
    }
  }
  const aside = moveAside(file);
  warn(`the store at ${file} was unreadable and was moved aside to ${aside}`);
  return openDatabase(file);
}

/** Opens (creating and migrating as needed) the store in `dir`; null when it cannot be used. */
export function openStore({ dir, warn, flush, compressAbove }: OpenStoreOptions): Store | null {
  const file = path.join(dir, STORE_FILE);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    refuseSpecialFiles(file);
    return wrap(file, openOrReplace(file, warn), { flush, compressAbove });
  } catch (error) {
    if (error instanceof SchemaTooNewError) {
      warn(`the store at ${file} was written by a newer nerq (${error.message}); running without it`);
      return null;
    }
    warn(`the store at ${file} could not be used (${reason(error)}); running without it`);
    return null;
  }
}
