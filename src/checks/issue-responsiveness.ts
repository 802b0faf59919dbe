/**
 * issue-responsiveness: whether someone answers the people who report problems — the share
 * of recent issues that got a response (or were closed) and the median time it took.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { hoursProse } from './lib/band-prose.js';
import { durationLabel, GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, methodLabel, percent, readGithub } from './lib/github.js';

/** Fewer sampled issues than this say nothing about the service (unknown, not scored). */
export const MIN_ISSUES = 3;

/** Median hours to a first response: at most this many → the time part of the score. */
export const RESPONSE_TIME_BANDS: readonly (readonly [maxHours: number, score: number])[] = [
  [24, 100],
  [72, 85],
  [168, 70],
  [720, 45],
];
/** Slower than the last band. */
const SLOWEST_SCORE = 20;

/** The time part of the score; no response at all scores 0. */
export function responseTimeScore(medianHours: number | null): number {
  if (medianHours === null) return 0;
  for (const [maxHours, score] of RESPONSE_TIME_BANDS) if (medianHours <= maxHours) return score;
  return SLOWEST_SCORE;
}

/** 60 % the share responded (0–100), 40 % the time band, one decimal. */
export function responsivenessScore(sampled: number, responded: number, medianHours: number | null): number {
  const share = sampled <= 0 ? 0 : Math.min(1, Math.max(0, responded / sampled));
  return Math.round((60 * share + 0.4 * responseTimeScore(medianHours)) * 10) / 10;
}

export default defineCheck({
  id: 'issue-responsiveness',
  dimension: 'maintenance',
  weight: 2,
  needs: ['github'],
  title: 'Issue responsiveness',
  description:
    'Samples the issues opened in the last 180 days (bots left out) and scores 0.6 × the percentage that got a response or were closed, plus 0.4 × a time score for the median time to that response (' +
    `${RESPONSE_TIME_BANDS.map(([maxHours, score]) => `≤ ${hoursProse(maxHours)} ${score}`).join(', ')}, slower ${SLOWEST_SCORE}, none 0). ` +
    `With a token a response is the first comment by someone other than the author; without one a comment or a close counts and the evidence says which. ` +
    `Unknown when issues are turned off or fewer than ${MIN_ISSUES} issues were opened in the window: an issue tracker nobody uses is no evidence of good service.`,
  messages: {
    responsive: '{respondedPercent}% of {sampled} recent issues answered, median {median} ({methodLabel})',
    slow: '{respondedPercent}% of {sampled} recent issues answered, median {median} ({methodLabel}): slow or patchy',
    unanswered: 'None of {sampled} issues opened in the last {windowDays} days got a response',
    'issues-disabled': 'Unknown: issues are turned off for {repository}; reports may go elsewhere',
    'too-few': 'Unknown: {sampled} issues opened in the last {windowDays} days, too few to judge (at least {minIssues})',
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github }) => {
    const read = readGithub(github, ['responsiveness']);
    if (!read.ok) return read.outcome;
    if (!read.repository.hasIssues) return { score: null, messageId: 'issues-disabled', data: { ...read.data, hasIssues: false } };
    const { responsiveness } = read.sections;
    const { sampled, responded, medianHoursToResponse } = responsiveness.issues;
    const data: Record<string, EvidenceValue> = {
      ...read.data,
      windowDays: responsiveness.windowDays,
      sampled,
      responded,
      respondedPercent: percent(responded, sampled),
      medianHoursToResponse,
      method: responsiveness.method,
      methodLabel: methodLabel(responsiveness.method),
    };
    if (sampled < MIN_ISSUES) return { score: null, messageId: 'too-few', data: { ...data, minIssues: MIN_ISSUES } };
    if (responded <= 0) return { score: 0, messageId: 'unanswered', data };
    const score = responsivenessScore(sampled, responded, medianHoursToResponse);
    const median = medianHoursToResponse === null ? 'unknown' : durationLabel(medianHoursToResponse);
    return { score, messageId: score >= 70 ? 'responsive' : 'slow', data: { ...data, median } };
  },
});
