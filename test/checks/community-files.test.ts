import { describe, expect, it } from 'vitest';
import check, { COMMUNITY_FILE_POINTS } from '../../src/checks/community-files.js';
import type { GithubCommunity } from '../../src/evidence/schema.js';
import { evidence, githubFacts } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { describeGithubSource, githubRuleCases, repositoryWith } from './github-cases.js';

const NONE: GithubCommunity = {
  readme: true,
  contributing: false,
  codeOfConduct: false,
  issueTemplate: false,
  pullRequestTemplate: false,
  securityPolicy: false,
  healthPercentage: 14,
};
const files = (present: Partial<GithubCommunity>) => evidence({ github: githubFacts({ community: { ...NONE, ...present } }) });

checkTable(check, [
  {
    name: 'all four files',
    evidence: evidence({ github: {} }),
    score: 100,
    messageId: 'complete',
    data: { missing: [], healthPercentage: 100 },
  },
  {
    name: 'a repository without any community files',
    evidence: files({}),
    score: 0,
    messageId: 'none',
    data: { present: [], missing: ['CONTRIBUTING', 'CODE_OF_CONDUCT', 'issue template', 'pull request template'], healthPercentage: 14 },
    message: ['No CONTRIBUTING, CODE_OF_CONDUCT or issue and pull request templates in example/example'],
  },
  {
    name: 'CONTRIBUTING only',
    evidence: files({ contributing: true }),
    score: 40,
    messageId: 'partial',
    message: ['Present: CONTRIBUTING; missing: CODE_OF_CONDUCT, issue template, pull request template'],
  },
  { name: 'code of conduct only', evidence: files({ codeOfConduct: true }), score: 30, messageId: 'partial' },
  { name: 'issue template only', evidence: files({ issueTemplate: true }), score: 20, messageId: 'partial' },
  { name: 'pull request template only', evidence: files({ pullRequestTemplate: true }), score: 10, messageId: 'partial' },
  {
    name: 'CONTRIBUTING shipped in the npm package counts',
    evidence: evidence({ tarball: { contributingFile: 'CONTRIBUTING.md' }, github: githubFacts({ community: NONE }) }),
    score: 40,
    messageId: 'partial',
    data: { present: ['CONTRIBUTING'], contributingShipped: 'CONTRIBUTING.md' },
  },
  {
    name: 'a README alone earns nothing here (the readme check scores it)',
    evidence: files({ readme: true }),
    score: 0,
    messageId: 'none',
  },
  ...githubRuleCases({ sections: ['community'] }),
  // A fork copies its parent's files: never credited (docs/scoring.md §9, "A fork").
  {
    name: 'a fork with all four files: unknown, they may be its parent\'s',
    evidence: evidence({ github: githubFacts({ repository: repositoryWith({ fork: true, parent: 'upstream/example' }) }) }),
    score: null,
    messageId: 'fork-copied',
    data: { fork: true, parent: 'upstream/example', present: ['CONTRIBUTING', 'CODE_OF_CONDUCT', 'issue template', 'pull request template'] },
  },
  {
    name: 'a fork with CONTRIBUTING alone: unknown, and the community dimension no higher than it would score',
    evidence: evidence({ github: githubFacts({ repository: repositoryWith({ fork: true, parent: null }), community: { ...NONE, contributing: true } }) }),
    score: null,
    messageId: 'fork-copied',
    data: { copiedScore: 40, parentCheck: 'none named' },
    caps: [{ id: 'fork-copied', limit: 40, dimension: 'community', reason: "a fork's community-files facts may be its parent's: community no higher than they would score", args: { check: 'community-files', parent: '' } }],
  },
  { name: 'a fork with none of them: none, as it shows', evidence: evidence({ github: githubFacts({ repository: repositoryWith({ fork: true, parent: 'upstream/example' }), community: NONE }) }), score: 0, messageId: 'none' },
]);

describeGithubSource(check);

describe('COMMUNITY_FILE_POINTS', () => {
  it('adds up to 100', () => {
    expect(Object.values(COMMUNITY_FILE_POINTS).reduce((a, b) => a + b, 0)).toBe(100);
  });
});
