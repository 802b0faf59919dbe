import { describe, expect, it } from 'vitest';
import type { RegistryFacts, TarballFacts } from '../../../src/evidence/schema.js';
import {
  FINISHED_CRITERIA,
  FINISHED_RULE,
  isFinishedPackage,
  isFinishedRelease,
  unmetFinished,
  unmetFinishedCriteria,
} from '../../../src/checks/lib/finished.js';
import { releaseFromNpm, releaseFromPypi } from '../../../src/checks/views/release.js';
import { daysAgo, NOW, pypiFacts, registryFacts, tarballFacts, versionsAgo } from '../../support/evidence-builder.js';

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
    expect(unmetFinishedCriteria(base(), NOW)).toEqual([]);
    expect(isFinishedPackage(base(), NOW)).toBe(true);
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
    ['no publish times', { versions: versionsAgo([['1.0.0', null], ['1.1.0', null], ['1.2.0', null], ['1.3.0', null], ['1.4.0', null]]) }, undefined, ['release-history', 'recent-release']],
    ['newest release 1,095 days old: still finished', { versions: versionsAgo([['1.0.0', 1900], ['1.1.0', 1800], ['1.2.0', 1700], ['1.3.0', 1600], ['1.4.0', 1095]]) }, undefined, []],
    ['newest release 1,096 days old: past the age limit', { versions: versionsAgo([['1.0.0', 1900], ['1.1.0', 1800], ['1.2.0', 1700], ['1.3.0', 1600], ['1.4.0', 1096]]) }, undefined, ['recent-release']],
  ])('%s', (_name, overrides, tarball, unmet) => {
    expect(unmetFinishedCriteria(base(overrides), NOW, tarball)).toEqual(unmet);
    expect(isFinishedPackage(base(overrides), NOW, tarball)).toBe(unmet.length === 0);
  });

  it('falls back to the tarball size when the registry gives none', () => {
    expect(unmetFinishedCriteria(base({ unpackedSize: null }), NOW, tarballFacts({ unpackedSize: 10_000 }))).toEqual([]);
    expect(unmetFinishedCriteria(base({ unpackedSize: null }), NOW, tarballFacts({ unpackedSize: 300_000 }))).toEqual(['small']);
  });

  it('describes every criterion', () => {
    expect(Object.keys(FINISHED_RULE).sort()).toEqual([...FINISHED_CRITERIA].sort());
  });
});

describe('finished-package rule over the release view', () => {
  it('gives the npm form the same answer', () => {
    const rows: [Partial<RegistryFacts>, TarballFacts | undefined][] = [
      [{}, undefined],
      [{ version: '0.9.0', deprecated: null }, undefined],
      [{ unpackedSize: null }, tarballFacts({ unpackedSize: 10_000, bindingGyp: true })],
      [{ dependencies: 9, securityHolding: true }, undefined],
    ];
    for (const [overrides, tarball] of rows) {
      expect(unmetFinished(releaseFromNpm(base(overrides), tarball), NOW)).toEqual(unmetFinishedCriteria(base(overrides), NOW, tarball));
    }
    expect(isFinishedRelease(releaseFromNpm(base()), NOW)).toBe(true);
  });

  /** A PyPI project meeting every criterion it can: 1.x, no requirements, wheels, 5 releases over 2 years. */
  const pypiBase = (overrides: Parameters<typeof pypiFacts>[0] = {}) =>
    pypiFacts({
      version: '1.4.0',
      dependencies: [],
      releases: [900, 800, 700, 600, 100].map((days, i) => ({
        version: `1.${i}.0`,
        time: daysAgo(days),
        prerelease: false,
        yanked: false,
        yankedReason: null,
        files: 2,
      })),
      ...overrides,
    });

  it('a PyPI project misses only `small`: PyPI publishes no unpacked size', () => {
    expect(unmetFinished(releaseFromPypi(pypiBase()), NOW)).toEqual(['small']);
    expect(isFinishedRelease(releaseFromPypi(pypiBase()), NOW)).toBe(false);
  });

  it.each<[string, Parameters<typeof pypiFacts>[0], string[]]>([
    ['PEP 440 pre-release', { version: '1.5.0rc1' }, ['stable-1x', 'small']],
    ['0.x', { version: '0.9' }, ['stable-1x', 'small']],
    ['yanked', { yanked: true, yankedReason: 'bad' }, ['not-deprecated', 'small']],
    ['archived project', { status: { status: 'archived', reason: null } }, ['not-deprecated', 'small']],
    ['sdist only', { sdistOnly: true }, ['no-install-scripts', 'small']],
  ])('PyPI: %s', (_name, overrides, unmet) => {
    expect(unmetFinished(releaseFromPypi(pypiBase(overrides)), NOW)).toEqual(unmet);
  });
});
