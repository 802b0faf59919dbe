/**
 * What npm runs when the package is installed from a registry: the preinstall / install /
 * postinstall lifecycle scripts, and the implicit `node-gyp rebuild` when the package has a
 * `binding.gyp` (or `gypfile: true`) and no install script of its own, unless its manifest
 * opts out with `gypfile: false` (a package shipping prebuilt binaries). Also flags script
 * text that fetches from the network or evaluates code. Pure text inspection, never executed.
 */
import type { RegistryFacts, TarballFacts } from '../../evidence/schema.js';
import { truncate } from './text.js';

/** The lifecycle hooks npm runs for a registry install (`prepare` only runs for git deps). */
export const INSTALL_HOOKS = ['preinstall', 'install', 'postinstall'] as const;

/** Longest command text kept in evidence. */
export const MAX_COMMAND_CHARS = 200;

export interface InstallScript {
  name: string;
  command: string;
  /**
   * The bundled dependency it belongs to (`name@version`, or its folder when its package.json
   * does not name it), when it is not the package's own: npm runs the install scripts of the
   * packages a tarball bundles under `node_modules/` as it installs (docs/security.md, "Bundled
   * dependencies").
   */
  bundled?: string;
}

/** What stands for a bundled package's scripts when its package.json was not read (over a cap, not JSON). */
export const UNREAD_BUNDLED_SCRIPT = '(not shown: a bundled package.json nerq did not read)';

export interface InstallHooks {
  scripts: InstallScript[];
  /** `gypfile: true`, or a `binding.gyp` in the tarball without `gypfile: false`: npm runs `node-gyp rebuild`. */
  nativeBuild: boolean;
}

/** What stands for a script the registry says exists (`hasInstallScript`) but neither manifest shows. */
export const HIDDEN_SCRIPT = '(not shown: the registry says this version has an install script)';

/**
 * The union of what the packument and the tarball's own package.json say (npm runs the
 * tarball's scripts, and decides from `hasInstallScript`): a script either lists, and an
 * unnamed one when the registry says there is one that neither shows.
 */
export function installHooks(registry: RegistryFacts, tarball?: TarballFacts): InstallHooks {
  const scripts: InstallScript[] = [];
  const add = (name: string, command: string | undefined): void => {
    if (typeof command === 'string' && command.trim() !== '' && !scripts.some((s) => s.name === name && s.command === command)) scripts.push({ name, command });
  };
  // The tarball's package.json, and any file another file system reads as it (tarball.ts).
  const own = [tarball?.manifest?.installScripts ?? {}, ...(tarball?.manifestAliases ?? []).map((a) => a.manifest?.installScripts ?? {})];
  for (const name of INSTALL_HOOKS) {
    add(name, Object.hasOwn(registry.installScripts, name) ? registry.installScripts[name] : undefined);
    for (const scriptsOf of own) add(name, Object.hasOwn(scriptsOf, name) ? scriptsOf[name] : undefined);
  }
  // npm skips the implicit build for `gypfile: false` (@npmcli/package-json's normalize): taken
  // when the registry's manifest says so and the tarball's, when read, does not say otherwise.
  const optedOut = registry.gypfileDisabled === true && (tarball?.manifest == null || tarball.manifest.gypfileDisabled === true);
  const nativeBuild = registry.gypfile || (tarball?.bindingGyp === true && !optedOut);
  if (scripts.length === 0 && !nativeBuild && registry.hasInstallScript === true) scripts.push({ name: 'install', command: HIDDEN_SCRIPT });
  scripts.push(...bundledScripts(tarball));
  return { scripts, nativeBuild };
}

/**
 * The install-time code of the packages the tarball bundles, each with its name: their
 * preinstall / install / postinstall scripts, the implicit `node-gyp rebuild` of a bundled
 * `binding.gyp` (without an install script and without `gypfile: false`), and a placeholder for
 * a bundled package.json that was not read. Every bundled package counts, declared in
 * `bundleDependencies` or not: nerq cannot tell which ones npm will place.
 */
