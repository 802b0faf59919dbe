/**
 * How a PyPI project is written as a target (docs/architecture.md, "Add an ecosystem"):
 * `pypi:name[specifier]` and `pkg:pypi/name[@version]`; the name is PEP 503 normalised.
 */
import * as pep440 from '@renovatebot/pep440';
import { fail, quoteForMessage } from '../../target/syntax.js';
import type { PurlParts, Target } from '../../target/types.js';
import type { TargetSyntax } from '../types.js';
import { pep503 } from './name.js';

/** PEP 508 project name. */
const PEP508_NAME = /^(?:[A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;
/** One PEP 440 specifier clause; the version part is kept to PEP 440's characters. */
const PEP440_CLAUSE = /^ *(?:===|~=|==|!=|<=|>=|<|>) *[0-9A-Za-z.*+!-]+ *$/;

function assertPypiName(name: string): void {
  if (name === '') fail('missing PyPI project name (expected pypi:name)');
  if (!PEP508_NAME.test(name)) {
    fail(
      `invalid PyPI project name ${quoteForMessage(name)}: letters, digits, ".", "_" and "-", starting and ending with a letter or digit`,
    );
  }
}

function assertPep440Specifier(spec: string): void {
  // The character check first (it keeps hostile text away from the parser), then PEP 440's
  // own grammar: `==two` has only allowed characters but names no version.
  if (!/^[0-9A-Za-z.*+!,<>=~ -]+$/.test(spec) || !spec.split(',').every((c) => PEP440_CLAUSE.test(c)) || !validPep440Range(spec)) {
    fail(`invalid version specifier ${quoteForMessage(spec)} (expected e.g. ==2.31.0 or >=2,<3)`);
  }
}

function validPep440Range(spec: string): boolean {
  try {
    return pep440.validRange(spec);
  } catch {
    return false;
  }
}

/** `name` or `name<specifier>`, e.g. `requests==2.31.0`. */
function parsePypi(input: string, text: string): Target {
  const name = /^[A-Za-z0-9._-]*/.exec(text)?.[0] ?? '';
  assertPypiName(name);
  const spec = text.slice(name.length).trim();
  if (spec === '') return { input, ecosystem: 'pypi', name: pep503(name) };
  if (spec.startsWith('@')) fail(`use pypi:${name}==version to pin a PyPI version, not "@"`);
  // `name[extra]`: the extras a requirement selects are optional dependencies, not the project.
  if (spec.startsWith('[')) fail(`extras such as ${quoteForMessage(spec.slice(0, spec.indexOf(']') + 1 || spec.length))} are not a target: check pypi:${name}, and the packages an extra adds by their own names`);
  if (spec.startsWith(';')) fail(`environment markers are not a target: check pypi:${name}`);
  assertPep440Specifier(spec);
  return { input, ecosystem: 'pypi', name: pep503(name), spec };
}

/** `pkg:pypi/name[@version]`: the version is pinned with `==`. */
function parsePypiPurl(input: string, { namespace, name, version }: PurlParts): Target {
  if (namespace !== undefined) fail('a PyPI package URL has no namespace (expected pkg:pypi/name@version)');
  assertPypiName(name);
  if (version === undefined) return { input, ecosystem: 'pypi', name: pep503(name) };
  const spec = `==${version}`;
  if (version.includes(',') || version.includes(' ')) fail(`invalid PyPI version ${quoteForMessage(version)}`);
  assertPep440Specifier(spec);
  return { input, ecosystem: 'pypi', name: pep503(name), spec };
}

export const PYPI_TARGET_SYNTAX: TargetSyntax = {
  prefixed: parsePypi,
  purl: parsePypiPurl,
  purlName: (name) => ({ namespace: undefined, base: pep503(name) }),
};
