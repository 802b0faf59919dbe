import { describe, expect, it } from 'vitest';
import check, { ARCHIVED_MAINTENANCE_LIMIT, README_DEPRECATED_SCORE } from '../../src/checks/repository-archived.js';
import releaseRecency from '../../src/checks/release-recency.js';
import { evaluate } from '../../src/scoring/evaluate.js';
import { daysAgo, evidence, githubFacts, NOW } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { describeGithubSource, githubRuleCases, repositoryWith, starjacked } from './github-cases.js';
import { repoFiles, repositoryEvidence } from '../support/repository-evidence.js';
import { runCheck } from '../../src/scoring/evaluate.js';

const withReadme = (text: string, repository = {}) =>
  repositoryEvidence({ repository, files: repoFiles({ readme: { path: 'README.md', size: text.length, text, truncated: false } }) });
const MOVED = '# ⚠️ REPOSITORY DEPRECATED ⚠️\n\n## This repository has been moved to: [o/new-sdk](https://github.com/o/new-sdk)\n';

const ARCHIVED_CAP = {
  id: 'repository-archived',
  limit: 10,
  dimension: 'maintenance',
  reason: 'the repository is archived: no more fixes will land',
  args: { state: 'archived', repository: 'example/example' },
} as const;

const archived = evidence({ github: githubFacts({ repository: repositoryWith({ archived: true, pushedAt: daysAgo(900) }) }) });

checkTable(check, [
  {
    name: 'not archived',
    evidence: evidence({ github: {} }),
    score: 100,
    messageId: 'active',
    data: { repository: 'example/example', archived: false, disabled: false },
    message: ['Repository example/example is not archived'],
  },
  {
    name: 'archived: 0 and a maintenance cap',
    evidence: archived,
    score: 0,
    messageId: 'archived',
    data: { archived: true, pushedAt: daysAgo(900) },
    caps: [ARCHIVED_CAP],
    message: ['Repository example/example is archived: read-only, no more fixes will land'],
  },
  {
    name: 'disabled: 0 and the same cap',
    evidence: evidence({ github: githubFacts({ repository: repositoryWith({ disabled: true }) }) }),
    score: 0,
    messageId: 'disabled',
    caps: [{ ...ARCHIVED_CAP, reason: 'the repository is disabled: no more fixes will land', args: { state: 'disabled', repository: 'example/example' } }],
  },
  {
    name: 'archived and disabled reads as archived',
    evidence: evidence({ github: githubFacts({ repository: repositoryWith({ archived: true, disabled: true }) }) }),
    score: 0,
    messageId: 'archived',
    caps: [ARCHIVED_CAP],
  },
  {
    name: 'archived but the link is unverified: unknown, no cap',
    evidence: evidence({ github: starjacked({ repository: repositoryWith({ archived: true }) }) }),
    score: null,
    messageId: 'link-unverified',
  },
  {
    name: 'a github: target whose README title declares it deprecated: 20, the verdict held',
    evidence: withReadme(MOVED),
    score: README_DEPRECATED_SCORE,
    messageId: 'readme-declared',
    data: { archived: false, readmeDeclared: true, where: 'title' },
  },
  {
    name: 'a github: target whose README mentions deprecation further down declares nothing',
    evidence: withReadme('# example\n\nParses examples.\n\n## Notes\n\nThe v1 API is deprecated; use v2.\n'),
    score: 100,
    messageId: 'active',
  },
  {
    name: 'archived and README-deprecated reads as archived (the cap)',
    evidence: withReadme(MOVED, { archived: true }),
    score: 0,
    messageId: 'archived',
    caps: [ARCHIVED_CAP],
  },
  ...githubRuleCases({ sections: [] }),
]);

describeGithubSource(check);

describe('the archived cap in the engine', () => {
  it('caps the maintenance dimension at 10, keeps the verdict at CAUTION at best and says why', () => {
    expect(ARCHIVED_MAINTENANCE_LIMIT).toBe(10);
    const result = evaluate(archived, [releaseRecency, check], 'library', { now: NOW });
    const maintenance = result.dimensions.find((d) => d.id === 'maintenance');
    // release-recency alone would give 100 (a release 30 days ago); the mean is 100×3/5 = 60.
    expect(maintenance?.score).toBe(ARCHIVED_MAINTENANCE_LIMIT);
    expect(result.caps).toContainEqual(ARCHIVED_CAP);
    expect(result.verdict.reasons.map((r) => [r.code, r.args.dimension, r.args.limit])).toContainEqual(['dimension-capped', 'maintenance', 10]);
    expect(result.verdict.code).not.toBe('yes');
  });

  it('leaves maintenance alone when the repository is active', () => {
    const result = evaluate(evidence({ github: {} }), [releaseRecency, check], 'library', { now: NOW });
    expect(result.dimensions.find((d) => d.id === 'maintenance')?.score).toBe(100);
    expect(result.caps).toEqual([]);
  });
});

describe('a repository README declaring deprecation', () => {
  it('holds the verdict and says what would lift it; a package target\'s README is left to the deprecation check', () => {
    expect(README_DEPRECATED_SCORE).toBe(20);
    expect(runCheck(check, withReadme(MOVED), { now: NOW }).holdVerdict).toMatch(/README's title declares the repository deprecated/);
    // The same README on a package target's documents (npm) is not read here.
    const pkg = evidence({ github: {}, tarball: { readme: { path: 'README.md', text: MOVED, size: MOVED.length, truncated: false } } });
    expect(runCheck(check, pkg, { now: NOW }).messageId).toBe('active');
  });
});
