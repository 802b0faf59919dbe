/**
 * A registry release the project patches (pnpm `patchedDependencies`, yarn `patch:`), in every
 * audit format: the patch refs are read from a real lockfile (vitejs/vite's pnpm-lock.yaml, see
 * fixtures/PROVENANCE.md); the reports they are attached to are the synthetic ones of the other
 * renderer tests.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { foldDependencies } from '../../../src/audit/fold.js';
import { AuditReportSchema } from '../../../src/audit/report-schema.js';
import type { AuditSubject, PatchRef } from '../../../src/audit/types.js';
import { CHECKS } from '../../../src/checks/index.js';
import { readPnpmLock } from '../../../src/lockfiles/pnpm-lock.js';
import { renderAuditJson } from '../../../src/render/audit-json.js';
import { renderAuditMarkdown } from '../../../src/render/audit-markdown.js';
import { renderAuditTable } from '../../../src/render/audit-table.js';
import { renderSarif } from '../../../src/render/sarif.js';
import { auditOf, deprecated, entryOf, healthy } from '../../audit/policy/reports.js';
import { POLICY } from './sample.js';

const VITE = new URL('../../../fixtures/lockfiles/real/vitejs__vite/pnpm-lock.yaml', import.meta.url);
const subjects = foldDependencies([readPnpmLock(readFileSync(VITE, 'utf8'), 'pnpm-lock.yaml')], { direct: false, omitDev: false });
const patchesOf = (name: string): PatchRef[] => subjects.find((s) => s.name === name)?.patches ?? [];
const placeOf = (name: string): Pick<AuditSubject, 'declaredIn' | 'patches'> => {
  const subject = subjects.find((s) => s.name === name)!;
  return { declaredIn: subject.declaredIn, patches: subject.patches! };
};

// sirv@3.0.2 passes, chokidar@3.6.0 fails (deprecated), example@2.1.0 carries no patch.
const report = auditOf([
  entryOf(healthy('sirv', '3.0.2'), POLICY, placeOf('sirv')),
  entryOf(deprecated('chokidar', '3.6.0'), POLICY, placeOf('chokidar')),
  entryOf(healthy('example', '2.1.0'), POLICY, { declaredIn: [{ file: 'pnpm-lock.yaml', line: 40, workspace: null }] }),
]);

describe('patches of the project in the audit formats', () => {
  it('the real lockfile gives each patched release its patch file and the line of its entry', () => {
    expect(patchesOf('sirv')).toEqual([{ path: 'patches/sirv@3.0.2.patch', file: 'pnpm-lock.yaml', line: expect.any(Number) }]);
    expect(patchesOf('chokidar').map((p) => p.path)).toEqual(['patches/chokidar@3.6.0.patch']);
    expect(patchesOf('picomatch')).toEqual([]);
  });

  it('JSON: `subject.patches` on the patched entries (valid against the schema), absent on the others', () => {
    const parsed = AuditReportSchema.parse(JSON.parse(renderAuditJson(report)));
    const byName = new Map(parsed.entries.map((e) => [e.subject.name, e.subject]));
    expect(byName.get('sirv')?.patches).toEqual(patchesOf('sirv'));
    expect(byName.get('chokidar')?.patches).toEqual(patchesOf('chokidar'));
    expect(byName.get('example')).not.toHaveProperty('patches');
  });

  it('table: the patch file under the patched package, passing or failing', () => {
    const lines = renderAuditTable(report, { color: false, width: 120 }).split('\n');
    const under = (name: string) => lines[lines.findIndex((l) => l.includes(name)) + 1] ?? '';
    expect(under('sirv@3.0.2')).toContain('patches/sirv@3.0.2.patch');
    const chokidar = lines.findIndex((l) => l.includes('chokidar@3.6.0'));
    const details = lines.slice(chokidar + 1, lines.findIndex((l, i) => i > chokidar && /^\S/.test(l)));
    expect(details.filter((l) => l.includes('patches/chokidar@3.6.0.patch'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('.patch'))).toHaveLength(2);
  });

  it('Markdown: a collapsed table of the patched packages with their status, patch file and lockfile line', () => {
    const text = renderAuditMarkdown(report);
    const rows = text.split('\n').filter((l) => l.includes('.patch') && l.startsWith('| '));
    const [sirv] = patchesOf('sirv');
    expect(rows).toEqual([
      expect.stringMatching(/^\| `chokidar@3\.6\.0` \| ❌ fail \| `patches\/chokidar@3\.6\.0\.patch` \| pnpm-lock\.yaml:\d+ \|$/),
      `| \`sirv@3.0.2\` | ✅ pass | \`patches/sirv@3.0.2.patch\` | pnpm-lock.yaml:${sirv?.line} |`,
    ]);
    // The failing package's detail names its patch too.
    expect(text).toMatch(/^- patched by the project: `patches\/chokidar@3\.6\.0\.patch`/m);
  });

  it('SARIF: the failing patched package carries its patch files as a property', () => {
    const results = JSON.parse(renderSarif(report, { checks: CHECKS })).runs[0].results as { properties: Record<string, unknown> }[];
    expect(results.map((r) => [r.properties.package, r.properties.patches])).toEqual([['chokidar', ['patches/chokidar@3.6.0.patch']]]);
  });
});
