/**
 * The AI Act section of whole reports (report/ai-act.ts `aiActOf` through report/build.ts): every
 * category that applies counts, and a repository target or an MCP Registry entry is read from
 * what it carries — the entry's description, the repository's description and README.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import type { Evidence, McpFacts } from '../../src/evidence/schema.js';
import { buildReport } from '../../src/report/build.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { evidence, registryFacts, tarballFacts } from '../support/evidence-builder.js';
import { repoFiles, repositoryEvidence } from '../support/repository-evidence.js';
import { facts as mcpFacts } from '../checks/mcp-support.js';

const options = { checks: CHECKS, gate: DEFAULT_GATE, category: null };
const readme = (text: string) => tarballFacts({ readme: { path: 'README.md', size: text.length, text, truncated: false } });

function mcpEntry(mcp: Partial<McpFacts>, repository: Parameters<typeof repositoryEvidence>[0] = {}): Evidence {
  const e = repositoryEvidence(repository);
  return {
    ...e,
    target: { ...e.target, input: 'mcp:io.github.acme/weather', ecosystem: 'mcp', name: 'io.github.acme/weather', version: '1.0.0', purl: null },
    sources: { ...e.sources, mcp: { status: 'ok', facts: mcpFacts(mcp) } },
  };
}

describe('aiAct for every category the report carries', () => {
  it.each([
    // An MCP server that executes code: code-execution governs, the section is still given.
    ['mcp + code execution', ['mcp', 'sandbox'], 'Facial recognition MCP server', 'code-execution', ['code-execution', 'mcp-server'], 'high-risk'],
    ['ai agent + code execution', ['ai-agent', 'langchain', 'sandbox'], 'Facial recognition agent tool', 'code-execution', ['code-execution', 'ai-agent-tool'], 'high-risk'],
    ['mcp alone', ['mcp'], 'An MCP server', 'mcp-server', undefined, 'minimal'],
    // A sandbox that is no AI tool: no section.
    ['code execution alone', ['sandbox'], 'Facial recognition sandbox', 'code-execution', undefined, null],
    ['library', [], 'Facial recognition library', 'library', undefined, null],
  ] as const)('%s', (_label, keywords, description, governing, matches, category) => {
    const report = buildReport(evidence({ registry: registryFacts({ keywords: [...keywords], description }), tarball: readme('# x\n\nA package.\n') }), options);
    expect(report.category?.id).toBe(governing);
    expect(report.category?.matches?.map((m) => m.id)).toEqual(matches === undefined ? undefined : [...matches]);
    expect(report.aiAct?.category ?? null).toBe(category);
  });

  it('an MCP Registry entry whose package executes code carries the section', () => {
    const report = buildReport(mcpEntry({ description: 'Runs Python code in a sandbox for facial recognition' }), options);
    expect(report.category?.matches?.map((m) => m.id)).toEqual(['code-execution', 'mcp-server']);
    expect(report.aiAct).toMatchObject({ category: 'high-risk', rule: 'biometrics' });
  });
});

describe('aiAct of a repository target or an MCP entry', () => {
  const mcpTopics = { topics: ['mcp'] };

  it.each([
    ['the repository description', { repository: { ...mcpTopics, description: 'Facial recognition MCP server' } }, 'high-risk', 'biometrics'],
    ['the README opening', { repository: { ...mcpTopics, description: 'An MCP server' }, files: repoFiles({ readme: { path: 'README.md', size: 60, text: '# faces\n\nFacial recognition MCP server.\n', truncated: false } }) }, 'high-risk', 'biometrics'],
    ['a plain one', { repository: { ...mcpTopics, description: 'Weather forecasts MCP server' } }, 'minimal', null],
    // Whole words only, as for packages.
    ['a near word', { repository: { ...mcpTopics, description: 'Superfacial recognitionless MCP server' } }, 'minimal', null],
  ] as const)('github: %s', (_label, options_, category, rule) => {
    const report = buildReport(repositoryEvidence(options_), options);
    expect(report.category?.id).toBe('mcp-server');
    expect(report.aiAct).toMatchObject({ category, rule });
  });

  it.each([
    ['the entry description', { description: 'Facial recognition MCP server' }, {}, 'high-risk', 'biometrics'],
    ['the repository description when the entry has none', { description: null }, { repository: { description: 'Facial recognition for agents' } }, 'high-risk', 'biometrics'],
    ['the repository README', { description: 'Faces' }, { files: repoFiles({ readme: { path: 'README.md', size: 60, text: '# faces\n\nFacial recognition MCP server.\n', truncated: false } }) }, 'high-risk', 'biometrics'],
    ['a plain one', { description: 'Weather forecasts' }, {}, 'minimal', null],
  ] as const)('mcp: %s', (_label, entry, repository, category, rule) => {
    const report = buildReport(mcpEntry(entry, repository), options);
    expect(report.aiAct).toMatchObject({ category, rule });
  });
});
