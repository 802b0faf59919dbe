/**
 * The check list itself: every check file is listed once, ids are stable kebab-case file
 * names, metadata is complete, and every dimension has a check.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIMENSIONS } from '../../src/checks/define.js';
import { CHECKS } from '../../src/checks/index.js';
import { VIEWS } from '../../src/checks/views/index.js';
import { SOURCE_IDS } from '../../src/evidence/schema.js';

const CHECKS_DIR = new URL('../../src/checks/', import.meta.url);
const TESTS_DIR = new URL('./', import.meta.url);

const checkFiles = readdirSync(CHECKS_DIR, { withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts') && e.name !== 'define.ts' && e.name !== 'index.ts')
  .map((e) => e.name.replace(/\.ts$/, ''))
  .sort();

describe('CHECKS', () => {
  it('lists every check file exactly once, in file-name = id form', () => {
    expect(checkFiles.length).toBeGreaterThan(0);
    expect(CHECKS.map((c) => c.id).sort()).toEqual(checkFiles);
  });

  it('ids are unique kebab-case', () => {
    const ids = CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
  });

  it.each(checkFiles)('%s.ts default-exports the check with that id', async (file) => {
    const mod = (await import(new URL(`${file}.ts`, CHECKS_DIR).href)) as { default: { id: string } };
    expect(mod.default.id).toBe(file);
    expect(CHECKS).toContain(mod.default);
  });

  it('is ordered by dimension: security, maintenance, documentation, compliance, community', () => {
    const order = CHECKS.map((c) => DIMENSIONS.indexOf(c.dimension));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('every dimension has at least one check', () => {
    for (const dimension of DIMENSIONS) expect(CHECKS.some((c) => c.dimension === dimension), dimension).toBe(true);
  });

  it.each(CHECKS.map((c) => [c.id, c] as const))('%s has complete metadata', (_id, check) => {
    expect(DIMENSIONS).toContain(check.dimension);
    expect(check.weight).toBeGreaterThan(0);
    expect(Number.isFinite(check.weight)).toBe(true);
    expect(check.title.trim()).not.toBe('');
    expect(check.needs.length).toBeGreaterThan(0);
    // Sources of the evidence or views derived from them (views/index.ts).
    for (const source of [...check.needs, ...(check.optional ?? [])]) expect([...SOURCE_IDS, ...Object.keys(VIEWS)]).toContain(source);
    for (const source of check.optional ?? []) expect(check.needs).not.toContain(source);
    // 1–3 sentences: what it measures and how it scores.
    const sentences = check.description.split(/(?<=[.!?])\s+(?=[A-Z`'"(])/).filter((s) => s.trim() !== '');
    expect(sentences.length).toBeGreaterThanOrEqual(1);
    expect(sentences.length).toBeLessThanOrEqual(3);
    const messages = Object.entries(check.messages);
    expect(messages.length).toBeGreaterThan(0);
    for (const [id, template] of messages) {
      expect(id).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
      expect(template.trim()).not.toBe('');
    }
  });

  it('descriptions and messages (code scanning shows them as rule help) use user words, not internal ones', () => {
    // The registry's internal names for its documents and endpoints: users read "package metadata".
    const INTERNAL = /packument|querybatch/i;
    const leaks = CHECKS.flatMap((c) => [
      ...(INTERNAL.test(c.title) ? [`${c.id}: title`] : []),
      ...(INTERNAL.test(c.description) ? [`${c.id}: description`] : []),
      ...Object.entries(c.messages).flatMap(([id, template]) => (INTERNAL.test(template) ? [`${c.id}: ${id}`] : [])),
    ]);
    expect(leaks).toEqual([]);
  });

  it('the malicious-package and known-vulnerabilities checks guard danger, and an MCP entry\'s packages and their ownership', () => {
    expect(CHECKS.filter((c) => c.guardsDanger === true).map((c) => c.id)).toEqual(['malicious-package', 'known-vulnerabilities', 'mcp-packages', 'mcp-package-ownership']);
  });

  it.each(checkFiles)('%s has a table test', (file) => {
    expect(readdirSync(TESTS_DIR)).toContain(`${file}.test.ts`);
  });
});
