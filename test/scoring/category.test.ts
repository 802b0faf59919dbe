import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { buildReport } from '../../src/report/build.js';
import { ReportSchema } from '../../src/report/schema.js';
import { decideCategory } from '../../src/scoring/category.js';
import { applies, runCheck } from '../../src/scoring/evaluate.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { evidence, githubFacts, registryFacts, unavailable } from '../support/evidence-builder.js';
import { repoFiles, repoManifest, repositoryEvidence } from '../support/repository-evidence.js';
import { facts as mcpFacts, pkg as mcpPackage } from '../checks/mcp-support.js';
import type { Evidence, McpFacts } from '../../src/evidence/schema.js';

/** A README that shows no code: the table is about the registry's facts (the README's first code is a rule of its own). */
const PROSE_README = '# example\n\nA small example package.\n';
const withRegistry = (o: Parameters<typeof registryFacts>[0]) =>
  evidence({ registry: registryFacts(o), tarball: { readme: { path: 'README.md', size: PROSE_README.length, text: PROSE_README, truncated: false } } });

describe('decideCategory', () => {
  it.each([
    // Beside a command, a bare MCP keyword names an MCP server only where the package also says so
    // (its description, README opening): prisma's keywords list `MCP` for a subcommand of its ORM CLI.
    [{ keywords: ['mcp', 'cli'], hasBin: true }, 'cli', 'ships a command'],
    [{ keywords: ['mcp', 'cli'], description: 'Playwright Tools for MCP', hasBin: true }, 'mcp-server', 'description says "MCP" and ships a command'],
    [{ keywords: ['mcp', 'server'] }, 'mcp-server', 'keywords "mcp" and "server"'],
    // A library for building MCP servers or clients says "mcp" too: the SDK's own keywords and description (no bin).
    [{ keywords: ['modelcontextprotocol', 'mcp'], description: 'Model Context Protocol implementation for TypeScript' }, 'library', 'default'],
    [{ keywords: [], description: 'Model Context Protocol implementation for TypeScript', hasBin: true }, 'mcp-server', 'description says "Model Context Protocol" and ships a command'],
    [{ keywords: [], description: 'A Model Context Protocol server for GitHub' }, 'mcp-server', 'description says "Model Context Protocol server"'],
    [{ keywords: ['LLM'] }, 'ai-agent-tool', 'keyword "llm"'],
    [{ keywords: ['sandbox'] }, 'code-execution', 'keyword "sandbox"'],
    // Words other trades use too name the category only beside a word of its own: real keyword lists.
    [{ keywords: ['https', 'proxy', 'endpoint', 'agent'] }, 'library', 'default'],
    [{ keywords: ['http', 'https', 'agent', 'keepalive', 'agentkeepalive', 'HttpAgent', 'HttpsAgent'] }, 'library', 'default'],
    [{ keywords: ['agent', 'openai', 'tools'] }, 'ai-agent-tool', 'keywords "agent" and "openai"'],
    [{ keywords: ['bash', 'braces', 'check', 'exec', 'expression', 'extglob', 'glob', 'regex', 'string', 'test'] }, 'library', 'default'],
    [{ keywords: ['lazy', 'property', 'evaluation', 'eval', 'execute', 'getter', 'memoize'] }, 'library', 'default'],
    [{ keywords: ['eval', 'javascript', 'safe'] }, 'code-execution', 'keywords "eval" and "javascript"'],
    [{ keywords: ['exec', 'child', 'process', 'subprocess', 'spawn', 'shell'] }, 'code-execution', 'keyword "spawn"'],
    // A statechart interpreter and a coverage tool that follows subprocesses run no one's code
    // (xstate 5.33.3's and nyc 18.0.0's real keywords, fixtures/PROVENANCE.md "Category sample"); an
    // interpreter or subprocess beside a word of code execution still names it (quickjs-emscripten's, without its eval and vm).
    [{ keywords: ['statechart', 'state machine', 'finite state machine', 'finite automata', 'scxml', 'state', 'interpreter', 'graph'], description: 'Finite State Machines and Statecharts for the Modern Web.' }, 'library', 'default'],
    [{ keywords: ['coverage', 'reporter', 'subprocess', 'testing'], description: 'the Istanbul command line interface', hasBin: true }, 'cli', 'ships a command'],
    [{ keywords: ['quickjs', 'interpreter', 'runtime', 'safe', 'emscripten', 'wasm', 'javascript'] }, 'code-execution', 'keywords "interpreter" and "javascript"'],
    [{ keywords: ['subprocess', 'shell'] }, 'code-execution', 'keywords "subprocess" and "shell"'],
    [{ keywords: ['agents'], description: 'Build AI agents that call tools' }, 'ai-agent-tool', 'description says "AI agents"'],
    [{ keywords: ['framework', 'http', 'api', 'web'] }, 'web-framework', 'keywords "framework" and "http"'],
    // CSS and UI frameworks say "framework" too (bootstrap's and svelte's keyword lists).
    [{ keywords: ['css', 'sass', 'mobile-first', 'responsive', 'front-end', 'framework', 'web'] }, 'library', 'default'],
    [{ keywords: ['svelte', 'UI', 'framework', 'templates', 'templating'] }, 'library', 'default'],
    // The reason quotes the description's words, never the rule's pattern.
    [{ keywords: [], description: 'Fast, unopinionated, minimalist web framework' }, 'web-framework', 'description says "web framework"'],
    [{ keywords: [], description: 'A Web Application Framework for teams' }, 'web-framework', 'description says "Web Application Framework"'],
    [{ keywords: [], description: 'An MCP server for files' }, 'mcp-server', 'description says "MCP server"'],
    // How fast code runs is no code execution (is-glob 4.0.3's description); running code is.
    [{ keywords: [], description: 'This makes it easy to create code that only uses external modules like node-glob when necessary, resulting in much faster code execution and initialization time, and a better user experience.' }, 'library', 'default'],
    [{ keywords: [], description: 'Secure code execution for agents' }, 'code-execution', 'description says "code execution"'],
    [{ keywords: ['terminal', 'shell', 'colors'], hasBin: false }, 'library', 'default'],
    [{ keywords: [], hasBin: true }, 'cli', 'ships a command'],
    // A library or SDK that ships a helper command is a library; one that says it is a command too,
    // or what it generates, is not (a CLI that generates SDKs).
    [{ keywords: [], description: 'A comprehensive library for mime-type mapping', hasBin: true }, 'library', 'description says "library"'],
    [{ keywords: [], description: 'Official Node.js SDK for Acme', hasBin: true }, 'library', 'description says "SDK"'],
    [{ keywords: [], description: 'A CLI and library for mime-type mapping', hasBin: true }, 'cli', 'ships a command'],
    [{ keywords: [], description: 'Generate a TypeScript SDK from an OpenAPI document', hasBin: true }, 'cli', 'ships a command'],
    [{ keywords: [], description: 'Scaffolds a new library for you', hasBin: true }, 'cli', 'ships a command'],
    [{ keywords: [], description: 'Node.js library for mime-type mapping, and more', hasBin: true }, 'library', 'description says "library"'],
    [{ keywords: [], description: 'Write a library in minutes', hasBin: true }, 'cli', 'ships a command'],
    [{ keywords: ['testing'], description: 'A testing framework' }, 'library', 'default'],
    // The MCP Registry's own mark of a server's package, and the SDKs it is built on, outrank a command.
    [{ keywords: [], description: 'Playwright Tools for MCP', hasBin: true, mcpName: 'io.github.microsoft/playwright-mcp' }, 'mcp-server', 'names the MCP Registry server io.github.microsoft/playwright-mcp'],
    [{ keywords: [], hasBin: true, dependencyRanges: { '@modelcontextprotocol/sdk': '^1.17.0', zod: '^3.0.0' } }, 'mcp-server', 'depends on @modelcontextprotocol/sdk'],
    [{ keywords: [], dependencyRanges: { '@modelcontextprotocol/server': '^2.0.0' } }, 'mcp-server', 'depends on @modelcontextprotocol/server'],
    // The SDK clients are built on too (use-mcp, a React hook that calls MCP servers): an MCP server only beside a command.
    [{ keywords: ['mcp', 'react', 'hook'], dependencyRanges: { '@modelcontextprotocol/sdk': '^1.13.0' } }, 'library', 'default'],
    [{ keywords: [], dependencyRanges: { 'isolated-vm': '^5.0.0' } }, 'code-execution', 'depends on isolated-vm'],
    // A name like an SDK's is not the SDK; a development dependency is not a runtime one (dependencyRanges are runtime only).
    [{ keywords: [], dependencyRanges: { 'mcp-sdk-helpers': '^1.0.0' }, devDependencies: 3 }, 'library', 'default'],
  ])('%j → %s', (facts, id, reason) => {
    const decision = decideCategory(withRegistry(facts));
    expect(decision.id).toBe(id);
    expect(decision.reason).toContain(reason);
  });

  it('a package matching two rules: the strictest profile governs and both are listed', () => {
    expect(decideCategory(withRegistry({ keywords: ['mcp-server', 'sandbox'] }))).toEqual({
      id: 'code-execution',
      reason: 'keyword "sandbox"',
      matches: [
        { id: 'code-execution', reason: 'keyword "sandbox"' },
        { id: 'mcp-server', reason: 'keyword "mcp-server"' },
      ],
    });
  });

  it('a package with a command whose README\'s first code imports it is a library; one that runs the command first, or a test runner, is a command', () => {
    const withReadme = (text: string, description = 'An example package') =>
      decideCategory(evidence({ registry: registryFacts({ keywords: [], description, hasBin: true }), tarball: { readme: { path: 'README.md', size: text.length, text, truncated: false } } }));
    const importing = '# example\n\n```sh\nnpm install example\n```\n\n```js\nconst example = require(\'example\');\n$ example --help\n```\n';
    expect(withReadme(importing)).toEqual({ id: 'library', reason: 'README\'s first code using it is "const example = require(\'example\');" (the command it ships is an aid to it)' });
    expect(withReadme(importing.replace("const example = require('example');\n", ''))).toEqual({ id: 'cli', reason: 'ships a command' });
    expect(withReadme(importing, 'A test runner for Node.js')).toEqual({ id: 'cli', reason: 'ships a command' });
    expect(withReadme("```js\nimport { x } from 'example-plugin';\n```\n")).toEqual({ id: 'cli', reason: 'ships a command' });
  });

  it('defaults to library when the registry is unavailable', () => {
    expect(decideCategory(evidence({ registry: unavailable('timeout') })).id).toBe('library');
  });
});

