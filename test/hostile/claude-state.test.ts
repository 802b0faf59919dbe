/**
 * Hostile world: Claude Code's `~/.claude.json`, which keeps prompt history and per-project
 * state besides the servers and is read up to 128 MiB (read-config.ts, readClaudeState). The
 * streaming reader must take time linear in the file whatever fills it: history entries, many
 * projects, a server map written again and again, nesting. Each shape grows linearly in k (k
 * and 8k), compared as the other super-linear properties are (support/linear-time.ts: CPU time,
 * best of three, a loose ratio well below quadratic).
 */
import { describe, expect, it } from 'vitest';
import { MCP_CONFIG_MAX_BYTES, readMcpConfig } from '../../src/audit/mcp/read-config.js';
import { noteCases } from './support/metrics.js';
import { expectLinear, growth } from './support/linear-time.js';

const server = '{ "command": "npx", "args": ["-y", "some-mcp@1.0.0"], "env": { "TOKEN": "x" } }';
const entry = (i: number) => `{ "display": "fix test ${i}", "pastedContents": { "1": { "id": 1, "type": "text", "content": "at f (x.ts:1:1)\\nat g (y.ts:2:2)" } } }`;

/**
 * [label, the file for k, the smaller k, what the file of 8k (past 1 MiB but the nested one) gives]:
 * each a `.claude.json` growing linearly in k, read whole (its servers) or refused in one line.
 */
const SHAPES: [string, (k: number) => string, number, string[] | RegExp][] = [
  ['history entries in a project', (k) => `{\n  "projects": { "/p": { "history": [\n${Array.from({ length: k }, (_, i) => entry(i)).join(',\n')}\n], "mcpServers": { "s": ${server} } } },\n  "mcpServers": { "top": ${server} }\n}`, 2000, ['top', 's']],
  ['many projects, each with an empty server map', (k) => `{ "projects": {\n${Array.from({ length: k }, (_, i) => `"/p${i}": { "allowedTools": [], "mcpServers": {} }`).join(',\n')}\n}, "mcpServers": { "top": ${server} } }`, 4000, ['top']],
  ['a server map written again and again', (k) => `{\n${Array.from({ length: k }, (_, i) => `"mcpServers": { "s${i}": ${server} }`).join(',\n')}\n}`, 2000, ['s15999']],
  ['a project written again and again', (k) => `{ "projects": {\n${Array.from({ length: k }, (_, i) => `"/p": { "mcpServers": { "s${i}": ${server} } }`).join(',\n')}\n} }`, 2000, ['s15999']],
  ['more projects with a server than the cap', (k) => `{ "projects": {\n${Array.from({ length: k }, (_, i) => `"/p${i}": { "mcpServers": { "s": ${server} } }`).join(',\n')}\n} }`, 2000, /^\.claude\.json:502: more than 500 MCP servers$/],
  ['nested arrays in the history', (k) => `{ "history": ${'['.repeat(k)}${']'.repeat(k)}, "mcpServers": { "s": ${server} } }`, 500, ['s']],
  ['one long string', (k) => `{ "cachedChangelog": "${'- fixed a bug\\n'.repeat(k)}", "mcpServers": { "s": ${server} } }`, 16_000, ['s']],
];

describe("Claude Code's .claude.json is read in time linear in its size", () => {
  for (const [label, text, k, read] of SHAPES) {
    it(label, ({ task }) => {
      noteCases(task);
      const large = text(8 * k);
      if (k > 500) expect(large.length).toBeGreaterThan(MCP_CONFIG_MAX_BYTES);
      if (read instanceof RegExp) expect(() => readMcpConfig(large, '.claude.json')).toThrow(read);
      else expect(readMcpConfig(large, '.claude.json').map((s) => s.key)).toEqual(read);
      expectLinear(task, label, growth((n) => readMcpConfig(text(n), '.claude.json'), k, true));
    });
  }
});
