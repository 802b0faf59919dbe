/**
 * Reasons: why a verdict is what it is, why the gate failed, why a score is capped — as a
 * stable code, the values it names and the plain-text sentence. Programs (JSON, SARIF, an API)
 * switch on `code` and read `args`; people read `text`. Renderers write a reason for their
 * medium with `formatReason`: Markdown puts names in code spans, the terminal writes them plain.
 *
 * Every code and its sentence are defined once, here (docs/scoring.md lists them). A code's
 * meaning never changes; a new kind of reason gets a new code.
 */
import { percentsApart } from './percents-apart.js';

/** A value a reason names: ids, names, limits, scores. */
export type ReasonArg = string | number | boolean | null;

export interface Reason {
  code: string;
  args: Record<string, ReasonArg>;
  /** The sentence in plain text (the JSON's reason strings are exactly these). */
  text: string;
}

/** How a medium writes the variable parts of a reason. */
export interface ReasonStyle {
  /** An identifier: a dimension, a repository, a check or cap id. */
  name(value: string): string;
  /** Free text, often from the network (a cap's reason, an error message). */
  text(value: string): string;
  /**
   * A dimension (`maintenance`) as the medium says it: a report for people says its title
   * ("Maintenance"), as the check report's dimension bars do. Without it, a name.
   */
  dimension?(id: string): string;
}

/** A dimension as a style writes it: its own way, else as a name. */
const dimensionIn = (id: string, style: ReasonStyle): string => (style.dimension === undefined ? style.name(id) : style.dimension(id));

/** Plain text: everything as it is (the terminal sanitises the whole line itself). */
export const PLAIN_STYLE: ReasonStyle = { name: (value) => value, text: (value) => value };

type Template<A> = (args: A, style: ReasonStyle) => string;

interface ReasonDefinition<A> {
  /** Where the reason appears (docs/scoring.md lists the codes by it). */
  appearsIn: 'verdict' | 'gate' | 'verdict, gate';
  /** What it means, for docs/scoring.md. */
  meaning: string;
  sentence: Template<A>;
}

function define<A extends Record<string, ReasonArg>>(definition: ReasonDefinition<A>): ReasonDefinition<A> {
  return definition;
}

/** A cap as a reason names it. */
interface CapArgs extends Record<string, ReasonArg> {
  /** The cap's id (`malicious`, `deprecated`…: docs/scoring.md §5). */
  cap: string;
  limit: number;
  /** The cap's own reason sentence. */
  reason: string;
}

/** A check as a reason names it. */
interface CheckArgs extends Record<string, ReasonArg> {
  check: string;
  title: string;
  detail: string;
}

/** The risk categories (docs/scoring.md §4) in words, with their article: the ids are not prose ("a mcp-server"). */
const RISK_CATEGORY_NOUNS: Readonly<Record<string, string>> = {
  'mcp-server': 'an MCP server',
  'ai-agent-tool': 'an AI-agent tool',
  'code-execution': 'a code-execution tool',
};

