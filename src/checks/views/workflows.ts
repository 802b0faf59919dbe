/**
 * The `workflows` view: the GitHub Actions workflows of the repository a target is built from,
 * as workflow-safety judges them (sources/github/workflow-files.ts) — a `github:` target's own
 * (read with its files, `files.workflowSafety`), or a package's verified repository's (read with
 * a GitHub token from the facts query, `workflowSafety`). `not-applicable` for a package whose
 * repository's workflows were not read (no token, a link not verified, evidence saved before);
 * `unavailable` with GitHub's reason when a repository target's files could not be read.
 *
 * Shape:
 *   safety         GithubWorkflowSafety (evidence/github-facts.ts), absent when the files were read before nerq read workflows
 *   treeTruncated  the tree listing was cut short (a repository target's), so more workflows may exist
 *   of             'target' (the repository is the target) or 'package-repository'
 */
import type { Evidence, GithubWorkflowSafety } from '../../evidence/schema.js';
import { defineView, type ViewResult } from './define-view.js';
import { deriveRepository } from './repository.js';

export interface WorkflowsFacts {
  safety: GithubWorkflowSafety | undefined;
  treeTruncated: boolean;
  of: 'target' | 'package-repository';
}

export function deriveWorkflows(evidence: Evidence): ViewResult<WorkflowsFacts> {
  const { ecosystem } = evidence.target;
  if (ecosystem === 'github' || ecosystem === 'mcp') {
    const repository = deriveRepository(evidence);
    // An MCP Registry entry's repository is read as a target's (docs/scoring.md §8a), except in
    // evidence saved before its files were read, which is judged as it was then.
    const savedBefore = ecosystem === 'mcp' && repository.status === 'not-applicable' && repository.undeclared !== true;
    if (!savedBefore) {
      if (repository.status !== 'ok') return repository;
      const { files } = repository.facts;
      return { status: 'ok', facts: { safety: files.workflowSafety, treeTruncated: files.treeTruncated, of: 'target' } };
    }
  }
  const github = evidence.sources.github;
  if (github.status !== 'ok' || github.facts.workflowSafety === undefined) {
    return { status: 'not-applicable', reason: "a package's repository's workflows are read with a GitHub token, once the repository is verified as its source" };
  }
  return { status: 'ok', facts: { safety: github.facts.workflowSafety, treeTruncated: false, of: 'package-repository' } };
}

export const workflowsView = defineView<WorkflowsFacts>({
  description:
    "The GitHub Actions workflows of the repository the target is built from, as read and judged for workflow-safety: a repository target's own, or a package's verified repository's when a GitHub token lets the facts query carry them; not-applicable for a package otherwise.",
  derive: deriveWorkflows,
});
