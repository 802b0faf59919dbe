/**
 * The README's `nerq mcp` answers (README.md, "`nerq mcp`") are what its `check_packages` tool
 * answers against the fixture server, as the README says: the call the README names, with its
 * whole `structuredContent` its block shows, and
 * the error result of a target the parser refuses, as the README prints it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveOsv } from '../cli/audit-helpers.js';
import { expectPackage } from '../cli/helpers.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { mcpFixture } from './support.js';

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const section = README.slice(README.indexOf('### `nerq mcp`'), README.indexOf('### `nerq cache stats`'));

const connect = mcpFixture((server) => {
  expectPackage(server, 'chalk');
  expectPackage(server, 'request');
  serveOsv(server, []);
});

describe("the README's check_packages answers", () => {
  it('the call it names answers the structuredContent its block shows', async () => {
    const call = /A `check_packages` call with `(\{[^`]*\})`/.exec(section);
    expect(call).not.toBeNull();
    const shown = /```json\n(\{\n {2}"reports"[\s\S]*?)```/.exec(section)?.[1];
    expect(shown).toBeDefined();
    const { client } = await connect();
    const result = await client.callTool({ name: 'check_packages', arguments: JSON.parse(call![1]!) as Record<string, unknown> });
    expect(result.isError).toBeFalsy();
    // The whole answer, every member as answered.
    expect(result.structuredContent).toEqual(JSON.parse(shown!));
  });

  it('a target the parser refuses is the error result it prints', async () => {
    const shown = /error result, never a crash:\n`(\{"isError"[^`]*\})`/.exec(section);
    expect(shown).not.toBeNull();
    const expected = JSON.parse(shown![1]!) as { content: { text: string }[] };
    const target = /unsupported host \\?"([^"\\]+)\\?"/.exec(expected.content[0]!.text)?.[1];
    const { client } = await connect();
    const result = await client.callTool({ name: 'check_packages', arguments: { targets: [`https://${target}/x`] } });
    expect({ isError: result.isError, content: result.content }).toEqual(expected);
  });
});
