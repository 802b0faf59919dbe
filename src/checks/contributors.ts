/**
 * contributors: how many people write the code and how much rests on one of them (the bus
 * factor): a project one person carries stops when that person does.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { countBandProse } from './lib/band-prose.js';
import { forkCopied, GITHUB_ABSENT_MESSAGES, GITHUB_FORK_MESSAGES, GITHUB_UNKNOWN_MESSAGES, listedNote, ownForkCommits, percent, readGithub } from './lib/github.js';

/** Non-bot contributors: at least this many → score. */
export const CONTRIBUTOR_BANDS: readonly (readonly [minCount: number, score: number])[] = [
  [20, 100],
  [10, 85],
  [5, 70],
  [3, 55],
  [2, 40],
  [1, 20],
];

/** Fewer commits than this say nothing about who keeps a project going: unknown. */
export const MIN_COMMITS_EXAMINED = 10;

/** Top contributor's share at or above which a bus factor of 1 is a near-solo project. */
export const SOLO_SHARE = 0.8;

/** The most a bus factor allows: 2, 1, and 1 with the top share at SOLO_SHARE or more; 3 or more no limit. */
const BUS_FACTOR_LIMITS = { two: 80, one: 60, solo: 40 } as const;

export function busFactorLimit(busFactor: number | null, topShare: number | null): number {
  if (busFactor === null || busFactor >= 3) return 100;
  if (busFactor === 2) return BUS_FACTOR_LIMITS.two;
  return topShare !== null && topShare >= SOLO_SHARE ? BUS_FACTOR_LIMITS.solo : BUS_FACTOR_LIMITS.one;
}

export function contributorCountScore(count: number): number {
  for (const [min, score] of CONTRIBUTOR_BANDS) if (count >= min) return score;
  return 0;
}

export default defineCheck({
  id: 'contributors',
  dimension: 'community',
  weight: 2,
  needs: ['github'],
  title: 'Contributors',
  description:
    'Counts the people with a GitHub account among the authors of the default branch\'s last 100 commits (bots left out), with or without a token: ' + `${countBandProse(CONTRIBUTOR_BANDS, 'score')}, none 0. ` +
    `The bus factor (fewest of them who made half of those commits) limits that: 2 to at most ${BUS_FACTOR_LIMITS.two}, 1 to at most ${BUS_FACTOR_LIMITS.one}, and 1 with the top contributor at ${SOLO_SHARE * 100} % or more of the commits to at most ${BUS_FACTOR_LIMITS.solo}. ` +
    `The message says how many commits were examined (fewer than ${MIN_COMMITS_EXAMINED} are too few to judge: unknown; more than half of them by people no GitHub account names, a mail address alone, cannot be counted from the accounts: unknown, \`unlinked\`); evidence saved by earlier versions, counted over GitHub\'s all-time contributors list, is scored as it was; a fork\'s commits include its parent\'s, so unless none has an author its contributors are unknown (\`fork-copied\`: the community dimension no higher than they would score), and for a fork target GitHub compares with its parent they are counted over its own commits instead, never above the branch\'s score (fewer than ${MIN_COMMITS_EXAMINED} of its own: unknown).`,
  messages: {
    many: '{count} contributors{basisNote}; bus factor {busFactorLabel}',
    'bus-factor': '{count} contributors{basisNote}, but bus factor {busFactor}: the top contributor made {topPercent}% of the commits',
    few: '{count} contributors{basisNote} (bus factor {busFactorLabel})',
    none: 'No non-bot contributors{basisNote} listed for {repository}',
    'fork-own-contributors': '{ownCount} contributors in the {ownCommitsExamined} newest of the {aheadBy} commits {repository} made as a fork of {parent}{listedNote}; bus factor {ownBusFactorLabel} (check the parent: {parentCheck})',
    'fork-own-too-few': 'Unknown: {repository}, a fork of {parent}, has only {aheadBy} commits of its own ({ownCommitsExamined} listed), too few to judge who keeps it going (at least {minCommits}; check the parent: {parentCheck})',
    'too-few': 'Unknown: only {commitsExamined} commits on the default branch, too few to judge who keeps the project going (at least {minCommits})',
    unlinked: 'Unknown: {unlinked} of the {commitsExamined} commits examined are by people no GitHub account names (a mail address alone): who keeps the project going cannot be counted from the accounts',
    ...GITHUB_FORK_MESSAGES,
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github }) => {
    const read = readGithub(github, ['contributors']);
    if (!read.ok) return read.outcome;
    const { count, busFactor, topShare, basis, commitsExamined, unlinked } = read.sections.contributors;
    // The authors of recent commits, not an all-time list: the message says so. Evidence saved
    // before REST counted recent commits too has the all-time list (no basis, or `contributors`).
    const recent = basis === 'recent-commits';
    const data: Record<string, EvidenceValue> = {
      ...read.data,
      count,
      busFactor,
      busFactorLabel: busFactor ?? 'unknown',
      topShare,
      topPercent: topShare === null ? 'unknown' : percent(topShare, 1),
      // Empty for the all-time list of older evidence, so its messages read as they did.
      basisNote: recent ? ` in the last ${commitsExamined ?? 'recent'} commits` : '',
      ...(recent ? { basis, commitsExamined: commitsExamined ?? null } : {}),
    };
    if (recent && commitsExamined !== null && commitsExamined !== undefined && commitsExamined < MIN_COMMITS_EXAMINED) {
      return { score: null, messageId: 'too-few', data: { ...data, minCommits: MIN_COMMITS_EXAMINED } };
    }
    // Most of the commits name no account: counting the few that do would score them as the project's only people (or nobody).
    if (recent && unlinked !== undefined) {
      data.unlinked = unlinked;
      if (unlinked * 2 > (commitsExamined ?? 0)) return { score: null, messageId: 'unlinked', data };
    }
    if (count <= 0) return { score: 0, messageId: 'none', data };
    const countScore = contributorCountScore(count);
    const limit = busFactorLimit(busFactor, topShare);
    // The authors of a fork's commits may all be its parent's.
    const fork = forkCopied(read.repository, data, { check: 'contributors', dimension: 'community', score: Math.min(countScore, limit) });
    if (fork !== null) {
      // GitHub's comparison with the parent told the fork's own commits apart (a repository target).
      const own = ownForkCommits(github, read.repository);
      if (own === null) return fork;
      const mine = own.contributors;
      const examined = mine.commitsExamined ?? 0;
      const ownData: Record<string, EvidenceValue> = {
        ...fork.data,
        comparedWith: `${own.parent}@${own.base}`,
        aheadBy: own.aheadBy,
        ownCount: mine.count,
        ownBusFactor: mine.busFactor,
        ownBusFactorLabel: mine.busFactor ?? 'unknown',
        ownTopShare: mine.topShare,
        ownCommitsExamined: examined,
        listedNote: listedNote(own),
      };
      if (examined < MIN_COMMITS_EXAMINED) return { ...fork, messageId: 'fork-own-too-few', data: { ...ownData, minCommits: MIN_COMMITS_EXAMINED } };
      const ownScore = mine.count <= 0 ? 0 : Math.min(contributorCountScore(mine.count), busFactorLimit(mine.busFactor, mine.topShare));
      return { score: Math.min(ownScore, countScore, limit), messageId: 'fork-own-contributors', data: ownData };
    }
    if (limit < countScore) return { score: limit, messageId: 'bus-factor', data: { ...data, countScore, busFactorLimit: limit } };
    return { score: countScore, messageId: countScore >= 70 ? 'many' : 'few', data };
  },
});
