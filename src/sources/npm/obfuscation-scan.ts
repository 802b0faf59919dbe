/**
 * While a tarball streams past (tarball.ts), read each JavaScript file chunk by chunk for the
 * signatures of obfuscation (checks/lib/obfuscation-signatures.ts), so that obfuscated-code can
 * say which files are an obfuscator's output and which shapes they take (docs/checks.md,
 * `obfuscated-code`) without keeping any text.
 */
import { ObfuscationReader } from '../../checks/lib/obfuscation-signatures.js';
import type { TarballFacts } from '../../evidence/schema.js';

type Obfuscated = NonNullable<TarballFacts['obfuscated']>;

const JAVASCRIPT = /\.[cm]?js$/i;
/** Files listed at most; more are counted. */
const MAX_LISTED = 16;

export class ObfuscationScan {
  private scanned = 0;
  private readonly files: Obfuscated['files'] = [];
  private more = 0;

  /** A data listener for a file of the archive (its path as shown), or null when it is not JavaScript. */
  file(path: string): { data: (chunk: Buffer) => void; end: () => void } | null {
    if (!JAVASCRIPT.test(path)) return null;
    this.scanned += 1;
    const reader = new ObfuscationReader();
    return {
      // latin1: one character per byte, so a marker is never split by decoding.
      data: (chunk) => reader.read(chunk.toString('latin1')),
      end: () => {
        reader.read('', true);
        const signatures = reader.signatures();
        if (signatures.length === 0) return;
        if (this.files.length < MAX_LISTED) this.files.push({ path, names: reader.nameCount(), signatures });
        else this.more += 1;
      },
    };
  }

  facts(): Obfuscated {
    return { scanned: this.scanned, files: this.files, more: this.more };
  }
}
