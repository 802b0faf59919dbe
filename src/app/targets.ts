/** Targets as every front door reads them: the command line's own parser (docs/architecture.md, "Add a front door"). */
import { parseTarget } from '../target/parse.js';
import { TargetError, type Target } from '../target/types.js';

export { parseTarget, TargetError, type Target };

/**
 * The targets of a list argument (`targets` of a batch or a tool call), each by the same parser;
 * a refused one is a `TargetError` naming its place as a schema error would (`targets.1: …`).
 */
export function parseTargetList(inputs: readonly string[], field = 'targets'): Target[] {
  return inputs.map((input, index) => {
    try {
      return parseTarget(input);
    } catch (error) {
      if (error instanceof TargetError) throw new TargetError(`${field}.${index}: ${error.message}`);
      throw error;
    }
  });
}
