/**
 * The check: nerq's unit of extension (docs/scoring.md §2).
 *
 * A check is pure: it reads facts from the evidence and the context (`now` is passed in),
 * and answers a score 0–100, or `null` for unknown, with a message id and the raw evidence
 * behind it. It never does I/O, never reads the clock, never formats colour.
 */
import type { Sources, SourceId } from '../evidence/schema.js';
import type { ReasonArg } from '../model/reason.js';
import type { ViewFacts, ViewId } from './views/index.js';
import { DIMENSIONS, type Dimension } from '../model/dimensions.js';
import { formatNumber } from './lib/format-number.js';

export { DIMENSIONS, type Dimension };

/** What a check can name in `needs` / `optional`: a source of the evidence or a view (views/index.ts). */
export type NeedId = SourceId | ViewId;

type FactsById = { [K in SourceId]: Extract<Sources[K], { status: 'ok' }>['facts'] } & ViewFacts;

/** Facts of the sources and views a check needs, already known to be `ok`. */
export type FactsOf<N extends NeedId> = {
  [K in N]: FactsById[K];
};

export interface CheckContext {
  /** The evaluation instant (NERQ_NOW, the evidence's capturedAt, or the real clock). */
  now: Date;
}

/**
 * A cap the check asks for: the overall score is at most `limit` (docs/scoring.md §5) — or, with
 * `dimension`, that dimension's score is at most `limit` (an archived repository's maintenance).
 */
export interface CapRequest {
  id: string;
  limit: number;
  dimension?: Dimension;
  /** Sets the verdict to `NO — DO NOT USE` (known malicious / placeholder). */
  doNotUse?: boolean;
  /**
   * A bound, not a finding: one carried from another evaluation (an MCP server's weakest package)
   * or set by what nerq cannot inspect (`mcp-uninspected`: the check that sets it is unknown, so
   * the target is incomplete — docs/mcp.md, "Code nerq cannot inspect"). It lowers the score, but
   * neither fails the gate by itself nor stands in for evidence — a thin report under it is still
   * provisional (docs/scoring.md §5).
   */
  ceiling?: boolean;
  /** The sentence: `id` is its code, `args` the values it names (the report's cap). */
  reason: string;
  args?: Record<string, ReasonArg>;
}

export type EvidenceValue = string | number | boolean | null | (string | number)[];

export interface CheckOutcome<M extends string = string> {
  /** 0–100, or null when the facts cannot answer (unknown, excluded from the mean). */
  score: number | null;
  messageId: M;
  /** Raw numbers, dates and ids that the message is built from (also the JSON `evidence`). */
  data?: Record<string, EvidenceValue>;
  caps?: CapRequest[];
  /**
   * A reason the verdict may be no better than CAUTION (e.g. a moderate advisory affects the
   * resolved version), saying what would lift it. Unlike a cap it moves neither the score nor
   * the gate.
   */
  holdVerdict?: string;
  /**
   * The question does not apply to this target's facts (provenance for a release published
   * before its registry offered any): the check is left out of the report and of coverage, as
   * when a source it needs does not exist for the target.
   */
  notApplicable?: true;
}

export interface CheckDefinition<
  N extends NeedId = NeedId,
  M extends string = string,
  O extends NeedId = never,
