/**
 * `npm run validity`: scores every packument of the validity set as of its recording date and
 * prints, per group, n, the median score and the verdicts, then the AUCs and whether each
 * target holds (docs/scoring.md §6b). Exit 1 when a target is missed.
 *
 *   npm run validity                      the figures
 *   npm run validity -- --list abandoned  also every package of a group, with its verdict reasons
 *   npm run validity -- --json            the figures as JSON
 *   npm run validity -- --sensitivity     also the figures under other readings of the unrecorded sources
 */
import { parseArgs } from 'node:util';
import { CHECKS } from '../../src/checks/index.js';
import { buildReport } from '../../src/report/build.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { MEASUREMENT_SOURCES, VARIANTS, evidenceAt, type Variant } from './evidence.js';
import { auc, figuresOf, type GroupFigures, type Scored } from './figures.js';
import { GROUPS, GROUP_RULES, groupFacts, groupOf, type Group } from './groups.js';
import { readIndex, readPackuments } from './set.js';

interface Row extends Scored {
  name: string;
  version: string;
  recordedAt: string;
  group: Group;
  grade: string | null;
  reasons: string[];
  coverage: number;
  /** The category that governs (the strictest that applies: docs/scoring.md §4). */
  category: string;
}

export interface Target {
  id: string;
  text: string;
  value: (figures: Record<Group, GroupFigures>, aucs: Record<string, number | null>) => number | null;
  holds: (value: number) => boolean;
  format: (value: number) => string;
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

export const TARGETS: readonly Target[] = [
  { id: 'abandoned-yes', text: 'abandoned (not deprecated) YES ≤ 5 %', value: (f) => share(f.abandoned.yes, f.abandoned.n), holds: (v) => v <= 0.05, format: percent },
  { id: 'flagship-yes', text: 'flagship YES ≥ 95 %', value: (f) => share(f.flagship.yes, f.flagship.n), holds: (v) => v >= 0.95, format: percent },
  { id: 'finished-small-yes', text: 'finished-small YES ≥ 90 %', value: (f) => share(f['finished-small'].yes, f['finished-small'].n), holds: (v) => v >= 0.9, format: percent },
  { id: 'deprecated-below-50', text: 'deprecated: 100 % below 50', value: (f) => share(f.deprecated.below50, f.deprecated.n), holds: (v) => v >= 1, format: percent },
  { id: 'auc-flagship-abandoned', text: 'AUC flagship > abandoned ≥ 0.98', value: (_, a) => a['flagship>abandoned'] ?? null, holds: (v) => v >= 0.98, format: (v) => v.toFixed(3) },
  { id: 'auc-dormant-abandoned', text: 'AUC dormant > abandoned ≥ 0.85', value: (_, a) => a['dormant>abandoned'] ?? null, holds: (v) => v >= 0.85, format: (v) => v.toFixed(3) },
];

/** Every package of the set, scored as of its recording date. */
export function scoreSet(variant?: Variant): Row[] {
  const index = readIndex();
  const packuments = readPackuments();
  if (packuments.length !== index.packages.length) {
    throw new Error(`the set has ${packuments.length} packuments for ${index.packages.length} index entries`);
  }
  return index.packages.map((entry, i) => {
    const packument = packuments[i] as Record<string, unknown>;
    if (packument.name !== entry.name) throw new Error(`packument ${i} is ${String(packument.name)}, the index says ${entry.name}`);
    // The group follows from the data by the rules: the index records it, the rules must agree.
    const facts = groupFacts(packument, new Date(entry.recordedAt));
    const group = facts === null ? null : groupOf(facts);
    if (group !== entry.group) throw new Error(`${entry.name}: the index says ${entry.group}, the rules say ${String(group)}`);
    const report = buildReport(evidenceAt(packument, entry.version, entry.recordedAt, variant), { checks: CHECKS, gate: DEFAULT_GATE });
    return {
      name: entry.name,
      version: entry.version,
      recordedAt: entry.recordedAt,
      group: entry.group,
      score: report.score,
      grade: report.grade,
      verdictCode: report.verdictCode,
      reasons: report.verdictReasons,
      coverage: report.coverage,
      category: report.category?.id ?? 'none',
    };
  });
}

export function summarise(rows: readonly Row[]) {
  const figures = Object.fromEntries(GROUPS.map((g) => [g, figuresOf(rows.filter((r) => r.group === g))])) as Record<Group, GroupFigures>;
  const of = (g: Group) => rows.filter((r) => r.group === g);
  const aucs = { 'flagship>abandoned': auc(of('flagship'), of('abandoned')), 'dormant>abandoned': auc(of('dormant'), of('abandoned')) };
  const targets = TARGETS.map((t) => {
    const value = t.value(figures, aucs);
    return { id: t.id, text: t.text, value, holds: value !== null && t.holds(value), shown: value === null ? 'n/a' : t.format(value) };
  });
  // How many packages each category governs: a risk or framework category is a stricter or
  // other profile, so a word that over-reaches shows here first.
  const categories: Record<string, number> = {};
  for (const r of rows) categories[r.category] = (categories[r.category] ?? 0) + 1;
  return { figures, aucs, targets, categories };
}

function main(): void {
  const { values } = parseArgs({ options: { list: { type: 'string', multiple: true }, json: { type: 'boolean' }, sensitivity: { type: 'boolean' } } });
  for (const group of values.list ?? []) {
    if (!(GROUPS as readonly string[]).includes(group)) {
      console.error(`unknown group ${JSON.stringify(group)} (groups: ${GROUPS.join(', ')})`);
      process.exit(2);
    }
  }
  const rows = scoreSet();
  const summary = summarise(rows);
  if (values.json) {
    console.log(JSON.stringify(summary, null, 2));
  } else {
    const index = readIndex();
    console.log(`Validity set: ${rows.length} full npm packuments from ${index.source.repository}@${index.source.commit.slice(0, 12)}, each judged at its recording date.`);
    console.log('How each source enters the measurement:');
    for (const s of MEASUREMENT_SOURCES) console.log(`  ${s.source.padEnd(16)}${s.how}`);
    console.log('');
    console.log(`${'group'.padEnd(16)}${'n'.padStart(5)}${'median'.padStart(8)}${'YES'.padStart(6)}${'CAUTION'.padStart(9)}${'NO'.padStart(5)}${'UNKNOWN'.padStart(9)}${'< 50'.padStart(6)}   rule`);
    for (const g of GROUPS) {
      const f = summary.figures[g];
      const cells = [String(f.n).padStart(5), (f.median === null ? '—' : f.median.toFixed(1)).padStart(8), String(f.yes).padStart(6), String(f.caution).padStart(9), String(f.no).padStart(5), String(f.unknown).padStart(9), String(f.below50).padStart(6)];
      console.log(`${g.padEnd(16)}${cells.join('')}   ${GROUP_RULES[g]}`);
    }
    const counts = Object.entries(summary.categories).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    console.log(`categories: ${counts.map(([id, n]) => `${id} ${n}`).join(', ')}`);
    console.log('');
    for (const t of summary.targets) console.log(`${t.holds ? 'holds ' : 'MISSED'}  ${t.text}: ${t.shown}`);
    if (values.sensitivity) {
      for (const [variant, text] of Object.entries(VARIANTS) as [Variant, string][]) {
        const other = summarise(scoreSet(variant));
        console.log(`\nSensitivity, ${text}:`);
        for (const g of GROUPS) {
          const f = other.figures[g];
          console.log(`  ${g.padEnd(16)}n ${f.n}, median ${f.median === null ? '—' : f.median.toFixed(1)}, YES ${f.yes}, CAUTION ${f.caution}, NO ${f.no}`);
        }
        for (const t of other.targets) console.log(`  ${t.holds ? 'holds ' : 'MISSED'}  ${t.text}: ${t.shown}`);
      }
    }
    for (const group of values.list ?? []) {
      console.log(`\n${group}:`);
      for (const r of rows.filter((x) => x.group === group).sort((a, b) => (b.score ?? -1) - (a.score ?? -1))) {
        const score = r.score === null ? '—' : r.score.toFixed(1);
        console.log(`  ${score.padStart(5)} ${r.verdictCode.padEnd(10)} ${r.name}@${r.version} (${r.recordedAt.slice(0, 10)}, coverage ${r.coverage}, ${r.category})${r.reasons.length > 0 ? ` — ${r.reasons.join(' | ')}` : ''}`);
      }
    }
  }
  process.exitCode = summary.targets.every((t) => t.holds) ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
