/**
 * Where MCP clients keep their configuration (README.md, "nerq audit --mcp"), per operating
 * system: the user's files under the home folder and the project's files under the audited
 * directory. Pure: the home folder, the project folder, the platform and APPDATA come in.
 */
import path from 'node:path';

export interface ClientConfigLocation {
  client: string;
  /** `user` (this machine) or `project` (the audited directory). */
  scope: 'user' | 'project';
  file: string;
}

export interface LocationContext {
  home: string;
  project: string;
  platform: NodeJS.Platform;
  /** %APPDATA% on Windows (default: <home>\AppData\Roaming). */
  appData?: string | undefined;
  /** $XDG_CONFIG_HOME elsewhere (default: <home>/.config). */
  xdgConfig?: string | undefined;
}

export function clientConfigLocations(ctx: LocationContext): ClientConfigLocation[] {
  const join = ctx.platform === 'win32' ? path.win32.join : path.posix.join;
  const appData = ctx.appData ?? join(ctx.home, 'AppData', 'Roaming');
  const xdg = ctx.xdgConfig ?? join(ctx.home, '.config');
  /** The folder applications keep settings in: Application Support, %APPDATA% or XDG. */
  const appConfig = ctx.platform === 'darwin' ? join(ctx.home, 'Library', 'Application Support') : ctx.platform === 'win32' ? appData : xdg;
  const user = (client: string, file: string): ClientConfigLocation => ({ client, scope: 'user', file });
  const project = (client: string, file: string): ClientConfigLocation => ({ client, scope: 'project', file: join(ctx.project, file) });
  return [
    user('Claude Desktop', join(appConfig, 'Claude', 'claude_desktop_config.json')),
    user('Claude Code', join(ctx.home, '.claude.json')),
    project('Claude Code', '.mcp.json'),
    user('Cursor', join(ctx.home, '.cursor', 'mcp.json')),
    project('Cursor', join('.cursor', 'mcp.json')),
    user('VS Code', join(appConfig, 'Code', 'User', 'mcp.json')),
    project('VS Code', join('.vscode', 'mcp.json')),
    user('Windsurf', join(ctx.home, '.codeium', 'windsurf', 'mcp_config.json')),
    user('Codex', join(ctx.home, '.codex', 'config.toml')),
    user('Zed', ctx.platform === 'win32' ? join(appData, 'Zed', 'settings.json') : join(xdg, 'zed', 'settings.json')),
    project('Zed', join('.zed', 'settings.json')),
  ];
}
