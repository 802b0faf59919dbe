/**
 * Hostile world: output channels. What strangers wrote reaches other programs and people
 * through nerq's outputs, and each channel has its own syntax to respect:
 * - SARIF `message.text` is plain text in which `[text](url)` is an embedded link (SARIF 2.1.0
 *   §3.11.6): literal brackets must be escaped, so registry text cannot plant a link in a code
 *   scanning alert;
 * - `nerq score` reads a file someone else may have written: a `capturedAt` that is not a date
 *   is bad input (exit 2, one line), not an internal error;
 * - everything echoed to stderr (flag values, paths, git refs) loses bidirectional and other
 *   format characters, so a terminal shows what the bytes are;
 * - a location nerq reports (a SARIF `uri`, an annotation's `file=`, JSON `declaredIn`) stays in
 *   the audited project even when a lockfile names a workspace outside it (`../../etc`,
 *   `a/../../../etc`): code scanning and annotations point at the lockfile line instead.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSarif } from '../../src/render/sarif.js';
import { CHECKS } from '../../src/checks/index.js';
import { advisory, evidence } from '../support/evidence-builder.js';
import { hostileAudit } from '../render/audit/sample.js';
import { auditOf, deprecated, entryOf } from '../audit/policy/reports.js';
import { requireCli, runHostile, runMany } from './support/cli.js';
import { expectOneLineRefusal } from './support/expect.js';
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

  it('escapes them in every message of the log, the tool notifications that carry the warnings included', ({ task }) => {
    for (const link of ['[click](https://evil.example/x)', '\\[already](https://evil.example)', '[[nested]](u)']) {
      noteCases(task);
      // An unreadable lockfile entry's name, a registry's warning: warnings are notifications of the run.
      const log: unknown = JSON.parse(renderSarif(hostileAudit(`skipped ${link}`), { checks: CHECKS }));
      const texts = messageTexts(log);
      expect(texts.length, link).toBeGreaterThanOrEqual(3);
      for (const { where, text } of texts) expect(unescapedBrackets(text), `${link} at ${where} → ${text}`).toEqual([]);
      expect(texts.some((t) => t.where.includes('toolExecutionNotifications') && t.text.includes('\\[')), link).toBe(true);
    }
  });
});

/** Every SARIF message object's text in the log (results, notifications, anywhere), with its JSON path. */
function messageTexts(value: unknown, where = ''): { where: string; text: string }[] {
  if (value === null || typeof value !== 'object') return [];
  const found: { where: string; text: string }[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (key === 'message' && child !== null && typeof child === 'object' && typeof (child as { text?: unknown }).text === 'string') {
      found.push({ where: `${where}.message`, text: (child as { text: string }).text });
    }
    found.push(...messageTexts(child, `${where}.${key}`));
  }
  return found;
}

describe('nerq score', () => {
  const bad = [
    'not a date', '2026-13-45T00:00:00Z', '', 'Infinity', '+275760-09-13T00:00:00.001Z',
    // Days the month does not have (JavaScript rolls them over to the next month), words after
    // the date (JavaScript skips them), a time without its zone (read in the local time of
    // whichever machine re-scores: another instant on each).
    '2026-02-30', '2026-02-29T00:00:00Z', '2026-04-31T12:00:00Z', '2026-01-01 (any words)', '2026-01-01T10:00:00',
  ];
  // With NERQ_NOW the clock does not come from the file, but the file is still bad input.
  const cases = bad.flatMap((capturedAt) => [[capturedAt, 'NERQ_NOW unset'], [capturedAt, 'NERQ_NOW set']] as [string, string][]);
  it.for(cases)('a capturedAt of %j is bad input (%s): exit 2, one line', async ([capturedAt, clock], { task }) => {
    noteCases(task);
    const file = path.join(scratch, `evidence-${bad.indexOf(capturedAt)}.json`);
    writeFileSync(file, JSON.stringify({ ...evidence(), capturedAt }));
    const run = await runHostile(['score', file, '--json'], clock === 'NERQ_NOW unset' ? { env: { NERQ_NOW: '' } } : {});
    const context = `capturedAt ${JSON.stringify(capturedAt)}, ${clock}: exit ${run.code}, stderr ${run.stderr}`;
    expectOneLineRefusal(run, /capturedAt/, context);
  });
});

