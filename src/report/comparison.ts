/**
 * A target among its peers (docs/scoring.md §13): its standing in its category (rank,
 * percentile, the peers' median and quartiles, with the sample they came from) and the
 * alternatives that score strictly higher. Pure: the peers come evaluated by the same engine
 * (app/compare.ts); nothing here is a fixed table or an estimate — no peers, no comparison.
 */
import { buildPopularIndex, findIntended, isPopular, popularIndexFor } from '../checks/lib/typosquat.js';
import { isPackageEcosystem, packageRulesOf } from '../ecosystems/rules.js';
import { DIMENSIONS, type Dimension } from '../model/dimensions.js';
import { roundScore } from '../scoring/grade.js';
import type { Alternative, Comparison, ComparisonSample, ComparisonUnavailable, Peer, Report, VerdictCode } from './schema.js';
import { withoutScope } from '../util/without-scope.js';

/** Alternatives named at most. */
export const MAX_ALTERNATIVES = 3;
/**
 * Scored peers of the category a standing needs: with one or two, a percentile is 0, 50 or 100
 * and the quartiles copy or split their scores — a made-up figure (docs/scoring.md §13).
 */
export const MIN_STANDING_PEERS = 3;

/** A peer's report error that means it could not be evaluated because a source did not answer (not that it does not exist). */
const PEER_UNAVAILABLE_ERRORS: ReadonlySet<string> = new Set(['registry-unavailable']);

/** A peer as the use case evaluated it, with what made it a candidate. */
export interface PeerEvaluation {
  report: Report;
  /** The keywords it shares with the target (from the search listing); empty for none. */
  sharedKeywords: readonly string[];
  /** Named by a curated replacement list for the target, or null. */
  curated: { source: string; url: string | null } | null;
}

/** What a comparison adds to a report. */
export interface ComparisonResult {
  comparison: Comparison | null;
  comparisonUnavailable?: ComparisonUnavailable;
  alternatives: Alternative[];
}

/** How good a verdict is, for "never suggest worse": higher is better; unknown is not ranked. */
const VERDICT_RANK: Record<VerdictCode, number | null> = { yes: 3, caution: 2, no: 1, 'do-not-use': 0, unknown: null };
/** The least an alternative's own verdict may be: nerq does not suggest switching to a package it says NO to. */
const ALTERNATIVE_FLOOR = VERDICT_RANK.caution!;

const round1 = (n: number): number => Math.round(n * 10) / 10;
/**
 * A score as reports print it (one decimal, rounded half up as grade and verdict read it:
 * docs/scoring.md §6): "strictly higher" and the standing are judged at that precision, so a
 * peer is never offered over the target for a difference no report shows (80.04 over 80.01,
 * both 80.0).
 */
const shown = roundScore;

/** The q-quantile (0–1) of sorted values, linear between closest ranks (type 7); one decimal. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error('quantile of no values');
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const value = sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
  return round1(value);
}

/** `name@version` (the version it was evaluated at), or the name. */
export function peerLabel(report: Report): string {
  return report.target.version === null ? report.target.name : `${report.target.name}@${report.target.version}`;
}

/**
 * The standing of `score` among `peerScores` (at least one), judged as printed (one decimal): a
 * peer at 80.04 neither outranks nor trails a target at 80.01 — both read 80.0.
 */
export function standing(target: number, peerScores: readonly number[]): Pick<Comparison, 'rank' | 'percentile' | 'median' | 'p25' | 'p75'> {
  const score = shown(target);
  const sorted = peerScores.map(shown).sort((a, b) => a - b);
  const above = sorted.filter((s) => s > score).length;
  const below = sorted.filter((s) => s < score).length;
  const equal = sorted.length - above - below;
  return {
    rank: 1 + above,
    percentile: Math.round((100 * (below + equal / 2)) / sorted.length),
    median: quantile(sorted, 0.5),
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
  };
}

