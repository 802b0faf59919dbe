/**
 * obfuscated-code: whether the package's JavaScript is an obfuscator's output. The code that
 * compromised releases add is obfuscated so that a reader cannot tell what it does (the
 * September 2025 npm compromises appended javascript-obfuscator output to the packages' own
 * entry files); published libraries are written, minified or bundled, never obfuscated: 0 of
 * 31,206 JavaScript files in 484 popular packages carries any of the signatures
 * (checks/lib/obfuscation-signatures.ts; docs/checks.md, `obfuscated-code`).
 *
 * Pure: reads the tarball facts' `obfuscated` (sources/npm/obfuscation-scan.ts).
 */
import { OBFUSCATION_SIGNATURES } from '../evidence/schema.js';
import { defineCheck, type CheckOutcome } from './define.js';
import { MIN_OBFUSCATED_FILE_NAMES } from './lib/js-code.js';
import { DECODED_NUMBERS, DECODED_STRING } from './lib/decoded-eval.js';
import { HIDING_BLANKS, INVISIBLE_PAYLOAD, INVISIBLE_RUN, JSFUCK_RUN, PRINTABLE_ESCAPES, PRIVATE_USE_PAYLOAD } from './lib/obfuscation-signatures.js';

/** Signatures of code shown other than it runs (hidden characters, reordering controls, code past the screen's edge). */
const DISPLAY_SIGNATURES: ReadonlySet<string> = new Set(['trojan-source', 'invisible-code', 'invisible-payload', 'hidden-by-blanks']);

export default defineCheck({
  id: 'obfuscated-code',
  dimension: 'security',
  weight: 2,
  needs: ['registry'],
  optional: ['tarball'],
  title: 'No obfuscated code',
  description:
    "Reads every JavaScript file of the npm tarball (`.js`, `.cjs`, `.mjs`, bundled packages' too) for the shapes obfuscators give code, the form code added by a compromised release takes so that nobody can read what it does; hand-written, minified and bundled code has none of them. " +
    `Each is a named signature: \`obfuscator-names\`, ${MIN_OBFUSCATED_FILE_NAMES} or more distinct javascript-obfuscator \`_0x…\` names; \`string-array\`, javascript-obfuscator's string array whatever its names (two of its rotation \`x['push'](x['shift']())\`, its self-replacing getter and its hex-offset decoder); \`packer\`, Dean Edwards' packed form \`eval(function(p,a,c,k,e,r)\` (or \`e,d\`), unless a quote opens just before it (a sample kept in a string); \`jsfuck\`, a run of ${JSFUCK_RUN} or more of \`[]()!+\` holding \`[\`, \`]\`, \`!\` and \`+\`; \`jjencode\` and \`aaencode\`, their openings; \`hex-escapes\`, ${PRINTABLE_ESCAPES} or more \`\\xHH\` escapes of printable characters in one file, counted in runs of escapes that are all printable (escaped text; binary data written as escapes mixes in other bytes); \`hidden-by-blanks\`, ${HIDING_BLANKS} or more spaces or tabs between the end of a statement and another on the same line, past the edge of the screen; \`require-alias\`, \`require\` stored on the global object under a short quoted name (\`global['r']=require\`), so that the modules the code loads are named nowhere; \`invisible-code\`, ${INVISIBLE_RUN} or more invisible code points in a row outside comments (variation selectors, tag characters, Private Use Area, zero-width characters, Hangul fillers; written raw, not escaped; a Private Use Area character one above the one before it, a code page table's, neither counts nor breaks the run), a payload no editor or diff shows, one byte a character; \`invisible-payload\`, the same payload spread between visible letters: ${INVISIBLE_PAYLOAD} or more variation selectors and tag characters in one line outside comments, whatever stands between them (not an emoji's U+FE0E/FE0F, nor the first selector after a character that takes one, nor a subdivision flag's tags, 7 at most), or ${PRIVATE_USE_PAYLOAD} or more Private Use Area characters (one that is a string of its own, alone between quotes or with the ones above it in order, does not count: an icon's glyph, the first character of a double-byte code page table's row); \`trojan-source\`, a bidirectional control (U+202A–202E, U+2066–2069) in code, or left open at the end of a string, template, regular expression or comment or of one of its lines (CVE-2021-42574), so that the code shown is not the code that runs (a literal that is a character set — every control in it inside a regular expression's \`[…]\`, or nothing in it but controls, other invisible characters, escapes and \`-\`, \`|\`, \`[\`, \`]\`, \`^\`: a sanitiser's list of the controls it strips — is data and does not count; a comment, or a template's text before \`\${\`, always does); \`decoded-eval\`, an executor (\`eval\`, \`Function\`, \`vm.runIn…\`, a timer given a string) whose argument both decodes (\`fromCharCode\`, \`atob\`, \`Buffer.from\`, \`unescape\`…) and carries a list of ${DECODED_NUMBERS} or more numbers or a string of ${DECODED_STRING} or more characters (either alone is ordinary code), or is a name last assigned such a decoding (or a decoding of a name assigned such a literal), alone or added to strings. ` +
    'Comments are left out (strings, template literals and regular expressions told from them as a parser would); a file with any of them scores 0 and holds the verdict at CAUTION, naming the files and the signatures (nobody can review what the package runs; when every signature found is one of code shown other than it runs — `trojan-source`, `invisible-code`, `invisible-payload`, `hidden-by-blanks` — the reason says that, not that the code is obfuscator output), while none leaves the check out of the report (it never adds points to an ordinary package), as does a tarball that was not read.',
  messages: {
    obfuscated: "{count} JavaScript files are an obfuscator's output ({signatures}): {files}",
    none: 'No obfuscated JavaScript in {scanned} files',
    unread: 'The tarball was not read: its JavaScript was not looked at',
  },
  evaluate: ({ tarball }): CheckOutcome => {
    const obfuscated = tarball?.obfuscated;
    if (obfuscated === undefined) return { score: null, messageId: 'unread', data: {}, notApplicable: true };
    const count = obfuscated.files.length + obfuscated.more;
    if (count === 0) return { score: null, messageId: 'none', data: { scanned: obfuscated.scanned }, notApplicable: true };
    const files = obfuscated.files.map((f) => f.path).join(', ') + (obfuscated.more > 0 ? ` and ${obfuscated.more} more` : '');
    const signatures = OBFUSCATION_SIGNATURES.filter((s) => obfuscated.files.some((f) => f.signatures.includes(s))).join(', ');
    // Signatures of text that displays other than it runs, not of an obfuscator: said so (an editor's
    // bundle naming a bidirectional control is one), never called an obfuscator's output.
    const shownOtherwise = obfuscated.files.every((f) => f.signatures.every((sig) => DISPLAY_SIGNATURES.has(sig)));
    const what = shownOtherwise ? `what a reader sees of its code is not what runs (${signatures}: ${files})` : `its code is an obfuscator's output (${files})`;
    return {
      score: 0,
      messageId: 'obfuscated',
      data: { count, files, signatures, scanned: obfuscated.scanned, shownOtherwise },
      holdVerdict: `${what}: nobody can review what it runs, the form code added by a compromised release takes; compare it with the previous release before installing (a release without it would lift this)`,
    };
  },
});
