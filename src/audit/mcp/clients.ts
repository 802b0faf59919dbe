/**
 * Where MCP clients keep their configuration (README.md, "nerq audit --mcp"), per operating
 * system: the user's files under the home folder and the project's files under the audited
 * directory. Pure: the home folder, the project folder, the platform and the variables that
 * move a client's folder (APPDATA, XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, COPILOT_HOME,
 * GEMINI_CLI_HOME) come in, read from the environment where the request is built.
 */
import path from 'node:path';

export interface ClientConfigLocation {
  client: string;
  /** `user` (this machine) or `project` (the audited directory). */
  scope: 'user' | 'project';
  file: string;
  /** A folder whose files of these extensions are each a configuration (Amazon Q's agents, Continue's blocks), instead of one file. */
  folderOf?: readonly string[];
}

export interface LocationContext {
  home: string;
  project: string;
  platform: NodeJS.Platform;
  /** %APPDATA% on Windows (default: <home>\AppData\Roaming). */
  appData?: string | undefined;
  /** $XDG_CONFIG_HOME elsewhere (default: <home>/.config). */
  xdgConfig?: string | undefined;
  /** $CLAUDE_CONFIG_DIR: Claude Code then keeps `.claude.json` in it instead of the home folder. */
  claudeConfigDir?: string | undefined;
  /** $CODEX_HOME: Codex's folder instead of ~/.codex. */
  codexHome?: string | undefined;
  /** $COPILOT_HOME: GitHub Copilot CLI's folder instead of ~/.copilot. */
  copilotHome?: string | undefined;
  /** $GEMINI_CLI_HOME: the folder Gemini CLI takes for the home folder (its `.gemini/` is under it). */
  geminiCliHome?: string | undefined;
}