/** The dimensions where `peer` scores higher than `target` (both known), largest margin first. */
export function betterDimensions(target: Report, peer: Report): Dimension[] {
  const scoreOf = (report: Report, id: Dimension): number | null => report.dimensions.find((d) => d.id === id)?.score ?? null;
  return DIMENSIONS.flatMap((id) => {
    const mine = scoreOf(target, id);
    const theirs = scoreOf(peer, id);
    return mine !== null && theirs !== null && theirs > mine ? [{ id, margin: theirs - mine }] : [];
  })
    .sort((a, b) => b.margin - a.margin || DIMENSIONS.indexOf(a.id) - DIMENSIONS.indexOf(b.id))
    .map((d) => d.id);
}

function whyOf(peer: PeerEvaluation): Alternative['why'] {
  const why: Alternative['why'] = [];
  if (peer.curated !== null) {
    why.push({
      code: 'curated-replacement',
      keywords: [],
      source: peer.curated.source,
      url: peer.curated.url,
      text: `named as a replacement by ${peer.curated.source}`,
    });
  }
  if (peer.sharedKeywords.length > 0) {
    why.push({
      code: 'shared-keywords',
      keywords: [...peer.sharedKeywords],
      source: null,
      url: null,
      text: `shares the keyword${peer.sharedKeywords.length === 1 ? '' : 's'} ${peer.sharedKeywords.join(', ')}`,
    });
  }
  return why;
}

/** A scored report of a peer that can be compared: evaluated, no error, a score. */
const scored = (report: Report): report is Report & { score: number } => report.error === null && report.score !== null;

/** `github.com/owner/name` from a repository URL as a report names it (`git+https://…/name.git`), lower-cased. */
function repositoryKey(url: string | null): string | null {
  if (url === null) return null;
  let key = url.trim().toLowerCase().replace(/^git\+/, '').replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^git@/, '').replace(/^www\./, '');
  while (key.endsWith('/')) key = key.slice(0, -1);
  if (key.endsWith('.git')) key = key.slice(0, -4);
  return key === '' ? null : key.replace(':', '/');
}

/** A name without its npm scope, lower-cased: `@mirror/widgetry` → `widgetry`. */
const bareName = (name: string): string => withoutScope(name).toLowerCase();

/** The peer is the target's own source published under another name: switching changes nothing. */
function sameRepository(target: Report, peer: Report): boolean {
  const mine = repositoryKey(target.target.repository);
  return mine !== null && mine === repositoryKey(peer.target.repository);
}

/**
 * The same name under another scope (`@mirror/widgetry` for `widgetry`), and either declares no
 * repository that would tell them apart: a mirror, for all nerq can tell. A fork with a
 * repository of its own (`@cypress/request` for `request`) is another package.
 */
function scopedMirror(target: Report, peer: Report): boolean {
  if (target.target.ecosystem !== 'npm' || target.target.name === peer.target.name || bareName(target.target.name) !== bareName(peer.target.name)) return false;
  return repositoryKey(target.target.repository) === null || repositoryKey(peer.target.repository) === null;
}

/**
 * The peer's name can be mistaken for the target's (the typosquat rules with the target as the
 * popular name: `widgetri` for `widgetry`) — unless the peer is itself on the popular list, the
 * package a confusable target imitates (`lodash` for `lodahs`).
 */
function confusableWithTarget(target: Report, peer: Report): boolean {
  const mine = target.target.name;
  const theirs = peer.target.name;
  const ecosystem = target.target.ecosystem;
  if (isPackageEcosystem(ecosystem)) {
    const { canonicalName } = packageRulesOf(ecosystem);
    if (isPopular(canonicalName(theirs), popularIndexFor(ecosystem))) return false;
    return findIntended(canonicalName(theirs), buildPopularIndex([canonicalName(mine)])) !== null;
  }
  return findIntended(theirs.toLowerCase(), buildPopularIndex([mine.toLowerCase()])) !== null;
}

