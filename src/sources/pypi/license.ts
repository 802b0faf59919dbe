/**
 * A PyPI release's licence as an SPDX expression, where the metadata says it unambiguously:
 *
 * 1. PEP 639 `license_expression`, when it is a valid SPDX expression;
 * 2. else the `License ::` trove classifiers, through the explicit table below (one distinct
 *    mapped licence; classifiers that do not name a version or variant — `BSD License`,
 *    `LGPLv2+`, `Artistic License` … — map to nothing);
 * 3. else the free-text `license` field, when it is a short licence name: a valid SPDX
 *    expression as written, or a name spdx-correct recognises AND whose version / variant the
 *    text itself states (spdx-correct guesses `BSD` → BSD-2-Clause and `GPLv3` →
 *    GPL-3.0-or-later; nerq does not), read licence by licence so that none the text names is
 *    dropped (util/licence-operands.ts).
 *
 * Otherwise `spdx` is null and the text is kept (capped) for the reader. Pure.
 */
import spdxCorrect from 'spdx-correct';
import spdxParse from 'spdx-expression-parse';
import type { PypiLicense } from '../../evidence/schema.js';
import { correctEachLicence } from '../../util/licence-operands.js';

/** The free-text field is kept up to this many characters. */
export const MAX_LICENSE_TEXT = 2000;
/** Free text longer than this is a licence body or a sentence, not a licence name. */
const MAX_NAME_LENGTH = 64;

/**
 * Trove classifier (after `License :: `) → SPDX id; null = the classifier is ambiguous.
 * Classifiers not listed map to nothing either.
 */
export const CLASSIFIER_SPDX: Readonly<Record<string, string | null>> = {
  'OSI Approved :: MIT License': 'MIT',
  'OSI Approved :: MIT No Attribution License (MIT-0)': 'MIT-0',
  'OSI Approved :: ISC License (ISCL)': 'ISC',
  // PyPI has one Apache classifier; Apache 1.x is long obsolete, so it is read as 2.0.
  'OSI Approved :: Apache Software License': 'Apache-2.0',
  'OSI Approved :: BSD License': null, // 2-, 3- or 4-clause?
  'OSI Approved :: GNU General Public License (GPL)': null,
  'OSI Approved :: GNU General Public License v2 (GPLv2)': 'GPL-2.0-only',
  'OSI Approved :: GNU General Public License v2 or later (GPLv2+)': 'GPL-2.0-or-later',
  'OSI Approved :: GNU General Public License v3 (GPLv3)': 'GPL-3.0-only',
  'OSI Approved :: GNU General Public License v3 or later (GPLv3+)': 'GPL-3.0-or-later',
  'OSI Approved :: GNU Lesser General Public License v2 (LGPLv2)': null, // 2.0 (Library) or 2.1?
  'OSI Approved :: GNU Lesser General Public License v2 or later (LGPLv2+)': null,
  'OSI Approved :: GNU Lesser General Public License v3 (LGPLv3)': 'LGPL-3.0-only',
  'OSI Approved :: GNU Lesser General Public License v3 or later (LGPLv3+)': 'LGPL-3.0-or-later',
  'OSI Approved :: GNU Library or Lesser General Public License (LGPL)': null,
  'OSI Approved :: GNU Affero General Public License v3': 'AGPL-3.0-only',
  'OSI Approved :: GNU Affero General Public License v3 or later (AGPLv3+)': 'AGPL-3.0-or-later',
  'OSI Approved :: Mozilla Public License 1.1 (MPL 1.1)': 'MPL-1.1',
  'OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)': 'MPL-2.0',
  'OSI Approved :: Python Software Foundation License': 'PSF-2.0',
  'OSI Approved :: The Unlicense (Unlicense)': 'Unlicense',
  'OSI Approved :: zlib/libpng License': 'Zlib',
  'OSI Approved :: Boost Software License 1.0 (BSL-1.0)': 'BSL-1.0',
  'OSI Approved :: Eclipse Public License 1.0 (EPL-1.0)': 'EPL-1.0',
  'OSI Approved :: Eclipse Public License 2.0 (EPL-2.0)': 'EPL-2.0',
  'OSI Approved :: European Union Public Licence 1.2 (EUPL 1.2)': 'EUPL-1.2',
  'OSI Approved :: Universal Permissive License (UPL)': 'UPL-1.0',
  'OSI Approved :: Historical Permission Notice and Disclaimer (HPND)': 'HPND',
  'OSI Approved :: Artistic License': null, // 1.0 or 2.0?
  'OSI Approved :: Academic Free License (AFL)': null,
  'CC0 1.0 Universal (CC0 1.0) Public Domain Dedication': 'CC0-1.0',
  'Public Domain': null, // not a licence
  'Other/Proprietary License': null,
};

