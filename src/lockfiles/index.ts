/**
 * The input readers by file name, and one entry point that picks the right one. Every reader
 * is pure (`(text, file, context?) => ParsedInput`) and throws only `LockfileError`.
 */
import { LockfileError } from '../audit/types.js';
import { readBunLock } from './bun-lock.js';
import { readCycloneDx } from './cyclonedx.js';
import { readPackageJson } from './package-json.js';
import { readPackageLock } from './package-lock.js';
import { readPdmLock } from './pdm-lock.js';
import { readPipfileLock } from './pipfile-lock.js';
import { readPnpmLock } from './pnpm-lock.js';
import { readPoetryLock } from './poetry-lock.js';
import { readPyproject } from './pyproject.js';
import { readRequirements } from './requirements.js';
import { readSpdx } from './spdx.js';
import { baseName } from './text.js';
import type { InputContext, InputReader, ParsedInput } from './types.js';
import { readUvLock } from './uv-lock.js';
import { readYarnLock } from './yarn-lock.js';

export {
  readBunLock,
  readCycloneDx,
  readPackageJson,
  readPackageLock,
  readPdmLock,
  readPipfileLock,
  readPnpmLock,
  readPoetryLock,
  readPyproject,
  readRequirements,
  readSpdx,
  readUvLock,
  readYarnLock,
};
export type { InputContext, InputReader, ParsedInput } from './types.js';

const BY_NAME: Record<string, InputReader> = {
  'package-lock.json': readPackageLock,
  'npm-shrinkwrap.json': readPackageLock,
  'pnpm-lock.yaml': readPnpmLock,
  'yarn.lock': readYarnLock,
  'bun.lock': readBunLock,
  'package.json': readPackageJson,
  'poetry.lock': readPoetryLock,
  'uv.lock': readUvLock,
  'pdm.lock': readPdmLock,
  'Pipfile.lock': readPipfileLock,
  'pyproject.toml': readPyproject,
};

/** The reader a file's name calls for (any `.txt` / `.in` is a requirements file), or null. */
export function readerForName(file: string): InputReader | null {
  const name = baseName(file);
  const known = BY_NAME[name];
  if (known !== undefined) return known;
  if (/\.(txt|in)$/i.test(name)) return readRequirements;
  return null;
}

/**
 * The module files nerq reads for a repository target (docs/scoring.md, "Repository targets") but
 * the audit does not read yet: there is no Go module or crates.io registry adapter to evaluate
 * their dependencies as packages. Found beside the inputs, they leave the run incomplete
 * (audit/report.ts); found alone, there is nothing to audit (app/audit.ts); named, they are refused.
 */
export const UNAUDITED_INPUTS: Readonly<Record<string, string>> = { 'go.mod': 'Go modules', 'Cargo.lock': 'crates' };

/** Why `nerq audit` refuses go.mod and Cargo.lock (UNAUDITED_INPUTS), and what reads them. */
export const UNAUDITED_MODULES =
  'nerq audit does not read go.mod or Cargo.lock yet (no Go module or crates.io registry adapter to evaluate them as packages); `nerq check github:owner/repo` checks the Go modules and crates a repository pins against OSV';

/** The reader for a file, by name, else (for `.json`) by content: CycloneDX or SPDX. */
export function readerFor(file: string, text: string): InputReader {
  const name = baseName(file);
  if (name === 'bun.lockb') throw new LockfileError(file, null, 'the binary bun.lockb cannot be read: run `bun install --save-text-lockfile` and audit bun.lock');
  if (name === 'go.mod' || name === 'Cargo.lock') throw new LockfileError(file, null, UNAUDITED_MODULES);
  const byName = readerForName(file);
  if (byName !== null) return byName;
  if (/\.json$/i.test(name)) {
    const sample = text.slice(0, 1_000_000);
    if (/\.cdx\.json$/i.test(name) || /"bomFormat"\s*:\s*"CycloneDX"/.test(sample)) return readCycloneDx;
    if (/\.spdx\.json$/i.test(name) || /"spdxVersion"\s*:/.test(sample)) return readSpdx;
  }
  throw new LockfileError(
    file,
    null,
    'not a supported input (lockfile, package.json, requirements, pyproject.toml, CycloneDX or SPDX JSON)',
  );
}

/** Read one input file with the reader its name (or content) calls for. */
export function readInputText(text: string, file: string, context?: InputContext): ParsedInput {
  return readerFor(file, text)(text, file, context);
}
