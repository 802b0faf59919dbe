import { getDomain } from 'tldts';

/**
 * Whose script a README's pipe-to-shell line runs (docs/scoring.md §9), from its URL alone:
 * - `own`: https from the repository's homepage host (same registrable domain), from a domain
 *   named after the project (its first label the homepage's, the repository's or the owner's name:
 *   `deno.land`, `bun.sh`, `sh.rustup.rs`), or from
 *   github.com / raw.githubusercontent.com under the repository owner, or `<owner>.github.io`
 *   (context: the project's own installer, as uv, bun, deno, rustup and ollama publish theirs);
 * - `unrelated`: https from any other host (a warning naming it; GitHub's release-asset host
 *   `objects.githubusercontent.com` names no owner, so it is unrelated too);
 * - `unsafe`: plain http, an IP-address host, a URL shortener, or credentials in the URL (anyone
 *   on the path, or whoever holds the address or the short link, decides what runs).
 * The registrable domain comes from the Public Suffix List with its private section (tldts): a
 * project on a shared host (`x.github.io`, `x.vercel.app`, `x.pages.dev`) owns its own name
 * there, not the whole host, so `evil.github.io` is never the homepage `tool.github.io`'s domain.
 */

export type ScriptKind = 'own' | 'unrelated' | 'unsafe';

export interface ScriptLine {
  url: string;
  host: string;
  https: boolean;
  credentials: boolean;
}

export interface JudgedScript {
  url: string;
  host: string;
  kind: ScriptKind;
  reason: string;
}

const SHORTENERS = new Set([
  'bit.ly', 'tinyurl.com', 't.co', 'goo.gl', 'is.gd', 'v.gd', 'ow.ly', 'buff.ly', 'rebrand.ly', 'cutt.ly', 'shorturl.at', 'rb.gy', 't.ly', 'tiny.cc', 'git.io', 's.id', 'tr.im', 'bl.ink', 'short.io', 'surl.li',
]);
/** The registrable domain of `host` (its own name under a public or shared-hosting suffix); the host itself when it has none. */
export function registrableDomain(host: string): string {
  const name = host.toLowerCase().replace(/\.$/, '');
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}

function ipHost(host: string): boolean {
  return host.startsWith('[') || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host);
}

function homepageHost(homepage: string | null): string | null {
  if (homepage === null || homepage.trim() === '') return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(homepage) ? homepage : `https://${homepage}`);
    return url.hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** The first label of a registrable domain (`deno` of `deno.land`). */
const labelOf = (domain: string): string => domain.split('.')[0] ?? '';

/** The first path segment of `url`, lower case. */
function firstSegment(url: string): string {
  try {
    return (new URL(url).pathname.split('/')[1] ?? '').toLowerCase();
  } catch {
    return '';
  }
}

export function judgeScript(line: ScriptLine, fullName: string, homepage: string | null): JudgedScript {
  const { url, host } = line;
  const owner = (fullName.split('/')[0] ?? '').toLowerCase();
  const base = { url, host };
  if (line.credentials) return { ...base, kind: 'unsafe', reason: 'its URL carries credentials' };
  if (!line.https) return { ...base, kind: 'unsafe', reason: 'downloaded over plain http: anyone on the path can change it' };
  if (ipHost(host)) return { ...base, kind: 'unsafe', reason: 'from an IP address, which names no owner' };
  if (SHORTENERS.has(registrableDomain(host)) || SHORTENERS.has(host)) return { ...base, kind: 'unsafe', reason: `through the URL shortener ${host}, whose target can change` };
  const home = homepageHost(homepage);
  if (home !== null && registrableDomain(home) === registrableDomain(host)) return { ...base, kind: 'own', reason: "from the repository's homepage domain" };
  if ((host === 'github.com' || host === 'raw.githubusercontent.com') && firstSegment(url) === owner && owner !== '') {
    return { ...base, kind: 'own', reason: "under the repository owner's GitHub account" };
  }
  if (host === `${owner}.github.io`) return { ...base, kind: 'own', reason: "the repository owner's GitHub Pages" };
  // A domain named after the project under another suffix than its homepage's (`deno.land` beside
  // `deno.com`, `bun.sh` for oven-sh/bun, `sh.rustup.rs` for rust-lang/rustup): the project's own name.
  const name = labelOf(registrableDomain(host));
  const repo = (fullName.split('/')[1] ?? '').toLowerCase();
  const homeName = home === null ? '' : labelOf(registrableDomain(home));
  if (name.length >= 3 && (name === homeName || name === repo || name === owner)) {
    return { ...base, kind: 'own', reason: "from a domain named after the project (its homepage's, repository's or owner's name)" };
  }
  return { ...base, kind: 'unrelated', reason: `from ${host}, which nothing ties to the repository` };
}