> {
  /** kebab-case, equal to the file name, stable forever (JSON and SARIF use it). */
  id: string;
  dimension: Dimension;
  /** Relative weight inside its dimension. */
  weight: number;
  /**
   * Sources and views it reads; if any is unavailable the check is unknown with that source's
   * reason, and if any is not-applicable the check does not apply to the target and is left out
   * of the report (and of coverage).
   */
  needs: readonly N[];
  /** Sources and views it uses when available (their facts are `undefined` otherwise). */
  optional?: readonly O[];
  title: string;
  /** One or two sentences for docs/checks.md: what it measures and how it scores. */
  description: string;
  /**
   * True for checks whose unknown state could hide danger (known vulnerabilities,
   * malicious package): while any of them is unknown the verdict is at most CAUTION.
   */
  guardsDanger?: boolean;
  /**
   * The verdict hold (a sentence; the source's reason is added) when a source it needs or uses
   * (`optional`: the check is then unknown too) stopped reading at a cap (`unread`, evidence/schema.ts): unknown is then not "nothing there", since
   * what was not read still acts (a tarball npm extracts in full).
   */
  holdsWhenUnread?: string;
  /** Message templates; `{key}` is replaced by `data[key]`. */
  messages: Record<M, string>;
  // Method form on purpose: its parameters are bivariant, so every typed check is an AnyCheck.
  evaluate(facts: FactsOf<N> & Partial<FactsOf<O>>, ctx: CheckContext): CheckOutcome<M>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCheck = CheckDefinition<any, string, any>;

export function defineCheck<
  const N extends NeedId,
  const M extends string,
  const O extends NeedId = never,
>(def: CheckDefinition<N, M, O>): CheckDefinition<N, M, O> {
  return def;
}

/** Templates split at their placeholders (text, key, text, …, text), by template: checks have a few each. */
const splitTemplates = new Map<string, readonly string[]>();
const MAX_SPLIT_TEMPLATES = 1000;

function templateParts(template: string): readonly string[] {
  let parts = splitTemplates.get(template);
  if (parts === undefined) {
    // The capture group keeps the keys: odd positions are keys, even ones the text between.
    parts = template.split(/\{(\w+)\}/);
    if (splitTemplates.size < MAX_SPLIT_TEMPLATES) splitTemplates.set(template, parts);
  }
  return parts;
}

/**
 * The nouns message templates count, plural → singular: after a number that is 1 the template's
 * plural reads singular ("1 contributor", "1 release"), so no template needs two forms.
 */
const SINGULAR: Readonly<Record<string, string>> = {
  advisories: 'advisory',
  anomalies: 'anomaly',
  authors: 'author',
  blocks: 'block',
  characters: 'character',
  commits: 'commit',
  contributors: 'contributor',
  days: 'day',
  dependencies: 'dependency',
  downloads: 'download',
  files: 'file',
  forks: 'fork',
  issues: 'issue',
  maintainers: 'maintainer',
  releases: 'release',
  requests: 'request',
  stars: 'star',
  versions: 'version',
  wheels: 'wheel',
  workflows: 'workflow',
};

/** The verb that follows a counted noun, plural → singular ("1 JavaScript file is", not "are"). */
const SINGULAR_VERB: Readonly<Record<string, string>> = { are: 'is', were: 'was', have: 'has' };

/** `rest` (what follows a noun made singular) with its verb made singular when it starts with one. */
function verbAfterSingular(rest: string): string {
  const verb = /^ (\w+)\b/.exec(rest)?.[1];
  return verb !== undefined && SINGULAR_VERB[verb] !== undefined ? ` ${SINGULAR_VERB[verb]}${rest.slice(1 + verb.length)}` : rest;
}

/** `text` with its first word made singular when it is a counted plural (`" contributors; …"` → `" contributor; …"`), and the verb right after it. */
function singularAfterOne(text: string): string {
  const words = /^ (\w+)( (\w+))?/.exec(text);
  if (words === null) return text;
  const [, first = '', , second] = words;
  if (SINGULAR[first] !== undefined) return ` ${SINGULAR[first]}${verbAfterSingular(text.slice(1 + first.length))}`;
  // "1 code blocks" → "1 code block": one word (not a number) may stand between.
  if (second !== undefined && !/^\d/.test(first) && SINGULAR[second] !== undefined) {
    return ` ${first} ${SINGULAR[second]}${verbAfterSingular(text.slice(2 + first.length + second.length))}`;
  }
  return text;
}

/** Fill `{key}` placeholders from data; unknown keys stay visible so a bad template shows. */
export function formatMessage(template: string, data: Record<string, EvidenceValue> = {}): string {
  const parts = templateParts(template);
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i]!;
    const value = data[key];
    let after = parts[i + 1]!;
    if (value === undefined) out += `{${key}}`;
    else if (Array.isArray(value)) out += value.join(', ');
    // Numbers read better grouped (298,417,562); the evidence keeps the raw value.
    // (en-US, one fraction digit: Intl's text without loading ICU's number formatting.)
    else if (typeof value === 'number') {
      out += formatNumber(value);
      if (value === 1) after = singularAfterOne(after);
    } else out += String(value);
    out += after;
  }
  return out;
}

/** Status follows from the score, the same way everywhere (docs/scoring.md §2). */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'unknown';
export function statusOf(score: number | null): CheckStatus {
  if (score === null) return 'unknown';
  if (score >= 70) return 'pass';
  if (score >= 40) return 'warn';
  return 'fail';
}

/**
 * A check's status (docs/scoring.md §2): from its score, except that a check which caps the
 * score is a failure whatever its score (a critical advisory takes off 60 points but caps the
 * package at 49.9: it reads `fail`, never `warn`), and one that holds the verdict back is at
 * best a warning (a moderate advisory affecting this version is not a pass). A ceiling is a
 * bound, not a finding (§5): an MCP server bounded by its weakest package, which scores 93,
 * reads from that score.
 */
export function statusOfOutcome(
  score: number | null,
  outcome: { caps?: readonly { ceiling?: boolean | undefined }[] | undefined; holdVerdict?: string | undefined },
): CheckStatus {
  const status = statusOf(score);
  if (status === 'unknown') return status;
  if ((outcome.caps ?? []).some((cap) => cap.ceiling !== true)) return 'fail';
  if (outcome.holdVerdict !== undefined && status === 'pass') return 'warn';
  return status;
}
