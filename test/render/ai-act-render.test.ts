/**
 * The EU AI Act section (docs/scoring.md §13) in the terminal table and in Markdown: present only
 * when the report carries `aiAct`, naming the category, the rule's basis and its own words, with
 * the note that it is informational; never above the gate's line, never in --quiet.
 */
import { describe, expect, it } from 'vitest';
import { aiActText } from '../../src/render/ai-act-text.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderTable } from '../../src/render/table.js';
import { AI_ACT_NOTE } from '../../src/report/ai-act.js';
import type { Report } from '../../src/report/schema.js';
import { loadReport } from './reports.js';

function withAiAct(aiAct: NonNullable<Report['aiAct']>): Report {
  return { ...loadReport('chalk-5.3.0.json'), aiAct };
}

const HIGH_RISK = withAiAct({ category: 'high-risk', rule: 'employment', basis: 'Annex III(4)', words: ['hiring', 'resume screening'], note: AI_ACT_NOTE });
const MINIMAL = withAiAct({ category: 'minimal', rule: null, basis: null, words: [], note: AI_ACT_NOTE });

describe('aiActText', () => {
  it('is null for a report without the section', () => {
    expect(aiActText(loadReport('chalk-5.3.0.json'))).toBeNull();
  });

  it('names the basis and every word that fired', () => {
    const text = aiActText(HIGH_RISK)!;
    expect(text.finding).toContain('Annex III(4)');
    expect(text.finding).toContain('"hiring"');
    expect(text.finding).toContain('"resume screening"');
    expect(text.note).toBe(AI_ACT_NOTE);
  });

  it('says no rule matched for minimal', () => {
    const text = aiActText(MINIMAL)!;
    expect(text.finding).not.toContain('"');
    expect(text.finding).toContain('minimal');
  });
});

describe('the terminal table', () => {
  it('prints the section after the report body and before the gate', () => {
    const out = renderTable(HIGH_RISK, { color: false, width: 80 });
    const at = out.indexOf('Regulatory context');
    expect(at).toBeGreaterThan(0);
    expect(out.indexOf('Annex III(4)')).toBeGreaterThan(at);
    expect(out.lastIndexOf('Gate')).toBeGreaterThan(at);
  });

  it('has no section without aiAct, and none under --quiet', () => {
    expect(renderTable(loadReport('chalk-5.3.0.json'), { color: false })).not.toContain('Regulatory context');
    expect(renderTable(HIGH_RISK, { color: false, quiet: true })).not.toContain('Regulatory context');
  });

  it('keeps every line within the width', () => {
    for (const width of [60, 80]) {
      for (const line of renderTable(HIGH_RISK, { color: false, width }).split('\n')) expect([...line].length).toBeLessThanOrEqual(width);
    }
  });
});

describe('Markdown', () => {
  it('has the section as a heading, before the collapsed tables', () => {
    const md = renderMarkdown(HIGH_RISK);
    const at = md.indexOf('### Regulatory context');
    expect(at).toBeGreaterThan(0);
    expect(md.indexOf('<details>')).toBeGreaterThan(at);
    expect(md).toContain('Annex III(4)');
  });

  it('has no section without aiAct', () => {
    expect(renderMarkdown(loadReport('chalk-5.3.0.json'))).not.toContain('Regulatory context');
    expect(renderMarkdown(MINIMAL)).toContain('Regulatory context');
  });
});
