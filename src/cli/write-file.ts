/**
 * The files nerq writes where the user says (`--output`, `--save-evidence`). In CI that place
 * is often inside the checkout a pull request wrote, which can commit a symbolic link or a FIFO
 * under the report's name: a link would carry nerq's text — strangers' lines included — into
 * whatever file it names (`~/.npmrc`), a FIFO would block the run for ever (docs/security.md,
 * "The audited tree is untrusted"). The last component is opened without following a link and
 * without blocking, and written only when it is a regular file (created if absent). A path
 * inside the working directory (the checkout, in CI) must stay inside it once its folders' links
 * are resolved (`reports -> ~/.ssh` is refused); one the user typed outside it is theirs, links and all.
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, realpathSync, writeSync } from 'node:fs';
import path from 'node:path';

const FLAGS = constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Why the file cannot be written, from its error: one phrase. */
export function writeProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'it is a symbolic link (not followed)';
  if (code === 'ENXIO' || code === 'ENOTREG') return 'not a regular file';
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'a directory';
  if (code === 'ELEAVESCWD') return 'its folder is a symbolic link out of the working directory (not followed)';
  return code ?? 'I/O error';
}

/** Whether `child` is `parent` or below it (both absolute). */
const within = (parent: string, child: string): boolean => {
  const relative = path.relative(parent, child);
  return relative === '' || !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
};

/** Throws (code ELEAVESCWD) when `file` lies inside `cwd` as written but its folder resolves outside it. */
function refuseFolderOutside(file: string, cwd: string): void {
  const absolute = path.resolve(cwd, file);
  if (!within(cwd, absolute)) return;
  let folder: string;
  let root: string;
  try {
    folder = realpathSync(path.dirname(absolute));
    root = realpathSync(cwd);
  } catch {
    return; // A folder that does not exist: opening the file reports it.
  }
  if (!within(root, folder)) throw Object.assign(new Error(`${file} is outside the working directory`), { code: 'ELEAVESCWD' });
}

/**
 * Write `text` to `file`, replacing a regular file; throws (see writeProblem) for anything else,
 * and for a file inside `cwd` whose folder is a link out of it.
 */
export function writeRegularFile(file: string, text: string, cwd: string = process.cwd()): void {
  refuseFolderOutside(file, cwd);
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
