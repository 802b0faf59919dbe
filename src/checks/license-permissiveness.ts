/**
 * license-permissiveness: how freely the declared licence lets users use the code (npm
 * `license`, PyPI licence expression or metadata; PyPI trove classifiers when that is all).
 * With no declaration, or `SEE LICENSE IN <file>`, the licence the shipped file's text is
 * recognised as (docs/checks.md, license-file) is what grants the rights.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { classifyExpression, classifyLicenseId, classifyTroveClassifiers, LICENSE_CLASSES, LICENSE_CLASS_SCORES, type LicenseClass } from './lib/license-class.js';
import { licensesInFile, readLicenseDeclaration } from './lib/spdx.js';
import { truncate } from './lib/text.js';
import { isLicenseFileName } from '../util/file-names.js';
import type { DocumentsFacts } from './views/documents.js';

const RESTRICTED = LICENSE_CLASS_SCORES.restricted;

export default defineCheck({
  id: 'license-permissiveness',
  dimension: 'compliance',
  weight: 2,
  needs: ['release'],
  optional: ['documents'],
  title: 'Licence permissiveness',
  description:
    'Classifies the declared licence (corrected if needed; for PyPI the expression, else the SPDX id its metadata maps to, else — when that is not SPDX — its `License ::` classifiers, the worst class they name): permissive (MIT, ISC, BSD, Apache-2.0, 0BSD, Unlicense, CC0-1.0…) scores 100, weak copyleft (LGPL, MPL, EPL, CDDL) 80, strong copyleft (GPL) 60, network copyleft (AGPL, SSPL) 45, and non-commercial, proprietary, custom, unknown or unparseable licences, and BSD variants that ban uses (no military, no nuclear use) or impose branding — or none at all — 25. ' +
    'In an expression OR takes the best branch, AND the worst, and `WITH` exceptions count as the licence. ' +
    'With no declaration, or `SEE LICENSE IN <file>`, a shipped licence file whose text is recognised (license-file) is classified instead: the worst class of the licences it holds.',
  messages: {
    permissive: 'Permissive licence: {license}',
    'weak-copyleft': 'Weak copyleft licence: {license}',
    'strong-copyleft': 'Strong copyleft licence: {license} (derivative works must use the same licence)',
    'network-copyleft': 'Network copyleft licence: {license} (obligations extend to network use)',
    restricted: 'Restrictive or unrecognised licence: {license}',
    none: 'No licence declared and no recognised licence file: all rights reserved by default',
    unlicensed: 'UNLICENSED: proprietary, no rights granted',
    custom: 'Custom licence in {file}: terms not classified',
    'file-not-shipped': 'The licence is said to be in {file}, which the package does not ship: what is installed carries no licence terms',
    unparseable: "'{license}' is not a licence nerq can classify",
    classifier: 'Licence class {class} from its trove classifiers: {classifiers}',
    'from-file': 'Licence class {class} from the licence file {file} ({found}); the manifest declares none',
    'referenced-file': 'Licence class {class} from the licence file {file} ({found}) the manifest points to',
  },
  evaluate: ({ release, documents }) => {
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
    if (declared.kind === 'none' || declared.kind === 'see-file') {
      const named = declared.kind === 'see-file' ? declared.file : null;
      const file = recognisedFile(documents, named);
      if (file !== null) {
        const cls = worstClass(file.found);
        return {
          score: LICENSE_CLASS_SCORES[cls],
          messageId: named === null ? 'from-file' : 'referenced-file',
          data: { ...data, class: cls, file: truncate(file.path, 200), found: file.found.map((id) => truncate(id, 100)) },
        };
      }
    }
    switch (declared.kind) {
      case 'none':
        return { score: RESTRICTED, messageId: 'none', data: { ...data, class: 'restricted' } };
      case 'unlicensed':
        return { score: RESTRICTED, messageId: 'unlicensed', data: { ...data, class: 'restricted' } };
      case 'see-file': {
        const file = truncate(declared.file, 200);
        const messageId = shipsFile(documents, declared.file) === false ? 'file-not-shipped' : 'custom';
        return { score: RESTRICTED, messageId, data: { ...data, class: 'restricted', file } };
      }
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

/**
 * The shipped licence file whose text is recognised: the one `SEE LICENSE IN <file>` names (by
 * its path, `./` and case aside), else — with no declaration — the first one holding a licence.
 */
function recognisedFile(documents: DocumentsFacts | undefined, named: string | null): { path: string; found: string[] } | null {
  const files = documents?.licenseFiles ?? null;
  if (files === null) return null;
  for (const f of files) {
    if (named !== null && fileKey(f.path) !== fileKey(named)) continue;
    const found = licensesInFile(f);
    if (found.length > 0) return { path: f.path, found };
  }
  return null;
}

/** A path compared as `SEE LICENSE IN` names it: `./` and case aside. */
const fileKey = (path: string): string => path.replace(/^(\.\/)+/, '').toLowerCase();

/**
 * Whether the package ships the file `SEE LICENSE IN <file>` names: known only for a root file
 * named like a licence (the licence files the facts list are those, util/file-names.ts); null
 * for any other name, and when the licence files are unknown.
 */
function shipsFile(documents: DocumentsFacts | undefined, named: string): boolean | null {
  const files = documents?.licenseFiles ?? null;
  const key = fileKey(named);
  if (files === null || key.includes('/') || !isLicenseFileName(key)) return null;
  return files.some((f) => fileKey(f.path) === key);
}

/** All the licences a file holds apply until one is chosen: the worst class. */
function worstClass(ids: readonly string[]): LicenseClass {
  let worst: LicenseClass = 'permissive';
  for (const id of ids) {
    const cls = classifyLicenseId(id);
    if (LICENSE_CLASSES.indexOf(cls) > LICENSE_CLASSES.indexOf(worst)) worst = cls;
  }
  return worst;
}
