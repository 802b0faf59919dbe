/**
 * Pure summaries of what GitHub listed (REST or GraphQL, normalised first): commit activity,
 * releases and their signatures, contributors and the bus factor.
 */
import type { GithubActivity, GithubContributors, GithubReleases } from '../evidence/github-facts.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `now` minus `days`, as GitHub's `since` parameters want it (no milliseconds). */
export function daysBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function within(iso: string | null, now: Date, days: number): boolean {
  if (iso === null) return false;
  const at = Date.parse(iso);
  return Number.isFinite(at) && at <= now.getTime() && at >= now.getTime() - days * DAY_MS;
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
  /** Commits of the last 365 days that were listed (newest first); all of them when `complete`. */
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
 * Commit counts and distinct non-bot authors for 90 / 365 days. Author counts come from the
 * sample: when it is not complete they are lower bounds and `truncated` is set.
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

/** Releases in the last 12 months, the latest one, and which of the newest carry signatures. */
export function summariseReleases(releases: readonly ReleaseInfo[], now: Date): GithubReleases {
  const published = releases.filter((r) => !r.draft).sort(newestFirst);
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
          },
    signedReleases: examined.filter((r) => r.assetNames.some(isSignatureAsset)).length,
    examined: examined.length,
  };
}

/** One listed contributor. */
export interface ContributorInfo {
  login: string | null;
  bot: boolean;
  contributions: number;
}

/**
 * Contributors: `count` non-bot accounts (`total`, when the listing had more pages, replaces
 * the listed count), and the bus factor over the listed (top) non-bot contributors.
 */
export function summariseContributors(listed: readonly ContributorInfo[], total: number | null): GithubContributors {
  const people = listed.filter((c) => !c.bot).sort((a, b) => b.contributions - a.contributions);
  const commits = people.reduce((sum, c) => sum + Math.max(0, c.contributions), 0);
  let busFactor: number | null = null;
  let topShare: number | null = null;
  if (commits > 0) {
    let running = 0;
    busFactor = 0;
    for (const person of people) {
      running += Math.max(0, person.contributions);
      busFactor += 1;
      if (running * 2 >= commits) break;
    }
    topShare = Math.round(((people[0]?.contributions ?? 0) / commits) * 1000) / 1000;
  } else if (people.length === 0) {
    // Nobody contributed (an empty repository): nobody to lose.
    busFactor = 0;
  }
  return { count: total ?? people.length, busFactor, topShare };
}
