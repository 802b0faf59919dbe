/**
 * The run's bound on large response bodies in flight at once (docs/architecture.md, "The
 * runtime"): a body over `thresholdBytes` (or of unknown length) is read only while one of
 * `limit` permits is held, so a project of platform-binary packages (tens of MB each) never
 * has more than `limit` of them streaming through one process. Waiters are served in order.
 */

/** Permits for large bodies at once. */
export const LARGE_BODY_PERMITS = 3;
/** A body over this many bytes is large (the size over which a tarball is not stored either). */
export const LARGE_BODY_BYTES = 4 * 1024 * 1024;

export interface LargeBodyGate {
  readonly limit: number;
  readonly thresholdBytes: number;
  /** A permit at once, or false when all are held. */
  tryAcquire(): boolean;
  /** Wait for a permit; false when `signal` aborts first (no permit is then held). */
  acquire(signal: AbortSignal | undefined): Promise<boolean>;
  release(): void;
}

export function createLargeBodyGate(limit: number = LARGE_BODY_PERMITS, thresholdBytes: number = LARGE_BODY_BYTES): LargeBodyGate {
  const size = Math.max(1, Math.floor(limit) || 1);
  let free = size;
  const waiting: Array<(granted: boolean) => void> = [];
  return {
    limit: size,
    thresholdBytes,
    tryAcquire() {
      if (free === 0) return false;
      free -= 1;
      return true;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.resolve(false);
      if (free > 0) {
        free -= 1;
        return Promise.resolve(true);
      }
      return new Promise<boolean>((resolve) => {
        const grant = (granted: boolean): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve(granted);
        };
        const onAbort = (): void => {
          const at = waiting.indexOf(grant);
          if (at >= 0) waiting.splice(at, 1);
          resolve(false);
        };
        waiting.push(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    release() {
      const next = waiting.shift();
      if (next !== undefined) next(true);
      else free = Math.min(size, free + 1);
    },
  };
}