/**
 * Reasons that are findings (docs/scoring.md §6): a verdict held by a check (years without a
 * release, a README declaring it unmaintained, install-time code, a likely typosquat…), a
 * dimension capped (an archived repository), a guarding check unknown. A CAUTION for a finding
 * the target does not have is no way out of it; a CAUTION for the category's bar or an
 * unverified repository link is. (A binding cap makes the verdict NO, below the floor.)
 */
const FINDING_CODES: ReadonlySet<string> = new Set(['verdict-held', 'dimension-capped', 'danger-unchecked']);

/** A finding reason's identity: its code and the check or cap it comes from. */
const findingKey = (reason: Report['verdictReasonDetails'][number]): string => `${reason.code}:${String(reason.args.check ?? reason.args.cap ?? reason.text)}`;

/** The first finding that holds the peer's verdict and not the target's, or null. */
function newFindingOf(target: Report, peer: Report): string | null {
  const own = new Set(target.verdictReasonDetails.filter((r) => FINDING_CODES.has(r.code)).map(findingKey));
  return peer.verdictReasonDetails.find((r) => FINDING_CODES.has(r.code) && !own.has(findingKey(r)))?.text ?? null;
}

/**
 * The peer's own deprecation check says it is deprecated (on the registry, by its README's
 * opening or by its registry description): never what to use instead, even for a target deprecated the same way (their shared
 * finding is no new one, so newFindingOf lets it through).
 */
const DEPRECATED_MESSAGES: ReadonlySet<string> = new Set(['deprecated', 'readme-declared', 'description-declared']);

function deprecated(peer: Report): boolean {
  return peer.checks.some((c) => c.id === 'deprecation' && DEPRECATED_MESSAGES.has(c.messageId));
}

/** How much lower a peer's coverage may be than the target's before its score is not comparable (one or two light checks unknown). */
const COVERAGE_TOLERANCE = 0.05;

/**
 * The peer's score rests on less evidence than the target's: a larger share of its checks is
 * unknown (beyond COVERAGE_TOLERANCE), and an unknown check is left out of the mean, not scored
 * (docs/scoring.md §3), so its "higher" score may be the unknowns'.
 */
const lessKnown = (target: Report, peer: Report): boolean => peer.coverage < target.coverage - COVERAGE_TOLERANCE;

/** The peer's own typosquat check holds it: a likely typosquat, or one whose establishment cannot be told. */
function heldAsTyposquat(peer: Report): boolean {
  return peer.checks.some((c) => c.id === 'typosquat' && (c.messageId === 'likely-typosquat' || c.messageId === 'undated'));
}

/**
 * The alternatives to `target` among `peers`: a score strictly higher as printed (one decimal), a verdict no worse and
 * at least CAUTION (a YES target gets only YES ones; a NO target no NO one), not provisional
 * nor of a lower coverage than the target's; in the target's category, or named by the curated list (people who know both
 * say one replaces the other); not the target's repository under another name nor its scoped mirror, not deprecated, not a name
 * confusable with the target's, not held as a likely typosquat by its own check, carrying no
 * finding the target does not carry (FINDING_CODES). Best first (score, then curated, then name), at most MAX_ALTERNATIVES.
 */
