import check from '../../src/checks/ci-present.js';
import { evidence, githubFacts } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { describeGithubSource, githubRuleCases } from './github-cases.js';

const ci = (workflows: number, otherCi: string[] = []) =>
  evidence({ github: githubFacts({ ci: { workflows, otherCi, dependencyUpdates: [] } }) });

checkTable(check, [
  {
    name: 'three workflows',
    evidence: evidence({ github: {} }),
    score: 100,
    messageId: 'workflows',
    data: { workflows: 3, otherCi: [] },
    message: ['3 workflows on GitHub Actions'],
  },
  // jnunemaker/httparty @ 2daba91bf3f6 has one workflow: it read '1 GitHub Actions workflows'.
  { name: 'one workflow', evidence: ci(1), score: 100, messageId: 'workflows', message: ['1 workflow on GitHub Actions'] },
  {
    name: 'another CI service',
    evidence: ci(0, ['.travis.yml', '.circleci']),
    score: 100,
    messageId: 'other-ci',
    message: ['CI configured: .travis.yml, .circleci'],
  },
  {
    name: 'no CI',
    evidence: ci(0),
    score: 0,
    messageId: 'none',
    message: ['No CI configuration found in example/example'],
  },
  ...githubRuleCases({ sections: ['ci'] }),
]);

describeGithubSource(check);
