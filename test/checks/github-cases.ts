/**
 * Cases every GitHub check shares (src/checks/lib/github.ts): an absent repository, an
 * unverified link (starjacking), a section GitHub could not answer; and the engine's view of
 * the `github` source (unavailable → unknown, not-applicable → the check is left out).
 */
import { describe, expect, it } from 'vitest';
import type { AnyCheck } from '../../src/checks/define.js';
import type { GithubFacts, GithubForkCommits, GithubRepository, GithubSection } from '../../src/evidence/schema.js';
import { applies, runCheck } from '../../src/scoring/evaluate.js';
import type { EvidenceOverrides } from '../support/evidence-builder.js';
import { daysAgo, evidence, githubFacts, notApplicable, NOW, unavailable } from '../support/evidence-builder.js';
import type { CheckCase } from './check-table.js';

export const STARJACK_REASON = 'package.json at main names "chalk", not "chaIk"';

/** Facts for a declared repository GitHub answered 404 (missing) or 451 (blocked) for. */
export function absentGithub(state: 'missing' | 'blocked', absentReason: string | null = null): GithubFacts {
  return githubFacts({
    state,
    absentReason,
    repository: null,
    activity: null,
    releases: null,
    contributors: null,
    responsiveness: null,
    community: null,
    ci: null,
    link: { verifiedBy: null, reason: 'the repository does not exist' },
  });
}

/** The example repository with some fields changed (for `githubFacts({ repository: … })`). */
export function repositoryWith(overrides: Partial<GithubRepository>): GithubRepository {
  const repository = githubFacts().repository;
  if (repository === null) throw new Error('the example repository is present');
  return { ...repository, ...overrides };
}

/**
 * A fork of upstream/example whose own commits GitHub told apart (`forkCommits`): by default 30
 * of its own, 12 in 90 days by 2 people, 25 listed by 3 (bus factor 2) — `own` changes them.
 */
export function forkWithOwn(own: Partial<GithubForkCommits> = {}, facts: Partial<GithubFacts> = {}): GithubFacts {
  const forkCommits: GithubForkCommits = {
    parent: 'upstream/example',
    base: 'main',
    status: 'diverged',
    aheadBy: 30,
    behindBy: 7,
    listed: 30,
    activity: { commits90d: 12, commits365d: 30, authors90d: 2, authors365d: 2, lastCommitAt: daysAgo(2), truncated: false },
    contributors: { count: 3, busFactor: 2, topShare: 0.5, basis: 'recent-commits', commitsExamined: 30 },
    ...own,
  };
  return githubFacts({ repository: repositoryWith({ fork: true, parent: 'upstream/example', parentBranch: 'main' }), forkCommits, ...facts });
}

/** A repository whose link to the package is not verified (a typosquat naming a famous repository). */
export function starjacked(overrides: Partial<GithubFacts> = {}): GithubFacts {
  return githubFacts({ link: { verifiedBy: null, reason: STARJACK_REASON }, ...overrides });
}

export interface RuleCaseOptions {
  /** The sections the check reads (each null one must make it unknown). */
  sections: readonly GithubSection[];
  /** False for commit-activity, which scores absence itself. */
  absentUnknown?: boolean;
  /** Other sources the cases should carry (e.g. a tarball without a SECURITY file). */
  base?: Omit<EvidenceOverrides, 'github'>;
}

/** The shared-rule rows for a check's table. */
export function githubRuleCases({ sections, absentUnknown = true, base = {} }: RuleCaseOptions): CheckCase[] {
  const cases: CheckCase[] = [];
  if (absentUnknown) {
    cases.push(
      {
        name: 'missing repository (404): unknown',
        evidence: evidence({ ...base, github: absentGithub('missing') }),
        score: null,
        messageId: 'repository-missing',
        data: { state: 'missing' },
        message: ['Unknown: repository missing (GitHub answered 404: no such repository)'],
      },
      {
        name: 'blocked repository (451): unknown with its reason',
        evidence: evidence({ ...base, github: absentGithub('blocked', 'Repository access blocked (DMCA takedown)') }),
        score: null,
        messageId: 'repository-blocked',
        data: { state: 'blocked', reason: 'Repository access blocked (DMCA takedown)' },
        message: ['Unknown: repository blocked (Repository access blocked (DMCA takedown))'],
      },
    );
  }
  cases.push(
    {
      name: 'unverified link (starjacking): unknown, nothing credited',
      evidence: evidence({ ...base, github: starjacked() }),
      score: null,
      messageId: 'link-unverified',
      data: { repository: 'example/example', verifiedBy: null, reason: STARJACK_REASON },
      message: [`Unknown: repository link not verified (${STARJACK_REASON})`],
    },
    {
      name: 'present but no repository facts: unknown',
      evidence: evidence({ ...base, github: githubFacts({ repository: null }) }),
      score: null,
      messageId: 'section-unknown',
      data: { section: 'repository', reason: 'GitHub gave no repository facts' },
    },
  );
  for (const section of sections) {
    const reason = `GitHub ${section}: HTTP 502`;
    cases.push({
      name: `${section} section unknown: unknown with its reason`,
      evidence: evidence({ ...base, github: githubFacts({ [section]: null, unknown: { [section]: reason } }) }),
      score: null,
      messageId: 'section-unknown',
      data: { repository: 'example/example', section, reason },
      message: [`Unknown: GitHub ${section} facts unavailable (${reason})`],
    });
  }
  return cases;
}

/** How the engine treats the `github` source for this check. */
export function describeGithubSource(check: AnyCheck): void {
  describe(`${check.id} and the github source`, () => {
    it('needs github', () => {
      expect(check.needs).toContain('github');
    });

    it('is left out for a target without a GitHub repository', () => {
      expect(applies(check, evidence({ github: notApplicable('no GitHub repository') }))).toBe(false);
      expect(applies(check, evidence({ github: {} }))).toBe(true);
    });

    it('is unknown with the source reason when GitHub could not answer', () => {
      const reason = 'GitHub rate limit exhausted until 12:00 UTC; a token raises it';
      const ran = runCheck(check, evidence({ github: unavailable(reason) }), { now: NOW });
      expect(ran.score).toBeNull();
      expect(ran.status).toBe('unknown');
      expect(ran.message).toBe(`Unknown: github unavailable (${reason})`);
    });

    it('answers for the healthy example repository', () => {
      const ran = runCheck(check, evidence({ github: {} }), { now: NOW });
      expect(ran.score).not.toBeNull();
      expect(ran.message).not.toMatch(/\{\w+\}/);
    });
  });
}
