/**
 * security-placeholder: the registry replaced the package with a security-holding
 * placeholder, which it does to packages removed as malicious.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'security-placeholder',
  dimension: 'security',
  weight: 3,
  needs: ['registry'],
  title: 'Not a security placeholder',
  description:
    'Detects the npm registry security-holding placeholder (description "security holding package", versions like `0.0.1-security`) that replaces packages removed as malicious. ' +
    'A placeholder scores 0, caps the overall score at 9.9 and sets the verdict to "do not use"; anything else scores 100.',
  messages: {
    placeholder: 'The registry replaced this package with a security-holding placeholder: it was malicious',
    genuine: 'Published code, not the placeholder npm puts in place of a package it removed as malicious',
  },
  evaluate: ({ registry }) => {
    if (!registry.securityHolding) return { score: 100, messageId: 'genuine', data: { securityHolding: false } };
    const data: Record<string, EvidenceValue> = { securityHolding: true, version: registry.version };
    return {
      score: 0,
      messageId: 'placeholder',
      data,
      caps: [
        {
          id: 'security-placeholder',
          limit: 9.9,
          doNotUse: true,
          reason: 'the registry replaced this package with a security-holding placeholder (it was malicious)',
          args: { version: registry.version },
        },
      ],
    };
  },
});
