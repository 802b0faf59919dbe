/**
 * Display words shared by the renderers: the target label, the order in which checks are
 * grouped, and the gate's status word. Inputs are raw report strings; callers sanitise or
 * escape the results for their format.
 */
import { isModuleEcosystem } from '../ecosystems/osv-ecosystems.js';
import { rulesOf } from '../ecosystems/rules.js';
import type { CheckResult, Previous, Report } from '../report/schema.js';

/** `name@version` (npm, GitHub) or `name==version` (PyPI); the bare name when unresolved. */
export function targetLabel(target: Report['target']): string {
  if (target.version === null || target.version === '') return target.name || target.input;
  // A Go module or crate (an audit entry: README.md, "nerq audit [dir]") is `name@version`, as npm writes it.
  if (isModuleEcosystem(target.ecosystem)) return `${target.name}@${target.version}`;
  return rulesOf(target.ecosystem).versionLabel(target.name, target.version);
}

/** Hex digits of a commit shown beside a pinned target's label, as git abbreviates it. */
const SHORT_COMMIT = 7;

/** ` (commit abc1234)` after a `github:owner/repo@ref` target's label: the commit its ref named when read; '' otherwise. */
export function commitNote(target: Report['target']): string {
  return target.commit === undefined || target.commit === '' ? '' : ` (commit ${target.commit.slice(0, SHORT_COMMIT)})`;
}

/**
 * Where a repository target comes from, one line each: the repository it is a fork of, with the
 * check to run on that one (its history and contributors are the parent's as much as its own),
 * the name it moved from, and the folder of its repository an MCP entry is read in.
 */
export function originLines(target: Report['target']): string[] {
  const lines: string[] = [];
  if (target.fork !== undefined) {
    const parent = target.fork.parent;
    lines.push(
      parent === null
        ? 'fork of a repository GitHub does not name: its history and contributors may be another project\'s'
        : `fork of ${parent}: ${ownText(target.fork.own)}; check the parent: nerq check ${target.fork.check ?? `github:${parent}`}`,
    );
  }
  if (target.renamedFrom !== undefined) lines.push(`moved from ${target.renamedFrom}`);
  // An MCP entry read in one folder of its repository (docs/scoring.md §8a): `owner/repo/src/everything`.
  if (target.folder !== undefined) {
    const repository = target.repository?.replace(/^https?:\/\/(?:www\.)?github\.com\//i, '').replace(/(?:\.git)?\/*$/, '');
    lines.push(`repository ${repository === undefined || repository === '' ? '' : `${repository}/`}${target.folder}`);
  }
  return lines;
}

/** What a fork's comparison with its parent says of its own commits, or that its history may be the parent's. */
function ownText(own: NonNullable<Report['target']['fork']>['own']): string {
  if (own === undefined) return "its history and contributors may be the parent's";
  if (own.aheadBy === 0) return `no commits of its own (${own.status}${own.behindBy > 0 ? `, ${own.behindBy} behind` : ''}): its history and contributors are the parent's`;
  const newest = own.lastCommitAt === null ? '' : `, newest ${own.lastCommitAt.slice(0, 10)}`;
  return `${own.aheadBy} commits of its own (${own.status}, ${own.behindBy} behind${newest}); the rest of its history is the parent's`;
}

/**
 * `code-execution (MCP server whose description says "runs code"; also mcp-server)`: the category
 * that governs, the rule that decided it, and the other categories that apply (the JSON's
 * `matches`), so no format drops a label another shows.
 */
export function categoryText(category: NonNullable<Report['category']>): string {
  const others = (category.matches ?? []).map((m) => m.id).filter((id) => id !== category.id);
  const notes = [...(category.reason === '' ? [] : [category.reason]), ...(others.length === 0 ? [] : [`also ${others.join(', ')}`])];
  return notes.length === 0 ? category.id : `${category.id} (${notes.join('; ')})`;
}

export type GateState = 'passed' | 'failed' | 'could not be evaluated';

export function gateState(gate: Report['gate']): GateState {
  if (gate.passed === true) return 'passed';
  if (gate.passed === false) return 'failed';
  return 'could not be evaluated';
}

export interface CheckGroup {
  id: CheckResult['dimension'];
  title: string;
  checks: CheckResult[];
}

/**
 * Checks grouped by dimension, in the report's dimension order (then any dimension the
 * report lists no result for), each group in the report's check order.
 */
export function groupChecks(report: Report): CheckGroup[] {
  const groups = new Map<CheckResult['dimension'], CheckGroup>();
  for (const d of report.dimensions) groups.set(d.id, { id: d.id, title: d.title, checks: [] });
  for (const check of report.checks) {
    let group = groups.get(check.dimension);
    if (group === undefined) {
      group = { id: check.dimension, title: check.dimension, checks: [] };
      groups.set(check.dimension, group);
    }
    group.checks.push(check);
  }
  return [...groups.values()].filter((g) => g.checks.length > 0);
}

/** Evidence value as text (arrays comma-separated, an empty one as `(none)`, null as `null`). */
export function evidenceText(value: CheckResult['evidence'][string]): string {
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.join(', ');
  return String(value);
}

/**
 * The change since the previous evaluation: `▲ +3.1 since 2026-10-02 (was 69.1 B, 5.2.0)`,
 * `◆ unchanged since 2026-10-02 (75.9 B, 5.3.0)`, and, for a move of 5 or more, what moved it
 * (dimensions and checks by title). Empty when there is nothing to compare.
 */
export function previousLines(report: Report, ascii = false): string[] {
  const previous = report.previous;
  if (previous === null) return [];
  const date = previous.evaluatedAt.slice(0, 10);
  const was = `was ${previous.score === null ? '—' : previous.score.toFixed(1)}${previous.grade ? ` ${previous.grade}` : ''}${previous.version ? `, ${previous.version}` : ''}`;
  const change = previous.change;
  const arrow = change === null || change === 0 ? (ascii ? '=' : '◆') : change > 0 ? (ascii ? '^' : '▲') : ascii ? 'v' : '▼';
  const amount = change === null ? 'no comparable score' : `${change > 0 ? '+' : change < 0 ? '−' : '±'}${Math.abs(change).toFixed(1)}`;
  // The same score is no change to sign: say so, with what it was — "score unchanged" and the
  // version it was for when another version is evaluated now.
  if (change === 0) {
    const moved = previous.version !== null && previous.version !== undefined && previous.version !== '' && previous.version !== report.target.version;
    return [moved ? `${arrow} score unchanged since ${date} (${was})` : `${arrow} unchanged since ${date} (${was.slice('was '.length)})`];
  }
  const lines = [`${arrow} ${amount} since ${date} (${was})`];
  if (previous.movers.length > 0) {
    const fmt = (n: number | null) => (n === null ? '—' : n.toFixed(1));
    const title = (m: Previous['movers'][number]) =>
      (m.kind === 'dimension' ? report.dimensions.find((d) => d.id === m.id)?.title : report.checks.find((c) => c.id === m.id)?.title) ?? m.id;
    lines.push(`moved by: ${previous.movers.map((m) => `${title(m)} ${fmt(m.from)} → ${fmt(m.to)}`).join(', ')}`);
  }
  return lines;
}