describe('buildReport', () => {
  it('honours --category over the rules and over the evidence, and says so', () => {
    const e = { ...withRegistry({ keywords: ['mcp'] }), categoryOverride: 'cli' };
    expect(buildReport(e, { checks: CHECKS, gate: DEFAULT_GATE }).category).toEqual({ id: 'cli', reason: 'set with --category' });
    expect(buildReport(e, { checks: CHECKS, gate: DEFAULT_GATE, category: 'library' }).category?.id).toBe('library');
  });

  it('gives a schema-valid report with all five dimensions and every check, deterministically', () => {
    const e = withRegistry({});
    const a = buildReport(e, { checks: CHECKS, gate: DEFAULT_GATE });
    const b = buildReport(structuredClone(e), { checks: CHECKS, gate: DEFAULT_GATE });
    expect(ReportSchema.parse(a)).toEqual(a);
    expect(a.dimensions.map((d) => d.id)).toEqual(['security', 'maintenance', 'documentation', 'compliance', 'community']);
    // Every check that applies to an npm package; the PyPI-only ones are left out, and so is one
    // whose outcome says the question does not apply (implausible-version on an ordinary version).
    const applying = CHECKS.filter((c) => applies(c, e) && !runCheck(c, e, { now: new Date(e.capturedAt) }).notApplicable);
    expect(a.checks.map((c) => c.id)).toEqual(applying.map((c) => c.id));
    expect(applying.length).toBeLessThan(CHECKS.filter((c) => applies(c, e)).length);
    expect(a.checks.length).toBeGreaterThan(20);
    expect(a.checks.map((c) => c.id)).not.toContain('yanked-release');
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.evaluatedAt).toBe(e.capturedAt);
  });

  it('the category profile changes the weights, not the check scores', () => {
    const e = withRegistry({});
    const lib = buildReport(e, { checks: CHECKS, gate: DEFAULT_GATE, category: 'library' });
    const mcp = buildReport(e, { checks: CHECKS, gate: DEFAULT_GATE, category: 'mcp-server' });
    expect(mcp.checks).toEqual(lib.checks);
    expect(mcp.dimensions.find((d) => d.id === 'security')!.weight).toBeGreaterThan(lib.dimensions.find((d) => d.id === 'security')!.weight);
  });
});

