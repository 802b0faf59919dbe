/**
 * Ctrl-C (SIGINT) and SIGTERM end a run promptly, on a terminal too: the spinner stops (and
 * gives the cursor back), the store writes what it has queued and closes — never left half
 * written — and nerq exits 128 + the signal's number (130 for Ctrl-C), as a shell expects of a
 * program a signal ended. A second signal while cleaning up exits at once.
 */

const EXIT_CODES: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

export interface InterruptGuard {
  /** Add a cleanup (run in order, each even when one before it threw). */
  add(cleanup: () => void): void;
  /** The run finished: stop listening. */
  dispose(): void;
}

export function guardInterrupts(
  exit: (code: number) => never = (code) => process.exit(code),
  write: (text: string) => void = (text) => void process.stderr.write(text),
): InterruptGuard {
  const cleanups: Array<() => void> = [];
  let stopping = false;
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = (): void => {
      if (stopping) exit(EXIT_CODES[signal]);
      stopping = true;
      for (const cleanup of cleanups) {
        try {
          cleanup();
        } catch {
          // the next cleanup still runs; the exit code says what happened
        }
      }
      write(`\nnerq: interrupted (${signal === 'SIGINT' ? 'Ctrl-C' : signal}); nothing was reported\n`);
      exit(EXIT_CODES[signal]);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return {
    add(cleanup) {
      cleanups.push(cleanup);
    },
    dispose() {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
}
