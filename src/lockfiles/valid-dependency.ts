/**
 * The last check every reader's dependencies pass (through `defineReader`): a dependency the
 * audit could not evaluate as written is skipped with a note, whatever reader produced it —
 * a name its registry could not serve (empty, spaces or control characters in it, an npm name
 * npm never accepted, a PyPI name outside PEP 508), or an empty or multi-word version.
 * Evaluating such an entry would ask the registry about another package, or about the latest
 * release instead of the one the file pins.
 */
import { packageRulesOf } from '../ecosystems/rules.js';
import type { DeclaredDependency } from '../audit/types.js';
import { quote } from './text.js';
import type { ParsedInput } from './types.js';

/** A version is one token: no space, no control or format character. */
const VERSION = /^[^\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+$/;

/** Why a dependency cannot be evaluated as written, or null. */
export function invalidDependency(dependency: DeclaredDependency): string | null {
  const { ecosystem, name, version } = dependency;
  const { registry } = packageRulesOf(ecosystem);
  if (!registry.validName(name)) return registry.invalidNameNote;
  if (version !== null && !VERSION.test(version)) return 'not a valid version';
  return null;
}

/** The input with its invalid dependencies moved to the notes. */
export function keepValidDependencies(input: ParsedInput): ParsedInput {
  const dependencies: DeclaredDependency[] = [];
  const notes = [...input.notes];
  for (const dependency of input.dependencies) {
    const why = invalidDependency(dependency);
    if (why === null) dependencies.push(dependency);
    else notes.push(`${dependency.file}:${dependency.line ?? '?'}: ${quote(dependency.name)}${dependency.version === null ? '' : ` ${quote(dependency.version)}`} skipped: ${why}`);
  }
  return dependencies.length === input.dependencies.length ? input : { ...input, dependencies, notes };
}
