/**
 * Hostile world: output channels. What strangers wrote reaches other programs and people
 * through nerq's outputs, and each channel has its own syntax to respect:
 * - SARIF `message.text` is plain text in which `[text](url)` is an embedded link (SARIF 2.1.0
 *   §3.11.6): literal brackets must be escaped, so registry text cannot plant a link in a code
 *   scanning alert;
 * - `nerq score` reads a file someone else may have written: a `capturedAt` that is not a date
 *   is bad input (exit 2, one line), not an internal error;
 * - everything echoed to stderr (flag values, paths, git refs) loses bidirectional and other
 *   format characters, so a terminal shows what the bytes are.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSarif } from '../../src/render/sarif.js';
import { CHECKS } from '../../src/checks/index.js';
import { evidence } from '../support/evidence-builder.js';
import { hostileAudit } from '../render/audit/sample.js';
import { requireCli, runHostile, runMany } from './support/cli.js';
import { expectCleanStderr } from './support/expect.js';
import { noteCases } from './support/metrics.js';

let scratch: string;
beforeAll(() => {
  requireCli();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'nerq-channels-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every `[` or `]` in SARIF text is escaped (preceded by an odd number of backslashes). */
function unescapedBrackets(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] !== '[' && text[i] !== ']') continue;
    let slashes = 0;
    for (let j = i - 1; j >= 0 && text[j] === '\\'; j -= 1) slashes += 1;
    if (slashes % 2 === 0) found.push(text.slice(Math.max(0, i - 20), i + 20));
  }
  return found;
}

describe('SARIF message text', () => {
  it('escapes brackets in registry-provided text: no embedded link survives (§3.11.6)', ({ task }) => {
    const links = ['[click](https://evil.example/x)', '\\[already](https://evil.example)', 'a\\\\[b](c)', '[[nested]](u)'];
    for (const link of links) {
      noteCases(task);
      const log = JSON.parse(renderSarif(hostileAudit(`deprecated: ${link}`), { checks: CHECKS })) as {
        runs: { results: { message: { text: string } }[] }[];
      };
      const texts = log.runs[0]!.results.map((r) => r.message.text);
      expect(texts.length, link).toBeGreaterThan(0);
      for (const text of texts) expect(unescapedBrackets(text), `${link} → ${text}`).toEqual([]);
      // The text is still there to read, escaped.
      expect(texts.join('\n'), link).toMatch(/\\\[/);
    }
  });
});

describe('nerq score', () => {
  const bad = ['not a date', '2026-13-45T00:00:00Z', '', 'Infinity', '+275760-09-13T00:00:00.001Z'];
  // With NERQ_NOW the clock does not come from the file, but the file is still bad input.
  const cases = bad.flatMap((capturedAt) => [[capturedAt, 'NERQ_NOW unset'], [capturedAt, 'NERQ_NOW set']] as [string, string][]);
  it.for(cases)('a capturedAt of %j is bad input (%s): exit 2, one line', async ([capturedAt, clock], { task }) => {
    noteCases(task);
    const file = path.join(scratch, `evidence-${bad.indexOf(capturedAt)}.json`);
    writeFileSync(file, JSON.stringify({ ...evidence(), capturedAt }));
    const run = await runHostile(['score', file, '--json'], clock === 'NERQ_NOW unset' ? { env: { NERQ_NOW: '' } } : {});
    const context = `capturedAt ${JSON.stringify(capturedAt)}, ${clock}: exit ${run.code}, stderr ${run.stderr}`;
    expect(run.code, context).toBe(2);
    expectCleanStderr(run.stderr, context);
    expect(run.stderr.trim().split('\n'), context).toHaveLength(1);
    expect(run.stderr, context).toMatch(/capturedAt/);
    expect(run.stdout, context).toBe('');
  });
});

/** Format characters (bidi controls, zero-width, tags…), line/paragraph separators and controls other than \n. */
const FORBIDDEN_ON_STDERR = /[\p{Cf}\u2028\u2029\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u;

describe('stderr', () => {
  it('strips bidirectional and format characters from every echoed value', async ({ task }) => {
    const repo = path.join(scratch, 'repo');
    mkdirSync(repo, { recursive: true });
    writeFileSync(path.join(repo, 'package.json'), '{"name":"x","version":"1.0.0","dependencies":{}}');
    spawnSync('git', ['init', '-q', repo]);
    const sneaky = ['\u202e', '\u2066', '\u200f', '\u061c', '\u{e0041}', '\u00ad', '\u2028', '\u200b'];
    const cases: string[][] = sneaky.flatMap((ch) => [
      ['audit', repo, '--changed-since', `main${ch}evil`],
      ['audit', repo, '--file', `package${ch}lock.json`],
      ['audit', repo, '--policy', `policy${ch}.json`],
      ['score', `evid${ch}ence.json`],
      ['check', 'chalk', '--format', `tab${ch}le`],
      ['audit', repo, '--format', `sa${ch}rif`],
    ]);
    const runs = await runMany(cases);
    runs.forEach((run, i) => {
      noteCases(task);
      const context = `${JSON.stringify(cases[i])}: exit ${run.code}, stderr ${JSON.stringify(run.stderr)}`;
      expect(run.crash, context).toBeUndefined();
      expect(run.code, context).toBe(2);
      expect(run.stderr, context).not.toMatch(FORBIDDEN_ON_STDERR);
      expect(run.stderr.trim().split('\n'), context).toHaveLength(1);
    });
  });
});
