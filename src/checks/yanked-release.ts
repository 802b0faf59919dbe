/**
 * yanked-release: whether the resolved PyPI release is yanked (PEP 592: every file of it is),
 * PyPI's counterpart of an npm deprecation. A yanked release is one its publisher withdrew
 * (broken, insecure, published by mistake); pip only installs it when pinned exactly.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { truncate } from './lib/text.js';

/** Longest yank reason kept in evidence and cap reasons. */
const MAX_REASON_CHARS = 200;
/** The same limit as the npm deprecation cap (docs/scoring.md §5: deprecated / yanked / inactive). */
export const YANKED_LIMIT = 49.9;

export default defineCheck({
  id: 'yanked-release',
  dimension: 'security',
  weight: 3,
  needs: ['pypi'],
  title: 'Not yanked',
  description:
    'Reads whether PyPI lists the resolved release as yanked (PEP 592: all of its files are), with the reason the publisher gave. ' +
    `Yanked scores 0 and caps the overall score at ${YANKED_LIMIT}, as a deprecated npm version does; not yanked scores 100.`,
  messages: {
    yanked: 'Yanked from PyPI: {reason}',
    'yanked-no-reason': 'Yanked from PyPI (no reason given); pip installs it only when pinned exactly',
    'not-yanked': 'Not yanked',
  },
  evaluate: ({ pypi }) => {
    if (!pypi.yanked) return { score: 100, messageId: 'not-yanked', data: { yanked: false } };
    const given = pypi.yankedReason?.trim() ?? '';
    const reason = given === '' ? null : truncate(given, MAX_REASON_CHARS);
    const data: Record<string, EvidenceValue> = { yanked: true, version: pypi.version, reason };
    const capReason = reason === null ? `release ${pypi.version} is yanked` : `release ${pypi.version} is yanked: ${reason}`;
    return {
      score: 0,
      messageId: reason === null ? 'yanked-no-reason' : 'yanked',
      data,
      caps: [{ id: 'yanked', limit: YANKED_LIMIT, reason: capReason, args: { version: pypi.version, yankedReason: reason } }],
    };
  },
});
