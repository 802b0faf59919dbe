/**
 * The target parser (docs/architecture.md, "Data flow"): the text a user typed → a validated `Target`,
 * before any request is made. Everything that is not clearly a registry package, a PyPI
 * project, a GitHub repository or a package URL for one of those is rejected here with a
 * one-line `TargetError` whose message is safe to print (input is quoted, escaped, truncated).
 *
 * Accepted forms: `express`, `express@5`, `@scope/pkg@^1.2.0`, `npm:express@latest`,
 * `pypi:requests`, `pypi:requests>=2,<3`, `github:owner/repo[@ref]`,
 * `[https://]github.com/owner/repo[.git][/…]`, `pkg:npm|pypi|github/…`,
 * `mcp:namespace/name[@version]`, `mcp:word`.
 */
import * as pep440 from '@renovatebot/pep440';
import hostedGitInfo from 'hosted-git-info';
import npa from 'npm-package-arg';
import semver from 'semver';
import validateNpmName from 'validate-npm-package-name';
import { TargetError } from './types.js';
import type { Ecosystem, Target } from './types.js';
import { pep503 } from '../ecosystems/pypi/name.js';
import { splitPurl, type PurlParts } from './purl.js';
import { withoutCredentials } from '../util/url-credentials.js';

/** npm's limit on a package name; no target form needs more. */
export const MAX_TARGET_LENGTH = 214;

/**
 * Control characters (C0, DEL, C1), format characters (bidi controls, zero-width, BOM, soft
 * hyphen …), lone surrogates, private use, and line/paragraph separators.
 */
const FORBIDDEN_CHAR = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\u2028\u2029]/u;

/**
 * Quote untrusted text for a one-line message: JSON-quoted, everything outside printable
 * ASCII escaped as `\uXXXX`, at most `max` characters of the original shown.
 */
export function quoteForMessage(text: string, max = 60): string {
  const cut = text.length > max ? text.slice(0, max) : text;
  const quoted = JSON.stringify(cut).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return cut.length < text.length ? `${quoted}...` : quoted;
}

function fail(reason: string): never {
  throw new TargetError(reason);
}

