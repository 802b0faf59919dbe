import { describe, expect, it } from 'vitest';
import check, { forksScore, popularityScore, starsScore } from '../../src/checks/stars-forks.js';
import { evidence, githubFacts } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { describeGithubSource, githubRuleCases, repositoryWith, starjacked } from './github-cases.js';

const repo = (stars: number, forks: number, fork = false) =>
  evidence({ github: githubFacts({ repository: repositoryWith({ stars, forks, fork }) }) });

checkTable(check, [
  {
    name: 'healthy example: 4,200 stars, 310 forks',
    evidence: evidence({ github: {} }),
    score: 88.7,
    messageId: 'popular',
    data: { stars: 4200, forks: 310, watchers: 60, fork: false, repository: 'example/example' },
    message: ['4,200 stars, 310 forks'],
  },
  { name: '10,000 stars and 1,000 forks', evidence: repo(10_000, 1_000), score: 100, messageId: 'popular' },
  { name: 'a million stars stays at 100', evidence: repo(1_000_000, 100_000), score: 100, messageId: 'popular' },
  { name: '1,000 stars and 100 forks', evidence: repo(1_000, 100), score: 73, messageId: 'popular' },
  { name: '100 stars and 10 forks', evidence: repo(100, 10), score: 46.3, messageId: 'niche', message: ['100 stars, 10 forks: a small following'] },
  { name: 'nothing', evidence: repo(0, 0), score: 0, messageId: 'niche' },
  { name: 'a fork is scored on its own numbers', evidence: repo(3, 0, true), score: 11.3, messageId: 'niche', data: { fork: true } },
  {
    name: 'a typosquat naming a famous repository inherits no stars',
    evidence: evidence({ github: starjacked({ repository: repositoryWith({ fullName: 'chalk/chalk', stars: 22_000, forks: 900 }) }) }),
    score: null,
    messageId: 'link-unverified',
    data: { repository: 'chalk/chalk' },
  },
  ...githubRuleCases({ sections: [] }),
]);

describeGithubSource(check);

describe('log scale', () => {
  it.each([
    [0, 0],
    [9, 25],
    [99, 50],
    [999, 75],
    [9_999, 100],
    [50_000, 100],
  ])('%i stars → %d', (stars, score) => {
    expect(starsScore(stars)).toBeCloseTo(score, 6);
  });

  it.each([
    [0, 0],
    [9, 100 / 3],
    [99, 200 / 3],
    [999, 100],
  ])('%i forks → %d', (forks, score) => {
    expect(forksScore(forks)).toBeCloseTo(score, 6);
  });

  it('never goes negative and is monotonic', () => {
    expect(popularityScore(-5, -5)).toBe(0);
    expect(popularityScore(500, 50)).toBeLessThan(popularityScore(600, 50));
    expect(popularityScore(500, 50)).toBeLessThan(popularityScore(500, 60));
  });
});
