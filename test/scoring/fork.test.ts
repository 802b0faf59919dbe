/**
 * A fork's copied facts are never credited (docs/scoring.md §9, "A fork"): the checks that read
 * them say unknown, and leaving them out never makes the fork score better than the same facts
 * counted — over a grid of activity, contributors and community files, as a repository target
 * and as a package's verified repository.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import type { Evidence, GithubFacts } from '../../src/evidence/schema.js';
import { buildReport } from '../../src/report/build.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { repositoryWith } from '../checks/github-cases.js';
import { evidence, githubFacts } from '../support/evidence-builder.js';
import { repositoryEvidence } from '../support/repository-evidence.js';

const ACTIVITY = [
  { commits90d: 42, commits365d: 180, authors90d: 5, authors365d: 12 },
  { commits90d: 0, commits365d: 4, authors90d: 0, authors365d: 1 },
  { commits90d: 1, commits365d: 1, authors90d: 1, authors365d: 1 },
];
const CONTRIBUTORS = [
  { count: 1, busFactor: 1, topShare: 1 },
  { count: 3, busFactor: 2, topShare: 0.6 },
  { count: 48, busFactor: 3, topShare: 0.35 },
];
const COMMUNITY = [
  { contributing: false, codeOfConduct: false, issueTemplate: false, pullRequestTemplate: false },
  { contributing: true, codeOfConduct: false, issueTemplate: false, pullRequestTemplate: false },
  { contributing: true, codeOfConduct: true, issueTemplate: true, pullRequestTemplate: true },
];
const STARS = [3, 20_000];

function github(fork: boolean, a: (typeof ACTIVITY)[number], c: (typeof CONTRIBUTORS)[number], m: (typeof COMMUNITY)[number], stars: number): Partial<GithubFacts> {
  const base = githubFacts();
  return {
    repository: repositoryWith({ fork, parent: fork ? 'upstream/example' : null, stars }),
    activity: { ...a, lastCommitAt: base.activity?.lastCommitAt ?? null, truncated: false },
    contributors: { ...(base.contributors as NonNullable<GithubFacts['contributors']>), ...c },
    community: { ...(base.community as NonNullable<GithubFacts['community']>), ...m },
  };
}

const score = (e: Evidence) => buildReport(e, { checks: CHECKS, gate: DEFAULT_GATE }).score ?? 0;

describe('a fork never scores better than its copied facts counted', () => {
  /** A repository target: the example repository's files, with the grid's facts in place. */
  const repositoryTarget = (g: Partial<GithubFacts>): Evidence => {
    const e = repositoryEvidence({ repository: g.repository ?? {} });
    if (e.sources.github.status !== 'ok') throw new Error('the example repository is read');
    Object.assign(e.sources.github.facts, { activity: g.activity, contributors: g.contributors, community: g.community });
    return e;
  };
  for (const [target, make] of [
    ['a repository target', repositoryTarget],
    ['a package\'s verified repository', (g: Partial<GithubFacts>) => evidence({ registry: { dependencies: 12 }, github: githubFacts(g) })],
  ] as const) {
    it(target, () => {
      let forks = 0;
      for (const a of ACTIVITY) for (const c of CONTRIBUTORS) for (const m of COMMUNITY) for (const stars of STARS) {
        const own = score(make(github(false, a, c, m, stars)));
        const fork = score(make(github(true, a, c, m, stars)));
        expect(fork, JSON.stringify({ a, c, m, stars })).toBeLessThanOrEqual(own);
        forks += 1;
      }
      expect(forks).toBe(54);
    });
  }
});
