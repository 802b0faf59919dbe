/**
 * The hostile-world suite's summary: per category, the cases it covered and how
 * many passed, the largest measured time against its bound, and the peak RSS. The tests
 * record those figures in their `meta.hostile` (test/hostile/support/metrics.ts).
 *
 * As a Vitest reporter (next to the default one):
 *   npx vitest run test/hostile --reporter=default --reporter=./scripts/hostile-summary.ts
 * Or over a JSON report written earlier:
 *   npx vitest run test/hostile --reporter=json --outputFile=hostile.json
 *   node scripts/hostile-summary.ts hostile.json
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Reporter, TestModule } from 'vitest/node';

export interface HostileMeta {
  cases: number;
  wallMs: number | null;
  boundMs: number | null;
  peakRssBytes: number | null;
  /** Known findings (`it.fails` tests asserting a contract broken today). */
  knownFailures?: number;
}

/** One test as the summary needs it. */
export interface TestOutcome {
  file: string;
  name: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  meta: HostileMeta | undefined;
}

export interface CategoryRow {
  category: string;
  tests: number;
  testsPassed: number;
  cases: number;
  casesPassed: number;
  /** Known findings: `it.fails` tests that pass while their bug is there (reported, not fixed yet). */
  knownFailures: number;
  /** The measurement closest to its bound. */
  largest: { wallMs: number; boundMs: number; test: string } | null;
  peakRssBytes: number | null;
}

/** Test file → category, in the issue's order (a category may span several files). */
export const CATEGORIES: readonly [file: string, category: string][] = [
  ['faults.test.ts', '1 network faults'],
  ['packages.test.ts', '2 hostile packages'],
  ['injection.test.ts', '3 terminal/document injection'],
  ['bad-input.test.ts', '4 bad input'],
  ['fuzz.test.ts', '5 property-based fuzzing'],
  ['fuzz-sources.test.ts', '5 property-based fuzzing'],
  ['fuzz-lockfiles.test.ts', '5 property-based fuzzing'],
  ['fuzz-module-readers.test.ts', '5 property-based fuzzing'],
  ['fuzz-mcp-registry.test.ts', '5 property-based fuzzing'],
  ['secrets.test.ts', '6 secrets'],
  ['mcp-inline-code.test.ts', '6 secrets'],
  ['manifest-confusion.test.ts', '7 manifest confusion'],
  ['lockfile-injection.test.ts', '8 lockfile injection'],
  ['package-lock-paths.test.ts', '8 lockfile injection'],
  ['unvouched-dependencies.test.ts', '9 dependencies no registry vouches for'],
  ['hollow-provenance.test.ts', '10 hollow provenance'],
  ['odd-field-types.test.ts', '11 odd field types'],
  ['starjacking.test.ts', '12 starjacking by path'],
  ['symlinks.test.ts', '13 symlinked inputs and store files'],
  ['workspace-walk.test.ts', '13 symlinked inputs and store files'],
  ['super-linear.test.ts', '14 super-linear parsing'],
  ['claude-state.test.ts', '14 super-linear parsing'],
  ['yaml-nesting.test.ts', '14 super-linear parsing'],
  ['silent-proxy.test.ts', '15 a proxy that never answers'],
  ['large-tarballs.test.ts', '16 memory on real projects'],
  ['policy-rewrite.test.ts', '17 the policy a pull request can rewrite'],
  ['output-channels.test.ts', '18 output channels'],
  ['url-credentials.test.ts', '19 credentials in URLs'],
  ['confusable-text.test.ts', '20 look-alike names'],
  ['repository-hosts.test.ts', '20 look-alike names'],
  ['ci-log-commands.test.ts', '21 CI runner commands in the log'],
  ['mcp-launch-wrappers.test.ts', '22 MCP launches behind wrappers'],
  ['mcp-launch-extra-code.test.ts', '22 MCP launches behind wrappers'],
  ['runner-flag-spellings.test.ts', '22 MCP launches behind wrappers'],
  ['dlx-flag-spellings.test.ts', '22 MCP launches behind wrappers'],
  ['front-doors.test.ts', '23 front doors (serve, mcp)'],
  ['bundled-dependencies.test.ts', '24 bundled dependencies'],
  ['extraction-paths.test.ts', '25 where extraction puts a file'],
  ['dependency-confusion-payloads.test.ts', '26 dependency-confusion payloads'],
  ['install-script-code.test.ts', '27 the code a package runs'],
  ['import-time-code.test.ts', '27 the code a package runs'],
  ['workflow-calls.test.ts', '28 workflow calls'],
  ['duplicate-keys.test.ts', '29 keys named twice'],
  ['canonical-names.test.ts', '30 odd canonical names'],
  ['readme-html-installs.test.ts', '31 what a README tells people to run'],
  ['pip-option-spellings.test.ts', '32 option spellings pip reads'],
  ['python-sources.test.ts', '33 where a Python project sends a dependency'],
  ['npm-overrides.test.ts', '34 overrides a manifest makes'],
  ['sbom-identity.test.ts', '35 an SBOM that names one package and points at another'],
  ['install-settings.test.ts', "36 the package manager's own settings"],
  ['yaml-documents.test.ts', '37 YAML documents past the first'],
  ['invisible-code.test.ts', '38 code hidden in invisible characters or reordered by bidirectional controls'],
  ['sbom-syntaxes.test.ts', '39 SBOMs in XML and tag-value'],
  ['evidence-summaries.test.ts', '40 evidence that claims more than it holds'],
  ['lockfile-hash-sets.test.ts', '41 a pin that accepts more bytes than the release\'s'],
  ['project-registries.test.ts', '42 the registry the audited project names'],
  ['names-that-lie.test.ts', '43 names that lie (hosts in lockfile keys, oversized names)'],
  ['repository-lies.test.ts', '44 repositories that lie (listings, files, registries, branch names)'],
  ['repository-installs.test.ts', '45 README installs that pipe a download into a shell'],
  ['agent-directed-text.test.ts', '46 text written for the AI agent (metadata that instructs it, answers that quote it)'],
  ['command-shadowing.test.ts', '47 commands a package puts on PATH (bin names that replace system and toolchain commands)'],
];

