/**
 * A fork's copied facts are never credited (docs/scoring.md §9, "A fork"): the checks that read
 * them say unknown, and leaving them out never makes the fork score better than the same facts
 * counted — over a grid of activity, contributors and community files, as a repository target
 * and as a package's verified repository.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { EvidenceSchema, type Evidence, type GithubFacts, type GithubForkCommits } from '../../src/evidence/schema.js';
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

describe('a fork\'s own commits (GitHub\'s comparison with its parent) never make it score better than its branch counted', () => {
  const OWN: GithubForkCommits[] = [
    // Identical to the parent: none of its own.
    { parent: 'upstream/example', base: 'main', status: 'identical', aheadBy: 0, behindBy: 0, listed: 0, activity: { commits90d: 0, commits365d: 0, authors90d: 0, authors365d: 0, lastCommitAt: null, truncated: false }, contributors: { count: 0, busFactor: 0, topShare: null, basis: 'recent-commits', commitsExamined: 0 } },
    // A few of its own, one person's.
    { parent: 'upstream/example', base: 'main', status: 'diverged', aheadBy: 4, behindBy: 30, listed: 4, activity: { commits90d: 1, commits365d: 4, authors90d: 1, authors365d: 1, lastCommitAt: null, truncated: false }, contributors: { count: 1, busFactor: 1, topShare: 1, basis: 'recent-commits', commitsExamined: 4 } },
    // Many of its own, by many people, more than GitHub lists.
    { parent: 'upstream/example', base: 'main', status: 'ahead', aheadBy: 600, behindBy: 0, listed: 250, activity: { commits90d: 200, commits365d: 250, authors90d: 30, authors365d: 40, lastCommitAt: null, truncated: true }, contributors: { count: 60, busFactor: 10, topShare: 0.05, basis: 'recent-commits', commitsExamined: 100 } },
  ];
  const rank = (code: string) => ['unknown', 'do-not-use', 'no', 'caution', 'yes'].indexOf(code);
  const report = (e: Evidence) => buildReport(e, { checks: CHECKS, gate: DEFAULT_GATE });
  const target = (g: Partial<GithubFacts>, forkCommits?: GithubForkCommits): Evidence => {
    const e = repositoryEvidence({ repository: { ...(g.repository ?? {}), parentBranch: g.repository?.fork === true ? 'main' : null } });
    if (e.sources.github.status !== 'ok') throw new Error('the example repository is read');
    Object.assign(e.sources.github.facts, { activity: g.activity, contributors: g.contributors, community: g.community }, forkCommits === undefined ? {} : { forkCommits });
    return e;
  };
  it('over the grid: no better than the branch counted as its own, and no more trusting a verdict than without the comparison', () => {
    let cases = 0;
    let judged = 0;
    for (const a of ACTIVITY) for (const c of CONTRIBUTORS) for (const own of OWN) {
      const m = COMMUNITY[1]!;
      const asOwn = report(target(github(false, a, c, m, 3)));
      const copied = report(target(github(true, a, c, m, 3)));
      const compared = report(target(github(true, a, c, m, 3), own));
      const at = JSON.stringify({ a, c, own: own.status });
      expect(compared.score ?? 0, at).toBeLessThanOrEqual(asOwn.score ?? 0);
      expect(rank(compared.verdictCode), at).toBeLessThanOrEqual(rank(copied.verdictCode));
      expect(compared.verdictCode, at).not.toBe('yes');
      if (compared.checks.find((x) => x.id === 'commit-activity')?.messageId === 'fork-own-commits') judged += 1;
      cases += 1;
    }
    expect(cases).toBe(27);
    // Own commits were judged wherever the branch shows any in the year and the fork has some of its own.
    expect(judged).toBe(18);
  });
});

describe('saved evidence of a fork', () => {
  const compared: GithubForkCommits = { parent: 'upstream/example', base: 'main', status: 'ahead', aheadBy: 30, behindBy: 0, listed: 30, activity: { commits90d: 12, commits365d: 30, authors90d: 2, authors365d: 2, lastCommitAt: null, truncated: false }, contributors: { count: 3, busFactor: 2, topShare: 0.5, basis: 'recent-commits', commitsExamined: 30 } };
  const fork = (forkCommits?: GithubForkCommits): Evidence => {
    const e = repositoryEvidence({ repository: { fork: true, parent: 'upstream/example', parentBranch: 'main' } });
    if (e.sources.github.status !== 'ok') throw new Error('the example repository is read');
    if (forkCommits !== undefined) e.sources.github.facts.forkCommits = forkCommits;
    return e;
  };
  const activityOf = (e: Evidence) => buildReport(e, { checks: CHECKS, gate: DEFAULT_GATE }).checks.find((c) => c.id === 'commit-activity')?.messageId;

  it('saved before the comparison (no parentBranch, no forkCommits) still loads and scores as the copied facts', () => {
    const saved = JSON.parse(JSON.stringify(fork())) as { sources: { github: { facts: { repository: Record<string, unknown> } } } };
    delete saved.sources.github.facts.repository.parentBranch;
    const loaded = EvidenceSchema.parse(saved);
    expect(loaded.sources.github.status === 'ok' && loaded.sources.github.facts.repository?.parentBranch).toBe(null);
    expect(activityOf(loaded)).toBe('fork-copied');
  });

  it('saved with the comparison: re-scored from the file, the same report', () => {
    const e = fork(compared);
    const again = EvidenceSchema.parse(JSON.parse(JSON.stringify(e)));
    expect(activityOf(again)).toBe('fork-own-commits');
    expect(buildReport(again, { checks: CHECKS, gate: DEFAULT_GATE })).toEqual(buildReport(e, { checks: CHECKS, gate: DEFAULT_GATE }));
  });
});
