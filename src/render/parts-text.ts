/**
 * What a repository or an MCP Registry entry is made of, as the JSON lists it (`distribution`,
 * `mcp`): the packages it advertises or runs, each with what nerq found, its container images and
 * remote endpoints — one line each, so the terminal and Markdown show what the JSON holds
 * (docs/scoring.md §9, docs/mcp.md). Inputs are raw report strings (hostile): callers sanitise or
 * escape the results for their medium.
 */
import type { Report } from '../report/schema.js';

export interface PartLine {
  /** The package, image or endpoint, as a reader would copy it. */
  name: string;
  /** What nerq found for it, in words. */
  note: string;
}

export interface PartsText {
  title: string;
  lines: PartLine[];
}

const DISTRIBUTION_STATUS: Readonly<Record<NonNullable<Report['distribution']>['packages'][number]['status'], string>> = {
  verified: 'links back to this repository',
  unconfirmed: 'links here, though no manifest here names it',
  elsewhere: 'published from another repository',
  unlinked: 'published without a link to its source',
  missing: 'not published: anyone could register the name',
  unavailable: 'its registry could not answer',
};

/** A repository target's packages and container images (`distribution`), or null when it has none. */
function distributionText(report: Report): PartsText | null {
  const d = report.distribution;
  if (d === undefined || d.packages.length + d.images.length + d.skipped.length === 0) return null;
  const lines: PartLine[] = d.packages.map((p) => ({
    name: `${p.ecosystem}:${p.name}`,
    note: `${DISTRIBUTION_STATUS[p.status]}${p.linksTo !== null && p.status === 'elsewhere' ? ` (${p.linksTo})` : ''}${p.command === null ? '' : ` · ${p.command}`}`,
  }));
  for (const image of d.images) lines.push({ name: image.name, note: `container image, not evaluated · ${image.command}` });
  if (d.skipped.length > 0) lines.push({ name: d.skipped.join(', '), note: 'not looked up (past the lookup limit)' });
  return { title: 'Packages it distributes', lines };
}

/** An MCP Registry entry's packages with each one's own result, and its remote endpoints (`mcp`). */
function mcpText(report: Report): PartsText | null {
  const m = report.mcp;
  if (m === undefined || m.packages.length + m.remotes.length === 0) return null;
  const lines: PartLine[] = m.packages.map((p) => {
    const r = p.report;
    if (p.target === null || r === null) return { name: p.identifier, note: `not evaluated: ${p.notEvaluated ?? `a ${p.registryType} package`}` };
    const name = p.target;
    if (r.error !== null) return { name, note: `not evaluated: ${r.error.message}` };
    return { name, note: `score ${r.score === null ? '—' : r.score.toFixed(1)} · grade ${r.grade ?? '—'} · ${r.verdict}` };
  });
  for (const remote of m.remotes) lines.push({ name: remote.url, note: `remote endpoint (${remote.type}): its code cannot be inspected` });
  return { title: 'What the MCP server runs', lines };
}

/** The parts of a repository or an MCP entry, or null for any other target. */
export function partsText(report: Report): PartsText | null {
  return mcpText(report) ?? distributionText(report);
}
