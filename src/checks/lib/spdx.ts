/**
 * Reading a declared licence: `UNLICENSED`, `SEE LICENSE IN <file>`, a valid SPDX expression
 * (spdx-expression-parse), or one that only becomes valid after correction (canonical casing
 * of known ids, then spdx-correct). The text is hostile: it is length-capped before parsing.
 */
import parse from 'spdx-expression-parse';
import type { ConjunctionInfo, Info, LicenseInfo } from 'spdx-expression-parse';
import correct from 'spdx-correct';
import licenseIds from 'spdx-license-ids/index.json' with { type: 'json' };
import deprecatedIds from 'spdx-license-ids/deprecated.json' with { type: 'json' };
import { correctEachLicence, licencesPossiblyMeant } from '../../util/licence-operands.js';

import type { LicenseDeclaration } from '../views/release.js';

export type { Info as LicenseTree };

/** Longer declarations are not parsed (the parser is recursive; real ones are short). */
export const MAX_LICENSE_CHARS = 256;

export type DeclaredLicense =
  | { kind: 'none' }
  | { kind: 'unlicensed' }
  | { kind: 'see-file'; file: string }
  | { kind: 'spdx'; expression: string; tree: Info; ids: string[] }
  | { kind: 'corrected'; expression: string; tree: Info; ids: string[] }
  | { kind: 'invalid'; tooLong: boolean };

const SEE_LICENSE = /^SEE LICEN[CS]E IN\s+(\S.*)$/i;

const CANONICAL = new Map<string, string>(
  [...licenseIds, ...deprecatedIds].map((id) => [id.toLowerCase(), id] as const),
);

/** Parse an SPDX expression; null when it is not one. */
export function parseSpdx(expression: string): Info | null {
  if (expression.length > MAX_LICENSE_CHARS) return null;
  try {
    return parse(expression);
  } catch {
    return null;
  }
}

/** The leaf licences of an expression, in order, without duplicates (`+` and exceptions dropped). */
export function licenseIdsOf(tree: Info): string[] {
  const ids: string[] = [];
  const walk = (node: Info): void => {
    if ('conjunction' in node) {
      walk(node.left);
      walk(node.right);
    } else if (!ids.includes(node.license)) {
      ids.push(node.license);
    }
  };
  walk(tree);
  return ids;
}

/** Fix the casing of known SPDX ids and operators (`mit or apache-2.0` → `MIT OR Apache-2.0`). */
function canonicalCase(text: string): string {
  return text.replace(/[A-Za-z0-9.+-]+/g, (token) => {
    const upper = token.toUpperCase();
    if (upper === 'OR' || upper === 'AND' || upper === 'WITH') return upper;
    const plus = token.endsWith('+') ? '+' : '';
    const bare = plus ? token.slice(0, -1) : token;
    const id = CANONICAL.get(bare.toLowerCase());
    return id === undefined ? token : id + plus;
  });
}

/** spdx-correct's reading of one licence operand, or null. */
function correctOne(operand: string): string | null {
  try {
    return correct(operand);
  } catch {
    return null;
  }
}

/**
 * A correction of a non-SPDX declaration that parses, or null. Fixing the case of known ids and
 * operators keeps every licence; spdx-correct runs on each licence operand alone, so that no
 * licence the declaration names is dropped (`MIT AND Commercial` has no correction, never `MIT`;
 * util/licence-operands.ts).
 */
export function correctLicense(text: string): string | null {
  if (text.length > MAX_LICENSE_CHARS) return null;
  const recased = canonicalCase(text);
  if (recased !== text && parseSpdx(recased) !== null) return recased;
  const corrected = correctEachLicence(text, correctOne);
  return corrected !== null && corrected !== text && parseSpdx(corrected) !== null ? corrected : null;
}

/**
 * The licences an unreadable declaration may mean (util/licence-operands.ts), for a deny list;
 * [] for text over the length cap.
 */
export function licensesPossiblyMeant(text: string): string[] {
  return text.length > MAX_LICENSE_CHARS ? [] : licencesPossiblyMeant(text, correctOne);
}

/** Classify a declared licence string (`null` = the package declares none). */
export function readDeclaredLicense(declared: string | null): DeclaredLicense {
  if (declared === null) return { kind: 'none' };
  const text = declared.trim();
  if (text === '') return { kind: 'none' };
  if (text.length > MAX_LICENSE_CHARS) return { kind: 'invalid', tooLong: true };
  if (text.toUpperCase() === 'UNLICENSED') return { kind: 'unlicensed' };
  const see = SEE_LICENSE.exec(text);
  if (see?.[1] !== undefined) return { kind: 'see-file', file: see[1].trim() };
  const tree = parseSpdx(text);
  if (tree !== null) return { kind: 'spdx', expression: text, tree, ids: licenseIdsOf(tree) };
  const corrected = correctLicense(text);
  const correctedTree = corrected === null ? null : parseSpdx(corrected);
  if (corrected !== null && correctedTree !== null) {
    return { kind: 'corrected', expression: corrected, tree: correctedTree, ids: licenseIdsOf(correctedTree) };
  }
  return { kind: 'invalid', tooLong: false };
}

/**
 * A comparable key for a licence id: lower case, with the GNU `-only` / `-or-later` / `+`
 * variants folded together (GPL-3.0, GPL-3.0-only, GPL-3.0-or-later and GPL-3.0+ match).
 */
export function licenseKey(id: string): string {
  const lower = id.toLowerCase().replace(/\+$/, '');
  return /^(a|l)?gpl-|^gfdl-/.test(lower) ? lower.replace(/-(only|or-later)$/, '') : lower;
}

/**
 * Read the `release` view's licence declaration. PyPI free text that the PyPI source could
 * not map to SPDX is not corrected again here (spdx-correct guesses: "All rights reserved"
 * would become a licence): only text that already is an SPDX expression counts.
 */
export function readLicenseDeclaration(license: LicenseDeclaration): DeclaredLicense {
  const declared = readDeclaredLicense(license.text);
  if (license.form === 'pypi-free-text' && declared.kind === 'corrected') return { kind: 'invalid', tooLong: false };
  return declared;
}

/** The licences a licence file's text was recognised as (its main one first), each once. */
export function licensesInFile(file: { spdx: string | null; others?: readonly string[] | undefined }): string[] {
  return [...new Set([...(file.spdx === null ? [] : [file.spdx]), ...(file.others ?? [])])];
}
