/**
 * Reasons written in Markdown (model/reason.ts): the names a reason holds — a dimension, a
 * repository — in code spans, everything else escaped as hostile text. Only a name made of
 * identifier characters is put in a code span; any other is escaped like text, so no input
 * decides what a code span holds.
 */
import { formatReason, type Reason, type ReasonStyle } from '../model/reason.js';
import { escapeMarkdown, markdownCode } from './sanitize.js';

const text = (s: string): string => escapeMarkdown(s).trim();
const PLAIN_NAME = /^[\w.@/-]{1,200}$/;

const MARKDOWN_REASON_STYLE: ReasonStyle = { name: (s) => (PLAIN_NAME.test(s) ? markdownCode(s) : text(s)), text };

export function markdownReason(reason: Reason): string {
  return formatReason(reason, MARKDOWN_REASON_STYLE);
}
