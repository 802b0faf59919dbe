/**
 * A package's category also reads its README's title and the first sentence of its opening
 * paragraph (docs/scoring.md §4): agent CLIs whose keywords and description say only "CLI"
 * (@google/gemini-cli 0.61.0) say what they are there. The same phrases and guards as the
 * description; a library that names an LLM or a sandbox further on does not move.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decideCategory } from '../../src/scoring/category.js';
import { evidence, unavailable } from '../support/evidence-builder.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/readmes/${name}`, import.meta.url), 'utf8');

interface Case {
  name?: string;
  description?: string;
  keywords?: string[];
  hasBin?: boolean;
  readme: string | null;
}

/** An npm package whose tarball was read, with `readme` as its README (null: it ships none). */
function packageWith(c: Case) {
  const text = c.readme;
  return evidence({
    registry: { name: c.name ?? 'example', description: c.description ?? 'A tool', keywords: c.keywords ?? [], hasBin: c.hasBin ?? false },
    tarball: { readme: text === null ? null : { path: 'README.md', size: text.length, text, truncated: false } },
  });
}

describe('the README title and opening name a package category', () => {
  it.each<[string, Case, string, string]>([
    // Recorded: gemini-cli 0.61.0's description is "Gemini CLI", no keywords; its README says what it is past the badges.
    ['gemini-cli 0.61.0 (recorded)', { name: '@google/gemini-cli', description: 'Gemini CLI', hasBin: true, readme: fixture('gemini-cli-0.61.0-opening.md') }, 'ai-agent-tool', 'README opening says "AI agent"'],
    // Recorded: codex 0.171.0's README opens with an HTML paragraph (its description says the same).
    ['codex 0.171.0 README (recorded)', { name: '@openai/codex', description: 'Codex', hasBin: true, readme: fixture('codex-0.171.0-opening.md') }, 'ai-agent-tool', 'README opening says "coding agent"'],
    ['a centred bold tagline (qwen-code\'s shape)', { hasBin: true, readme: '<div align="center">\n\n[![npm](https://img.shields.io/npm/v/x.svg)](https://example.com/x)\n\n**An open-source AI agent that lives in your terminal.**\n\n</div>\n' }, 'ai-agent-tool', 'README opening says "AI agent"'],
    ['an MCP server named in the title', { hasBin: true, readme: '# Weather MCP Server\n\nForecasts for your assistant.\n' }, 'mcp-server', 'README title says "MCP Server"'],
    ['a bare MCP word with a command', { hasBin: true, readme: '# Acme\n\nA Model Context Protocol bridge for Acme.\n' }, 'mcp-server', 'README opening says "Model Context Protocol" and ships a command'],
    ['a sandbox in the first sentence ("Node.js" does not end it)', { readme: '# jail\n\nA Node.js sandbox for untrusted code. Fast.\n' }, 'code-execution', 'README opening says "sandbox"'],
    ['an agentic coding tool', { hasBin: true, readme: '# Tool\n\nTool is an agentic coding tool that lives in your terminal.\n' }, 'ai-agent-tool', 'README opening says "agentic coding"'],
    ['the title beside the package\'s own name', { name: 'gate', hasBin: true, readme: '# gate — an LLM gateway\n\nRoutes prompts.\n' }, 'ai-agent-tool', 'README title says "LLM"'],
    ['an AI-powered coding assistant', { hasBin: true, readme: '# Tool\n\nAn AI-powered coding assistant.\n' }, 'ai-agent-tool', 'README opening says "AI-powered coding assistant"'],
    // The description is read first: its words are the reason.
    ['the description before the README', { description: 'An MCP server for files', hasBin: true, readme: '# files\n\nAn AI agent toolbox.\n' }, 'mcp-server', 'description says "MCP server"'],
  ])('%s', (_, c, id, reason) => {
    const decision = decideCategory(packageWith(c));
    expect(decision.id).toBe(id);
    expect(decision.reason).toBe(reason);
  });

  it('a verb of making guards only a README phrase of a package without a command', () => {
    const sdk = '# Smithery SDK\n\nTypeScript types for building MCP servers on the Smithery hosted runtime.\n';
    // With a command it may be one (a stdio server is a command its client starts).
    expect(decideCategory(packageWith({ hasBin: true, readme: sdk }))).toEqual({ id: 'mcp-server', reason: 'README opening says "MCP servers"' });
    // A description that names no trade of its own keeps its rule.
    expect(decideCategory(packageWith({ description: 'Helpers for building MCP servers', readme: sdk }))).toEqual({ id: 'mcp-server', reason: 'description says "MCP servers"' });
    // One that opens by naming its trade (a framework) says what it is; what it builds is not.
    expect(decideCategory(packageWith({ description: 'A framework for building MCP servers', readme: sdk })).id).toBe('library');
    expect(decideCategory(packageWith({ description: 'A framework for building MCP servers', readme: sdk, hasBin: true })).id).not.toBe('mcp-server');
    // More than three words between the verb and the phrase: no longer what it builds.
    expect(decideCategory(packageWith({ readme: '# x\n\nBuild tools that a team of friendly MCP server fans love.\n' })).id).toBe('mcp-server');
  });

  it('an agent CLI that is also an MCP server lists both, the strictest first', () => {
    const decision = decideCategory(packageWith({ hasBin: true, keywords: ['mcp-server'], readme: '# x\n\nAn AI agent for your shell.\n' }));
    expect(decision.matches?.map((m) => [m.id, m.reason])).toEqual([
      ['mcp-server', 'keyword "mcp-server"'],
      ['ai-agent-tool', 'README opening says "AI agent"'],
    ]);
  });
});

