import { describe, expect, it } from 'vitest';
import { commitNote, targetLabel } from '../../src/render/labels.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { loadReport } from './reports.js';
import type { Report } from '../../src/report/schema.js';

const target = (ecosystem: Report['target']['ecosystem'], name: string, version: string | null): Report['target'] => ({
  input: name,
  ecosystem,
  name,
  version,
  purl: null,
  repository: null,
});

describe('targetLabel', () => {
  it.each([
    ['npm', 'express', '4.17.1', 'express@4.17.1'],
    ['pypi', 'flask', '3.1.3', 'flask==3.1.3'],
    // An unresolved requirement keeps its specifier as written, never flask==>=2.
    ['pypi', 'flask', '>=2', 'flask>=2'],
    ['pypi', 'flask', '~=2.3', 'flask~=2.3'],
    ['npm', 'express', null, 'express'],
  ] as const)('%s %s %s → %s', (ecosystem, name, version, label) => {
    expect(targetLabel(target(ecosystem, name, version))).toBe(label);
  });
});

describe('commitNote', () => {
  it('names a pinned target\'s commit, abbreviated as git does, and nothing without one', () => {
    const pinned: Report['target'] = { ...target('github', 'acme/widget', 'v1.2.0'), commit: 'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3' };
    expect(targetLabel(pinned) + commitNote(pinned)).toBe('acme/widget@v1.2.0 (commit c3c3c3c)');
    expect(commitNote(target('github', 'acme/widget', null))).toBe('');
  });

  it('heads the Markdown report', () => {
    const report = loadReport('chalk-5.3.0.json');
    const pinned = { ...report, target: { ...report.target, commit: 'abcdef0123456789abcdef0123456789abcdef01' } };
    expect(renderMarkdown(pinned).split('\n')[0]).toMatch(/ \(commit abcdef0\)$/);
    expect(renderMarkdown(report).split('\n')[0]).not.toContain('commit');
  });
});
