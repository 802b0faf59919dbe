/** OSV's module ecosystems (Go, crates.io): how their names compare and their versions order, and the version OSV is asked about. */
import { describe, expect, it } from 'vitest';
import { compareCrateVersions, compareGoVersions, osvEcosystemOfDependency, osvModuleVersion, osvRulesOf } from '../../src/ecosystems/osv-ecosystems.js';
import { comparatorFor } from '../../src/sources/osv/advisory.js';

describe('Go versions', () => {
  it('order as semver with or without the leading v, pseudo-versions before their release, +incompatible as build metadata', () => {
    expect(compareGoVersions('v1.2.3', '1.2.4')).toBeLessThan(0);
    expect(compareGoVersions('v0.0.0-20230722043721-ed46e5a46466', '0.0.1')).toBeLessThan(0);
    expect(compareGoVersions('v89.0.1-0.20260728185857-34349a88bac3', 'v89.0.1')).toBeLessThan(0);
    expect(compareGoVersions('v2.0.0+incompatible', '2.0.0')).toBe(0);
    expect(compareGoVersions('v1.2', 'v1.2.0')).toBeNull();
    expect(compareGoVersions('latest', 'v1.0.0')).toBeNull();
  });

  it('are asked of OSV without the leading v; crates as written', () => {
    expect(osvModuleVersion('go', 'v0.0.0-20221011235721-518229cd8021')).toBe('0.0.0-20221011235721-518229cd8021');
    expect(osvModuleVersion('go', 'v2.0.0+incompatible')).toBe('2.0.0+incompatible');
    expect(osvModuleVersion('cargo', '1.0.200')).toBe('1.0.200');
  });
});

describe('crates.io versions and names', () => {
  it('order as semver; a v prefix or a non-version is not comparable', () => {
    expect(compareCrateVersions('1.0.0-alpha.1', '1.0.0')).toBeLessThan(0);
    expect(compareCrateVersions('0.10.9', '0.9.0')).toBeGreaterThan(0);
    expect(compareCrateVersions('v1.0.0', '1.0.0')).toBeNull();
  });

  it('treat - and _ and letter case as one name; Go module paths are compared as written', () => {
    expect(osvRulesOf('crates.io').canonicalName('Serde_JSON')).toBe(osvRulesOf('crates.io').canonicalName('serde-json'));
    expect(osvRulesOf('Go').canonicalName('github.com/BurntSushi/toml')).not.toBe(osvRulesOf('Go').canonicalName('github.com/burntsushi/toml'));
  });
});

describe('ecosystem names', () => {
  it("are OSV's for every dependency ecosystem, with the right version order", () => {
    expect(['npm', 'pypi', 'go', 'cargo'].map((e) => osvEcosystemOfDependency(e as 'npm'))).toEqual(['npm', 'PyPI', 'Go', 'crates.io']);
    expect(comparatorFor('Go')('v1.0.0', '1.0.1')).toBeLessThan(0);
    expect(comparatorFor('crates.io')('1.0.0', '1.0.1')).toBeLessThan(0);
    expect(comparatorFor('PyPI')('1.0', '1.0.post1')).toBeLessThan(0);
  });
});
