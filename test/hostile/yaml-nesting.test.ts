/**
 * Hostile world: YAML nested absurdly deep — thousands of `[` or `{`, compact `- - -` sequences,
 * a staircase of indented keys. The YAML library composes recursively and would run out of stack;
 * every YAML reader (pnpm-lock.yaml, pnpm-workspace.yaml, .yarnrc.yml, yarn berry's yarn.lock, a
 * YAML MCP client configuration) refuses such a file with its own one-line message, never the
 * engine's, and `nerq audit` exits 2 (bad input).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMcpConfig } from '../../src/audit/mcp/read-config.js';
import { readInputText } from '../../src/lockfiles/index.js';
import { yarnrcSettings } from '../../src/lockfiles/install-settings.js';
import { TOO_DEEP } from '../../src/lockfiles/text.js';
import { MAX_YAML_DEPTH, parseYaml } from '../../src/lockfiles/yaml-text.js';
import { lockfileErrorOf as errorOf } from '../audit/inputs/helpers.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS } from './support/expect.js';
import { noteCases } from './support/metrics.js';

const V8_OVERFLOW = /Maximum call stack/i;

/** A value nested `depth` levels, in each of the ways YAML nests. */
const NESTINGS: [label: string, value: (depth: number, indent: string) => string][] = [
  ['flow sequences', (d) => `${'['.repeat(d)}${']'.repeat(d)}`],
  ['flow mappings', (d) => `${'{a: '.repeat(d)}${'}'.repeat(d)}`],
  ['compact block sequences', (d, indent) => `\n${indent}${'- '.repeat(d)}x`],
  ['indented mappings', (d, indent) => `\n${Array.from({ length: d }, (_, i) => `${indent}${' '.repeat(i)}k:`).join('\n')} v`],
];

const pnpmLock = (value: string) => `lockfileVersion: '9.0'\n\nimporters:\n  .:\n    dependencies:\n      a: ${value}\n`;

/** Depths past the bound: just past it, and far past where the library's stack runs out. */
const TOO_DEEP_DEPTHS = [MAX_YAML_DEPTH + 1, 3_000, 50_000];

describe('YAML nested too deeply is refused with a reader error, never a stack overflow', () => {
  it.for(NESTINGS)('pnpm-lock.yaml, %s', ([, nest], { task }) => {
    for (const depth of TOO_DEEP_DEPTHS) {
      // The staircase of indented keys grows with the square of its depth: a few thousand levels are megabytes.
      if (nest === NESTINGS[3]![1] && depth > 3_000) continue;
      const error = errorOf(() => readInputText(pnpmLock(nest(depth, '        ')), 'pnpm-lock.yaml'));
      expect(error.file).toBe('pnpm-lock.yaml');
      expect(error.message, `${depth}`).toContain(TOO_DEEP);
      expect(error.message).not.toMatch(V8_OVERFLOW);
      expect(error.message).not.toContain('\n');
      noteCases(task);
    }
  });

  it('nesting up to the bound is read', ({ task }) => {
    const text = `a: ${'['.repeat(MAX_YAML_DEPTH - 1)}${']'.repeat(MAX_YAML_DEPTH - 1)}\n`;
    expect(() => parseYaml(text, 'x.yaml')).not.toThrow();
    noteCases(task);
  });

  it('pnpm-workspace.yaml, .yarnrc.yml, a YAML MCP configuration and yarn berry’s yarn.lock', ({ task }) => {
    const deep = '['.repeat(50_000);
    expect(errorOf(() => parseYaml(`packages: ${deep}\n`, 'pnpm-workspace.yaml')).message).toContain(TOO_DEEP);
    const notes = yarnrcSettings(`packageExtensions: ${deep}\n`, '.yarnrc.yml').notes;
    expect(notes.join('\n')).toContain(TOO_DEEP);
    expect(notes.join('\n')).not.toMatch(V8_OVERFLOW);
    const mcp = errorOf(() => readMcpConfig(`extensions:\n  fs: ${deep}\n`, 'config.yaml'));
    expect(mcp.message).toContain(TOO_DEEP);
    const berry = errorOf(() => readInputText(`__metadata:\n  version: 8\n\n"a@npm:1.0.0":\n  version: ${deep}\n`, 'yarn.lock'));
    expect(berry.message).not.toMatch(V8_OVERFLOW);
    noteCases(task, 4);
  });
});

describe('nerq audit on a deeply nested YAML input: exit 2, one line, no engine message', () => {
  let scratch: string;
  const project = (files: Record<string, string>): string => {
    const dir = mkdtempSync(path.join(scratch, 'p-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    return dir;
  };
  beforeAll(() => {
    requireCli();
    scratch = mkdtempSync(path.join(os.tmpdir(), 'nerq-yaml-nesting-'));
    mkdirSync(scratch, { recursive: true });
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.for([
    ['pnpm-lock.yaml', { 'package.json': '{"name":"x","version":"1.0.0"}', 'pnpm-lock.yaml': pnpmLock('['.repeat(20_000)) }],
    [
      'pnpm-workspace.yaml',
      {
        'package.json': '{"name":"x","version":"1.0.0"}',
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n\nimporters:\n  .: {}\n",
        'pnpm-workspace.yaml': `packages: ${'['.repeat(20_000)}\n`,
      },
    ],
  ] as const)('%s', { timeout: CLI_TEST_TIMEOUT_MS }, async ([file, files], { task }) => {
    const run = await runHostile(['audit', project(files), '--offline']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).not.toMatch(V8_OVERFLOW);
    expect(run.stderr).toContain(file);
    expect(run.stderr).toContain(TOO_DEEP);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    noteCases(task);
  });
});
