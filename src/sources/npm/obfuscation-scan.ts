/**
 * While a tarball streams past (tarball.ts), count the javascript-obfuscator names
 * (`_0x1a2b3c`) in each JavaScript file, chunk by chunk, so that obfuscated-code can say which
 * files are an obfuscator's output (docs/checks.md, `obfuscated-code`) without keeping any text.
 */
import { distinctObfuscatorNames, MIN_OBFUSCATED_FILE_NAMES } from '../../checks/lib/js-code.js';
import type { TarballFacts } from '../../evidence/schema.js';

type Obfuscated = NonNullable<TarballFacts['obfuscated']>;

const JAVASCRIPT = /\.[cm]?js$/i;
/** Files listed at most; more are counted. */
const MAX_LISTED = 16;
/** Characters carried from one chunk to the next, so a name cut in two is read whole. */
const CARRY = 12;

export class ObfuscationScan {
  private scanned = 0;
  private readonly files: Obfuscated['files'] = [];
  private more = 0;

  /** A data listener for a file of the archive (its path as shown), or null when it is not JavaScript. */
  file(path: string): { data: (chunk: Buffer) => void; end: () => void } | null {
    if (!JAVASCRIPT.test(path)) return null;
    this.scanned += 1;
    const names = new Set<string>();
    let carry = '';
    let done = false;
    return {
      data: (chunk) => {
        if (done) return;
        // latin1: one character per byte, so a name (ASCII) is never split by decoding.
        const text = carry + chunk.toString('latin1');
        // A name touching the end may be cut: it is read whole with the next chunk (the carry).
        distinctObfuscatorNames(text, names, true);
        carry = text.slice(-CARRY);
        if (names.size >= MIN_OBFUSCATED_FILE_NAMES) done = true;
      },
      end: () => {
        if (!done) distinctObfuscatorNames(carry, names);
        if (names.size < MIN_OBFUSCATED_FILE_NAMES) return;
        if (this.files.length < MAX_LISTED) this.files.push({ path, names: names.size });
        else this.more += 1;
      },
    };
  }

  facts(): Obfuscated {
    return { scanned: this.scanned, files: this.files, more: this.more };
  }
}
