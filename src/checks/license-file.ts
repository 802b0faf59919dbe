/**
 * license-file: whether the package ships its licence text, and whether that text is the
 * licence the manifest declares.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { licenseKey, readDeclaredLicense } from './lib/spdx.js';
import { truncate } from './lib/text.js';

export default defineCheck({
  id: 'license-file',
  dimension: 'compliance',
  weight: 2,
  needs: ['tarball'],
  optional: ['registry'],
  title: 'Licence file',
  description:
    'Looks for licence files (LICENSE, LICENCE, COPYING…) in the tarball and compares the licence their text matches with the declared one (corrected if needed; GPL `-only`/`-or-later` variants match). ' +
    'Consistent (or declared as `SEE LICENSE IN <file>`) scores 100; a file whose text is not recognised, or that cannot be compared (no usable declaration, registry unavailable), 70; a contradiction 40; no file 20.',
  messages: {
    consistent: 'Licence file {files} matches the declared {declared}',
    referenced: 'Licence file {files} ({found}) is the one the manifest points to',
    unrecognised: 'Licence file present ({files}); text not recognised',
    contradicts: 'Licence file says {found} but the manifest declares {declared}',
    undeclared: 'Licence file says {found} but the manifest declares no licence',
    'declaration-unparsed': "Licence file says {found}; the declared licence '{declared}' is not an SPDX expression to compare with",
    'registry-unavailable': 'Licence file says {found}; the declared licence is unavailable for comparison',
    missing: 'No licence file in the package',
  },
  evaluate: ({ tarball, registry }) => {
    const files = tarball.licenseFiles.map((f) => f.path);
    const found = [...new Set(tarball.licenseFiles.flatMap((f) => (f.spdx === null ? [] : [f.spdx])))];
    const declaredText = registry?.license ?? null;
    const data: Record<string, EvidenceValue> = {
      files,
      found,
      declared: declaredText === null ? null : truncate(declaredText.trim(), 200),
    };
    if (files.length === 0) return { score: 20, messageId: 'missing', data };
    if (found.length === 0) return { score: 70, messageId: 'unrecognised', data };
    if (registry === undefined) return { score: 70, messageId: 'registry-unavailable', data };
    const declared = readDeclaredLicense(declaredText);
    switch (declared.kind) {
      case 'none':
        return { score: 70, messageId: 'undeclared', data };
      case 'see-file':
        return { score: 100, messageId: 'referenced', data };
      case 'invalid':
        return { score: 70, messageId: 'declaration-unparsed', data };
      case 'unlicensed':
        return { score: 40, messageId: 'contradicts', data };
      case 'spdx':
      case 'corrected': {
        data.declared = declared.expression;
        const keys = new Set(declared.ids.map(licenseKey));
        const consistent = found.some((id) => keys.has(licenseKey(id)));
        return consistent ? { score: 100, messageId: 'consistent', data } : { score: 40, messageId: 'contradicts', data };
      }
    }
  },
});