function codePointLabel(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Checks shared by the raw input and by every decoded package-URL component. */
function assertSafeText(text: string, what: string): void {
  const bad = FORBIDDEN_CHAR.exec(text);
  if (bad) fail(`${what} contains a control or invisible character (${codePointLabel(bad[0])})`);
  if (text.includes('\\')) fail(`${what} contains a backslash, which no target form allows`);
  if (text.split(/[/@:]/).some((segment) => segment === '.' || segment === '..')) {
    fail(`${what} contains a "." or ".." path segment, which no target form allows`);
  }
}

/** Parse and validate one target. Throws `TargetError` (one line) for anything else. */
export function parseTarget(input: string): Target {
  if (typeof input !== 'string') fail('the target must be a string');
  if (input.trim() === '') fail('the target is empty');
  if (input.length > MAX_TARGET_LENGTH) {
    fail(`the target is too long (${input.length} characters; at most ${MAX_TARGET_LENGTH})`);
  }
  assertSafeText(input, 'the target');
  const text = input.replace(/^ +|(?<! ) +$/g, '');

  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1];
  if (scheme === undefined) {
    if (/^(?:www\.)?github\.com\//i.test(text)) return parseGithubUrl(input, `https://${text}`);
    return parseNpm(input, text);
  }
  const rest = text.slice(scheme.length + 1);
  const prefix = scheme.toLowerCase();
  if (Object.hasOwn(PREFIXES, prefix)) return PREFIXES[prefix as Ecosystem](input, rest);
  switch (prefix) {
    case 'pkg':
      return parsePurlTarget(input, text);
    case 'http':
    case 'https':
      return parseGithubUrl(input, text);
    default:
      gitUrlOfGithub(text, /^(?:www\.)?github\.com$/i.test(scheme) ? `git@github.com:${rest}` : text);
      if (rest.startsWith('//') || /^(?:git|ssh|file|ftp)/i.test(scheme)) {
        fail(`unsupported URL ${quoteForMessage(withoutCredentials(text))}: only https://github.com/owner/repo URLs are accepted`);
      }
      return fail(
        `unknown prefix ${quoteForMessage(`${scheme}:`)} (use a package name, ${Object.keys(PREFIXES).map((id) => `${id}:`).join(', ')} or pkg:)`,
      );
  }
}

/** Each ecosystem's prefix (`npm:`, `pypi:`, `github:`, `mcp:`, any case) and the parser of what follows it. */
const PREFIXES: Record<Ecosystem, (input: string, rest: string) => Target> = {
  npm: parseNpm,
  pypi: parsePypi,
  github: parseGithubShorthand,
  mcp: parseMcp,
};

// ── npm ──────────────────────────────────────────────────────────────────────────────

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
function parseNpm(input: string, text: string): Target {
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

// ── PyPI ─────────────────────────────────────────────────────────────────────────────

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

// ── GitHub ───────────────────────────────────────────────────────────────────────────

const GITHUB_OWNER = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
const GITHUB_REPO = /^[A-Za-z0-9._-]{1,100}$/;
const GITHUB_REF = /^[A-Za-z0-9_][A-Za-z0-9._/-]{0,99}$/;
/** First path segments of github.com that are site pages, not owners. */
const GITHUB_RESERVED = new Set([
  'about', 'apps', 'collections', 'enterprise', 'explore', 'features', 'login', 'marketplace',
  'new', 'notifications', 'orgs', 'organizations', 'pricing', 'search', 'settings', 'site',
  'sponsors', 'topics', 'users',
]);

/** Validate owner and repository; returns the canonical `owner/repo` (case kept, `.git` dropped). */
function githubName(owner: string, repoWithSuffix: string): string {
  if (owner.length < 1 || owner.length > 39 || !GITHUB_OWNER.test(owner)) {
    fail(
      `invalid GitHub owner ${quoteForMessage(owner)}: 1-39 letters, digits or single hyphens, not at either end`,
    );
  }
  if (GITHUB_RESERVED.has(owner.toLowerCase())) fail(`${quoteForMessage(owner)} is a GitHub page, not an owner`);
  const repo = repoWithSuffix.endsWith('.git') ? repoWithSuffix.slice(0, -4) : repoWithSuffix;
  if (!GITHUB_REPO.test(repo) || repo === '.' || repo === '..') {
    fail(`invalid GitHub repository name ${quoteForMessage(repoWithSuffix)}: 1-100 letters, digits, ".", "_" or "-"`);
  }
  return `${owner}/${repo}`;
}

/**
 * A tag, branch or commit sha as git's ref rules allow it (`git check-ref-format`), within the
 * characters GITHUB_REF keeps: no `..`, no component starting with `.` or ending in `.lock`, no
 * empty component, no `.` or `/` at the end.
 */
function assertGitRef(ref: string): void {
  const components = ref.split('/');
  if (
    !GITHUB_REF.test(ref) ||
    ref.includes('..') ||
    ref.endsWith('.') ||
    components.some((c) => c === '' || c.startsWith('.') || c.endsWith('.lock'))
  ) {
    fail(`invalid git ref ${quoteForMessage(ref)}`);
  }
}

/** `github:owner/repo` when `owner` and `repo` are valid GitHub names, else null. */
function githubTargetOf(owner: string, repo: string): string | null {
  try {
    return `github:${githubName(owner, repo)}`;
  } catch {
    return null;
  }
}

/**
 * A git URL naming a GitHub repository (`git+https://github.com/o/r.git`, `git@github.com:o/r.git`,
 * `git://…`, `ssh://git@…`, as package.json `repository` fields write them, read by hosted-git-info;
 * `github.com:o/r` read as `git@github.com:o/r`)
 * is refused with the target that names the repository. It is not taken as that target: as a
 * dependency it installs a commit (`#ref`, else the default branch at install time), and a
 * repository target reads the repository as it is now (README.md, "Targets").
 */
function gitUrlOfGithub(text: string, asGitUrl: string): void {
  let info: ReturnType<typeof hostedGitInfo.fromUrl>;
  try {
    info = hostedGitInfo.fromUrl(asGitUrl);
  } catch {
    return;
  }
  if (info?.type !== 'github' || info.user === '' || info.project === '') return;
  const target = githubTargetOf(info.user, info.project);
  if (target !== null) fail(`${quoteForMessage(withoutCredentials(text))} is a git URL, not a target: for the repository, check ${target}`);
}

/** `github:owner/repo` or `github:owner/repo@ref`. */
function parseGithubShorthand(input: string, text: string): Target {
  if (text.includes('%')) fail('percent-encoding is not allowed in a GitHub target');
  const at = text.indexOf('@');
  const path = at < 0 ? text : text.slice(0, at);
  const parts = path.split('/');
  if (parts.length !== 2) fail(`expected github:owner/repo, got ${quoteForMessage(text)}`);
  const name = githubName(parts[0] ?? '', parts[1] ?? '');
  if (at < 0) return { input, ecosystem: 'github', name };
  const ref = text.slice(at + 1);
  assertGitRef(ref);
  return { input, ecosystem: 'github', name, spec: ref };
}

/** `http(s)://[www.]github.com/owner/repo[.git][/anything]`. */
function parseGithubUrl(input: string, text: string): Target {
  if (text.includes('%')) fail('percent-encoding is not allowed in a GitHub URL');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(`not a valid URL: ${quoteForMessage(text)}`);
  }
  const host = url.hostname.toLowerCase();
  if (host !== 'github.com' && host !== 'www.github.com') {
    fail(`unsupported host ${quoteForMessage(url.hostname)}: only https://github.com/owner/repo URLs are accepted`);
  }
  if (url.username !== '' || url.password !== '' || url.port !== '') {
    fail('a GitHub URL must not carry credentials or a port');
  }
  const segments = url.pathname.split('/').filter((s) => s !== '');
  if (segments.length < 2) fail(`expected https://github.com/owner/repo, got ${quoteForMessage(text)}`);
  return { input, ecosystem: 'github', name: githubName(segments[0] ?? '', segments[1] ?? '') };
}

// ── MCP Registry servers ─────────────────────────────────────────────────────────────

/** The registry's server name (server.schema.json `ServerDetail.name`): `namespace/name`. */
const MCP_SERVER_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
/** A bare word searched for in the registry (`mcp:filesystem`). */
const MCP_SEARCH_WORD = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/;
/** A registry version: an exact version or `latest` (the registry rejects ranges). */
const MCP_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,254}$/;

