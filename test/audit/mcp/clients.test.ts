/**
 * Where `nerq audit --mcp` looks for MCP client configurations (clients.ts), per operating
 * system: every client's user files under the home folder (or the system's settings folder) and
 * its project files under the audited directory, each named with its client and scope. The paths
 * are those the clients document (fixtures/mcp-clients/README.md).
 */
import { describe, expect, it } from 'vitest';
import { clientConfigLocations, type ClientConfigLocation } from '../../../src/audit/mcp/clients.js';

/** `scope client: file` for each location (a folder of configurations ends in `/*`), the home and project folders written `~` and `.`. */
function table(locations: readonly ClientConfigLocation[], home: string, project: string): string[] {
  return locations.map((l) => `${l.scope} ${l.client}: ${l.file.replace(project, '.').replace(home, '~')}${l.folderOf === undefined ? '' : '/*'}`);
}

const PROJECT_FILES = [
  'project Claude Code, GitHub Copilot CLI, Visual Studio: ./.mcp.json',
  'project Cursor: ./.cursor/mcp.json',
  'project VS Code: ./.vscode/mcp.json',
  'project Codex: ./.codex/config.toml',
  'project Zed: ./.zed/settings.json',
  'project Gemini CLI: ./.gemini/settings.json',
  'project GitHub Copilot CLI: ./.github/mcp.json',
  'project Visual Studio: ./.vs/mcp.json',
  'project Kiro: ./.kiro/settings/mcp.json',
  'project Amazon Q Developer: ./.amazonq/mcp.json',
  'project Amazon Q Developer: ./.amazonq/cli-agents/*',
  'project Roo Code: ./.roo/mcp.json',
  'project opencode: ./opencode.json',
  'project opencode: ./opencode.jsonc',
  'project opencode: ./.opencode/opencode.json',
  'project opencode: ./.opencode/opencode.jsonc',
  'project Continue: ./.continue/mcpServers/*',
];

