/**
 * Every exported reader goes through `defineReader`, which keeps the readers' one promise:
 * malformed input throws a `LockfileError` and nothing else. A parser or library failing in
 * an unforeseen way (a stack overflow on absurd nesting, say) becomes one too, naming the file.
 */
import { LockfileError } from '../types.js';
import { firstLine } from './text.js';
import type { InputReader } from './types.js';

export function defineReader(read: InputReader): InputReader {
  return (text, file, context) => {
    try {
      return read(text, file, context);
    } catch (error) {
      if (error instanceof LockfileError) throw error;
      const detail = error instanceof RangeError ? 'nested too deeply' : firstLine(error instanceof Error ? error.message : String(error));
      throw new LockfileError(file, null, `could not be read: ${detail}`);
    }
  };
}
