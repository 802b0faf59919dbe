/** The mcp-registry-status check on written MCP entry facts (end to end on real entries: test/cli/check-mcp.test.ts). */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import mcpRegistryStatus from '../../src/checks/mcp-registry-status.js';
import type { Evidence, McpFacts } from '../../src/evidence/schema.js';
import { evaluate } from '../../src/scoring/evaluate.js';
import { repositoryEvidence } from '../support/repository-evidence.js';
import { NOW, facts } from './mcp-support.js';

describe('mcp-registry-status', () => {
  it('deprecated without a message still caps; no status is unknown', () => {
    const out = mcpRegistryStatus.evaluate({ mcp: facts({ status: 'deprecated' }) }, NOW);
    expect(out.caps?.[0]).toMatchObject({ id: 'mcp-deprecated', limit: 49.9, args: { message: 'no message given' } });
    expect(mcpRegistryStatus.evaluate({ mcp: facts({ status: null }) }, NOW)).toMatchObject({ score: null, messageId: 'unknown' });
  });

  it('a status nerq does not know is unknown and named, never read as active', () => {
    const out = mcpRegistryStatus.evaluate({ mcp: facts({ status: null, statusUnrecognised: 'suspended' }) }, NOW);
    expect(out).toMatchObject({ score: null, messageId: 'unrecognised', data: { status: 'suspended' } });
    expect(out.caps ?? []).toEqual([]);
  });
});

/**
 * The whole report of an entry whose package and repository are healthy (the written facts of
 * mcp-support.ts on the healthy repository of repository-evidence.ts): YES when the registry
 * says `active`. A status it does not give, or one nerq does not know (`Deleted`, `suspended`:
 * it may mean deprecated or deleted), must not leave that YES standing.
 */
describe('the verdict of an entry whose status is not known', () => {
  const report = (mcp: Partial<McpFacts>) => {
    const e = repositoryEvidence();
    const ev: Evidence = {
      ...e,
      target: { ...e.target, input: 'mcp:io.github.acme/weather', ecosystem: 'mcp', name: 'io.github.acme/weather', version: '1.0.0', purl: null },
      sources: { ...e.sources, mcp: { status: 'ok', facts: facts(mcp) } },
    };
    return evaluate(ev, CHECKS, 'mcp-server', NOW);
  };

  it('active: YES (the world below reaches it)', () => {
    expect(report({}).verdict.code).toBe('yes');
  });

  it.each<[string, Partial<McpFacts>]>([
    ['no status in the answer', { status: null }],
    ['a status nerq does not know (Deleted)', { status: null, statusUnrecognised: 'Deleted' }],
    ['a status nerq does not know (suspended)', { status: null, statusUnrecognised: 'suspended' }],
  ])('%s: held at CAUTION by the status check, the score unmoved', (_label, mcp) => {
    const held = report(mcp);
    expect(held.verdict.code).toBe('caution');
    expect(held.verdict.reasons.filter((r) => r.code === 'verdict-held').map((r) => r.args.check)).toEqual(['mcp-registry-status']);
    expect(held.score).toBe(report({}).score);
  });
});