export function alternativesOf(target: Report, peers: readonly PeerEvaluation[]): Alternative[] {
  if (!scored(target)) return [];
  const floor = Math.max(ALTERNATIVE_FLOOR, VERDICT_RANK[target.verdictCode] ?? 0);
  const category = target.category?.id ?? null;
  return peers
    .filter((p) => scored(p.report) && shown(p.report.score) > shown(target.score) && !p.report.provisional && !lessKnown(target, p.report))
    .filter((p) => (VERDICT_RANK[p.report.verdictCode] ?? -1) >= floor)
    .filter((p) => p.curated !== null || (p.report.category?.id === category && p.sharedKeywords.length > 0))
    .filter((p) => p.report.target.name !== target.target.name)
    // Never the same package under another name, a look-alike of the target's name, or a likely typosquat.
    .filter((p) => !sameRepository(target, p.report) && !scopedMirror(target, p.report) && !confusableWithTarget(target, p.report) && !heldAsTyposquat(p.report))
    .filter((p) => !deprecated(p.report))
    .filter((p) => newFindingOf(target, p.report) === null)
    // Best first (as printed); on a tie, the one a curated list names, then by name.
    .sort((a, b) => shown(b.report.score!) - shown(a.report.score!) || Number(b.curated !== null) - Number(a.curated !== null) || a.report.target.name.localeCompare(b.report.target.name))
    .slice(0, MAX_ALTERNATIVES)
    .map((p) => ({
      target: peerLabel(p.report),
      score: p.report.score!,
      grade: p.report.grade,
      verdict: p.report.verdict,
      verdictCode: p.report.verdictCode,
      why: whyOf(p),
      better: betterDimensions(target, p.report),
    }));
}

/** Why `peer` is not an alternative to `target`, in the order alternativesOf applies its rules; null when it is one's equal. */
function notOffered(target: Report & { score: number }, peer: PeerEvaluation, floor: number): string | null {
  const r = peer.report;
  if (!scored(r)) return 'not evaluated';
  if (shown(r.score) <= shown(target.score)) return `scores ${r.score.toFixed(1)}, not higher than ${target.score.toFixed(1)}`;
  if (r.provisional) return 'provisional: its evidence is incomplete';
  if (lessKnown(target, r)) return `coverage ${r.coverage.toFixed(2)}, below ${target.target.name}'s ${target.coverage.toFixed(2)}`;
  if ((VERDICT_RANK[r.verdictCode] ?? -1) < floor) return `verdict ${r.verdictCode}`;
  if (sameRepository(target, r)) return `the same repository as ${target.target.name}`;
  if (scopedMirror(target, r)) return `${target.target.name} under another scope, with no repository to tell them apart`;
  if (confusableWithTarget(target, r)) return `its name can be mistaken for ${target.target.name}`;
  if (heldAsTyposquat(r)) return 'a likely typosquat, by its own check';
  if (deprecated(r)) return 'deprecated, by its own check';
  const finding = newFindingOf(target, r);
  if (finding !== null) return `its verdict is held: ${finding}`;
  return null;
}

/**
 * The note when a curated list names replacements that are not offered as alternatives, with
 * why for each (a list that names a replacement and a report that stays silent would mislead:
 * "nothing better exists"). Null when every one named is offered, or none is named.
 */
function curatedNote(target: Report, peers: readonly PeerEvaluation[], alternatives: readonly Alternative[]): string | null {
  if (!scored(target)) return null;
  const curated = peers.filter((p) => p.curated !== null);
  if (curated.length === 0) return null;
  const offered = new Set(alternatives.map((a) => a.target));
  const floor = Math.max(ALTERNATIVE_FLOOR, VERDICT_RANK[target.verdictCode] ?? 0);
  const left = curated
    .filter((p) => !offered.has(peerLabel(p.report)))
    .map((p) => `${peerLabel(p.report)} (${notOffered(target, p, floor) ?? 'beyond the first ' + MAX_ALTERNATIVES})`);
  if (left.length === 0) return null;
  const source = curated[0]!.curated!.source;
  return `${source} names ${curated.map((p) => p.report.target.name).join(', ')} instead of ${target.target.name}; not offered: ${left.join(', ')}`;
}

/**
 * The target's standing among the peers of its category, and its alternatives. The standing is
 * null (with the reason) when the target has no score or fewer than MIN_STANDING_PEERS peers of
 * its category were scored.
 */
