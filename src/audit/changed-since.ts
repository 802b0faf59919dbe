/**
 * `--changed-since <ref>` (the pull-request mode): only what was added or changed since a git
 * revision is evaluated. Each input file is read as it was at the revision (`git show
 * <commit>:./<path>`) and parsed like the working copy; a subject is kept when its name and
 * version (or, unpinned, its specifier) appear in none of the inputs at the revision. A file
 * that did not exist at the revision, or could not be parsed there, contributes nothing, so
 * all of its dependencies count as new.
 *
 * git runs without a shell, with an argument list, in the audited directory (`-C`), and
 * never with a revision that could read as an option.
 */
import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { subjectKey } from './fold.js';
import { readInputText } from '../lockfiles/index.js';
import type { AuditSubject, SkippedEntry } from './types.js';
import { LockfileError } from './types.js';

export class ChangedSinceError extends Error {
  override name = 'ChangedSinceError';
}

/** Largest file read from git (the working-copy limit). */
const MAX_BYTES = 50 * 1024 * 1024;
const GIT_TIMEOUT_MS = 60_000;
/** Settings that keep git from running anything configured in the repository. */
const SAFE = ['-c', 'core.fsmonitor=false'];
const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };

interface GitResult {
  code: number;
  stdout: string;
}

function git(dir: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-C', dir, ...SAFE, ...args],
      { encoding: 'utf8', maxBuffer: MAX_BYTES + 1024, timeout: GIT_TIMEOUT_MS, env: GIT_ENV, windowsHide: true },
      (error, stdout) => {
        if (error === null) return resolve({ code: 0, stdout });
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return reject(new ChangedSinceError('--changed-since needs git, which was not found on PATH'));
        if (typeof code === 'number') return resolve({ code, stdout });
        if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(new ChangedSinceError('--changed-since: a file at the revision is larger than 50 MB'));
        reject(new ChangedSinceError(`--changed-since: git failed (${error.killed ? 'timed out' : (code ?? 'error')})`));
      },
    );
  });
}

/** A file at the revision, synchronously (for requirements includes, read while parsing); null when absent. */
function showSync(dir: string, commit: string, file: string): string | null {
  const result = spawnSync('git', ['-C', dir, ...SAFE, 'show', `${commit}:./${file}`], {
    encoding: 'utf8',
    maxBuffer: MAX_BYTES + 1024,
    timeout: GIT_TIMEOUT_MS,
    env: GIT_ENV,
    windowsHide: true,
  });
  return result.status === 0 ? result.stdout : null;
}

/**
 * The commit `ref` names in the git work tree holding `dir`. Throws `ChangedSinceError` when
 * `dir` is not in a git work tree or `ref` is not a revision of it.
 */
export async function resolveRevision(dir: string, ref: string): Promise<string> {
  const root = path.resolve(dir);
  if (ref.trim() === '' || ref.startsWith('-') || /[\u0000-\u001f]/.test(ref)) {
    throw new ChangedSinceError(`--changed-since: ${JSON.stringify(ref.slice(0, 80))} is not a git revision`);
  }
  const inside = await git(root, ['rev-parse', '--is-inside-work-tree']);
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') throw new ChangedSinceError('--changed-since: the audited directory is not in a git repository');
  const resolved = await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  const commit = resolved.stdout.trim();
  if (resolved.code !== 0 || !/^[0-9a-f]{40,64}$/.test(commit)) {
    throw new ChangedSinceError(`--changed-since: ${JSON.stringify(ref.slice(0, 80))} is not a revision of this repository`);
  }
  return commit;
}

/** A file as it is at a commit: its text, or why there is none to read. */
export type FileAtRevision =
  | { kind: 'file'; text: string }
  | { kind: 'missing' }
  | { kind: 'not-a-file' }
  | { kind: 'too-large' };

/**
 * `file` (relative to the repository root `root`, `/`-separated) as it is at `commit`. A symbolic
 * link, a submodule or a folder there is `not-a-file`: its target is never followed.
 */
export async function fileAtRevision(root: string, commit: string, file: string, maxBytes: number): Promise<FileAtRevision> {
  const listed = await git(root, ['ls-tree', '-l', '-z', '--full-tree', commit, '--', file]);
  if (listed.code !== 0) return { kind: 'missing' };
  // `<mode> <type> <object> <size>\t<path>\0`
  const entry = /^(\d+) (\w+) [0-9a-f]+ +(\d+|-)\t([^\0]*)\0?$/.exec(listed.stdout);
  if (entry === null || entry[4] !== file) return { kind: 'missing' };
  if (entry[2] !== 'blob' || (entry[1] !== '100644' && entry[1] !== '100755')) return { kind: 'not-a-file' };
  if (Number(entry[3]) > maxBytes) return { kind: 'too-large' };
  const shown = await git(root, ['show', `${commit}:${file}`]);
  return shown.code === 0 ? { kind: 'file', text: shown.stdout } : { kind: 'missing' };
}

/**
 * A filter keeping the subjects that are new or changed since `ref`, for the input files
 * `files` (relative to `dir`). Throws `ChangedSinceError` when `dir` is not in a git work tree
 * or `ref` is not a revision of it.
 */
/** Whether a subject is new or changed since the ref; `remote`: the same for an entry no registry serves (by ecosystem, name and source). */
export type ChangedFilter = ((subject: AuditSubject) => boolean) & { remote: (entry: SkippedEntry) => boolean };

const remoteKey = (entry: SkippedEntry) => `${entry.ecosystem}\u0000${entry.name ?? ''}\u0000${entry.source}`;

export async function changedSince(dir: string, ref: string, files: readonly string[]): Promise<ChangedFilter> {
  const root = path.resolve(dir);
  const commit = await resolveRevision(root, ref);

  const before = new Set<string>();
  for (const given of files) {
    const file = path.relative(root, path.resolve(root, given)).split(path.sep).join('/');
    const exists = await git(root, ['cat-file', '-e', `${commit}:./${file}`]);
    if (exists.code !== 0) continue;
    const shown = await git(root, ['show', `${commit}:./${file}`]);
    if (shown.code !== 0) continue;
    try {
      const parsed = readInputText(shown.stdout, file, { readInclude: (include) => showSync(root, commit, include) });
      for (const dependency of parsed.dependencies) before.add(subjectKey(dependency));
      for (const entry of parsed.skipped ?? []) if (entry.kind === 'remote') before.add(remoteKey(entry));
    } catch (error) {
      // Unparseable at the revision: as if absent, so everything in it is evaluated.
      if (!(error instanceof LockfileError)) throw error;
    }
  }
  return Object.assign((subject: AuditSubject) => !before.has(subjectKey(subject)), { remote: (entry: SkippedEntry) => !before.has(remoteKey(entry)) });
}
