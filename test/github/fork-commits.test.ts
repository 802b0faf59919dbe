/**
 * A fork's own commits (sources/github/fork-commits.ts) against the fixture server, from GitHub's
 * recorded comparison answer (fixtures/http/github/compare/, PyGithub replay data): one request,
 * the own commits counted from it, and every way GitHub can fail to say — a 404, a 5xx, a body of
 * another shape or one whose counts contradict its status — which gives no facts (the fork's stay
 * the copied ones), never a credit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GithubRepository } from '../../src/evidence/schema.js';
import { comparisonOf, forkOwnCommits } from '../../src/sources/github/fork-commits.js';
import { forkParentBranch } from '../../src/sources/github/names.js';
import type { GithubCall } from '../../src/sources/github/request.js';
import { repositoryWith } from '../checks/github-cases.js';
import { FIXTURES_ROOT, useFixtureServer, type FixtureResponse } from '../support/fixture-server.js';
import { limiterFor, testClient } from './helpers.js';

/** A week after the recorded commits (2012-05-25): all four are of the last 90 days. */
const NOW = new Date('2012-06-01T12:00:00Z');
const RECORDED = JSON.parse(readFileSync(`${FIXTURES_ROOT}github/compare/pygithub-v0.6-v0.7.json`, 'utf8')) as Record<string, unknown> & { commits: unknown[] };
const COMPARE = '/github/repos/PyGithub/PyGithub/compare/main...ahmad88me:master';

const world = useFixtureServer();

const fork = (overrides: Partial<GithubRepository> = {}): GithubRepository =>
  repositoryWith({ fullName: 'ahmad88me/PyGithub', fork: true, parent: 'PyGithub/PyGithub', parentBranch: 'main', defaultBranch: 'master', ...overrides });

async function compare(repository: GithubRepository = fork()) {
  const { http } = testClient();
  const call: GithubCall = { http, limiter: limiterFor(http), api: world.server.url('github'), graphql: `${world.server.url('github')}/graphql`, tokenInUse: false, now: NOW, counter: { requests: 0 } };
  return { result: await forkOwnCommits(call, repository), requests: call.counter.requests };
}

describe('forkOwnCommits', () => {
  it('ahead of its parent: the own commits GitHub listed, counted as the branch facts are — one request', async () => {
    world.server.expect('GET', COMPARE, { fixture: 'github/compare/pygithub-v0.6-v0.7.json' });
    const { result, requests } = await compare();
    expect(requests).toBe(1);
    expect(result).toEqual({
      ok: true,
      value: {
        parent: 'PyGithub/PyGithub',
        base: 'main',
        status: 'ahead',
        aheadBy: 4,
        behindBy: 0,
        listed: 4,
        activity: { commits90d: 4, commits365d: 4, authors90d: 1, authors365d: 1, botCommits90d: 0, botCommits365d: 0, lastCommitAt: '2012-05-25T17:14:34.000Z', truncated: false },
        contributors: { count: 1, busFactor: 1, topShare: 1, basis: 'recent-commits', commitsExamined: 4 },
      },
    });
  });

  it('identical to its parent: no commits of its own', async () => {
    world.server.expect('GET', COMPARE, { body: { ...RECORDED, status: 'identical', ahead_by: 0, behind_by: 0, total_commits: 0, commits: [] } });
    const { result } = await compare();
    expect(result).toMatchObject({ ok: true, value: { status: 'identical', aheadBy: 0, listed: 0, activity: { commits365d: 0, lastCommitAt: null } } });
  });

  it('diverged: its own commits ahead and the parent\'s it lacks behind', async () => {
    world.server.expect('GET', COMPARE, { body: { ...RECORDED, status: 'diverged', behind_by: 9 } });
    const { result } = await compare();
    expect(result).toMatchObject({ ok: true, value: { status: 'diverged', aheadBy: 4, behindBy: 9, listed: 4, activity: { commits90d: 4 } } });
  });

  it('more own commits than listed: the counts are lower bounds (truncated), from those listed', async () => {
    world.server.expect('GET', COMPARE, { body: { ...RECORDED, ahead_by: 300, total_commits: 300 } });
    const { result } = await compare();
    expect(result).toMatchObject({ ok: true, value: { aheadBy: 300, listed: 4, activity: { commits90d: 4, truncated: true } } });
  });

  const failures: Array<[string, FixtureResponse, RegExp]> = [
    ['a 404 (the parent deleted, a branch renamed)', { status: 404, body: { message: 'Not Found' } }, /404/],
    ['a 500', { status: 500, body: { message: 'Server Error' } }, /500/],
    ['a body that is no JSON', { malformed: true }, /not valid JSON/],
    ['a body of another shape (no ahead_by)', { body: { ...RECORDED, ahead_by: undefined } }, /unexpected shape at ahead_by/],
    ['an unknown status', { body: { ...RECORDED, status: 'sideways' } }, /unexpected shape at status/],
    ['a status its counts contradict (identical, 4 ahead)', { body: { ...RECORDED, status: 'identical' } }, /does not add up/],
    ['more commits listed than ahead_by', { body: { ...RECORDED, ahead_by: 2 } }, /does not add up/],
    ['own commits and none listed', { body: { ...RECORDED, commits: [] } }, /does not add up/],
  ];
  for (const [name, response, reason] of failures) {
    it(`${name}: no facts, with the reason`, async () => {
      world.server.expect('GET', COMPARE, response);
      const { result } = await compare();
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(reason);
    });
  }

  it('is not asked for a repository that is no fork, a parent or branch GitHub did not name, or a branch name it does not compare', async () => {
    for (const repository of [
      fork({ fork: false }),
      fork({ parent: null }),
      fork({ parentBranch: null }),
      fork({ defaultBranch: 'feature..x' }),
      fork({ defaultBranch: 'a:b' }),
    ]) {
      expect(typeof comparisonOf(repository)).toBe('string');
      const { result, requests } = await compare(repository);
      expect(result.ok).toBe(false);
      expect(requests).toBe(0);
    }
  });
});

describe('forkParentBranch', () => {
  it.each([
    [true, 'a/b', 'main', 'main'],
    [true, 'a/b', 'release/2.x', 'release/2.x'],
    [false, 'a/b', 'main', null],
    [true, null, 'main', null],
    [true, 'a/b', null, null],
    [true, 'a/b', '-x', null],
    [true, 'a/b', 'x..y', null],
    [true, 'a/b', 'x y', null],
    [true, 'a/b', 'x%2Fy', null],
    [true, 'a/b', '', null],
  ] as const)('fork %s, parent %s, branch %s → %s', (isFork, parent, branch, expected) => {
    expect(forkParentBranch(isFork, parent, branch)).toBe(expected);
  });
});
