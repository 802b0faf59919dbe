/**
 * An error message that may quote what a caller sent (an unknown query key, a tool's argument, a
 * tool name) as one safe line (docs/security.md): escape sequences, control, bidirectional and
 * invisible characters removed by render's sanitiser, at most 300 characters. A client that
 * prints the message shows the text it sent, never a terminal command or reordered text.
 */
import { sanitizeForTerminal } from '../render/sanitize.js';

const MAX_MESSAGE = 300;

export function echoSafe(message: string): string {
  const line = sanitizeForTerminal(message).replace(/\s+/g, ' ').trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}