describe('the verdict and the repository link', () => {
  it('an unverified (starjacked) repository link is named in the verdict reasons; a verified one is not', () => {
    const starjacked = evidence({
      github: { link: { verifiedBy: null, reason: 'package.json at main names "chalk", not "chaIk"' } },
    });
    const report = buildReport(starjacked, { checks: CHECKS, gate: DEFAULT_GATE });
    // Healthy otherwise, but never a plain YES while the repository cannot be tied to the package.
    expect(report.verdictCode).toBe('caution');
    const reasons = report.verdictReasons;
    expect(reasons.some((r) => r.includes('is not verified as this package') && r.includes('names "chalk", not "chaIk"'))).toBe(true);
    const verified = buildReport(evidence({ github: {} }), { checks: CHECKS, gate: DEFAULT_GATE }).verdictReasons;
    expect(verified.some((r) => r.includes('not verified'))).toBe(false);
  });
});

describe('the category of PyPI projects and repositories', () => {
  // PyPI does not say whether a project ships a command: the MCP words that wait on one count.
  it('a PyPI project is classified from its keywords and summary', () => {
    const e = evidence({
      registry: { status: 'not-applicable', reason: 'not an npm package' },
      pypi: { keywords: ['mcp'], summary: 'tools' },
    });
    expect(decideCategory(e)).toEqual({ id: 'mcp-server', reason: 'keyword "mcp"' });
  });

  it.each([
    [[{ name: 'mcp', specifier: '>=1.9', marker: null }], null, 'mcp-server', 'depends on mcp'],
    [[{ name: 'FastMCP', specifier: '', marker: 'python_version >= "3.10"' }], null, 'mcp-server', 'depends on fastmcp'],
    [[], 'Weather tools\n\n<!-- mcp-name: io.github.example/weather -->\n', 'mcp-server', 'names the MCP Registry server io.github.example/weather'],
    [[{ name: 'requests', specifier: '>=2', marker: null }], 'A client for the MCP registry API', 'library', 'default'],
  ])('a PyPI project with requirements %j and README %j is %s', (dependencies, readme, id, reason) => {
    const e = evidence({
      registry: { status: 'not-applicable', reason: 'not an npm package' },
      pypi: { keywords: [], summary: 'tools', dependencies, description: readme === null ? null : { text: readme, length: readme.length, truncated: false, contentType: 'text/markdown' } },
    });
    const decision = decideCategory(e);
    expect(decision.id).toBe(id);
    expect(decision.reason).toContain(reason);
  });

  it('a repository target is classified from its topics', () => {
    const e = evidence({
      registry: { status: 'not-applicable', reason: 'a repository target publishes no package' },
      github: { repository: { ...githubFacts().repository!, topics: ['langchain', 'python'] } },
    });
    expect(decideCategory(e)).toEqual({ id: 'ai-agent-tool', reason: 'keyword "langchain"' });
  });
});

