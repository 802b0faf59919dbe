/**
 * Shape checks for parsed input files with zod: a file whose structure is not what its format
 * says (a version that is a number, `packages` that is a list, …) is malformed input, reported
 * as a `LockfileError` at the line of the offending value.
 */
import type { z } from 'zod';
import { LockfileError } from '../audit/types.js';
import { quote } from './text.js';

export function validateShape<T extends z.ZodType>(
  schema: T,
  value: unknown,
  file: string,
  lineOf: (path: readonly PropertyKey[]) => number | null,
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const where = path.length === 0 ? 'the document' : path.map((key) => (typeof key === 'number' ? `[${key}]` : quote(String(key)))).join(' › ');
  const detail = issue?.message.split('\n')[0] ?? 'unexpected structure';
  throw new LockfileError(file, lineOf(path), `unexpected structure at ${where}: ${detail}`);
}
