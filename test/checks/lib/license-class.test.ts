import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import licenseIds from 'spdx-license-ids/index.json' with { type: 'json' };
import type { LicenseClass } from '../../../src/checks/lib/license-class.js';
import {
  classifyExpression,
  classifyLicenseId,
  classifyTroveClassifier,
  classifyTroveClassifiers,
  LICENSE_CLASSES,
  LICENSE_CLASS_SCORES,
} from '../../../src/checks/lib/license-class.js';
import type { LicenseTree } from '../../../src/checks/lib/spdx.js';

describe('classifyLicenseId', () => {
  it.each<[string, LicenseClass]>([
    ['MIT', 'permissive'],
    ['ISC', 'permissive'],
    ['0BSD', 'permissive'],
    ['BSD-2-Clause', 'permissive'],
    ['Apache-2.0', 'permissive'],
    ['Unlicense', 'permissive'],
    ['CC0-1.0', 'permissive'],
    ['BlueOak-1.0.0', 'permissive'],
    ['Zlib', 'permissive'],
    ['Python-2.0', 'permissive'],
    ['mit', 'permissive'],
    ['LGPL-3.0-or-later', 'weak-copyleft'],
    ['MPL-2.0', 'weak-copyleft'],
    ['EPL-1.0', 'weak-copyleft'],
    ['CDDL-1.1', 'weak-copyleft'],
    ['GPL-2.0-only', 'strong-copyleft'],
    ['GPL-3.0+', 'strong-copyleft'],
    ['AGPL-3.0-only', 'network-copyleft'],
    ['SSPL-1.0', 'network-copyleft'],
    ['CC-BY-NC-SA-4.0', 'restricted'],
    ['BUSL-1.1', 'restricted'],
    ['LicenseRef-Acme', 'restricted'],
    ['not-a-licence', 'restricted'],
  ])('%s → %s', (id, cls) => {
    expect(classifyLicenseId(id)).toBe(cls);
  });

  it('classifies every SPDX id into a known class', () => {
    for (const id of licenseIds) expect(LICENSE_CLASSES).toContain(classifyLicenseId(id));
  });

  it('scores the classes in order', () => {
    const scores = LICENSE_CLASSES.map((c) => LICENSE_CLASS_SCORES[c]);
    expect(scores).toEqual([100, 80, 60, 45, 25]);
  });
});

describe('classifyExpression', () => {
  const leaf = fc.constantFrom('MIT', 'LGPL-2.1-only', 'GPL-3.0-only', 'AGPL-3.0-only', 'CC-BY-NC-4.0').map((license): LicenseTree => ({ license }));
  const tree: fc.Arbitrary<LicenseTree> = fc.letrec<{ node: LicenseTree }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ left: tie('node'), conjunction: fc.constantFrom('and' as const, 'or' as const), right: tie('node') }),
    ),
  })).node;
  const score = (t: LicenseTree) => LICENSE_CLASS_SCORES[classifyExpression(t)];

  it('OR takes the best branch, AND the worst', () => {
    fc.assert(
      fc.property(tree, tree, (a, b) => {
        expect(score({ left: a, conjunction: 'or', right: b })).toBe(Math.max(score(a), score(b)));
        expect(score({ left: a, conjunction: 'and', right: b })).toBe(Math.min(score(a), score(b)));
      }),
    );
  });

  it('a WITH exception counts as the licence', () => {
    expect(classifyExpression({ license: 'GPL-2.0-only', exception: 'Classpath-exception-2.0' })).toBe('strong-copyleft');
  });
});

describe('PyPI trove classifiers', () => {
  it.each<[string, LicenseClass | null]>([
    ['License :: OSI Approved :: BSD License', 'permissive'],
    ['License :: OSI Approved :: MIT License', 'permissive'],
    ['License :: OSI Approved :: Apache Software License', 'permissive'],
    ['License :: OSI Approved :: Python Software Foundation License', 'permissive'],
    ['License :: Public Domain', 'permissive'],
    ['License :: OSI Approved :: GNU Lesser General Public License v3 (LGPLv3)', 'weak-copyleft'],
    ['License :: OSI Approved :: GNU Library or Lesser General Public License (LGPL)', 'weak-copyleft'],
    ['License :: OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)', 'weak-copyleft'],
    ['License :: OSI Approved :: GNU General Public License v2 or later (GPLv2+)', 'strong-copyleft'],
    ['License :: OSI Approved :: GNU Affero General Public License v3', 'network-copyleft'],
    ['License :: OSI Approved :: European Union Public Licence 1.2 (EUPL 1.2)', 'strong-copyleft'],
    ['License :: Other/Proprietary License', 'restricted'],
    ['License :: OSI Approved :: MITRE Collaborative Virtual Workspace License (CVW)', null],
    ['License :: OSI Approved', null],
    ['License :: Freely Distributable', null],
  ])('%s → %s', (classifier, cls) => {
    expect(classifyTroveClassifier(classifier)).toBe(cls);
  });

  it('takes the worst class the classifiers name, ignoring those that name none', () => {
    expect(
      classifyTroveClassifiers(['License :: OSI Approved :: MIT License', 'License :: OSI Approved', 'License :: OSI Approved :: GNU General Public License (GPL)']),
    ).toBe('strong-copyleft');
    expect(classifyTroveClassifiers(['License :: OSI Approved'])).toBeNull();
    expect(classifyTroveClassifiers([])).toBeNull();
  });
});