describe('decideCategory for a github: target (its own files)', () => {
  it('an MCP server that runs code: both from the README title (the SDK dependency would say mcp-server too)', () => {
    const readme = '# Code Runner MCP Server\n\nMCP Server for running code snippet and show the result.\n';
    const ev = repositoryEvidence({
      repository: { topics: [], description: null },
      files: repoFiles({
        readme: { path: 'README.md', size: readme.length, text: readme, truncated: false },
        manifests: [repoManifest({ keywords: [], description: null, dependencies: ['@modelcontextprotocol/sdk', 'zod'] })],
      }),
    });
    expect(decideCategory(ev)).toEqual({
      id: 'code-execution',
      reason: 'README title says "Code Runner"',
      matches: [
        { id: 'code-execution', reason: 'README title says "Code Runner"' },
        { id: 'mcp-server', reason: 'README title says "MCP Server"' },
      ],
    });
  });

  it('an MCP SDK as a runtime dependency alone makes an MCP server; as a dev dependency it does not', () => {
    const plain = (manifest: ReturnType<typeof repoManifest>) =>
      repositoryEvidence({ repository: { topics: [], description: null }, files: repoFiles({ readme: null, manifests: [manifest] }) });
    expect(decideCategory(plain(repoManifest({ description: null, dependencies: ['fastmcp'] })))).toEqual({ id: 'mcp-server', reason: 'depends on fastmcp' });
    expect(decideCategory(plain(repoManifest({ description: null, dependencies: [], devDependencies: ['@modelcontextprotocol/sdk'] }))).id).toBe('library');
  });

  it('topics and the repository description count; private manifests do not', () => {
    expect(decideCategory(repositoryEvidence({ repository: { topics: ['mcp-server'] }, files: repoFiles({ readme: null }) })).reason).toBe('keyword "mcp-server"');
    const privateOnly = repositoryEvidence({
      repository: { topics: [], description: 'A model context protocol server' },
      files: repoFiles({ readme: null, manifests: [repoManifest({ private: true, keywords: ['sandbox'] })] }),
    });
    expect(decideCategory(privateOnly)).toEqual({ id: 'mcp-server', reason: 'repository description says "model context protocol server"' });
  });

  it('a bare "mcp" topic names an MCP server when the repository ships a command or nerq read no manifest to tell; a library with a manifest and no command stays a library', () => {
    const repo = (manifests: ReturnType<typeof repoManifest>[]) =>
      repositoryEvidence({ repository: { topics: ['mcp', 'jira'], description: 'MCP for Jira' }, files: repoFiles({ readme: null, manifests }) });
    expect(decideCategory(repo([])).id).toBe('mcp-server');
    expect(decideCategory(repo([repoManifest({ keywords: [], description: null, dependencies: [], hasBin: true })])).id).toBe('mcp-server');
    expect(decideCategory(repo([repoManifest({ keywords: [], description: null, dependencies: [], hasBin: false })])).id).toBe('library');
  });
});

