/**
 * What every input reader shares: the optional context a reader may use (sibling manifests,
 * requirement includes) and the result it returns. Readers are pure: all I/O happens in
 * `src/audit/detect.ts`, which hands readers the texts they need.
 */
import type { AuditWarning, InputFile, SkippedEntry } from '../audit/types.js';

export interface InputContext {
  /**
   * Texts of manifests next to the input, by path relative to the audited directory
   * (`/`-separated): the root `package.json` and every workspace's `package.json` for npm-family
   * lockfiles, `pyproject.toml` / `Pipfile` for Python lockfiles. They decide which
   * dependencies are direct or dev where the lockfile alone does not say, and give the line
   * a workspace's direct dependency is declared on.
   */
  manifests?: Readonly<Record<string, string>>;
  /**
   * For requirements files: the text of an `-r` / `-c` include, by path relative to the
   * audited directory (already resolved against the including file); null when it cannot be
   * read. May throw a `LockfileError` (e.g. a path outside the audited directory).
   */
  readInclude?: (path: string) => string | null;
  /**
   * For npm-family inputs: the texts of the package manager's settings files beside the input
   * (`pnpm-workspace.yaml`, `.yarnrc.yml`, `.yarnrc`, `.npmrc`), by path relative to the audited directory
   * (install-settings.ts reads what they change in what is installed).
   */
  settings?: Readonly<Record<string, string>>;
  /** Settings files beside the input that exist but could not be read (a link out of the tree, too large…): path → why. */
  unreadSettings?: Readonly<Record<string, string>>;
  /** For pnpm inputs: the default pnpmfiles present beside the input (install-settings.ts), by path; never read. */
  hooks?: readonly string[];
}

/** A reader's result: the input file plus the notes about what it skipped and why (one line each). */
export interface ParsedInput extends InputFile {
  notes: string[];
  /** The entries skipped because no registry serves them, remote or local (source-kind.ts); each also has its note. */
  skipped?: SkippedEntry[];
  /**
   * Coded warnings about the input as a whole: a pnpmfile, or a yarn plugin or release or a program
   * `.npmrc` names from outside the project (`unvouched-hook`), a package extension
   * (`package-extension`), a yarn plugin (`yarn-plugin`) or release (`yarn-release`) or a program
   * `.npmrc` names (`npmrc-program`) in the tree, a `--hash` pip can match nothing
   * against (`hash-unreadable`). Those of
   * OUTCOME_FINDINGS decide the outcome (src/audit/types.ts).
   */
  findings?: AuditWarning[];
}

/** One reader: pure, throws only `LockfileError`. */
export type InputReader = (text: string, file: string, context?: InputContext) => ParsedInput;
