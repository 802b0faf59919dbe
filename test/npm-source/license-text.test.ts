import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../support/run-cli.js';
import { describe, expect, test } from 'vitest';
import { RECOGNISED_LICENSES, identifyLicenseTexts, licenseFileFacts } from '../../src/sources/npm/license-text.js';

const MIT = `MIT License

Copyright (c) Example Author

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.`;

const ISC = `The ISC License

Copyright (c) Example Author

Permission to use, copy, modify, and/or distribute this software for any
purpose with or without fee is hereby granted, provided that the above
copyright notice and this permission notice appear in all copies.

THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES`;

const ZERO_BSD = `Copyright (C) 2006 by Rob Landley <rob@landley.net>

Permission to use, copy, modify, and/or distribute this software for any purpose
with or without fee is hereby granted.

THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES`;

const BSD_2 = `Copyright (c) Example. All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this
   list of conditions and the following disclaimer.
2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"`;

const BSD_3 = `${BSD_2.replace(/THIS SOFTWARE[\s\S]*$/, '')}
3. Neither the name of the copyright holder nor the names of its
   contributors may be used to endorse or promote products derived from
   this software without specific prior written permission.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"`;

const APACHE = `
                                 Apache License
                           Version 2.0, January 2004
                        http://www.apache.org/licenses/

   TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION`;

const GPL_3 = `                    GNU GENERAL PUBLIC LICENSE
                       Version 3, 29 June 2007

 Copyright (C) 2007 Free Software Foundation, Inc. <https://fsf.org/>
 …
  13. Use with the GNU Affero General Public License.
 …
    This program is free software: you can redistribute it and/or modify
    it under the terms of the GNU General Public License as published by
    the Free Software Foundation, either version 3 of the License, or
    (at your option) any later version.
 …
library, you may consider it more useful to permit linking proprietary
applications with the library.  If this is what you want to do, use the GNU
Lesser General Public License instead of this License.`;

const GPL_2 = `                    GNU GENERAL PUBLIC LICENSE
                       Version 2, June 1991

 Copyright (C) 1989, 1991 Free Software Foundation, Inc.
 … the GNU Library General Public License …`;

const LGPL_3 = `                   GNU LESSER GENERAL PUBLIC LICENSE
                       Version 3, 29 June 2007

  This version of the GNU Lesser General Public License incorporates
the terms and conditions of version 3 of the GNU General Public
License, supplemented by the additional permissions listed below.`;

const LGPL_21 = `                  GNU LESSER GENERAL PUBLIC LICENSE
                       Version 2.1, February 1999

 Copyright (C) 1991, 1999 Free Software Foundation, Inc.
[This is the first released version of the Lesser GPL.  It also counts
 as the successor of the GNU Library Public License, version 2, hence
 the version number 2.1.]`;

const AGPL_3 = `                    GNU AFFERO GENERAL PUBLIC LICENSE
                       Version 3, 19 November 2007

 … the GNU General Public License …`;

const MPL_2 = `Mozilla Public License Version 2.0
==================================

1. Definitions`;

const UNLICENSE = `This is free and unencumbered software released into the public domain.

Anyone is free to copy, modify, publish, use, compile, sell, or
distribute this software, either in source code form or as a compiled
binary, for any purpose, commercial or non-commercial, and by any
means.`;

const CC0 = `Creative Commons Legal Code

CC0 1.0 Universal

    CREATIVE COMMONS CORPORATION IS NOT A LAW FIRM AND DOES NOT PROVIDE
    LEGAL SERVICES.`;

const BLUE_OAK = `# Blue Oak Model License

Version 1.0.0

## Purpose

This license gives everyone as much permission to work with
this software as possible, while protecting contributors
from liability.`;

const ZLIB = `This software is provided 'as-is', without any express or implied
warranty.  In no event will the authors be held liable for any damages
arising from the use of this software.

Permission is granted to anyone to use this software for any purpose,
including commercial applications, and to alter it and redistribute it
freely, subject to the following restrictions:

1. The origin of this software must not be misrepresented; you must not
   claim that you wrote the original software.
2. Altered source versions must be plainly marked as such, and must not be
   misrepresented as being the original software.
3. This notice may not be removed or altered from any source distribution.`;

