/**
 * deprecation: whether the resolved version is deprecated on the registry (caps the score).
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { truncate } from './lib/text.js';

/** Longest deprecation message kept in evidence and cap reasons. */
const MAX_MESSAGE_CHARS = 200;


export default defineCheck({
  id: 'deprecation',
  dimension: 'security',
  weight: 3,
  needs: ['registry'],
  title: 'Not deprecated',
  description:
    'Reads the npm registry deprecation notice of the resolved version (npm only; PyPI has yanked-release and project-status). Deprecated scores 0 and caps the overall score at 49.9; not deprecated scores 100; ' +
    'unknown when a trimmed packument omits the field.',
  messages: {
    deprecated: 'Deprecated: {message}',
    'not-deprecated': 'Not deprecated',
    unknown: 'Deprecation status unknown: the registry did not include it',
  },
  evaluate: ({ registry }) => {
    const { deprecated } = registry;
    if (deprecated === null) return { score: null, messageId: 'unknown', data: { deprecated: null } };
    // An empty message is how npm un-deprecates a version.
    if (deprecated === false || deprecated.trim() === '') {
      return { score: 100, messageId: 'not-deprecated', data: { deprecated: false } };
    }
    const message = truncate(deprecated.trim(), MAX_MESSAGE_CHARS);
    const data: Record<string, EvidenceValue> = { deprecated: true, message };
    return {
      score: 0,
      messageId: 'deprecated',
      data,
      caps: [{ id: 'deprecated', limit: 49.9, reason: `version is deprecated: ${message}` }],
    };
  },
});
