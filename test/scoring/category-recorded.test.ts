/**
 * The category of real packages, from their recorded packuments (fixtures/http/npm/) and the
 * opening of their tarballs' READMEs (fixtures/readmes/): fixtures/PROVENANCE.md says where each
 * comes from.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decideCategory } from '../../src/scoring/category.js';
import { registryFacts } from '../../src/sources/npm/facts.js';
import { evidence } from '../support/evidence-builder.js';

const read = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8');

/** An npm package as recorded: its `latest` version's registry facts, and its tarball's README opening. */
function recorded(packument: string, readme: string) {
  const doc = JSON.parse(read(`http/npm/${packument}`)) as Record<string, unknown> & { 'dist-tags': { latest: string } };
  const text = read(`readmes/${readme}`);
  return evidence({
    registry: registryFacts(doc, doc['dist-tags'].latest),
    tarball: { readme: { path: 'README.md', size: text.length, text, truncated: false } },
  });
}

describe('the category of recorded npm packages', () => {
  it('prisma 7.10.1: an ORM command whose keywords list MCP among 24 is no MCP server', () => {
    const prisma = recorded('prisma.json', 'prisma-7.10.1-opening.md');
    const facts = prisma.sources.registry.status === 'ok' ? prisma.sources.registry.facts : null;
    // The recorded shape the rule is about: the keyword, a command, no MCP word where it says what it is.
    expect(facts?.keywords).toContain('MCP');
    expect(facts?.hasBin).toBe(true);
    const decision = decideCategory(prisma);
    expect(decision.id).toBe('cli');
    expect(decision.matches).toBeUndefined();
  });

  it('@anthropic-ai/sdk 1.17.0: a library that ships a migration command is a library', () => {
    const sdk = recorded('@anthropic-ai/sdk.json', 'anthropic-ai-sdk-1.17.0-opening.md');
    expect(sdk.sources.registry.status === 'ok' && sdk.sources.registry.facts.hasBin).toBe(true);
    const decision = decideCategory(sdk);
    expect(decision.id).toBe('library');
    // The reason quotes the description's word.
    expect(decision.reason).toContain('"library"');
  });
});

describe('a package whose description names its own trade (recorded packuments and README openings)', () => {
  it('@angular/cli 22.2.7: "CLI tool for Angular" depending on the MCP server SDK for its `mcp` subcommand is a command, not an MCP server', () => {
    const cli = recorded('@angular/cli.json', 'angular-cli-22.2.7-opening.md');
    const facts = cli.sources.registry.status === 'ok' ? cli.sources.registry.facts : null;
    // The recorded shape the rule is about: the server SDK among its dependencies, a command.
    expect(Object.keys(facts?.dependencyRanges ?? {})).toContain('@modelcontextprotocol/server');
    expect(facts?.hasBin).toBe(true);
    const decision = decideCategory(cli);
    expect(decision).toEqual({ id: 'cli', reason: 'ships a command' });
  });

  it('turbo 2.11.13: "the build system for coding agents" names whom it serves: a command, not an AI-agent tool', () => {
    const decision = decideCategory(recorded('turbo.json', 'turbo-2.11.13-opening.md'));
    expect(decision.id).toBe('cli');
    expect(decision.matches).toBeUndefined();
  });

  it('fastmcp 4.20.16: "A TypeScript framework for building MCP servers" with the MCP SDK and a command is no MCP server', () => {
    const fastmcp = recorded('fastmcp.json', 'fastmcp-4.20.16-opening.md');
    const facts = fastmcp.sources.registry.status === 'ok' ? fastmcp.sources.registry.facts : null;
    expect(Object.keys(facts?.dependencyRanges ?? {})).toContain('@modelcontextprotocol/sdk');
    expect(facts?.hasBin).toBe(true);
    const decision = decideCategory(fastmcp);
    expect(decision.id).not.toBe('mcp-server');
    expect(decision.matches).toBeUndefined();
  });
});

describe('a library that ships a command of its own name (recorded packuments and README openings)', () => {
  it('semver 7.8.6: "The semantic version parser used by npm" is a library', () => {
    const semver = recorded('semver.json', 'semver-7.8.6-opening.md');
    expect(semver.sources.registry.status === 'ok' && semver.sources.registry.facts.hasBin).toBe(true);
    const decision = decideCategory(semver);
    expect(decision.id).toBe('library');
    expect(decision.reason).toContain('"parser"');
  });

  it('uuid 14.0.3: a description naming no trade, a README whose first code imports it: a library', () => {
    const uuid = recorded('uuid.json', 'uuid-14.0.3-opening.md');
    expect(uuid.sources.registry.status === 'ok' && uuid.sources.registry.facts.hasBin).toBe(true);
    const decision = decideCategory(uuid);
    expect(decision.id).toBe('library');
    expect(decision.reason).toContain("from 'uuid'");
  });

  it('uuid 14.0.3 with a README that runs its command first (edited): a command', () => {
    const readme = read('readmes/uuid-14.0.3-opening.md').replace('npm install uuid\n```', 'npm install uuid\n$ npx uuid v4\n```');
    const doc = JSON.parse(read('http/npm/uuid.json')) as Record<string, unknown> & { 'dist-tags': { latest: string } };
    const edited = evidence({
      registry: registryFacts(doc, doc['dist-tags'].latest),
      tarball: { readme: { path: 'README.md', size: readme.length, text: readme, truncated: false } },
    });
    expect(decideCategory(edited)).toEqual({ id: 'cli', reason: 'ships a command' });
  });
});
