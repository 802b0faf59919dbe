/**
 * The configuration both HTTP front doors share (docs/serve.md, "Tokens"): the token file, and the
 * error for configuration a server cannot start with, which the command line turns into a usage
 * error (exit 2).
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/** Thrown for configuration a server cannot start with: a token file that cannot be read or holds no token, a bad option, a port it cannot bind. */
export class ServerConfigError extends Error {
  override name = 'ServerConfigError';
}

/**
 * The tokens of a token file: one a line (LF or CRLF; a byte-order mark, blank lines and `#`
 * comment lines skipped, spaces around a token trimmed). A line holding anything an
 * `Authorization: Bearer` header cannot carry — two tokens, a trailing comment, a CR-only line
 * end, a space, a control or non-ASCII character — is refused with its line number (the token
 * never quoted): such a token could never be presented, and the server would start without it.
 */
function tokensFromFile(text: string): string[] {
  const tokens: string[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.replace(/\r$/, '').trim();
    if (line.length === 0 || line.startsWith('#')) continue;
    if (!/^[\x21-\x7e]+$/.test(line)) {
      throw new ServerConfigError(`the token file's line ${index + 1} is not one token of visible ASCII characters (a space, a comment after it, a CR line end, a control or non-ASCII character): no Authorization header could carry it`);
    }
    tokens.push(line);
  }
  return tokens;
}

/** The largest token file read (thousands of tokens). */
const MAX_TOKEN_FILE_BYTES = 64 * 1024;

/**
 * The tokens of `file`. It is opened without blocking and must be a regular file (a symbolic link
 * to one, as a mounted secret is, is followed): a FIFO would hold the server before it listens,
 * forever. On POSIX a file every user may write is refused (anyone could add a token), one every
 * user may read is a warning.
 */
export function readTokenFile(file: string, warn: (message: string) => void = () => undefined): string[] {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new ServerConfigError(`cannot read the token file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let text: string;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ServerConfigError('the token file is not a regular file (a directory, FIFO, socket or device)');
    if (stat.size > MAX_TOKEN_FILE_BYTES) throw new ServerConfigError(`the token file is over ${MAX_TOKEN_FILE_BYTES / 1024} KiB`);
    if (process.platform !== 'win32') {
      if ((stat.mode & 0o002) !== 0) throw new ServerConfigError('the token file is writable by every user, who could add a token: chmod 600 it');
      if ((stat.mode & 0o004) !== 0) warn('the token file is readable by every user: chmod 600 keeps the tokens to the server');
    }
    text = readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof ServerConfigError) throw error;
    throw new ServerConfigError(`cannot read the token file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  } finally {
    closeSync(fd);
  }
  const tokens = tokensFromFile(text);
  if (tokens.length === 0) throw new ServerConfigError('the token file holds no token');
  return tokens;
}
