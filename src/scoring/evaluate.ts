/**
 * The scoring engine: evidence → check results, dimension scores, caps, overall score,
 * grade and verdict. Pure: no I/O, no clock (`now` comes in), deterministic.
 */
import type { AnyCheck, CapRequest, CheckContext, Dimension } from '../checks/define.js';
import { DIMENSIONS, formatMessage, statusOfOutcome } from '../checks/define.js';
import { sourceOf, type Evidence } from '../evidence/schema.js';
import { isViewId, viewOf } from '../checks/views/index.js';
import type { NeedId } from '../checks/define.js';
import type { CheckResult, DimensionResult, Grade } from '../report/schema.js';
import type { ReasonArg } from '../model/reason.js';
import { unverifiedLink } from '../checks/lib/github.js';
import { plainReason } from '../util/plain-reason.js';
import { gradeOf, roundScore } from './grade.js';
import { DEFAULT_GATE } from './gate.js';
import { DIMENSION_TITLES, PROFILES, RISK_CATEGORIES, type Category } from './profiles.js';
import { decideVerdict, NO_SOURCE_REPOSITORY, SOURCE_UNAVAILABLE, type Verdict } from './verdict.js';

export interface Evaluation {
  score: number | null;
  grade: Grade | null;
  verdict: Verdict;
  coverage: number;
  dimensions: DimensionResult[];
  checks: CheckResult[];
  caps: { id: string; limit: number; reason: string; args: Record<string, ReasonArg>; dimension: Dimension | null }[];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Run one check over the evidence; unknown when a needed source is unavailable. */
type RanCheck = CheckResult & { capRequests: CapRequest[]; holdVerdict: string | null; notApplicable: boolean };

/** A source of the evidence or a derived view, by id. */
function lookup(evidence: Evidence, id: NeedId) {
  return isViewId(id) ? viewOf(evidence, id) : sourceOf(evidence.sources, id);
}

/** A source the target declares none of that nerq can read (its source repository): its checks are unknown, not left out. */
function undeclared(source: ReturnType<typeof lookup>): source is { status: 'not-applicable'; reason: string; undeclared: true } {
  return source.status === 'not-applicable' && 'undeclared' in source && source.undeclared === true;
}

/**
 * Whether a check applies to the target: every source or view it needs exists for the target's
 * ecosystem (none is `not-applicable`). Checks that do not apply are left out of the report; a
 * source the target could have declared and did not (`undeclared`) does not excuse its checks.
 */
export function applies(check: AnyCheck, evidence: Evidence): boolean {
  return (check.needs as readonly NeedId[]).every((need) => {
    const source = lookup(evidence, need);
    return source.status !== 'not-applicable' || undeclared(source);
  });
}

/** A check unknown because a source it reads is unavailable, holding the verdict when `hold` says why. */
function sourceUnavailable(base: Pick<RanCheck, 'id' | 'dimension' | 'title' | 'weight'>, source: string, reason: string, hold: string | null): RanCheck {
  return {
    ...base,
    score: null,
    status: 'unknown',
    messageId: SOURCE_UNAVAILABLE,
    // In the words a user reads; the evidence keeps the reason as the source gave it.
    message: `Unknown: ${source} unavailable (${plainReason(reason)})`,
    evidence: { source, reason },
    capRequests: [],
    holdVerdict: hold,
    notApplicable: false,
  };
}

export function runCheck(check: AnyCheck, evidence: Evidence, ctx: CheckContext): RanCheck {
  const base = { id: check.id, dimension: check.dimension, title: check.title, weight: check.weight };
  const facts: Record<string, unknown> = {};
  for (const need of check.needs as readonly NeedId[]) {
    const source = lookup(evidence, need);
    if (undeclared(source)) {
      return {
        ...base,
        score: null,
        status: 'unknown',
        messageId: NO_SOURCE_REPOSITORY,
        message: `Unknown: no source repository nerq can read (${source.reason})`,
        evidence: { source: need, reason: source.reason },
        capRequests: [],
        holdVerdict: null,
        notApplicable: false,
      };
    }
    if (source.status !== 'ok') {
      // A view names the evidence source it could not read (tarball, not "documents").
      const name = 'source' in source && typeof source.source === 'string' ? source.source : need;
      const hold = check.holdsWhenUnread !== undefined && 'unread' in source && source.unread === true ? `${check.holdsWhenUnread} (${source.reason})` : null;
      return sourceUnavailable(base, name, source.reason, hold);
    }
    facts[need] = source.facts;
  }
  for (const extra of (check.optional ?? []) as readonly NeedId[]) {
    const source = lookup(evidence, extra);
    if (source.status === 'ok') facts[extra] = source.facts;
    // An optional source read only in part (`unread`) is not one that is absent: without what
    // was not read the check cannot answer, and it holds the verdict as a needed one does.
    else if (check.holdsWhenUnread !== undefined && 'unread' in source && source.unread === true) {
      return sourceUnavailable(base, extra, source.reason, `${check.holdsWhenUnread} (${source.reason})`);
    }
  }
  let outcome;
  try {
    outcome = check.evaluate(facts as never, ctx);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      ...base,
      score: null,
      status: 'unknown',
      messageId: 'check-error',
      message: `Unknown: the check could not read the facts (${reason})`,
      evidence: {},
      capRequests: [],
      holdVerdict: null,
      notApplicable: false,
    };
  }
  const score =
    outcome.score === null || !Number.isFinite(outcome.score)
      ? null
      : roundScore(Math.min(100, Math.max(0, outcome.score)));
  const template = check.messages[outcome.messageId] ?? outcome.messageId;
  return {
    ...base,
    score,
    status: statusOfOutcome(score, outcome),
    messageId: outcome.messageId,
    message: formatMessage(template, outcome.data),
    evidence: { ...(outcome.data ?? {}) },
    capRequests: outcome.caps ?? [],
    holdVerdict: outcome.holdVerdict ?? null,
    notApplicable: outcome.notApplicable === true,
  };
}

