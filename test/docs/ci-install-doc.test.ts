/**
 * No package named nerq is published (README.md, "Use in CI"): whoever registers the name would
 * run in the CI of anyone whose workflow fetches `nerq` by name. The commands the documents show
 * start nerq from a pinned checkout, a packed tarball already installed (`npx --no-install`), or
 * an exact version — never a bare `npx --yes nerq`. The quick start's `npx nerq` runs inside a
 * checkout of nerq (its own bin), which is allowed there only.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DOCS = ['README.md', 'docs/mcp.md', 'docs/serve.md', 'docs/security.md', 'docs/scoring.md', 'docs/checks.md', 'docs/architecture.md'];

/** The lines of a document's fenced code blocks, each with the language of its block, comments dropped. */
function codeLines(text: string): { lang: string; line: string }[] {
  const out: { lang: string; line: string }[] = [];
  let lang: string | null = null;
  for (const raw of text.split('\n')) {
    const fence = /^\s*```(\w*)/.exec(raw);
    if (fence) {
      lang = lang === null ? fence[1]! : null;
      continue;
    }
    if (lang !== null) out.push({ lang, line: raw.replace(/(^|\s)#.*$/, '') });
  }
  return out;
}

/** `npx` runs of nerq in a line: the flags before the name and the name as written. */
function npxRuns(line: string): { flags: string[]; spec: string }[] {
  return [...line.matchAll(/\bnpx((?:\s+-{1,2}[\w-]+)*)\s+(nerq(?:@\S*)?)(?=\s|$)/g)].map((m) => ({ flags: m[1]!.trim().split(/\s+/).filter(Boolean), spec: m[2]! }));
}

const readDoc = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('how the documents run nerq', () => {
  it.each(DOCS)('%s: never npx of the bare name outside a checkout of nerq', (file) => {
    const text = readDoc(file);
    const inCheckout = file === 'README.md' ? text.slice(text.indexOf('## Quick start'), text.indexOf('\n## ', text.indexOf('## Quick start') + 1)) : '';
    const elsewhere = file === 'README.md' ? text.replace(inCheckout, '') : text;
    for (const { line } of codeLines(elsewhere)) {
      for (const run of npxRuns(line)) {
        const pinned = /^nerq@\d+\.\d+\.\d+$/.test(run.spec) || run.spec === 'nerq@<version>';
        expect(pinned || run.flags.includes('--no-install'), line).toBe(true);
      }
    }
  });

  it('the README\'s CI workflow checks nerq out at a commit it names, and runs that checkout', () => {
    const text = readDoc('README.md');
    const section = text.slice(text.indexOf('## Use in CI'));
    const workflow = section.slice(section.indexOf('```yaml'), section.indexOf('```', section.indexOf('```yaml') + 3));
    const checkout = /repository:\s*([\w./-]+),\s*ref:\s*([\w-]+),\s*path:\s*([\w./-]+)/.exec(workflow);
    expect(checkout, workflow).not.toBeNull();
    const [, , ref, dir] = checkout!;
    // A branch or tag can move: the placeholder names a full commit.
    expect(ref).toMatch(/SHA|^[0-9a-f]{40}$/);
    expect(workflow).toContain(`node ${dir}/dist/cli.js audit`);
    for (const { line } of codeLines(workflow + '\n```')) expect(npxRuns(line), line).toEqual([]);
    // The tarball route is said in words: installed first, then run without fetching.
    expect(section).toContain('npx --no-install nerq');
  });
});