/**
 * True for a server name nerq accepts: `namespace/name`, the namespace reverse DNS (no leading,
 * trailing or doubled dot), letters, digits, ".", "_" and "-" only, at most 200 characters. The
 * same rule for a name a user types and one a registry search returns (docs/security.md).
 */
export function isMcpServerName(name: string): boolean {
  if (name.length > 200 || !MCP_SERVER_NAME.test(name)) return false;
  const namespace = name.slice(0, name.indexOf('/'));
  return !namespace.startsWith('.') && !namespace.endsWith('.') && !namespace.includes('..');
}

/**
 * `mcp:namespace/name[@version]` (the namespace is reverse DNS: `io.github.owner/server`) or
 * `mcp:word[@version]`, a search in the registry. README.md, "MCP servers".
 */
function parseMcp(input: string, text: string): Target {
  if (text.includes('%')) fail('percent-encoding is not allowed in an MCP server name');
  const at = text.indexOf('@');
  const name = at < 0 ? text : text.slice(0, at);
  if (name === '') fail('missing MCP server name (expected mcp:namespace/name, e.g. mcp:io.github.owner/server)');
  if (name.includes('/')) {
    if (!isMcpServerName(name)) {
      fail(`invalid MCP server name ${quoteForMessage(name)}: expected a reverse-DNS namespace, "/" and a name (letters, digits, ".", "_", "-")`);
    }
  } else if (!MCP_SEARCH_WORD.test(name) || name.length > 100) {
    fail(`invalid MCP server name ${quoteForMessage(name)}: expected namespace/name or one word to search for`);
  }
  if (at < 0) return { input, ecosystem: 'mcp', name };
  const version = text.slice(at + 1);
  if (!MCP_VERSION.test(version)) {
    fail(`invalid MCP server version ${quoteForMessage(version)}: an exact version or "latest" (ranges are not served by the registry)`);
  }
  return { input, ecosystem: 'mcp', name, spec: version };
}

