/**
 * The import rule (docs/architecture.md, "Layers"): checks and scoring are pure. They import nothing from
 * sources, cli or render, no `node:*` module, and no terminal or HTTP library.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url);

function tsFiles(dir: URL): URL[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const url = new URL(name, dir);
    if (statSync(url).isDirectory()) return tsFiles(new URL(`${name}/`, dir));
    return /\.(c|m)?ts$/.test(name) ? [url] : [];
  });
}

/** Every module specifier in import / export-from / dynamic import / require forms. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) if (m[1] !== undefined) found.push(m[1]);
  return found;
}

const FORBIDDEN: readonly [string, (spec: string) => boolean][] = [
  ['sources/', (s) => /(^|\/)sources(\/|$)/.test(s) && s.startsWith('.')],
  ['cli/', (s) => /(^|\/)cli(\/|$)/.test(s) && s.startsWith('.')],
  ['render/', (s) => /(^|\/)render(\/|$)/.test(s) && s.startsWith('.')],
  ['node:*', (s) => s.startsWith('node:')],
  ['node built-ins', (s) => /^(fs|path|os|http|https|net|child_process|process|url|crypto|stream|zlib)(\/|$)/.test(s)],
  ['chalk', (s) => s === 'chalk' || s.startsWith('chalk/')],
  ['undici', (s) => s === 'undici' || s.startsWith('undici/')],
  ['ora', (s) => s === 'ora' || s.startsWith('ora/')],
];

function violations(source: string): string[] {
  return specifiers(source).flatMap((spec) => FORBIDDEN.filter(([, bad]) => bad(spec)).map(([rule]) => `${spec} (${rule})`));
}

describe('import rule for src/checks and src/scoring', () => {
  const files = [...tsFiles(new URL('checks/', SRC)), ...tsFiles(new URL('scoring/', SRC))];

  it('finds the files it guards', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [f.pathname.slice(SRC.pathname.length), f] as const))('%s', (_name, file) => {
    expect(violations(readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('catches each forbidden form (self-test)', () => {
    expect(violations("import { get } from '../sources/http.js';")).toHaveLength(1);
    expect(violations("import type { X } from '../../cli/main.js';")).toHaveLength(1);
    expect(violations("export { y } from '../render/table.js';")).toHaveLength(1);
    expect(violations("import { readFileSync } from 'node:fs';")).toHaveLength(1);
    expect(violations("import fs from 'fs';")).toHaveLength(1);
    expect(violations("import chalk from 'chalk';")).toHaveLength(1);
    expect(violations("const u = await import('undici');")).toHaveLength(1);
    expect(violations("import ora from 'ora';")).toHaveLength(1);
    expect(violations("import 'node:process';")).toHaveLength(1);
    expect(violations("import semver from 'semver';\nimport type { Evidence } from '../evidence/schema.js';")).toEqual([]);
  });
});
