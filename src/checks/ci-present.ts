/**
 * ci-present: whether changes are built and tested automatically (GitHub Actions workflows
 * or another CI service configured in the repository).
 */
import { defineCheck } from './define.js';
import { GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, readGithub } from './lib/github.js';

export default defineCheck({
  id: 'ci-present',
  dimension: 'maintenance',
  weight: 1,
  needs: ['github'],
  title: 'Continuous integration',
  description:
    'Looks for CI in the repository: GitHub Actions workflow files under `.github/workflows/`, or another CI configuration at the root (`.travis.yml`, `.circleci/`, `azure-pipelines.yml`, …). Any scores 100, none 0.',
  messages: {
    // The counted noun follows the number, so one reads singular (checks/define.ts formatMessage).
    workflows: '{workflows} workflows on GitHub Actions',
    'other-ci': 'CI configured: {otherCi}',
    none: 'No CI configuration found in {repository}',
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github }) => {
    const read = readGithub(github, ['ci']);
    if (!read.ok) return read.outcome;
    const { workflows, otherCi } = read.sections.ci;
    const data = { ...read.data, workflows, otherCi };
    if (workflows > 0) return { score: 100, messageId: 'workflows', data };
    if (otherCi.length > 0) return { score: 100, messageId: 'other-ci', data };
    return { score: 0, messageId: 'none', data };
  },
});
