/**
 * The mcp-name-copy check on written entry facts; the comparison set is the generated one (real
 * registry data, test/checks/lib/mcp-known-servers.test.ts). End to end: test/cli/check-mcp-hostile.test.ts.
 */
import { describe, expect, it } from 'vitest';
import check from '../../src/checks/mcp-name-copy.js';
import { copiedServer } from '../../src/checks/lib/mcp.js';
import { NOW, facts } from './mcp-support.js';

const named = (name: string) => check.evaluate({ mcp: facts({ name }) }, NOW);

describe('mcp-name-copy', () => {
  it.each([
    ['io.github.evil/github-mcp-server', 'io.github.github/github-mcp-server'],
    ['io.github.evil/GitHub_MCP.Server', 'io.github.github/github-mcp-server'],
    ['com.evil-corp/mcp-server-cloudflare', 'com.cloudflare/mcp-server-cloudflare'],
    ['io.github.cloudflare-mcp/mcp-server-cloudflare', 'com.cloudflare/mcp-server-cloudflare'],
  ])('%s copies %s: 0, held at CAUTION', (name, original) => {
    const out = named(name);
    expect(out).toMatchObject({ score: 0, messageId: 'copy', data: { server: name, original } });
    expect(out.holdVerdict).toBeDefined();
    expect(out.caps ?? []).toEqual([]);
  });
  it.each([
    // The originals themselves, and the same publisher under its domain namespace.
    'io.github.github/github-mcp-server',
    'IO.GITHUB.GITHUB/github-mcp-server',
    'com.github/github-mcp-server',
    'io.github.cloudflare/mcp-server-cloudflare',
    // A community server about the same product, under its own name.
    'io.github.ko1ynnky/github-actions-mcp-server',
    // A plain name two real projects share (xing5 and rohans2): neither names its publisher.
    'io.github.someone/mcp-google-sheets',
    'io.github.evil/playwright-mcp',
  ])('%s: not applicable', (name) => {
    expect(named(name)).toMatchObject({ score: null, messageId: 'original', notApplicable: true });
  });
  it('a comparison set is matched in full, never by a part', () => {
    expect(copiedServer('io.github.evil/github-mcp', ['io.github.github/github-mcp-server'])).toBeNull();
    expect(copiedServer('io.github.evil/x', [])).toBeNull();
  });
});
