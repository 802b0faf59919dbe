/** Sample reports for the renderer tests: fixtures/reports/*.json, validated by ReportSchema. */
import { readFileSync } from 'node:fs';
import { ReportSchema, type Report } from '../../src/report/schema.js';

export const SAMPLE_FILES = [
  'chalk-5.3.0.json',
  'request-deprecated.json',
  'crossenv-placeholder.json',
  'not-found.json',
] as const;
export type SampleFile = (typeof SAMPLE_FILES)[number];

const dir = new URL('../../fixtures/reports/', import.meta.url);

/** A fresh, parsed copy of one sample report (safe to mutate). */
export function loadReport(file: SampleFile): Report {
  return ReportSchema.parse(JSON.parse(readFileSync(new URL(file, dir), 'utf8')));
}

/**
 * Everything a hostile package could smuggle into a report string: an OSC 8 hyperlink,
 * a right-to-left override, a carriage return (overwrites the line on a terminal), a
 * Markdown table break with a javascript: link, raw HTML, a CSI colour, a mention and a
 * zero-width space.
 */
export const HOSTILE =
  'Evil \u001b]8;;http://evil\u0007link\u001b]8;;\u0007 \u202egnp.exe\u202c\rOK | [x](javascript:alert(1)) <img src=x onerror=alert(1)> \u001b[31mred\u001b[0m @octocat zero\u200bwidth';

/** A sample report with the hostile string in every free-text field a renderer prints. */
export function hostileReport(): Report {
  const report = loadReport('request-deprecated.json');
  report.target.name = `evil${HOSTILE}`;
  report.target.version = `1.0.0${HOSTILE}`;
  report.category = { id: `library${HOSTILE}`, reason: HOSTILE };
  report.verdictReasons.push(HOSTILE);
  report.verdictReasonDetails.push({ code: 'capped', args: { cap: HOSTILE, limit: 10, reason: HOSTILE }, text: HOSTILE });
  report.dimensions[0]!.title = HOSTILE;
  for (const check of report.checks) {
    check.title = `${check.title}${HOSTILE}`;
    check.message = HOSTILE;
    check.evidence = { note: HOSTILE, list: [HOSTILE, 1] };
  }
  report.caps.push({ id: `cap${HOSTILE}`, limit: 10, reason: HOSTILE, args: { note: HOSTILE }, dimension: null });
  report.sources.push({ id: `src${HOSTILE}`, status: 'unavailable', reason: HOSTILE });
  report.advisories.push({
    id: `GHSA${HOSTILE}`,
    aliases: [HOSTILE],
    summary: HOSTILE,
    severity: 'critical',
    cvss: 9.8,
    package: HOSTILE,
    ecosystem: 'npm',
    version: HOSTILE,
    affectsResolved: true,
    fixed: HOSTILE,
    published: null,
    url: 'javascript:alert(1)',
    malicious: false,
  });
  report.gate.reasons.push(HOSTILE);
  report.gate.reasonDetails.push({ code: 'below-floor', args: { dimension: HOSTILE, score: 1, floor: 2 }, text: `${HOSTILE} 1.0 is below its floor 2` });
  return report;
}
