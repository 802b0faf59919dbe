import check from '../../src/checks/security-policy.js';
import type { GithubCommunity } from '../../src/evidence/schema.js';
import { evidence, githubFacts, unavailable } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { absentGithub, describeGithubSource, githubRuleCases, starjacked } from './github-cases.js';

const COMMUNITY: GithubCommunity = {
  readme: true,
  contributing: true,
  codeOfConduct: true,
  issueTemplate: true,
  pullRequestTemplate: true,
  securityPolicy: true,
  healthPercentage: 100,
};
const policy = (securityPolicy: boolean | null) => githubFacts({ community: { ...COMMUNITY, securityPolicy } });

checkTable(check, [
  {
    name: 'policy in the repository',
    evidence: evidence({ github: {} }),
    score: 100,
    messageId: 'repository',
    data: { repository: 'example/example', securityPolicy: true, file: null },
    message: ['Security policy in example/example'],
  },
  {
    name: 'no policy anywhere',
    evidence: evidence({ github: policy(false) }),
    score: 0,
    messageId: 'none',
    data: { securityPolicy: false },
  },
  {
    name: 'no policy in the repository, but the npm package ships SECURITY.md',
    evidence: evidence({ tarball: { securityFile: 'SECURITY.md' }, github: policy(false) }),
    score: 100,
    messageId: 'shipped',
    data: { file: 'SECURITY.md' },
    message: ['Security policy shipped in the package (SECURITY.md)'],
  },
  {
    name: 'GitHub did not say: unknown',
    evidence: evidence({ github: policy(null) }),
    score: null,
    messageId: 'policy-unknown',
    message: ['Unknown: GitHub did not say whether example/example has a security policy'],
  },
  {
    name: 'GitHub did not say, the package ships one: 100',
    evidence: evidence({ tarball: { securityFile: '.github/SECURITY.md' }, github: policy(null) }),
    score: 100,
    messageId: 'shipped',
  },
  {
    name: 'tarball unavailable, no repository policy',
    evidence: evidence({ tarball: unavailable('HTTP 503'), github: policy(false) }),
    score: 0,
    messageId: 'none',
  },
  {
    name: 'the package\'s own file counts even when the repository link is unverified',
    evidence: evidence({ tarball: { securityFile: 'SECURITY.md' }, github: starjacked() }),
    score: 100,
    messageId: 'shipped',
  },
  {
    name: 'the package\'s own file counts even when the repository is missing',
    evidence: evidence({ tarball: { securityFile: 'SECURITY.md' }, github: absentGithub('missing') }),
    score: 100,
    messageId: 'shipped',
  },
  ...githubRuleCases({ sections: ['community'] }),
]);

describeGithubSource(check);
