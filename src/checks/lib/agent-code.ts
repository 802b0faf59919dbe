/**
 * Install-time code aimed at the developer's AI coding agents (docs/checks.md, `install-scripts`;
 * shared by the JavaScript, shell and Python readers): an agent run with its permission checks
 * off, the places agents read instructions, skills and tool servers from, and words addressed to
 * an AI reviewer. Every pattern is bounded between its anchors (linear in the text).
 */

/**
 * An AI coding agent's switch for acting without asking (Claude Code, Codex, Amazon Q / Kiro,
 * Copilot CLI); the general ones (`--yolo`, `--full-auto`, `--allow-all`) count only beside an
 * agent's command name.
 */
const AGENT_UNATTENDED =
  /--dangerously-skip-permissions\b|--allow-dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|--trust-all-tools\b|--allow-all-tools\b|\bbypassPermissions\b|\bdanger-full-access\b|--approval-mode[= ]['"`]?yolo\b/;
const AGENT_GENERAL_SWITCH = /--(?:yolo|full-auto|allow-all)\b/;
const AGENT_COMMAND = /(?:^|[\s'"`/(;&|])(?:claude|gemini|codex|q|kiro-cli|copilot|cursor-agent|cline|opencode|qwen|aider|amp)(?:\.exe)?(?=[\s'"`;&|)]|$)/m;
/**
 * Where AI coding agents read instructions, skills, hooks or tool servers: a project's or the
 * home folder's `.claude/…`, `CLAUDE.md`, `.cursor/rules`, `.cursorrules`, `AGENTS.md`,
 * `.github/copilot-instructions.md`, `.mcp.json`, Claude Desktop's configuration, and the like —
 * as one path or as `path.join(…, '.claude', …)` segments.
 */
export const AGENT_CONTROL_PATH =
  /\.claude[\\/]+(?:agents|commands|skills|hooks|settings(?:\.local)?\.json)\b|['"`]\.(?:claude|cursor|opencode|gemini|codex|windsurf|continue|roo|kiro|amazonq|clinerules|cursorrules|windsurfrules)['"`]|\bCLAUDE\.md\b|\bGEMINI\.md\b|\bAGENTS\.md\b|\.cursor[\\/]+(?:rules|mcp\.json)\b|\.cursorrules\b|\.windsurfrules\b|\.clinerules\b|copilot-instructions\.md\b|\.mcp\.json\b|\bclaude_desktop_config\.json\b|\.(?:opencode|gemini|codex|kiro|amazonq|roo|continue)[\\/]+(?:skills|agents|commands|rules|settings\.json|config\.(?:toml|json|ya?ml)|mcp\.json)\b/;
/** Words that address an AI reviewer rather than a person or a program. */
export const REVIEWER_DIRECTED =
  /\b(?:ignore|disregard|forget)\s{1,4}(?:all\s{1,4})?(?:the\s{1,4}|your\s{1,4})?(?:previous|prior|above|earlier|preceding)\s{1,4}(?:instructions|prompts?|rules)\b|\bforget\s{1,4}everything\s{1,4}you\s{1,4}know\b|\bthis\s{1,4}(?:code|package|script|file|module)\s{1,4}is\s{1,4}(?:legit|legitimate|safe|benign|not\s{1,4}malicious|harmless)\b[^\n]{0,80}\b(?:tested|sandbox|scanner|analy[sz]|review|report|flag)|\b(?:do\s{1,4}not|don't|never)\s{1,4}(?:flag|report|mark)\s{1,4}(?:this|it)\s{1,4}as\s{1,4}(?:malicious|suspicious|malware)\b/i;
/** The text runs an AI coding agent unattended (its caller says whether the text starts processes at all). */
export function runsAgentUnattended(text: string): boolean {
  return AGENT_UNATTENDED.test(text) || (AGENT_GENERAL_SWITCH.test(text) && AGENT_COMMAND.test(text));
}
