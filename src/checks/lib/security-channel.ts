/**
 * The reporting channel a security policy gives (pure): GitHub private vulnerability reporting (a
 * link to `/security/advisories/new` or GitHub's guide to it, or the feature named), an e-mail
 * address (also written against scrapers: `name[@]host`, `name (at) host (dot) org`), or an
 * http(s) URL. Placeholders point nowhere and do not count: addresses and links on
 * the reserved example, test and invalid domains (RFC 2606), localhost, `your…` / `domain.com`
 * stand-ins; nor does a public issue tracker (a report there is public). docs/scoring.md §9.
 */

export type ChannelKind = 'private-reporting' | 'email' | 'url';

export interface PolicyChannels {
  /** The first working channel of the strongest kind (private reporting, then e-mail, then URL); null when none. */
  channel: { kind: ChannelKind; value: string } | null;
  /** Addresses and links that only look like a channel (placeholders), as written. */
  placeholders: string[];
}

const PRIVATE_REPORTING = [
  /\/security\/advisories\/new\b/i,
  /privately-reporting-a-security-vulnerability/i,
  /\bprivate vulnerability reporting\b/i,
  /\breport a vulnerability\b[^\n]{0,80}\bsecurity tab\b/i,
];
// Bounded pieces: hostile text must not make these backtrack for long.
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}/g;
const URL_RE = /https?:\/\/[^\s<>()[\]"'`]{1,500}/gi;
// An address written against scrapers (`security[@]example.org`, `security (at) example (dot) org`) is still an address.
const OBFUSCATED_AT = /([A-Za-z0-9._%+-]{1,64}) {0,3}(?:\[ {0,3}(?:@|at) {0,3}\]|\( {0,3}(?:@|at) {0,3}\)) {0,3}(?=[A-Za-z0-9-])/gi;
const OBFUSCATED_DOT = /([A-Za-z0-9-]{1,63}) {0,3}(?:\[ {0,3}dot {0,3}\]|\( {0,3}dot {0,3}\)) {0,3}(?=[A-Za-z0-9-])/gi;

/** The text with obfuscated addresses written plainly (bounded patterns: no long backtracking). */
function plainAddresses(text: string): string {
  return text.replace(OBFUSCATED_AT, '$1@').replace(OBFUSCATED_DOT, '$1.');
}

function placeholderHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return (
    /(?:^|\.)(?:example\.(?:com|org|net)|example|invalid|test|localhost|local)$/.test(h) ||
    h === 'localhost' ||
    /^(?:\d{1,3}\.){3}\d{1,3}$/.test(h) ||
    /(?:^|\.)(?:your[-_]?(?:domain|company|project|org)[^.]*|domain|mydomain|email|company)\.(?:com|org|net)$/.test(h)
  );
}

function placeholderLocal(local: string): boolean {
  return /^(?:your[-_.]?(?:email|name|address)|email|user|name|someone|foo|me)$/i.test(local);
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** A public issue tracker or discussion board: a report there is public, not a channel. */
function publicTracker(url: string): boolean {
  return /^https?:\/\/(?:www\.)?github\.com\/[^/]+\/[^/]+\/(?:issues|discussions)(?:[/?#]|$)/i.test(url) && !/\/security\//i.test(url);
}

export function policyChannels(text: string): PolicyChannels {
  const placeholders: string[] = [];
  if (PRIVATE_REPORTING.some((re) => re.test(text))) {
    const link = text.match(/https?:\/\/[^\s<>()[\]"'`]{1,500}\/security\/advisories\/new\b/i)?.[0];
    return { channel: { kind: 'private-reporting', value: link ?? 'GitHub private vulnerability reporting' }, placeholders };
  }
  let email: string | null = null;
  for (const match of plainAddresses(text).matchAll(EMAIL)) {
    const address = match[0].replace(/\.+$/, '');
    const [local = '', host = ''] = address.split('@');
    if (placeholderHost(host) || placeholderLocal(local)) placeholders.push(address);
    else email ??= address;
  }
  if (email !== null) return { channel: { kind: 'email', value: email }, placeholders };
  let url: string | null = null;
  for (const match of text.matchAll(URL_RE)) {
    const link = match[0].replace(/[.,;:!?*_]+$/, '');
    const host = hostOf(link);
    if (host === null || placeholderHost(host)) placeholders.push(link);
    else if (!publicTracker(link)) url ??= link;
  }
  return { channel: url === null ? null : { kind: 'url', value: url }, placeholders };
}
