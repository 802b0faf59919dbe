/**
 * The policy a pull request cannot rewrite (docs/security.md). In pull-request mode
 * (`--changed-since REF`) the checkout is the pull request's, and so is its policy file: the
 * change that adds a bad dependency could lower `minScore` or add an ignore entry. So the policy
 * is read as it is at the base revision (`git show <commit>:<path>`, found by the same search
 * as in the working copy), and any difference in the checkout is reported as a change of its
 * own. `--policy-from-head` keeps reading the checkout's policy.
 *
 * At the revision, a symbolic link, a submodule or an oversized file is refused like in the
 * working copy (it is never followed). A `--policy` file outside the repository is not the pull
 * request's to change: it is read from disk.
 */
import path from 'node:path';
import { fileAtRevision } from './changed-since.js';
import { MAX_POLICY_BYTES, parseJsonText, PolicyError, WORKING_COPY, type LoadedPolicy, type PolicyFile, type PolicyFiles } from './policy-load.js';
import { namedInside } from './tree-file.js';

/** Policy files as they are at `commit` of the repository whose work tree is `tree`. */
export function filesAtRevision(tree: string, commit: string, ref: string): PolicyFiles {
  const inRepository = (file: string): string | null => {
    if (!namedInside(tree, file)) return null;
    const relative = path.relative(tree, file).split(path.sep).join('/');
    return relative === '' ? null : relative;
  };
  return {
    exists: async (file) => {
      const relative = inRepository(file);
      if (relative === null) return WORKING_COPY.exists(file);
      return (await fileAtRevision(tree, commit, relative, MAX_POLICY_BYTES)).kind !== 'missing';
    },
    json: async (file, label, boundary) => {
      const relative = inRepository(file);
      if (relative === null) return WORKING_COPY.json(file, label, boundary);
      const read = await fileAtRevision(tree, commit, relative, MAX_POLICY_BYTES);
      const at = `at ${ref}`;
      if (read.kind === 'missing') throw new PolicyError(label, null, `no such file ${at}`);
      if (read.kind === 'not-a-file') throw new PolicyError(label, null, `not a regular file ${at} (a symbolic link or a submodule is not followed)`);
      if (read.kind === 'too-large') throw new PolicyError(label, null, `larger than ${MAX_POLICY_BYTES / 1024 / 1024} MiB ${at}`);
      return parseJsonText(read.text, `${label} ${at}`);
    },
    // Nothing above the repository is the revision's.
    isTop: async (dir) => path.resolve(dir) === path.resolve(tree),
  };
}

/** The settings of a policy, without where it came from: what decides a verdict. */
function settings(policy: PolicyFile | null): Record<string, unknown> | null {
  if (policy === null) return null;
  const { source: _source, ...rest } = policy;
  return rest;
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * What the checkout changes in the policy since the base (one line), or null when it changes
 * nothing that decides a verdict.
 */
export function policyChange(base: LoadedPolicy, head: LoadedPolicy, ref: string): string | null {
  const before = settings(base.policy);
  const after = settings(head.policy);
  if (canonical(before) === canonical(after) && base.source === head.source) return null;
  let what: string;
  if (before === null) what = `adds a policy (${head.source})`;
  else if (after === null) what = `removes the policy (${base.source})`;
  else {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort().filter((key) => canonical(before[key]) !== canonical(after[key]));
    const moved = base.source === head.source ? '' : ` and moves it from ${base.source} to ${head.source}`;
    what = keys.length === 0 ? `moves the policy from ${base.source} to ${head.source}` : `changes ${keys.join(', ')} in the policy (${head.source})${moved}`;
  }
  return `policy-changed: the checkout ${what} since ${ref}: the policy at ${ref} applies (--policy-from-head applies the checkout's)`;
}
