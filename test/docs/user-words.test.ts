/**
 * What users read says things in their words: the npm registry's internal name for a package's
 * metadata document ("packument") and the name of the OSV request that asks for many packages'
 * advisories at once ("querybatch") are for code, not prose. Code identifiers that carry them (a
 * message id such as `not-in-packument`, a source path such as `packument-scan.ts`, an API path
 * such as `/v1/querybatch`) stay.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { CHECKS } from '../../src/checks/index.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { renderTable } from '../../src/render/table.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { evidence, unavailable } from '../support/evidence-builder.js';

const DOCS = ['README.md', 'docs/scoring.md', 'docs/security.md', 'docs/serve.md', 'docs/checks.md', 'docs/mcp.md', 'docs/fixture-reports.md'];
/** Internal names that never reach prose; the names of requests a source's failure may start with ("GitHub GraphQL: "). */
const JARGON = ['packument', 'querybatch'];
const REQUEST_NAMES = /packument|querybatch|GraphQL/i;

describe('user-read documentation', () => {
  it.each(DOCS.flatMap((file) => JARGON.map((word) => [file, word] as const)))('%s never says "%s" outside a code identifier', (file, word) => {
    const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    const prose = text.replace(new RegExp(`[\\w./-]*${word}[\\w./-]+|[\\w./-]+${word}[\\w./-]*`, 'gi'), '');
    expect(prose.split('\n').filter((line) => line.toLowerCase().includes(word))).toEqual([]);
  });
});

describe('a report whose sources failed', () => {
  // Reasons as the sources give them, starting with the request that failed; the evidence keeps them.
  const report = buildReport(
    evidence({
      vulnerabilities: unavailable('OSV querybatch: DNS lookup failed for api.osv.dev (after 3 attempts)'),
      github: unavailable('GitHub GraphQL: HTTP 502'),
      downloads: unavailable('downloads last-week: HTTP 503'),
    }),
    { checks: CHECKS, gate: DEFAULT_GATE, category: null },
  );

  it('names no request in its check messages or its verdict reasons (JSON), nor in the terminal and Markdown reports', () => {
    const unknown = report.checks.filter((c) => c.messageId === 'source-unavailable');
    expect(unknown.map((c) => c.evidence.source)).toEqual(expect.arrayContaining(['vulnerabilities', 'github', 'downloads']));
    expect(report.verdictReasonDetails.map((r) => r.code)).toContain('danger-unchecked');
    const read = [
      ...report.checks.map((c) => c.message),
      ...report.verdictReasons,
      ...report.verdictReasonDetails.map((r) => r.text),
      ...report.gate.reasons,
      renderTable(report, { color: false, width: 120 }),
      renderMarkdown(report),
    ];
    expect(read.filter((text) => REQUEST_NAMES.test(text))).toEqual([]);
    // The failure itself is still said, and the evidence keeps the reason whole.
    expect(unknown.find((c) => c.evidence.source === 'vulnerabilities')?.message).toContain('DNS lookup failed for api.osv.dev');
    expect(unknown.find((c) => c.evidence.source === 'vulnerabilities')?.evidence.reason).toMatch(/^OSV querybatch: /);
  });
});
