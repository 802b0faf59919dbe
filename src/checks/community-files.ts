/**
 * community-files: whether newcomers are told how to contribute and how people treat each
 * other (CONTRIBUTING, CODE_OF_CONDUCT, issue and pull request templates).
 */
import { defineCheck } from './define.js';
import { forkCopied, GITHUB_ABSENT_MESSAGES, GITHUB_FORK_MESSAGES, GITHUB_UNKNOWN_MESSAGES, readGithub } from './lib/github.js';

/** Points per file; they add up to 100. */
export const COMMUNITY_FILE_POINTS = {
  contributing: 40,
  codeOfConduct: 30,
  issueTemplate: 20,
  pullRequestTemplate: 10,
} as const;
type CommunityFile = keyof typeof COMMUNITY_FILE_POINTS;

const NAMES: Readonly<Record<CommunityFile, string>> = {
  contributing: 'CONTRIBUTING',
  codeOfConduct: 'CODE_OF_CONDUCT',
  issueTemplate: 'issue template',
  pullRequestTemplate: 'pull request template',
};

export default defineCheck({
  id: 'community-files',
  dimension: 'community',
  weight: 1,
  needs: ['github'],
  optional: ['tarball'],
  title: 'Community files',
  description:
    'Adds points for the files GitHub\'s community profile finds in the repository: CONTRIBUTING 40 (a CONTRIBUTING file shipped in the npm package also counts), CODE_OF_CONDUCT 30, an issue template 20, a pull request template 10. ' +
    'A fork copies its parent\'s files: unless it has none of them, the result is unknown (`fork-copied`: the community dimension no higher than they would score).',
  messages: {
    complete: 'CONTRIBUTING, CODE_OF_CONDUCT and issue and pull request templates present',
    partial: 'Present: {present}; missing: {missing}',
    none: 'No CONTRIBUTING, CODE_OF_CONDUCT or issue and pull request templates in {repository}',
    ...GITHUB_FORK_MESSAGES,
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github, tarball }) => {
    const read = readGithub(github, ['community']);
    if (!read.ok) return read.outcome;
    const { community } = read.sections;
    const has: Record<CommunityFile, boolean> = {
      contributing: community.contributing || (tarball?.contributingFile ?? null) !== null,
      codeOfConduct: community.codeOfConduct,
      issueTemplate: community.issueTemplate,
      pullRequestTemplate: community.pullRequestTemplate,
    };
    const files = Object.keys(COMMUNITY_FILE_POINTS) as CommunityFile[];
    const present = files.filter((f) => has[f]);
    const missing = files.filter((f) => !has[f]);
    const score = present.reduce((sum, f) => sum + COMMUNITY_FILE_POINTS[f], 0);
    const data = {
      ...read.data,
      present: present.map((f) => NAMES[f]),
      missing: missing.map((f) => NAMES[f]),
      contributingShipped: tarball?.contributingFile ?? null,
      healthPercentage: community.healthPercentage,
    };
    if (present.length === 0) return { score, messageId: 'none', data };
    // A fork's files may all be its parent's.
    const fork = forkCopied(read.repository, data, { check: 'community-files', dimension: 'community', score });
    if (fork !== null) return fork;
    if (missing.length === 0) return { score, messageId: 'complete', data };
    return { score, messageId: 'partial', data };
  },
});
