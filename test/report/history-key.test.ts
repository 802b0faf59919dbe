/**
 * Which history a report is recorded in and compared with (report/previous.ts): a repository with
 * a package folded in (`--include-package`) keeps a history of its own, so the fold's move of the
 * score is never reported as the project changing, and a plain report never compares with a
 * folded one.
 */
import { describe, expect, it } from 'vitest';
import { historyKeyOf } from '../../src/app/history.js';
import { TargetError } from '../../src/target/types.js';
import { historyRowOf, reportHistoryKey } from '../../src/report/previous.js';
import type { Report } from '../../src/report/schema.js';

const target = { input: 'github:acme/widget', ecosystem: 'github' as const, name: 'acme/widget', version: null, purl: null, repository: 'https://github.com/acme/widget' };
const folded = (included: boolean): Report['includedPackage'] => ({
  included,
  code: included ? 'root-manifest' : 'no-verified-package',
  ecosystem: included ? 'npm' : null,
  name: included ? 'widget' : null,
  version: included ? '2.0.0' : null,
  reason: 'x',
});

describe('reportHistoryKey', () => {
  it.each<[string, Report['includedPackage'], string]>([
    ['a plain repository report: its target', undefined, 'github:acme/widget'],
    ['a package folded in: a history of its own', folded(true), 'github:acme/widget+npm:widget'],
    ['nothing folded in (no verified package): the plain history', folded(false), 'github:acme/widget'],
  ])('%s', (_name, includedPackage, key) => {
    expect(reportHistoryKey({ target, includedPackage })).toBe(key);
  });

  it("a repository read in one of its folders: that folder's history; an MCP entry's folder is not in its key", () => {
    expect(reportHistoryKey({ target: { ...target, folder: 'src/server' } })).toBe('github:acme/widget/src/server');
    expect(reportHistoryKey({ target: { ...target, input: 'mcp:io.github.acme/widget', ecosystem: 'mcp', name: 'io.github.acme/widget', folder: 'src/server' } })).toBe('mcp:io.github.acme/widget');
  });

  it('the history row is recorded under the same key', () => {
    const report = { target, includedPackage: folded(true), score: 81.6, grade: 'A', verdict: 'YES', coverage: 0.9, dimensions: [], checks: [], evaluatedAt: '2026-11-30T00:00:00.000Z', tool: { name: 'nerq', version: '0' } } as unknown as Report;
    expect(historyRowOf(report, 'h').target).toBe('github:acme/widget+npm:widget');
  });
});

describe('historyKeyOf: the history a front door reads', () => {
  it.each([
    ['npm:chalk', 'npm:chalk'],
    ['github:acme/widget', 'github:acme/widget'],
    ['github:acme/widget+npm:widget', 'github:acme/widget+npm:widget'],
    ['github:acme/widget+npm:@acme/widget', 'github:acme/widget+npm:@acme/widget'],
    ['github:acme/widget/src/server', 'github:acme/widget/src/server'],
    ['https://github.com/acme/widget/tree/main/src/server', 'github:acme/widget/src/server'],
  ])('%s → %s', (input, key) => {
    expect(historyKeyOf(input)).toBe(key);
  });

  it.each(['github:acme/widget+github:acme/gadget', 'github:acme/widget+npm:widget@1.0.0', 'github:acme/widget+', 'npm:a+npm:b'])('%s is bad input', (input) => {
    expect(() => historyKeyOf(input)).toThrow(TargetError);
  });
});
