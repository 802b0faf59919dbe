/**
 * The last check every reader's dependencies pass (through `defineReader`): a dependency the
 * audit could not evaluate as written is skipped with a note, whatever reader produced it —
 * a name its registry could not serve (empty, spaces or control characters in it, an npm name
 * npm never accepted, a PyPI name outside PEP 508), or an empty or multi-word version.
 * Evaluating such an entry would ask the registry about another package, or about the latest
 * release instead of the one the file pins. It also takes the credentials out of where an entry
 * resolves from (`https://user:token@index/simple`, `…?token=…`: a private index or registry URL
 * in a requirements file, a Poetry or Pipfile source, a lockfile's `resolved`), so that the
 * audit's report, warnings and store never carry them (docs/security.md).
 *
 * A name or version longer than any its registry accepts (NAME_MAX_LENGTH, VERSION_MAX_LENGTH) is not a package
 * the registry could serve, yet the package manager installs what the entry pins: it is listed as
 * code nerq cannot place (a remote entry, the run incomplete), its name shortened wherever it is
 * shown, and never asked about (docs/security.md, "Names that lie").
 */
import { isModuleEcosystem } from '../ecosystems/osv-ecosystems.js';
import { packageRulesOf } from '../ecosystems/rules.js';
import type { DeclaredDependency, SkippedEntry } from '../audit/types.js';
import { withoutCredentials } from '../util/url-credentials.js';
import { skippedEntry, sourceHost, unplacedSource } from './source-kind.js';
import { quote } from './text.js';
import type { ParsedInput } from './types.js';

/** A version is one token: no space, no control or format character. */
const VERSION = /^[^\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+$/;

/** The longest name any registry nerq reads accepts (npm's 214; PyPI's is held to it too). */
const NAME_MAX_LENGTH = 214;

/** The longest version any registry nerq reads serves (npm's semver refuses more than 256 characters). */
const VERSION_MAX_LENGTH = 256;

/** How much of an over-long name is shown. */
const SHOWN_NAME_LENGTH = 64;

/** An over-long name as shown: its start, an ellipsis and its length. */
export function shortenedName(name: string): string {
  return name.length <= NAME_MAX_LENGTH ? name : `${name.slice(0, SHOWN_NAME_LENGTH)}… (${name.length} characters)`;
}

/** Why a dependency cannot be evaluated as written, or null. */
export function invalidDependency(dependency: DeclaredDependency): string | null {
  const { ecosystem, name, version } = dependency;
  // go.mod and Cargo.lock pins were held to their module path / crate name and version syntax by their readers.
  if (isModuleEcosystem(ecosystem)) return null;
  const { registry } = packageRulesOf(ecosystem);
  if (!registry.validName(name)) return registry.invalidNameNote;
  if (version !== null && version.length > VERSION_MAX_LENGTH) return 'a version longer than any registry serves';
  if (version !== null && !VERSION.test(version)) return 'not a valid version';
  return null;
}

/** The input with its invalid dependencies moved to the notes. */
export function keepValidDependencies(input: ParsedInput): ParsedInput {
  const dependencies: DeclaredDependency[] = [];
  const notes = [...input.notes];
  const skipped = [...(input.skipped ?? [])];
  let changed = false;
  for (const dependency of input.dependencies) {
    const why = invalidDependency(dependency);
    if (why === null) {
      const resolved = dependency.resolved === null ? null : withoutCredentials(dependency.resolved);
      changed ||= resolved !== dependency.resolved;
      dependencies.push(resolved === dependency.resolved ? dependency : { ...dependency, resolved });
    } else {
      const note = `${dependency.file}:${dependency.line ?? '?'}: ${quote(dependency.name)}${dependency.version === null ? '' : ` ${quote(dependency.version)}`} skipped: ${why}`;
      notes.push(note);
      if (dependency.name.length > NAME_MAX_LENGTH || (dependency.version?.length ?? 0) > VERSION_MAX_LENGTH) skipped.push(overLong(dependency, note));
    }
  }
  if (skipped.length > (input.skipped?.length ?? 0)) return { ...input, dependencies, notes, skipped };
  return dependencies.length === input.dependencies.length && !changed ? input : { ...input, dependencies, notes };
}

/** An entry whose name or version is longer than any registry's: code nerq cannot place, fetched from its `resolved` host when it names one. */
function overLong(dependency: DeclaredDependency, note: string): SkippedEntry {
  const resolved = dependency.resolved === null ? null : withoutCredentials(dependency.resolved);
  const host = resolved === null ? null : sourceHost(resolved);
  const source = unplacedSource(`${shortenedName(dependency.name)}${dependency.version === null ? '' : `@${dependency.version.slice(0, SHOWN_NAME_LENGTH)}`}`);
  return skippedEntry(dependency.ecosystem, shortenedName(dependency.name), dependency.file, dependency.line, { ...source, host }, note, { direct: dependency.direct, dev: dependency.dev });
}