/**
 * A repository target reads its README's whole opening paragraph, a package only the first sentence
 * (src/scoring/category.ts, `readmeTexts`). Measured on the 15 recorded repositories' READMEs
 * (fixtures/http/github/repos) with the first sentence and the package's title guard: no governing
 * category changed; github/github-mcp-server lost its `ai-agent-tool` label (its second sentence,
 * "This gives AI agents …"). A first sentence can only drop what the paragraph says, so a
 * repository keeps the paragraph — the stricter profile — and its own name in its title counts.
 */
describe('a repository reads its README\'s whole opening paragraph: never a laxer profile than the paragraph gives', () => {
  const readmeOnly = (text: string, fullName = 'example/example') =>
    repositoryEvidence({
      repository: { fullName, topics: [], description: null },
      files: repoFiles({ readme: { path: 'README.md', size: text.length, text, truncated: false }, manifests: [repoManifest({ keywords: [], description: null, dependencies: [], hasBin: true })] }),
    });
  it.each<[string, string, string, string]>([
    ['an MCP server named in the second sentence', '# Toolbox\n\nHelpers for your editor. Runs as an MCP server over stdio.\n', 'mcp-server', 'README opening says "MCP server"'],
    ['code execution named in the second sentence', '# box\n\nA workspace helper. Executes arbitrary code for the assistant.\n', 'code-execution', 'README opening says "Executes arbitrary code"'],
    ['an AI agent named in the second sentence', '# router\n\nA tiny router. Built for AI agents.\n', 'ai-agent-tool', 'README opening says "AI agents"'],
  ])('%s', (_, text, id, reason) => {
    expect(decideCategory(readmeOnly(text))).toEqual({ id, reason });
    // The same README in a package (first sentence only) does not say it: the repository's profile is the stricter one.
    expect(decideCategory(evidence({ registry: { description: 'A tool', keywords: [], hasBin: true }, tarball: { readme: { path: 'README.md', size: text.length, text, truncated: false } } })).id).toBe('cli');
  });

  it('the repository\'s own name as its title still counts (a package\'s would not)', () => {
    expect(decideCategory(readmeOnly('# weather-mcp-server\n\nForecasts.\n', 'acme/weather-mcp-server')).id).toBe('mcp-server');
  });

  it('the recorded github/github-mcp-server README keeps its ai-agent-tool label beside mcp-server', () => {
    const text = readFileSync(new URL('../../fixtures/http/github/repos/github/github-mcp-server/contents/README.md', import.meta.url), 'utf8');
    expect(decideCategory(readmeOnly(text, 'github/github-mcp-server')).matches?.map((m) => m.id)).toEqual(['mcp-server', 'ai-agent-tool']);
  });
});

