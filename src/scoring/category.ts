/**
 * Category rules: decided from the package's own keywords, description and shape (a repository
 * target: its topics, description, manifests, README title and opening, and runtime
 * dependencies). Every rule that fires is kept; when several categories apply the strictest
 * profile governs (CATEGORY_STRICTNESS) and the report lists them all. `--category` overrides them.
 */
import type { Evidence } from '../evidence/schema.js';
import { readmeOpening } from '../checks/lib/readme-opening.js';
import { readmeMcpNames } from '../ecosystems/mcp/claims.js';
import type { Category } from './profiles.js';
import { escapeRegExp } from '../util/escape-regexp.js';
import { withoutScope } from '../util/without-scope.js';

export interface CategoryDecision {
  id: Category;
  reason: string;
  /** When several categories apply: each with the rule that fired, strictest first (the first governs). */
  matches?: Array<{ id: Category; reason: string }>;
}

interface Rule {
  id: Category;
  keywords: readonly string[];
  /**
   * Keywords that name the category only beside one of `beside` among the package's keywords:
   * words other trades use too (an HTTP `agent`, RegExp's `exec`, lazy `eval`uation).
   */
  ambiguous?: { keywords: readonly string[]; beside: readonly string[] };
  /** Whole words looked for in the description. */
  phrases: readonly RegExp[];
  /**
   * Keywords and description words that name the category only for a package that ships a
   * command: an MCP SDK or client library says "mcp" as an MCP server does, and a stdio MCP
   * server is a command its client starts (docs/scoring.md, "Category rules").
   */
  commandOnly?: { keywords: readonly string[]; phrases: readonly RegExp[] };
}

/** Ordered: the riskiest categories first, so an MCP server that is also a CLI is an MCP server. */
export const CATEGORY_RULES: readonly Rule[] = [
  {
    id: 'mcp-server',
    keywords: ['mcp-server', 'mcp-servers'],
    ambiguous: { keywords: ['mcp', 'modelcontextprotocol', 'model-context-protocol'], beside: ['server', 'servers'] },
    phrases: [/\bmcp servers?\b/i, /\bmodel context protocol servers?\b/i],
    commandOnly: { keywords: ['mcp', 'modelcontextprotocol', 'model-context-protocol'], phrases: [/\bmodel context protocol\b/i, /\bmcp\b/i] },
  },
  {
    id: 'ai-agent-tool',
    keywords: ['ai-agent', 'llm', 'langchain', 'autonomous-agent', 'ai-tools'],
    ambiguous: {
      keywords: ['agent', 'agents'],
      beside: ['ai', 'openai', 'gpt', 'chatgpt', 'anthropic', 'claude', 'gemini', 'ollama', 'genai', 'llms', 'mcp', 'artificial-intelligence', 'assistant', 'chatbot', 'copilot', 'autonomous'],
    },
    // An agent CLI says what it is as "a coding agent" (codex, copilot), "an agentic coding tool"
    // (claude-code) or "an AI-powered coding assistant" (qwen-code) as often as "an AI agent".
    // "Give your coding agent access to …" (figma-developer-mcp) serves the user's agent; it is not one.
    // "The build system for coding agents" (turbo) names whom it serves, not what it is.
    phrases: [/\bai agents?\b/i, /\bllm\b/i, /(?<!\b(?:your|their|our|my|for) )\bcoding agents?\b/i, /\bagentic coding\b/i, /\bai(?:[- ]powered)? coding assistants?\b/i],
  },
  {
    id: 'code-execution',
    keywords: ['sandbox', 'code-execution', 'child_process', 'spawn', 'code-runner', 'code-interpreter', 'repl'],
    // A statechart `interpreter` (xstate) and a coverage tool that follows each `subprocess` (nyc)
    // run no one's code: those words name code execution beside one of its own.
    ambiguous: {
      keywords: ['exec', 'eval', 'interpreter', 'subprocess'],
      beside: ['code', 'javascript', 'js', 'python', 'script', 'scripts', 'command', 'commands', 'shell', 'process', 'child', 'vm'],
    },
    phrases: [
      /\bexecutes? (arbitrary )?code\b/i,
      // Not the speed of the package's own code ("much faster code execution": is-glob's description).
      /(?<!\b(?:faster|slower|quicker|efficient|speeds? up|speeding up)\s)\bcode execution\b/i,
      /\bsandbox\b/i,
      /\b(?:runs?|running|executing) (?:arbitrary |untrusted )?code\b/i,
      /\bcode (?:runner|interpreter)\b/i,
      /\b(?:shell|terminal) commands?\b/i,
    ],
  },
  {
    id: 'web-framework',
    keywords: ['web-framework', 'webframework'],
    // CSS frameworks (bootstrap, bulma: "css", "responsive", "web") and UI ones say "framework"
    // too; a web framework says what it serves.
    ambiguous: {
      keywords: ['framework'],
      beside: ['http', 'https', 'server', 'backend', 'back-end', 'middleware', 'router', 'routing', 'rest', 'restful', 'api', 'mvc', 'webserver', 'web-server', 'full-stack', 'fullstack', 'ssr'],
    },
    phrases: [/\bweb (application )?framework\b/i],
  },
];