const ARTISTIC_2 = `                       The Artistic License 2.0

            Copyright (c) 2000-2006, The Perl Foundation.

     Everyone is permitted to copy and distribute verbatim copies
      of this license document, but changing it is not allowed.`;

const WTFPL = `            DO WHAT THE FUCK YOU WANT TO PUBLIC LICENSE
                    Version 2, December 2004`;

const MIT_0 = `MIT No Attribution

Permission is hereby granted, free of charge, to any person obtaining a copy of this
software and associated documentation files (the "Software"), to deal in the Software
without restriction, including without limitation the rights to use, copy, modify,
merge, publish, distribute, sublicense, and/or sell copies of the Software, and to
permit persons to whom the Software is furnished to do so.`;

// The opening of the CC BY 4.0 legal code as caniuse-lite 1.0.30001829 ships it in LICENSE (real text,
// abridged after the licence's title and its first sentence).
const CC_BY_4 = `Attribution 4.0 International

=======================================================================

Creative Commons Corporation ("Creative Commons") is not a law firm and
does not provide legal services or legal advice.

=======================================================================

Creative Commons Attribution 4.0 International Public License

By exercising the Licensed Rights (defined below), You accept and agree
to be bound by the terms and conditions of this Creative Commons
Attribution 4.0 International Public License ("Public License").`;

// The opening of LICENSE as @fontsource/roboto 5.3.0 ships it (real text, abridged after the preamble's heading).
const OFL_11 = `Copyright 2011 The Roboto Project Authors (https://github.com/googlefonts/roboto-classic)

This Font Software is licensed under the SIL Open Font License, Version 1.1.
This license is copied below, and is also available with a FAQ at:
http://scripts.sil.org/OFL


-----------------------------------------------------------
SIL OPEN FONT LICENSE Version 1.1 - 26 February 2007
-----------------------------------------------------------

PREAMBLE`;

