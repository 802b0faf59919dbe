/** Signals end a run with the right code after its cleanups (src/cli/interrupt.ts), and the progress line's words. */
import { describe, expect, it } from 'vitest';
import { guardInterrupts } from '../../src/cli/interrupt.js';
import { activityText } from '../../src/cli/progress.js';

class Exit extends Error {
  readonly code: number;

  constructor(code: number) {
    super(`exit ${code}`);
    this.code = code;
  }
}

describe('guardInterrupts', () => {
  it.for([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s runs every cleanup (even after one throws), says so on stderr and exits %i', ([signal, code]) => {
    const before = process.listenerCount(signal);
    const written: string[] = [];
    const ran: string[] = [];
    const guard = guardInterrupts((c) => {
      throw new Exit(c);
    }, (t) => written.push(t));
    guard.add(() => ran.push('spinner'));
    guard.add(() => {
      throw new Error('store already closed');
    });
    guard.add(() => ran.push('after'));
    try {
      expect(() => process.emit(signal)).toThrow(new Exit(code));
      expect(ran).toEqual(['spinner', 'after']);
      expect(written.join('')).toContain('nerq: interrupted');
      // A second signal while cleaning up exits at once, with no second round of cleanups.
      expect(() => process.emit(signal)).toThrow(new Exit(code));
      expect(ran).toEqual(['spinner', 'after']);
    } finally {
      guard.dispose();
    }
    expect(process.listenerCount(signal)).toBe(before);
  });
});

describe('activityText', () => {
  it('names what is in flight, busiest first, and what is down; nothing when idle', () => {
    const activity = (inFlight: [string, number][], down: string[]) => ({ inFlight: () => new Map(inFlight), down: () => down });
    expect(activityText(activity([['OSV', 1], ['registry', 32], ['GitHub', 0]], ['GitHub', 'GitHub']))).toBe('waiting on registry 32, OSV 1 · GitHub down');
    expect(activityText(activity([], []))).toBe('');
    expect(activityText(undefined)).toBe('');
  });
});
