import check from '../../src/checks/dependency-update-tool.js';
import type { GithubCi } from '../../src/evidence/schema.js';
import { evidence, githubFacts } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';
import { describeGithubSource, githubRuleCases } from './github-cases.js';

const tools = (dependencyUpdates: GithubCi['dependencyUpdates']) =>
  evidence({ github: githubFacts({ ci: { workflows: 2, otherCi: [], dependencyUpdates } }) });

checkTable(check, [
  {
    name: 'Dependabot',
    evidence: evidence({ github: {} }),
    score: 100,
    messageId: 'configured',
    data: { tools: ['dependabot'] },
    message: ['Dependency updates automated: dependabot'],
  },
  { name: 'Renovate', evidence: tools(['renovate']), score: 100, messageId: 'configured' },
  { name: 'both', evidence: tools(['dependabot', 'renovate']), score: 100, messageId: 'configured', message: ['dependabot, renovate'] },
  {
    name: 'none',
    evidence: tools([]),
    score: 0,
    messageId: 'none',
    data: { tools: [] },
    message: ['No Dependabot or Renovate configuration in example/example'],
  },
  ...githubRuleCases({ sections: ['ci'] }),
]);

describeGithubSource(check);
