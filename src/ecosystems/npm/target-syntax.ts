/**
 * How an npm package is written as a target (docs/architecture.md, "Add an ecosystem"): `name`,
 * `name@spec`, `@scope/pkg@spec` (bare or after `npm:`) and `pkg:npm/…@version`.
 */
import npa from 'npm-package-arg';
import semver from 'semver';
import validateNpmName from 'validate-npm-package-name';
import { fail, quoteForMessage, scopeIfAt } from '../../target/syntax.js';
import type { PurlParts, Target } from '../../target/types.js';
import { withoutCredentials } from '../../util/url-credentials.js';
import { gitUrlOfGithub, githubTargetOf } from '../github/target-syntax.js';
import type { TargetSyntax } from '../types.js';

/** npm-package-arg's test for scp-style git URLs (`git@host:owner/repo`). */
const SCP_GIT_URL = /^[^@]+@[^:.]+\.[^:]+:.+$/;

const REGISTRY_SPEC_TYPES = new Set(['tag', 'version', 'range']);

const SPEC_TYPE_REASONS: Record<string, string> = {
  git: 'git sources are not supported, only registry versions',
  file: 'local files are not supported, only registry versions',
  directory: 'local paths are not supported, only registry versions',
  remote: 'tarball URLs are not supported, only registry versions',
  alias: 'npm: aliases are not supported; name the real package instead',
};

/** Validate an npm package name (names valid for existing packages, e.g. `JSONStream`). */
function assertNpmName(name: string): void {
  if (name === '') fail('missing npm package name');
  if (name.includes('%')) fail(`invalid npm package name ${quoteForMessage(name)}: percent-encoding is not allowed`);
  const result = validateNpmName(name);
  if (result.validForOldPackages) return;
  if (!name.startsWith('@') && name.includes('/')) {
    // `owner/repo` is npm's GitHub shorthand, and a scope without its `@` too: not guessed, the target named.
    const [owner = '', repo = '', ...more] = name.split('/');
    const suggested = more.length === 0 ? githubTargetOf(owner, repo) : null;
    fail(`${quoteForMessage(name)} is not an npm package name (for a GitHub repository use ${suggested ?? 'github:owner/repo'})`);
  }
  fail(`invalid npm package name ${quoteForMessage(name)}: ${(result.errors ?? ['not a valid name']).join('; ')}`);
}

/** `name`, `name@spec` or `@scope/name@spec`; the split is npm-package-arg's (first `@` after index 0). */
export function parseNpm(input: string, text: string): Target {
  if (SCP_GIT_URL.test(text)) {
    gitUrlOfGithub(text, text);
    fail(`${quoteForMessage(withoutCredentials(text))}: git sources are not supported, only registry versions`);
  }
  const at = text.indexOf('@', 1);
  const name = at > 0 ? text.slice(0, at) : text;
  assertNpmName(name);
  if (at < 0) return { input, ecosystem: 'npm', name };
  const spec = text.slice(at + 1).trim();
  if (spec === '') fail(`missing version, range or dist-tag after "@" in ${quoteForMessage(text)}`);
  let type: string;
  try {
    type = npa.resolve(name, spec, '/').type;
  } catch {
    return fail(`invalid version, range or dist-tag ${quoteForMessage(spec)} for ${name}`);
  }
  if (!REGISTRY_SPEC_TYPES.has(type)) {
    fail(`${quoteForMessage(spec)}: ${SPEC_TYPE_REASONS[type] ?? 'only registry versions, ranges and dist-tags are supported'}`);
  }
  return { input, ecosystem: 'npm', name, spec };
}

/** `pkg:npm/[scope/]name[@version]`: an exact version only. */
function parseNpmPurl(input: string, { namespace, name, version }: PurlParts): Target {
  const scope = namespace === undefined ? undefined : namespace.startsWith('@') ? namespace : `@${namespace}`;
  const fullName = scope === undefined ? name : `${scope}/${name}`;
  assertNpmName(fullName);
  if (version === undefined) return { input, ecosystem: 'npm', name: fullName };
  if (semver.valid(version) === null) {
    fail(`package URL version ${quoteForMessage(version)} is not an exact npm version`);
  }
  return { input, ecosystem: 'npm', name: fullName, spec: version };
}

export const NPM_TARGET_SYNTAX: TargetSyntax = { prefixed: parseNpm, purl: parseNpmPurl, purlName: scopeIfAt };
