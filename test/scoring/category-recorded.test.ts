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
