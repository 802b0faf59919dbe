import { describe, expect, it } from 'vitest';
import { outageText } from '../../../src/render/audit-labels.js';
import { renderAuditMarkdown } from '../../../src/render/audit-markdown.js';
import { renderAuditTable } from '../../../src/render/audit-table.js';
import { errorReport } from '../../../src/report/build.js';
import { DEFAULT_GATE } from '../../../src/scoring/gate.js';
import { auditOf, entryOf, notFound } from '../../audit/policy/reports.js';

const REASON = 'DNS lookup failed for pypi.org';

/** A PyPI project that could not be evaluated because pypi.org did not resolve. */
function unreachable(name: string) {
  return errorReport({
    input: `pypi:${name}`,
    ecosystem: 'pypi',
    name,
    version: '1.0.0',
    code: 'registry-unavailable',
    message: `PyPI could not answer for ${name}: project JSON: ${REASON}`,
    gate: DEFAULT_GATE,
    evaluatedAt: '2026-01-01T00:00:00.000Z',
  });
}

const DOWN = { code: 'service-unreachable', message: `PyPI unreachable (${REASON}): not asked again this run`, details: { host: 'pypi.org', service: null, fault: 'dns', reason: REASON } };

function outage() {
  const names = Array.from({ length: 20 }, (_, i) => `project-${i}`);
  return auditOf([...names.map((n) => entryOf(unreachable(n))), entryOf(notFound('ghost-pkg'))], { warnings: [DOWN] });
}

describe('an outage the warnings report is not repeated under each package', () => {
  it('outageText names the host for a package the outage left unevaluated, and nothing else', () => {
    const audit = outage();
    const texts = audit.entries.map((e) => outageText(audit, e));
    expect(texts.filter((t) => t !== null && t.includes('pypi.org'))).toHaveLength(20);
    const ghost = audit.entries.find((e) => e.report.error?.code === 'not-found')!;
    expect(outageText(audit, ghost)).toBeNull();
    // Without the warning there is nothing to point to: the row keeps its own message.
    const silent = auditOf(audit.entries, { warnings: [] });
    expect(silent.entries.map((e) => outageText(silent, e)).every((t) => t === null)).toBe(true);
  });

  it('the terminal table says the reason once (in Warnings), each row stays short', () => {
    const out = renderAuditTable(outage(), { color: false, width: 80 });
    expect(out.split(REASON).length - 1).toBe(1);
    // The package-not-found row keeps its own message.
    expect(out).toContain('ghost-pkg');
    const rows = out.split('\n').filter((l) => /^NOT EVALUATED /.test(l));
    expect(rows).toHaveLength(21);
    // One line under each unreachable package, not two or three.
    const body = out.slice(out.indexOf('STATUS'), out.indexOf('Warnings'));
    expect(body.trim().split('\n').length).toBeLessThanOrEqual(1 + 21 * 2);
  });

  it('the Markdown reason column points to the warning too', () => {
    const md = renderAuditMarkdown(outage());
    const rows = md.split('\n').filter((l) => l.includes('`project-'));
    expect(rows.length).toBeGreaterThanOrEqual(20);
    for (const row of rows) expect(row).not.toContain(REASON);
  });
});
