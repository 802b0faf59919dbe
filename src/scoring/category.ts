/**
 * Category rules: decided from the package's own keywords, description and shape, in a
 * fixed order (the first rule that matches wins), and always explained. `--category`
 * overrides them.
 */
import type { Evidence } from '../evidence/schema.js';
import type { Category } from './profiles.js';

export interface CategoryDecision {
  id: Category;
  reason: string;
}

interface Rule {
  id: Category;
  keywords: readonly string[];
  /** Whole words looked for in the description. */
  phrases: readonly RegExp[];
}

/** Ordered: the riskiest categories first, so an MCP server that is also a CLI is an MCP server. */
export const CATEGORY_RULES: readonly Rule[] = [
  {
    id: 'mcp-server',
    keywords: ['mcp', 'mcp-server', 'modelcontextprotocol', 'model-context-protocol'],
    phrases: [/\bmcp server\b/i, /\bmodel context protocol\b/i],
  },
  {
    id: 'ai-agent-tool',
    keywords: ['ai-agent', 'agent', 'agents', 'llm', 'langchain', 'autonomous-agent', 'ai-tools'],
    phrases: [/\bai agents?\b/i, /\bllm\b/i],
  },
  {
    id: 'code-execution',
    keywords: ['sandbox', 'eval', 'code-execution', 'exec', 'child_process', 'spawn'],
    phrases: [/\bexecutes? (arbitrary )?code\b/i, /\bcode execution\b/i, /\bsandbox\b/i],
  },
  {
    id: 'web-framework',
    keywords: ['framework', 'web-framework', 'webframework'],
    phrases: [/\bweb (application )?framework\b/i],
  },
];

/** Keywords, description and whether it ships a command, from the package registry or the repository. */
function profileFacts(evidence: Evidence): { keywords: string[]; description: string; hasBin: boolean } | null {
  const { registry, pypi, github } = evidence.sources;
  if (registry.status === 'ok') {
    return { keywords: registry.facts.keywords, description: registry.facts.description ?? '', hasBin: registry.facts.hasBin };
  }
  if (pypi.status === 'ok') return { keywords: pypi.facts.keywords, description: pypi.facts.summary ?? '', hasBin: false };
  // A repository target: its topics are its keywords.
  if (github.status === 'ok' && github.facts.repository !== null) {
    return { keywords: github.facts.repository.topics, description: '', hasBin: false };
  }
  return null;
}

/**
 * An MCP Registry entry is an MCP server; it is code execution when one of its packages is, or
 * its description says it runs code.
 */
function mcpCategory(evidence: Evidence): CategoryDecision | null {
  const mcp = evidence.sources.mcp;
  if (mcp?.status !== 'ok') return null;
  const pkg = mcp.facts.packages.find((p) => p.evaluation?.category === 'code-execution');
  if (pkg !== undefined) return { id: 'code-execution', reason: `MCP server whose package ${pkg.target ?? pkg.identifier} executes code` };
  const codeExecution = CATEGORY_RULES.find((r) => r.id === 'code-execution');
  const phrase = codeExecution?.phrases.find((p) => p.test(mcp.facts.description ?? ''));
  if (phrase !== undefined) return { id: 'code-execution', reason: `MCP server whose description matches ${phrase.source.replaceAll('\\b', '')}` };
  return { id: 'mcp-server', reason: 'an MCP Registry entry' };
}

export function decideCategory(evidence: Evidence): CategoryDecision {
  const mcp = mcpCategory(evidence);
  if (mcp !== null) return mcp;
  const facts = profileFacts(evidence);
  if (facts === null) return { id: 'library', reason: 'default (no registry facts)' };
  const keywords = new Set(facts.keywords.map((k) => k.toLowerCase().trim()));
  const description = facts.description;
  for (const rule of CATEGORY_RULES) {
    const keyword = rule.keywords.find((k) => keywords.has(k));
    if (keyword !== undefined) return { id: rule.id, reason: `keyword "${keyword}"` };
    // The words the description says, as it says them (never the rule's pattern).
    const said = rule.phrases.map((p) => p.exec(description)?.[0]).find((m) => m !== undefined);
    if (said !== undefined) return { id: rule.id, reason: `description says "${said}"` };
  }
  if (facts.hasBin) return { id: 'cli', reason: 'ships a command' };
  return { id: 'library', reason: 'default' };
}

/**
 * The category the keyword and description rules give a package listing (a search result), or
 * null when none matches — a listing does not say whether the package ships a command, so
 * `cli` and `library` are not told apart here.
 */
export function ruleCategoryOf(keywords: readonly string[], description: string): Category | null {
  const words = new Set(keywords.map((k) => k.toLowerCase().trim()));
  for (const rule of CATEGORY_RULES) {
    if (rule.keywords.some((k) => words.has(k)) || rule.phrases.some((p) => p.test(description))) return rule.id;
  }
  return null;
}
