/**
 * repository-archived: an archived (read-only) or disabled repository will take no more
 * fixes. That is too serious for a mean to dilute: it caps the maintenance dimension. A
 * `github:` target whose README opening declares the repository deprecated, unmaintained or
 * moved (lib/readme-opening.ts, as the deprecation check reads a package's) holds the verdict.
 */
import type { CapRequest } from './define.js';
import { defineCheck } from './define.js';
import { GITHUB_ABSENT_MESSAGES, GITHUB_UNKNOWN_MESSAGES, readGithub } from './lib/github.js';
import { declaredDeprecation } from './lib/readme-opening.js';

/** The most the maintenance dimension can score for an archived or disabled repository. */
export const ARCHIVED_MAINTENANCE_LIMIT = 10;
/** A repository target whose README opening declares it deprecated, unmaintained or moved. */
export const README_DEPRECATED_SCORE = 20;

function archivedCap(state: 'archived' | 'disabled', repository: string, reason: string): CapRequest {
  return { id: 'repository-archived', limit: ARCHIVED_MAINTENANCE_LIMIT, dimension: 'maintenance', reason, args: { state, repository } };
}

export default defineCheck({
  id: 'repository-archived',
  dimension: 'maintenance',
  weight: 2,
  needs: ['github'],
  optional: ['documents'],
  title: 'Repository not archived',
  description:
    `An archived (read-only) or disabled repository scores 0 and caps the maintenance dimension at ${ARCHIVED_MAINTENANCE_LIMIT}, which also keeps the verdict at CAUTION at best; any other repository scores 100. ` +
    `A \`github:\` target whose README title, the subtitle under it or its first paragraph declares the repository deprecated, unmaintained or moved ("# Deprecated", "This repository has moved to X") scores ${README_DEPRECATED_SCORE} and holds the verdict at CAUTION; a mention further down declares nothing.`,
  messages: {
    active: 'Repository {repository} is not archived',
    archived: 'Repository {repository} is archived: read-only, no more fixes will land',
    disabled: 'Repository {repository} is disabled by GitHub: no more fixes will land',
    'readme-declared': 'The README of {repository} declares it deprecated or unmaintained ({where}): "{excerpt}"',
    ...GITHUB_ABSENT_MESSAGES,
    ...GITHUB_UNKNOWN_MESSAGES,
  },
  evaluate: ({ github, documents }) => {
    const read = readGithub(github);
    if (!read.ok) return read.outcome;
    const { archived, disabled, pushedAt } = read.repository;
    const data = { ...read.data, archived, disabled, pushedAt };
    if (archived) {
      return { score: 0, messageId: 'archived', data, caps: [archivedCap('archived', read.repository.fullName, 'the repository is archived: no more fixes will land')] };
    }
    if (disabled) {
      return { score: 0, messageId: 'disabled', data, caps: [archivedCap('disabled', read.repository.fullName, 'the repository is disabled: no more fixes will land')] };
    }
    // A package's README is the deprecation check's to read; a repository target's is read here.
    const readme = documents?.ecosystem === 'github' ? documents.readme : null;
    const declared = readme === null || readme === undefined ? null : declaredDeprecation(readme.text, read.repository.fullName.split('/')[1] ?? '');
    if (declared !== null) {
      return {
        score: README_DEPRECATED_SCORE,
        messageId: 'readme-declared',
        data: { ...data, readmeDeclared: true, where: declared.where, excerpt: declared.excerpt },
        holdVerdict: `the README's ${declared.where} declares the repository deprecated or unmaintained ("${declared.excerpt}"); a README that no longer says so would lift this`,
      };
    }
    return { score: 100, messageId: 'active', data };
  },
});
