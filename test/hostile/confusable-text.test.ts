/**
 * Hostile world: look-alike names in what reviewers read. A pull request can add a lockfile
 * entry or an MCP server whose name differs from a trusted one only by a zero-width character,
 * a bidirectional override or a letter from another script (`box` and `box` + U+200B, `chalk`
 * and `chаlk` with a Cyrillic а). Removing the invisible character, as the terminal sanitiser
 * does for prose, would show the two as the same name. Every format shows a name from the
 * audited files as a quoted string with such characters escaped (`"box\u200b"`), so a reader
 * can tell them apart, and nothing invisible reaches the terminal or the document.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAiAct } from '../../src/report/ai-act.js';
import { requireCli, runHostile } from './support/cli.js';
import { CLI_TEST_TIMEOUT_MS, expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';

/** Look-alike names and the escaped form a reader must see. */
const NAMES: [name: string, shown: string][] = [
  ['ch\u0430lk', 'ch\\u0430lk'],
  ['chalk\u200b', 'chalk\\u200b'],
  ['\u202eklahc', '\\u202eklahc'],
];
const KEYS: [key: string, shown: string][] = [
  ['box\u200b', 'box\\u200b'],
  ['b\u043ex', 'b\\u043ex'],
];
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

let scratch: string;
let lockProject: string;
let mcpProject: string;

beforeAll(() => {
  requireCli();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'nerq-confusable-'));
  lockProject = path.join(scratch, 'npm');
  mkdirSync(lockProject);
  const dependencies = Object.fromEntries(NAMES.map(([name]) => [name, '1.0.0']));
  const packages: Record<string, unknown> = { '': { name: 'x', dependencies } };
  for (const [name] of NAMES) packages[`node_modules/${name}`] = { version: '1.0.0' };
  writeFileSync(path.join(lockProject, 'package-lock.json'), JSON.stringify({ name: 'x', lockfileVersion: 3, packages }));
  writeFileSync(path.join(lockProject, 'package.json'), JSON.stringify({ name: 'x', dependencies }));
  mcpProject = path.join(scratch, 'mcp');
  mkdirSync(mcpProject);
  // The trusted `box` and its look-alikes, each giving a finding that names its key.
  const servers = Object.fromEntries(
    [['box', ''], ...KEYS].map(([key], i) => [key, { command: 'docker', args: ['run', '--privileged', `image-${i}`] }]),
  );
  writeFileSync(path.join(mcpProject, 'mcp.json'), JSON.stringify({ mcpServers: servers }));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FORMATS = ['table', 'markdown', 'sarif', 'json'] as const;

/** How `shown` (JSON-string escapes) reads in a format's text: Markdown escapes the backslash, JSON encodes it. */
function inFormat(shown: string, format: (typeof FORMATS)[number]): string {
  if (format === 'markdown') return shown.replaceAll('\\', '\\\\');
  if (format === 'json' || format === 'sarif') return JSON.stringify(`"${shown}"`).slice(1, -1);
  return `"${shown}"`;
}

describe('look-alike names are shown so a reader can tell them apart', () => {
  it.concurrent.for(FORMATS)('%s: lockfile names and MCP server keys keep their invisible and foreign letters, escaped', { timeout: CLI_TEST_TIMEOUT_MS }, async (format, { task }) => {
    noteCases(task, NAMES.length + KEYS.length);
    const lock = await runHostile(['audit', lockProject, '--offline', '--format', format]);
    const mcp = await runHostile(['audit', mcpProject, '--mcp-config', path.join(mcpProject, 'mcp.json'), '--offline', '--format', format]);
    for (const [label, run] of [['lockfile', lock], ['mcp', mcp]] as const) {
      expectCleanStderr(run.stderr, `${format} ${label}`);
      expect([0, 1, 3], `${format} ${label}: exit ${run.code}\n${run.stderr}`).toContain(run.code);
      // JSON keeps the data as it is (docs/security.md, "JSON output keeps hostile text as data"); its messages are escaped.
      const printed = format === 'json' ? run.stderr : run.stdout + run.stderr;
      expect(INVISIBLE.test(printed), `${format} ${label}: an invisible character was printed`).toBe(false);
    }
    const missing = [
      ...NAMES.filter(([, shown]) => !(lock.stdout + lock.stderr).includes(inFormat(shown, format))).map(([, shown]) => shown),
      ...[['box', 'box'] as const, ...KEYS].filter(([, shown]) => !(mcp.stdout + mcp.stderr).includes(inFormat(shown, format))).map(([, shown]) => shown),
    ];
    expect(missing, `${format}: names not shown as written`).toEqual([]);
  });
});

/**
 * The EU AI Act context (src/report/ai-act.ts) reads what a package says about itself: an
 * invisible character inside a phrase (`fa\u200bcial recognition`, a soft hyphen in
 * `recog\u00adnition`, a bidirectional mark) is no letter a reader sees, so it must not hide the
 * phrase from the rule that names it.
 */
describe('invisible characters do not hide an AI Act phrase', () => {
  it.for([
    ['zero-width space', 'fa\u200bcial recognition for shops'],
    ['soft hyphen', 'facial recog\u00adnition for shops'],
    ['bidirectional mark', 'facial\u200e recognition for shops'],
    ['word joiner', 'deep\u2060fake videos'],
  ])('%s', ([, description], { task }) => {
    noteCases(task);
    const found = classifyAiAct({ description: description!, readmeOpening: '', topics: [] });
    expect(found.category).not.toBe('minimal');
  });
});
