/**
 * Rules every GitHub check shares, applied before its own scoring (pure):
 *
 * 1. An absent repository (`missing` 404, `blocked` 451) is a fact, but only commit-activity
 *    scores it; every other GitHub check is unknown with that reason.
 * 2. Starjacking: a repository whose link to the package is not verified is not credited.
 *    Every GitHub check is unknown with the link's reason, so a typosquat that names a famous
 *    repository inherits none of its popularity, activity or hygiene.
 * 3. A section GitHub could not answer (null) is unknown with `unknown[section]` as the reason.
 *
 * A fork (docs/scoring.md §9, "A fork"): its default branch carries the commits of the repository
 * it was forked from, and with them its authors and files, so the checks that would credit those
 * (commit-activity, contributors, community-files) say unknown with `fork-copied` whenever the
 * data would credit anything, rather than count the parent's work as the fork's (`forkCopied`).
 * When GitHub's comparison with the parent told the fork's own commits apart (`forkCommits`,
 * a repository target only), commit-activity and contributors judge those instead
 * (`ownForkCommits`), never above what the copied facts would score.
 */
import type { GithubFacts, GithubForkCommits, GithubRepository, GithubResponsiveness, GithubSection } from '../../evidence/schema.js';
import type { CapRequest, CheckOutcome, EvidenceValue } from '../define.js';
import type { Dimension } from '../../model/dimensions.js';
import { truncate } from './text.js';

/** Reasons quote names from the network (a package.json `name`): kept short. */
const MAX_REASON_CHARS = 200;

/** Messages for rule 1, for every GitHub check except commit-activity (which scores absence). */
export const GITHUB_ABSENT_MESSAGES = {
  'repository-missing': 'Unknown: repository missing ({reason})',
  'repository-blocked': 'Unknown: repository blocked ({reason})',
} as const;

/** Messages for rules 2 and 3, for every GitHub check. */
export const GITHUB_UNKNOWN_MESSAGES = {
  'link-unverified': 'Unknown: repository link not verified ({reason})',
  'section-unknown': 'Unknown: GitHub {section} facts unavailable ({reason})',
} as const;

/** The message of a check whose facts a fork copies from its parent (see the header). */
export const GITHUB_FORK_MESSAGES = {
  'fork-copied': 'Unknown: {repository} is a fork of {parent}; what it copied from there cannot be told from its own work (check the parent: {parentCheck})',
} as const;

/**
 * For a fork, the outcome of a check whose facts the fork copies from its parent: unknown with the
 * parent named (`parent` null when GitHub did not name it), never the parent's work credited; null
 * for a repository that is no fork. Leaving a check out of its dimension's mean could raise the
 * mean (a low score the copied facts earn beside higher ones), so below 100 the outcome caps the
 * dimension at the score the copied facts would have had (`fork-copied`): the fork never scores
 * better than it would with them counted.
 */
export function forkCopied(
  repository: GithubRepository,
  data: Record<string, EvidenceValue>,
  copied: { check: string; dimension: Dimension; score: number },
): CheckOutcome<'fork-copied'> | null {
  if (!repository.fork) return null;
  const parent = repository.parent ?? null;
  const parentCheck = parent === null ? 'none named' : `nerq check github:${parent}`;
  const cap: CapRequest = {
    id: 'fork-copied',
    limit: copied.score,
    dimension: copied.dimension,
    reason: `a fork's ${copied.check} facts may be its parent's: ${copied.dimension} no higher than they would score`,
    args: { check: copied.check, parent: parent ?? '' },
  };
  return {
    score: null,
    messageId: 'fork-copied',
    data: { ...data, fork: true, parent: parent ?? 'a repository GitHub does not name', parentCheck, copiedScore: copied.score },
    ...(copied.score < 100 ? { caps: [cap] } : {}),
  };
}

/**
 * A fork's own commits (evidence `forkCommits`), when they were compared with the parent the
 * repository names; null for a repository that is no fork, or when they were not told apart.
 */
export function ownForkCommits(github: GithubFacts, repository: GithubRepository): GithubForkCommits | null {
  const own = github.forkCommits;
  if (!repository.fork || own === undefined || repository.parent === null) return null;
  return own.parent.toLowerCase() === repository.parent.toLowerCase() ? own : null;
}

/** A note for messages when GitHub listed fewer own commits than the fork has: the counts are lower bounds. */
export function listedNote(own: GithubForkCommits): string {
  return own.listed < own.aheadBy ? `; GitHub listed ${own.listed} of its ${own.aheadBy} own commits, so the counts are at least these` : '';
}

