import { describe, expect, it } from 'vitest';
import type { RegistryFacts, TarballFacts } from '../../../src/evidence/schema.js';
import { FINISHED_CRITERIA, FINISHED_RULE, isFinishedPackage, unmetFinishedCriteria } from '../../../src/checks/lib/finished.js';
import { registryFacts, tarballFacts, versionsAgo } from '../../support/evidence-builder.js';

/** A package that meets every criterion; each row below breaks exactly one. */
const base = (overrides: Partial<RegistryFacts> = {}) =>
  registryFacts({
    version: '1.4.0',
    dependencies: 5,
    unpackedSize: 200_000,
    versions: versionsAgo([['1.0.0', 900], ['1.1.0', 800], ['1.2.0', 700], ['1.3.0', 600], ['1.4.0', 535]]),
    ...overrides,
  });

describe('finished-package rule', () => {
  it('accepts the baseline exactly at every limit', () => {
    expect(unmetFinishedCriteria(base())).toEqual([]);
    expect(isFinishedPackage(base())).toBe(true);
  });

  it.each<[string, Partial<RegistryFacts>, TarballFacts | undefined, string[]]>([
    ['0.x version', { version: '0.9.0' }, undefined, ['stable-1x']],
    ['pre-release version', { version: '1.5.0-beta.1' }, undefined, ['stable-1x']],
    ['deprecated', { deprecated: 'no longer maintained' }, undefined, ['not-deprecated']],
    ['deprecation unknown', { deprecated: null }, undefined, ['not-deprecated']],
    ['security placeholder', { securityHolding: true }, undefined, ['not-placeholder']],
    ['postinstall script', { installScripts: { postinstall: 'node x.js' } }, undefined, ['no-install-scripts']],
    ['gypfile', { gypfile: true }, undefined, ['no-install-scripts']],
    ['binding.gyp in the tarball', {}, tarballFacts({ bindingGyp: true, unpackedSize: 1 }), ['no-install-scripts']],
    ['6 dependencies', { dependencies: 6 }, undefined, ['few-dependencies']],
    ['200,001 bytes', { unpackedSize: 200_001 }, undefined, ['small']],
    ['size unknown', { unpackedSize: null }, undefined, ['small']],
    ['4 releases', { versions: versionsAgo([['1.0.0', 900], ['1.1.0', 800], ['1.2.0', 700], ['1.4.0', 500]]) }, undefined, ['release-history']],
    [
      'pre-releases do not count toward the 5',
      { versions: versionsAgo([['1.0.0', 900], ['1.1.0-rc.1', 850], ['1.1.0', 800], ['1.2.0', 700], ['1.4.0', 500]]) },
      undefined,
      ['release-history'],
    ],
    ['364-day span', { versions: versionsAgo([['1.0.0', 900], ['1.1.0', 800], ['1.2.0', 700], ['1.3.0', 600], ['1.4.0', 537]]) }, undefined, ['release-history']],
    ['no publish times', { versions: versionsAgo([['1.0.0', null], ['1.1.0', null], ['1.2.0', null], ['1.3.0', null], ['1.4.0', null]]) }, undefined, ['release-history']],
  ])('%s', (_name, overrides, tarball, unmet) => {
    expect(unmetFinishedCriteria(base(overrides), tarball)).toEqual(unmet);
    expect(isFinishedPackage(base(overrides), tarball)).toBe(false);
  });

  it('falls back to the tarball size when the registry gives none', () => {
    expect(unmetFinishedCriteria(base({ unpackedSize: null }), tarballFacts({ unpackedSize: 10_000 }))).toEqual([]);
    expect(unmetFinishedCriteria(base({ unpackedSize: null }), tarballFacts({ unpackedSize: 300_000 }))).toEqual(['small']);
  });

  it('describes every criterion', () => {
    expect(Object.keys(FINISHED_RULE).sort()).toEqual([...FINISHED_CRITERIA].sort());
  });
});