describe('decideCategory for an MCP Registry entry', () => {
  const entry = (extra: Partial<McpFacts>): Evidence => {
    const e = evidence({ registry: { status: 'not-applicable', reason: 'an MCP Registry entry' } });
    return { ...e, sources: { ...e.sources, mcp: { status: 'ok', facts: mcpFacts(extra) } } };
  };
  const executes = { score: 80, grade: 'A', verdictCode: 'yes', coverage: 0.9, doNotUse: false, category: 'code-execution', error: null } as const;

  it.each<[string, Partial<McpFacts>, string | null]>([
    ['a plain entry', {}, null],
    ['a package that executes code', { packages: [mcpPackage(), mcpPackage({ identifier: 'runner-mcp', target: 'npm:runner-mcp@2.0.0', evaluation: executes })] }, 'MCP server whose package npm:runner-mcp@2.0.0 executes code'],
    ['a description that says it runs code', { description: 'Runs arbitrary code for agents' }, 'MCP server whose description says "Runs arbitrary code"'],
    ['a description that mentions code but not running it', { description: 'Reads code review comments' }, null],
  ])('%s', (_name, extra, codeExecution) => {
    const decision = decideCategory(entry(extra));
    if (codeExecution === null) {
      expect(decision).toEqual({ id: 'mcp-server', reason: 'an MCP Registry entry' });
      return;
    }
    // Both apply: the stricter (code execution) governs, and the report lists each with its rule.
    expect(decision).toEqual({
      id: 'code-execution',
      reason: codeExecution,
      matches: [
        { id: 'code-execution', reason: codeExecution },
        { id: 'mcp-server', reason: 'an MCP Registry entry' },
      ],
    });
  });
});