/** The order of strictness when several categories apply: the strictest profile governs. */
export const CATEGORY_STRICTNESS: readonly Category[] = ['code-execution', 'mcp-server', 'ai-agent-tool', 'web-framework', 'cli', 'library'];

/**
 * Runtime dependencies that make a project what it is: an MCP SDK makes an MCP server; a sandbox
 * or interpreter, code execution. `commandOnly`: SDKs clients are built on as well as servers
 * (use-mcp, a React hook, and @langchain/mcp-adapters depend on @modelcontextprotocol/sdk to
 * call servers), which name an npm package an MCP server only when it ships a command, as the
 * bare MCP words do; a repository or a PyPI project counts them either way.
 */
export const DEPENDENCY_RULES: ReadonlyArray<{ id: Category; names: readonly string[]; commandOnly?: readonly string[]; itself?: true; feature?: true }> = [
  // `feature`: an npm package whose description opens by naming another trade (`CLI tool for
  // Angular`, `A TypeScript framework for building MCP servers`) and says nothing of MCP where it
  // says what it is uses the SDK for a feature (an `mcp` subcommand), or builds on it.
  { id: 'mcp-server', names: ['@modelcontextprotocol/server'], commandOnly: ['@modelcontextprotocol/sdk', 'mcp', 'fastmcp'], feature: true },
  // `itself`: a sandbox or interpreter that makes its dependents code execution is code execution
  // too (isolated-vm and node-pty say "isolates" and "pseudoterminals", none of the rules' words).
  { id: 'code-execution', itself: true, names: ['vm2', 'isolated-vm', 'quickjs-emscripten', 'pyodide', 'e2b', '@e2b/code-interpreter', 'e2b-code-interpreter', 'jupyter-client', 'jupyter_client', 'restrictedpython', 'node-pty'] },
];

interface ProfileFacts {
  /** The package's own name (npm, PyPI); absent for a repository. */
  name?: string;
  keywords: string[];
  /** Texts looked at for the rules' phrases, each with where it comes from. */
  texts: Array<{ where: string; text: string }>;
  dependencies: string[];
  hasBin: boolean;
  /**
   * Whether `hasBin` was read: PyPI's JSON API does not list a project's console scripts, and a
   * repository of which no manifest was read says nothing either, so such a target may ship a
   * command nerq cannot see — the words `commandOnly` waits on count.
   */
  commandKnown: boolean;
  /**
   * The MCP Registry server name the package says it is (npm `mcpName`, a PyPI README's
   * `mcp-name:` line): the registry's own mark of an MCP server's package. Null when it names none.
   */
  mcpName?: string | null;
  /**
   * An npm package as published: one that runs as an MCP server ships the command its client
   * starts. A repository's server is often started by its path (`node build/index.js`), so there
   * an SDK dependency counts either way.
   */
  publishedPackage?: boolean;
}

/**
 * The first sentence of a paragraph: up to the first `.`, `!` or `?` followed by a blank or the
 * end (so "Node.js" and "v1.2" do not end it), the whole paragraph when none does. A scan, not a
 * pattern: the text is hostile.
 */