const CLASSIFIER_PREFIX = 'License :: ';
/** setuptools writes these when a project declared nothing. */
const PLACEHOLDERS = new Set(['unknown', 'none', 'n/a', 'na', '-', 'license', 'see license', 'see license file']);

export interface LicenseInput {
  license_expression: string | null;
  license: string | null;
  license_files?: readonly string[] | null;
  classifiers: readonly string[];
}

export function pypiLicense(info: LicenseInput): PypiLicense {
  const expression = info.license_expression?.trim() || null;
  const classifiers = info.classifiers.filter((c) => c.startsWith(CLASSIFIER_PREFIX));
  const text = licenseText(info.license);
  const files = info.license_files ? [...info.license_files] : null;
  const base = { expression, classifiers, text, files };

  const fromExpression = expression !== null && isSpdxExpression(expression) ? expression : null;
  if (fromExpression !== null) return { ...base, spdx: fromExpression, source: 'expression' };
  const fromClassifiers = spdxFromClassifiers(classifiers);
  if (fromClassifiers !== null) return { ...base, spdx: fromClassifiers, source: 'classifier' };
  const fromText = text === null ? null : spdxFromText(text);
  if (fromText !== null) return { ...base, spdx: fromText, source: 'text' };
  return { ...base, spdx: null, source: null };
}

/** The free text, trimmed and capped; null when empty or a placeholder like `UNKNOWN`. */
export function licenseText(value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '' || PLACEHOLDERS.has(trimmed.toLowerCase())) return null;
  return trimmed.length <= MAX_LICENSE_TEXT ? trimmed : trimmed.slice(0, MAX_LICENSE_TEXT);
}

export function isSpdxExpression(value: string): boolean {
  if (value.length > 512) return false;
  try {
    spdxParse(value);
    return true;
  } catch {
    return false;
  }
}

/** The one licence the classifiers name unambiguously, or null (none, ambiguous, or several). */
export function spdxFromClassifiers(classifiers: readonly string[]): string | null {
  const mapped = new Set<string>();
  for (const classifier of classifiers) {
    const id = CLASSIFIER_SPDX[classifier.slice(CLASSIFIER_PREFIX.length).trim()];
    if (id === undefined || id === null) continue;
    mapped.add(id);
  }
  // Two licence classifiers: is it "A OR B" or "A AND B"? The classifiers do not say.
  return mapped.size === 1 ? ([...mapped][0] as string) : null;
}

/** A short licence name → SPDX, only when the text states what the id says. */
export function spdxFromText(text: string): string | null {
  const name = text.trim();
  if (name.length > MAX_NAME_LENGTH || /[\r\n]/.test(name)) return null;
  if (isSpdxExpression(name)) return name;
  // Operand by operand: no licence the text names is dropped (util/licence-operands.ts).
  const expression = correctEachLicence(name, (operand) => {
    let id: string | null;
    try {
      id = spdxCorrect(operand, { upgrade: true });
    } catch {
      id = null;
    }
    return id !== null && isSpdxExpression(id) && statesVersion(operand, id) ? id : null;
  });
  return expression !== null && isSpdxExpression(expression) ? expression : null;
}

/**
 * The text names the version / variant the corrected id carries: the major version digit
 * (`Apache 2.0`, `MPL 2`), BSD's clause count or its common names, and for the GNU licences
 * whether "or later" is meant.
 */
function statesVersion(text: string, id: string): boolean {
  const lower = text.toLowerCase();
  const bsd = /^BSD-(\d)-Clause$/.exec(id);
  if (bsd) {
    const clauses = bsd[1];
    if (new RegExp(`\\b${clauses}[ -]?clause`).test(lower)) return true;
    if (clauses === '3') return /\b(new|modified|revised)\b/.test(lower);
    if (clauses === '2') return /\b(simplified|freebsd)\b/.test(lower);
    return false;
  }
  const gnu = /^(A?GPL|LGPL)-(\d)\.\d-(only|or-later)$/.exec(id);
  if (gnu) {
    const major = gnu[2] ?? '';
    if (!new RegExp(`(?:v|version |\\b)${major}(?:\\b|\\.)`).test(lower)) return false;
    const later = /\+|or[ -]later|or any later/.test(lower);
    const only = /\bonly\b/.test(lower);
    return gnu[3] === 'or-later' ? later : only;
  }
  const version = /-(\d+)(?:\.\d+)*(?:-|$)/.exec(id);
  if (version === null) return true; // MIT, ISC, Unlicense, Zlib …: the name is the whole id
  return new RegExp(`(?:v|version |\\b)${version[1]}(?:\\b|\\.)`).test(lower);
}
