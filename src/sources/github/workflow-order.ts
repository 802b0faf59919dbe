/**
 * The order a repository's workflow files are read in when not all of them can be
 * (workflow-files.ts; the budget is in docs/checks.md, `workflow-safety`): the file name is all
 * there is before a file is read, so the names that suggest the events outsiders can cause go
 * first (a pull request's target, comments, issues, labels, bots, reviews …: where the dangerous
 * triggers live), then the ones that suggest a release or publishing (where the secrets a
 * takeover would use live), then the rest — each group in the listing's order. A guess from the
 * name only decides what is read first: what was not read is still listed unread, never safe.
 */

/** Name words suggesting a workflow outsiders trigger (`pull_request_target`, `issue_comment`, `issues`; `workflow_run` for the ones reporting a run's failure, coverage or benchmark …). */
const OUTSIDER_WORDS = /^(?:pr|prs|pull|pulls|target|prt|comments?|issues?|labels?|label+er|triage|bots?|commands?|slash|chatops|welcome|greet(?:ings?)?|interaction|reviews?|discussions?|cla|contributors?|assign|dependabot|automerge|merge|preview|fork|forks|untrusted|failures?|failed|coverage|report|bench|benchmarks?)$/;
/** Name words suggesting a workflow that releases or publishes. */
const RELEASE_WORDS = /^(?:release|releases|publish|publishing|deploy|deployment|cd|pypi|npm|docker|tag|tags|dist|upload)$/;

/** The words of a file name (camelCase split, lower case, without the extension). */
function wordsOf(path: string): string[] {
  const name = (path.split('/').pop() ?? path).replace(/\.ya?ml$/i, '');
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');
}

/** 0: suggests outsider events; 1: suggests a release; 2: anything else. */
function readingRank(path: string): number {
  const words = wordsOf(path);
  if (words.some((w) => OUTSIDER_WORDS.test(w)) || words.join('-').includes('workflow-run')) return 0;
  if (words.some((w) => RELEASE_WORDS.test(w))) return 1;
  return 2;
}

/** `paths` in reading order: by `readingRank`, the listing's order within a rank. */
export function readingOrder(paths: readonly string[]): string[] {
  return paths.map((path, i) => ({ path, i, rank: readingRank(path) })).sort((a, b) => a.rank - b.rank || a.i - b.i).map((e) => e.path);
}
