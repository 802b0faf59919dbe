/**
 * Reading Python code a package runs without being asked: the lines of a `.pth` file that
 * Python's `site` module executes at every interpreter start (a line that starts with `import `
 * or `import<TAB>`; other lines are paths, `#` lines comments), and patterns of code that fetch,
 * decode or hide what it runs. Pure text inspection, never executed (docs/checks.md,
 * `startup-hooks`).
 */

import { runsAgentUnattended } from './agent-code.js';

/** How a `.pth` file behaves when Python starts. */
export type PthKind =
  /** Only paths (and comments): adds folders to `sys.path`, runs nothing. */
  | 'paths'
  /** The line setuptools writes for a legacy namespace package (`*-nspkg.pth`). */
  | 'namespace'
  /** setuptools' own `distutils-precedence.pth`, which installs its distutils shim. */
  | 'distutils-precedence'
  /** Other `import` lines: the package's code at every start. */
  | 'code'
  /** Code that fetches, decodes, spawns or hides what it runs. */
  | 'suspicious';

export interface PthReading {
  kind: PthKind;
  /** The executed lines (trimmed, each cut at MAX_EXCERPT_CHARS), at most MAX_EXCERPTS. */
  code: string[];
  /** Labels of the suspicious patterns found (empty unless `suspicious`). */
  flags: string[];
}

const MAX_EXCERPTS = 3;
export const MAX_EXCERPT_CHARS = 160;

/** The quoted name(s) a setuptools nspkg line is made for (`'zope'`, `'sphinxcontrib',`). */
const NAMES = String.raw`(?:'[\w.]+',?\s*)+`;
/**
 * setuptools' `-nspkg.pth` line (setuptools/namespaces.py, `_nspkg_tmpl`), with or without the
 * `has_mfs` part older versions left out, for any package name: every statement fixed but the names.
 */
const NSPKG_LINE = new RegExp(
  '^' +
    String.raw`import sys, types, os;` +
    String.raw`(?:has_mfs = sys\.version_info > \(3, 5\);)?` +
    String.raw`p = os\.path\.join\(sys\._getframe\(1\)\.f_locals\['sitedir'\], \*\(${NAMES}\)\);` +
    String.raw`(?:importlib = has_mfs and __import__\('importlib\.util'\);has_mfs and __import__\('importlib\.machinery'\);` +
    String.raw`m = has_mfs and sys\.modules\.setdefault\(${NAMES}, importlib\.util\.module_from_spec\(importlib\.machinery\.PathFinder\.find_spec\(${NAMES}, \[os\.path\.dirname\(p\)\]\)\)\);)?` +
    String.raw`(?:ie = os\.path\.exists\(os\.path\.join\(p,'__init__\.py'\)\);)?` +
    String.raw`m = (?:m or )?(?:not ie and )?sys\.modules\.setdefault\(${NAMES}, types\.ModuleType\(${NAMES}\)\);` +
    String.raw`mp = \(m or \[\]\) and m\.__dict__\.setdefault\('__path__',\[\]\);` +
    String.raw`\(p not in mp\) and mp\.append\(p\)` +
    String.raw`(?:;\s*m and setattr\(sys\.modules\[${NAMES}\], ${NAMES}, m\))?` +
    '$',
);

/** setuptools' `distutils-precedence.pth` (setuptools/_distutils_hack, written by its build), as shipped. */
const DISTUTILS_PRECEDENCE_LINE =
  /^import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os\.environ\.get\(var, '(?:local|stdlib)'\) == 'local'; enabled and __import__\('_distutils_hack'\)\.add_shim\(\);?$/;