function firstSentence(paragraph: string): string {
  for (let i = 0; i < paragraph.length; i++) {
    const c = paragraph[i];
    if ((c === '.' || c === '!' || c === '?') && (i + 1 === paragraph.length || /\s/.test(paragraph[i + 1] as string))) return paragraph.slice(0, i + 1);
  }
  return paragraph;
}

/**
 * A README's title and opening paragraph, where its author says what the project is, as texts the
 * rules' phrases are looked for in. `sentence`: of the paragraph only its first sentence, where a
 * package says what it is ("Gemini CLI is an open-source AI agent …"); a library that names an
 * LLM or a sandbox further on ("works with any LLM provider") is not one.
 */
function readmeTexts(readme: string, sentence: boolean, name?: string): ProfileFacts['texts'] {
  const opening = readmeOpening(readme);
  const texts: ProfileFacts['texts'] = [];
  const title = opening.title === null || name === undefined ? opening.title : withoutName(opening.title, name);
  if (title !== null) texts.push({ where: 'README title', text: title });
  if (opening.paragraph !== null) texts.push({ where: 'README opening', text: sentence ? firstSentence(opening.paragraph) : opening.paragraph });
  return texts;
}

/**
 * A title less the package's own name (and its name without the scope), as a whole word: a
 * package called `llm` or `mcp-remote` is titled so, which says nothing of what it is.
 */
function withoutName(title: string, name: string): string {
  const bare = withoutScope(name);
  return [name, bare].filter((n) => n !== '').reduce((acc, n) => acc.replace(new RegExp(`(?<![\\w@/-])${escapeRegExp(n)}(?![\\w-])`, 'gi'), ' '), title);
}

/**
 * The README an npm package's category reads: the tarball's (the version's own) when the tarball
 * was read, else the one the registry shows (the full packument's `readme`), as the documentation
 * checks fall back to it.
 */
function packageReadme(evidence: Evidence): string | null {
  const { tarball, registry } = evidence.sources;
  if (tarball.status === 'ok') return tarball.facts.readme?.text ?? null;
  if (registry.status !== 'ok') return null;
  const readme = registry.facts.readme;
  return readme === null || readme === false ? null : readme.text;
}

/** A repository target's own facts: topics, description, manifests' keywords, descriptions and dependencies, README title and opening. */
function repositoryFacts(github: Extract<Evidence['sources']['github'], { status: 'ok' }>['facts']): ProfileFacts | null {
  const repository = github.repository;
  if (repository === null) return null;
  const files = github.files ?? null;
  const manifests = (files?.manifests ?? []).filter((m) => !m.private);
  const texts: ProfileFacts['texts'] = [];
  if (repository.description !== null) texts.push({ where: 'repository description', text: repository.description });
  for (const m of manifests) if (m.description !== null) texts.push({ where: `${m.path} description`, text: m.description });
  // The whole opening paragraph, and the title with the repository's own name: a first sentence
  // (a package's rule) can only drop what the paragraph says, and a repository's profile is never
  // made laxer by it (docs/scoring.md §4).
  if (files?.readme) texts.push(...readmeTexts(files.readme.text, false));
  return {
    keywords: [...repository.topics, ...manifests.flatMap((m) => m.keywords)],
    texts,
    dependencies: manifests.flatMap((m) => m.dependencies),
    // A Go or Rust command builds from its entry file as an npm one is named by `bin` (docs/scoring.md, "Category rules").
    hasBin: manifests.some((m) => m.hasBin) || (files?.commandEntries ?? []).length > 0,
    // With no manifest read (a script run by its path, a manifest past the request budget), whether it ships a command is not known.
    commandKnown: manifests.length > 0 || (files?.commandEntries ?? []).length > 0,
  };
}

