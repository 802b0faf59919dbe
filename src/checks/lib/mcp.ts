/**
 * Pure helpers of the `mcp-*` checks (docs/checks.md): the namespace of a server name, the
 * GitHub owner an `io.github.<owner>/` namespace claims, the DNS domain a reverse-DNS namespace
 * names, what a remote's (possibly templated) URL says, and whether its namespace proves its host.
 */
import { stripSeparators } from './typosquat.js';

/**
 * The most an MCP entry whose code nobody can inspect scores (remote-only, or no package nerq
 * evaluates): below YES, as its verdict is (docs/scoring.md §5).
 */
export const UNINSPECTED_LIMIT = 69.9;

/** `io.github.alice/x` → `io.github.alice`. */
export function namespaceOf(server: string): string {
  const slash = server.indexOf('/');
  return slash < 0 ? server : server.slice(0, slash);
}

/** The GitHub account an `io.github.<owner>` namespace names (lower case), or null for a domain namespace. */
export function githubNamespaceOwner(server: string): string | null {
  const match = /^io\.github\.([A-Za-z0-9-]+)$/i.exec(namespaceOf(server));
  return match?.[1]?.toLowerCase() ?? null;
}

/** The domain a reverse-DNS namespace names: `com.example.tools` → `tools.example.com`. */
export function namespaceDomain(server: string): string {
  return namespaceOf(server).toLowerCase().split('.').reverse().join('.');
}

/**
 * What a remote's URL says before its `{variables}` are filled in (server.schema.json: remotes[].url
 * is a template whose variables the user sets): its scheme when written literally (`https`,
 * `http`…; null when a variable sets it, as in `{url}`), and its host — the literal host, or for
 * a host with variables in its leading labels (`https://{tenant}.analytics.example.com/mcp`) the
 * literal domain under which every filled-in host lies (`templated`); null when variables set
 * the whole host or leave fewer than two literal labels (`https://{host}/mcp`, `{url}`).
 */
export interface RemoteParts {
  scheme: string | null;
  host: string | null;
  templated: boolean;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * A remote's URL as nerq records and prints it: without the user name and password (whatever
 * the scheme, a `{variable}` one too), the query string and the fragment, which may carry a
 * token (`https://user:token@host/mcp?api_key=…`; docs/security.md). What is judged — scheme
 * and host — is kept as written.
 */
