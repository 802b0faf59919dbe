/**
 * The reporting channel a security policy gives (pure): GitHub private vulnerability reporting (a
 * link to `/security/advisories/new` or GitHub's guide to it, the feature named, its "Report a
 * vulnerability" button, or a report through GitHub's security advisories), an e-mail
 * address (also written against scrapers: `name[@]host`, `name (at) host (dot) org`), or an
 * http(s) URL. Placeholders point nowhere and do not count: addresses and links on
 * the reserved example, test and invalid domains (RFC 2606), localhost, `your…` / `domain.com`
 * stand-ins; nor does a public issue tracker (a report there is public). docs/scoring.md §9.
 *
 * A sentence that says private reporting is not enabled (`… is not enabled`, `… is disabled`,
 * `we have not enabled …`, `once … is live`, `a maintainer must enable …`) names no channel; a policy whose only channel is
 * private reporting still needs GitHub to say it is on (`onlyPrivateReporting`).
 */

export type ChannelKind = 'private-reporting' | 'email' | 'url';

export interface PolicyChannels {
  /** The first working channel of the strongest kind (private reporting, then e-mail, then URL); null when none. */
  channel: { kind: ChannelKind; value: string } | null;
  /** The first working e-mail address or URL when `channel` is private reporting (a way to report should it be off); null otherwise. */
  fallback: { kind: 'email' | 'url'; value: string } | null;
  /** Addresses and links that only look like a channel (placeholders), as written. */
  placeholders: string[];
}

const PRIVATE_REPORTING = [
  /\/security\/advisories\/new\b/i,
  /privately-reporting-a-security-vulnerability/i,
  /\bprivate vulnerability reporting\b/i,
  /\breport a vulnerability\b[^\n]{0,80}\bsecurity tab\b/i,
  // The button named from the other side of the sentence, or as a button: `the Security tab … click "Report a vulnerability"`.
  /\bsecurity tab\b[^\n]{0,80}\breport a vulnerability\b/i,
  /\breport a vulnerability\b["'”’*_\]]{0,3}\s{0,3}button\b/i,
  // The reporter's side of it: a report through GitHub's security advisories (only the feature lets outsiders open one).
  /\breport\b[^\n]{0,60}\b(?:via|through|using|with)\s{1,3}(?:the\s{1,3})?github(?:'s)?\s{1,3}security\s{1,3}advisor(?:y|ies)\b/i,
];
/**
 * A sentence that says private reporting is off or not yet there: `not enabled`, `disabled`,
 * `we have not enabled`, `once / until … is live`. Only within the sentence that names it.
 */
const NOT_ENABLED = [
  /\b(?:is|are|has|have|was|remains?)\s{1,3}(?:(?:been|currently|still|yet)\s{1,3}){0,2}(?:not|n't|never)\s{1,3}(?:(?:been|yet|currently|be)\s{1,3}){0,2}(?:enabled|available|activated|turned on|set up|configured|live)\b/i,
  /\b(?:isn't|aren't|hasn't|haven't|wasn't)\s{1,3}(?:(?:been|yet|currently)\s{1,3}){0,2}(?:enabled|available|activated|turned on|set up|configured|live)\b/i,
  /\b(?:is|are|has been|have been|was|remains?)\s{1,3}(?:currently\s{1,3})?(?:disabled|unavailable|turned off|switched off)\b/i,
  /\b(?:not|n't|never)\s{1,3}(?:(?:yet|currently|been)\s{1,3}){0,2}(?:enabled|activated|turned on)\b/i,
  /\b(?:once|until)\b[^.!?]{0,200}\b(?:is|are|gets?|becomes?)\s{1,3}(?:live|enabled|available|activated|turned on)\b/i,
  /\b(?:must|should|needs? to|has to|have to)\s{1,3}(?:first\s{1,3})?(?:enable|turn on|activate)\b/i,
];
/** Where a sentence ends: `.`, `!` or `?` before a space, or a blank line. */
const SENTENCE_END = /(?<=[.!?])\s+|\n[ \t]*\n/;

/**
 * The first mention of private reporting in a sentence that does not say it is off; null when
 * none. Each sentence is read once (every pattern is bounded: linear in the text).
 */
function privateReportingMention(text: string): string | null {
  for (const raw of text.split(SENTENCE_END)) {
    const sentence = raw.replace(/\s+/g, ' ');
    const found = PRIVATE_REPORTING.map((re) => sentence.match(re)?.[0]).find((m) => m !== undefined);
    if (found !== undefined && !NOT_ENABLED.some((neg) => neg.test(sentence))) return found;
  }
  return null;
}

/** A link to GitHub's new-advisory form: private reporting, not a web page of its own. */
const ADVISORY_FORM = /\/security\/advisories\/new\b/i;

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
  const mention = privateReportingMention(text);
  const other = otherChannel(text, placeholders);
  if (mention !== null) {
    const value = /^https?:/i.test(mention) ? mention : (text.match(/https?:\/\/[^\s<>()[\]"'`]{1,500}\/security\/advisories\/new\b/i)?.[0] ?? 'GitHub private vulnerability reporting');
    return { channel: { kind: 'private-reporting', value }, fallback: other, placeholders };
  }
  return { channel: other, fallback: null, placeholders };
}

/** The policy names private reporting and no other working channel: only GitHub can say whether a report reaches anyone. */
export function onlyPrivateReporting(channels: PolicyChannels): boolean {
  return channels.channel?.kind === 'private-reporting' && channels.fallback === null;
}

/** The first working e-mail address, else URL (placeholders collected on the way); null when none. */
function otherChannel(text: string, placeholders: string[]): { kind: 'email' | 'url'; value: string } | null {
  let email: string | null = null;
  for (const match of plainAddresses(text).matchAll(EMAIL)) {
    const address = match[0].replace(/\.+$/, '');
    const [local = '', host = ''] = address.split('@');
    if (placeholderHost(host) || placeholderLocal(local)) placeholders.push(address);
    else email ??= address;
  }
  if (email !== null) return { kind: 'email', value: email };
  let url: string | null = null;
  for (const match of text.matchAll(URL_RE)) {
    const link = match[0].replace(/[.,;:!?*_]+$/, '');
    const host = hostOf(link);
    if (host === null || placeholderHost(host)) placeholders.push(link);
    else if (!publicTracker(link) && !ADVISORY_FORM.test(link) && !/privately-reporting-a-security-vulnerability/i.test(link)) url ??= link;
  }
  return url === null ? null : { kind: 'url', value: url };
}
