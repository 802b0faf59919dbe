import { describe, expect, it } from 'vitest';
import { formatReason, PLAIN_STYLE, REASON_CODES, reasonOf, type ReasonStyle } from '../../src/model/reason.js';

const BRACKETS: ReasonStyle = { name: (s) => `[${s}]`, text: (s) => s.toUpperCase() };

describe('reasons', () => {
  it('carry their code, their args and the plain sentence', () => {
    const reason = reasonOf('capped', { cap: 'deprecated', limit: 49.9, reason: 'version is deprecated: use y' });
    expect(reason).toEqual({
      code: 'capped',
      args: { cap: 'deprecated', limit: 49.9, reason: 'version is deprecated: use y' },
      text: 'capped at 49.9: version is deprecated: use y',
    });
    expect(formatReason(reason, PLAIN_STYLE)).toBe(reason.text);
  });

  it('are written for a medium: names and free text each in its style', () => {
    const reason = reasonOf('dimension-capped', { cap: 'repository-archived', dimension: 'maintenance', limit: 10, reason: 'archived' });
    expect(formatReason(reason, BRACKETS)).toBe('[maintenance] capped at 10: ARCHIVED');
  });

  it('fall back to their own text for a code this build does not know, or args that do not fit', () => {
    expect(formatReason({ code: 'from-a-newer-nerq', args: {}, text: 'something new' }, BRACKETS)).toBe('SOMETHING NEW');
    // Args edited after the fact: the sentence they give is not the text, so the text is kept.
    const edited = { ...reasonOf('below-floor', { dimension: 'security', score: 55, floor: 60 }), text: 'different' };
    expect(formatReason(edited, BRACKETS)).toBe('DIFFERENT');
    // Args of the wrong type: the sentence throws, the text is kept.
    expect(formatReason({ code: 'below-minimum', args: { score: 'x', threshold: 50 }, text: 'kept' }, BRACKETS)).toBe('KEPT');
  });

  it.each([
    ['mcp-server', 'an MCP server acts'],
    ['ai-agent-tool', 'an AI-agent tool acts'],
    ['code-execution', 'a code-execution tool acts'],
  ])('name the risk category %s in words, with its article', (category, opening) => {
    const reason = reasonOf('category-bar', { category, score: 78.8, bar: 80 });
    expect(reason.text.startsWith(`${opening} with your credentials`)).toBe(true);
  });

  it('list every code once, with where it appears and what it means', () => {
    const codes = REASON_CODES.map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const reason of REASON_CODES) {
      expect(reason.code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(reason.meaning.length).toBeGreaterThan(10);
    }
  });
});
