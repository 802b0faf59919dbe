/**
 * Reasons written in Markdown (model/reason.ts): the names a reason holds — a repository, a
 * check — in code spans, a dimension by its title, everything else escaped as hostile text. Only a name made of
 * identifier characters is put in a code span; any other is escaped like text, so no input
 * decides what a code span holds.
 */
import { formatReason, type Reason, type ReasonStyle } from '../model/reason.js';
import { dimensionTitle } from './reason-words.js';
import { escapeMarkdown, markdownCode } from './sanitize.js';

const text = (s: string): string => escapeMarkdown(s).trim();
const PLAIN_NAME = /^[\w.@/-]{1,200}$/;

// A dimension by its title, in words (`Maintenance`), as the check report names it.
const MARKDOWN_REASON_STYLE: ReasonStyle = { name: (s) => (PLAIN_NAME.test(s) ? markdownCode(s) : text(s)), text, dimension: (id) => text(dimensionTitle(id)) };

export function markdownReason(reason: Reason): string {
  return formatReason(reason, MARKDOWN_REASON_STYLE);
}