/** Keywords, description and whether it ships a command, from the package registry or the repository. */
function profileFacts(evidence: Evidence): ProfileFacts | null {
  const { registry, pypi, github } = evidence.sources;
  // A repository target is categorised from the repository itself, a package folded in with
  // --include-package notwithstanding (docs/scoring.md §9).
  if (evidence.target.ecosystem === 'github') return github.status === 'ok' ? repositoryFacts(github.facts) : null;
  // A package's runtime dependencies count as a repository's do (an MCP SDK makes an MCP server).
  if (registry.status === 'ok') {
    const { facts } = registry;
    const readme = packageReadme(evidence);
    return {
      name: facts.name,
      keywords: facts.keywords,
      // The README's title and opening after the description: an agent CLI whose keywords and
      // description say only "CLI" says what it is there (docs/scoring.md, "Category rules").
      texts: [{ where: 'description', text: facts.description ?? '' }, ...(readme === null ? [] : readmeTexts(readme, true, facts.name))],
      dependencies: Object.keys(facts.dependencyRanges),
      hasBin: facts.hasBin,
      commandKnown: true,
      mcpName: facts.mcpName,
      publishedPackage: true,
    };
  }
  if (pypi.status === 'ok') {
    const { facts } = pypi;
    return {
      name: facts.name,
      keywords: facts.keywords,
      texts: [{ where: 'description', text: facts.summary ?? '' }],
      dependencies: facts.dependencies.map((d) => d.name),
      hasBin: false,
      commandKnown: false,
      mcpName: facts.description === null ? null : (readmeMcpNames(facts.description.text)[0] ?? null),
    };
  }
  if (github.status === 'ok') return repositoryFacts(github.facts);
  return null;
}

/**
 * An MCP Registry entry is an MCP server; it is code execution when one of its packages is, or
 * its description says it runs code — then both are listed, the strictest governing.
 */
function mcpCategory(evidence: Evidence): CategoryDecision | null {
  const mcp = evidence.sources.mcp;
  if (mcp?.status !== 'ok') return null;
  const server: CategoryDecision = { id: 'mcp-server', reason: 'an MCP Registry entry' };
  const both = (reason: string): CategoryDecision => ({ id: 'code-execution', reason, matches: [{ id: 'code-execution', reason }, server] });
  const pkg = mcp.facts.packages.find((p) => p.evaluation?.category === 'code-execution');
  if (pkg !== undefined) return both(`MCP server whose package ${pkg.target ?? pkg.identifier} executes code`);
  const codeExecution = CATEGORY_RULES.find((r) => r.id === 'code-execution');
  // The words the description says, as it says them (never the rule's pattern), as for packages.
  const said = codeExecution?.phrases.map((p) => p.exec(mcp.facts.description ?? '')?.[0]).find((m) => m !== undefined);
  if (said !== undefined) return both(`MCP server whose description says "${said}"`);
  return server;
}

/** Why a rule's keywords name the package's category (`keyword "mcp"`, `keywords "agent" and "openai"`), or null. */
function keywordReason(rule: Rule, keywords: ReadonlySet<string>): string | null {
  const keyword = rule.keywords.find((k) => keywords.has(k));
  if (keyword !== undefined) return `keyword "${keyword}"`;
  const ambiguous = rule.ambiguous?.keywords.find((k) => keywords.has(k));
  const beside = ambiguous === undefined ? undefined : rule.ambiguous?.beside.find((k) => keywords.has(k));
  return ambiguous === undefined || beside === undefined ? null : `keywords "${ambiguous}" and "${beside}"`;
}

/** Where a text says one of `phrases`, in the words it says (never the rule's pattern): `description says "MCP server"`, or null. */
function phraseReason(phrases: readonly RegExp[], texts: ProfileFacts['texts'], skip?: (where: string, before: string) => boolean): string | null {
  for (const { where, text } of texts) {
    for (const p of phrases) {
      const m = p.exec(text);
      if (m !== null && !(skip?.(where, text.slice(Math.max(0, m.index - MAKING_LOOKBACK), m.index)) ?? false)) return `${where} says "${m[0]}"`;
    }
  }
  return null;
}

/** How far before a phrase a verb of making is looked for: the verb and at most three words. */
const MAKING_LOOKBACK = 60;
/** "… for building MCP servers", "create AI agents with …": the words end in a verb of making and at most three words after it. */
const MAKING = /\b(?:build|builds|building|create|creates|creating|develop|develops|developing|write|writes|writing|make|makes|making)(?:\s+[\w.-]+){0,3}\s+$/i;

