import { describe, expect, it } from 'vitest';
import check, { activityScore } from '../../src/checks/commit-activity.js';
import type { GithubActivity } from '../../src/evidence/schema.js';
import { daysAgo, evidence, githubFacts, notApplicable, NOW, versionsAgo } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { absentGithub, describeGithubSource, forkWithOwn, githubRuleCases, repositoryWith, starjacked } from './github-cases.js';

const activity = (overrides: Partial<GithubActivity>): GithubActivity => ({
  commits90d: 42,
  commits365d: 180,
  authors90d: 5,
  authors365d: 12,
  lastCommitAt: daysAgo(3),
  truncated: false,
  ...overrides,
});

/** The default npm package is finished (small, 5 stable releases over years); 12 dependencies make it not. */
const notFinished = { dependencies: 12 };
const withActivity = (overrides: Partial<GithubActivity>) =>
  evidence({ registry: notFinished, github: githubFacts({ activity: activity(overrides) }) });

/** A finished package (small, stable, 5 releases over years) with a quiet repository. */
const finishedRegistry = {
  version: '1.4.0',
  versions: versionsAgo([
    ['1.0.0', 2400],
    ['1.1.0', 2000],
    ['1.2.0', 1700],
    ['1.3.0', 1300],
    ['1.4.0', 1000],
  ]),
};
const finishedQuiet = (overrides: Partial<GithubActivity>) =>
  evidence({ registry: finishedRegistry, github: githubFacts({ activity: activity(overrides) }) });