export function clientConfigLocations(ctx: LocationContext): ClientConfigLocation[] {
  const join = ctx.platform === 'win32' ? path.win32.join : path.posix.join;
  const appData = ctx.appData ?? join(ctx.home, 'AppData', 'Roaming');
  const xdg = ctx.xdgConfig ?? join(ctx.home, '.config');
  /** The folder applications keep settings in: Application Support, %APPDATA% or XDG. */
  const appConfig = ctx.platform === 'darwin' ? join(ctx.home, 'Library', 'Application Support') : ctx.platform === 'win32' ? appData : xdg;
  const user = (client: string, file: string): ClientConfigLocation => ({ client, scope: 'user', file });
  const project = (client: string, file: string): ClientConfigLocation => ({ client, scope: 'project', file: join(ctx.project, file) });
  /** A folder of configurations: every file of it with these extensions (Continue's blocks, Amazon Q's agents). */
  const folder = (location: ClientConfigLocation, extensions: readonly string[]): ClientConfigLocation => ({ ...location, folderOf: extensions });
  /** A VS Code extension's settings in the editor's global storage (Cline, Roo Code): `Code` or `Code - Insiders`. */
  const vscodeStorage = (editor: string, extension: string, file: string) => join(appConfig, editor, 'User', 'globalStorage', extension, 'settings', file);
  /** Each client that a variable moves reads the moved folder only, never the default beside it. */
  const claudeJson = ctx.claudeConfigDir === undefined ? join(ctx.home, '.claude.json') : join(ctx.claudeConfigDir, '.claude.json');
  const codexHome = ctx.codexHome ?? join(ctx.home, '.codex');
  const copilotHome = ctx.copilotHome ?? join(ctx.home, '.copilot');
  const geminiHome = ctx.geminiCliHome ?? ctx.home;
  return [
    user('Claude Desktop', join(appConfig, 'Claude', 'claude_desktop_config.json')),
    user('Claude Code', claudeJson),
    // One file, three clients: Claude Code's project servers, GitHub Copilot CLI's and Visual Studio's.
    project('Claude Code, GitHub Copilot CLI, Visual Studio', '.mcp.json'),
    user('Cursor', join(ctx.home, '.cursor', 'mcp.json')),
    project('Cursor', join('.cursor', 'mcp.json')),
    user('VS Code', join(appConfig, 'Code', 'User', 'mcp.json')),
    user('VS Code Insiders', join(appConfig, 'Code - Insiders', 'User', 'mcp.json')),
    project('VS Code', join('.vscode', 'mcp.json')),
    user('Windsurf', join(ctx.home, '.codeium', 'windsurf', 'mcp_config.json')),
    user('Codex', join(codexHome, 'config.toml')),
    // A trusted project's own `[mcp_servers.<name>]` (README.md, "nerq audit --mcp").
    project('Codex', join('.codex', 'config.toml')),
    user('Zed', ctx.platform === 'win32' ? join(appData, 'Zed', 'settings.json') : join(xdg, 'zed', 'settings.json')),
    project('Zed', join('.zed', 'settings.json')),
    user('Gemini CLI', join(geminiHome, '.gemini', 'settings.json')),
    project('Gemini CLI', join('.gemini', 'settings.json')),
    user('GitHub Copilot CLI', join(copilotHome, 'mcp-config.json')),
    project('GitHub Copilot CLI', join('.github', 'mcp.json')),
    // Visual Studio runs on Windows only: %USERPROFILE%\.mcp.json and the solution's .vs\mcp.json.
    ...(ctx.platform === 'win32' ? [user('Visual Studio', join(ctx.home, '.mcp.json'))] : []),
    project('Visual Studio', join('.vs', 'mcp.json')),
    user('Kiro', join(ctx.home, '.kiro', 'settings', 'mcp.json')),
    project('Kiro', join('.kiro', 'settings', 'mcp.json')),
    user('Amazon Q Developer', join(ctx.home, '.aws', 'amazonq', 'mcp.json')),
    user('Amazon Q Developer', join(ctx.home, '.aws', 'amazonq', 'agents', 'default.json')),
    project('Amazon Q Developer', join('.amazonq', 'mcp.json')),
    // Amazon Q Developer CLI agents: one JSON file per agent, each with its own `mcpServers`.
    folder(user('Amazon Q Developer', join(ctx.home, '.aws', 'amazonq', 'cli-agents')), ['.json']),
    folder(project('Amazon Q Developer', join('.amazonq', 'cli-agents')), ['.json']),
    user('Cline', vscodeStorage('Code', 'saoudrizwan.claude-dev', 'cline_mcp_settings.json')),
    user('Cline', vscodeStorage('Code - Insiders', 'saoudrizwan.claude-dev', 'cline_mcp_settings.json')),
    user('Cline', join(ctx.home, '.cline', 'data', 'settings', 'cline_mcp_settings.json')),
    user('Roo Code', vscodeStorage('Code', 'rooveterinaryinc.roo-cline', 'mcp_settings.json')),
    user('Roo Code', vscodeStorage('Code - Insiders', 'rooveterinaryinc.roo-cline', 'mcp_settings.json')),
    project('Roo Code', join('.roo', 'mcp.json')),
    // opencode keeps its settings under $XDG_CONFIG_HOME (default ~/.config) on every system.
    user('opencode', join(xdg, 'opencode', 'opencode.json')),
    user('opencode', join(xdg, 'opencode', 'opencode.jsonc')),
    project('opencode', 'opencode.json'),
    project('opencode', 'opencode.jsonc'),
    project('opencode', join('.opencode', 'opencode.json')),
    project('opencode', join('.opencode', 'opencode.jsonc')),
    user('LM Studio', join(ctx.home, '.lmstudio', 'mcp.json')),
    user('Goose', ctx.platform === 'win32' ? join(appData, 'Block', 'goose', 'config', 'config.yaml') : join(xdg, 'goose', 'config.yaml')),
    user('Continue', join(ctx.home, '.continue', 'config.yaml')),
    folder(user('Continue', join(ctx.home, '.continue', 'mcpServers')), ['.yaml', '.yml', '.json']),
    folder(project('Continue', join('.continue', 'mcpServers')), ['.yaml', '.yml', '.json']),
  ];
}
