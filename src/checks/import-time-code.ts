/**
 * import-time-code: what the release's wheel runs when the package is imported. Python executes
 * a package's `__init__.py` (and a single-module distribution's `.py`), and the modules it
 * imports, the moment a user writes `import x`, so a payload there runs on every machine that
 * uses the package; most malicious uploads that ship a wheel put it there.
 *
 * Clean import code is not a reason to add points (docs/scoring.md §6a: a finding that does not
 * change the answer is not a finding): as implausible-version does, the check leaves itself out
 * when there is nothing to find, and only a finding scores.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck, type CheckOutcome } from './define.js';
import { UNAMBIGUOUS_FLAGS, type ImportFlag } from './lib/import-code.js';

/** A shape that fetches, decodes, spawns, injects, persists or hides what it runs. */
export const SUSPICIOUS_SCORE = 10;
/** Host data or captures sent to the network, a clipboard wallet swap, or a socket wired to a shell: no library does that on import. */
export const HOSTILE_SCORE = 0;

const fileName = (path: string): string => path.replace(/^(?:[^/]+\.data\/(?:purelib|platlib)\/)?/, '');

export default defineCheck({
  id: 'import-time-code',
  dimension: 'security',
  weight: 2,
  needs: ['pypi'],
  title: 'Import-time code',
  description:
    'Reads, by HTTP range requests from the wheel startup-hooks reads, the modules an `import` of the package runs first: each top-level package\'s `__init__.py` and each top-level `.py` module (the one named like the distribution first; at most 6, each up to 256 KiB, 1 MiB per wheel), then up to 6 modules an `__init__.py` imports from its own package (`from .app import …`) within the same budget, and classifies their text without running it. ' +
    `Host data (credentials, the whole environment, user and host names, browser stores) in a network call's arguments or in the command line of curl or wget, what the module captures of the screen, clipboard or keys sent (in the arguments, as the file it was saved or logged to, from a key hook's callback, or from a module that captures to a request-catcher or chat-webhook host or a public IP address; a capture alone is what libraries do), a wallet address swapped in the clipboard, or a socket wired to a shell, scores ${HOSTILE_SCORE}; decoded (also by the module's own helper) or downloaded data (or code revealed from an image) handed to exec/eval or a process, a command that downloads a Windows program, pipes a download into a shell or runs what curl or wget printed, a downloaded file made executable or started as a program (followed through assignments, the module's own functions — a path or downloaded data passed to one or returned by it — and the names its imports give network and process calls), a write into another process's memory beside an allocation or a thread there, or a DLL run through rundll32, a write where code runs again at login (shell startup files, cron, a user unit, a Run key, the Startup folder), a request to a literal public IP address or to a request catcher (an out-of-band testing service, a request bin, a tunnel: by URL, DNS name or curl), a hidden detached process, hidden names (exec looked up in the builtins' dictionary, a builtin named by letters picked from other objects' text, a name in look-alike letters) or imports, a large encoded blob beside code that runs data, or more calls than the classifier follows (no real module comes near) scores ${SUSPICIOUS_SCORE}; both hold the verdict at CAUTION. ` +
    'Import code with none of these is not a finding and leaves the check out of the report (it never adds points), as does a wheel without such modules or a release without a wheel; unknown when the wheel or one of the chosen modules could not be read (over its size cap, a size the archive misstates, a file host failure), and for evidence saved before nerq read them.',
  messages: {
    clean: 'The wheel\'s import-time modules show none of the shapes looked for: {files}',
    suspicious: 'The package runs code on import that fetches, decodes, spawns, injects, persists or hides what it runs ({flags}): {excerpts}',
    hostile: 'The package runs code on import that sends host data or what it captures, swaps a wallet address, or wires a shell to the network ({flags}): {excerpts}',
    'no-modules': 'The wheel has no top-level __init__.py or .py module to read ({entries} entries)',
    'no-wheel': 'No wheel in this release: nothing to read (see wheels-published)',
    unread: 'The wheel\'s import-time modules were not read: {reason}',
  },
  evaluate: ({ pypi }): CheckOutcome<'clean' | 'suspicious' | 'hostile' | 'no-modules' | 'no-wheel' | 'unread'> => {
    const contents = pypi.wheelContents;
    if (contents === undefined) return { score: null, messageId: 'unread', data: { reason: 'the evidence predates nerq reading wheels (a fresh run with --no-cache reads it)' } };
    if (contents.wheel === null) return { score: null, messageId: 'no-wheel', data: { reason: 'no wheel' }, notApplicable: true };
    const base = { wheel: contents.wheel, bytesRead: contents.bytesRead };
    if (contents.unavailable !== null) return { score: null, messageId: 'unread', data: { ...base, reason: contents.unavailable } };
    const code = contents.importCode;
    if (code === undefined) return { score: null, messageId: 'unread', data: { ...base, reason: 'the evidence predates nerq reading import-time code (a fresh run with --no-cache reads it)' } };

    const files = code.files.map((f) => fileName(f.path));
    const data: Record<string, EvidenceValue> = { ...base, files, skipped: code.skipped };
    const flagged = code.files.filter((f) => f.flags.length > 0);
    if (flagged.length > 0) {
      const flags = [...new Set(flagged.flatMap((f) => f.flags))];
      const excerpts = flagged.flatMap((f) => f.excerpts.map((e) => `${fileName(f.path)}: ${e}`)).slice(0, 3);
      const hostile = flags.some((f) => UNAMBIGUOUS_FLAGS.includes(f as ImportFlag));
      return {
        score: hostile ? HOSTILE_SCORE : SUSPICIOUS_SCORE,
        messageId: hostile ? 'hostile' : 'suspicious',
        data: { ...data, flagged: flagged.map((f) => fileName(f.path)), flags, excerpts },
        holdVerdict: `its wheel runs code on import that ${flags.join(', ')} (${flagged.map((f) => fileName(f.path)).join(', ')}): it runs on every machine that imports the package; read it before installing (a release without it would lift this)`,
      };
    }
    const unread = code.files.filter((f) => f.unread !== null);
    if (unread.length > 0) return { score: null, messageId: 'unread', data: { ...data, reason: unread.map((f) => `${fileName(f.path)}: ${f.unread}`).join('; ') } };
    if (code.files.length === 0) return { score: null, messageId: 'no-modules', data: { ...data, entries: contents.entries }, notApplicable: true };
    return { score: null, messageId: 'clean', data, notApplicable: true };
  },
});
