/**
 * Every exported reader goes through `defineReader`, which keeps the readers' promises:
 * malformed input throws a `LockfileError` and nothing else — a parser or library failing in
 * an unforeseen way (a stack overflow on absurd nesting, say) becomes one too, naming the
 * file — and every dependency returned can be evaluated as written (valid-dependency.ts): a
 * PyPI pin to a local version, which no public index serves, is an entry no registry vouches
 * for (local-version.ts).
 */
import { LockfileError } from '../audit/types.js';
import { firstLine } from './text.js';
import type { InputReader } from './types.js';
import { withLocalVersionsUnvouched } from './local-version.js';
import { keepValidDependencies } from './valid-dependency.js';

export function defineReader(read: InputReader): InputReader {
  return (text, file, context) => {
    try {
      return withLocalVersionsUnvouched(keepValidDependencies(read(text, file, context)));
    } catch (error) {
      if (error instanceof LockfileError) throw error;
      const detail = error instanceof RangeError ? 'nested too deeply' : firstLine(error instanceof Error ? error.message : String(error));
      throw new LockfileError(file, null, `could not be read: ${detail}`);
    }
  };
}
