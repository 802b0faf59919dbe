/**
 * Pure summaries of what GitHub listed (REST or GraphQL, normalised first): commit activity,
 * releases and their signatures, contributors and the bus factor over the newest commits.
 */
import { isFutureTime } from '../../checks/lib/releases.js';
import { RECENT_RELEASE_DAYS, type GithubActivity, type GithubContributors, type GithubReleases } from '../../evidence/github-facts.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `now` minus `days`, as GitHub's `since` parameters want it (no milliseconds). */
export function daysBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A date in the `days` before `now`. One after `now` within the tolerated clock skew counts as
 * now; one later is invalid data and in no window (isFutureTime; docs/security.md, "Dates in the future").
 */
function within(iso: string | null, now: Date, days: number): boolean {
  if (iso === null) return false;
  const at = Date.parse(iso);
  return Number.isFinite(at) && !isFutureTime(new Date(at), now) && at >= now.getTime() - days * DAY_MS;
}

/** A login or actor that is a bot: type `Bot` (REST `type`, GraphQL `__typename`) or a `[bot]` login / name. */
export function isBot(login: string | null | undefined, type?: string | null): boolean {
  if (type === 'Bot') return true;
  return typeof login === 'string' && /\[bot\]$/i.test(login.trim());
}

/** One commit, normalised: who (a login, else an email or name), whether a bot, when. */
export interface CommitInfo {
  /** Identity key (lower case), or null when the commit names nobody. */
  author: string | null;
  bot: boolean;
  /** Commit date (ISO). */
  at: string;
}

/** A commit's identity from a GitHub login, else the git author email, else the name. */
export function commitIdentity(login: string | null | undefined, email: string | null | undefined, name: string | null | undefined): string | null {
  for (const value of [login, email, name]) {
    if (typeof value === 'string' && value.trim() !== '') return value.trim().toLowerCase();
  }
  return null;
}

/** Git authors GitHub marks as bots when it has no account for them (`…[bot]@users.noreply.github.com`). */
export function isBotCommit(login: string | null | undefined, type: string | null | undefined, email: string | null | undefined, name: string | null | undefined): boolean {
  if (isBot(login, type)) return true;
  if (typeof email === 'string' && /\[bot\]@users\.noreply\./i.test(email)) return true;
  return login == null && isBot(name);
}

export interface ActivityInput {
  now: Date;
  /**
   * Commits listed (newest first): those of the last 365 days are counted, older ones ignored;
   * all of the year's are among them when `complete`.
   */
  sample: readonly CommitInfo[];
  /** True when `sample` holds every commit of the last 365 days. */
  complete: boolean;
  /** Exact commit counts when known from elsewhere (a count request, GraphQL `totalCount`). */
  count365: number | null;
  count90: number | null;
  /** Newest commit on the branch (may be older than a year), or null. */
  lastCommitAt: string | null;
}

/**
 * Commit counts, bots' commits and distinct non-bot authors for 90 / 365 days. The bots'
 * commits and the author counts come from the sample: when it is not complete they are lower
 * bounds and `truncated` is set.
 */
export function summariseActivity(input: ActivityInput): GithubActivity {
  const { now, sample } = input;
  const year = sample.filter((c) => within(c.at, now, 365));
  const quarter = year.filter((c) => within(c.at, now, 90));
  const authors = (commits: readonly CommitInfo[]): number =>
    new Set(commits.filter((c) => !c.bot && c.author !== null).map((c) => c.author)).size;
  return {
    commits90d: input.count90 ?? quarter.length,
    commits365d: input.count365 ?? year.length,
    authors90d: authors(quarter),
    authors365d: authors(year),
    botCommits90d: quarter.filter((c) => c.bot).length,
    botCommits365d: year.filter((c) => c.bot).length,
    lastCommitAt: input.lastCommitAt,
    truncated: !input.complete,
  };
}

/** One release, normalised. */
export interface ReleaseInfo {
  tag: string;
  draft: boolean;
  prerelease: boolean;
  publishedAt: string | null;
  /** Asset names listed (may be fewer than `assetCount`). */
  assetNames: readonly string[];
  assetCount: number;
  /** The release notes as written (REST `body`, GraphQL `description`); null or absent when none. */
  notes?: string | null;
}

