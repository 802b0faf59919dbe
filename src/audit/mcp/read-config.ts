/**
 * MCP client configuration files as untrusted data (README.md, "nerq audit --mcp"): JSON / JSONC
 * (comments, trailing commas: jsonc-parser), TOML (Codex) or YAML (Goose, Continue), read for the
 * servers they list and nothing else. The servers sit under `mcpServers` (Claude Desktop, Claude
 * Code, Cursor, Windsurf, Gemini CLI, GitHub Copilot CLI, Kiro, Amazon Q Developer, Cline, Roo
 * Code, LM Studio), `servers` (VS Code and Visual Studio `mcp.json`), `mcp.servers` (VS Code
 * settings, opencode), `mcp.<name>` entries of `type` `local` / `remote` (opencode),
 * `context_servers` (Zed), `projects.<dir>.mcpServers` (Claude Code's `~/.claude.json`), a dev
 * container's `customizations.vscode.mcp.servers`, `[mcp_servers.<name>]` (Codex), `extensions:`
 * (Goose) or an `mcpServers:` list (Continue). Claude Code's `.claude.json`, which also holds its
 * history and per-project state (tens of MiB), is streamed for its `mcpServers` and
 * `projects.<dir>.mcpServers` alone (readClaudeState). Unknown keys are ignored; `env`, `environment`,
 * `envs`, `headers` and every other value are never kept, so a secret in them cannot reach a
 * report, the store or a log. Pure.
 */
import { parseTree, printParseErrorCode, visit, type Node, type ParseError, type ParseErrorCode } from 'jsonc-parser';
import { parseToml } from '../../lockfiles/toml-text.js';
import { parseYaml } from '../../lockfiles/yaml-text.js';
import { LineIndex } from '../../lockfiles/text.js';
import { LockfileError } from '../types.js';
import { mapLaunch, type Launch } from './launch.js';

/** A configuration file larger than this is not read (real ones are a few KiB). */
export const MCP_CONFIG_MAX_BYTES = 1024 * 1024;
/**
 * Claude Code's `.claude.json` (`~/.claude.json`, `$CLAUDE_CONFIG_DIR/.claude.json`) is no mere
 * configuration: Claude Code keeps its prompt history and per-project state in it, and real ones
 * run to tens of MiB. It is read up to this, streamed (readClaudeState): only its server maps are
 * built into a tree.
 */
export const CLAUDE_STATE_MAX_BYTES = 128 * 1024 * 1024;

/** Whether `file` (a path or the label a report shows) is Claude Code's `.claude.json`, which carries large state besides its servers. */
const isClaudeState = (file: string): boolean => /(?:^|[\\/])\.claude\.json$/i.test(file);

/** The most bytes of `file` read: CLAUDE_STATE_MAX_BYTES for Claude Code's `.claude.json`, else MCP_CONFIG_MAX_BYTES. */
export function mcpConfigCap(file: string): number {
  return isClaudeState(file) ? CLAUDE_STATE_MAX_BYTES : MCP_CONFIG_MAX_BYTES;
}

/** The words of a refusal for size: `larger than 1 MiB, not read`. */
export const tooLarge = (cap: number): string => `larger than ${cap / 1024 / 1024} MiB, not read`;
/** Servers read from one file at most. */
export const MAX_SERVERS_PER_FILE = 500;

export interface ConfiguredServer {
  file: string;
  /** The server's key in the file (`github`, `playwright`), as written (sanitised when printed). */
  key: string;
  /** 1-based line of the key (null for TOML tables not found by the scan). */
  line: number | null;
  /** `projects.<dir>` of `~/.claude.json`: the project it is configured for. */
  scope: string | null;
  launch: Launch;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);


