/**
 * Bad input from the user: one line on stderr, exit 2. Its own module, free of zod, so that the
 * CLI's entry (which must load almost nothing for `--version` and `--help`) can catch it.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}
