/**
 * license-declared: whether the package states its licence as a valid SPDX expression — the
 * npm `license` field, or PyPI's PEP 639 `license_expression` (older PyPI metadata — trove
 * classifiers, the free-text `license` field — counts as a legacy declaration).
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { readLicenseDeclaration } from './lib/spdx.js';
import { truncate } from './lib/text.js';
import type { ReleaseFacts } from './views/release.js';

/** The most a legacy declaration (npm object/array form, PyPI pre-PEP 639 metadata) can score. */
export const LEGACY_FORM_LIMIT = 80;

/** The message for a licence in a legacy form, per ecosystem. */
const LEGACY: Readonly<Record<ReleaseFacts['ecosystem'], 'legacy' | 'legacy-metadata'>> = { npm: 'legacy', pypi: 'legacy-metadata' };
/** A PyPI licence named only by a classifier that maps to no single SPDX id (`BSD License`). */
export const CLASSIFIER_ONLY_SCORE = 50;

export default defineCheck({
  id: 'license-declared',
  dimension: 'compliance',
  weight: 3,
  needs: ['release'],
  title: 'Licence declared',
  description:
    'Reads the declared licence (npm `license`; PyPI `license_expression`, else the SPDX id the classifiers or the free-text `license` field map to, else that text, which is not corrected again): a valid SPDX expression scores 100; one that spdx-correct (licence by licence, never dropping one the text names: `MIT AND Commercial` is no correction) or fixing the case of known ids turns into valid SPDX 70; `SEE LICENSE IN <file>` 50; any other text 30; `UNLICENSED` (proprietary) 20; none 0. ' +
    `The deprecated npm object/array form and PyPI metadata without a PEP 639 expression score at most ${LEGACY_FORM_LIMIT}, and a PyPI licence named only by a classifier that maps to no single SPDX id ${CLASSIFIER_ONLY_SCORE}.`,
  messages: {
    valid: 'Licence declared: {license}',
    corrected: "'{license}' is not an SPDX expression; probably {corrected}",
    'see-file': 'Custom licence: see {file}',
    invalid: "'{license}' is not an SPDX licence expression",
    unlicensed: 'UNLICENSED: proprietary, no rights granted',
    none: 'No licence declared in the package metadata',
    legacy: 'Licence {license} declared in the deprecated object/array form',
    'legacy-metadata': 'Licence {license} declared in pre-PEP 639 metadata ({declaredIn}), not as a license_expression',
    'classifier-only': 'Licence named only by a trove classifier ({classifiers}), not as an SPDX expression',
  },
  evaluate: ({ release }) => {
    const { text, form, classifiers } = release.license;
    const declared = readLicenseDeclaration(release.license);
    const license = text === null ? null : truncate(text.trim(), 200);
    const legacyForm = form === 'npm-legacy' || form === 'pypi-classifier' || form === 'pypi-text' || form === 'pypi-free-text';
    const data: Record<string, EvidenceValue> = { license, legacyForm };
    switch (release.ecosystem) {
      case 'pypi':
        data.declaredIn = form === 'pypi-classifier' ? 'classifier' : form === 'pypi-text' || form === 'pypi-free-text' ? 'license field' : form === null ? null : 'license_expression';
        data.classifiers = classifiers.map((c) => truncate(c, 200));
        break;
      case 'npm':
        break;
      default:
        release.ecosystem satisfies never;
    }
    if (declared.kind === 'none' && form === 'pypi-classifier') {
      return { score: CLASSIFIER_ONLY_SCORE, messageId: 'classifier-only', data };
    }
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
    if (legacyForm && outcome.score > LEGACY_FORM_LIMIT) {
      return { score: LEGACY_FORM_LIMIT, messageId: LEGACY[release.ecosystem], data };
    }
    return { ...outcome, data };
  },
});
