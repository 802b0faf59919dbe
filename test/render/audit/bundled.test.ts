/**
 * A package that bundles dependencies in its tarball, in the audit formats: the bundled refs are
 * read from a real lockfile (npm/cli's package-lock.json, where the devDependency tap bundles
 * 163 entries; see fixtures/PROVENANCE.md); the reports they are attached to are the synthetic
 * ones of the other renderer tests.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { foldDependencies } from '../../../src/audit/fold.js';
import { AuditReportSchema } from '../../../src/audit/report-schema.js';
import { readPackageLock } from '../../../src/lockfiles/package-lock.js';
import { renderAuditJson } from '../../../src/render/audit-json.js';
import { renderAuditMarkdown } from '../../../src/render/audit-markdown.js';
import { renderAuditTable } from '../../../src/render/audit-table.js';
import { renderSarif } from '../../../src/render/sarif.js';
import { CHECKS } from '../../../src/checks/index.js';
import { auditOf, deprecated, entryOf, healthy } from '../../audit/policy/reports.js';
import { POLICY } from './sample.js';

const NPM_CLI = new URL('../../../fixtures/lockfiles/real/npm__cli/package-lock.json.gz', import.meta.url);
const subjects = foldDependencies([readPackageLock(gunzipSync(readFileSync(NPM_CLI)).toString('utf8'), 'package-lock.json')], { direct: false, omitDev: false });
const tap = subjects.find((s) => s.name === 'tap')!;

// tap@16.3.10 passes; a failing copy of it (deprecated) shows the same line in the failure's details.
const report = auditOf([
  entryOf(healthy('tap', '16.3.10'), POLICY, { declaredIn: tap.declaredIn, bundled: tap.bundled! }),
  entryOf(deprecated('example', '2.1.0'), POLICY, { declaredIn: [{ file: 'package-lock.json', line: 40, workspace: null }], bundled: tap.bundled!.slice(0, 1) }),
]);

describe('bundled dependencies in the audit formats', () => {
  it('JSON: `subject.bundled` on the bundling package, valid against the schema', () => {
    const parsed = AuditReportSchema.parse(JSON.parse(renderAuditJson(report)));
    const bundled = parsed.entries.find((e) => e.subject.name === 'tap')?.subject.bundled;
    expect(bundled).toHaveLength(163);
    // "node_modules/tap/node_modules/ink" at line 14607.
    expect(bundled?.find((b) => b.name === 'ink')).toEqual({ name: 'ink', version: '3.2.0', file: 'package-lock.json', line: 14607 });
  });

  it('table: one line under the bundling package, passing or failing, with the count and the first names', () => {
    const lines = renderAuditTable(report, { color: false, width: 200 }).split('\n');
    const bundledLines = lines.filter((l) => l.includes('in its tarball'));
    expect(bundledLines).toHaveLength(2);
    expect(bundledLines[0]).toMatch(/bundles (163 dependencies|a dependency) in its tarball/);
    expect(lines.join('\n')).toMatch(/bundles 163 dependencies in its tarball: "@ampproject\/remapping", .*, and 137 more \(installed from it, not audited/);
  });

  it('SARIF: the failing package carries the names it bundles as a property', () => {
    const results = JSON.parse(renderSarif(report, { checks: CHECKS })).runs[0].results as { properties: Record<string, unknown> }[];
    expect(results.map((r) => [r.properties.package, r.properties.bundled])).toEqual([['example', ['@ampproject/remapping']]]);
  });

  it('Markdown: the failing package\'s details name its bundle', () => {
    expect(renderAuditMarkdown(report)).toMatch(/^- bundles a dependency in its tarball: /m);
  });
});
