/**
 * The evidence sources as a user knows them ("GitHub", "OSV vulnerability database"), and
 * what a source's absence leaves unknown, for the lines that explain an unavailable source once.
 */
import type { Report } from './schema.js';

/** What a user calls each evidence source (the report's `sources[].id`). */
export const SOURCE_NAMES: Readonly<Record<string, string>> = {
  registry: 'package registry',
  tarball: 'package contents',
  downloads: 'download counts',
  dependencies: 'dependency data',
  vulnerabilities: 'OSV vulnerability database',
  attestations: 'provenance attestations',
  pypi: 'PyPI',
  github: 'GitHub',
};

/** Names written in lower case even at the start of a sentence. */
const LOWER_CASE_NAMES = /^(npm|pnpm|nerq)\b/;

/** With a capital first letter, to start a sentence; a name written in lower case (npm) is left as it is. */
export function capitalised(text: string): string {
  if (LOWER_CASE_NAMES.test(text)) return text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function sourceName(id: string): string {
  return SOURCE_NAMES[id] ?? id;
}

/** The checks of a report left unknown because `source` was unavailable (their titles, in report order). */
export function checksBlindedBy(report: Pick<Report, 'checks'>, source: string): string[] {
  return report.checks
    .filter((c) => c.status === 'unknown' && c.messageId === 'source-unavailable' && c.evidence.source === source)
    .map((c) => c.title);
}
