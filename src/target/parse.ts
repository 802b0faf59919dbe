/**
 * The target parser (docs/architecture.md, "Data flow"): the text a user typed → a validated `Target`,
 * before any request is made. Everything that is not clearly a registry package, a PyPI
 * project, a GitHub repository or a package URL for one of those is rejected here with a
 * one-line `TargetError` whose message is safe to print (input is quoted, escaped, truncated).
 *
 * Accepted forms: `express`, `express@5`, `@scope/pkg@^1.2.0`, `npm:express@latest`,
 * `pypi:requests`, `pypi:requests>=2,<3`, `github:owner/repo[@ref]`,
 * `[https://]github.com/owner/repo[.git][/…]`, `pkg:npm|pypi|github/…`,
 * `mcp:namespace/name[@version]`, `mcp:word`. What follows an ecosystem's prefix, and a package
 * URL of its type, is parsed by the ecosystem's own syntax (`syntax` of its rules,
 * `src/ecosystems/<id>/target-syntax.ts`); a bare name is npm's, a URL GitHub's.
 */
import { ECOSYSTEM_RULES, rulesOf } from '../ecosystems/rules.js';
import { gitUrlOfGithub, parseGithubUrl } from '../ecosystems/github/target-syntax.js';
import { parseNpm } from '../ecosystems/npm/target-syntax.js';
import type { Ecosystem, Target } from './types.js';
import { splitPurl } from './purl.js';
import { fail, quoteForMessage } from './syntax.js';
import { withoutCredentials } from '../util/url-credentials.js';


/** npm's limit on a package name; no target form needs more. */
export const MAX_TARGET_LENGTH = 214;

/**
 * Control characters (C0, DEL, C1), format characters (bidi controls, zero-width, BOM, soft
 * hyphen …), lone surrogates, private use, and line/paragraph separators.
 */
const FORBIDDEN_CHAR = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\u2028\u2029]/u;

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
  if (Object.hasOwn(ECOSYSTEM_RULES, prefix)) return rulesOf(prefix as Ecosystem).syntax.prefixed(input, rest);
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
        `unknown prefix ${quoteForMessage(`${scheme}:`)} (use a package name, ${Object.keys(ECOSYSTEM_RULES).map((id) => `${id}:`).join(', ')} or pkg:)`,
      );
  }
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

  const parse = Object.hasOwn(ECOSYSTEM_RULES, type) ? rulesOf(type as Ecosystem).syntax.purl : null;
  if (parse === null) {
    const supported = Object.values(ECOSYSTEM_RULES).filter((rules) => rules.syntax.purl !== null).map((rules) => rules.id);
    return fail(`unsupported package URL type ${quoteForMessage(type)} (supported: ${supported.join(', ')})`);
  }
  return parse(input, parts);
}