// ── Package URLs ─────────────────────────────────────────────────────────────────────

/** Qualifiers that point the lookup somewhere else than the configured services. */
const RELOCATING_QUALIFIERS = ['repository_url', 'download_url', 'vcs_url'];

/** `pkg:npm/…`, `pkg:pypi/…`, `pkg:github/owner/repo`. Components are decoded, then validated. */
function parsePurlTarget(input: string, text: string): Target {
  const parts = splitPurl(text);
  if ('error' in parts) return fail(parts.error);
  const { type, namespace, name, version } = parts;
  for (const component of [namespace, name, version]) {
    if (component !== undefined) assertSafeText(component, 'the package URL');
  }
  const relocating = RELOCATING_QUALIFIERS.find((q) => q in parts.qualifiers);
  if (relocating) fail(`the package URL qualifier ${relocating} is not supported; nerq uses its configured endpoints`);

  const parse = Object.hasOwn(PURL_TYPES, type) ? PURL_TYPES[type as Ecosystem] : null;
  if (parse === null) {
    const supported = Object.entries(PURL_TYPES).filter(([, typed]) => typed !== null).map(([id]) => id);
    return fail(`unsupported package URL type ${quoteForMessage(type)} (supported: ${supported.join(', ')})`);
  }
  return parse(input, parts);
}

/** Each ecosystem's package URL type (`pkg:npm/…`, `pkg:pypi/…`, `pkg:github/owner/repo`) and its parser; null for none. */
const PURL_TYPES: Record<Ecosystem, ((input: string, parts: PurlParts) => Target) | null> = {
  npm: (input, { namespace, name, version }) => {
    const scope = namespace === undefined ? undefined : namespace.startsWith('@') ? namespace : `@${namespace}`;
    const fullName = scope === undefined ? name : `${scope}/${name}`;
    assertNpmName(fullName);
    if (version === undefined) return { input, ecosystem: 'npm', name: fullName };
    if (semver.valid(version) === null) {
      fail(`package URL version ${quoteForMessage(version)} is not an exact npm version`);
    }
    return { input, ecosystem: 'npm', name: fullName, spec: version };
  },
  pypi: (input, { namespace, name, version }) => {
    if (namespace !== undefined) fail('a PyPI package URL has no namespace (expected pkg:pypi/name@version)');
    assertPypiName(name);
    if (version === undefined) return { input, ecosystem: 'pypi', name: pep503(name) };
    const spec = `==${version}`;
    if (version.includes(',') || version.includes(' ')) fail(`invalid PyPI version ${quoteForMessage(version)}`);
    assertPep440Specifier(spec);
    return { input, ecosystem: 'pypi', name: pep503(name), spec };
  },
  github: (input, { namespace, name, version }) => {
    if (namespace === undefined || namespace.includes('/')) {
      fail('expected pkg:github/owner/repo');
    }
    const full = githubName(namespace, name);
    if (version === undefined) return { input, ecosystem: 'github', name: full };
    assertGitRef(version);
    return { input, ecosystem: 'github', name: full, spec: version };
  },
  mcp: null,
};