export function compareToPeers(
  target: Report,
  peers: readonly PeerEvaluation[],
  sample: Omit<ComparisonSample, 'excluded'>,
): ComparisonResult {
  if (!scored(target)) {
    return { comparison: null, comparisonUnavailable: { code: 'not-evaluated', reason: 'the target has no score to compare', notes: sample.notes }, alternatives: [] };
  }
  const category = target.category?.id ?? 'library';
  const ofCategory = peers.filter((p) => p.report.target.name !== target.target.name && scored(p.report) && (p.report.category?.id ?? 'library') === category);
  // A provisional score rests on less evidence than the gate needs: no member of the median, and said so.
  const members = ofCategory.filter((p) => !p.report.provisional);
  const provisional = ofCategory.filter((p) => p.report.provisional);
  // Only search candidates count as the sample; a curated peer of the same category counts too.
  const excluded = peers.length - members.length;
  const list: Peer[] = members
    .map((p) => ({ target: peerLabel(p.report), score: p.report.score!, grade: p.report.grade, verdictCode: p.report.verdictCode }))
    .sort((a, b) => b.score - a.score || a.target.localeCompare(b.target));
  const alternatives = alternativesOf(target, peers);
  const note = curatedNote(target, peers, alternatives);
  const provisionalNote =
    provisional.length === 0
      ? null
      : `${provisional.length} provisional peer${provisional.length === 1 ? '' : 's'} left out of the standing: ${provisional.map((p) => peerLabel(p.report)).join(', ')} (a score on less evidence than the gate needs)`;
  const notes = [...sample.notes, ...[provisionalNote, note].filter((n) => n !== null)];
  // Peers whose registry could not answer were not evaluated: too few scored for that reason is not "no peers".
  // So are those the sample left unevaluated (GitHub's rate limit).
  const unanswered = peers.filter((p) => p.report.error !== null && PEER_UNAVAILABLE_ERRORS.has(p.report.error.code)).length;
  const unevaluated = sample.unevaluated?.length ?? 0;
  const unavailable = unanswered + unevaluated;
  const chosen = peers.length + unevaluated;
  if (members.length < MIN_STANDING_PEERS && unavailable > 0 && members.length + unavailable >= MIN_STANDING_PEERS) {
    const why = [
      ...(unanswered > 0 ? [`${unanswered} could not be evaluated (their registry did not answer)`] : []),
      ...(unevaluated > 0 ? [`${unevaluated} ${unevaluated === 1 ? 'was' : 'were'} not evaluated (GitHub's rate limit)`] : []),
    ].join(' and ');
    const reason = `of the ${chosen} peers, ${why}, and ${members.length === 0 ? 'none' : `only ${members.length}`} scored in the ${category} category: a standing needs at least ${MIN_STANDING_PEERS}`;
    return {
      comparison: null,
      comparisonUnavailable: { code: 'peers-unavailable', reason, notes, counts: { candidates: chosen, unavailable, scored: members.length }, members: list, sample: { ...sample, notes, excluded } },
      alternatives,
    };
  }
  if (members.length < MIN_STANDING_PEERS) {
    const reason =
      peers.length === 0
        ? `no candidate peer in the ${category} category from ${sample.sources.join(', ') || 'any source'}`
        : members.length === 0
          ? `none of the ${peers.length} peers evaluated scored in the ${category} category`
          : `only ${members.length} of the ${peers.length} peers evaluated scored in the ${category} category (${members.map((p) => peerLabel(p.report)).join(', ')}): a standing needs at least ${MIN_STANDING_PEERS}`;
    return { comparison: null, comparisonUnavailable: { code: 'no-peers', reason, notes, members: list, sample: { ...sample, notes, excluded } }, alternatives };
  }
  return {
    comparison: {
      category,
      peers: list.length,
      ...standing(target.score, list.map((p) => p.score)),
      members: list,
      sample: { ...sample, notes, excluded },
    },
    alternatives,
  };
}
