/**
 * No package named nerq is published (README.md, "In CI"). An MCP client starts its servers
 * without a terminal and outside nerq's checkout, where `npx nerq` finds no local nerq and npm
 * assumes --yes when standard input is not a TTY: it would install and run whatever someone
 * registers under the name. The configurations the docs show start nerq by path instead.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DOCS = ['README.md', 'docs/mcp.md'];

/** The MCP launches a document shows: `claude mcp add nerq -- …` lines and `"command"`/`"args"` pairs of JSON configurations naming nerq. */
function launches(text: string): string[] {
  const added = [...text.matchAll(/claude mcp add nerq -- (.+)$/gm)].map((m) => m[1]!);
  const json = [...text.matchAll(/"command":\s*"([^"]+)",\s*"args":\s*\[([^\]]*)\]/g)].map((m) => `${m[1]} ${(JSON.parse(`[${m[2]}]`) as string[]).join(' ')}`);
  return [...added, ...json].filter((line) => /\bnerq\b/.test(line));
}

describe('the MCP client configurations the docs show', () => {
  it.each(DOCS)('%s: each starts nerq by path, never through npx (which would fetch a package named nerq)', (file) => {
    const found = launches(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
    expect(found.length).toBeGreaterThan(0);
    for (const line of found) {
      expect(line, line).not.toMatch(/^npx\b/);
      expect(line, line).toMatch(/\/bin\/nerq\.js mcp\b/);
    }
  });
});
