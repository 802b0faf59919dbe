/**
 * The only way text reaches stderr: one line per message, prefixed `nerq: `, with everything a
 * terminal would interpret or hide taken out (docs/security.md, "Printed text cannot take over
 * the terminal"). Messages echo values someone else chose — a git ref, a file name, a flag value,
 * a registry's warning — so escape sequences, control characters, line breaks and every Unicode
 * format character (bidirectional controls, zero-width characters, tags, soft hyphens: category
 * Cf) are removed. Its own module, free of heavy imports: the CLI's entry loads it.
 */
import { inertCiCommands } from '../render/ci-log.js';
import { sanitizeForTerminal } from '../render/sanitize.js';

/** Unicode format characters (Cf): bidirectional controls, zero-width, tag characters, soft hyphen… */
const FORMAT = /\p{Cf}/gu;

/** A message as it may be printed on stderr: one line, nothing hidden or reordered, no CI runner command (src/render/ci-log.ts). */
export function stderrText(message: string): string {
  return inertCiCommands(sanitizeForTerminal(message).replace(FORMAT, '').trim());
}

/** Print `nerq: <message>` on stderr. */
export function printError(message: string): void {
  process.stderr.write(`nerq: ${stderrText(message)}\n`);
}

/** Print `nerq: warning: <message>` on stderr. */
export function printWarning(message: string): void {
  printError(`warning: ${message}`);
}
