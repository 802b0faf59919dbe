/** The LockfileError a reader throws (any other error, or none, fails the test). */
import { LockfileError } from '../../../src/audit/types.js';

export function lockfileErrorOf(fn: () => unknown): LockfileError {
  try {
    fn();
  } catch (error) {
    if (error instanceof LockfileError) return error;
    throw error;
  }
  throw new Error('expected a LockfileError');
}
