import { describe, expect, it } from 'vitest';
import { renderAuditTable } from '../../../src/render/audit-table.js';
import { displayWidth } from '../../../src/render/text.js';
import { DEFAULT_GATE } from '../../../src/scoring/gate.js';
import { advisory, unavailable, vulnerabilityFacts } from '../../support/evidence-builder.js';
import { applyPolicy, mergePolicy } from '../../../src/audit/policy.js';
import { uncheckedWords } from '../../../src/render/audit-labels.js';
import { auditOf, deprecated, entryOf, entryWith, healthy, notFound, NOW, reportOf, subjectOf } from '../../audit/policy/reports.js';
import { HOSTILE } from '../reports.js';
import { hostileAudit, sampleAudit } from './sample.js';

/** A package with a high advisory fixed in 2.1.1, brought in by webpack › terser. */
function vulnerable() {
  const report = reportOf({ vulnerabilities: vulnerabilityFacts({ advisories: [advisory({ summary: 'A long summary of what goes wrong '.repeat(3) })] }) });
  return auditOf([entryOf(report, undefined, { direct: false, via: ['webpack', 'terser'] })]);
}

const ANSI = /\u001b\[[0-9;]*m/g;

describe('renderAuditTable', () => {
  it('the grades line says which grades are provisional: a package not checked for vulnerabilities is no A+ beside checked ones', () => {
    const unchecked = reportOf({ vulnerabilities: unavailable('osv down') });
    const out = renderAuditTable(auditOf([entryOf(unchecked), entryOf(healthy('b'))]), { color: false, width: 80 });
    expect(out).toContain('\nGrades: A+ 1 · A+ provisional 1\n');
  });

  it('--allow-incomplete changes the exit code only: a package not checked for vulnerabilities is still counted provisional', () => {
    const unchecked = reportOf({ vulnerabilities: unavailable('osv down') }, { ...DEFAULT_GATE, allowIncomplete: true });
    const audit = auditOf([entryOf(unchecked), entryOf(healthy('b'))], {}, true);
    expect(audit.outcome).toEqual({ result: 'pass', exitCode: 0, allowIncomplete: true });
    expect(unchecked.gate.reasonDetails.map((r) => r.code)).toContain('allowed-incomplete');
    expect(audit.entries.map((e) => e.policy.status)).toEqual(['incomplete', 'pass']);
    const out = renderAuditTable(audit, { color: false, width: 80 });
    expect(out).toContain('\nGrades: A+ 1 · A+ provisional 1\n');
  });

  it('a passing package an advisory affects says so under its line, with the fix and the path (npm audit lists it too)', () => {
    const report = reportOf({ vulnerabilities: vulnerabilityFacts({ advisories: [advisory({ id: 'GHSA-mod1-0000-0002', severity: 'moderate', cvss: 4.2, fixed: '2.1.1' })] }) });
    const audit = auditOf([entryOf(report, undefined, { direct: false, via: ['webpack', 'terser'] })]);
    expect(audit.entries[0]?.policy.status).toBe('pass');
    const lines = renderAuditTable(audit, { color: false, width: 80 }).split('\n');
    const at = lines.findIndex((l) => /^PASS /.test(l));
    expect(lines.slice(at + 1, at + 4).map((l) => l.trim())).toEqual(['GHSA-mod1-0000-0002 (moderate) affects 2.1.0', 'fix: upgrade to 2.1.1', 'via webpack › terser']);
  });

  const out = renderAuditTable(sampleAudit(), { color: false, width: 200 });
  const lines = out.split('\n');

  it('lists every package worst first, one line each (status, name, score, grade, verdict), what to act on under it', () => {
    const rows = lines.filter((l) => /^(FAIL|NOT EVALUATED|IGNORED|PASS) /.test(l));
    // The status word may be two words (NOT EVALUATED): the name follows it.
    expect(rows.map((l) => l.replace(/^(FAIL|NOT EVALUATED|IGNORED|PASS) +/, '').split(/\s+/)[0])).toEqual([
      'evil-pkg@0.0.1',
      'old-thing@1.0.0',
      'ghost-pkg@1.0.0',
      'so-so@0.3.0',
      'requests==2.31.0',
      'chalk@5.3.0',
      'example@2.1.0',
    ]);
    expect(rows[0]).toMatch(/^FAIL +evil-pkg@0\.0\.1 +9\.9 {2}F {6}DO NOT USE$/);
    expect(rows.find((l) => l.includes('ghost-pkg'))).toMatch(/^NOT EVALUATED {2}ghost-pkg@1\.0\.0 /);
    expect(rows[5]).toMatch(/^PASS +chalk@5\.3\.0 +97\.4 +A\+ +YES$/);
    // Every failure of a failing package, under its name, whole.
    const under = (name: string) => {
      const at = lines.findIndex((l) => l.includes(` ${name} `));
      const next = lines.findIndex((l, i) => i > at && /^\S/.test(l));
      return lines.slice(at + 1, next < 0 ? undefined : next).map((l) => l.trim());
    };
    expect(under('old-thing@1.0.0')).toEqual([
      'capped at 49.9: version is deprecated: no longer maintained',
      'score 49.9 is below the minimum 50',
      'verdict NO — USE WITH CAUTION fails the policy (failOn: caution)',
    ]);
    expect(under('ghost-pkg@1.0.0')).toEqual(['npm package "ghost-pkg" was not found in the registry']);
    // An ignored package says why it is ignored and until when, then what it would fail.
    expect(under('so-so@0.3.0')).toEqual(['ignored: pinned by the build tool (until 2026-12-31)', 'would fail: verdict CAUTION fails the policy (failOn: caution)']);
    expect(under('chalk@5.3.0')).toEqual([]);
  });

  it('starts with the inputs and policy, ends with the grades and a FAIL line with counts', () => {
    expect(lines[0]).toBe('nerq audit · FAIL · 7 packages · inputs: package-lock.json, requirements.txt · policy: .nerqrc.json');
    expect(lines.at(-3)).toBe('Grades: A+ 3 · C 1 · D 1 · F 1 · not evaluated 1');
    expect(lines.at(-2)).toBe('FAIL: 2 of 7 packages fail the policy; 1 could not be evaluated; 1 ignored; 3 pass');
    expect(out.endsWith('\n')).toBe(true);
  });

  it("an input's own findings (a pnpmfile, a --hash that pins nothing) are counted in the summary and say what exit 3 means", () => {
    const warning = (code: string) => ({ code, message: `.pnpmfile.cjs: ${code}`, details: {} });
    const hook = renderAuditTable(auditOf([entryOf(healthy())], { warnings: [warning('unvouched-hook')], outcome: { result: 'incomplete', exitCode: 3, allowIncomplete: false } }), { color: false, width: 200 });
    expect(hook).toContain('INCOMPLETE: the 1 package passes the policy; 1 pnpmfile whose install hooks nerq does not evaluate\n');
    expect(hook).toContain("exit 3: review the pnpmfile's hooks");
    expect(hook).not.toContain('MCP');
    const yarnHook = { code: 'unvouched-hook', message: '.yarnrc.yml:3: unvouched-hook', details: { manager: 'yarn' } };
    const yarn = renderAuditTable(auditOf([entryOf(healthy())], { warnings: [yarnHook, warning('unvouched-hook')], outcome: { result: 'incomplete', exitCode: 3, allowIncomplete: false } }), { color: false, width: 200 });
    expect(yarn).toContain('INCOMPLETE: the 1 package passes the policy; 1 pnpmfile whose install hooks nerq does not evaluate; 1 yarn plugin or release from outside the project\n');
    const npmHook = { code: 'unvouched-hook', message: '.npmrc:1: unvouched-hook', details: { manager: 'npm', setting: 'script-shell' } };
    const npm = renderAuditTable(auditOf([entryOf(healthy())], { warnings: [npmHook, npmHook, yarnHook], outcome: { result: 'incomplete', exitCode: 3, allowIncomplete: false } }), { color: false, width: 200 });
    expect(npm).toContain('INCOMPLETE: the 1 package passes the policy; 1 yarn plugin or release from outside the project; 2 programs or modules from outside the project that the package manager\'s settings name\n');
    expect(npm).not.toContain('pnpmfile whose');
    const hash = renderAuditTable(auditOf([entryOf(healthy())], { warnings: [warning('hash-unreadable'), warning('hash-unreadable')], outcome: { result: 'incomplete', exitCode: 3, allowIncomplete: false } }), { color: false, width: 200 });
    expect(hash).toContain('2 requirements lines with a --hash that pins nothing\n');
    expect(hash).toContain('exit 3: give each --hash as a full sha256 digest');
    const allowed = renderAuditTable(auditOf([entryOf(healthy())], { warnings: [warning('unvouched-hook')], outcome: { result: 'pass', exitCode: 0, allowIncomplete: true } }), { color: false, width: 200 });
    expect(allowed).toContain('exit 0: 1 finding about code or hashes nerq cannot vouch for accepted by --allow-incomplete');
  });

  it('findings no package carries (nerq audit --mcp) are counted in the summary and say what exit 3 means', () => {
    const warning = (code: string) => ({ code, message: `.mcp.json: line 2: ${code}`, details: {} });
    const failing = renderAuditTable(
      auditOf([entryOf(healthy())], { warnings: [warning('mcp-widened-reach'), warning('mcp-remote-unverified'), warning('mcp-remote-unverified')], outcome: { result: 'fail', exitCode: 1, allowIncomplete: false } }),
      { color: false },
    );
    expect(failing.replace(/\n(?=remote)/, ' ')).toContain('\nFAIL: the 1 package passes the policy; 1 MCP server launch fails the policy; 2 remote MCP servers unverified\n');
    const none = renderAuditTable(auditOf([], { warnings: [warning('mcp-remote-unverified')], outcome: { result: 'incomplete', exitCode: 3, allowIncomplete: false } }), { color: false });
    expect(none).toContain('INCOMPLETE: 1 remote MCP server unverified\n');
    expect(none).toContain('exit 3: a remote MCP server no MCP Registry entry vouches for is unverified');
    const script = renderAuditTable(auditOf([], { warnings: [warning('mcp-fetched-script')], outcome: { result: 'incomplete', exitCode: 3, allowIncomplete: false } }), { color: false, width: 200 });
    expect(script).toContain('INCOMPLETE: 1 MCP server runs a script fetched at start\n');
    expect(script).toContain('exit 3: an MCP server runs a script fetched at start that no registry vouches for; review it and name it in an MCP ignore entry');
    // With a dependency no registry vouches for too, --allow-incomplete is not the whole way out.
    const unvouched = [{ ecosystem: 'npm' as const, name: 'x', file: '.mcp.json', line: 3, source: 'github:o/r', host: 'github.com', status: 'unvouched' as const, ignoredBy: null }];
    const both = renderAuditTable(auditOf([], { warnings: [warning('mcp-fetched-script')], unvouched, outcome: { result: 'incomplete', exitCode: 3, allowIncomplete: false } }), { color: false, width: 300 });
    expect(both.replace(/\s+/g, ' ')).toContain('or accept them with --allow-incomplete; an MCP server whose code cannot be inspected needs an MCP ignore entry');
    // A client configuration that could not be read is not a server to review: its way out is naming the files.
    const unread = renderAuditTable(auditOf([], { warnings: [warning('mcp-config-unread')], unvouched, outcome: { result: 'incomplete', exitCode: 3, allowIncomplete: false } }), { color: false, width: 300 });
    const unreadHint = unread.replace(/\s+/g, ' ');
    expect(unreadHint).toContain('--mcp-config');
    expect(unreadHint).not.toContain('MCP ignore entry');
  });

  it('a finding an MCP ignore entry covers is listed with its reason and counted as ignored, not as failing', () => {
    const ignoredBy = { mcp: 'box', file: null, reason: 'needs the Docker socket', expires: '2027-01-31' };
    const out = renderAuditTable(
      auditOf([], { warnings: [{ code: 'mcp-widened-reach', message: '.mcp.json: line 2: MCP server "box" starts …', details: {}, ignoredBy }], outcome: { result: 'pass', exitCode: 0, allowIncomplete: false } }),
      { color: false, width: 120 },
    );
    expect(out).toContain('.mcp.json: line 2: MCP server "box" starts … — ignored: needs the Docker socket (until 2027-01-31)');
    expect(out).toContain('\nPASS: 1 MCP server finding ignored\n');
    expect(out).not.toContain('launch fails');
  });

  it('PASS and INCOMPLETE results, singular wording, and an empty audit', () => {
    const passing = renderAuditTable(auditOf([entryOf(healthy())]), { color: false });
    expect(passing).toContain('\nPASS: the 1 package passes the policy\n');
    const two = renderAuditTable(auditOf([entryOf(healthy()), entryOf(healthy('other'))]), { color: false });
    expect(two).toContain('\nPASS: all 2 packages pass the policy\n');
    const one = renderAuditTable(auditOf([entryOf(healthy()), entryOf(deprecated())]), { color: false });
    expect(one).toContain('\nFAIL: 1 of 2 packages fails the policy; 1 passes\n');
    const incomplete = renderAuditTable(auditOf([entryOf(healthy()), entryOf(notFound())]), { color: false });
    expect(incomplete).toContain('\nINCOMPLETE: 1 of 2 packages could not be evaluated; 1 passes\n');
    // After the packages that could not be evaluated, the unchecked ones are said to have been evaluated.
    const unchecked = reportOf({ vulnerabilities: unavailable('osv down') });
    const both = renderAuditTable(auditOf([entryOf(notFound()), entryOf(unchecked)]), { color: false, width: 120 });
    expect(both).toMatch(/\nINCOMPLETE: 1 of 2 packages could not be evaluated; 1 evaluated but not checked for [a-z ]+\n/);
    const empty = renderAuditTable(auditOf([]), { color: false });
    expect(empty).toContain('No dependencies to audit.');
    expect(empty).toContain('PASS: no dependencies to audit');
  });

  it.each([80, 100, 120])('fits %i columns', (width) => {
    const narrow = renderAuditTable(sampleAudit(), { color: false, width });
    for (const line of narrow.slice(0, -1).split('\n')) {
      expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      expect(line).toBe(line.trimEnd());
    }
  });

  it('never cuts what to act on: a long reason wraps under the name, the advisory id whole', () => {
    const out = renderAuditTable(vulnerable(), { color: false, width: 80 });
    for (const line of out.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    expect(out).toContain('GHSA-xxxx-yyyy-zzzz');
    expect(out).not.toContain('…');
    // The fix, and the path that brings the package in.
    expect(out).toMatch(/^ {8}fix: upgrade to 2\.1\.1$/m);
    expect(out).toMatch(/^ {8}via webpack › terser$/m);
  });

  it('a scoped name too long for its column gets a line of its own; the figures stay in their columns', () => {
    const long = `@a-very-long-scope-name/${'x'.repeat(40)}`;
    const audit = auditOf([entryOf(healthy(long, '10.2.3')), entryOf(healthy('short', '1.0.0'))]);
    const out = renderAuditTable(audit, { color: false, width: 80 }).split('\n');
    for (const line of out) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    const nameLine = out.findIndex((l) => l.includes(long));
    const figures = out[nameLine + 1] ?? '';
    const short = out.find((l) => l.includes(' short@1.0.0 ')) ?? '';
    expect(figures.indexOf('97.4')).toBe(short.indexOf('97.4'));
    expect(figures.indexOf('YES')).toBe(short.indexOf('YES'));
  });

  it('a requirement that was not resolved shows as declared (flask>=2), never flask==>=2', () => {
    const report = notFound('flask', '>=2');
    report.target.ecosystem = 'pypi';
    const audit = auditOf([entryOf(report, undefined, { ecosystem: 'pypi', name: 'flask', version: null, spec: '>=2' })]);
    const out = renderAuditTable(audit, { color: false });
    expect(out).toMatch(/^NOT EVALUATED +flask>=2 /m);
    expect(out).not.toContain('==>=');
  });

  it('--quiet leaves out the packages that pass', () => {
    const out = renderAuditTable(sampleAudit(), { color: false, quiet: true });
    expect(out).not.toMatch(/^PASS /m);
    expect(out).toMatch(/^FAIL /m);
    expect(out).toMatch(/^IGNORED /m);
    expect(renderAuditTable(auditOf([entryOf(healthy())]), { color: false, quiet: true })).toContain('No package needs attention.');
  });

  it('plain text without colour; ANSI styles with it, same text', () => {
    expect(out).not.toMatch(ANSI);
    const colored = renderAuditTable(sampleAudit(), { color: true, width: 200 });
    expect(colored).toMatch(ANSI);
    expect(colored.replace(ANSI, '')).toBe(out);
  });

  it('sanitises every string', () => {
    const hostile = renderAuditTable(hostileAudit(HOSTILE), { color: false, width: 200 });
    expect(hostile).not.toMatch(/[\u001b\u0007\r\u202e\u200b]/);
    expect(hostile.split('\n').filter((l) => l.startsWith('FAIL'))).toHaveLength(2);
    expect(hostile).toContain('evilEvil link');
  });
});

describe('uncheckedWords: a package the public registry did not answer for', () => {
  it('is not checked for dependency confusion, said in words rather than as the rule id', () => {
    const report = healthy('internal', '1.0.0');
    const policy = applyPolicy(report, subjectOf(report), mergePolicy(null), NOW, { dependencyConfusion: { message: 'no answer', at: null, unverified: true } });
    const audit = auditOf([entryWith(report, policy)]);
    expect(audit.outcome.result).toBe('incomplete');
    expect(uncheckedWords(audit)).toBe('dependency confusion');
  });
});