describe('identifyLicenseTexts', () => {
  test.each([
    ['MIT', MIT],
    ['ISC', ISC],
    ['0BSD', ZERO_BSD],
    ['BSD-2-Clause', BSD_2],
    ['BSD-3-Clause', BSD_3],
    ['Apache-2.0', APACHE],
    ['Apache-2.0', 'Licensed under the Apache License, Version 2.0 (the "License");'],
    ['GPL-3.0', GPL_3],
    ['GPL-2.0', GPL_2],
    ['LGPL-3.0', LGPL_3],
    ['LGPL-2.1', LGPL_21],
    ['AGPL-3.0', AGPL_3],
    ['MPL-2.0', MPL_2],
    ['Unlicense', UNLICENSE],
    ['CC0-1.0', CC0],
    ['BlueOak-1.0.0', BLUE_OAK],
    ['Zlib', ZLIB],
    ['Artistic-2.0', ARTISTIC_2],
    ['WTFPL', WTFPL],
    ['OFL-1.1', OFL_11],
    ['CC-BY-4.0', CC_BY_4],
    ['CC-BY-4.0', 'This work is licensed under the Creative Commons Attribution 4.0 International License.'],
    ['CC-BY-SA-4.0', 'Creative Commons Attribution-ShareAlike 4.0 International Public License'],
    ['CC-BY-ND-4.0', 'Creative Commons Attribution-NoDerivatives 4.0 International Public License'],
    ['CC-BY-NC-4.0', 'Creative Commons Attribution-NonCommercial 4.0 International Public License'],
    ['CC-BY-NC-SA-4.0', 'Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International Public License'],
    ['CC-BY-NC-ND-4.0', 'Creative Commons Attribution-NonCommercial-NoDerivatives 4.0 International Public License'],
    ['GPL-3.0', 'under the terms of the GNU General Public License as published by the Free Software Foundation, either version 3 of the License'],
    ['LGPL-3.0', 'under the terms of the GNU Lesser General Public License as published by the Free Software Foundation, either version 3 of the License'],
  ])('%s', (id, text) => {
    // Exactly one: a licence's own text is not read as another whose wording it contains.
    expect(identifyLicenseTexts(text)).toEqual([id]);
  });

  test('case, line breaks, indentation and markdown do not matter', () => {
    const mangled = `# mit license\r\n\r\n> ${MIT.toUpperCase().replace(/\n/g, '\n>   ')}`;
    expect(identifyLicenseTexts(mangled)).toEqual(['MIT']);
    expect(identifyLicenseTexts(ISC.replace(/\s+/g, '  \t'))).toEqual(['ISC']);
  });

  test.each([
    ['empty', ''],
    ['whitespace', ' \n\t '],
    ['all rights reserved', 'Copyright (c) 2020 ACME. All rights reserved.'],
    ['a README', '# thing\n\nInstall with npm i thing. Licensed MIT.'],
    ['MIT-0 (not in the table) is not mistaken for MIT', MIT_0],
    ['MPL 1.1', 'Mozilla Public License Version 1.1'],
  ])('%s → none', (_label, text) => {
    expect(identifyLicenseTexts(text)).toEqual([]);
  });

  test('a file holding several licence texts yields every one (real: abbrev 5.0.0 ISC and MIT, bcrypt-pbkdf 1.0.2 BSD-3-Clause and ISC)', () => {
    const dual = `This software is dual-licensed under the ISC and MIT licenses.\nYou may use this software under EITHER of the following licenses.\n\n----------\n\n${ISC}\n\n----------\n\n${MIT}`;
    expect(identifyLicenseTexts(dual)).toEqual(['MIT', 'ISC']);
    const parts = `The Blowfish portions are under the following license:\n\n${BSD_3}\n\nThe bcrypt_pbkdf portions are under the following license:\n\n${ISC}`;
    expect(identifyLicenseTexts(parts)).toEqual(['ISC', 'BSD-3-Clause']);
    expect(licenseFileFacts('LICENSE', parts)).toEqual({ path: 'LICENSE', spdx: 'ISC', others: ['BSD-3-Clause'] });
    expect(licenseFileFacts('LICENSE', MIT)).toEqual({ path: 'LICENSE', spdx: 'MIT' });
    expect(licenseFileFacts('LICENSE', null)).toEqual({ path: 'LICENSE', spdx: null });
  });

  test('every licence the brief lists is recognised', () => {
    expect([...RECOGNISED_LICENSES].sort()).toEqual(
      [
        'MIT', 'ISC', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', '0BSD', 'GPL-2.0', 'GPL-3.0', 'LGPL-2.1',
        'LGPL-3.0', 'AGPL-3.0', 'MPL-2.0', 'Unlicense', 'CC0-1.0', 'BlueOak-1.0.0', 'Zlib', 'Artistic-2.0', 'WTFPL',
        'OFL-1.1', 'CC-BY-4.0', 'CC-BY-SA-4.0', 'CC-BY-ND-4.0', 'CC-BY-NC-4.0', 'CC-BY-NC-SA-4.0', 'CC-BY-NC-ND-4.0',
        'FSL-1.1-ALv2', 'FSL-1.1-MIT', 'BUSL-1.1',
      ].sort(),
    );
  });
});

describe('source-available licences that quote the licence they turn into later', () => {
  test('the Functional Source License as @sentry/mcp-server ships it is FSL-1.1-ALv2, not the Apache-2.0 its future grant quotes (fixtures/license-texts)', () => {
    const text = readFileSync(path.join(REPO_ROOT, 'fixtures', 'license-texts', 'sentry-mcp-server-LICENSE.md'), 'utf8');
    expect(identifyLicenseTexts(text)).toEqual(['FSL-1.1-ALv2']);
  });

  test('its MIT variant and BUSL are recognised, and the permissive notice they quote is not read as the licence', () => {
    const mitFuture = `# Functional Source License, Version 1.1, MIT Future License\n\n${MIT}`;
    expect(identifyLicenseTexts(mitFuture)).toEqual(['FSL-1.1-MIT']);
    const busl = 'Business Source License 1.1\n\nChange License: Apache License, Version 2.0';
    expect(identifyLicenseTexts(busl)).toEqual(['BUSL-1.1']);
    // The permissive licence on its own is still recognised.
    expect(identifyLicenseTexts('Apache License\nVersion 2.0, January 2004')).toEqual(['Apache-2.0']);
  });
});
