/**
 * load-time-code: what an npm package runs the moment it is loaded. Node runs a package's entry
 * module (its `main`, else index.js, or what its `exports` gives) and the modules that one loads
 * at the first `require` or `import`, with no install script at all, so a payload there runs on
 * every machine that uses the package (docs/checks.md, `load-time-code`).
 *
 * Only what the load itself does is judged (lib/load-code.ts), and only what no library has a
 * reason to do then; network use, processes and file reads are what libraries are for. Clean load
 * code is not a reason to add points (docs/scoring.md §6a): as import-time-code does, the check
 * leaves itself out when there is nothing to find, and only a finding scores.
 */
import type { EvidenceValue } from './define.js';
import type { TarballFacts } from '../evidence/schema.js';
import { defineCheck, type CheckOutcome } from './define.js';
import { HOSTILE_LOAD_FLAGS, readLoadJavaScript, type LoadFlag } from './lib/load-code.js';
import { unreadByCap } from './lib/unread-caps.js';

/** Code run at load that downloads and runs, runs decoded text, writes where code starts again at login or into the user's own folders. */
export const SUSPICIOUS_SCORE = 10;
/** Host data sent off the machine, a request catcher or a shell wired to a socket, at load: no library does that. */
export const HOSTILE_SCORE = 0;

export default defineCheck({
  id: 'load-time-code',
  dimension: 'security',
  weight: 2,
  needs: ['registry'],
  optional: ['tarball'],
  title: 'Load-time code',
  description:
    "Reads, from the npm tarball, the modules a `require` or `import` of the package runs first: the file its package.json's `main` names (else index.js) and the entries its `exports` gives for the package itself (its require, import, node and default conditions), with the local modules they load, within caps like install-scripts' (64 files, 1 MiB of each loaded module; a module that streamed past before the package.json named it is read by a second reading of the tarball, as install-scripts' files are), the modules their running code loads first; a module loaded only inside a function the load does not run (a lazy `require` or `import()`) is not load-time code: read after all of those when the caps leave room for the whole of it, never counted as unread; an `exports` that names only subpaths gives none (node refuses a bare `require`, and a subpath runs when a user imports it). " +
    `Only the code the load runs is judged: the module's top level, functions called at once or handed to a call that runs them (a request, a process, a timer, a promise, an event, an array walk: \`list.filter((e) => …)\`, parentheses around the callback or not), functions, object and class methods it calls by name (\`go()\`, \`exports.go()\`, \`client.run()\`, \`Reflect.apply(go)\`, \`[a, b].forEach((f) => f())\`), the constructor of a class it makes (methods set on a prototype count as a class's), and the modules of a webpack, esbuild or parcel bundle its loader asks for (a webpack module asking through its own loader parameter, an entry run by webpack 5's startup helpers); the bodies of exported functions, arrows (an expression body too) and methods nobody calls, and of classes nobody makes, are left out; host data or credentials sent over the network by a call made at load, a request-catcher or chat-webhook host, or a socket wired to a shell scores ${HOSTILE_SCORE}; a download run or a download from a bare IP address or file-drop host, decoded or downloaded text run as code or as a command, a write where code starts again at login, or a write into the user's own folders (Desktop, Documents, Downloads, Pictures, OneDrive: a protestware drop) scores ${SUSPICIOUS_SCORE}; both hold the verdict at CAUTION. ` +
    'None of these leaves the check out of the report (it never adds points), as does a package without an entry module or whose entry is a native addon or JSON (not JavaScript to read); unknown when the tarball was not read, when a module was read only in part, its brackets could not be followed or it was left unread (the limit it reached is named), and for evidence saved before nerq read it.',
  messages: {
    clean: 'The modules a require of the package runs show none of the shapes looked for: {files}',
    suspicious: 'The package runs code when loaded that downloads, decodes or persists what it runs, or writes into the user\'s folders ({flags}): {files}',
    hostile: 'The package runs code when loaded that sends host data away, calls a request catcher or wires a shell to the network ({flags}): {files}',
    'no-entry': 'The package has no entry module to read ({missing})',
    unread: 'The modules a require of the package runs were not read: {reason}',
  },
  evaluate: ({ tarball }): CheckOutcome<'clean' | 'suspicious' | 'hostile' | 'no-entry' | 'unread'> => {
    if (tarball === undefined) return { score: null, messageId: 'unread', data: { reason: 'the tarball was not read' } };
    const code = tarball.loadCode;
    if (code === undefined) {
      const reason = tarball.manifest === null ? (tarball.manifestProblem ?? 'its package.json was not read') : 'the evidence predates nerq reading load-time code (a fresh run with --no-cache reads it)';
      return { score: null, messageId: 'unread', data: { reason } };
    }
    const read = code.files.filter((f) => f.language === 'javascript').map((f) => ({ path: f.path, truncated: f.truncated, flags: readLoadJavaScript(f.text) }));
    const files = read.map((f) => f.path);
    const data: Record<string, EvidenceValue> = { entries: code.entries, files };
    const flagged = read.filter((f) => f.flags !== null && f.flags.length > 0);
    if (flagged.length > 0) {
      const flags = [...new Set(flagged.flatMap((f) => f.flags ?? []))];
      const where = flagged.map((f) => f.path);
      const hostile = flags.some((flag) => HOSTILE_LOAD_FLAGS.includes(flag as LoadFlag));
      return {
        score: hostile ? HOSTILE_SCORE : SUSPICIOUS_SCORE,
        messageId: hostile ? 'hostile' : 'suspicious',
        data: { ...data, flagged: where, flags },
        holdVerdict: `its entry module runs code when loaded (${flags.join(', ')} in ${where.join(', ')}): it runs on every machine that uses the package; read it before installing (a release without it would lift this)`,
      };
    }
    const partial = read.filter((f) => f.flags === null || f.truncated).map((f) => `${f.path}: ${f.truncated ? 'read in part' : 'not followed'}`);
    const unread = [...partial.slice(0, 5), ...unreadByCap(code.unread, code.unreadCauses)];
    if (unread.length > 0) return { score: null, messageId: 'unread', data: { ...data, reason: unread.join('; ') } };
    if (files.length === 0) return { score: null, messageId: 'no-entry', data: { ...data, missing: code.missing }, notApplicable: true };
    return { score: null, messageId: 'clean', data, notApplicable: true };
  },
});
