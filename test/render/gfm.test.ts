/**
 * The Markdown reports rendered by a real GitHub-flavoured Markdown renderer (marked, GFM on), as a
 * pull-request comment would be: a hostile `|` cannot move text out of its cell,
 * no raw HTML from a report survives as an element (no <img>, no handler attribute), and no
 * javascript: link is made. The structural tests (markdown.test.ts) check the text; this checks
 * what a reader would see.
 */
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { renderAuditMarkdown } from '../../src/render/audit-markdown.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { hostileAudit, sampleAudit } from './audit/sample.js';
import { HOSTILE, hostileReport, loadReport, SAMPLE_FILES } from './reports.js';

function html(markdown: string): string {
  return marked.parse(markdown, { gfm: true, async: false }) as string;
}

/** How many tables the renderer made. */
function tableCount(rendered: string): number {
  return (rendered.match(/<table>/g) ?? []).length;
}

/**
 * GFM pads or cuts rows to the header's cells, so a broken-out `|` shows as text moved out of
 * its cell: every cell holding the hostile string's start must hold its end (after its `|`).
 */
function expectHostileKeptInCells(rendered: string): void {
  const cells = [...rendered.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!);
  const hostile = cells.filter((cell) => cell.includes('gnp.exe'));
  expect(hostile.length).toBeGreaterThan(0);
  for (const cell of hostile) expect(cell, cell).toContain('octocat');
}

function expectNoMarkup(rendered: string): void {
  expect(rendered).not.toMatch(/<img\b/i);
  // An event handler inside a tag (escaped text such as `&lt;img onerror=…&gt;` is harmless).
  expect(rendered).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
  expect(rendered).not.toMatch(/href="javascript:/i);
}

describe('Markdown reports through a GFM renderer', () => {
  it.each(SAMPLE_FILES)('%s: its tables are tables, and nothing from it is markup', (file) => {
    const report = loadReport(file);
    const rendered = html(renderMarkdown(report));
    if (report.error === null) expect(tableCount(rendered)).toBeGreaterThan(0);
    expectNoMarkup(rendered);
  });

  it('a report carrying hostile text in every field: kept in its cells, no element or link made from it', () => {
    expect(HOSTILE).toContain('<img src=x onerror=alert(1)>');
    const rendered = html(renderMarkdown(hostileReport()));
    expect(tableCount(rendered)).toBeGreaterThan(0);
    expectHostileKeptInCells(rendered);
    expectNoMarkup(rendered);
  });

  it('audit reports, plain and hostile: hostile text kept in its cells, no element or link made from them', () => {
    for (const report of [sampleAudit(), hostileAudit(HOSTILE)]) {
      const rendered = html(renderAuditMarkdown(report));
      expect(tableCount(rendered)).toBeGreaterThan(0);
      expectNoMarkup(rendered);
    }
    expectHostileKeptInCells(html(renderAuditMarkdown(hostileAudit(HOSTILE))));
  });
});

describe('package references in running text through a GFM renderer', () => {
  it('an MCP entry’s packages named with their versions (check messages, a cap) are code, never mailto: links or zero-width-split names', () => {
    const report = loadReport('chalk-5.3.0.json');
    const scoped = 'npm:@playwright/mcp@0.0.79';
    const plain = 'npm:airtable-mcp-server@1.7.3';
    report.checks[0]!.message = `Weakest package ${scoped} scores 88.7 (of 1 evaluated; not evaluated: none)`;
    report.checks[1]!.message = `Package ${plain} is not in its registry: the name is free for anyone to publish under`;
    report.caps = [{ id: 'mcp-package-missing', limit: 29.9, dimension: null, reason: `package ${plain} named by the entry is not in its registry`, args: { package: plain } }];
    const rendered = html(renderMarkdown(report));
    expect(rendered).not.toContain('mailto:');
    expect(rendered).not.toContain('\u200b');
    expect(rendered).not.toContain('&#8203;');
    for (const name of [scoped, plain]) expect(rendered).toContain(`<code>${name}</code>`);
  });
});
