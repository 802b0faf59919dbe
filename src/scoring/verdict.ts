/**
 * The verdict policy, in one place (docs/scoring.md §6): the verdict a score earns, and every
 * rule that moves it — do-not-use caps, caps, a dimension cap, a danger-guarding check left
 * unknown, a check holding the verdict, an unverified repository link — each with its reason.
 * Pure: the score and caps come in already computed (evaluate.ts).
 */
import type { CapRequest, Dimension } from '../checks/define.js';
import { reasonOf, type Reason } from '../model/reason.js';
import type { VerdictCode } from '../report/schema.js';
import { VERDICT_WORDS, verdictForScore } from './grade.js';

/** A check's result as the verdict reads it. */
export interface VerdictCheck {
  id: string;
  title: string;
  /** The check guards against danger: its unknown state may hide it (checks/define.ts). */
  guardsDanger: boolean;
  score: number | null;
  message: string;
  /** Why the check holds the verdict at CAUTION at best, or null. */
  holdVerdict: string | null;
}

export interface VerdictInput {
  /** The overall score after caps (null when nothing could be scored and no do-not-use cap applies). */
  score: number | null;
  /** Caps on the overall score: do-not-use caps first, then the tightest limit. */
  overallCaps: readonly CapRequest[];
  /** Caps on one dimension, tightest first. */
  dimensionCaps: readonly CapRequest[];
  checks: readonly VerdictCheck[];
  /** The package's repository link when it is not verified (starjacking), else null. */
  unverifiedLink: { repository: string | null; detail: string } | null;
}

export interface Verdict {
  code: VerdictCode;
  /** The verdict as people read it (`NO — DO NOT USE`). */
  word: string;
  reasons: Reason[];
}

function verdict(code: VerdictCode, reasons: Reason[]): Verdict {
  return { code, word: VERDICT_WORDS[code], reasons };
}

const capArgs = (cap: CapRequest) => ({ cap: cap.id, limit: cap.limit, reason: cap.reason });

export function decideVerdict(input: VerdictInput): Verdict {
  const reasons: Reason[] = [];
  let code: VerdictCode;
  if (input.overallCaps.some((c) => c.doNotUse === true)) {
    code = 'do-not-use';
    for (const cap of input.overallCaps) if (cap.doNotUse === true) reasons.push(reasonOf('do-not-use-cap', capArgs(cap)));
  } else if (input.score === null) {
    code = 'unknown';
    reasons.push(reasonOf('nothing-evaluated', {}));
  } else {
    code = verdictForScore(input.score);
    for (const cap of input.overallCaps) reasons.push(reasonOf('capped', capArgs(cap)));
    for (const cap of input.dimensionCaps) {
      reasons.push(reasonOf('dimension-capped', { ...capArgs(cap), dimension: cap.dimension as Dimension }));
    }
    // Unknown must never hide danger: while a guarding check is unknown, at most CAUTION;
    // likewise while a check holds the verdict (an advisory below the cap's severities),
    // and while a dimension is capped (an archived repository).
    const unchecked = input.checks.filter((c) => c.guardsDanger && c.score === null);
    const held = input.checks.filter((c) => c.holdVerdict !== null);
    if ((unchecked.length > 0 || held.length > 0 || input.dimensionCaps.length > 0) && code === 'yes') {
      code = 'caution';
      for (const c of unchecked) {
        reasons.push(reasonOf('danger-unchecked', { check: c.id, title: c.title, detail: c.message.replace(/^Unknown: /, '') }));
      }
      for (const c of held) reasons.push(reasonOf('verdict-held', { check: c.id, title: c.title, detail: c.holdVerdict as string }));
    }
  }
  // A package claiming a repository it cannot be tied to (starjacking) is never a plain YES:
  // its repository checks are unknown, and a typosquat must not win by hiding its weak ones.
  if (input.unverifiedLink !== null) {
    reasons.push(reasonOf('link-unverified', input.unverifiedLink));
    if (code === 'yes') code = 'caution';
  }
  return verdict(code, reasons);
}

/** The verdict of a target that could not be evaluated (not found, not supported, failed fetch). */
export function errorVerdict(error: { code: string; message: string }): Verdict {
  return verdict('unknown', [reasonOf('not-evaluated', { error: error.code, message: error.message })]);
}
