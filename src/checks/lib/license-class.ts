/**
 * Licence permissiveness classes over SPDX ids, and their combination over an expression:
 * OR takes the best branch (the user may choose it), AND the worst (all terms apply), and
 * `WITH <exception>` / `+` count as the licence itself. Unlisted ids, LicenseRefs and
 * source-available or non-commercial licences are `restricted`.
 */
import type { LicenseTree } from './spdx.js';

export const LICENSE_CLASSES = [
  'permissive',
  'weak-copyleft',
  'strong-copyleft',
  'network-copyleft',
  'restricted',
] as const;
export type LicenseClass = (typeof LICENSE_CLASSES)[number];

export const LICENSE_CLASS_SCORES: Readonly<Record<LicenseClass, number>> = {
  permissive: 100,
  'weak-copyleft': 80,
  'strong-copyleft': 60,
  'network-copyleft': 45,
  restricted: 25,
};

/** Exact ids (compared case-insensitively). Checked before the family patterns below. */
const EXACT: Readonly<Record<LicenseClass, readonly string[]>> = {
  permissive: [
    'MIT', 'MIT-0', 'ISC', '0BSD', 'Apache-1.0', 'Apache-1.1', 'Apache-2.0', 'Unlicense', 'CC0-1.0',
    'BlueOak-1.0.0', 'Zlib', 'zlib-acknowledgement', 'Python-2.0', 'Python-2.0.1', 'PSF-2.0', 'WTFPL',
    'X11', 'Beerware', 'BSL-1.0', 'PostgreSQL', 'NCSA', 'UPL-1.0', 'MS-PL', 'Libpng', 'libpng-2.0',
    'curl', 'Unicode-DFS-2015', 'Unicode-DFS-2016', 'Unicode-3.0', 'CC-BY-1.0', 'CC-BY-2.0',
    'CC-BY-2.5', 'CC-BY-3.0', 'CC-BY-4.0', 'ZPL-2.0', 'ZPL-2.1', 'PHP-3.0', 'PHP-3.01', 'OpenSSL',
    'W3C', 'W3C-20150513', 'MulanPSL-2.0', 'ECL-2.0', 'EFL-2.0', 'FSFAP', 'HPND', 'ICU',
    'Naumen', 'NTP', 'OLDAP-2.8', 'PDDL-1.0', 'CC-PDDC', 'Ruby', 'TCL', 'Xnet', 'AFL-3.0',
    'AFL-2.1', 'AFL-2.0', 'AFL-1.2', 'AFL-1.1', 'MIT-CMU', 'MIT-Modern-Variant', 'SMLNJ', 'Info-ZIP',
    'Unicode-TOU', 'CNRI-Python', 'Xerox', 'FTL',
  ],
  'weak-copyleft': [
    'MPL-1.0', 'MPL-1.1', 'MPL-2.0', 'MPL-2.0-no-copyleft-exception', 'CDDL-1.0', 'CDDL-1.1',
    'MS-RL', 'CPL-1.0', 'IPL-1.0', 'Artistic-2.0', 'Artistic-1.0', 'OFL-1.1', 'Vim', 'Artistic-1.0-Perl', 'CECILL-C', 'CECILL-B',
    'LGPLLR', 'APSL-2.0', 'CC-BY-SA-1.0', 'CC-BY-SA-2.0', 'CC-BY-SA-2.5', 'CC-BY-SA-3.0',
    'CC-BY-SA-4.0', 'ODbL-1.0', 'MulanPSL-1.0', 'ErlPL-1.1', 'SPL-1.0', 'NPL-1.1',
  ],
  'strong-copyleft': ['OSL-1.0', 'OSL-1.1', 'OSL-2.0', 'OSL-2.1', 'OSL-3.0', 'EUPL-1.0', 'EUPL-1.1', 'EUPL-1.2', 'CECILL-2.0', 'CECILL-2.1', 'Sleepycat', 'QPL-1.0', 'CPAL-1.0'],
  'network-copyleft': ['SSPL-1.0', 'RPL-1.1', 'RPL-1.5'],
  // Licences of the permissive families below that restrict who may use the code or how:
  // field-of-use bans (military, nuclear facilities) and a branding condition (Open WebUI).
  restricted: [
    'UNLICENSED', 'BUSL-1.1', 'Elastic-2.0', 'Commons-Clause', 'JSON',
    'BSD-3-Clause-No-Military-License', 'BSD-3-Clause-No-Nuclear-License', 'BSD-3-Clause-No-Nuclear-License-2014', 'BSD-3-Clause-OpenWebUI',
  ],
};

