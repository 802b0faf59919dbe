/**
 * Reading a file of the audited tree (docs/security.md, "The audited tree is untrusted"). A pull
 * request controls every file in it, symbolic links included: a lockfile or policy that links
 * to a file elsewhere on the machine would send that file's lines to public APIs as package
 * names. So a file read from the tree must resolve (every link followed) to a path inside the
 * boundary given; it is opened without following a link again (a link swapped in after the
 * check is refused) and without blocking (a FIFO is refused, never waited on); only a regular
 * file of at most `maxBytes` is read.
 *
 * A boundary of null reads the file wherever it is: a path the user named explicitly outside
 * the tree.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';

export type TreeRead =
  | { kind: 'text'; text: string }
  | { kind: 'missing' }
  /** Resolves (through a symbolic link) outside the boundary. */
  | { kind: 'outside' }
  /** A directory, FIFO, socket or device. */
  | { kind: 'not-a-file' }
  | { kind: 'too-large'; size: number }
  | { kind: 'error'; code: string };

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** Whether `candidate` is `root` or below it (both absolute, resolved). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Whether `absolute` lies lexically inside `root` (no link resolved). */
export function namedInside(root: string, absolute: string): boolean {
  return isInside(path.resolve(root), path.resolve(absolute));
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'EIO';
}

function failed(error: unknown): TreeRead {
  const code = errorCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  // O_NOFOLLOW on a link (swapped in after realpath): not a file we may read.
  if (code === 'ELOOP') return { kind: 'outside' };
  if (code === 'EISDIR') return { kind: 'not-a-file' };
  return { kind: 'error', code };
}

/** Read `absolute` as UTF-8 text, within `boundary` (null: anywhere). Never throws. */
export async function readTreeFile(absolute: string, boundary: string | null, maxBytes: number): Promise<TreeRead> {
  let real = absolute;
  try {
    if (boundary !== null) {
      real = await realpath(absolute);
      if (!isInside(await realpath(boundary), real)) return { kind: 'outside' };
    }
    const handle = await open(real, FLAGS);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return { kind: 'not-a-file' };
      if (info.size > maxBytes) return { kind: 'too-large', size: info.size };
      return { kind: 'text', text: await handle.readFile('utf8') };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return failed(error);
  }
}

/** The same, synchronously (readers that ask for includes while parsing). */
export function readTreeFileSync(absolute: string, boundary: string | null, maxBytes: number): TreeRead {
  let real = absolute;
  try {
    if (boundary !== null) {
      real = realpathSync(absolute);
      if (!isInside(realpathSync(boundary), real)) return { kind: 'outside' };
    }
    const fd = openSync(real, FLAGS);
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) return { kind: 'not-a-file' };
      if (info.size > maxBytes) return { kind: 'too-large', size: info.size };
      return { kind: 'text', text: readFileSync(fd, 'utf8') };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return failed(error);
  }
}

/** The nearest directory holding `.git` from `dir` upwards (the checkout), or null outside one. */
export function repositoryRoot(dir: string): string | null {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git'))) return at;
    if (path.dirname(at) === at) return null;
  }
}