const REASONS = {
  'do-not-use-cap': define<CapArgs>({
    appearsIn: 'verdict',
    meaning: 'a cap sets the verdict to NO — DO NOT USE (known malicious, security placeholder, quarantined); the sentence is the cap\'s reason',
    sentence: (a, s) => s.text(a.reason),
  }),
  'nothing-evaluated': define<Record<string, never>>({
    appearsIn: 'verdict',
    meaning: 'no check could be evaluated: the verdict is UNKNOWN',
    sentence: () => 'no check could be evaluated',
  }),
  capped: define<CapArgs>({
    appearsIn: 'verdict, gate',
    meaning: 'the overall score is capped; the gate fails',
    sentence: (a, s) => `capped at ${a.limit}: ${s.text(a.reason)}`,
  }),
  'dimension-capped': define<CapArgs & { dimension: string }>({
    appearsIn: 'verdict',
    meaning: 'one dimension\'s score is capped; the verdict is at best CAUTION',
    sentence: (a, s) => `${dimensionIn(a.dimension, s)} capped at ${a.limit}: ${s.text(a.reason)}`,
  }),
  'danger-unchecked': define<CheckArgs>({
    appearsIn: 'verdict',
    meaning: 'a check that guards against danger is unknown; the verdict is at best CAUTION',
    sentence: (a, s) => `${s.text(a.title)}: not checked — ${s.text(a.detail)}`,
  }),
  'verdict-held': define<CheckArgs>({
    appearsIn: 'verdict',
    meaning:
      'a check holds the verdict at CAUTION at best without capping the score — a finding (likely typosquat, install-time code that fetches or evaluates, release anomalies, a provenance mismatch, an advisory below the cap\'s severities, a README declaring the package deprecated) or years without a release; the detail says what would lift it',
    sentence: (a, s) => `${s.text(a.title)}: ${s.text(a.detail)}`,
  }),
  provisional: define<{ coverage: number; minCoverage: number }>({
    appearsIn: 'verdict',
    meaning: 'coverage is below `--min-coverage` and a source did not answer (an MCP entry\'s package registry included): the score is provisional and the verdict at best CAUTION (the gate: not evaluated)',
    sentence: (a) => {
      const [coverage, minimum] = percentsApart(a.coverage, a.minCoverage);
      return `not enough evidence: coverage ${coverage}% is below the ${minimum}% a verdict needs, so the score is provisional; the missing sources answering would lift this`;
    },
  }),
  'provisional-thin': define<{ coverage: number; minCoverage: number }>({
    appearsIn: 'verdict',
    meaning: 'coverage is below `--min-coverage` though every source answered: the target gives too little to judge; the score is provisional and the verdict at best CAUTION (the gate: not evaluated)',
    sentence: (a) => {
      const [coverage, minimum] = percentsApart(a.coverage, a.minCoverage);
      return `not enough evidence: coverage ${coverage}% is below the ${minimum}% a verdict needs, so the score is provisional; every source answered, and what they hold on this target is too little to judge it by`;
    },
  }),
  'provisional-no-repository': define<{ coverage: number; minCoverage: number; sourcesUnavailable: boolean }>({
    appearsIn: 'verdict',
    meaning:
      'coverage is below `--min-coverage` and the target (an MCP Registry entry, an npm or PyPI package) names no source repository nerq can read (none, or one not on GitHub), so its repository checks are unknown; `sourcesUnavailable` says whether a source also did not answer. The score is provisional and the verdict at best CAUTION (the gate: not evaluated)',
    sentence: (a) => {
      const [coverage, minimum] = percentsApart(a.coverage, a.minCoverage);
      const also = a.sourcesUnavailable ? ', and a source did not answer' : '';
      return `not enough evidence: coverage ${coverage}% is below the ${minimum}% a verdict needs, so the score is provisional; it names no source repository nerq can read, so the repository's checks are unknown${also}`;
    },
  }),
  'category-bar': define<{ category: string; score: number; bar: number }>({
    appearsIn: 'verdict',
    meaning: 'an MCP server, AI-agent tool or code-execution tool scores below the bar its category needs for YES (80): at best CAUTION',
    sentence: (a, s) =>
      `${RISK_CATEGORY_NOUNS[a.category] ?? `a ${s.name(a.category)}`} acts with your credentials, tools or shell: it needs ${a.bar} for YES, and scores ${a.score.toFixed(1)}`,
  }),
  'link-unverified': define<{ repository: string | null; detail: string }>({
    appearsIn: 'verdict',
    meaning: 'the package\'s repository link is not verified, so the repository is not credited; the verdict is at best CAUTION',
    sentence: (a, s) =>
      `repository ${a.repository === null ? 'the declared repository' : s.name(a.repository)} is not verified as this package's (${s.text(a.detail)}): its popularity and activity are not credited`,
  }),
  'not-evaluated': define<{ error: string; message: string }>({
    appearsIn: 'verdict',
    meaning: 'the target could not be evaluated (the report\'s `error` says why); the sentence is the error\'s message',
    sentence: (a, s) => s.text(a.message),
  }),
  'below-minimum': define<{ score: number; threshold: number }>({
    appearsIn: 'gate',
    meaning: 'the score is below `--min-score`: the gate fails',
    sentence: (a) => `score ${a.score.toFixed(1)} is below the minimum ${a.threshold}`,
  }),
  'below-floor': define<{ dimension: string; score: number; floor: number }>({
    appearsIn: 'gate',
    meaning: 'a dimension is below its policy floor: the gate fails',
    sentence: (a, s) => `${dimensionIn(a.dimension, s)} ${a.score.toFixed(1)} is below its floor ${a.floor}`,
  }),
  'evaluation-failed': define<{ error: string; message: string }>({
    appearsIn: 'gate',
    meaning: 'the target could not be evaluated: not evaluated',
    sentence: (a, s) => `could not be evaluated: ${s.text(a.message)}`,
  }),
  'no-score': define<Record<string, never>>({
    appearsIn: 'gate',
    meaning: 'nothing could be scored: not evaluated',
    sentence: () => 'no score: nothing could be evaluated',
  }),
  'not-checked': define<{ title: string; reason: string }>({
    appearsIn: 'gate',
    meaning: 'a check that guards against danger (known vulnerabilities, malicious packages) could not run: not evaluated, unless `--allow-incomplete`',
    sentence: (a, s) => `${s.text(a.title)} not checked: ${s.text(a.reason)}`,
  }),
  uninspected: define<{ title: string; reason: string }>({
    appearsIn: 'gate',
    meaning: 'a guarding check is unknown because what it guards is code nerq cannot inspect (an MCP server whose only packages are container images, NuGet packages or bundles, or a remote-only one): not evaluated, and `--allow-incomplete` does not lift it',
    sentence: (a, s) => `${s.text(a.title)}: ${s.text(a.reason)}`,
  }),
  'allowed-incomplete': define<{ title: string; reason: string }>({
    appearsIn: 'gate',
    meaning: 'a guarding check could not run and `--allow-incomplete` let the gate pass anyway',
    sentence: (a, s) => `allowed by --allow-incomplete: ${s.text(a.title)} not checked: ${s.text(a.reason)}`,
  }),
  'low-coverage': define<{ coverage: number; minCoverage: number }>({
    appearsIn: 'gate',
    meaning: 'coverage is below `--min-coverage`: not evaluated',
    sentence: (a) => {
      const [coverage, minimum] = percentsApart(a.coverage, a.minCoverage);
      return `coverage ${coverage}% is below the minimum ${minimum}%`;
    },
  }),
} as const;