/**
 * A count in saved evidence (downloads, dependencies, files, stars…) is never below zero, nor a
 * CVSS score above 10: an evidence file holding one was not written by nerq, and re-scoring it
 * would score a made-up fact (a negative dependency count passed as a small footprint). It is bad
 * input: exit 2, one line naming where.
 */
describe('nerq score: counts no collector can have written', () => {
  const edits: [label: string, where: RegExp, edit: (e: ReturnType<typeof evidence>) => void][] = [
    ['weekly downloads of -1000', /lastWeek/, (e) => {
      if (e.sources.downloads.status === 'ok') e.sources.downloads.facts.lastWeek = -1000;
    }],
    ['a dependency count of -50', /dependencies/, (e) => {
      if (e.sources.registry.status === 'ok') e.sources.registry.facts.dependencies = -50;
    }],
    ['a tarball of -1 files', /fileCount/, (e) => {
      if (e.sources.tarball.status === 'ok') e.sources.tarball.facts.fileCount = -1;
    }],
    ['an advisory of CVSS 11', /cvss/, (e) => {
      if (e.sources.vulnerabilities.status === 'ok') e.sources.vulnerabilities.facts.advisories.push({ ...advisory(), cvss: 11 });
    }],
  ];
  it.for(edits)('%s is bad input: exit 2, one line', async ([label, where, edit], { task }) => {
    noteCases(task);
    const hostile = evidence();
    edit(hostile);
    const file = path.join(scratch, `negative-${edits.findIndex(([l]) => l === label)}.json`);
    writeFileSync(file, JSON.stringify(hostile));
    expect(readFileSync(file, 'utf8'), label).toMatch(/:-\d|"cvss":11/);
    const run = await runHostile(['score', file, '--json']);
    const context = `${label}: exit ${run.code}, stderr ${run.stderr}`;
    expectOneLineRefusal(run, where, context);
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

describe('locations a lockfile names', () => {
  /** Workspace folders that leave the project, as each lockfile writes its workspaces' keys. */
  const OUTSIDE = ['../../etc', 'a/../../../etc', '..', '/abs/w'];
  const lockfiles: [label: string, file: string, text: (dir: string) => string][] = [
    [
      'package-lock',
      'package-lock.json',
      (dir) =>
        JSON.stringify({
          name: 'x',
          lockfileVersion: 3,
          packages: {
            '': { name: 'x', workspaces: [dir] },
            [dir]: { name: 'w', version: '1.0.0', dependencies: { chalk: '4.1.0' } },
            'node_modules/w': { link: true, resolved: dir },
            'node_modules/chalk': { version: '4.1.0' },
          },
        }),
    ],
    [
      'pnpm-lock',
      'pnpm-lock.yaml',
      (dir) =>
        `lockfileVersion: '9.0'\nimporters:\n  .: {}\n  ${JSON.stringify(dir)}:\n    dependencies:\n      chalk:\n        specifier: 4.1.0\n        version: 4.1.0\npackages:\n  chalk@4.1.0:\n    resolution: {integrity: sha512-qwx12AxXe2Q5xQ43Ac//I6v5aXTipYrSESdOgzrN+9XjgEpyjpKuvSGaN4qE93f7TQTlerQQ8S+EQ0EyDoVL1A==}\nsnapshots:\n  chalk@4.1.0: {}\n`,
    ],
    [
      'bun.lock',
      'bun.lock',
      (dir) =>
        JSON.stringify({
          lockfileVersion: 1,
          workspaces: { '': { name: 'x' }, [dir]: { name: 'w', dependencies: { chalk: '4.1.0' } } },
          packages: { chalk: ['chalk@4.1.0', '', {}, 'sha512-qwx12AxXe2Q5xQ43Ac//I6v5aXTipYrSESdOgzrN+9XjgEpyjpKuvSGaN4qE93f7TQTlerQQ8S+EQ0EyDoVL1A=='] },
        }),
    ],
  ];
  const cases = lockfiles.flatMap(([label, file, text]) => OUTSIDE.map((dir) => [label, dir, file, text] as const));
  /** Workspace folders no file system names: half a surrogate pair (JSON and YAML escapes can write one). */
  const UNNAMEABLE = ['packages/a\ud800', 'packages/\udc00b'];
  const unnameable = lockfiles.flatMap(([label, file, text]) => UNNAMEABLE.map((dir) => [label, dir, file, text] as const));

  it('a location holding half a surrogate pair is written as U+FFFD, never an internal error', ({ task }) => {
    noteCases(task);
    const entry = entryOf(deprecated(), undefined, { declaredIn: [{ file: 'packages/a\ud800/package.json', line: 3, workspace: 'packages/a\ud800' }] });
    const log = JSON.parse(renderSarif(auditOf([entry]), { checks: CHECKS })) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    expect(log.runs[0]!.results.flatMap((r) => r.locations.map((l) => l.physicalLocation.artifactLocation.uri))).toContain('packages/a%EF%BF%BD/package.json');
  });

  it.for(unnameable)('%s with a workspace %j: the entry stays at its lockfile line, and SARIF is written', async ([label, dir, file, text], { task }) => {
    noteCases(task);
    const project = path.join(scratch, `unnameable-${label}-${UNNAMEABLE.indexOf(dir)}`);
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, file), text(dir));
    const sarif = await runHostile(['audit', project, '--offline', '--format', 'sarif'], { env: { GITHUB_ACTIONS: 'true' } });
    expect(sarif.stderr, label).not.toMatch(/internal error/);
    const log = JSON.parse(sarif.stdout) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    const uris = log.runs[0]!.results.flatMap((r) => r.locations.map((l) => l.physicalLocation.artifactLocation.uri));
    expect(uris.length, label).toBeGreaterThan(0);
    expect(new Set(uris), label).toEqual(new Set([file]));
  });

  /** A reported path that is not a plain relative path inside the project. */
  const outside = (file: string): boolean => file.startsWith('/') || file.split('/').includes('..') || file.includes('%2E%2E');

  it.for(cases)('%s with a workspace %j: SARIF, annotations and JSON point inside the project', async ([label, dir, file, text], { task }) => {
    noteCases(task);
    const project = path.join(scratch, `locations-${label}-${OUTSIDE.indexOf(dir)}`);
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, file), text(dir));
    const sarif = await runHostile(['audit', project, '--offline', '--format', 'sarif'], { env: { GITHUB_ACTIONS: 'true' } });
    const json = await runHostile(['audit', project, '--offline', '--json']);
    const context = `${label} ${JSON.stringify(dir)}: exit ${sarif.code}/${json.code}\n${sarif.stderr.slice(0, 300)}`;
    const log = JSON.parse(sarif.stdout) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    const uris = log.runs[0]!.results.flatMap((r) => r.locations.map((l) => l.physicalLocation.artifactLocation.uri));
    expect(uris.length, context).toBeGreaterThan(0);
    expect(uris.filter(outside), context).toEqual([]);
    const annotated = [...sarif.stderr.matchAll(/^::\w+ (?:[^:]*,)?file=([^,:]*)/gm)].map((m) => decodeURIComponent(m[1]!));
    expect(annotated.length, context).toBeGreaterThan(0);
    expect(annotated.filter(outside), context).toEqual([]);
    const report = JSON.parse(json.stdout) as { entries: { subject: { declaredIn: { file: string }[] } }[] };
    const declared = report.entries.flatMap((e) => e.subject.declaredIn.map((d) => d.file));
    expect(declared, context).toContain(file);
    expect(declared.filter(outside), context).toEqual([]);
  });
});
