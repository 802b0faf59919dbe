/**
 * Responsiveness of a repository: of the issues and pull requests opened in the last 180 days
 * (a bounded sample, bots' own threads left out), how many got a response or were closed, how
 * fast, and how many pull requests were merged. Pure: the REST and GraphQL collectors normalise
 * their answers into `ThreadInfo` first.
 */
import type { GithubResponsiveness } from '../../evidence/github-facts.js';

export const RESPONSIVENESS_WINDOW_DAYS = 180;

/** One issue or pull request, normalised. */
export interface ThreadInfo {
  kind: 'issue' | 'pull';
  createdAt: string;
  closedAt: string | null;
  mergedAt: string | null;
  /** Opened by a bot (left out of the sample). */
  authorBot: boolean;
  /** Answered by someone other than the author, or closed. */
  responded: boolean;
  /** When the first response (or the close) came; null when responded but the time is unknown. */
  respondedAt: string | null;
}

/** A GraphQL thread's first response: the earliest comment or review by another, non-bot account, or the close. */
export function firstResponse(
  author: string | null,
  replies: ReadonlyArray<{ login: string | null; bot: boolean; at: string | null }>,
  closedAt: string | null,
): string | null {
  const times = replies
    .filter((r) => !r.bot && r.at !== null && (author === null || r.login === null || r.login.toLowerCase() !== author.toLowerCase()))
    .map((r) => r.at as string);
  if (closedAt !== null) times.push(closedAt);
  const sorted = times.filter((t) => Number.isFinite(Date.parse(t))).sort((a, b) => Date.parse(a) - Date.parse(b));
  return sorted[0] ?? null;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return Math.round(value * 10) / 10;
}

function hoursBetween(from: string, to: string): number | null {
  const a = Date.parse(from);
  const b = Date.parse(to);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  return Math.max(0, (b - a) / 3_600_000);
}

function group(threads: readonly ThreadInfo[]): { sampled: number; responded: number; medianHoursToResponse: number | null } {
  const hours = threads
    .filter((t) => t.responded && t.respondedAt !== null)
    .map((t) => hoursBetween(t.createdAt, t.respondedAt as string))
    .filter((h): h is number => h !== null);
  return {
    sampled: threads.length,
    responded: threads.filter((t) => t.responded).length,
    medianHoursToResponse: median(hours),
  };
}

/** The window's threads (opened in the last 180 days before `now`, not by a bot) summarised. */
export function summariseResponsiveness(
  threads: readonly ThreadInfo[],
  now: Date,
  method: GithubResponsiveness['method'],
): GithubResponsiveness {
  const start = now.getTime() - RESPONSIVENESS_WINDOW_DAYS * 24 * 3_600_000;
  const inWindow = threads.filter((t) => {
    const at = Date.parse(t.createdAt);
    return !t.authorBot && Number.isFinite(at) && at >= start && at <= now.getTime();
  });
  const issues = inWindow.filter((t) => t.kind === 'issue');
  const pulls = inWindow.filter((t) => t.kind === 'pull');
  return {
    windowDays: RESPONSIVENESS_WINDOW_DAYS,
    issues: group(issues),
    pulls: {
      ...group(pulls),
      merged: pulls.filter((t) => t.mergedAt !== null).length,
      closedUnmerged: pulls.filter((t) => t.closedAt !== null && t.mergedAt === null).length,
    },
    method,
  };
}