checkTable(check, [
  {
    name: 'a quiet repository of a finished package whose newest release is dated in the future: not finished',
    evidence: evidence({
      registry: { ...finishedRegistry, versions: [...finishedRegistry.versions, ...versionsAgo([['1.5.0', -600]])] },
      github: githubFacts({ activity: activity({ commits90d: 0, commits365d: 0, authors90d: 0, authors365d: 0, lastCommitAt: daysAgo(800) }) }),
    }),
    score: 10,
    messageId: 'dormant',
    data: { finished: false, unmetFinishedCriteria: ['recent-release'] },
  },
  {
    name: 'no commit dated in the year, the newest dated in the future: unknown, never dormant',
    evidence: withActivity({ commits90d: 0, commits365d: 0, authors90d: 0, authors365d: 0, lastCommitAt: daysAgo(-40) }),
    score: null,
    messageId: 'future-dated',
    data: { lastCommit: `dated in the future (${daysAgo(-40).slice(0, 10)})` },
  },
  {
    name: 'commits in the year beside a newest one dated in the future: scored by those in the year',
    evidence: withActivity({ commits90d: 4, commits365d: 6, lastCommitAt: daysAgo(-40) }),
    score: 90,
    messageId: 'active',
  },
  {
    name: '42 commits in 90 days, 12 authors',
    evidence: withActivity({}),
    score: 100,
    messageId: 'active',
    data: { repository: 'example/example', commits90d: 42, commits365d: 180, authors365d: 12, verifiedBy: 'manifest' },
    message: ['42 commits in the last 90 days (180 in 365 days by 12 authors)'],
  },
  {
    name: 'commits in the year, every one a bot\'s (dependency updates): not maintenance, scored as none',
    evidence: withActivity({ commits90d: 3, commits365d: 5, authors90d: 0, authors365d: 0, botCommits90d: 3, botCommits365d: 5, lastCommitAt: daysAgo(4) }),
    score: 10,
    messageId: 'bots-only',
    data: { commits365d: 5, counted90d: 0, counted365d: 0 },
  },
  {
    name: 'bots\' commits left out: 2 of 30 in 90 days by people score as 2',
    evidence: withActivity({ commits90d: 30, commits365d: 40, botCommits90d: 28, botCommits365d: 28 }),
    score: 75,
    messageId: 'active',
    data: { commits90d: 30, counted90d: 2, counted365d: 12 },
    message: ['2 commits in the last 90 days (12 in 365 days by 12 authors; 28 commits by bots not counted)'],
  },
  {
    name: 'a truncated listing: the bots\' commits listed are a lower bound, said so',
    evidence: withActivity({ commits90d: 0, commits365d: 900, botCommits90d: 0, botCommits365d: 150, truncated: true }),
    score: 55,
    messageId: 'slowing',
    data: { counted365d: 750, botNote: '; at least 150 commits by bots not counted' },
  },
  { name: '10 commits in 90 days', evidence: withActivity({ commits90d: 10 }), score: 100, messageId: 'active' },
  { name: '9 commits in 90 days', evidence: withActivity({ commits90d: 9 }), score: 90, messageId: 'active' },
  { name: '3 commits in 90 days', evidence: withActivity({ commits90d: 3 }), score: 90, messageId: 'active' },
  { name: '2 commits in 90 days', evidence: withActivity({ commits90d: 2 }), score: 75, messageId: 'active' },
  { name: '1 commit in 90 days', evidence: withActivity({ commits90d: 1 }), score: 75, messageId: 'active' },
  {
    name: 'none in 90 days, 10 in 365',
    evidence: withActivity({ commits90d: 0, authors90d: 0, commits365d: 10 }),
    score: 55,
    messageId: 'slowing',
    data: { finished: false, unmetFinishedCriteria: ['few-dependencies'] },
    message: ['No commit in the last 90 days; 10 in 365 days by 12 authors'],
  },
  { name: 'none in 90 days, 9 in 365', evidence: withActivity({ commits90d: 0, commits365d: 9 }), score: 40, messageId: 'slowing' },
  { name: 'none in 90 days, 1 in 365', evidence: withActivity({ commits90d: 0, commits365d: 1 }), score: 40, messageId: 'slowing' },
  {
    name: 'no commit in 365 days',
    evidence: withActivity({ commits90d: 0, commits365d: 0, authors90d: 0, authors365d: 0, lastCommitAt: daysAgo(800) }),
    score: 10,
    messageId: 'dormant',
    data: { branch: 'main', lastCommitAt: daysAgo(800), singleAuthor: false },
    message: ['No commit on main in the last 365 days (last commit: 800 days ago)'],
  },
  {
    name: 'no commit in 365 days, last commit time unknown',
    evidence: withActivity({ commits90d: 0, commits365d: 0, lastCommitAt: null }),
    score: 10,
    messageId: 'dormant',
    message: ['(last commit: unknown)'],
  },
  {
    name: 'one author made every commit of the year: 10 off',
    evidence: withActivity({ commits90d: 20, authors90d: 1, authors365d: 1 }),
    score: 90,
    messageId: 'active',
    data: { singleAuthor: true },
    message: ['by 1 author)'],
  },
  {
    name: 'one author, slowing: 40 − 10',
    evidence: withActivity({ commits90d: 0, commits365d: 4, authors365d: 1 }),
    score: 30,
    messageId: 'slowing',
  },
  {
    name: 'commits no account is named for: "no identified author", never "0 authors"',
    evidence: withActivity({ commits90d: 4, authors90d: 0, authors365d: 0 }),
    score: 90,
    messageId: 'active',
    message: ['by no identified author)'],
  },
  {
    name: 'authors unknown (counts only): no deduction',
    evidence: withActivity({ commits90d: 5, authors90d: null, authors365d: null }),
    score: 90,
    messageId: 'active',
    data: { authors365d: null, singleAuthor: false },
    message: ['by an unknown number of authors'],
  },
  {
    name: 'truncated counts are lower bounds and say so in the evidence',
    evidence: withActivity({ commits90d: 100, commits365d: 100, truncated: true }),
    score: 100,
    messageId: 'active',
    data: { truncated: true },
  },
  {
    name: 'finished package, dormant repository: floor 70',
    evidence: finishedQuiet({ commits90d: 0, commits365d: 0, authors365d: 0 }),
    score: 70,
    messageId: 'finished',
    data: { finished: true, commits365d: 0 },
    message: ['Quiet repository (0 commits in 365 days)', 'rare changes are expected'],
  },
  {
    name: 'finished package, slowing single-author repository: floor 70',
    evidence: finishedQuiet({ commits90d: 0, commits365d: 3, authors365d: 1 }),
    score: 70,
    messageId: 'finished',
  },
  {
    name: 'finished package with recent commits keeps its higher score',
    evidence: finishedQuiet({}),
    score: 100,
    messageId: 'active',
  },
  {
    name: 'no registry (a github: target): no finished rule',
    evidence: evidence({
      registry: notApplicable('a repository target'),
      tarball: notApplicable('a repository target'),
      github: githubFacts({ activity: activity({ commits90d: 0, commits365d: 0 }) }),
    }),
    score: 10,
    messageId: 'dormant',
  },
  {
    name: 'missing repository scores 0 and names the declared one',
    evidence: evidence({ github: absentGithub('missing') }),
    score: 0,
    messageId: 'missing',
    data: { state: 'missing', declaredRepository: 'https://github.com/example/example' },
    message: ['The declared source repository https://github.com/example/example does not exist (GitHub answered 404: no such repository)'],
  },
  {
    name: 'missing repository without a registry to name it',
    evidence: evidence({ registry: notApplicable('a repository target'), github: absentGithub('missing') }),
    score: 0,
    messageId: 'missing',
    data: { declaredRepository: null },
    message: ['The declared source repository named by the package does not exist'],
  },
  {
    name: 'missing repository declared by a PyPI project',
    evidence: evidence({ registry: notApplicable('not an npm package'), pypi: {}, github: absentGithub('missing') }),
    score: 0,
    messageId: 'missing',
    data: { declaredRepository: 'https://github.com/example/example' },
  },
  {
    name: 'blocked repository (451) scores 0 with its reason',
    evidence: evidence({ github: absentGithub('blocked', 'Repository access blocked (DMCA takedown)') }),
    score: 0,
    messageId: 'blocked',
    data: { state: 'blocked', reason: 'Repository access blocked (DMCA takedown)' },
    message: ['is blocked (Repository access blocked (DMCA takedown))'],
  },
  {
    name: 'finished package does not lift a missing repository',
    evidence: evidence({
      registry: finishedRegistry,
      github: absentGithub('missing'),
    }),
    score: 0,
    messageId: 'missing',
  },
  ...githubRuleCases({ sections: ['activity'], absentUnknown: false, base: { registry: notFinished } }),
  {
    name: 'unverified link: unknown even for a finished package (nothing inherited, no floor)',
    evidence: evidence({ registry: finishedRegistry, github: starjacked({ activity: activity({ commits90d: 0, commits365d: 0 }) }) }),
    score: null,
    messageId: 'link-unverified',
  },
  // A fork's branch carries its parent's commits: never credited (docs/scoring.md §9, "A fork").
  {
    name: 'an active fork: unknown, its commits may be its parent\'s',
    evidence: evidence({ registry: notFinished, github: githubFacts({ repository: repositoryWith({ fork: true, parent: 'upstream/example' }) }) }),
    score: null,
    messageId: 'fork-copied',
    data: { fork: true, parent: 'upstream/example', parentCheck: 'nerq check github:upstream/example', commits90d: 42 },
  },
  {
    name: 'a fork with commits of the year only: unknown, and the maintenance dimension no higher than they would score',
    evidence: evidence({ registry: notFinished, github: githubFacts({ repository: repositoryWith({ fork: true, parent: 'upstream/example' }), activity: activity({ commits90d: 0, commits365d: 4 }) }) }),
    score: null,
    messageId: 'fork-copied',
    data: { copiedScore: 40 },
    caps: [{ id: 'fork-copied', limit: 40, dimension: 'maintenance', reason: "a fork's commit-activity facts may be its parent's: maintenance no higher than they would score", args: { check: 'commit-activity', parent: 'upstream/example' } }],
  },
  // A fork target GitHub compared with its parent: its own commits are judged (docs/scoring.md §9, "A fork").
  {
    name: 'a fork with commits of its own: scored by them (12 in 90 days → 100), not the branch\'s',
    evidence: evidence({ registry: notFinished, github: forkWithOwn() }),
    score: 100,
    messageId: 'fork-own-commits',
    data: { aheadBy: 30, behindBy: 7, ownCommits90d: 12, ownCommits365d: 30, comparedWith: 'upstream/example@main', parentCheck: 'nerq check github:upstream/example', listedNote: '' },
  },
  {
    name: 'a fork whose own commits are one person\'s, none in 90 days: the year band less the single-author deduction',
    evidence: evidence({ registry: notFinished, github: forkWithOwn({ aheadBy: 4, listed: 4, activity: { commits90d: 0, commits365d: 4, authors90d: 0, authors365d: 1, lastCommitAt: daysAgo(120), truncated: false } }) }),
    score: 30,
    messageId: 'fork-own-commits',
    data: { ownAuthors: '1 author', ownLastCommit: '120 days ago' },
  },
  {
    name: 'a fork whose newest own commit is dated in the future: its age unknown, never "0 days ago"',
    evidence: evidence({ registry: notFinished, github: forkWithOwn({ activity: { commits90d: 12, commits365d: 30, authors90d: 2, authors365d: 2, lastCommitAt: daysAgo(-30), truncated: false } }) }),
    score: 100,
    messageId: 'fork-own-commits',
    data: { ownLastCommit: 'unknown' },
  },
  {
    name: 'a fork whose own commits are all older than a year: dormant by them',
    evidence: evidence({ registry: notFinished, github: forkWithOwn({ aheadBy: 3, listed: 3, activity: { commits90d: 0, commits365d: 0, authors90d: 0, authors365d: 0, lastCommitAt: daysAgo(800), truncated: false } }) }),
    score: 10,
    messageId: 'fork-own-commits',
  },
  {
    name: 'more own commits than GitHub listed: the counts are lower bounds, and the message says so',
    evidence: evidence({ registry: notFinished, github: forkWithOwn({ aheadBy: 400, listed: 250, activity: { commits90d: 2, commits365d: 250, authors90d: 2, authors365d: 9, lastCommitAt: daysAgo(60), truncated: true } }) }),
    score: 75,
    messageId: 'fork-own-commits',
    data: { listed: 250, ownTruncated: true, listedNote: '; GitHub listed 250 of its 400 own commits, so the counts are at least these' },
  },
  {
    name: 'own commits never score above the branch\'s (a branch of the year only: 55 at most)',
    evidence: evidence({ registry: notFinished, github: forkWithOwn({}, { activity: activity({ commits90d: 0, commits365d: 40 }) }) }),
    score: 55,
    messageId: 'fork-own-commits',
  },
  {
    name: 'a fork identical to its parent: no commits of its own, unknown (never the parent\'s figure)',
    evidence: evidence({ registry: notFinished, github: forkWithOwn({ status: 'identical', aheadBy: 0, behindBy: 0, listed: 0, activity: { commits90d: 0, commits365d: 0, authors90d: 0, authors365d: 0, lastCommitAt: null, truncated: false } }) }),
    score: null,
    messageId: 'fork-no-own-commits',
    data: { status: 'identical', aheadBy: 0, copiedScore: 100 },
  },
  {
    name: 'a fork behind its parent with none of its own: unknown, capped as the copied commits would score',
    evidence: evidence({ registry: notFinished, github: forkWithOwn({ status: 'behind', aheadBy: 0, behindBy: 12, listed: 0 }, { activity: activity({ commits90d: 0, commits365d: 4, authors365d: 1 }) }) }),
    score: null,
    messageId: 'fork-no-own-commits',
    data: { behindBy: 12, copiedScore: 30 },
    caps: [{ id: 'fork-copied', limit: 30, dimension: 'maintenance', reason: "a fork's commit-activity facts may be its parent's: maintenance no higher than they would score" }],
  },
  {
    name: 'own commits compared with another parent than the repository names: not used (copied, unknown)',
    evidence: evidence({ registry: notFinished, github: forkWithOwn({ parent: 'someone/else' }) }),
    score: null,
    messageId: 'fork-copied',
  },
  {
    name: 'a dormant fork: dormant, as it shows',
    evidence: evidence({ registry: notFinished, github: githubFacts({ repository: repositoryWith({ fork: true, parent: 'upstream/example' }), activity: activity({ commits90d: 0, commits365d: 0, lastCommitAt: daysAgo(500) }) }) }),
    score: 10,
    messageId: 'dormant',
  },
]);

