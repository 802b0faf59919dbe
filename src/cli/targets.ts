/** Every target of a command line parsed before any request: a bad one is a usage error (exit 2). */
import { parseTarget } from '../target/parse.js';
import { TargetError, type Target } from '../target/types.js';
import { UsageError } from './usage-error.js';

export function parseTargets(inputs: readonly string[]): Target[] {
  return inputs.map((input) => {
    try {
      return parseTarget(input);
    } catch (error) {
      if (error instanceof TargetError) throw new UsageError(error.message);
      throw error;
    }
  });
}
