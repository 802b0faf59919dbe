/**
 * Finding and reading the policy (I/O). The file comes from the audited tree, which a pull
 * request controls: it is parsed as data, size-capped, and every message quoting it is
 * sanitised. Discovery walks from the audited directory up to the repository root (the
 * directory holding `.git`) or the filesystem root; in each directory `.nerqrc.json` wins
 * over a `"nerq"` key in package.json.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { sanitizeForTerminal } from '../render/sanitize.js';
import { describeIssue, PolicyFileSchema, type PolicyFileContent } from './policy-schema.js';
import { namedInside, readTreeFile, repositoryRoot } from './tree-file.js';

export const POLICY_FILE = '.nerqrc.json';
/** Real policies are a few KiB; package.json files of big monorepos stay well under this. */
export const MAX_POLICY_BYTES = 4 * 1024 * 1024;

/** A malformed or unreadable policy: bad input (exit 2). The one-line message names the file and key. */
export class PolicyError extends Error {
  override name = 'PolicyError';
  readonly file: string;
  readonly key: string | null;

  constructor(
    file: string,
    key: string | null,
    detail: string,
  ) {
    super(sanitizeForTerminal(`${file}: ${key === null || key === '' ? '' : `${key}: `}${detail}`));
    this.file = file;
    this.key = key;
  }
}

/** A policy as read from its file, with where it came from. */
export interface PolicyFile extends PolicyFileContent {
  /** The file as shown to users: relative to the audited directory (`.nerqrc.json`, `../package.json#nerq`) or as given to --policy. */
  source: string;
}

export interface LoadedPolicy {
  /** Null when no policy file was found (defaults and flags apply). */
  policy: PolicyFile | null;
  source: string | null;
}

const toSlash = (p: string): string => p.split(path.sep).join('/');

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The file's JSON. `boundary`: the directory it must resolve inside (tree-file.ts), null for a
 * file the user named outside the tree.
 */
async function readJson(file: string, label: string, boundary: string | null): Promise<unknown> {
  const read = await readTreeFile(file, boundary, MAX_POLICY_BYTES);
  if (read.kind === 'outside') throw new PolicyError(label, null, 'resolves (through a symbolic link) outside the audited directory: not read');
  if (read.kind === 'not-a-file') throw new PolicyError(label, null, 'not a regular file');
  if (read.kind === 'too-large') throw new PolicyError(label, null, `larger than ${MAX_POLICY_BYTES / 1024 / 1024} MiB`);
  if (read.kind === 'missing') throw new PolicyError(label, null, 'no such file');
  if (read.kind === 'error') throw new PolicyError(label, null, `cannot be read (${read.code})`);
  return parseJsonText(read.text, label);
}

/** Policy JSON text (a BOM allowed); PolicyError naming the line and column when it is not JSON. */
export function parseJsonText(text: string, label: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new PolicyError(label, null, `invalid JSON${jsonErrorLocation(text, error)}`);
  }
}

/**
 * Where policy files are read from: the working copy (here), or the files as they are at a git
 * revision (policy-at-revision.ts). `json` throws PolicyError; `isTop` ends the upward search.
 */
export interface PolicyFiles {
  exists(file: string): Promise<boolean>;
  json(file: string, label: string, boundary: string | null): Promise<unknown>;
  isTop(dir: string): Promise<boolean>;
}

export const WORKING_COPY: PolicyFiles = {
  exists,
  json: readJson,
  // The repository root ends the search: a policy above it belongs to something else.
  isTop: (dir) => exists(path.join(dir, '.git')),
};

/** ` at line 3 column 5` from V8's JSON error (it gives a character position). */
function jsonErrorLocation(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const line = /line (\d+) column (\d+)/.exec(message);
  if (line !== null) return ` at line ${line[1]} column ${line[2]}`;
  const position = /position (\d+)/.exec(message);
  if (position?.[1] === undefined) return '';
  const before = text.slice(0, Number(position[1]));
  const lines = before.split('\n');
  return ` at line ${lines.length} column ${(lines.at(-1)?.length ?? 0) + 1}`;
}

/** Validate parsed JSON as a policy; `keyPrefix` is `nerq` for package.json. */
export function parsePolicy(data: unknown, file: string, keyPrefix = ''): PolicyFileContent {
  const result = PolicyFileSchema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new PolicyError(file, keyPrefix || null, 'invalid policy');
  const { path: key, message } = describeIssue(issue);
  const full = keyPrefix === '' ? key : key === '' ? keyPrefix : `${keyPrefix}.${key}`;
  throw new PolicyError(file, full || null, message);
}

/** The `"nerq"` key of a package.json, or null when it has none. */
async function fromPackageJson(files: PolicyFiles, file: string, label: string, boundary: string | null): Promise<PolicyFile | null> {
  const data = await files.json(file, label, boundary);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new PolicyError(label, null, 'expected a JSON object');
  }
  if (!Object.hasOwn(data, 'nerq')) return null;
  const policy = parsePolicy((data as Record<string, unknown>).nerq, label, 'nerq');
  return { ...policy, source: `${label}#nerq` };
}

async function fromPolicyFile(files: PolicyFiles, file: string, label: string, boundary: string | null): Promise<PolicyFile> {
  return { ...parsePolicy(await files.json(file, label, boundary), label), source: label };
}

/**
 * The policy for an audit of `dir`: `explicitFile` (--policy; a package.json there is read
 * for its `"nerq"` key) or the nearest one found from `dir` upwards, read from `files` (the
 * working copy by default). Throws PolicyError.
 */
export async function loadPolicy(dir: string, explicitFile?: string, files: PolicyFiles = WORKING_COPY): Promise<LoadedPolicy> {
  const root = path.resolve(dir);
  // The checkout a pull request controls: a policy in it must resolve inside it (tree-file.ts).
  const tree = repositoryRoot(root) ?? root;
  if (explicitFile !== undefined) {
    const file = path.resolve(explicitFile);
    const label = toSlash(explicitFile);
    const boundary = namedInside(tree, file) ? tree : null;
    if (path.basename(file) === 'package.json') {
      const policy = await fromPackageJson(files, file, label, boundary);
      if (policy === null) throw new PolicyError(label, 'nerq', 'required: the file has no "nerq" key');
      return { policy, source: policy.source };
    }
    const policy = await fromPolicyFile(files, file, label, boundary);
    return { policy, source: policy.source };
  }

  let current = root;
  for (;;) {
    const label = (name: string) => toSlash(path.relative(root, path.join(current, name)));
    // Inside the checkout, the checkout bounds it; above it (no repository), the file's own folder.
    const boundary = namedInside(tree, current) ? tree : current;
    const rc = path.join(current, POLICY_FILE);
    if (await files.exists(rc)) {
      const policy = await fromPolicyFile(files, rc, label(POLICY_FILE), boundary);
      return { policy, source: policy.source };
    }
    const pkg = path.join(current, 'package.json');
    if (await files.exists(pkg)) {
      const policy = await fromPackageJson(files, pkg, label('package.json'), boundary);
      if (policy !== null) return { policy, source: policy.source };
    }
    const parent = path.dirname(current);
    if (parent === current || (await files.isTop(current))) return { policy: null, source: null };
    current = parent;
  }
}