describeGithubSource(check);

describe('activityScore', () => {
  it.each([
    [10, 0, 100],
    [3, 3, 90],
    [1, 1, 75],
    [0, 10, 55],
    [0, 1, 40],
    [0, 0, 10],
  ])('%i in 90 days, %i in 365 → %i', (commits90d, commits365d, score) => {
    expect(activityScore({ commits90d, commits365d })).toBe(score);
  });
});

describe('commit-activity: a fork', () => {
  it('holds the verdict when the activity it would credit may be its parent\'s, naming the check of the parent', () => {
    const facts = githubFacts({ repository: repositoryWith({ fork: true, parent: 'upstream/example' }) });
    const outcome = check.evaluate({ github: facts } as never, { now: new Date() });
    expect(outcome.messageId).toBe('fork-copied');
    expect(outcome.holdVerdict).toContain('nerq check github:upstream/example');
  });

  it('still holds the verdict when its own commits are judged, or when it has none of its own', () => {
    for (const facts of [forkWithOwn(), forkWithOwn({ status: 'identical', aheadBy: 0, behindBy: 0, listed: 0 })]) {
      const outcome = check.evaluate({ github: facts } as never, { now: NOW });
      expect(['fork-own-commits', 'fork-no-own-commits']).toContain(outcome.messageId);
      expect(outcome.holdVerdict).toContain('nerq check github:upstream/example');
    }
  });
});