/** A JSON tree node → plain data (only what the reader needs: objects, arrays, scalars). */
function valueOf(node: Node | undefined, depth = 0): unknown {
  if (node === undefined || depth > 64) return undefined;
  switch (node.type) {
    case 'object': {
      const out: Obj = Object.create(null) as Obj;
      for (const prop of node.children ?? []) {
        const [key, value] = prop.children ?? [];
        if (key?.type === 'string' && typeof key.value === 'string') out[key.value] = valueOf(value, depth + 1);
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((c) => valueOf(c, depth + 1));
    default:
      return node.value;
  }
}

/**
 * The value of `key` in an object node: of a key written twice, the last, as every client reads
 * it (JSON.parse and jsonc-parser keep the last), so a harmless first `mcpServers` cannot hide
 * the servers a client starts (docs/security.md, "Manifest confusion").
 */
function member(node: Node | undefined, key: string): Node | undefined {
  if (node?.type !== 'object') return undefined;
  const prop = (node.children ?? []).findLast((p) => p.children?.[0]?.value === key);
  return prop?.children?.[1];
}

/** The server tables of a JSON document: `{ node, scope }` of each server map found. */
function serverMaps(root: Node): { map: Node; scope: string | null }[] {
  const maps: { map: Node; scope: string | null }[] = [];
  for (const key of ['mcpServers', 'servers', 'context_servers']) {
    const map = member(root, key);
    if (map?.type === 'object') maps.push({ map, scope: null });
  }
  // VS Code settings and opencode (`mcp.servers`), and a dev container's `customizations.vscode.mcp.servers`.
  for (const holder of [root, member(member(root, 'customizations'), 'vscode')]) {
    const settings = member(member(holder, 'mcp'), 'servers');
    if (settings?.type === 'object') maps.push({ map: settings, scope: null });
  }
  // opencode's first form: servers straight under `mcp`, each of `type` `local` or `remote`
  // (Gemini CLI's `mcp` holds `allowed`, `excluded`, `serverCommand`: no server, not read).
  const mcp = member(root, 'mcp');
  if (mcp?.type === 'object' && member(mcp, 'servers') === undefined) {
    const entries = (mcp.children ?? []).filter((prop) => {
      const type = member(prop.children?.[1], 'type')?.value;
      return type === 'local' || type === 'remote';
    });
    if (entries.length > 0) maps.push({ map: { ...mcp, children: entries }, scope: null });
  }
  const projects = member(root, 'projects');
  if (projects?.type === 'object') {
    for (const prop of projects.children ?? []) {
      const map = member(prop.children?.[1], 'mcpServers');
      const dir = prop.children?.[0]?.value;
      if (map?.type === 'object' && typeof dir === 'string') maps.push({ map, scope: dir });
    }
  }
  return maps;
}

/**
 * A server's command, args and url in any client's spelling: Zed's `command: {path, args}`,
 * opencode's `command: [program, ...args]` with `environment`, Goose's `cmd`, `envs` and `uri`,
 * Windsurf's `serverUrl`, Gemini CLI's `httpUrl` — so the launch is read the same whoever wrote it.
 */
function launchFields(value: unknown): { command?: unknown; args?: unknown; url?: unknown; env?: unknown } {
  if (!isObj(value)) return {};
  let command = value.command ?? value.cmd;
  let args = value.args;
  let env = value.env ?? value.environment ?? value.envs;
  if (isObj(command)) {
    if (args === undefined) args = command.args;
    if (env === undefined) env = command.env;
    command = command.path;
  } else if (Array.isArray(command)) {
    // opencode: the program and its arguments in one array (any `args` after them).
    args = [...command.slice(1), ...(Array.isArray(args) ? args : [])];
    command = command[0];
  }
  // `env` goes to the launch for its variables' names only (launch.ts); no value is kept.
  return { command, args, url: value.url ?? value.serverUrl ?? value.httpUrl ?? value.uri, env };
}

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false } as const;

/** jsonc-parser descends recursively: a document nested deeper than the stack allows is refused in one line, not a crash. */
function unnested<T>(file: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof RangeError) throw new LockfileError(file, null, 'nested too deeply, not read');
    throw error;
  }
}

/** The servers of one server map node: each key, its offset in the file (`base`: where the map's text starts) and its value. */
function entriesOf(map: Node, base: number): { key: string; offset: number; value: Node | undefined }[] {
  return (map.children ?? []).flatMap((prop) => {
    const [keyNode, value] = prop.children ?? [];
    return typeof keyNode?.value === 'string' ? [{ key: keyNode.value, offset: base + keyNode.offset, value }] : [];
  });
}

const serverAt = (file: string, key: string, line: number | null, scope: string | null, value: Node | undefined): ConfiguredServer => ({
  file,
  key,
  line,
  scope,
  launch: mapLaunch(launchFields(valueOf(value))),
});