describe('clientConfigLocations', () => {
  it('linux: XDG folders (default ~/.config)', () => {
    const got = table(clientConfigLocations({ home: '/home/u', project: '/srv/app', platform: 'linux' }), '/home/u', '/srv/app');
    expect(got.filter((l) => l.startsWith('user'))).toEqual([
      'user Claude Desktop: ~/.config/Claude/claude_desktop_config.json',
      'user Claude Code: ~/.claude.json',
      'user Cursor: ~/.cursor/mcp.json',
      'user VS Code: ~/.config/Code/User/mcp.json',
      'user VS Code Insiders: ~/.config/Code - Insiders/User/mcp.json',
      'user Windsurf: ~/.codeium/windsurf/mcp_config.json',
      'user Codex: ~/.codex/config.toml',
      'user Zed: ~/.config/zed/settings.json',
      'user Gemini CLI: ~/.gemini/settings.json',
      'user GitHub Copilot CLI: ~/.copilot/mcp-config.json',
      'user Kiro: ~/.kiro/settings/mcp.json',
      'user Amazon Q Developer: ~/.aws/amazonq/mcp.json',
      'user Amazon Q Developer: ~/.aws/amazonq/agents/default.json',
      'user Amazon Q Developer: ~/.aws/amazonq/cli-agents/*',
      'user Cline: ~/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
      'user Cline: ~/.config/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
      'user Cline: ~/.cline/data/settings/cline_mcp_settings.json',
      'user Roo Code: ~/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json',
      'user Roo Code: ~/.config/Code - Insiders/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json',
      'user opencode: ~/.config/opencode/opencode.json',
      'user opencode: ~/.config/opencode/opencode.jsonc',
      'user LM Studio: ~/.lmstudio/mcp.json',
      'user Goose: ~/.config/goose/config.yaml',
      'user Continue: ~/.continue/config.yaml',
      'user Continue: ~/.continue/mcpServers/*',
    ]);
    expect(got.filter((l) => l.startsWith('project'))).toEqual(PROJECT_FILES);
  });

  it('linux with $XDG_CONFIG_HOME: the XDG clients follow it, the others keep their home-folder paths', () => {
    const got = table(clientConfigLocations({ home: '/home/u', project: '/srv/app', platform: 'linux', xdgConfig: '/cfg' }), '/home/u', '/srv/app');
    expect(got).toContain('user opencode: /cfg/opencode/opencode.json');
    expect(got).toContain('user Goose: /cfg/goose/config.yaml');
    expect(got).toContain('user VS Code: /cfg/Code/User/mcp.json');
    expect(got).toContain('user Gemini CLI: ~/.gemini/settings.json');
    expect(got).toContain('user Kiro: ~/.kiro/settings/mcp.json');
  });

  it('darwin: Application Support for the editors, ~/.config for opencode and Goose', () => {
    const got = table(clientConfigLocations({ home: '/Users/u', project: '/Users/u/app', platform: 'darwin' }), '/Users/u', '/Users/u/app');
    expect(got).toEqual(
      expect.arrayContaining([
        'user Claude Desktop: ~/Library/Application Support/Claude/claude_desktop_config.json',
        'user VS Code Insiders: ~/Library/Application Support/Code - Insiders/User/mcp.json',
        'user Cline: ~/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
        'user Roo Code: ~/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json',
        'user Cline: ~/Library/Application Support/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
        'user Roo Code: ~/Library/Application Support/Code - Insiders/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json',
        'user opencode: ~/.config/opencode/opencode.json',
        'user Goose: ~/.config/goose/config.yaml',
        'user Gemini CLI: ~/.gemini/settings.json',
      ]),
    );
    expect(got).not.toContain('user Visual Studio: ~/.mcp.json');
    expect(got.filter((l) => l.startsWith('project'))).toEqual(PROJECT_FILES);
  });

  it('win32: %APPDATA% for the editors and Goose, %USERPROFILE% for the rest; Visual Studio’s user file', () => {
    const home = 'C:\\Users\\u';
    const project = 'D:\\src\\app';
    const locations = clientConfigLocations({ home, project, platform: 'win32', appData: 'C:\\Users\\u\\AppData\\Roaming' });
    const got = locations.map((l) => `${l.scope} ${l.client}: ${l.file}`);
    expect(got).toEqual(
      expect.arrayContaining([
        'user Claude Desktop: C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
        'user VS Code Insiders: C:\\Users\\u\\AppData\\Roaming\\Code - Insiders\\User\\mcp.json',
        'user Visual Studio: C:\\Users\\u\\.mcp.json',
        'user Gemini CLI: C:\\Users\\u\\.gemini\\settings.json',
        'user GitHub Copilot CLI: C:\\Users\\u\\.copilot\\mcp-config.json',
        'user Kiro: C:\\Users\\u\\.kiro\\settings\\mcp.json',
        'user Amazon Q Developer: C:\\Users\\u\\.aws\\amazonq\\mcp.json',
        'user Cline: C:\\Users\\u\\AppData\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json',
        'user Cline: C:\\Users\\u\\AppData\\Roaming\\Code - Insiders\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json',
        'user Roo Code: C:\\Users\\u\\AppData\\Roaming\\Code - Insiders\\User\\globalStorage\\rooveterinaryinc.roo-cline\\settings\\mcp_settings.json',
        'user opencode: C:\\Users\\u\\.config\\opencode\\opencode.json',
        'user LM Studio: C:\\Users\\u\\.lmstudio\\mcp.json',
        'user Goose: C:\\Users\\u\\AppData\\Roaming\\Block\\goose\\config\\config.yaml',
        'user Continue: C:\\Users\\u\\.continue\\config.yaml',
        'project Visual Studio: D:\\src\\app\\.vs\\mcp.json',
        'project Kiro: D:\\src\\app\\.kiro\\settings\\mcp.json',
        'project opencode: D:\\src\\app\\.opencode\\opencode.jsonc',
      ]),
    );
    // Every file is a Windows path under the home folder, %APPDATA% or the project.
    for (const l of locations) expect(l.file).toMatch(/^(C:\\Users\\u\\|D:\\src\\app\\)[^/]*$/);
  });

  it('only Amazon Q’s agent folders (JSON) and Continue’s block folders (YAML, JSON) are folders', () => {
    const folders = clientConfigLocations({ home: '/home/u', project: '/app', platform: 'linux' }).filter((l) => l.folderOf !== undefined);
    expect(folders.map((l) => [l.client, l.scope, l.file, l.folderOf])).toEqual([
      ['Amazon Q Developer', 'user', '/home/u/.aws/amazonq/cli-agents', ['.json']],
      ['Amazon Q Developer', 'project', '/app/.amazonq/cli-agents', ['.json']],
      ['Continue', 'user', '/home/u/.continue/mcpServers', ['.yaml', '.yml', '.json']],
      ['Continue', 'project', '/app/.continue/mcpServers', ['.yaml', '.yml', '.json']],
    ]);
  });

  it('no file is listed twice, and every project file lies under the project', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const project = platform === 'win32' ? 'D:\\app' : '/app';
      const locations = clientConfigLocations({ home: platform === 'win32' ? 'C:\\Users\\u' : '/home/u', project, platform });
      const files = locations.map((l) => l.file);
      expect(new Set(files).size).toBe(files.length);
      for (const l of locations.filter((x) => x.scope === 'project')) expect(l.file.startsWith(project)).toBe(true);
      expect(new Set(locations.map((l) => l.client.split(', ')).flat()).size).toBe(19);
    }
  });

  describe('variables that move a client’s folder', () => {
    /** The user files of Claude Code, Codex, GitHub Copilot CLI and Gemini CLI, in that order. */
    const moved = (locations: readonly ClientConfigLocation[]) =>
      ['Claude Code', 'Codex', 'GitHub Copilot CLI', 'Gemini CLI'].map((client) => locations.filter((l) => l.client === client && l.scope === 'user').map((l) => l.file));
    const cases = [
      { platform: 'linux', home: '/home/u', project: '/srv/app', to: '/data' },
      { platform: 'darwin', home: '/Users/u', project: '/Users/u/app', to: '/Volumes/w' },
      { platform: 'win32', home: 'C:\\Users\\u', project: 'D:\\app', to: 'E:\\w' },
    ] as const;

    for (const { platform, home, project, to } of cases) {
      const join = platform === 'win32' ? (...p: string[]) => p.join('\\') : (...p: string[]) => p.join('/');

      it(`${platform}: unset, each client's own folder under the home folder`, () => {
        expect(moved(clientConfigLocations({ home, project, platform }))).toEqual([
          [join(home, '.claude.json')],
          [join(home, '.codex', 'config.toml')],
          [join(home, '.copilot', 'mcp-config.json')],
          [join(home, '.gemini', 'settings.json')],
        ]);
      });

      it(`${platform}: set, the moved folder only (the default is not read, as the client does not)`, () => {
        const locations = clientConfigLocations({
          home,
          project,
          platform,
          claudeConfigDir: join(to, 'claude'),
          codexHome: join(to, 'codex'),
          copilotHome: join(to, 'copilot'),
          geminiCliHome: join(to, 'gemini-home'),
        });
        expect(moved(locations)).toEqual([
          [join(to, 'claude', '.claude.json')],
          [join(to, 'codex', 'config.toml')],
          [join(to, 'copilot', 'mcp-config.json')],
          [join(to, 'gemini-home', '.gemini', 'settings.json')],
        ]);
        // The other clients and every project file stay where they were.
        const unmoved = clientConfigLocations({ home, project, platform });
        const others = (ls: readonly ClientConfigLocation[]) => ls.filter((l) => !['Claude Code', 'Codex', 'GitHub Copilot CLI', 'Gemini CLI'].includes(l.client) || l.scope === 'project');
        expect(others(locations)).toEqual(others(unmoved));
      });

      it(`${platform}: one variable moves one client`, () => {
        expect(moved(clientConfigLocations({ home, project, platform, codexHome: join(to, 'codex') }))).toEqual([
          [join(home, '.claude.json')],
          [join(to, 'codex', 'config.toml')],
          [join(home, '.copilot', 'mcp-config.json')],
          [join(home, '.gemini', 'settings.json')],
        ]);
      });
    }
  });
});
