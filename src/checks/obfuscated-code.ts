/**
 * obfuscated-code: whether the package's JavaScript is an obfuscator's output. The code that
 * compromised releases add is obfuscated so that a reader cannot tell what it does (the
 * September 2025 npm compromises appended javascript-obfuscator output to the packages' own
 * entry files); published libraries are written, minified or bundled, never obfuscated: 0 of
 * 31,205 JavaScript files in 484 popular packages carries the obfuscator's names
 * (docs/checks.md, `obfuscated-code`).
 *
 * Pure: reads the tarball facts' `obfuscated` (sources/npm/obfuscation-scan.ts).
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { MIN_OBFUSCATED_FILE_NAMES } from './lib/js-code.js';

export default defineCheck({
  id: 'obfuscated-code',
  dimension: 'security',
  weight: 2,
  needs: ['registry'],
  optional: ['tarball'],
  title: 'No obfuscated code',
  description:
    `Reads every JavaScript file of the npm tarball (\`.js\`, \`.cjs\`, \`.mjs\`, bundled packages' too) for the output of javascript-obfuscator — ${MIN_OBFUSCATED_FILE_NAMES} or more distinct \`_0x…\` names in one file, which hand-written, minified and bundled code never has — the form code added by a compromised release takes so that nobody can read what it does. ` +
    'A file like that scores 0 and holds the verdict at CAUTION, naming the files: nobody can review what the package runs. ' +
    'None leaves the check out of the report (it never adds points to an ordinary package), as does a tarball that was not read.',
  messages: {
    obfuscated: "{count} JavaScript files are an obfuscator's output: {files}",
    none: 'No obfuscated JavaScript in {scanned} files',
    unread: 'The tarball was not read: its JavaScript was not looked at',
  },
  evaluate: ({ tarball }): CheckOutcome => {
    const obfuscated = tarball?.obfuscated;
    if (obfuscated === undefined) return { score: null, messageId: 'unread', data: {}, notApplicable: true };
    const count = obfuscated.files.length + obfuscated.more;
    if (count === 0) return { score: null, messageId: 'none', data: { scanned: obfuscated.scanned }, notApplicable: true };
    const files = obfuscated.files.map((f) => f.path).join(', ') + (obfuscated.more > 0 ? ` and ${obfuscated.more} more` : '');
    return {
      score: 0,
      messageId: 'obfuscated',
      data: { count, files, scanned: obfuscated.scanned },
      holdVerdict: `its code is an obfuscator's output (${files}): nobody can review what it runs, the form code added by a compromised release takes; compare it with the previous release before installing`,
    };
  },
});