function bundledScripts(tarball: TarballFacts | undefined): InstallScript[] {
  const out: InstallScript[] = [];
  for (const folder of tarball?.bundled ?? []) {
    const manifest = folder.manifest;
    const bundled = manifest?.name != null ? `${manifest.name}${manifest.version === null ? '' : `@${manifest.version}`}` : folder.path;
    if (manifest === null) {
      // An unreadable package.json is unknown code; a folder without one (counted in bundledUnread when past the cap) is no package.
      if (folder.problem !== null) out.push({ name: 'install', command: UNREAD_BUNDLED_SCRIPT, bundled });
      continue;
    }
    for (const script of bundledInstallCommands(manifest, folder.bindingGyp)) out.push({ ...script, bundled });
  }
  if ((tarball?.bundledUnread ?? 0) > 0) out.push({ name: 'install', command: UNREAD_BUNDLED_SCRIPT, bundled: `${tarball?.bundledUnread} more bundled packages` });
  return out;
}

/**
 * What npm runs for one bundled package, in its folder: its preinstall / install / postinstall
 * scripts, and `node-gyp rebuild` for its `binding.gyp` when it has no install or preinstall
 * script and does not say `gypfile: false`.
 */
export function bundledInstallCommands(
  manifest: { installScripts: Record<string, string>; gypfileDisabled?: boolean },
  bindingGyp: boolean,
): { name: string; command: string }[] {
  const out: { name: string; command: string }[] = [];
  for (const name of INSTALL_HOOKS) {
    const command = Object.hasOwn(manifest.installScripts, name) ? manifest.installScripts[name] : undefined;
    if (typeof command === 'string' && command.trim() !== '') out.push({ name, command });
  }
  const ownInstall = ['install', 'preinstall'].some((n) => Object.hasOwn(manifest.installScripts, n));
  if (bindingGyp && !ownInstall && manifest.gypfileDisabled !== true) out.push({ name: 'install', command: 'node-gyp rebuild' });
  return out;
}

/** `postinstall`, or `postinstall (bundled evil-helper@1.0.0)` for a bundled dependency's script. */
export function scriptLabel(script: InstallScript): string {
  return script.bundled === undefined ? script.name : `${script.name} (bundled ${script.bundled})`;
}

/** True when npm would run anything at install time. */
export function hasInstallHooks(hooks: InstallHooks): boolean {
  return hooks.scripts.length > 0 || hooks.nativeBuild;
}

/** `node-gyp rebuild` (configure, build, clean), with the build flags that only choose how it builds: `--release`, `-j 4`, `-v`. */
const NODE_GYP = String.raw`node-gyp(?:\s+(?:rebuild|configure|build|clean))+(?:\s+(?:--release|--debug|-v|--verbose|-j\s+(?:\d+|max)|--jobs[=\s](?:\d+|max)))*`;
/** `node-gyp-build`, alone, with one word, or with the node-gyp command it falls back to, quoted (isolated-vm's). */
const NODE_GYP_BUILD = String.raw`node-gyp-build(?:\s+(?:'${NODE_GYP}'|"${NODE_GYP}"|[^\s'"]+))?`;
/** One or more of them joined by `||`, each tried when the one before fails. */
const PLAIN_NATIVE_BUILD = new RegExp(String.raw`^\s*(?:${NODE_GYP}|${NODE_GYP_BUILD})(?:\s*\|\|\s*(?:${NODE_GYP}|${NODE_GYP_BUILD}))*\s*$`);

/**
 * A plain native build: `node-gyp rebuild` / `node-gyp-build` (builds locally, downloads nothing),
 * alone or joined by `||` (`node-gyp-build 'node-gyp rebuild -j 4 --release' || node-gyp rebuild --release`).
 */
export function isPlainNativeBuild(command: string): boolean {
  return PLAIN_NATIVE_BUILD.test(command);
}

/** Where a command runs inline code: `node -e`, `--eval`, `-p`, `--print`. */
const NODE_EVAL = /\bnode(?:\.exe)?\b[^|;&]*?\s(?:-e|--eval|-p|--print)\b/i;

