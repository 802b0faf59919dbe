/**
 * dependency-update-tool: whether a bot keeps dependencies current (Dependabot or Renovate
 * configured in the repository), so security fixes upstream reach the project quickly.
 */
import { defineCheck } from './define.js';
import { GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, readGithub } from './lib/github.js';

export default defineCheck({
  id: 'dependency-update-tool',
  dimension: 'security',
  weight: 1,
  needs: ['github'],
  title: 'Dependency updates',
  description:
    'Looks for a dependency update tool configured in the repository: Dependabot (`.github/dependabot.yml`) or Renovate (any of its configuration files). Configured scores 100, none 0.',
  messages: {
    configured: 'Dependency updates automated: {tools}',
    none: 'No Dependabot or Renovate configuration in {repository}',
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github }) => {
    const read = readGithub(github, ['ci']);
    if (!read.ok) return read.outcome;
    const tools = [...read.sections.ci.dependencyUpdates];
    const data = { ...read.data, tools };
    return tools.length > 0 ? { score: 100, messageId: 'configured', data } : { score: 0, messageId: 'none', data };
  },
});
