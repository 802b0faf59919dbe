/**
 * The configuration both HTTP front doors share (docs/serve.md, "Tokens"): the token file, and the
 * error for configuration a server cannot start with, which the command line turns into a usage
 * error (exit 2).
 */
import { readFileSync } from 'node:fs';
import { tokensFromFile } from './auth.js';

/** Thrown for configuration a server cannot start with: a token file that cannot be read or holds no token, a bad option, a port it cannot bind. */
export class ServerConfigError extends Error {
  override name = 'ServerConfigError';
}

export function readTokenFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ServerConfigError(`cannot read the token file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const tokens = tokensFromFile(text);
  if (tokens.length === 0) throw new ServerConfigError('the token file holds no token');
  return tokens;
}
