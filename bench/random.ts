/**
 * Deterministic randomness for the generator. Every package (and every part of it) draws from
 * its own stream, derived from the run's seed and a key, so what one package looks like does
 * not depend on how many others were generated before it.
 */

/** A 32-bit hash of a string (FNV-1a), for deriving seeds from keys. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A log-normal draw with the given median and sigma (of the underlying normal). */
  logNormal(median: number, sigma: number): number;
  /** Lower-case hex, `length` digits. */
  hex(length: number): string;
}

/** mulberry32: small, fast and good enough for synthetic data (not for anything secret). */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
    logNormal: (median, sigma) => {
      // Box–Muller; 1 - next() keeps the logarithm finite.
      const normal = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
      return median * Math.exp(sigma * normal);
    },
    hex: (length) => {
      const bytes = Buffer.allocUnsafe(Math.ceil(length / 8) * 4);
      for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE(Math.floor(next() * 0x100000000), i);
      return bytes.toString('hex').slice(0, length);
    },
  };
  return random;
}

/** The stream for one key under a run seed. */
export function streamFor(seed: number, ...keys: Array<string | number>): Random {
  return createRandom(hashString(`${seed}\u0000${keys.join('\u0000')}`));
}