export function remoteUrlShown(url: string): string {
  const cut = url.trim().replace(/[?#].*$/s, '');
  const authority = /^([^:/?#]*:[/\\]*)([^/\\]*)/.exec(cut);
  if (authority === null || !(authority[2] ?? '').includes('@')) return cut;
  const rest = cut.slice((authority[1] ?? '').length + (authority[2] ?? '').length);
  return `${authority[1] ?? ''}${(authority[2] ?? '').slice((authority[2] ?? '').lastIndexOf('@') + 1)}${rest}`;
}

export function remoteParts(url: string): RemoteParts {
  // A backslash ends the authority as a slash does: URL parsers read `https://a\@b/` as host `a`.
  const match = /^([^:/?#]+):\/\/([^/\\?#]*)/.exec(url.trim());
  if (match === null) return { scheme: null, host: null, templated: true };
  const scheme = /[{}]/.test(match[1] ?? '') ? null : (match[1] ?? '').toLowerCase();
  // The host without credentials or port (`user@h:443`); a variable may stand for either.
  const authority = (match[2] ?? '').slice((match[2] ?? '').lastIndexOf('@') + 1).toLowerCase();
  // A fully qualified name's final dot (`acme.com.`) names the same host.
  const host = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.replace(/:[^:]*$/, '').replace(/\.$/, '');
  if (!/[{}]/.test(host)) {
    try {
      return { scheme, host: new URL(`https://${host}`).hostname.toLowerCase(), templated: false };
    } catch {
      return { scheme, host: null, templated: false };
    }
  }
  const labels = host.split('.');
  let last = -1;
  labels.forEach((label, i) => {
    if (/[{}]/.test(label)) last = i;
  });
  const literal = labels.slice(last + 1);
  if (literal.length < 2 || !literal.every((label) => LABEL.test(label))) return { scheme, host: null, templated: true };
  return { scheme, host: literal.join('.'), templated: true };
}

/**
 * A remote's host belongs to the entry only when its namespace proves it: the namespace's domain
 * or a name under it (`mcp.example.com` for `com.example/…`, which the registry verified by DNS
 * or HTTP; `<owner>.github.io` for `io.github.<owner>/…`, which GitHub gives that account alone).
 * A name that merely looks like the publisher's proves nothing: `acme.xyz`, `acme.co.uk` or
 * `mcp.acme.com` for `io.github.acme/…` may be anyone's registration, and the repository an
 * entry names is not verified for a domain namespace (docs/security.md, "MCP servers are judged
 * by what they name").
 */
export function hostBelongs(host: string, server: string): boolean {
  const domain = namespaceDomain(server);
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * Whether a remote's host (as remoteParts gives it: lower case, an IPv4 literal in dotted form,
 * an IPv6 one in brackets) is on the user's own machine or network rather than a publisher's
 * server: loopback, an unspecified, private, shared (100.64/10) or link-local address (the cloud
 * metadata address 169.254.169.254 among them), or a name only a local network resolves
 * (`.local`, `.internal`, `.lan`, `.home.arpa`, `.localdomain`, `localhost`). A registry entry
 * that sends a client there points it at the user's own services (docs/security.md).
 */
export function localNetworkHost(host: string): boolean {
  const h = host.replace(/\.$/, '');
  if (/(?:^|\.)(?:localhost|local|internal|lan|home\.arpa|localdomain|intranet|corp)$/.test(h)) return true;
  if (h.startsWith('[')) {
    const v6 = h.slice(1, -1);
    const mapped = mappedIpv4(v6);
    if (mapped !== null) return localNetworkHost(mapped);
    return v6 === '::1' || v6 === '::' || /^f[cd][0-9a-f]{0,2}:/.test(v6) || /^fe[89ab][0-9a-f]?:/.test(v6);
  }
  const v4 = ipv4Octets(h);
  if (v4 === null) return false;
  const [a, b] = v4;
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}

/**
 * Whether a host (as remoteParts or a URL's `hostname` gives it) is a loopback name or address:
 * `localhost` and names under it, 127/8, `[::1]`, or an IPv4-mapped loopback address. A name that
 * merely starts with `127.` (`127.evil.example`) resolves wherever its owner points it: it is not.
 */
export function loopbackHost(host: string): boolean {
  const h = host.replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h.startsWith('[')) {
    const mapped = mappedIpv4(h.slice(1, -1));
    return mapped === null ? h === '[::1]' : loopbackHost(mapped);
  }
  return ipv4Octets(h)?.[0] === 127;
}

/**
 * Whether a host is this machine itself: a loopback one, or the unspecified address a local
 * server listens on and a client reaches it at (`0.0.0.0`, `[::]`, `[::ffff:0.0.0.0]`).
 */
export function thisMachineHost(host: string): boolean {
  if (loopbackHost(host)) return true;
  const h = host.replace(/\.$/, '');
  const v4 = h.startsWith('[') ? (h === '[::]' ? '0.0.0.0' : mappedIpv4(h.slice(1, -1))) : h;
  return v4 === '0.0.0.0';
}

/** The four octets of a dotted IPv4 address, or null for anything else. */
function ipv4Octets(host: string): [number, number, number, number] | null {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  return v4 === null ? null : [Number(v4[1]), Number(v4[2]), Number(v4[3]), Number(v4[4])];
}

/** `::ffff:7f00:1` (an IPv4-mapped IPv6 address, as URL parsers write it) → `127.0.0.1`; null for any other. */
function mappedIpv4(v6: string): string | null {
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mapped === null) return null;
  const hi = parseInt(mapped[1] ?? '0', 16);
  const lo = parseInt(mapped[2] ?? '0', 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** `-v /:/host`, `--volume=/:/h:ro`, `--mount type=bind,source=/,target=/h`: the host's whole file system. */
function mountsHostRoot(word: string): boolean {
  const volume = /^(?:-v|--volume)[ =](.*)$/.exec(word)?.[1];
  if (volume !== undefined) return /^\/+(?::|$)/.test(volume.trim());
  const mount = /^--mount[ =](.*)$/.exec(word)?.[1];
  return mount !== undefined && mount.split(',').some((kv) => /^(?:source|src)=\/+$/.test(kv.trim()));
}

/** Runtime arguments that widen a container's reach beyond what a server needs, with the finding's id. */
export function wideningArguments(words: readonly string[]): { id: string; argument: string }[] {
  const found: { id: string; argument: string }[] = [];
  for (const word of words) {
    const w = word.trim();
    if (/^--privileged(?:[ =]true)?$/.test(w)) found.push({ id: 'privileged', argument: w });
    else if (/docker\.sock/.test(w)) found.push({ id: 'docker-socket', argument: w });
    else if (/^--(?:network|net)[ =]host$/.test(w)) found.push({ id: 'host-network', argument: w });
    else if (/^--pid[ =]host$/.test(w)) found.push({ id: 'host-pid', argument: w });
    else if (/^--cap-add[ =]\S/.test(w)) found.push({ id: 'added-capability', argument: w });
    else if (mountsHostRoot(w)) found.push({ id: 'host-root-mount', argument: w });
  }
  return found;
}

/**
 * The publisher's name a server name's namespace carries: the account of `io.github.<owner>/…`,
 * the label naming the registrant of a reverse-DNS namespace's domain (`cloudflare` in
 * `com.cloudflare/…`, `example` in `com.example.tools/…`). Lower case.
 */
export function publisherOf(server: string): string {
  const github = githubNamespaceOwner(server);
  if (github !== null) return github;
  const labels = namespaceOf(server).toLowerCase().split('.');
  return labels[1] ?? labels[0] ?? '';
}

/** The part of a server name after its namespace (`github-mcp-server` of `io.github.github/github-mcp-server`). */
export function serverPart(server: string): string {
  const slash = server.indexOf('/');
  return slash < 0 ? server : server.slice(slash + 1);
}

/**
 * Whether a server's name carries its publisher's own name (`io.github.github/github-mcp-server`,
 * `com.cloudflare/mcp-server-cloudflare`): a copy of such a name under another namespace borrows
 * that publisher's name, which two independent projects sharing a plain name
 * (`mcp-google-sheets`) do not. Publishers' names shorter than three letters are not counted.
 */
export function namesItsPublisher(server: string): boolean {
  const publisher = stripSeparators(publisherOf(server));
  return publisher.length >= 3 && stripSeparators(serverPart(server)).includes(publisher);
}

/**
 * The known server whose name `server` copies under another publisher — the part after the
 * namespace the same once folded, the known one naming its own publisher, the copy's namespace
 * naming another — or null. `known` are names that each name their publisher (mcp-known-servers.ts).
 */
export function copiedServer(server: string, known: readonly string[]): string | null {
  const part = stripSeparators(serverPart(server));
  const publisher = stripSeparators(publisherOf(server));
  return known.find((k) => k.toLowerCase() !== server.toLowerCase() && stripSeparators(serverPart(k)) === part && stripSeparators(publisherOf(k)) !== publisher) ?? null;
}