export function summarise(tests: readonly TestOutcome[]): CategoryRow[] {
  const rows = new Map<string, CategoryRow>();
  for (const [, category] of CATEGORIES) {
    rows.set(category, { category, tests: 0, testsPassed: 0, cases: 0, casesPassed: 0, knownFailures: 0, largest: null, peakRssBytes: null });
  }
  for (const test of tests) {
    const category = CATEGORIES.find(([file]) => path.basename(test.file) === file)?.[1];
    if (category === undefined) continue;
    const row = rows.get(category)!;
    const passed = test.state === 'passed';
    row.tests += 1;
    if (passed) row.testsPassed += 1;
    const meta = test.meta;
    if (meta === undefined) continue;
    // A known finding's test passes while its bug is there: counted apart, never as a case passed.
    if (passed) row.knownFailures += meta.knownFailures ?? 0;
    row.cases += meta.cases;
    if (passed) row.casesPassed += meta.cases;
    if (meta.wallMs !== null && meta.boundMs !== null) {
      const ratio = meta.wallMs / meta.boundMs;
      if (row.largest === null || ratio > row.largest.wallMs / row.largest.boundMs) row.largest = { wallMs: meta.wallMs, boundMs: meta.boundMs, test: test.name };
    }
    if (meta.peakRssBytes !== null) row.peakRssBytes = Math.max(row.peakRssBytes ?? 0, meta.peakRssBytes);
  }
  return [...rows.values()];
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mib = (bytes: number | null): string => (bytes === null ? '—' : `${Math.round(bytes / (1024 * 1024))} MiB`);

export function formatSummary(rows: readonly CategoryRow[]): string {
  const header = ['category', 'cases', 'passed', 'largest time / bound', 'peak RSS'];
  const body = rows.map((row) => [
    row.category,
    String(row.cases),
    `${row.casesPassed}${row.testsPassed < row.tests ? ` (${row.tests - row.testsPassed} tests failed)` : ''}${row.knownFailures > 0 ? ` (${row.knownFailures} known findings)` : ''}`,
    row.largest === null ? '—' : `${seconds(row.largest.wallMs)} / ${seconds(row.largest.boundMs)} (${Math.round((100 * row.largest.wallMs) / row.largest.boundMs)}%)`,
    mib(row.peakRssBytes),
  ]);
  const total = rows.reduce(
    (sum, row) => ({ cases: sum.cases + row.cases, passed: sum.passed + row.casesPassed, known: sum.known + row.knownFailures }),
    { cases: 0, passed: 0, known: 0 },
  );
  const peak = rows.reduce<number | null>((max, row) => (row.peakRssBytes === null ? max : Math.max(max ?? 0, row.peakRssBytes)), null);
  const totalPassed = `${total.passed}${total.known > 0 ? ` (${total.known} known findings)` : ''}`;
  const table = [header, ...body, ['total', String(total.cases), totalPassed, '', mib(peak)]];
  const widths = header.map((_, i) => Math.max(...table.map((line) => line[i]!.length)));
  const lines = table.map((line) => line.map((cell, i) => (i === 0 || i === 3 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd());
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return `\nnerq hostile-world suite\n${lines.join('\n')}\n`;
}

/** Outcomes from Vitest's JSON reporter file. */
export function outcomesFromJson(json: { testResults: { name: string; assertionResults: { title: string; status: string; meta?: { hostile?: HostileMeta } }[] }[] }): TestOutcome[] {
  return json.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({
      file: file.name,
      name: test.title,
      state: test.status === 'passed' ? 'passed' : test.status === 'failed' ? 'failed' : 'skipped',
      meta: test.meta?.hostile,
    })),
  );
}

/** The reporter: prints the summary when the run ends. */
export default class HostileSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const outcomes: TestOutcome[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        outcomes.push({ file: module.moduleId, name: test.name, state: test.result().state, meta: (test.meta() as { hostile?: HostileMeta }).hostile });
      }
    }
    process.stdout.write(formatSummary(summarise(outcomes)));
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (file === undefined) {
    process.stderr.write('usage: node scripts/hostile-summary.ts <vitest-json-report>\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(formatSummary(summarise(outcomesFromJson(JSON.parse(readFileSync(file, 'utf8'))))));
  }
}