/** The verdict policy's inputs that come from the gate's options. */
export interface VerdictOptions {
  /** --min-coverage: below it a score is provisional and the verdict at most CAUTION. */
  minCoverage: number;
}

/** The profile-weighted mean of the dimensions that have a score (renormalised over them). */
function weightedMean(means: ReadonlyMap<Dimension, number>, weights: Readonly<Record<Dimension, number>>): number | null {
  let weightSum = 0;
  let weighted = 0;
  for (const [id, mean] of means) {
    weightSum += weights[id];
    weighted += weights[id] * mean;
  }
  return weightSum > 0 ? weighted / weightSum : null;
}

export function evaluate(
  evidence: Evidence,
  checks: readonly AnyCheck[],
  category: Category,
  ctx: CheckContext,
  options: VerdictOptions = { minCoverage: DEFAULT_GATE.minCoverage },
): Evaluation {
  const ran = checks
    .filter((check) => applies(check, evidence))
    .map((check) => ({ check, result: runCheck(check, evidence, ctx) }))
    // A check whose question does not apply to the facts is left out like one without its source.
    .filter(({ result }) => !result.notApplicable);
  const profile = PROFILES[category];
  const allCaps = ran.flatMap((r) => r.result.capRequests);
  // A dimension cap bounds one dimension's score (an archived repository's maintenance).
  const dimensionCaps = allCaps.filter((c) => c.dimension !== undefined).sort((a, b) => a.limit - b.limit);

  const dimensions: DimensionResult[] = [];
  const means = new Map<Dimension, number>();
  let coverage = 0;
  for (const id of DIMENSIONS) {
    const inDim = ran.filter((r) => r.check.dimension === id);
    const total = inDim.reduce((sum, r) => sum + r.check.weight, 0);
    const known = inDim.filter((r) => r.result.score !== null);
    const knownWeight = known.reduce((sum, r) => sum + r.check.weight, 0);
    const dimCoverage = total > 0 ? knownWeight / total : 0;
    let score: number | null = null;
    if (knownWeight > 0) {
      let mean = known.reduce((sum, r) => sum + (r.result.score as number) * r.check.weight, 0) / knownWeight;
      for (const cap of dimensionCaps) if (cap.dimension === id) mean = Math.min(mean, cap.limit);
      means.set(id, mean);
      score = roundScore(mean);
    }
    coverage += profile[id] * dimCoverage;
    dimensions.push({ id, title: DIMENSION_TITLES[id], score, weight: profile[id], coverage: round3(dimCoverage) });
  }

  // Overall: profile-weighted mean of the dimensions that have coverage. A risky category weighs
  // security more, which must make it stricter, never laxer: its score is never above what the
  // same facts earn a library (docs/scoring.md §4).
  const profileMean = weightedMean(means, profile);
  const mean = RISK_CATEGORIES.includes(category) && profileMean !== null ? Math.min(profileMean, weightedMean(means, PROFILES.library) ?? profileMean) : profileMean;

  // Caps override the mean, lowest limit wins; each one is reported with its reason.
  // Do-not-use caps first (their reason leads the report), then the tightest limit.
  const capRequests = allCaps
    .filter((c) => c.dimension === undefined)
    .sort((a, b) => Number(b.doNotUse === true) - Number(a.doNotUse === true) || a.limit - b.limit);
  const caps = [
    ...capRequests.map(({ id, limit, reason, args, ceiling }) => ({ id, limit, reason, args: args ?? {}, dimension: null, ...(ceiling === true ? { ceiling } : {}) })),
    ...dimensionCaps.map(({ id, limit, reason, args, dimension }) => ({ id, limit, reason, args: args ?? {}, dimension: dimension ?? null })),
  ];
  const doNotUse = capRequests.some((c) => c.doNotUse === true);
  let score = mean;
  if (score !== null) {
    for (const cap of capRequests) score = Math.min(score, cap.limit);
    score = roundScore(score);
  } else if (doNotUse) {
    score = Math.min(...capRequests.map((c) => c.limit));
  }

  const github = evidence.sources.github;
  const verdict = decideVerdict({
    score,
    overallCaps: capRequests,
    dimensionCaps,
    category,
    coverage: round3(coverage),
    minCoverage: options.minCoverage,
    checks: ran.map(({ check, result }) => ({
      id: check.id,
      title: result.title,
      dimension: check.dimension,
      guardsDanger: check.guardsDanger === true,
      score: result.score,
      messageId: result.messageId,
      message: result.message,
      holdVerdict: result.holdVerdict,
    })),
    unverifiedLink: github.status === 'ok' ? unverifiedLink(github.facts) : null,
  });

  return {
    score,
    grade: score === null ? null : doNotUse ? 'F' : gradeOf(score),
    verdict,
    coverage: round3(coverage),
    dimensions,
    checks: ran.map(({ result }) => {
      const { capRequests: _caps, holdVerdict: _hold, notApplicable: _na, ...rest } = result;
      return rest;
    }),
    caps,
  };
}
