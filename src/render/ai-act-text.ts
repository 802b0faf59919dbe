/**
 * The regulatory-context line of a report (docs/scoring.md §13): the EU AI Act category the
 * rules suggest, the rule's basis and its own words that fired, and that it is informational.
 * Shared by the terminal table and Markdown so both say the same thing.
 */
import type { Report } from '../report/schema.js';

export interface AiActText {
  title: string;
  /** What was suggested and why, one line. */
  finding: string;
  note: string;
}

const CATEGORY_LABEL: Record<NonNullable<Report['aiAct']>['category'], string> = {
  prohibited: 'a prohibited practice',
  'high-risk': 'high-risk',
  transparency: 'a transparency duty',
  'general-purpose': 'a general-purpose AI model',
  minimal: 'minimal risk',
};

/** The section's parts, or null when the report has none (not an AI tool or MCP server). */
export function aiActText(report: Report): AiActText | null {
  const act = report.aiAct;
  if (act === undefined) return null;
  const label = CATEGORY_LABEL[act.category];
  const finding =
    act.rule === null
      ? `EU AI Act: ${label} — no rule matched what the package says about itself`
      : `EU AI Act: ${label} (${act.basis ?? act.rule}) — the words ${act.words.map((w) => `"${w}"`).join(', ')} in what the package says about itself`;
  return { title: 'Regulatory context', finding, note: act.note };
}