/** Lines GitHub's generated notes carry that say nothing by themselves: the compare link, the generator's comment, bare section headings. */
const BARE_NOTES_LINE = /^\s*(?:\**\s*full changelog\s*\**\s*:?\s*\**\s*:?\s*\S*|#{1,6}\s*(?:what'?s changed|new contributors)\s*)$/i;

/**
 * Whether a release carries release notes: text left once HTML comments and GitHub's bare
 * generated lines are removed — a lone "Full Changelog: <compare link>" is no notes; generated
 * notes with a "What's Changed" list are (docs/scoring.md, changelog).
 */
export function hasReleaseNotes(notes: string | null | undefined): boolean {
  if (typeof notes !== 'string') return false;
  const text = notes.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  return text.split(/\r?\n/).some((line) => line.trim() !== '' && !BARE_NOTES_LINE.test(line));
}

/** Signature and provenance files published next to release artefacts. */
const SIGNATURE_ASSET =
  /\.(sig|asc|minisig|sigstore|sigstore\.json|intoto\.jsonl|p7s|pem|crt|cert)$|(^|[._-])provenance([._-].*)?\.jsonl?$|\.bundle$|\.att$/i;

export function isSignatureAsset(name: string): boolean {
  return SIGNATURE_ASSET.test(name);
}

/** How many of the newest published releases are examined for signatures. */
export const RELEASES_EXAMINED = 10;

function newestFirst(a: ReleaseInfo, b: ReleaseInfo): number {
  return (Date.parse(b.publishedAt ?? '') || 0) - (Date.parse(a.publishedAt ?? '') || 0);
}

/**
 * Releases in the last 12 months, the latest one, which of the newest carry signatures, and for
 * a repository's maturity: how many were published in the last RECENT_RELEASE_DAYS days and the
 * oldest listed (the first release when `complete`: the listing holds every release); how many
 * listed, and whether the latest, carry release notes (`hasReleaseNotes`); how many are dated in
 * the future (kept in order, read as undated).
 */
export function summariseReleases(releases: readonly ReleaseInfo[], now: Date, complete: boolean): GithubReleases {
  const listed = releases.filter((r) => !r.draft);
  // A publication date more than a day after `now` is invalid data (docs/security.md, "Dates in the
  // future"): the release keeps its place in GitHub's order (which release is the latest, and
  // whether it is signed, is no question of time) but reads as undated — never recent, never the first.
  const future = new Set(listed.filter((r) => isFutureDate(r.publishedAt, now)));
  const published = listed.sort(newestFirst).map((r) => (future.has(r) ? { ...r, publishedAt: null } : r));
  const dated = published.filter((r) => Number.isFinite(Date.parse(r.publishedAt ?? '')));
  const stable = published.filter((r) => !r.prerelease);
  const latest = stable[0] ?? published[0] ?? null;
  const examined = published.slice(0, RELEASES_EXAMINED);
  return {
    last12Months: stable.filter((r) => within(r.publishedAt, now, 365)).length,
    latest:
      latest === null
        ? null
        : {
            tag: latest.tag,
            publishedAt: latest.publishedAt,
            signatureAssets: latest.assetNames.filter(isSignatureAsset),
            assets: latest.assetCount,
            hasNotes: hasReleaseNotes(latest.notes),
          },
    signedReleases: examined.filter((r) => r.assetNames.some(isSignatureAsset)).length,
    examined: examined.length,
    listed: published.length,
    withNotes: published.filter((r) => hasReleaseNotes(r.notes)).length,
    complete,
    recent: published.filter((r) => within(r.publishedAt, now, RECENT_RELEASE_DAYS)).length,
    oldestPublishedAt: dated.length === 0 ? null : new Date(Date.parse(dated[dated.length - 1]?.publishedAt ?? '')).toISOString(),
    ...(future.size > 0 ? { futureDated: future.size } : {}),
  };
}

/** A parseable date more than the tolerated clock skew after `now` (isFutureTime). */
function isFutureDate(iso: string | null, now: Date): boolean {
  const at = Date.parse(iso ?? '');
  return Number.isFinite(at) && isFutureTime(new Date(at), now);
}

/**
 * How many of the default branch's newest commits the contributors are counted over: REST's
 * first page of the branch's commits (`per_page`), GraphQL's `history(first:)`.
 */
export const RECENT_COMMITS = 100;

/** A commit's author as GitHub links it: the account's login (lower case; null when the commit is linked to none), and whether it is a bot's. */
export interface CommitAuthor {
  login: string | null;
  bot: boolean;
}

/**
 * A commit's author from GitHub's answer: the linked account (REST `author` with its `type`;
 * GraphQL `author.user`, which is never a bot: a bot is no User) and the git author's email
 * and name (a bot without an account is known by its `[bot]` noreply address or name).
 */
export function commitAuthor(
  login: string | null | undefined,
  type: string | null | undefined,
  email: string | null | undefined,
  name: string | null | undefined,
): CommitAuthor {
  const account = typeof login === 'string' && login.trim() !== '' ? login.trim().toLowerCase() : null;
  return { login: account, bot: isBotCommit(login, type, email, name) };
}

/**
 * Contributors over the default branch's newest commits (at most RECENT_COMMITS, newest first),
 * the same for REST and GraphQL: `count` is the people with a GitHub account among their
 * authors (bots left out; a commit linked to no account is examined but counts for nobody, and
 * how many such commits there were is `unlinked`);
 * the bus factor is the fewest of them who made at least half of their commits, and the top
 * share the part of the single most frequent author. Nobody at all: bus factor 0 (nobody to lose).
 */
export function summariseRecentContributors(commits: readonly CommitAuthor[]): GithubContributors {
  const examined = commits.slice(0, RECENT_COMMITS);
  const byPerson = new Map<string, number>();
  let unlinked = 0;
  for (const commit of examined) {
    if (commit.bot) continue;
    if (commit.login === null) unlinked += 1;
    else byPerson.set(commit.login, (byPerson.get(commit.login) ?? 0) + 1);
  }
  const counts = [...byPerson.values()].sort((a, b) => b - a);
  const total = counts.reduce((sum, n) => sum + n, 0);
  let busFactor = 0;
  let topShare: number | null = null;
  if (total > 0) {
    let running = 0;
    for (const n of counts) {
      running += n;
      busFactor += 1;
      if (running * 2 >= total) break;
    }
    topShare = Math.round(((counts[0] ?? 0) / total) * 1000) / 1000;
  }
  return { count: counts.length, busFactor, topShare, basis: 'recent-commits', commitsExamined: examined.length, ...(unlinked > 0 ? { unlinked } : {}) };
}