export type ReasonCode = keyof typeof REASONS;
export type ReasonArgs<C extends ReasonCode> = Parameters<(typeof REASONS)[C]['sentence']>[0];

/** Every code, where it appears and what it means (docs/scoring.md). */
export const REASON_CODES: readonly { code: ReasonCode; appearsIn: string; meaning: string }[] = Object.entries(REASONS).map(
  ([code, definition]) => ({ code: code as ReasonCode, appearsIn: definition.appearsIn, meaning: definition.meaning }),
);

/** A reason with its plain-text sentence. */
export function reasonOf<C extends ReasonCode>(code: C, args: ReasonArgs<C>): Reason {
  const sentence = REASONS[code].sentence as Template<ReasonArgs<C>>;
  return { code, args: args as Record<string, ReasonArg>, text: sentence(args, PLAIN_STYLE) };
}

function isReasonCode(code: string): code is ReasonCode {
  return Object.hasOwn(REASONS, code);
}

/**
 * A reason written for a medium. A code this build does not know (a report from a newer nerq),
 * or arguments that do not fit its sentence, fall back to the reason's own text.
 */
export function formatReason(reason: Reason, style: ReasonStyle): string {
  if (!isReasonCode(reason.code)) return style.text(reason.text);
  const sentence = REASONS[reason.code].sentence as Template<Record<string, ReasonArg>>;
  try {
    const plain = sentence(reason.args, PLAIN_STYLE);
    return plain === reason.text ? sentence(reason.args, style) : style.text(reason.text);
  } catch {
    return style.text(reason.text);
  }
}
