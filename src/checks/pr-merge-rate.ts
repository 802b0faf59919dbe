/**
 * pr-merge-rate: whether outside work is reviewed and taken in — the share of recent pull
 * requests that got a response and the share that was merged.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { durationLabel, GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, methodLabel, percent, readGithub } from './lib/github.js';

/** Fewer sampled pull requests than this say nothing (unknown, not scored). */
export const MIN_PULLS = 3;

/**
 * 50 × the share responded + 50 × min(1, 2 × the share merged): merging half or more earns
 * the whole merge part, since some recent pull requests are still open or rightly declined.
 */
export function mergeRateScore(sampled: number, responded: number, merged: number): number {
  if (sampled <= 0) return 0;
  const share = (n: number) => Math.min(1, Math.max(0, n / sampled));
  return Math.round((50 * share(responded) + 50 * Math.min(1, 2 * share(merged))) * 10) / 10;
}

export default defineCheck({
  id: 'pr-merge-rate',
  dimension: 'maintenance',
  weight: 1,
  needs: ['github'],
  title: 'Pull requests merged',
  description:
    'Samples the pull requests opened in the last 180 days (bots left out): score = 50 × the share that got a response or were closed + 50 × min(1, 2 × the share merged), so merging half or more earns the whole second part. ' +
    `Unknown when fewer than ${MIN_PULLS} pull requests were opened in the window.`,
  messages: {
    merging: '{mergedPercent}% of {sampled} recent pull requests merged, {respondedPercent}% answered (median {median})',
    stalled: 'Only {mergedPercent}% of {sampled} recent pull requests merged, {respondedPercent}% answered (median {median})',
    'too-few': 'Unknown: {sampled} pull requests opened in the last {windowDays} days, too few to judge (at least {minPulls})',
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github }) => {
    const read = readGithub(github, ['responsiveness']);
    if (!read.ok) return read.outcome;
    const { responsiveness } = read.sections;
    const { sampled, responded, merged, closedUnmerged, medianHoursToResponse } = responsiveness.pulls;
    const data: Record<string, EvidenceValue> = {
      ...read.data,
      windowDays: responsiveness.windowDays,
      sampled,
      responded,
      merged,
      closedUnmerged,
      open: Math.max(0, sampled - merged - closedUnmerged),
      mergedPercent: percent(merged, sampled),
      respondedPercent: percent(responded, sampled),
      medianHoursToResponse,
      median: medianHoursToResponse === null ? 'none' : durationLabel(medianHoursToResponse),
      method: responsiveness.method,
      methodLabel: methodLabel(responsiveness.method),
    };
    if (sampled < MIN_PULLS) return { score: null, messageId: 'too-few', data: { ...data, minPulls: MIN_PULLS } };
    const score = mergeRateScore(sampled, responded, merged);
    return { score, messageId: score >= 70 ? 'merging' : 'stalled', data };
  },
});
