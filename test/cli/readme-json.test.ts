/**
 * The README's abridged `--json` report (README.md, "JSON") is what `nerq check chalk@4.1.0 --json`
 * prints against the fixture server of the sample report (chalk 4.1.0 as recorded, OSV with no
 * advisory, GitHub's hourly budget spent, NERQ_NOW=2026-11-30). Abridged means: an object shows
 * some of its members, an array some of its elements (in order), a string ending in `…` the
 * start of the text; everything it shows is as printed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSharedFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';
import { expectPackage, requireBuiltCli } from './helpers.js';

let server: FixtureServer;

beforeAll(() => requireBuiltCli());
useSharedFixtureServer((started) => {
  server = started;
  expectPackage(server, 'chalk');
});

/** Where `shown` departs from `printed` (a path and why), or null when the abridged value shows only what was printed. */
function departure(shown: unknown, printed: unknown, at = '$'): string | null {
  if (typeof shown === 'string' && shown.endsWith('…')) {
    return typeof printed === 'string' && printed.startsWith(shown.slice(0, -1)) ? null : `${at}: ${JSON.stringify(printed)} does not start as shown`;
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(printed)) return `${at}: not an array`;
    if (shown.length === 0) return printed.length === 0 ? null : `${at}: shown empty, printed ${printed.length}`;
    let from = 0;
    for (const [i, element] of shown.entries()) {
      const found = printed.findIndex((p, j) => j >= from && departure(element, p) === null);
      if (found < 0) return `${at}[${i}]: no printed element from ${from} on is ${JSON.stringify(element)}`;
      from = found + 1;
    }
    return null;
  }
  if (shown !== null && typeof shown === 'object') {
    if (printed === null || typeof printed !== 'object' || Array.isArray(printed)) return `${at}: not an object`;
    for (const [key, value] of Object.entries(shown)) {
      if (!(key in printed)) return `${at}.${key}: not printed`;
      const inner = departure(value, (printed as Record<string, unknown>)[key], `${at}.${key}`);
      if (inner !== null) return inner;
    }
    return null;
  }
  return Object.is(shown, printed) ? null : `${at}: shown ${JSON.stringify(shown)}, printed ${JSON.stringify(printed)}`;
}

describe("the README's abridged JSON report", () => {
  it('shows only what nerq check chalk@4.1.0 --json prints', async () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## JSON\n'));
    const block = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    const shown = JSON.parse(block) as { target: { input: string } };
    const result = await runCli(['check', shown.target.input, '--json'], { server });
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as unknown;
    expect(departure(shown, printed)).toBeNull();
  });

  it('an abridged value departs from the printed one where it shows something else', () => {
    expect(departure({ a: [1, 3], s: 'abc…' }, { a: [1, 2, 3], s: 'abcdef', b: 0 })).toBeNull();
    expect(departure({ a: [3, 1] }, { a: [1, 2, 3] })).toMatch(/^\$\.a\[1\]/);
    expect(departure({ s: 'abd…' }, { s: 'abcdef' })).toMatch(/^\$\.s/);
    expect(departure({ c: 1 }, { a: 1 })).toBe('$.c: not printed');
    expect(departure({ a: [] }, { a: [1] })).toMatch(/shown empty/);
    expect(departure({ a: 0.3 }, { a: 0.4 })).toMatch(/shown 0\.3, printed 0\.4/);
  });
});
