/**
 * The verdict policy, in one place (docs/scoring.md §6–§7): the verdict a score earns, and every
 * rule that moves it — do-not-use caps, caps, holds (a finding, years without a release, a
 * README that declares the package deprecated, a dimension cap, a danger-guarding check left
 * unknown, too little evidence, a risky category below its bar, an unverified repository link)
 * — each with its reason. Every cap and every hold that applies is listed, findings first,
 * whether or not it is what keeps the verdict from YES. Pure: the score and caps come in
 * already computed (evaluate.ts).
 */
import type { CapRequest, Dimension } from '../checks/define.js';
import { reasonOf, type Reason } from '../model/reason.js';
import type { VerdictCode } from '../report/schema.js';
import { roundScore, VERDICT_WORDS, verdictForScore } from './grade.js';
import { RISK_CATEGORIES, RISK_YES_BAR, type Category } from './profiles.js';

/** A check's result as the verdict reads it. */
export interface VerdictCheck {
  id: string;
  title: string;
  dimension: Dimension;
  /** The check guards against danger: its unknown state may hide it (checks/define.ts). */
  guardsDanger: boolean;
  score: number | null;
  /** The message's id: for an unknown check, why it is unknown (`source-unavailable`: a source did not answer). */
  messageId: string;
  message: string;
  /** Why the check holds the verdict at CAUTION at best (and what would lift it), or null. */
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
  category: Category;
  /** Known check weight over all, by the category profile (0–1), and the least the gate accepts. */
  coverage: number;
  minCoverage: number;
}

export interface Verdict {
  code: VerdictCode;
  /** The verdict as people read it (`NO — DO NOT USE`). */
  word: string;
  reasons: Reason[];
  /**
   * The score rests on less evidence than the gate needs (coverage below `--min-coverage`) and no
   * cap decides it: the verdict is at most CAUTION and the score is provisional.
   */
  provisional: boolean;
}

function verdict(code: VerdictCode, reasons: Reason[], provisional = false): Verdict {
  return { code, word: VERDICT_WORDS[code], reasons, provisional };
}

/** The message id of a check left unknown because a source it reads did not answer (evaluate.ts). */
export const SOURCE_UNAVAILABLE = 'source-unavailable';

/** The message id of a check left unknown because the target declares no source repository nerq can read (evaluate.ts). */
export const NO_SOURCE_REPOSITORY = 'no-source-repository';

/**
 * An MCP entry's package that could not be evaluated now because its registry did not answer
 * (checks/mcp-packages.ts, unknown as `unavailable`): a source the entry reads did not answer,
 * and its answering would lift the evidence (docs/scoring.md §6a).
 */
const packageUnanswered = (c: VerdictCheck): boolean => c.score === null && c.id === 'mcp-packages' && c.messageId === 'unavailable';

/**
 * Why a score is provisional, as what would lift it (docs/scoring.md §6a): a source repository
 * the target does not declare (no source answering lifts that); sources answering when one did
 * not; otherwise every source answered and the target itself gives too little.
 */
function provisionalReason(input: VerdictInput): Reason {
  const args = { coverage: input.coverage, minCoverage: input.minCoverage };
  const unknownFor = (messageId: string) => input.checks.some((c) => c.score === null && c.messageId === messageId);
  const unanswered = unknownFor(SOURCE_UNAVAILABLE) || input.checks.some(packageUnanswered);
  if (unknownFor(NO_SOURCE_REPOSITORY)) return reasonOf('provisional-no-repository', { ...args, sourcesUnavailable: unanswered });
  return reasonOf(unanswered ? 'provisional' : 'provisional-thin', args);
}

const capArgs = (cap: CapRequest) => ({ cap: cap.id, limit: cap.limit, reason: cap.reason });

/** Findings first: the security checks' holds, then the others', each in report order. */
const findingsFirst = (checks: readonly VerdictCheck[]) =>
  [...checks.filter((c) => c.dimension === 'security'), ...checks.filter((c) => c.dimension !== 'security')];

export function decideVerdict(input: VerdictInput): Verdict {
  const reasons: Reason[] = [];
  // A cap is decided by a fact (malicious, deprecated, an advisory), not by the mean of the
  // evidence: a capped score is not provisional, however little else is known.
  // A ceiling (an MCP server's weakest package) is a bound, not such a fact.
  const provisional = input.score !== null && input.overallCaps.every((c) => c.ceiling === true) && input.coverage < input.minCoverage;
  let code: VerdictCode;
  if (input.overallCaps.some((c) => c.doNotUse === true)) {
    code = 'do-not-use';
    for (const cap of input.overallCaps) if (cap.doNotUse === true) reasons.push(reasonOf('do-not-use-cap', capArgs(cap)));
  } else if (input.score === null) {
    code = 'unknown';
    reasons.push(reasonOf('nothing-evaluated', {}));
  } else {
    code = verdictForScore(input.score);
    let held = false;
    for (const cap of input.overallCaps) reasons.push(reasonOf('capped', capArgs(cap)));
    // Holds: a finding, a maintenance fact, a check that holds the verdict without capping.
    for (const c of findingsFirst(input.checks)) {
      if (c.holdVerdict === null) continue;
      reasons.push(reasonOf('verdict-held', { check: c.id, title: c.title, detail: c.holdVerdict }));
      held = true;
    }
    for (const cap of input.dimensionCaps) {
      reasons.push(reasonOf('dimension-capped', { ...capArgs(cap), dimension: cap.dimension as Dimension }));
      held = true;
    }
    // Unknown must never hide danger: while a guarding check is unknown, at most CAUTION.
    for (const c of input.checks) {
      if (!c.guardsDanger || c.score !== null) continue;
      reasons.push(reasonOf('danger-unchecked', { check: c.id, title: c.title, detail: c.message.replace(/^Unknown: /, '') }));
      held = true;
    }
    // No YES without the evidence the gate needs.
    if (provisional) {
      reasons.push(provisionalReason(input));
      held = true;
    }
    // A package that acts with the user's credentials, tools or shell needs more for YES.
    const shown = roundScore(input.score);
    if (RISK_CATEGORIES.includes(input.category) && code === 'yes' && shown < RISK_YES_BAR) {
      reasons.push(reasonOf('category-bar', { category: input.category, score: shown, bar: RISK_YES_BAR }));
      held = true;
    }
    if (held && code === 'yes') code = 'caution';
  }
  // A package claiming a repository it cannot be tied to (starjacking) is never a plain YES:
  // its repository checks are unknown, and a typosquat must not win by hiding its weak ones.
  if (input.unverifiedLink !== null) {
    reasons.push(reasonOf('link-unverified', input.unverifiedLink));
    if (code === 'yes') code = 'caution';
  }
  return verdict(code, reasons, provisional);
}

/** The verdict of a target that could not be evaluated (not found, not supported, failed fetch). */
export function errorVerdict(error: { code: string; message: string }): Verdict {
  return verdict('unknown', [reasonOf('not-evaluated', { error: error.code, message: error.message })]);
}
