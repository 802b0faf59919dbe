/**
 * stars-forks: how many people follow and build on the repository, on a log scale.
 */
import { defineCheck } from './define.js';
import { GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, readGithub } from './lib/github.js';

const log10p1 = (n: number) => Math.log10(Math.max(0, n) + 1);

/** min(100, 25 × log10(stars + 1)): 10 → 26, 100 → 50, 1,000 → 75, 10,000 → 100. */
export function starsScore(stars: number): number {
  return Math.min(100, 25 * log10p1(stars));
}

/** min(100, 100 ÷ 3 × log10(forks + 1)): 10 → 34.7, 100 → 66.8, 1,000 → 100. */
export function forksScore(forks: number): number {
  return Math.min(100, (100 / 3) * log10p1(forks));
}

/** 0.75 × the stars part + 0.25 × the forks part, one decimal. */
export function popularityScore(stars: number, forks: number): number {
  return Math.round((0.75 * starsScore(stars) + 0.25 * forksScore(forks)) * 10) / 10;
}

export default defineCheck({
  id: 'stars-forks',
  dimension: 'community',
  weight: 2,
  needs: ['github'],
  title: 'Stars and forks',
  description:
    'Stars and forks of the verified repository on a log scale: 0.75 × min(100, 25 × log10(stars + 1)) + 0.25 × min(100, 100 ÷ 3 × log10(forks + 1)), so 10,000 stars and 1,000 forks score 100, 1,000 stars and 100 forks 73 and 100 stars and 10 forks 46.3. ' +
    'An unverified repository link credits nothing: a typosquat cannot borrow a famous repository\'s stars.',
  messages: {
    popular: '{stars} stars, {forks} forks',
    niche: '{stars} stars, {forks} forks: a small following',
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github }) => {
    const read = readGithub(github);
    if (!read.ok) return read.outcome;
    const { stars, forks, watchers, fork } = read.repository;
    const score = popularityScore(stars, forks);
    return { score, messageId: score >= 70 ? 'popular' : 'niche', data: { ...read.data, stars, forks, watchers, fork } };
  },
});
