/**
 * license-permissiveness: how freely the declared licence lets users use the code (npm
 * `license`, PyPI licence expression or metadata; PyPI trove classifiers when that is all).
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { classifyExpression, classifyTroveClassifiers, LICENSE_CLASS_SCORES } from './lib/license-class.js';
import { readLicenseDeclaration } from './lib/spdx.js';
import { truncate } from './lib/text.js';

const RESTRICTED = LICENSE_CLASS_SCORES.restricted;

export default defineCheck({
  id: 'license-permissiveness',
  dimension: 'compliance',
  weight: 2,
  needs: ['release'],
  title: 'Licence permissiveness',
  description:
    'Classifies the declared licence (corrected if needed; for PyPI the expression, else the SPDX id its metadata maps to, else — when that is not SPDX — its `License ::` classifiers, the worst class they name): permissive (MIT, ISC, BSD, Apache-2.0, 0BSD, Unlicense, CC0-1.0…) scores 100, weak copyleft (LGPL, MPL, EPL, CDDL) 80, strong copyleft (GPL) 60, network copyleft (AGPL, SSPL) 45, and non-commercial, proprietary, custom, unknown or unparseable licences, and BSD variants that ban uses (no military, no nuclear use) or impose branding — or none at all — 25. ' +
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
    classifier: 'Licence class {class} from its trove classifiers: {classifiers}',
  },
  evaluate: ({ release }) => {
    const { text, classifiers } = release.license;
    const declared = readLicenseDeclaration(release.license);
    const license = text === null ? null : truncate(text.trim(), 200);
    const data: Record<string, EvidenceValue> = { license };
    // PyPI: when the text says nothing classifiable, the classifiers may still name the family.
    if (declared.kind === 'none' || declared.kind === 'invalid') {
      const cls = classifyTroveClassifiers(classifiers);
      if (cls !== null) {
        const named = classifiers.map((c) => truncate(c, 200));
        return { score: LICENSE_CLASS_SCORES[cls], messageId: 'classifier', data: { ...data, class: cls, classifiers: named } };
      }
    }
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