/** Patterns of script text that fetch from the network, decode or evaluate code. */
const SUSPICIOUS: readonly (readonly [label: string, pattern: RegExp])[] = [
  ['curl', /\bcurl\b/i],
  ['wget', /\bwget\b/i],
  ['url', /\bhttps?:\/\//i],
  ['http', /\brequire\s*\(\s*['"`](?:node:)?https?['"`]|['"`]node:https?['"`]|\bhttps?\.(?:get|request)\b/i],
  ['node-eval', NODE_EVAL],
  ['eval', /(?<!-)\beval\b/i],
  ['base64', /\bbase64\b|\batob\s*\(|Buffer\.from\s*\([^)]*['"]base64['"]/i],
  ['powershell', /\bpowershell\b|\bpwsh\b|\binvoke-webrequest\b|\biwr\b|\biex\b/i],
  ['pipe-to-shell', /\|\s*(?:ba|z)?sh\b/i],
  ['shell-eval', /\b(?:ba|z)?sh\s+-c\b/i],
  ['interpreter-eval', /\b(?:python3?|perl|ruby)\s+-[ce]\b/i],
  ['raw-socket', /\/dev\/tcp\/|\bnc\s+-|\bncat\b|\bnetcat\b/i],
  ['windows-download', /\bcertutil\b|\bbitsadmin\b|\bmshta\b|\brundll32\b/i],
  ['char-codes', /fromCharCode/i],
];

/** Script text longer than this is itself a red flag (and only this much is scanned). */
export const MAX_SCANNED_CHARS = 4_000;

/** Each place a command runs inline code (the `node-eval` pattern, every match). */
const NODE_EVAL_FLAG = new RegExp(NODE_EVAL.source, 'gi');
/** A path inside the package's own folder: `./` then segments that cannot be `..`. */
const OWN_PATH = String.raw`\.\/(?:[\w@-][\w@.-]*\/)*[\w@-][\w@.-]*`;
/** `require('./file')` of a file of the package itself, in any of the three JavaScript quotes. */
const LOCAL_REQUIRE = String.raw`require\(\s*(?:'${OWN_PATH}'|"${OWN_PATH}"|` + '`' + OWN_PATH + '`' + String.raw`)\s*\)`;
/** One statement: a local require, alone or inside `try { … } catch (e) {}`; unambiguous at each step (linear). */
const LOCAL_REQUIRE_STATEMENT = String.raw`(?:try\s*\{\s*${LOCAL_REQUIRE}\s*(?:;\s*)?\}\s*catch\s*(?:\(\s*\w*\s*\)\s*)?\{\s*\}|${LOCAL_REQUIRE})\s*(?:;\s*)?`;
const LOCAL_REQUIRES_ONLY = new RegExp(String.raw`^\s*(?:${LOCAL_REQUIRE_STATEMENT})+$`);

/**
 * True when every piece of inline code the command gives node only requires files of the
 * package itself (`node -e "try{require('./postinstall')}catch(e){}"`, core-js's): that runs
 * those files, as `node ./postinstall` would — an ordinary install script, not evaluated code.
 * A module by name, a variable, a call on the result or any other code keeps it `node-eval`.
 */
function evaluatesOnlyLocalFiles(command: string): boolean {
  let found = false;
  for (const match of command.matchAll(NODE_EVAL_FLAG)) {
    found = true;
    const rest = command.slice(match.index + match[0].length).replace(/^\s+/, '');
    const quote = rest[0];
    if (quote !== '"' && quote !== "'") return false;
    const end = rest.indexOf(quote, 1);
    if (end < 0 || !LOCAL_REQUIRES_ONLY.test(rest.slice(1, end))) return false;
  }
  return found;
}

/** Labels of the suspicious patterns found in a command (empty when none). */
export function suspiciousPatterns(command: string): string[] {
  const scanned = command.slice(0, MAX_SCANNED_CHARS);
  const localOnly = evaluatesOnlyLocalFiles(scanned);
  const found = SUSPICIOUS.filter(([label, pattern]) => !(label === 'node-eval' && localOnly) && pattern.test(scanned)).map(([label]) => label);
  if (command.length > MAX_SCANNED_CHARS) found.push('oversized');
  return found;
}

/** Keep evidence short: at most MAX_COMMAND_CHARS characters, with an ellipsis when cut. */
export function truncateCommand(command: string): string {
  return truncate(command, MAX_COMMAND_CHARS);
}
