/**
 * license-permissiveness: how freely the declared licence lets users use the code.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { classifyExpression, LICENSE_CLASS_SCORES } from './lib/license-class.js';
import { readDeclaredLicense } from './lib/spdx.js';
import { truncate } from './lib/text.js';

const RESTRICTED = LICENSE_CLASS_SCORES.restricted;

export default defineCheck({
  id: 'license-permissiveness',
  dimension: 'compliance',
  weight: 2,
  needs: ['registry'],
  title: 'Licence permissiveness',
  description:
    'Classifies the declared licence (corrected if needed): permissive (MIT, ISC, BSD, Apache-2.0, 0BSD, Unlicense, CC0-1.0…) scores 100, weak copyleft (LGPL, MPL, EPL, CDDL) 80, strong copyleft (GPL) 60, network copyleft (AGPL, SSPL) 45, and non-commercial, proprietary, custom, unknown or unparseable licences — or none at all — 25. ' +
    'In an expression OR takes the best branch, AND the worst, and `WITH` exceptions count as the licence.',
  messages: {
    permissive: 'Permissive licence: {license}',
    'weak-copyleft': 'Weak copyleft licence: {license}',
    'strong-copyleft': 'Strong copyleft licence: {license} (derivative works must use the same licence)',
    'network-copyleft': 'Network copyleft licence: {license} (obligations extend to network use)',
    restricted: 'Restrictive or unrecognised licence: {license}',
    none: 'No licence: all rights reserved by default',
    unlicensed: 'UNLICENSED: proprietary, no rights granted',
    custom: 'Custom licence in {file}: terms not classified',
    unparseable: "'{license}' is not a licence nerq can classify",
  },
  evaluate: ({ registry }) => {
    const declared = readDeclaredLicense(registry.license);
    const license = registry.license === null ? null : truncate(registry.license.trim(), 200);
    const data: Record<string, EvidenceValue> = { license };
    switch (declared.kind) {
      case 'none':
        return { score: RESTRICTED, messageId: 'none', data: { ...data, class: 'restricted' } };
      case 'unlicensed':
        return { score: RESTRICTED, messageId: 'unlicensed', data: { ...data, class: 'restricted' } };
      case 'see-file':
        return { score: RESTRICTED, messageId: 'custom', data: { ...data, class: 'restricted', file: truncate(declared.file, 200) } };
      case 'invalid':
        return { score: RESTRICTED, messageId: 'unparseable', data: { ...data, class: 'restricted' } };
      case 'spdx':
      case 'corrected': {
        const cls = classifyExpression(declared.tree);
        const evidence: Record<string, EvidenceValue> = { ...data, license: declared.expression, class: cls, ids: declared.ids };
        if (declared.kind === 'corrected') evidence.declared = license;
        return { score: LICENSE_CLASS_SCORES[cls], messageId: cls, data: evidence };
      }
    }
  },
});
