/**
 * license-declared: whether the package states its licence as a valid SPDX expression.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { readDeclaredLicense } from './lib/spdx.js';
import { truncate } from './lib/text.js';

/** The most a legacy `license` object / `licenses` array declaration can score. */
export const LEGACY_FORM_LIMIT = 80;

export default defineCheck({
  id: 'license-declared',
  dimension: 'compliance',
  weight: 3,
  needs: ['registry'],
  title: 'Licence declared',
  description:
    'Reads the manifest `license`: a valid SPDX expression scores 100; one that spdx-correct (or fixing the case of known ids) turns into valid SPDX 70; `SEE LICENSE IN <file>` 50; any other text 30; `UNLICENSED` (proprietary) 20; none 0. ' +
    'The deprecated object/array form scores at most 80.',
  messages: {
    valid: 'Licence declared: {license}',
    corrected: "'{license}' is not an SPDX expression; probably {corrected}",
    'see-file': 'Custom licence: see {file}',
    invalid: "'{license}' is not an SPDX licence expression",
    unlicensed: 'UNLICENSED: proprietary, no rights granted',
    none: 'No licence declared: all rights reserved by default',
    legacy: 'Licence {license} declared in the deprecated object/array form',
  },
  evaluate: ({ registry }) => {
    const declared = readDeclaredLicense(registry.license);
    const license = registry.license === null ? null : truncate(registry.license.trim(), 200);
    const data: Record<string, EvidenceValue> = { license, legacyForm: registry.licenseLegacyForm };
    let outcome: { score: number; messageId: 'valid' | 'corrected' | 'see-file' | 'invalid' | 'unlicensed' | 'none' };
    switch (declared.kind) {
      case 'none':
        return { score: 0, messageId: 'none', data };
      case 'unlicensed':
        outcome = { score: 20, messageId: 'unlicensed' };
        break;
      case 'see-file':
        data.file = truncate(declared.file, 200);
        outcome = { score: 50, messageId: 'see-file' };
        break;
      case 'spdx':
        data.ids = declared.ids;
        outcome = { score: 100, messageId: 'valid' };
        break;
      case 'corrected':
        data.corrected = declared.expression;
        data.ids = declared.ids;
        outcome = { score: 70, messageId: 'corrected' };
        break;
      case 'invalid':
        data.tooLong = declared.tooLong;
        outcome = { score: 30, messageId: 'invalid' };
        break;
    }
    if (registry.licenseLegacyForm && outcome.score > LEGACY_FORM_LIMIT) {
      return { score: LEGACY_FORM_LIMIT, messageId: 'legacy', data };
    }
    return { ...outcome, data };
  },
});