function readJson(text: string, file: string): ConfiguredServer[] {
  const index = new LineIndex(text);
  const errors: ParseError[] = [];
  const root = unnested(file, () => parseTree(text, errors, PARSE_OPTIONS));
  const first = errors[0];
  if (first !== undefined || root === undefined) {
    throw new LockfileError(file, first === undefined ? null : index.lineAt(first.offset), `invalid JSON: ${first === undefined ? 'empty document' : printParseErrorCode(first.error)}`);
  }
  if (root.type !== 'object') throw new LockfileError(file, 1, 'expected a JSON object');
  const servers: ConfiguredServer[] = [];
  for (const { map, scope } of serverMaps(root)) {
    for (const { key, offset, value } of entriesOf(map, 0)) {
      if (servers.length >= MAX_SERVERS_PER_FILE) throw new LockfileError(file, index.lineAt(offset), `more than ${MAX_SERVERS_PER_FILE} MCP servers`);
      servers.push(serverAt(file, key, index.lineAt(offset), scope, value));
    }
  }
  return servers;
}

/** The 1-based line of each offset (ascending), in one pass over the text: the line index of a 64 MiB file is never built. */
function linesOf(text: string, offsets: readonly number[]): Map<number, number> {
  const lines = new Map<number, number>();
  let line = 1;
  let from = 0;
  for (const offset of offsets) {
    for (let i = text.indexOf('\n', from); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++;
      from = i + 1;
    }
    lines.set(offset, line);
  }
  return lines;
}

/** Where a server map lies in the text: `[start, end)` of its object. */
interface Span {
  start: number;
  end: number;
}

/**
 * Claude Code's `.claude.json`, streamed: the whole document is checked (jsonc-parser's `visit`,
 * one pass, no tree), and only the objects Claude Code starts servers from — the top-level
 * `mcpServers` and each `projects.<dir>.mcpServers` — are parsed into trees; its history,
 * caches and the rest are never built. Of a key written twice the last counts, as in readJson.
 * Lines are counted in the file.
 */
function readClaudeState(text: string, file: string): ConfiguredServer[] {
  // One frame per open object or array: the key last met in it (null in an array), and the server map it is.
  interface Frame {
    array: boolean;
    key: string | null;
    start: number;
    map?: { scope: string | null };
  }
  const stack: Frame[] = [];
  let rootKind: 'object' | 'other' | undefined;
  let firstError: { error: ParseErrorCode; offset: number } | undefined;
  let top: Span | undefined;
  let projects = new Map<string, Span>();
  // The frames' keys as the path: [root key] at depth 1, [projects, dir, mcpServers] at depth 3.
  const inProjects = () => stack[0]?.array === false && stack[0].key === 'projects' && stack[1]?.array === false;
  unnested(file, () =>
    visit(
      text,
      {
        onObjectBegin(offset) {
          if (stack.length === 0) rootKind ??= 'object';
          const frame: Frame = { array: false, key: null, start: offset };
          if (stack.length === 1 && stack[0]?.array === false && stack[0].key === 'mcpServers') frame.map = { scope: null };
          else if (stack.length === 3 && inProjects() && stack[2]?.array === false && stack[2].key === 'mcpServers' && stack[1]?.key != null) frame.map = { scope: stack[1].key };
          stack.push(frame);
        },
        onObjectProperty(property) {
          const frame = stack.at(-1);
          if (frame === undefined) return;
          frame.key = property;
          // A key written again: its first value no longer counts.
          if (stack.length === 1 && property === 'mcpServers') top = undefined;
          else if (stack.length === 1 && property === 'projects') projects = new Map();
          else if (stack.length === 2 && inProjects()) projects.delete(property);
          else if (stack.length === 3 && inProjects() && property === 'mcpServers' && stack[1]?.key != null) projects.delete(stack[1].key);
        },
        onObjectEnd(offset, length) {
          const frame = stack.pop();
          if (frame?.map === undefined) return;
          const span = { start: frame.start, end: offset + length };
          if (frame.map.scope === null) top = span;
          else projects.set(frame.map.scope, span);
        },
        onArrayBegin(offset) {
          if (stack.length === 0) rootKind ??= 'other';
          stack.push({ array: true, key: null, start: offset });
        },
        onArrayEnd() {
          stack.pop();
        },
        onLiteralValue() {
          if (stack.length === 0) rootKind ??= 'other';
        },
        onError(error, offset) {
          firstError ??= { error, offset };
        },
      },
      PARSE_OPTIONS,
    ),
  );
  if (firstError !== undefined || rootKind === undefined) {
    const line = firstError === undefined ? null : (linesOf(text, [firstError.offset]).get(firstError.offset) ?? null);
    throw new LockfileError(file, line, `invalid JSON: ${firstError === undefined ? 'empty document' : printParseErrorCode(firstError.error)}`);
  }
  if (rootKind !== 'object') throw new LockfileError(file, 1, 'expected a JSON object');
  const spans: { span: Span; scope: string | null }[] = [...(top === undefined ? [] : [{ span: top, scope: null }]), ...[...projects].map(([scope, span]) => ({ span, scope }))];
  // Each map parsed alone; its servers' lines are found afterwards, in one pass over the file.
  const entries = spans.flatMap(({ span, scope }) => {
    const map = parseTree(text.slice(span.start, span.end), [], PARSE_OPTIONS);
    return map === undefined ? [] : entriesOf(map, span.start).map((entry) => ({ ...entry, scope }));
  });
  const over = entries[MAX_SERVERS_PER_FILE];
  if (over !== undefined) throw new LockfileError(file, linesOf(text, [over.offset]).get(over.offset) ?? null, `more than ${MAX_SERVERS_PER_FILE} MCP servers`);
  const lines = linesOf(text, entries.map((e) => e.offset).sort((a, b) => a - b));
  return entries.map(({ key, offset, value, scope }) => serverAt(file, key, lines.get(offset) ?? null, scope, value));
}