/**
 * A description that opens by naming the package's own trade, one not among the risk categories:
 * `CLI tool for Angular`, `A TypeScript framework for building MCP servers`, `Turborepo is the
 * build system for …` — the word within its first five (after `<name> is`), no article but a
 * leading one before it.
 */
const NAMES_TRADE = /^\s*(?:[\w.@/-]+\s+is\s+)?(?:(?:a|an|the)\s+)?(?:(?!(?:a|an|the)\s)[\w.+#/-]+\s+){0,4}?(cli|command[- ]line (?:tool|interface)|framework|library|sdk|toolkit|build system)\b/i;

/** The trade an npm package's description opens by naming (`cli`, `framework` …), or null. */
function namedTrade(facts: ProfileFacts): string | null {
  if (facts.publishedPackage !== true) return null;
  return NAMES_TRADE.exec(facts.texts.find((t) => t.where === 'description')?.text ?? '')?.[1] ?? null;
}

/**
 * A phrase that follows a verb of making (`TypeScript types for building MCP servers`,
 * @smithery/sdk 4.3.0) names what the package helps build, not what it is: in a README, for a
 * package that ships no command — as the bare MCP words name a server only beside a command —
 * and in the description and README of one whose description opens by naming its own trade (`A
 * TypeScript framework for building MCP servers`). Any other description keeps its rule
 * (docs/scoring.md §4).
 */
function makingSkip(facts: ProfileFacts): ((where: string, before: string) => boolean) | undefined {
  if (facts.publishedPackage !== true) return undefined;
  const trade = namedTrade(facts) !== null;
  if (facts.hasBin && !trade) return undefined;
  return (where, before) => (where.startsWith('README') || (trade && where === 'description')) && MAKING.test(before);
}

/** Every category whose rule fires, each with the first rule that fired for it. */
function matchesOf(facts: ProfileFacts): CategoryDecision[] {
  const keywords = new Set(facts.keywords.map((k) => k.toLowerCase().trim()));
  const dependencies = new Set(facts.dependencies.map((d) => d.toLowerCase()));
  const found = new Map<Category, string>();
  const skip = makingSkip(facts);
  if (facts.mcpName != null) found.set('mcp-server', `names the MCP Registry server ${facts.mcpName}`);
  for (const rule of CATEGORY_RULES) {
    if (found.has(rule.id)) continue;
    const keyword = keywordReason(rule, keywords);
    if (keyword !== null) {
      found.set(rule.id, keyword);
      continue;
    }
    const phrase = phraseReason(rule.phrases, facts.texts, skip);
    if (phrase !== null) {
      found.set(rule.id, phrase);
      continue;
    }
    if ((facts.hasBin || !facts.commandKnown) && rule.commandOnly !== undefined) {
      // An npm package's keywords are tags for search (prisma 7.10.1 lists `MCP` beside `ORM`,
      // `database` and 21 more for its MCP subcommand): beside its command a bare keyword names the
      // category only when the package says so where it says what it is, its description or
      // README opening (docs/scoring.md §4).
      const word = facts.publishedPackage === true ? undefined : rule.commandOnly.keywords.find((k) => keywords.has(k));
      const said = word === undefined ? phraseReason(rule.commandOnly.phrases, facts.texts, skip) : `keyword "${word}"`;
      if (said !== null) found.set(rule.id, facts.hasBin ? `${said} and ships a command` : said);
    }
  }
  const name = facts.name?.toLowerCase();
  const trade = namedTrade(facts);
  for (const rule of DEPENDENCY_RULES) {
    if (rule.feature && trade !== null && !found.has(rule.id)) continue;
    if (rule.itself && name !== undefined && rule.names.includes(name) && !found.has(rule.id)) found.set(rule.id, `is ${name}, which makes the packages that depend on it ${rule.id}`);
    const command = facts.hasBin || !facts.commandKnown || !facts.publishedPackage ? (rule.commandOnly ?? []) : [];
    const dependency = [...rule.names, ...command].find((n) => dependencies.has(n));
    if (dependency !== undefined && !found.has(rule.id)) found.set(rule.id, `depends on ${dependency}`);
  }
  return [...found].map(([id, reason]) => ({ id, reason }));
}

/** A list item holding a link (`- [name](url) - what it is`, `1. <a href=…>`). */
/** Characters of a README line read for a list item's link. */
const LIST_LINE_HEAD = 1000;
const LIST_ITEM_LINK = /^\s{0,12}(?:[-*+]|\d{1,4}[.)])\s+(?:.*\]\([^)\s]+\)|.*<a\s+href=)/i;
/** The fewest such items, and their least share of the README's lines of prose, that make a list of links. */
const LINK_LIST_ITEMS = 20;
const LINK_LIST_SHARE = 0.5;

