/**
 * project-maturity: whether a repository target has history enough to judge, and whether it
 * publishes versions at a pace its users can review: the repository's age from its creation
 * date and its version tags per week (the `repository` view). A project weeks old is a finding
 * in days, not a pass.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { formatNumber } from './lib/format-number.js';

const DAY_MS = 86_400_000;
/** Below this many days of history there is too little to judge at all. */
export const TOO_YOUNG_DAYS = 30;
/** Below this many days a project is young: its record says little yet. */
export const YOUNG_DAYS = 90;
/** More version tags a week than this (over at least CHURN_MIN_TAGS tags) is churn nobody can review. */
export const CHURN_TAGS_PER_WEEK = 3;
export const CHURN_MIN_TAGS = 10;

export default defineCheck({
  id: 'project-maturity',
  dimension: 'maintenance',
  weight: 2,
  needs: ['repository'],
  title: 'Project maturity',
  description:
    `For a \`github:\` target: the project's age from the repository's creation date, and its release churn (version tags per week over that age). Under ${TOO_YOUNG_DAYS} days scores 20 and under ${YOUNG_DAYS} days 50, both holding the verdict at CAUTION (history too short to judge, said in days); ` +
    `more than ${CHURN_TAGS_PER_WEEK} tags a week (at least ${CHURN_MIN_TAGS} tags) scores at most 40 and holds the verdict; otherwise 100. Unknown when GitHub gives no creation date.`,
  messages: {
    'too-young': '{days} days of history: too short to judge',
    young: '{days} days of history: a young project',
    churn: '{tags} version tags in {days} days ({perWeek} a week)',
    established: '{days} days of history, {tags} version tags',
    'age-unknown': 'Project age unknown: GitHub gave no creation date',
  },
  evaluate: ({ repository }, ctx) => {
    const created = repository.repository.createdAt;
    const createdMs = created === null ? Number.NaN : Date.parse(created);
    if (Number.isNaN(createdMs)) return { score: null, messageId: 'age-unknown', data: { createdAt: created } };
    const days = Math.max(0, Math.floor((ctx.now.getTime() - createdMs) / DAY_MS));
    const tags = repository.files.tags;
    const perWeek = tags === null ? null : Math.round((tags.count / Math.max(1, days / 7)) * 10) / 10;
    const data: Record<string, EvidenceValue> = {
      createdAt: created,
      days,
      tags: tags === null ? null : `${tags.count}${tags.complete ? '' : '+'}`,
      tagsCounted: tags?.count ?? null,
      perWeek,
    };
    const churn = tags !== null && perWeek !== null && tags.count >= CHURN_MIN_TAGS && perWeek > CHURN_TAGS_PER_WEEK;
    const holds: string[] = [];
    let score = 100;
    let messageId: 'too-young' | 'young' | 'churn' | 'established' = 'established';
    if (days < TOO_YOUNG_DAYS) {
      score = 20;
      messageId = 'too-young';
      holds.push(`${formatNumber(days)} days of history is too short to judge`);
    } else if (days < YOUNG_DAYS) {
      score = 50;
      messageId = 'young';
      holds.push(`${formatNumber(days)} days of history is little to judge by`);
    }
    if (churn) {
      score = Math.min(score, 40);
      if (messageId === 'established') messageId = 'churn';
      holds.push(`${data.tags} version tags in ${formatNumber(days)} days (${perWeek} a week) is more than anyone reviews`);
    }
    if (holds.length === 0) return { score, messageId, data };
    return { score, messageId, data, holdVerdict: `${holds.join('; ')}; a longer, steadier history would lift this (re-check after ${YOUNG_DAYS} days)` };
  },
});
