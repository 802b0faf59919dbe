/**
 * CVSS base scores from vector strings (v2, v3.0, v3.1, v4.0), computed with
 * ae-cvss-calculator, and the score → severity bands nerq reports.
 *
 * Vectors come from advisory databases, so they are hostile input: anything that is not a
 * well-formed vector of a known version with every base metric set scores `null`, never a
 * throw and never a made-up number. The calculator is loaded on demand (loadCvssCalculator);
 * scoring a vector before it is loaded throws, a mistake in nerq rather than bad input.
 */
import type { Severity } from '../../evidence/schema.js';

type Calculator = typeof import('ae-cvss-calculator');

/** ae-cvss-calculator, once loadCvssCalculator has loaded it. */
let calculator: Calculator | undefined;

/**
 * Loads ae-cvss-calculator (about 210 KB of bundled JavaScript): the OSV readers (query.ts,
 * pipeline/removed-malicious.ts) await it before they score the records they read, so a run that
 * reads no advisory record (a warm check of a package with none) never loads it.
 */
export async function loadCvssCalculator(): Promise<void> {
  if (calculator !== undefined) return;
  const imported = await import('ae-cvss-calculator');
  // A CommonJS module imported dynamically may have its exports under `default` only (bundled, it does).
  calculator = 'Cvss4P0' in imported ? imported : (imported as unknown as { default: Calculator }).default;
}

function loaded(): Calculator {
  if (calculator === undefined) throw new Error('the CVSS calculator is not loaded: await loadCvssCalculator() before scoring a vector');
  return calculator;
}

export type CvssVersion = '2.0' | '3.0' | '3.1' | '4.0';

/** Longer than any real vector with every optional metric set. */
const MAX_VECTOR_LENGTH = 400;
/** One `METRIC:VALUE` part. */
const METRIC_PART = /^[A-Za-z]{1,4}:[A-Za-z]{1,8}$/;

interface Scorable {
  isBaseFullyDefined(): boolean;
  calculateScores(): { base?: number | undefined; overall: number };
}

const PREFIXED: Record<string, { version: CvssVersion; create: (calculator: Calculator, vector: string) => Scorable }> = {
  'CVSS:4.0': { version: '4.0', create: (c, v) => new c.Cvss4P0(v) },
  'CVSS:3.1': { version: '3.1', create: (c, v) => new c.Cvss3P1(v) },
  'CVSS:3.0': { version: '3.0', create: (c, v) => new c.Cvss3P0(v) },
};

/** The vector without surrounding whitespace and the parentheses NVD puts around v2 vectors. */
function clean(vector: string): string {
  const trimmed = vector.trim();
  return trimmed.startsWith('(') && trimmed.endsWith(')') ? trimmed.slice(1, -1).trim() : trimmed;
}

/** True when every part is `METRIC:VALUE` and no metric repeats. */
function wellFormed(parts: readonly string[]): boolean {
  const seen = new Set<string>();
  for (const part of parts) {
    if (!METRIC_PART.test(part)) return false;
    const metric = part.slice(0, part.indexOf(':'));
    if (seen.has(metric)) return false;
    seen.add(metric);
  }
  return parts.length > 0;
}

/** The CVSS version a vector is written in, or null when it is not a recognisable vector. */
export function cvssVersionOf(vector: string): CvssVersion | null {
  return parseVector(vector)?.version ?? null;
}

function parseVector(vector: string): { version: CvssVersion; vector: string; create: (calculator: Calculator, v: string) => Scorable } | null {
  if (typeof vector !== 'string' || vector.length > MAX_VECTOR_LENGTH) return null;
  const text = clean(vector);
  const slash = text.indexOf('/');
  const head = slash === -1 ? text : text.slice(0, slash);
  const prefixed = PREFIXED[head];
  if (prefixed !== undefined) {
    return wellFormed(text.slice(slash + 1).split('/')) ? { ...prefixed, vector: text } : null;
  }
  // CVSS v2 vectors carry no prefix; `Au` (authentication) is a metric only v2 has.
  const parts = text.split('/');
  if (wellFormed(parts) && parts.some((p) => p.startsWith('Au:'))) {
    return { version: '2.0', vector: text, create: (c, v) => new c.Cvss2(v) };
  }
  return null;
}

/**
 * The CVSS base score (0–10, one decimal) of `vector`, or null when the vector is malformed,
 * of an unknown version, or lacks a base metric. Never throws.
 */
export function cvssBaseScore(vector: string): number | null {
  const parsed = parseVector(vector);
  if (parsed === null) return null;
  // Outside the try: scoring before loading is a mistake in nerq, never an unscored vector.
  const calculator = loaded();
  try {
    const cvss = parsed.create(calculator, parsed.vector);
    if (!cvss.isBaseFullyDefined()) return null;
    const scores = cvss.calculateScores();
    const base = scores.base ?? scores.overall;
    return typeof base === 'number' && Number.isFinite(base) && base >= 0 && base <= 10 ? base : null;
  } catch {
    return null;
  }
}

/**
 * The severity band of a CVSS score: ≥ 9.0 critical, ≥ 7.0 high, ≥ 4.0 moderate, > 0 low.
 * A score of 0 (or anything outside 0–10) names no severity: null.
 */
export function severityOfScore(score: number): Exclude<Severity, 'unknown'> | null {
  if (!Number.isFinite(score) || score <= 0 || score > 10) return null;
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'moderate';
  return 'low';
}