/**
 * A repository that is a list of links (an "awesome" list): no manifest, lockfile, module file
 * or command entry in its tree, and a README most of whose lines (outside code, headings and
 * blanks aside) are list items with a link. It names MCP servers or agents without being one:
 * what it lists is not what it is (docs/scoring.md §4). Null for anything else. A line scan; the
 * text is hostile.
 */
function linkList(evidence: Evidence): CategoryDecision | null {
  const { github } = evidence.sources;
  if (evidence.target.ecosystem !== 'github' || github.status !== 'ok') return null;
  const files = github.facts.files ?? null;
  if (files === null || !files.readme) return null;
  const code = files.manifests.length + files.lockfiles.length + (files.moduleFiles?.length ?? 0) + (files.unevaluatedManifests?.length ?? 0) + (files.commandEntries?.length ?? 0);
  if (code > 0) return null;
  let lines = 0;
  let items = 0;
  let fenced = false;
  for (const line of files.readme.text.split('\n')) {
    if (/^ {0,3}(?:`{3,}|~{3,})/.test(line)) fenced = !fenced;
    if (fenced || line.trim() === '' || /^ {0,3}#/.test(line)) continue;
    lines++;
    // Only a line's head is read: a list item's link comes early, and the pattern backtracks over each `](` of a line.
    if (LIST_ITEM_LINK.test(line.slice(0, LIST_LINE_HEAD))) items++;
  }
  if (items < LINK_LIST_ITEMS || items < lines * LINK_LIST_SHARE) return null;
  return { id: 'library', reason: `a list of links: ${items} of the README's ${lines} lines link elsewhere, and no manifest or code` };
}

export function decideCategory(evidence: Evidence): CategoryDecision {
  const mcp = mcpCategory(evidence);
  if (mcp !== null) return mcp;
  const list = linkList(evidence);
  if (list !== null) return list;
  const facts = profileFacts(evidence);
  if (facts === null) return { id: 'library', reason: 'default (no registry facts)' };
  const matches = matchesOf(facts).sort((a, b) => CATEGORY_STRICTNESS.indexOf(a.id) - CATEGORY_STRICTNESS.indexOf(b.id));
  const strictest = matches[0];
  if (strictest !== undefined) {
    // Several may apply (an MCP server that executes code): the strictest profile governs, and the report lists them all.
    return matches.length === 1 ? strictest : { ...strictest, matches };
  }
  if (facts.hasBin) return libraryWithCommand(facts, packageReadme(evidence)) ?? { id: 'cli', reason: 'ships a command' };
  return { id: 'library', reason: 'default' };
}

/**
 * A description that opens by calling the package a library, an SDK or what a library is (`The
 * official TypeScript library for the Anthropic API`, `The semantic version parser used by npm`,
 * `YAML 1.2 parser and serializer`): the word within its first five, no article but a leading
 * one before it (`Scaffolds a new library` names what it makes).
 */
const SAYS_LIBRARY = /^\s*(?:(?:a|an|the)\s+)?(?:(?!(?:a|an|the)\s)[\w.+#/-]+\s+){0,4}(library|sdk|parser|serializer|encoder|decoder)\b/i;
/** A description that also says it is a command (`A CLI and library for …`). */
const SAYS_CLI = /\b(?:cli|command[- ]line|commands?|tools?)\b/i;
/** A description that says it is a command, or what it generates (`Generate a TypeScript SDK …`). */
const SAYS_COMMAND = new RegExp(`${SAYS_CLI.source}|\\bgenerat(?:e|es|ed|ing|or)\\b`, 'i');

/**
 * An npm package whose description says it is a library or an SDK and not a command is a
 * library though it ships one: the command is an aid to the library (@anthropic-ai/sdk's
 * migration helper), not what it is (docs/scoring.md §4). Only the description counts — the
 * line where a package says what it is — and only for `cli` against `library`: the risk
 * categories' rules fired first.
 */
function libraryWithCommand(facts: ProfileFacts, readme: string | null): CategoryDecision | null {
  if (facts.publishedPackage !== true) return null;
  const description = facts.texts.find((t) => t.where === 'description')?.text ?? '';
  if (SAYS_CLI.test(description)) return null;
  const m = SAYS_LIBRARY.exec(description);
  const said = m?.[1];
  // What it makes (`Write library code …`) is not what it is.
  if (m !== null && said !== undefined && !SAYS_COMMAND.test(description) && !MAKING.test(description.slice(0, m.index + m[0].length - said.length))) {
    return { id: 'library', reason: `description says "${said}" (the command it ships is an aid to it)` };
  }
  // A test runner's README imports it in every test it shows: what the tests run under is a command.
  if (facts.name === undefined || readme === null || RUNS_TESTS.test(description)) return null;
  const imported = firstUseIsImport(readme, facts.name);
  return imported === null ? null : { id: 'library', reason: `README's first code using it is "${imported}" (the command it ships is an aid to it)` };
}

/** A description that says the package runs tests or frames an application: the command it ships is the way it is used. */
const RUNS_TESTS = /\b(?:tests?|testing|runner|framework)\b/i;
/** An install line in a README's code (`npm install uuid`, `yarn add -D nanoid`), which says nothing of how the package is used. */
const INSTALL_LINE = /^\s*(?:\$\s*)?(?:npm|pnpm|yarn|bun|deno|npx\s+jsr)\s+(?:i|install|add|ci)\b/i;
/** The most of a README looked at for its first code using the package. */
const README_CODE_CHARS = 20_000;

/**
 * The first line of a README's fenced code that names the package, install lines aside, when it
 * imports the package (semver's `require` of itself, uuid's `import { v4 }` of itself), or null
 * when there is none or it runs the command first (`$ js-yaml file.yml`): a README that shows the
 * package's API before its command documents a library (docs/scoring.md §4). A line scan; the
 * text is hostile.
 */
function firstUseIsImport(readme: string, name: string): string | null {
  const quoted = `['"]${escapeRegExp(name)}(?:/[^'"\s]{0,200})?['"]`;
  const importing = new RegExp(`\\brequire\\(\\s*${quoted}\\s*\\)|\\bfrom\\s+${quoted}|\\bimport\\s*\\(?\\s*${quoted}`);
  const naming = new RegExp(`(?<![\\w@/.-])${escapeRegExp(withoutScope(name))}(?![\\w-])`, 'i');
  let fenced = false;
  for (const line of readme.slice(0, README_CODE_CHARS).split('\n')) {
    if (/^ {0,3}(?:`{3,}|~{3,})/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced || INSTALL_LINE.test(line) || !(naming.test(line) || importing.test(line))) continue;
    return importing.test(line) ? line.trim().slice(0, 80) : null;
  }
  return null;
}

/**
 * The category the keyword and description rules give a listing (a search result), or null
 * when none matches — a listing does not say whether the package ships a command, so `cli` and
 * `library` are not told apart here, and the words that name a category only for a command
 * (`commandOnly`) count as they may. When several rules fire, the strictest governs, as for an
 * evaluated target (`decideCategory`): an MCP server that runs code is code execution.
 */
export function ruleCategoryOf(keywords: readonly string[], description: string): Category | null {
  const words = new Set(keywords.map((k) => k.toLowerCase().trim()));
  const says = (phrases: readonly RegExp[]) => phrases.some((p) => p.test(description));
  const fired = CATEGORY_RULES.filter(
    (rule) =>
      keywordReason(rule, words) !== null ||
      says(rule.phrases) ||
      (rule.commandOnly !== undefined && (rule.commandOnly.keywords.some((k) => words.has(k)) || says(rule.commandOnly.phrases))),
  ).map((rule) => rule.id);
  return CATEGORY_STRICTNESS.find((id) => fired.includes(id)) ?? null;
}