describe('what the README rule leaves alone (false-positive guards)', () => {
  it.each<[string, Case, string]>([
    ['an LLM named after the first sentence', { readme: '# tokfast\n\nA fast BPE tokeniser for JavaScript. Count tokens before you send a prompt to any LLM.\n' }, 'library'],
    ['a sandbox named after the first sentence', { readme: '# colourx\n\nTerminal colours for Node.js. Try it in the online sandbox.\n' }, 'library'],
    ['AI agents named in a later paragraph', { readme: '# router\n\nA tiny router.\n\nWorks inside AI agents too.\n' }, 'library'],
    ['AI agents named in a section', { readme: '# router\n\nA tiny router.\n\n## Use with an LLM\n\nAn LLM can call it.\n' }, 'library'],
    // An HTTP agent is no AI agent: the phrases are whole words, as in the description.
    ['an HTTP agent', { readme: '# keepalive-agent\n\nAn HTTP agent that keeps sockets alive.\n' }, 'library'],
    // A bare MCP word names an MCP server only for a package that ships a command (an SDK or client library says it too).
    ['a bare MCP word without a command', { readme: '# MCP TypeScript SDK\n\nThe Model Context Protocol lets applications provide context for LLMs.\n' }, 'library'],
    ['a bare MCP word after the first sentence', { hasBin: true, readme: '# lint\n\nA linter. Also usable over MCP.\n' }, 'cli'],
    ['words in the README\'s code, not its prose', { hasBin: true, readme: '# run\n\n```sh\nrun --llm ai-agent\n```\n' }, 'cli'],
    ['no README at all', { hasBin: true, readme: null }, 'cli'],
    // What a library helps build is not what it is (@smithery/sdk 4.3.0's opening, no command).
    ['a library for building MCP servers (@smithery/sdk 4.3.0)', { name: '@smithery/sdk', description: 'SDK to develop with Smithery', readme: '# Smithery SDK\n\nTypeScript types for building MCP servers on the Smithery hosted runtime.\n' }, 'library'],
    ['a library to create AI agents with', { readme: '# kit\n\nA toolkit to create your own AI agents.\n' }, 'library'],
    // A package titled by its own name says nothing by it (llm 1.0.7's README title, its opening says no rule's words).
    ['the package\'s own name as its title (llm 1.0.7)', { name: 'llm', hasBin: true, readme: '# llm: language models usage made easy\n\nManipulate any language model from the command line.\n' }, 'cli'],
    ['a scoped package\'s bare name as its title', { name: '@acme/mcp', hasBin: true, readme: '# mcp\n\nA linter.\n' }, 'cli'],
    // "Give your coding agent access to your Figma data." (figma-developer-mcp 0.13.2's description): it serves the user's agent.
    ['a tool for the user\'s coding agent', { description: 'Give your coding agent access to your Figma data.', hasBin: true, readme: null }, 'cli'],
  ])('%s', (_, c, id) => {
    expect(decideCategory(packageWith(c)).id).toBe(id);
  });

  it('reads the registry\'s README when the tarball could not be read, and not when the tarball ships none', () => {
    const text = '# x\n\nAn AI agent for your terminal.\n';
    const registryReadme = { size: text.length, text, truncated: false };
    const noTarball = evidence({ registry: { description: 'x', keywords: [], hasBin: true, readme: registryReadme }, tarball: unavailable('timeout') });
    expect(decideCategory(noTarball)).toEqual({ id: 'ai-agent-tool', reason: 'README opening says "AI agent"' });
    // The tarball is the version's own: a version that ships no README has none, whatever the packument shows.
    const without = evidence({ registry: { description: 'x', keywords: [], hasBin: true, readme: registryReadme }, tarball: { readme: null } });
    expect(decideCategory(without)).toEqual({ id: 'cli', reason: 'ships a command' });
  });
});

describe('a sandbox or interpreter dependency is code execution itself', () => {
  it.each([
    ['isolated-vm', 'code-execution', 'is isolated-vm, which makes the packages that depend on it code-execution'],
    ['node-pty', 'code-execution', 'is node-pty, which makes the packages that depend on it code-execution'],
    ['isolated-vm-helpers', 'library', 'default'],
    // An MCP SDK makes its dependents MCP servers; it is a library itself.
    ['@modelcontextprotocol/server', 'library', 'default'],
  ])('%s → %s', (name, id, reason) => {
    expect(decideCategory(evidence({ registry: { name, description: 'Access to multiple isolates', keywords: [] } }))).toEqual({ id, reason });
  });
});
