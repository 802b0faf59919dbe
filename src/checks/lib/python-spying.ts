/**
 * What a stealer's Python code does besides downloading and running (import-code.ts,
 * docs/checks.md `import-time-code`): capturing the screen, the clipboard or the keys and sending
 * what it captured; swapping a wallet address in the clipboard; writing into another process's
 * memory and starting a thread there, or having rundll32 run a DLL; writing where code runs again
 * at the next login. Libraries capture the screen (mss, pyautogui), read the clipboard (pyperclip,
 * pandas) and call Win32 all the time, so a capability alone is never a finding here: only the
 * combination that makes it harm. Pure text reading, never executed; every scan is linear in the
 * text.
 */
import { callArguments, codeOf, receiverOf, splitArguments, traced, assignedName, type FlowText } from './python-flow.js';
import { CATCHER_HOST } from './catcher-hosts.js';
import { enclosingFunction, functionsOf, type PythonFunction } from './python-functions.js';

/** Taking a screenshot… */
const SCREEN =
  /\bImageGrab\.grab\s*\(|\bpyautogui\.screenshot\s*\(|\bpyscreenshot\.grab\s*\(|\bmss\.mss\s*\(|(?<![\w.])mss\s*\(\s*\)\s*(?:as\b|\.)|\bd3dshot\.create\s*\(|\.grabWindow\s*\(|['"](?:screencapture|gnome-screenshot|scrot)\b/;
/** …reading the clipboard… */
const CLIPBOARD_READ =
  /\b(?:pyperclip|clipboard)\.paste\s*\(|\bread_clipboard\s*\(|\bGetClipboardData\s*\(|\bclipboard_get\s*\(|\bgrabclipboard\s*\(|['"](?:pbpaste|xclip\s+-o|xsel\s+-o|xclip\s+-selection\s+clipboard\s+-o)\b/;
/** …or hooking the keys. */
const KEYS = /\bkeyboard\.(?:Listener|on_press|on_release|hook|record|read_key|read_event)\s*\(|\bGetAsyncKeyState\s*\(|\bWH_KEYBOARD(?:_LL)?\b/;
/** Any of the three: what the user sees, copies or types. */
export const CAPTURE = new RegExp([SCREEN, CLIPBOARD_READ, KEYS].map((p) => p.source).join('|'));
/** The capturing modules and the calls of theirs that capture, for the names a module's imports give them. */
const CAPTURE_MODULES: Record<string, string> = {
  ImageGrab: String.raw`grab(?:clipboard)?`,
  pyautogui: 'screenshot',
  pyscreenshot: 'grab',
  pyperclip: 'paste',
  clipboard: 'paste',
  mss: 'mss',
  d3dshot: 'create',
  keyboard: '(?:Listener|on_press|on_release|hook|record|read_key|read_event)',
};
/** Import statements that name a capturing module (read only when one is named at all). */
const CAPTURE_IMPORT = /^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+)?import[ \t]+([^\n#;()]{1,400})/gm;
const NAMES_CAPTURE_MODULE = new RegExp(String.raw`\b(?:${Object.keys(CAPTURE_MODULES).join('|')})\b[^\n]{0,400}\bas\b|\bfrom[ \t]+(?:${Object.keys(CAPTURE_MODULES).join('|')})[ \t]+import\b`);
/** Names followed at most per module. */
const MAX_ALIASES = 16;

/**
 * `base`, plus the calls `table` names (module → method) under the names the module's imports
 * give them (`from PIL import ImageGrab as g` … `g.grab(`, `import pyperclip as p` … `p.paste(`,
 * `from pyperclip import paste as v` … `v(`). The table's modules are CAPTURE_MODULES' or some of them.
 */
function captureCalls(text: string, base = CAPTURE, table: Record<string, string> = CAPTURE_MODULES): RegExp {
  if (!NAMES_CAPTURE_MODULE.test(text)) return base;
  const calls: string[] = [];
  for (const m of text.matchAll(CAPTURE_IMPORT)) {
    const from = m[1]?.split('.').pop();
    for (const part of (m[2] as string).split(',')) {
      if (calls.length >= MAX_ALIASES) break;
      const one = /^\s*([\w.]+)(?:\s+as\s+([A-Za-z_]\w*))?\s*$/.exec(part);
      if (one === null) continue;
      const name = (one[1] as string).split('.').pop() as string;
      const bound = one[2] ?? (from === undefined ? null : name);
      if (bound === null) continue;
      const method = Object.hasOwn(table, name) ? table[name] : undefined;
      // `import mss as m` / `from PIL import ImageGrab as g`: the module under a name.
      if (method !== undefined && bound !== name) calls.push(String.raw`(?<![\w.])${bound}\.${method}\s*\(`);
      // `from pyperclip import paste as v`: the capturing function itself.
      const own = from !== undefined && Object.hasOwn(table, from) ? table[from] : undefined;
      if (own !== undefined && new RegExp(`^${own}$`).test(name)) calls.push(String.raw`(?<![\w.])${bound}\s*\(`);
    }
  }
  return calls.length === 0 ? base : new RegExp(`${base.source}|${calls.join('|')}`);
}

/** Screen captures that take the file they save to as an argument. */
const CAPTURE_TO_FILE = /\bpyautogui\.screenshot\s*\(|\.shot\s*\(|\bpyscreenshot\.grab_to_file\s*\(/g;
/** The function a key hook is given, by name. */
const KEY_CALLBACK = /\bon_(?:press|release)\s*=\s*([A-Za-z_]\w*)|\bkeyboard\.(?:on_press|on_release|hook)\s*\(\s*([A-Za-z_]\w*)/g;
/** Where a key logger writes what it logged. */
const KEY_LOG = /\bbasicConfig\s*\(|(?<![\w.])open\s*\(/g;
/** Files and names followed at most per module, and capture calls read for them (a real module holds a few). */
const MAX_FILES = 32;
const MAX_CAPTURES = 64;

export interface Capture {
  /**
   * Whether a send whose arguments (`flow`: followed back through assignments) carry what the
   * module captured: a capture call itself, a file a capture was saved to, or the capture's
   * result by name; or any send to a request-catcher or chat-webhook host, or (`publicIp`, the
   * caller's reading) to a literal public IP address, from a module that captures; or any send
   * (at `line`) inside a function the module hands a key hook (`Listener(on_press=f)`).
   */
  sends(flow: string, publicIp: boolean, line: number): boolean;
}

/** Words every capture above holds: looked for first, most texts hold none. */
const CAPTURE_WORDS = /ImageGrab|pyautogui|pyscreenshot|\bmss\b|d3dshot|grabWindow|screencapture|gnome-screenshot|scrot|pyperclip|clipboard|Clipboard|pbpaste|xclip|xsel|keyboard|GetAsyncKeyState|WH_KEYBOARD/;

/** The module's captures, or null when it captures nothing. */
export function capturesOf(flow: FlowText): Capture | null {
  const { text, lineText } = flow;
  if (!CAPTURE_WORDS.test(text)) return null;
  const capture = captureCalls(text);
  if (!capture.test(text)) return null;
  const carried: string[] = [];
  const add = (expression: string | undefined): void => {
    const e = expression?.trim().replace(/^\w+\s*=\s*/, '');
    if (e !== undefined && /^(?:[A-Za-z_]\w*|[rbuf]?(['"])[^'"\n]{1,200}\1)$/.test(e) && carried.length < MAX_FILES && !carried.includes(e)) carried.push(e);
  };
  const named = new Set<string>();
  let seen = 0;
  for (const m of text.matchAll(new RegExp(capture.source, 'g'))) {
    seen += 1;
    if (carried.length >= MAX_FILES || seen > MAX_CAPTURES) break;
    const line = lineText(m.index);
    const name = assignedName(text.slice(Math.max(0, m.index - line.length), m.index).split('\n').pop() ?? '');
    if (name !== null && !named.has(name)) {
      named.add(name);
      add(name);
      // `shot = ImageGrab.grab()` … `shot.save(path)`: the file is sent in its place.
      for (const save of text.matchAll(new RegExp(String.raw`(?<![\w.])${name}\.save\s*\(`, 'g'))) {
        add(splitArguments(callArguments(text, save.index + save[0].length))[0]);
        if (carried.length >= MAX_FILES) break;
      }
    }
    // `ImageGrab.grab().save(path)`
    const open = text.indexOf('(', m.index + m[0].length - 1);
    if (open !== -1 && text[m.index + m[0].length - 1] === '(') {
      const args = callArguments(text, open + 1);
      const after = text.slice(open + 1 + args.length + 1, open + args.length + 200);
      const chained = /^\s*\.save\s*\(/.exec(after);
      if (chained !== null) add(splitArguments(callArguments(text, open + 1 + args.length + 1 + chained[0].length))[0]);
    }
  }
  seen = 0;
  for (const m of text.matchAll(CAPTURE_TO_FILE)) {
    seen += 1;
    if (carried.length >= MAX_FILES || seen > MAX_CAPTURES) break;
    const args = splitArguments(callArguments(text, m.index + m[0].length));
    add(args.find((a) => /^\s*(?:output|imageFilename|filename)\s*=/.test(a)) ?? args[0]);
  }
  // A key logger's log: the files a module that hooks the keys writes (`open(log, "a")`,
  // `logging.basicConfig(filename=log)`), sent in its place.
  seen = 0;
  for (const m of KEYS.test(text) ? text.matchAll(KEY_LOG) : []) {
    seen += 1;
    if (carried.length >= MAX_FILES || seen > MAX_CAPTURES) break;
    const args = splitArguments(callArguments(text, m.index + m[0].length));
    if (m[0].startsWith('basicConfig')) add(args.find((a) => /^\s*filename\s*=/.test(a)));
    else if (args[1] !== undefined && WRITE_MODE.test(args[1])) add(args[0]);
  }
  // The functions a key hook is given: what they send is what was typed.
  const callbacks = new Set<string>();
  for (const m of KEYS.test(text) ? text.matchAll(KEY_CALLBACK) : []) {
    if (callbacks.size >= MAX_FILES) break;
    callbacks.add((m[1] ?? m[2]) as string);
  }
  let functions: PythonFunction[] | null = null;
  const inCallback = (line: number): boolean => {
    if (callbacks.size === 0) return false;
    functions ??= functionsOf(flow);
    const around = enclosingFunction(functions, line);
    return around !== undefined && callbacks.has(around.name);
  };
  const words = carried.filter((c) => /^\w+$/.test(c));
  const literals = carried.filter((c) => !/^\w+$/.test(c)).map((c) => c.replace(/^[rbuf]/, '').slice(1, -1));
  const word = words.length === 0 ? null : new RegExp(String.raw`(?<![\w.])(?:${words.join('|')})(?!\w)`);
  return {
    sends: (f: string, publicIp: boolean, line: number): boolean =>
      publicIp || capture.test(f) || CATCHER_HOST.test(f) || (word !== null && word.test(codeOf(f))) || literals.some((l) => f.includes(l)) || inCallback(line),
  };
}

/** A regular expression for a wallet address: base58 (`[13][a-km-zA-HJ-NP-Z1-9]`), bech32 (`bc1[…]`) or hex (`0x[a-fA-F0-9]{40}`). */
const WALLET = /a-km-zA-HJ-NP|0x\[a-fA-F0-9\]\{40\}|\bbc1\[|\[13\]\[/i;
/** Writing the clipboard. */
const CLIPBOARD_WRITE = /\b(?:pyperclip|clipboard)\.copy\s*\(|\bto_clipboard\s*\(|\bSetClipboardData\s*\(|\bclipboard_append\s*\(|['"](?:pbcopy|xclip|xsel)\b/;

/** Offset of a clipboard read in a module that also writes the clipboard and matches wallet addresses (a clipper), or -1. */
export function clipboardSwap(text: string): number {
  if (!WALLET.test(text) || !captureCalls(text, CLIPBOARD_WRITE, { pyperclip: 'copy', clipboard: 'copy' }).test(text)) return -1;
  return text.search(captureCalls(text, CLIPBOARD_READ, { pyperclip: 'paste', clipboard: 'paste' }));
}

/** Writing another process's memory… */
const REMOTE_WRITE = /\b(?:WriteProcessMemory|NtWriteVirtualMemory|ZwWriteVirtualMemory)\s*\(/;
/** …beside allocating in it or starting a thread in it. */
const REMOTE_ALLOC_OR_THREAD =
  /\b(?:VirtualAllocEx(?:Numa)?|NtAllocateVirtualMemory|ZwAllocateVirtualMemory|CreateRemoteThread(?:Ex)?|NtCreateThreadEx|ZwCreateThreadEx|RtlCreateUserThread|QueueUserAPC|NtQueueApcThread(?:Ex)?|SetThreadContext)\s*\(/;

/** Offset of a write into another process's memory beside an allocation or a thread there (process injection), or -1. */
export function processInjection(text: string): number {
  if (!/WriteVirtualMemory|WriteProcessMemory/.test(text)) return -1;
  const code = codeOf(text);
  const at = code.search(REMOTE_WRITE);
  return at !== -1 && REMOTE_ALLOC_OR_THREAD.test(code) ? text.search(REMOTE_WRITE) : -1;
}

/** A signed Windows program that runs a DLL's code (the package's own DLL sideloaded through it), in a process call's arguments. */
export const RUNS_DLL = /\b(?:rundll32|regsvr32)(?:\.exe)?\b/i;

/** A command line (a batch script in a string) that downloads a file and has rundll32 or regsvr32 run it. */
const DOWNLOAD_THEN_DLL = /(?:\b|\\n)(?:curl|wget|certutil|bitsadmin|Invoke-WebRequest)\b[^\n]{0,600}?(?:\b|\\n)(?:rundll32|regsvr32)\b/i;

/** Offset of DOWNLOAD_THEN_DLL, or -1 (the rare program names looked for first: most texts hold neither). */
export function downloadThenDll(text: string): number {
  return /rundll32|regsvr32/i.test(text) ? text.search(DOWNLOAD_THEN_DLL) : -1;
}

/** Where code is run from again later: shell startup files, cron, login items, autostart entries, user units, Windows Run keys and Startup folder. */
const LOCATION =
  /(?:^|['"/\\~])\.(?:bashrc|bash_profile|bash_login|zshrc|zprofile|zshenv|profile)\b|\/etc\/cron|\/var\/spool\/cron|LaunchAgents|LaunchDaemons|\.config[\\/]+(?:autostart|systemd[\\/]+user)\b|CurrentVersion\\{1,2}Run(?:Once)?\b|Start Menu\\{1,2}Programs\\{1,2}Startup|\\{1,2}Startup['"\\]|shell:startup/im;
/** Commands that register code to run later. */
export const PERSISTENT_COMMAND =
  /\breg(?:\.exe)?['",\s]+add\b[^\n]{0,300}?CurrentVersion\\{1,2}Run|\bschtasks(?:\.exe)?['",\s]+[^\n]{0,300}?\/create\b|\|\s*crontab\b|\bsystemctl['",\s]+--user['",\s]+enable\b/i;
/** Calls that write a file, copy one, or set a registry value. */
const WRITE_CALL = /(?<![\w.])open\s*\(|\.open\s*\(|\b(?:copy|copy2|copyfile|move|symlink)\s*\(|\.write_(?:text|bytes)\s*\(|\bSetValue(?:Ex)?\s*\(/g;
/** Writing or appending modes. */
const WRITE_MODE = /^\s*(?:mode\s*=\s*)?[rbuf]?['"][rbt]*[wax]/;

/**
 * Offset of a write to a place code runs from again later (persistence), or -1. `calls` gives
 * the matches of a pattern as the caller counts them against its limit of calls followed.
 */
export function persistenceAt(flow: FlowText, calls: (pattern: RegExp) => Iterable<RegExpExecArray>): number {
  const { text, lineStarts, lineAt, named } = flow;
  if (!LOCATION.test(text)) return -1;
  for (const m of calls(WRITE_CALL)) {
    const line = lineAt(m.index);
    const args = callArguments(text, m.index + m[0].length);
    const parts = splitArguments(args);
    const method = m[0].startsWith('.');
    const receiver = method ? receiverOf(text.slice(Math.max(lineStarts[line] as number, m.index - 200), m.index)) : '';
    if (/open\s*\($/.test(m[0])) {
      // `open(path, 'a')`, `Path(p).open('w')`: the mode is the second argument, or the first of a path's own `open`.
      const mode = receiver !== '' && receiver !== 'io' && receiver !== 'codecs' && receiver !== 'os' ? parts[0] : (parts.find((p) => /^\s*mode\s*=/.test(p)) ?? parts[1]);
      if (mode === undefined || !WRITE_MODE.test(mode)) continue;
      const target = receiver !== '' && receiver !== 'io' && receiver !== 'codecs' && receiver !== 'os' ? receiver : (parts[0] ?? '');
      if (LOCATION.test(traced(target, line, named))) return m.index;
      continue;
    }
    const target = /^(?:\.|\b)(?:copy|copy2|copyfile|move|symlink)/.test(m[0]) ? (parts[1] ?? '') : m[0].startsWith('.write') ? receiver : args;
    if (LOCATION.test(traced(target, line, named))) return m.index;
  }
  return -1;
}