/** Families by prefix (lower case), tried in order after the exact table. */
const FAMILIES: readonly (readonly [prefix: RegExp, cls: LicenseClass])[] = [
  [/^agpl-/, 'network-copyleft'],
  [/^lgpl-/, 'weak-copyleft'],
  [/^gpl-/, 'strong-copyleft'],
  [/^epl-/, 'weak-copyleft'],
  [/^cddl-/, 'weak-copyleft'],
  [/^cc-by-nc/, 'restricted'],
  [/^cc-by-nd/, 'restricted'],
  [/^polyform-/, 'restricted'],
  [/^bsd-protection$/, 'weak-copyleft'],
  [/^bsd-/, 'permissive'],
  [/^mit-/, 'permissive'],
];

const EXACT_INDEX = new Map<string, LicenseClass>();
for (const cls of LICENSE_CLASSES) {
  for (const id of EXACT[cls]) EXACT_INDEX.set(id.toLowerCase(), cls);
}

/** The class of one SPDX id (`+` allowed); unknown ids and LicenseRefs are `restricted`. */
export function classifyLicenseId(id: string): LicenseClass {
  const key = id.toLowerCase().replace(/\+$/, '');
  const exact = EXACT_INDEX.get(key);
  if (exact !== undefined) return exact;
  for (const [prefix, cls] of FAMILIES) if (prefix.test(key)) return cls;
  return 'restricted';
}

const rank = (cls: LicenseClass): number => LICENSE_CLASSES.indexOf(cls);

/** The class of an expression: OR → best branch, AND → worst, WITH → as the licence. */
export function classifyExpression(tree: LicenseTree): LicenseClass {
  if (!('conjunction' in tree)) return classifyLicenseId(tree.license);
  const left = classifyExpression(tree.left);
  const right = classifyExpression(tree.right);
  if (tree.conjunction === 'or') return rank(left) <= rank(right) ? left : right;
  return rank(left) >= rank(right) ? left : right;
}

/**
 * PyPI `License ::` trove classifiers by class, tried in order (copyleft before the permissive
 * names, so "GNU Lesser General Public License" is not read as GPL nor "MITRE" as MIT).
 * Used only when a PyPI project's licence is not an SPDX expression: several classifiers name
 * the licence family without one SPDX id (`BSD License`), yet its class is clear.
 */
const CLASSIFIER_CLASSES: readonly (readonly [pattern: RegExp, cls: LicenseClass])[] = [
  [/affero/i, 'network-copyleft'],
  [/lesser general public|library or lesser|\(lgpl/i, 'weak-copyleft'],
  [/gnu general public|\(gpl/i, 'strong-copyleft'],
  [/european union public|open software license|cecill|qt public|sleepycat/i, 'strong-copyleft'],
  [/mozilla public|eclipse public|common development and distribution|common public license|ibm public|artistic|apple public source|netscape public|sun public|open font/i, 'weak-copyleft'],
  [/proprietary|freeware|non-commercial|educational use|home use|aladdin/i, 'restricted'],
  [
    /\b(?:mit|bsd|apache|isc|python|zope|zlib|unlicense|boost|postgresql|w3c|x\.net|academic free|cc0|public domain|historical permission|universal permissive|ncsa|mulan permissive|miros|eiffel|intel open source|attribution assurance|repoze)\b/i,
    'permissive',
  ],
];

/** The class one trove classifier names, or null when it names none (`OSI Approved`, `Freely Distributable`). */
export function classifyTroveClassifier(classifier: string): LicenseClass | null {
  const text = classifier.slice(0, 300);
  for (const [pattern, cls] of CLASSIFIER_CLASSES) if (pattern.test(text)) return cls;
  return null;
}

/**
 * The class a set of `License ::` classifiers names: the worst of those that name one (the
 * classifiers do not say whether they combine as OR or AND, so the conservative reading),
 * or null when none does.
 */
export function classifyTroveClassifiers(classifiers: readonly string[]): LicenseClass | null {
  let worst: LicenseClass | null = null;
  for (const classifier of classifiers) {
    const cls = classifyTroveClassifier(classifier);
    if (cls !== null && (worst === null || rank(cls) > rank(worst))) worst = cls;
  }
  return worst;
}
