/**
 * Recognise the common open-source licences from the text of a licence file, by phrases
 * distinctive to each. A table of (SPDX id, required phrases, phrases that must be absent),
 * checked in order: more specific licences come before those whose wording they contain
 * (LGPL and AGPL before GPL, ISC before 0BSD, BSD-3 before BSD-2), and a licence whose
 * wording another contains lists that one's phrase as absent. One file may hold several
 * licence texts (a dual-licence file, a licence per bundled part): every one is recognised.
 * Text and phrases are compared after normalising case, punctuation and whitespace.
 */

interface LicenseRule {
  id: string;
  all: string[];
  none?: string[];
}

/** Titles of licences that quote the permissive licence they turn into later (see RULES). */
const DELAYED_GRANTS = ['Functional Source License', 'Business Source License'];

const RULES: LicenseRule[] = [
  // Full-text headers first: the GPL family texts mention one another.
  { id: 'AGPL-3.0', all: ['GNU AFFERO GENERAL PUBLIC LICENSE Version 3, 19 November 2007'] },
  { id: 'LGPL-3.0', all: ['GNU LESSER GENERAL PUBLIC LICENSE Version 3, 29 June 2007'] },
  { id: 'LGPL-2.1', all: ['GNU LESSER GENERAL PUBLIC LICENSE Version 2.1, February 1999'] },
  { id: 'GPL-3.0', all: ['GNU GENERAL PUBLIC LICENSE Version 3, 29 June 2007'] },
  { id: 'GPL-2.0', all: ['GNU GENERAL PUBLIC LICENSE Version 2, June 1991'] },
  // The short notices ("… under the terms of the GNU … License as published by …").
  { id: 'AGPL-3.0', all: ['GNU Affero General Public License as published by the Free Software Foundation, either version 3'] },
  { id: 'LGPL-3.0', all: ['GNU Lesser General Public License as published by the Free Software Foundation, either version 3'] },
  { id: 'LGPL-2.1', all: ['GNU Lesser General Public License as published by the Free Software Foundation; either version 2.1'] },
  { id: 'GPL-3.0', all: ['GNU General Public License as published by the Free Software Foundation, either version 3'] },
  { id: 'GPL-2.0', all: ['GNU General Public License as published by the Free Software Foundation; either version 2'] },
  { id: 'MPL-2.0', all: ['Mozilla Public License Version 2.0'] },
  { id: 'MPL-2.0', all: ['Mozilla Public License, v. 2.0'] },
  // Source-available licences that grant a permissive licence later (FSL's "Future License", BUSL's
  // "Change License") quote that licence's notice: they come first, and the permissive rule does
  // not read their files as the permissive licence itself.
  { id: 'FSL-1.1-ALv2', all: ['Functional Source License, Version 1.1', 'Apache 2.0 Future License'] },
  { id: 'FSL-1.1-MIT', all: ['Functional Source License, Version 1.1', 'MIT Future License'] },
  { id: 'BUSL-1.1', all: ['Business Source License 1.1'] },
  { id: 'Apache-2.0', all: ['Apache License', 'Version 2.0'], none: DELAYED_GRANTS },
  { id: 'Artistic-2.0', all: ['The Artistic License 2.0', 'Perl Foundation'] },
  { id: 'BlueOak-1.0.0', all: ['Blue Oak Model License', 'Version 1.0.0'] },
  { id: 'Unlicense', all: ['This is free and unencumbered software released into the public domain'] },
  { id: 'CC0-1.0', all: ['CC0 1.0 Universal'] },
  { id: 'WTFPL', all: ['DO WHAT THE FUCK YOU WANT TO PUBLIC LICENSE'] },
  // The SIL Open Font License's title line, as the font packages (@fontsource/*) ship it.
  { id: 'OFL-1.1', all: ['SIL OPEN FONT LICENSE Version 1.1'] },
  // Creative Commons 4.0: the legal code's title, also the usual notice ("licensed under the
  // Creative Commons Attribution 4.0 International License"). The variants' titles differ in
  // the words between "Attribution" and "4.0", so none contains another.
  { id: 'CC-BY-4.0', all: ['Creative Commons Attribution 4.0 International'] },
  { id: 'CC-BY-SA-4.0', all: ['Creative Commons Attribution-ShareAlike 4.0 International'] },
  { id: 'CC-BY-ND-4.0', all: ['Creative Commons Attribution-NoDerivatives 4.0 International'] },
  { id: 'CC-BY-NC-4.0', all: ['Creative Commons Attribution-NonCommercial 4.0 International'] },
  { id: 'CC-BY-NC-SA-4.0', all: ['Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International'] },
  { id: 'CC-BY-NC-ND-4.0', all: ['Creative Commons Attribution-NonCommercial-NoDerivatives 4.0 International'] },
  {
    id: 'MIT',
    all: [
      'Permission is hereby granted, free of charge, to any person obtaining a copy',
      'The above copyright notice and this permission notice shall be included',
    ],
    none: DELAYED_GRANTS,
  },
  {
    id: 'ISC',
    all: [
      'distribute this software for any purpose with or without fee is hereby granted',
      'provided that the above copyright notice and this permission notice appear in all copies',
    ],
  },
  {
    id: '0BSD',
    all: ['distribute this software for any purpose with or without fee is hereby granted'],
    none: ['provided that the above copyright notice'],
  },
  {
    id: 'BSD-3-Clause',
    all: [
      'Redistribution and use in source and binary forms, with or without modification, are permitted',
      'endorse or promote products derived from this software',
    ],
  },
  {
    id: 'BSD-2-Clause',
    all: [
      'Redistribution and use in source and binary forms, with or without modification, are permitted',
      'Redistributions in binary form must reproduce the above copyright notice',
    ],
    none: ['endorse or promote products derived from this software'],
  },
  {
    id: 'Zlib',
    all: [
      'Altered source versions must be plainly marked as such, and must not be misrepresented as being the original software',
    ],
  },
];

/** Lower-case, every run of non-alphanumerics becomes one space. */
export function normaliseLicenseText(text: string): string {
  return ` ${text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `;
}

const COMPILED = RULES.map((rule) => ({
  id: rule.id,
  all: rule.all.map(normaliseLicenseText),
  none: (rule.none ?? []).map(normaliseLicenseText),
}));

/** SPDX ids of every licence whose text the file holds, in table order; empty when unrecognised. */
export function identifyLicenseTexts(text: string): string[] {
  if (typeof text !== 'string' || text.trim() === '') return [];
  const normal = normaliseLicenseText(text);
  const ids: string[] = [];
  for (const rule of COMPILED) {
    if (ids.includes(rule.id)) continue;
    if (rule.all.every((p) => normal.includes(p)) && !rule.none.some((p) => normal.includes(p))) ids.push(rule.id);
  }
  return ids;
}

/**
 * A licence file's evidence: `spdx` the first licence recognised (null when none), `others`
 * the further ones, present only when the file holds more than one.
 */
export function licenseFileFacts(path: string, text: string | null): { path: string; spdx: string | null; others?: string[] } {
  const [spdx = null, ...others] = text === null ? [] : identifyLicenseTexts(text);
  return others.length > 0 ? { path, spdx, others } : { path, spdx };
}

/** The SPDX ids this module can recognise (for documentation and tests). */
export const RECOGNISED_LICENSES: readonly string[] = [...new Set(RULES.map((r) => r.id))];
