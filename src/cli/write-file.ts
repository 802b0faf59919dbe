/**
 * The files nerq writes where the user says (`--output`, `--save-evidence`). In CI that place
 * is often inside the checkout a pull request wrote, which can commit a symbolic link or a FIFO
 * under the report's name: a link would carry nerq's text — strangers' lines included — into
 * whatever file it names (`~/.npmrc`), a FIFO would block the run for ever (docs/security.md,
 * "The audited tree is untrusted"). The last component is opened without following a link and
 * without blocking, and written only when it is a regular file (created if absent).
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';

const FLAGS = constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Why the file cannot be written, from its error: one phrase. */
export function writeProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'it is a symbolic link (not followed)';
  if (code === 'ENXIO' || code === 'ENOTREG') return 'not a regular file';
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'a directory';
  return code ?? 'I/O error';
}

/** Write `text` to `file`, replacing a regular file; throws (see writeProblem) for anything else. */
export function writeRegularFile(file: string, text: string): void {
  const fd = openSync(file, FLAGS, 0o666);
  try {
    if (!fstatSync(fd).isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: 'ENOTREG' });
    ftruncateSync(fd, 0);
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } finally {
    closeSync(fd);
  }
}
