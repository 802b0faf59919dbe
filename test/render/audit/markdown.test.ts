import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/audit/types.js';
import { GITHUB_COMMENT_LIMIT, renderAuditMarkdown } from '../../../src/render/audit-markdown.js';
import { DEFAULT_GATE } from '../../../src/scoring/gate.js';
import { auditOf, deprecated, entryOf, entryWith, healthy, reportOf } from '../../audit/policy/reports.js';
import { advisory, unavailable, vulnerabilityFacts } from '../../support/evidence-builder.js';
import { HOSTILE } from '../reports.js';
import { hostileAudit, sampleAudit } from './sample.js';

/** Cells of a table line: split on pipes that are not escaped. */
const cells = (line: string) => line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
const tableLines = (md: string) => md.split('\n').filter((l) => l.startsWith('|'));

describe('renderAuditMarkdown', () => {
  it('passing packages an advisory still affects are listed apart, with the advisory, the fix and the path, as the table says them', () => {
    const report = reportOf({ vulnerabilities: vulnerabilityFacts({ advisories: [advisory({ id: 'GHSA-mod1-0000-0002', severity: 'moderate', cvss: 4.2, fixed: '2.1.1' })] }) });
    const audit = auditOf([entryOf(report, undefined, { direct: false, via: ['webpack', 'terser'] }), entryOf(healthy('b'))]);
    expect(audit.entries.map((e) => e.policy.status)).toEqual(['pass', 'pass']);
    const out = renderAuditMarkdown(audit);
    expect(out).toContain('<summary>⚠️ 1 passing package an advisory affects</summary>');
    const row = tableLines(out).find((l) => l.includes('GHSA-mod1-0000-0002')) ?? '';
    expect(cells(row)).toEqual(['`example@2.1.0`', 'GHSA-mod1-0000-0002 (moderate) affects 2.1.0', 'upgrade to 2.1.1', '`webpack` › `terser`']);
  });

  it('a verdict reason names a dimension by its title (Maintenance), never its id, in the details and the reason column', () => {
    const base = deprecated('worn', '1.0.0');
    const capped = { code: 'dimension-capped', args: { dimension: 'maintenance', cap: 'archived', limit: 49.9, reason: 'the repository is archived' }, text: 'maintenance capped at 49.9: the repository is archived' };
    const report = { ...base, verdictReasons: [capped.text], verdictReasonDetails: [capped] };
    const failing = entryWith(report, { status: 'fail', failures: [{ rule: 'min-score', message: 'score 40.0 is below the minimum 50' }], ignoredBy: null });
    const unchecked = entryWith({ ...report, target: { ...report.target, name: 'worn2' } }, { status: 'incomplete', failures: [], ignoredBy: null }, { name: 'worn2' });
    const out = renderAuditMarkdown(auditOf([failing, unchecked]));
    const reasons = out.split('\n').filter((l) => l.includes('capped at 49.9'));
    expect(reasons.length).toBeGreaterThanOrEqual(2);
    for (const line of reasons) expect([line.includes('Maintenance capped at 49.9'), /`maintenance`|\bmaintenance capped/.test(line)]).toEqual([true, false]);
  });

  it('the grades line says which grades are provisional', () => {
    const unchecked = reportOf({ vulnerabilities: unavailable('osv down') });
    expect(renderAuditMarkdown(auditOf([entryOf(unchecked), entryOf(healthy('b'))]))).toContain('Grades: **A+** 1 · **A+ provisional** 1');
  });

  it('--allow-incomplete changes the exit code only: the grades line still says the unchecked grade is provisional', () => {
    const unchecked = reportOf({ vulnerabilities: unavailable('osv down') }, { ...DEFAULT_GATE, allowIncomplete: true });
    const audit = auditOf([entryOf(unchecked), entryOf(healthy('b'))], {}, true);
    expect(audit.outcome).toEqual({ result: 'pass', exitCode: 0, allowIncomplete: true });
    expect(unchecked.gate.reasonDetails.map((r) => r.code)).toContain('allowed-incomplete');
    expect(renderAuditMarkdown(audit)).toContain('Grades: **A+** 1 · **A+ provisional** 1');
  });

  it('a failing package\'s details give the fix and the path from a direct dependency, as the table does; the cap is said once', () => {
    const report = reportOf({ vulnerabilities: vulnerabilityFacts({ advisories: [advisory({ severity: 'critical', cvss: 9.8, fixed: '2.1.1' })] }) });
    const out = renderAuditMarkdown(auditOf([entryOf(report, undefined, { direct: false, via: ['webpack', 'terser'] })]));
    const details = out.slice(out.indexOf('<details>'), out.indexOf('</details>'));
    expect(details).toContain('- Fix: upgrade to 2.1.1');
    expect(details).toContain('- Via `webpack` › `terser`');
    // The Security dimension's cap is the overall cap's reason again: not a second line.
    expect(details.split('GHSA-xxxx-yyyy-zzzz (critical) affects').length - 1).toBe(1);
  });

  const md = renderAuditMarkdown(sampleAudit({ warnings: [{ code: 'npm-config', message: 'the project .npmrc sets a registry; not followed', details: {} }] }));

  it('a finding an MCP ignore entry covers is a muted line with its reason', () => {
    const ignoredBy = { mcp: 'docs', file: '.mcp.json', reason: 'our own server', expires: null };
    const out = renderAuditMarkdown(
      auditOf([], { warnings: [{ code: 'mcp-remote-unverified', message: '.mcp.json: line 6: MCP server "docs" is unverified', details: {}, ignoredBy }, { code: 'input-note', message: 'a note', details: {} }] }),
    );
    expect(out).toContain('> 🔕 .mcp.json: line 6: MCP server "docs" is unverified — ignored: our own server  \n');
    expect(out).toContain('> ⚠️ a note  ');
    expect(out).toContain('1 MCP server finding ignored');
  });

  it('puts the summary first', () => {
    expect(md.split('\n').slice(0, 9)).toEqual([
      '## nerq audit: ❌ FAIL',
      '',
      '**2 of 7 packages fail the policy; 1 could not be evaluated; 1 ignored; 3 pass**',
      '',
      'Grades: **A+** 3 · **C** 1 · **D** 1 · **F** 1 · **not evaluated** 1',
      '',
      'Inputs: package-lock.json, requirements.txt  ',
      'Policy: .nerqrc.json',
      '',
    ]);
    expect(md).toContain('> ⚠️ the project .npmrc sets a registry; not followed');
  });

  it('then a table of the failing and unevaluated packages, worst first', () => {
    const start = md.indexOf('### Failing and unevaluated packages');
    const table = tableLines(md.slice(start)).slice(0, 5);
    expect(cells(table[0] ?? '')).toEqual(['Status', 'Package', 'Score', 'Grade', 'Verdict', 'Reason', 'Declared in']);
    expect(table.slice(2).map(cells)).toEqual([
      ['❌ fail', '`evil-pkg@0.0.1`', '9.9', 'F', 'DO NOT USE', 'NO — DO NOT USE: known malicious package: MAL-2026-1', 'package.json:8'],
      ['❌ fail', '`old-thing@1.0.0`', '49.9', 'D', 'NO', 'capped at 49.9: version is deprecated: no longer maintained', 'package-lock.json:12'],
      ['❔ not evaluated', '`ghost-pkg@1.0.0`', '—', '—', 'not evaluated', 'npm package "ghost-pkg" was not found in the registry', 'package-lock.json'],
    ]);
  });

  it('then a collapsed detail per failing package, the ignored ones with their reasons, and the passing ones collapsed', () => {
    const order = ['### Failing', '### Why they fail', '<summary>❌ <code>evil-pkg@0.0.1</code> · 9.9/100 · F · NO — DO NOT USE</summary>', '<summary>🔕 1 ignored package</summary>', '<summary>✅ 3 passing packages</summary>'];
    const positions = order.map((s) => md.indexOf(s));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(md).toContain('- capped at 49.9: version is deprecated: no longer maintained');
    // A failure is its sentence, as in the table: no policy rule id as its label.
    expect(md).not.toMatch(/\*\*(capped|min-score|verdict|advisory|malicious|not-checked)\*\*/);
    expect(md).toContain('- Declared in package.json:8, package-lock.json:30 (direct, dev)');
    expect(md).toContain('| `so-so@0.3.0` | 63.6 | verdict CAUTION fails the policy (failOn: caution) | pinned by the build tool | 2026-12-31 |');
    expect(md).toContain('| `chalk@5.3.0` | 97.4 | A+ | YES |');
    expect(md.match(/<details>/g)?.length).toBe(4);
    expect(md.match(/<\/details>/g)?.length).toBe(4);
  });

  it('names packages in code spans: no mailto: link, a scoped name copies without a zero-width character', () => {
    const scoped = renderAuditMarkdown(auditOf([entryWith(healthy('@scope/pkg', '1.2.3'), { status: 'pass', failures: [], ignoredBy: null })]));
    expect(scoped).toContain('| `@scope/pkg@1.2.3` | 97.4 |');
    expect(scoped).not.toContain('&#8203;');
  });

  it('a passing audit has no problem table', () => {
    const ok = renderAuditMarkdown(auditOf([entryWith(healthy(), { status: 'pass', failures: [], ignoredBy: null })]));
    expect(ok.startsWith('## nerq audit: ✅ PASS\n\n**the 1 package passes the policy**')).toBe(true);
    expect(ok).not.toContain('### Failing');
  });

  it('hostile strings cannot break a table, inject HTML or links, or mention anyone', () => {
    const whole = renderAuditMarkdown(hostileAudit(HOSTILE));
    // Package names are code spans (literal text: no link, HTML or mention inside); the rest is escaped.
    const hostile = whole.replace(/(`+)(?!`)[^\n]*?(?<!`)\1(?!`)/g, '`code`').replace(/<code>[^<]*<\/code>/g, '<code>x</code>');
    // Every row has as many cells as its table's header.
    let columns = 0;
    let previous = '';
    for (const line of whole.split('\n')) {
      if (line.startsWith('|') && !previous.startsWith('|')) columns = cells(line).length;
      else if (line.startsWith('|')) expect(cells(line), line).toHaveLength(columns);
      previous = line;
    }
    // The problem table keeps its 7 columns on the hostile row.
    const row = tableLines(whole).find((l) => l.includes('evil')) ?? '';
    expect(cells(row)).toHaveLength(7);
    expect(whole).not.toMatch(/[\u001b\u0007\r\u202e\u200b]/);
    expect(hostile).not.toMatch(/(?<!\\)<img/i); // only as escaped text
    expect(hostile).not.toMatch(/(?<!\\)\]\(/); // no link syntax
    expect(hostile).not.toMatch(/(?<![\w&#;])@octocat/); // no mention
    // Only our own HTML tags remain.
    const tags = hostile.match(/(?<!\\)<\/?[a-z][^>]*>/gi) ?? [];
    expect(new Set(tags)).toEqual(new Set(['<details>', '</details>', '<summary>', '</summary>', '<code>', '</code>']));
  });

  it('stays under the comment limit: the summary is whole, rows are left out with a note', () => {
    const reason = 'capped at 49.9: version is deprecated: '.padEnd(200, 'x');
    const base = deprecated('big', '1.0.0');
    const failing = (i: number): AuditEntry =>
      entryWith(
        { ...base, target: { ...base.target, name: `pkg-${i}` } },
        { status: 'fail', failures: [{ rule: 'capped', message: reason }, { rule: 'min-score', message: 'score 49.9 is below the minimum 50' }], ignoredBy: null },
        { name: `pkg-${i}` },
      );
    const passing = (i: number): AuditEntry =>
      entryWith(healthy(`ok-${i}`, '1.0.0'), { status: 'pass', failures: [], ignoredBy: null });
    const huge = auditOf([...Array.from({ length: 150 }, (_, i) => failing(i)), ...Array.from({ length: 1500 }, (_, i) => passing(i))]);
    const out = renderAuditMarkdown(huge);
    expect(out.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(out.startsWith('## nerq audit: ❌ FAIL\n\n**150 of 1650 packages fail the policy; 1500 pass**')).toBe(true);
    // Every failing package is in the table; the details and passing list gave way.
    expect(tableLines(out).filter((l) => l.startsWith('| ❌ fail')).length).toBe(150);
    expect(out).toMatch(/_Shortened to fit GitHub's comment limit: \d+ rows not shown\. Run `nerq audit --json` for the full result\._\n$/);
    expect(out.match(/<details>/g)?.length).toBe(out.match(/<\/details>/g)?.length);
  });

  it('a smaller limit shortens the failing table too, never the summary', () => {
    const out = renderAuditMarkdown(sampleAudit(), 1200);
    expect(out.length).toBeLessThanOrEqual(1200);
    expect(out).toContain('**2 of 7 packages fail the policy; 1 could not be evaluated; 1 ignored; 3 pass**');
    expect(out).toContain('rows not shown');
  });
});
