import { describe, expect, it } from 'vitest';
import { renderAuditTable } from '../../../src/render/audit-table.js';
import { displayWidth } from '../../../src/render/text.js';
import { auditOf, deprecated, entryOf, healthy, notFound } from '../../audit/policy/reports.js';
import { HOSTILE } from '../reports.js';
import { hostileAudit, sampleAudit } from './sample.js';

const ANSI = /\u001b\[[0-9;]*m/g;

describe('renderAuditTable', () => {
  const out = renderAuditTable(sampleAudit(), { color: false, width: 200 });
  const lines = out.split('\n');

  it('lists every package worst first, one line each, with score, grade, verdict and the main reason', () => {
    const rows = lines.filter((l) => /^(FAIL|ERROR|IGNORED|PASS) /.test(l));
    expect(rows.map((l) => l.split(/\s+/)[1])).toEqual([
      'evil-pkg@0.0.1',
      'old-thing@1.0.0',
      'ghost-pkg@1.0.0',
      'so-so@0.3.0',
      'requests==2.31.0',
      'example@2.1.0',
      'chalk@5.3.0',
    ]);
    expect(rows[0]).toMatch(/^FAIL {5}evil-pkg@0\.0\.1 {6}9\.9 {2}F {6}DO NOT USE {2}NO — DO NOT USE: known malicious package: MAL-2026-1$/);
    expect(rows[1]).toMatch(/^FAIL +old-thing@1\.0\.0 +49\.9 +D +NO +capped at 49\.9: version is deprecated: no longer maintained$/);
    expect(rows[2]).toMatch(/^ERROR +ghost-pkg@1\.0\.0 +— +— +— +npm package "ghost-pkg" was not found in the registry$/);
    expect(rows[3]).toMatch(/^IGNORED +so-so@0\.3\.0 +63\.6 +C +CAUTION +verdict CAUTION fails the policy \(failOn: caution\) \(ignored: pinned by the build tool\)$/);
    expect(rows[6]).toMatch(/^PASS +chalk@5\.3\.0 +97\.4 +A\+ +YES$/);
  });

  it('starts with the inputs and policy, ends with the grades and a FAIL line with counts', () => {
    expect(lines[0]).toBe('nerq audit · 7 packages · inputs: package-lock.json, requirements.txt · policy: .nerqrc.json');
    expect(lines.at(-3)).toBe('Grades: A+ 3 · C 1 · D 1 · F 1 · not evaluated 1');
    expect(lines.at(-2)).toBe('FAIL: 2 of 7 packages fail the policy; 1 could not be evaluated; 1 ignored');
    expect(out.endsWith('\n')).toBe(true);
  });

  it('PASS and INCOMPLETE results, singular wording, and an empty audit', () => {
    const passing = renderAuditTable(auditOf([entryOf(healthy())]), { color: false });
    expect(passing).toContain('\nPASS: 0 of 1 package fail the policy\n');
    const one = renderAuditTable(auditOf([entryOf(healthy()), entryOf(deprecated())]), { color: false });
    expect(one).toContain('\nFAIL: 1 of 2 packages fails the policy\n');
    const incomplete = renderAuditTable(auditOf([entryOf(healthy()), entryOf(notFound())]), { color: false });
    expect(incomplete).toContain('\nINCOMPLETE: 0 of 2 packages fail the policy; 1 could not be evaluated\n');
    const empty = renderAuditTable(auditOf([]), { color: false });
    expect(empty).toContain('No dependencies to audit.');
    expect(empty).toContain('PASS: 0 of 0 packages fail the policy');
  });

  it.each([80, 100, 120])('fits %i columns', (width) => {
    const narrow = renderAuditTable(sampleAudit(), { color: false, width });
    for (const line of narrow.slice(0, -1).split('\n')) {
      expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      expect(line).toBe(line.trimEnd());
    }
  });

  it('cuts a long reason with an ellipsis at the width', () => {
    const row = renderAuditTable(sampleAudit(), { color: false, width: 80 }).split('\n').find((l) => l.includes('old-thing'));
    expect(row).toBe('FAIL     old-thing@1.0.0    49.9  D      NO          capped at 49.9: version is…');
    expect(displayWidth(row ?? '')).toBe(80);
  });

  it('on a narrow terminal keeps the columns aligned and a readable reason (the line overflows)', () => {
    const rows = renderAuditTable(sampleAudit(), { color: false, width: 60 }).split('\n');
    const row = (name: string) => rows.find((l) => l.includes(name)) ?? '';
    expect(row('old-thing@1.0.0')).toMatch(/ {2}capped at 49\.9: ver…$/);
    expect(row('old-thing@1.0.0').indexOf('49.9') + 4).toBe(row('evil-pkg@0.0.1').indexOf('9.9') + 3);
    expect(row('old-thing@1.0.0').indexOf(' NO ')).toBe(row('so-so@0.3.0').indexOf(' CAUTION '));
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