/** Patterns of Python code that fetch, decode, spawn or hide what it runs. */
const SUSPICIOUS: readonly (readonly [label: string, pattern: RegExp])[] = [
  ['network', /\burllib\d?\b|\burlopen\b|\burlretrieve\b|\brequests\.(?:get|post|put|request|Session)\b|\bhttp\.client\b|\bhttpx\b|\bsocket\.(?:socket|create_connection)\b|\bftplib\b|\bsmtplib\b/],
  ['url', /\b(?:https?|ftp):\/\//i],
  ['process', /\bsubprocess\b|\bos\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|fork)\b|\bpty\.spawn\b|\bcommands\.getoutput\b/],
  ['decode', /\bb(?:64|32|16|85)decode\b|\ba85decode\b|\bbase64\b|\bzlib\.decompress\b|\bbz2\.decompress\b|\blzma\.decompress\b|\bmarshal\.loads\b|\bunhexlify\b|\bbytes\.fromhex\b|\bcodecs\.decode\b|['"]rot[_-]?13['"]/],
  ['encoded-blob', /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{200,}={0,2}|(?:\\x[0-9a-fA-F]{2}){40,}/],
  ['credentials', /\.ssh\b|\bid_rsa\b|\bid_ed25519\b|\.aws\b|\.pypirc\b|\.npmrc\b|\.git-credentials\b|\.docker\/config\.json|\.kube\/config|\b(?:AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN|GITHUB_TOKEN|GH_TOKEN|NPM_TOKEN|PYPI_TOKEN|TWINE_PASSWORD)\b/],
  ['env-dump', /\b(?:dict|str|repr|json\.dumps)\s*\(\s*os\.environ\s*\)|\bos\.environ\.(?:items|copy)\s*\(\s*\)/],
  ['reverse-shell', /\bos\.dup2\b|\/dev\/tcp\/|\/bin\/(?:ba|z)?sh\b/],
  ['dynamic-import', /\b__import__\s*\(\s*['"](?:base64|zlib|marshal|codecs|urllib|subprocess|socket|os)['"]\s*\)\s*\.\s*(?:b64decode|decompress|loads|decode|urlopen|system|popen|Popen|socket)\b/],
];

/** One of the suspicious patterns by its label (lib/import-code.ts reuses them). */
export function suspiciousPattern(label: string): RegExp {
  const found = SUSPICIOUS.find(([l]) => l === label);
  if (found === undefined) throw new Error(`no suspicious pattern ${label}`);
  return found[1];
}

/** Labels of the suspicious patterns in a `.pth` file's executed lines. */
export function pthFlags(code: string): string[] {
  return SUSPICIOUS.filter(([, pattern]) => pattern.test(code)).map(([label]) => label);
}

/** The lines `site` executes: those starting with `import ` or `import\t` (site.py, `addpackage`). */
export function executedLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+$/, ''))
    .filter((line) => line.startsWith('import ') || line.startsWith('import\t'));
}

/** Classify one `.pth` file's text. */
export function readPth(text: string): PthReading {
  const lines = executedLines(text);
  const excerpts = lines.slice(0, MAX_EXCERPTS).map((line) => excerpt(line));
  if (lines.length === 0) return { kind: 'paths', code: [], flags: [] };
  if (lines.every((line) => NSPKG_LINE.test(line))) return { kind: 'namespace', code: excerpts, flags: [] };
  if (lines.every((line) => DISTUTILS_PRECEDENCE_LINE.test(line))) return { kind: 'distutils-precedence', code: excerpts, flags: [] };
  const flags = pthFlags(lines.join('\n'));
  return { kind: flags.length > 0 ? 'suspicious' : 'code', code: excerpts, flags };
}

/** A short, single-line excerpt: control characters replaced, cut at MAX_EXCERPT_CHARS. */
export function excerpt(line: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = line.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ').trim();
  return clean.length > MAX_EXCERPT_CHARS ? `${clean.slice(0, MAX_EXCERPT_CHARS - 1)}…` : clean;
}

/** setuptools commands whose override runs the package's own code when pip installs or builds it. */
const INSTALL_COMMANDS = ['install', 'develop', 'egg_info', 'build_py', 'install_lib', 'install_scripts', 'bdist_wheel', 'bdist_egg'] as const;
/** `cmdclass={…}` / `cmdclass=dict(…)` / `cmdclass['install'] = …`: the text where commands are named. */
const CMDCLASS = /\bcmdclass\b[^\n]{0,20}?(?:\{[^}]{0,2000}\}|dict\s*\([^)]{0,2000}\)|\[\s*['"]\w+['"]\s*\])/g;

/** `from os import …` / `from subprocess import …` / `from builtins import …` / `from sys import …`: where the names start. */
const FROM_IMPORT = /^[ \t]*from[ \t]+(os|subprocess|builtins|sys)[ \t]+import\b/gm;
/** Characters of one import's name list read at most (a parenthesised or continued list). */
const MAX_IMPORT_LIST = 20_000;
/** Per module, the names that start a process or run code (`aliased-process` when imported `as` another name). */
export const PROCESS_NAMES: Record<string, RegExp> = {
  os: /^(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|startfile)$/,
  subprocess: /^(?:call|run|Popen|check_output|check_call|getoutput|getstatusoutput)$/,
  builtins: /^(?:exec|eval|compile)$/,
  sys: /^executable$/,
};

/**
 * The names after `import` at `from`: to the end of the line, across backslash continuations, or
 * inside parentheses over several lines; at most MAX_IMPORT_LIST characters, comments dropped.
 */
function importedNames(text: string, from: number): { names: string; end: number } {
  const window = text.slice(from, from + MAX_IMPORT_LIST);
  const open = /^[ \t]*\(/.exec(window);
  let names: string;
  let end = 0;
  if (open !== null) {
    const close = window.indexOf(')', open[0].length);
    end = close === -1 ? window.length : close;
    names = window.slice(open[0].length, end);
  } else {
    // Lines joined while they end in a backslash.
    for (;;) {
      const newline = window.indexOf('\n', end);
      if (newline === -1) {
        end = window.length;
        break;
      }
      end = newline + 1;
      if (!/\\[ \t]*\r?$/.test(window.slice(Math.max(0, newline - 8), newline))) break;
    }
    names = window.slice(0, end).replace(/\\[ \t]*\r?\n/g, ' ');
  }
  return { names: names.replace(/#[^\n]*/g, ''), end: from + end };
}

/** A name imported from os, subprocess, builtins or sys, and the name it is bound to. */
export interface ImportedName {
  module: string;
  name: string;
  as: string;
}

/** The names `from os|subprocess|builtins|sys import …` statements bind, with their aliases. */
export function importedNamesOf(text: string): ImportedName[] {
  const found: ImportedName[] = [];
  // An import inside the list read before (an unclosed parenthesis) is not read again: each
  // character is read once.
  let read = 0;
  for (const m of text.matchAll(FROM_IMPORT)) {
    if (m.index < read) continue;
    const { names, end } = importedNames(text, m.index + m[0].length);
    read = end;
    for (const part of names.split(/[,;]/)) {
      const one = /^\s*([A-Za-z_]\w*)(?:\s+as\s+([A-Za-z_]\w*))?\s*$/.exec(part);
      if (one !== null) found.push({ module: m[1] as string, name: one[1] as string, as: one[2] ?? (one[1] as string) });
    }
  }
  return found;
}

/** Whether the text imports a process or exec function under another name. */
function aliasesProcess(text: string): boolean {
  return importedNamesOf(text).some((i) => i.as !== i.name && (PROCESS_NAMES[i.module] as RegExp).test(i.name));
}

/** What a build script (setup.py) would do at install, as far as its text shows. */
export interface BuildScriptReading {
  /** setuptools commands the script overrides (INSTALL_COMMANDS only; build_ext is an ordinary build). */
  commands: string[];
  /** Labels of the suspicious shapes found (empty when none). */
  flags: string[];
}

/**
 * Scan a setup.py. Building is code by design — compilers run through `subprocess`, paths come
 * from `os.environ` — so a pattern alone is not suspicious here; the shapes that are:
 * `exec-decoded` (exec/eval/compile with decoded or decompressed data), `download-and-run`
 * (a network call with a process, exec/eval or chmod — a co-occurrence that also holds ordinary
 * build downloads, which is why wheels-published takes that label from import-code.ts's data
 * flow instead), `exfiltration` (a network call with credential paths, token variables or the
 * whole environment), `reverse-shell`, an `encoded-blob`, a `dynamic-import` of decoding,
 * network or process modules, and an `aliased-process`: a function that starts a process or
 * runs code imported under another name (`from os import system as _s`, also in a
 * parenthesised or backslash-continued list), which hides the call from a reader and no real
 * build script does (none of 236 real setup.py files measured).
 */
export function readBuildScript(text: string): BuildScriptReading {
  const commands = new Set<string>();
  for (const match of text.matchAll(CMDCLASS)) {
    for (const command of INSTALL_COMMANDS) if (new RegExp(String.raw`(?:['"]${command}['"]\s*[:\]]|\b${command}\s*=)`).test(match[0])) commands.add(command);
  }
  const has = (label: string): boolean => SUSPICIOUS.some(([l, pattern]) => l === label && pattern.test(text));
  const executes = /(?<![\w.])(?:exec|eval|compile)\s*\(/.test(text);
  const network = has('network');
  const flags: string[] = [];
  if (executes && has('decode')) flags.push('exec-decoded');
  if (network && (has('process') || executes || /\bos\.chmod\b/.test(text))) flags.push('download-and-run');
  if (network && (has('credentials') || has('env-dump'))) flags.push('exfiltration');
  // A descriptor duplicated or a pty spawned is a reverse shell only beside a socket opened (a build
  // silencing a compiler's stderr with `os.dup2` is not: two of 81 real setup.py files).
  if (/\/dev\/tcp\//.test(text) || (/\bos\.dup2\b|\bpty\.spawn\b/.test(text) && /\bsocket\.(?:socket|create_connection)\s*\(/.test(text))) flags.push('reverse-shell');
  if (has('encoded-blob')) flags.push('encoded-blob');
  if (has('dynamic-import')) flags.push('dynamic-import');
  if (has('process') && runsAgentUnattended(text)) flags.push('agent-unleashed');
  if (aliasesProcess(text)) flags.push('aliased-process');
  return { commands: INSTALL_COMMANDS.filter((c) => commands.has(c)), flags };
}
