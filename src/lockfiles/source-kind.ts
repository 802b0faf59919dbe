/**
 * Where an entry no registry serves comes from (docs/security.md, "Dependencies no registry
 * vouches for"): **remote** — a git repository (a URL, an scp-style address, a hosted shorthand
 * such as `github:o/r` or `o/r#ref`), a tarball or archive URL, a Python VCS or URL reference:
 * code from elsewhere nerq cannot evaluate — or **local**: the project's own code (a workspace,
 * `file:` / `link:` / `portal:` / `workspace:`, a relative or absolute path, an editable local
 * install). npm specs are read by npm-package-arg and hosted-git-info, as npm reads them. The
 * source is kept without credentials (util/url-credentials.ts). Pure.
 */
import hostedGitInfo from 'hosted-git-info';
import npa from 'npm-package-arg';
import type { AuditEcosystem, SkippedEntry, Standing } from '../audit/types.js';
import { withoutCredentials } from '../util/url-credentials.js';

export interface SourceKind {
  kind: SkippedEntry['kind'];
  /** As written, without credentials. */
  source: string;
  /** The host a remote entry is fetched from; null for a local one or when none can be told. */
  host: string | null;
}

/** A spec longer than this is not parsed (no real one is). */
const MAX_SPEC_LENGTH = 2048;

/** Protocols of the package managers that name the project's own folders (npm-package-arg does not know them). */
const LOCAL_PROTOCOLS = /^(?:file|link|portal|workspace|exec):/i;

const local = (source: string): SourceKind => ({ kind: 'local', source: withoutCredentials(source), host: null });
const remote = (source: string, host: string | null): SourceKind => ({ kind: 'remote', source: withoutCredentials(source), host });

/**
 * An entry the package manager fetches from somewhere the lockfile does not name (a version it
 * cannot read, re-resolved at install): remote code with no host to tell, kept without credentials.
 */
export const unplacedSource = (source: string): SourceKind => remote(source, null);

/** A source known to be the project's own (a go.mod `replace` directory). */
export const localSource = (path: string): SourceKind => local(path);

/** A source known to be remote (a lockfile's git repository), with its host. */
export const remoteSource = (url: string): SourceKind => remote(url, sourceHost(url));

/**
 * A URL an SBOM gives as where a package was fetched from (a package URL's `vcs_url` or
 * `download_url`, a component's git or archive location): local when it is a `file:` one (a
 * VCS one too, `git+file://`), remote otherwise.
 */
export const urlSourceKind = (url: string): SourceKind => (/^(?:(?:git|hg|svn|bzr)\+)?file:/i.test(url.trim()) ? local(url.trim()) : remoteSource(url.trim()));

/** The host of a URL, an scp-style git address (`git@host:org/repo`) or a hosted shorthand; null when none can be told. */
export function sourceHost(url: string): string | null {
  const text = withoutCredentials(url.trim());
  try {
    const hosted = hostedGitInfo.fromUrl(text);
    if (hosted?.domain !== undefined) return hosted.domain;
  } catch {
    // Not a hosted git address: read it as a URL below.
  }
  const bare = text.replace(/^(?:git|hg|svn|bzr)\+/i, '');
  const scp = /^(?:[^@/:]+@)?([A-Za-z0-9.-]+):(?!\/\/)/.exec(bare);
  if (scp?.[1] !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(bare.split(':')[0] ?? '')) return scp[1].toLowerCase();
  try {
    const { protocol, hostname } = new URL(bare);
    if (protocol === 'file:' || hostname === '') return null;
    return hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * An npm-family specifier or reference (a package.json value, a lockfile's `resolved` or
 * version, a yarn or pnpm reference, a bun ident's reference) that no registry serves: remote
 * or local; null for a registry one (a version, range, tag or `npm:` alias) or one nerq cannot
 * classify (another package manager's protocol).
 */
export function npmSourceKind(spec: string): SourceKind | null {
  const text = spec.trim();
  if (text === '' || text.length > MAX_SPEC_LENGTH) return null;
  if (LOCAL_PROTOCOLS.test(text)) return local(text);
  let parsed: ReturnType<typeof npa.resolve>;
  try {
    parsed = npa.resolve('x', text, '/');
  } catch {
    return null;
  }
  switch (parsed.type) {
    case 'git':
      return remote(text, parsed.hosted?.domain ?? sourceHost(parsed.fetchSpec ?? text));
    case 'remote':
      return remote(text, sourceHost(text));
    case 'file':
    case 'directory':
      return local(text);
    default:
      return null;
  }
}

/**
 * A Python reference that no index serves (a requirement's `@ <url>`, a requirements line, an
 * editable's target, a lock's `git` / `url` / `path` source): VCS and http(s) or other URLs are
 * remote, `file:` URLs (a VCS one too, `git+file://`) and paths local.
 */
export function pythonSourceKind(reference: string): SourceKind {
  const text = reference.trim();
  const bare = text.replace(/^(?:git|hg|svn|bzr)\+/i, '');
  if (/^file:/i.test(bare)) return local(text);
  if (/^(?:git|hg|svn|bzr)\+/i.test(text) || /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)) return remote(text, sourceHost(text));
  // scp-style `git@host:org/repo` (Poetry and uv write git sources without the `git+`).
  if (/^[^@/\s]+@[A-Za-z0-9.-]+:/.test(text)) return remote(text, sourceHost(text));
  return local(text);
}

/** The skipped entry a reader records beside its note, with what the input tells of its standing (a flag it cannot tell is left out). */
export function skippedEntry(
  ecosystem: AuditEcosystem,
  name: string | null,
  file: string,
  line: number | null,
  kind: SourceKind,
  note: string,
  standing: Standing = {},
): SkippedEntry {
  return { kind: kind.kind, ecosystem, name, file, line, source: shownSource(kind.source), host: kind.host, note, ...known(standing) };
}

/** The longest source shown as written (a real URL or path is far shorter; docs/security.md, "Names that lie"). */
const MAX_SHOWN_SOURCE = 2048;

/** A source as shown: as written, or its start, an ellipsis and its length when it is longer than any real one. */
function shownSource(source: string): string {
  return source.length <= MAX_SHOWN_SOURCE ? source : `${source.slice(0, 256)}… (${source.length} characters)`;
}

/**
 * The skipped entry with the names the project declares it under when they are not its own (an
 * alias's key, `@scope/alias` for a GitHub tarball named `@owner/pkg`); unchanged when there are none.
 */
export function withDeclaredNames(entry: SkippedEntry, keys: readonly string[]): SkippedEntry {
  const aliases = [...new Set(keys)].filter((key) => key !== entry.name).sort();
  return aliases.length === 0 ? entry : { ...entry, declaredAs: aliases };
}

/** The flags of a standing that are known (an `undefined` one is dropped, so JSON leaves it out). */
export function known(standing: Standing): Standing {
  return { ...(standing.direct === undefined ? {} : { direct: standing.direct }), ...(standing.dev === undefined ? {} : { dev: standing.dev }) };
}