export type GithubAbsentMessageId = keyof typeof GITHUB_ABSENT_MESSAGES;
export type GithubUnknownMessageId = keyof typeof GITHUB_UNKNOWN_MESSAGES;

/** The reason shown for an absent repository when the source gave none. */
export function absenceReason(github: GithubFacts): string {
  if (github.absentReason !== null && github.absentReason.trim() !== '') return truncate(github.absentReason.trim(), MAX_REASON_CHARS);
  return github.state === 'blocked'
    ? 'GitHub answered 451: access blocked for legal reasons'
    : 'GitHub answered 404: no such repository';
}

/** Sections as the check asked for them, known to be answered. */
export type GithubSectionFacts<S extends GithubSection> = { [K in S]: NonNullable<GithubFacts[K]> };

export type GithubReading<S extends GithubSection, M extends string> =
  | { ok: true; repository: GithubRepository; sections: GithubSectionFacts<S>; data: Record<string, EvidenceValue> }
  | { ok: false; outcome: CheckOutcome<M> };

/** Rule 1: the unknown outcome for an absent repository, or null when it is present. */
export function absentUnknown(github: GithubFacts): CheckOutcome<GithubAbsentMessageId> | null {
  if (github.state === 'present') return null;
  return {
    score: null,
    messageId: github.state === 'missing' ? 'repository-missing' : 'repository-blocked',
    data: { state: github.state, reason: absenceReason(github) },
  };
}

/**
 * Rules 2 and 3 for a repository known to be present (commit-activity, which scores absence,
 * calls this after handling `state`; the others use `readGithub`).
 */
export function readPresentGithub<const S extends GithubSection = never>(
  github: GithubFacts,
  sections: readonly S[] = [],
): GithubReading<S, GithubUnknownMessageId> {
  const repository = github.repository;
  const name = repository?.fullName ?? null;
  if (github.link.verifiedBy === null) {
    const reason = linkReason(github);
    return {
      ok: false,
      outcome: { score: null, messageId: 'link-unverified', data: { repository: name, verifiedBy: null, reason } },
    };
  }
  if (repository === null) return sectionUnknown(name, 'repository', 'GitHub gave no repository facts');
  const found: Partial<Record<GithubSection, unknown>> = {};
  for (const section of sections) {
    const value = github[section];
    if (value === null) return sectionUnknown(name, section, github.unknown[section] ?? 'no reason given');
    found[section] = value;
  }
  return {
    ok: true,
    repository,
    sections: found as GithubSectionFacts<S>,
    data: { repository: repository.fullName, verifiedBy: github.link.verifiedBy },
  };
}

/** All three rules: `ok` with the repository and the requested sections, or the unknown outcome to return. */
export function readGithub<const S extends GithubSection = never>(
  github: GithubFacts,
  sections: readonly S[] = [],
): GithubReading<S, GithubAbsentMessageId | GithubUnknownMessageId> {
  const absent = absentUnknown(github);
  return absent === null ? readPresentGithub(github, sections) : { ok: false, outcome: absent };
}

function linkReason(github: GithubFacts): string {
  const reason = github.link.reason.trim();
  return reason === '' ? 'no reason given' : truncate(reason, MAX_REASON_CHARS);
}

function sectionUnknown(repository: string | null, section: string, reason: string): { ok: false; outcome: CheckOutcome<'section-unknown'> } {
  return { ok: false, outcome: { score: null, messageId: 'section-unknown', data: { repository, section, reason } } };
}

/**
 * For the verdict: the repository whose facts are not credited to the package (an unverified
 * link) and why, or null when they are (verified, or no repository present to credit).
 */
export function unverifiedLink(github: GithubFacts): { repository: string | null; detail: string } | null {
  if (github.state !== 'present' || github.link.verifiedBy !== null) return null;
  return { repository: github.repository?.fullName ?? null, detail: linkReason(github) };
}

/** `part` of `whole` as a whole percentage (0 when there is no whole). */
export function percent(part: number, whole: number): number {
  return whole <= 0 ? 0 : Math.round((Math.max(0, part) / whole) * 100);
}

/** Hours as a short duration for messages: `5 hours`, `3.5 days` (the evidence keeps hours). */
export function durationLabel(hours: number): string {
  if (hours < 48) {
    const h = Math.round(hours * 10) / 10;
    return `${h} ${h === 1 ? 'hour' : 'hours'}`;
  }
  const days = Math.round((hours / 24) * 10) / 10;
  return `${days} days`;
}

/** How a response was counted, in words (the evidence keeps the method id). */
export function methodLabel(method: GithubResponsiveness['method']): string {
  return method === 'first-response' ? 'first comment or review by someone else' : 'a comment or a close';
}
