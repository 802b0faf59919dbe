/**
 * Reasons as people read them: a dimension by its title ("Maintenance capped at 49.9: …"), as
 * the check report's dimension bars and alerts name it, never its id (`maintenance`), which is
 * the JSON's (`verdictReasonDetails[].args.dimension`).
 */
import { formatReason, PLAIN_STYLE, type Reason } from '../model/reason.js';
import { DIMENSION_TITLES } from '../scoring/profiles.js';

const TITLES: Readonly<Record<string, string | undefined>> = DIMENSION_TITLES;

/** A dimension's title (`Maintenance`); an id this build does not know, as it is. */
export function dimensionTitle(id: string): string {
  return Object.hasOwn(TITLES, id) ? (TITLES[id] ?? id) : id;
}

/** A reason in plain text with its dimension by title (the terminal and the annotations sanitise it). */
export function reasonInWords(reason: Reason): string {
  return formatReason(reason, { ...PLAIN_STYLE, dimension: dimensionTitle });
}

/** A report's first verdict reason in words; its plain text when it carries no code (a report from an older nerq). */
export function firstVerdictReason(report: { verdictReasons: readonly string[]; verdictReasonDetails?: readonly Reason[] }): string | null {
  const coded = report.verdictReasonDetails?.[0];
  const text = report.verdictReasons[0];
  if (text === undefined) return null;
  return coded !== undefined && coded.text === text ? reasonInWords(coded) : text;
}
