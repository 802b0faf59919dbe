/**
 * The "Compared with N peers" block of a report (`--compare`), as plain parts that the terminal
 * and Markdown renderers write for their medium (each sanitises or escapes every string: peer
 * names and keywords come from the network).
 */
import type { ComparisonSample, Report } from '../report/schema.js';
import { formatScore } from './text.js';

export interface ComparisonText {
  /** "Compared with 5 peers" or "Not compared with peers". */
  title: string;
  /** The standing ("rank 2 of 6 · percentile 75 · median 80.1 · p25 … · p75 …"), or the reason there is none. */
  standing: string;
  /** Where the peers came from, and the notes. */
  sample: string[];
  alternatives: { target: string; score: string; grade: string; verdict: string; why: string; better: string }[];
}

/** The block's parts, or null when the report carries no comparison (no `--compare`). */
export function comparisonText(report: Report): ComparisonText | null {
  if (report.comparison === undefined && report.comparisonUnavailable === undefined) return null;
  const comparison = report.comparison ?? null;
  const alternatives = (report.alternatives ?? []).map((a) => ({
    target: a.target,
    score: formatScore(a.score),
    grade: a.grade ?? '—',
    verdict: a.verdict,
    why: a.why.map((w) => w.text).join('; '),
    better: a.better.length === 0 ? '' : `better ${a.better.join(', ')}`,
  }));
  if (comparison === null) {
    const unavailable = report.comparisonUnavailable;
    const notes = (unavailable?.notes ?? []).filter((n) => n !== unavailable?.reason);
    // Too few peers for a standing: where the few came from, still said.
    const sample = unavailable?.sample === undefined ? notes : [sampleLine(unavailable.sample), ...notes];
    return { title: 'Not compared with peers', standing: unavailable?.reason ?? 'no comparison', sample, alternatives };
  }
  const noun = comparison.peers === 1 ? 'peer' : 'peers';
  return {
    title: `Compared with ${comparison.peers} ${noun} (${comparison.category})`,
    standing: `rank ${comparison.rank} of ${comparison.peers + 1} · percentile ${comparison.percentile} · median ${formatScore(comparison.median)} · p25 ${formatScore(comparison.p25)} · p75 ${formatScore(comparison.p75)}`,
    sample: [sampleLine(comparison.sample), ...comparison.sample.notes],
    alternatives,
  };
}

/** The peer sources (the JSON's ids, src/app/compare.ts) as a reader knows them; another id is shown as it is. */
const SAMPLE_SOURCE_WORDS: Readonly<Record<string, string>> = {
  'npm-search': 'npm registry search',
  'module-replacements': 'the module-replacements list',
  'mcp-registry-search': 'MCP Registry search',
  'mcp-registry': 'MCP Registry search',
  'github-search': 'GitHub repository search',
};

/** Where the peers came from, how many and what became of them, when. */
function sampleLine(sample: ComparisonSample): string {
  const sources = sample.sources.map((id) => SAMPLE_SOURCE_WORDS[id] ?? id).join(', ');
  const from = sample.query === null ? sources : `${sources} (${sample.query})`;
  return `sample: ${from} · ${sample.candidates} candidates, ${sample.skipped} skipped before evaluation, ${sample.excluded} left out after · ${sample.evaluatedAt.slice(0, 10)}`;
}