function readToml(text: string, file: string): ConfiguredServer[] {
  const doc = parseToml(text, file);
  const table = doc.mcp_servers;
  if (!isObj(table)) return [];
  // Each table header's first line, in one pass: a search of every line for each server was
  // servers × lines (500 servers over a megabyte of blank lines: tens of seconds).
  const headers = new Map<string, number>();
  text.split('\n').forEach((l, i) => {
    const header = l.trim();
    if (header.startsWith('[mcp_servers.') && !headers.has(header)) headers.set(header, i + 1);
  });
  return Object.entries(table).slice(0, MAX_SERVERS_PER_FILE).map(([key, value]) => {
    const found = [headers.get(`[mcp_servers.${key}]`), headers.get(`[mcp_servers."${key}"]`)].filter((n) => n !== undefined);
    const line = found.length === 0 ? null : Math.min(...found);
    return { file, key, line, scope: null, launch: mapLaunch(launchFields(value)) };
  });
}

/** Goose extensions that are Goose's own code, not a server it starts or reaches. */
const GOOSE_BUILT_IN = new Set(['builtin', 'platform']);

/** Goose (`extensions: {name: {type, cmd, args, envs, uri}}`) and Continue (`mcpServers: [{name, command, args, env, url}]`, or a map). */
function readYamlConfig(text: string, file: string): ConfiguredServer[] {
  const doc = parseYaml(text, file);
  if (doc.value === null || doc.value === undefined || doc.value === '') return [];
  if (!isObj(doc.value)) throw new LockfileError(file, 1, 'expected a YAML mapping');
  const servers: ConfiguredServer[] = [];
  const add = (key: string, path: readonly PropertyKey[], value: unknown) => {
    if (servers.length >= MAX_SERVERS_PER_FILE) throw new LockfileError(file, doc.lineOf(path), `more than ${MAX_SERVERS_PER_FILE} MCP servers`);
    servers.push({ file, key, line: doc.lineOf(path), scope: null, launch: mapLaunch(launchFields(value)) });
  };
  const { extensions, mcpServers } = doc.value;
  if (isObj(extensions)) {
    for (const [key, entry] of Object.entries(extensions)) {
      // An entry may hold its settings flat or under `config`.
      const settings = isObj(entry) && isObj(entry.config) ? entry.config : entry;
      if (isObj(settings) && typeof settings.type === 'string' && GOOSE_BUILT_IN.has(settings.type)) continue;
      add(key, ['extensions', key], settings);
    }
  }
  if (Array.isArray(mcpServers)) {
    mcpServers.forEach((entry, index) => {
      const name = isObj(entry) && typeof entry.name === 'string' ? entry.name : `#${index + 1}`;
      add(name, ['mcpServers', index], entry);
    });
  } else if (isObj(mcpServers)) {
    for (const [key, entry] of Object.entries(mcpServers)) add(key, ['mcpServers', key], entry);
  }
  return servers;
}

/** The servers a configuration file lists. Throws `LockfileError` (one line, with the file) for a file that is no configuration. */
export function readMcpConfig(text: string, file: string): ConfiguredServer[] {
  const cap = mcpConfigCap(file);
  if (Buffer.byteLength(text, 'utf8') > cap) throw new LockfileError(file, null, tooLarge(cap));
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (isClaudeState(file)) return readClaudeState(body, file);
  if (/\.toml$/i.test(file)) return readToml(body, file);
  return /\.ya?ml$/i.test(file) ? readYamlConfig(body, file) : readJson(body, file);
}
