import { describe, expect, it } from 'vitest';
import check, { busFactorLimit, contributorCountScore, SOLO_SHARE } from '../../src/checks/contributors.js';
import { evidence, githubFacts } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { describeGithubSource, forkWithOwn, githubRuleCases, repositoryWith } from './github-cases.js';

const people = (count: number, busFactor: number | null = 3, topShare: number | null = 0.3) =>
  evidence({ github: githubFacts({ contributors: { count, busFactor, topShare } }) });

checkTable(check, [
  {
    name: 'healthy example: 48 contributors, bus factor 3',
    evidence: evidence({ github: {} }),
    score: 100,
    messageId: 'many',
    data: { count: 48, busFactor: 3, topShare: 0.35, topPercent: 35 },
    message: ['48 contributors; bus factor 3'],
  },
  { name: '20 contributors', evidence: people(20), score: 100, messageId: 'many' },
  { name: '19 contributors', evidence: people(19), score: 85, messageId: 'many' },
  { name: '10 contributors', evidence: people(10), score: 85, messageId: 'many' },
  { name: '9 contributors', evidence: people(9), score: 70, messageId: 'many' },
  { name: '5 contributors', evidence: people(5), score: 70, messageId: 'many' },
  { name: '4 contributors', evidence: people(4), score: 55, messageId: 'few', message: ['4 contributors (bus factor 3)'] },
  { name: '3 contributors', evidence: people(3), score: 55, messageId: 'few' },
  { name: '2 contributors, bus factor 2', evidence: people(2, 2, 0.5), score: 40, messageId: 'few' },
  { name: '1 contributor, bus factor 1', evidence: people(1, 1, 1), score: 20, messageId: 'few' },
  { name: 'no contributors', evidence: people(0, null, null), score: 0, messageId: 'none', message: ['No non-bot contributors listed for example/example'] },
  {
    name: 'many contributors, bus factor 2: at most 80',
    evidence: people(40, 2, 0.45),
    score: 80,
    messageId: 'bus-factor',
    data: { countScore: 100, busFactorLimit: 80 },
    message: ['40 contributors, but bus factor 2: the top contributor made 45% of the commits'],
  },
  { name: 'many contributors, bus factor 1: at most 60', evidence: people(40, 1, 0.6), score: 60, messageId: 'bus-factor' },
  {
    name: 'many contributors, bus factor 1 with a top share of 80 %: at most 40',
    evidence: people(40, 1, 0.8),
    score: 40,
    messageId: 'bus-factor',
    message: ['the top contributor made 80% of the commits'],
  },
  { name: 'bus factor 1, top share unknown: at most 60', evidence: people(12, 1, null), score: 60, messageId: 'bus-factor', message: ['made unknown% of'] },
  {
    name: 'bus factor unknown: the count alone',
    evidence: people(12, null, null),
    score: 85,
    messageId: 'many',
    data: { busFactor: null },
    message: ['12 contributors; bus factor unknown'],
  },
  {
    name: 'the authors of the last commits (REST and GraphQL alike): the message says over how many',
    evidence: evidence({ github: githubFacts({ contributors: { count: 3, busFactor: 1, topShare: 0.556, basis: 'recent-commits', commitsExamined: 11 } }) }),
    score: 55,
    messageId: 'few',
    data: { count: 3, basis: 'recent-commits', commitsExamined: 11 },
    message: ['3 contributors in the last 11 commits (bus factor 1)'],
  },
  {
    name: 'only 2 commits to judge from: unknown, said so (not "1 contributor, bus factor 1" → 20)',
    evidence: evidence({ github: githubFacts({ contributors: { count: 1, busFactor: 1, topShare: 1, basis: 'recent-commits', commitsExamined: 2 } }) }),
    score: null,
    messageId: 'too-few',
    data: { commitsExamined: 2, minCommits: 10 },
    message: ['only 2 commits', 'too few to judge'],
  },
  {
    name: '10 commits: enough to judge',
    evidence: evidence({ github: githubFacts({ contributors: { count: 1, busFactor: 1, topShare: 1, basis: 'recent-commits', commitsExamined: 10 } }) }),
    score: 20,
    messageId: 'few',
  },
  {
    name: 'nobody with a GitHub account among the last commits: 0, said so',
    evidence: evidence({ github: githubFacts({ contributors: { count: 0, busFactor: 0, topShare: null, basis: 'recent-commits', commitsExamined: 100 } }) }),
    score: 0,
    messageId: 'none',
    message: ['No non-bot contributors in the last 100 commits listed for example/example'],
  },
  {
    name: 'the last commits by people no GitHub account names (a mail address alone): unknown, never 0',
    evidence: evidence({ github: githubFacts({ contributors: { count: 0, busFactor: 0, topShare: null, basis: 'recent-commits', commitsExamined: 24, unlinked: 23 } }) }),
    score: null,
    messageId: 'unlinked',
    data: { unlinked: 23, commitsExamined: 24 },
  },
  {
    name: 'one account holder among commits mostly named by a mail address alone: unknown, not a solo project',
    evidence: evidence({ github: githubFacts({ contributors: { count: 1, busFactor: 1, topShare: 1, basis: 'recent-commits', commitsExamined: 100, unlinked: 60 } }) }),
    score: null,
    messageId: 'unlinked',
  },
  {
    name: 'a minority of commits naming no account: the account holders are counted as before',
    evidence: evidence({ github: githubFacts({ contributors: { count: 5, busFactor: 3, topShare: 0.3, basis: 'recent-commits', commitsExamined: 100, unlinked: 30 } }) }),
    score: 70,
    messageId: 'many',
    data: { unlinked: 30 },
  },
  {
    name: 'older evidence counted over the all-time contributors list is scored as it was',
    evidence: evidence({ github: githubFacts({ contributors: { count: 5, busFactor: 2, topShare: 0.455, basis: 'contributors' } }) }),
    score: 70,
    messageId: 'many',
    message: ['5 contributors; bus factor 2'],
  },
  ...githubRuleCases({ sections: ['contributors'] }),
  // A fork's commits are its parent's as much as its own: never credited (docs/scoring.md §9, "A fork").
  {
    name: 'a fork: its contributors may be its parent\'s, unknown with the parent named',
    evidence: evidence({ github: githubFacts({ repository: repositoryWith({ fork: true, parent: 'upstream/example' }) }) }),
    score: null,
    messageId: 'fork-copied',
    data: { fork: true, parent: 'upstream/example', parentCheck: 'nerq check github:upstream/example', count: 48 },
  },
  {
    name: 'a fork GitHub names no parent of: unknown, no check offered',
    evidence: evidence({ github: githubFacts({ repository: repositoryWith({ fork: true, parent: null }) }) }),
    score: null,
    messageId: 'fork-copied',
    data: { parentCheck: 'none named' },
  },
  {
    name: 'a fork with one contributor: unknown, and the community dimension no higher than it would score',
    evidence: evidence({ github: githubFacts({ repository: repositoryWith({ fork: true, parent: 'upstream/example' }), contributors: { count: 1, busFactor: 1, topShare: 1 } }) }),
    score: null,
    messageId: 'fork-copied',
    data: { copiedScore: 20 },
    caps: [{ id: 'fork-copied', limit: 20, dimension: 'community', reason: "a fork's contributors facts may be its parent's: community no higher than they would score", args: { check: 'contributors', parent: 'upstream/example' } }],
  },
  // A fork target GitHub compared with its parent: its contributors are counted over its own commits.
  {
    name: 'a fork with 30 own commits by 3 people (bus factor 2): scored by them, not the branch\'s 48',
    evidence: evidence({ github: forkWithOwn() }),
    score: 55,
    messageId: 'fork-own-contributors',
    data: { ownCount: 3, ownBusFactor: 2, ownCommitsExamined: 30, aheadBy: 30, count: 48, parentCheck: 'nerq check github:upstream/example' },
  },
  {
    name: 'own contributors never score above the branch\'s (a branch of 2 people: 40 at most)',
    evidence: evidence({ github: forkWithOwn({ contributors: { count: 20, busFactor: 5, topShare: 0.1, basis: 'recent-commits', commitsExamined: 100 } }, { contributors: { count: 2, busFactor: 3, topShare: 0.5 } }) }),
    score: 40,
    messageId: 'fork-own-contributors',
  },
  {
    name: 'own commits by one person: the solo limit',
    evidence: evidence({ github: forkWithOwn({ contributors: { count: 1, busFactor: 1, topShare: 1, basis: 'recent-commits', commitsExamined: 12 } }) }),
    score: 20,
    messageId: 'fork-own-contributors',
  },
  {
    name: 'own commits none of which a GitHub account made: 0',
    evidence: evidence({ github: forkWithOwn({ contributors: { count: 0, busFactor: 0, topShare: null, basis: 'recent-commits', commitsExamined: 15 } }) }),
    score: 0,
    messageId: 'fork-own-contributors',
  },
  {
    name: 'more own commits than GitHub listed: the message says the newest of those listed were counted',
    evidence: evidence({ github: forkWithOwn({ aheadBy: 400, listed: 250, contributors: { count: 9, busFactor: 3, topShare: 0.2, basis: 'recent-commits', commitsExamined: 100 } }) }),
    score: 70,
    messageId: 'fork-own-contributors',
    data: { listedNote: '; GitHub listed 250 of its 400 own commits, so the counts are at least these' },
  },
  {
    name: 'a fork with too few own commits (4): unknown with that reason, capped as the copied authors would score',
    evidence: evidence({ github: forkWithOwn({ aheadBy: 4, listed: 4, contributors: { count: 1, busFactor: 1, topShare: 1, basis: 'recent-commits', commitsExamined: 4 } }, { contributors: { count: 3, busFactor: 2, topShare: 0.6 } }) }),
    score: null,
    messageId: 'fork-own-too-few',
    data: { aheadBy: 4, ownCommitsExamined: 4, minCommits: 10 },
    caps: [{ id: 'fork-copied', limit: 55, dimension: 'community', reason: "a fork's contributors facts may be its parent's: community no higher than they would score" }],
  },
  {
    name: 'a fork identical to its parent: no own commits, too few to judge (never the parent\'s contributors)',
    evidence: evidence({ github: forkWithOwn({ status: 'identical', aheadBy: 0, behindBy: 0, listed: 0, contributors: { count: 0, busFactor: 0, topShare: null, basis: 'recent-commits', commitsExamined: 0 } }) }),
    score: null,
    messageId: 'fork-own-too-few',
    data: { aheadBy: 0 },
  },
  { name: 'a fork without a contributor: none, as it shows', evidence: evidence({ github: githubFacts({ repository: repositoryWith({ fork: true, parent: 'upstream/example' }), contributors: { count: 0, busFactor: null, topShare: null } }) }), score: 0, messageId: 'none' },
]);

describeGithubSource(check);

describe('contributor bands', () => {
  it.each([
    [0, 0],
    [1, 20],
    [2, 40],
    [3, 55],
    [5, 70],
    [10, 85],
    [20, 100],
    [5000, 100],
  ])('%i contributors → %i', (count, score) => {
    expect(contributorCountScore(count)).toBe(score);
  });

  it.each([
    [null, null, 100],
    [3, 0.9, 100],
    [2, 0.9, 80],
    [1, 0.79, 60],
    [1, 0.8, 40],
    [1, null, 60],
  ] as const)('bus factor %s, top share %s → limit %i', (busFactor, topShare, limit) => {
    expect(busFactorLimit(busFactor, topShare)).toBe(limit);
  });

  it('the description states the limits busFactorLimit applies (generated from the same constants)', () => {
    expect(check.description).toContain(`2 to at most ${busFactorLimit(2, null)},`);
    expect(check.description).toContain(`1 to at most ${busFactorLimit(1, null)},`);
    expect(check.description).toContain(`at ${SOLO_SHARE * 100} % or more of the commits to at most ${busFactorLimit(1, SOLO_SHARE)}.`);
  });
});
