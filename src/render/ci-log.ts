/**
 * CI runners read commands out of a job's log: GitHub Actions takes a line that starts with
 * `::` (after leading white space) as a workflow command, and also `##[command]data` anywhere
 * in a line (its older syntax: `##[stop-commands]token` stops every later command, nerq's own
 * annotations included; `##[add-mask]`, `##[set-output name=x;]`, `##[error]` are honoured too);
 * Azure Pipelines takes `##vso[…]` anywhere in a line. nerq prints strangers' text on stdout
 * and stderr, which a CI job logs, so no such command may survive in it (docs/security.md,
 * "Printed text cannot take over the terminal or the document"). nerq's own annotations
 * (src/render/annotations.ts) are written apart and never pass through here.
 */

/** `##[` or `##vso[` (any case), wherever it is. */
const BRACKET_COMMAND = /##(vso)?\[/gi;

/**
 * A line whose first characters after white space (what .NET's `TrimStart` removes; line breaks
 * aside, so the scan stays on one line) are `::`.
 */
const LINE_COMMAND = /^([\t\v\f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*)::/gm;

/**
 * Text (table, Markdown, a stderr line) with no command a CI runner would act on: a space goes
 * before the `[` of `##[` / `##vso[`, and between the two colons that would start a line.
 */
export function inertCiCommands(text: string): string {
  return text.replace(BRACKET_COMMAND, (whole) => `${whole.slice(0, -1)} [`).replace(LINE_COMMAND, '$1: :');
}

/**
 * JSON text (a report, SARIF) with the same commands made inert without changing the data it
 * parses to: outside strings JSON never has `#`, so every `##[` is in a string, and its `[` is
 * written as the escape `\u005b`. No JSON line starts with `::`.
 */
export function inertCiCommandsInJson(text: string): string {
  return text.replace(BRACKET_COMMAND, (whole) => `${whole.slice(0, -1)}\\u005b`);
}
