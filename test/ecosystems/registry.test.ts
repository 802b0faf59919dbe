/**
 * The ecosystem registries (docs/architecture.md, "Add an ecosystem"): one entry per
 * ecosystem, each answering every decision the rest of nerq asks of it.
 */
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/ecosystems/adapters.js';
import { ECOSYSTEM_RULES, PACKAGE_ECOSYSTEMS, packageRulesOf, packageRulesOfOsv, registrySources } from '../../src/ecosystems/rules.js';
import { comparatorFor } from '../../src/sources/osv/advisory.js';
import { manifestPaths } from '../../src/sources/github/source.js';

describe('the ecosystem registries', () => {
  it('hold one adapter and one set of rules per ecosystem, under its own id', () => {
    expect(Object.keys(ADAPTERS).sort()).toEqual(['github', 'mcp', 'npm', 'pypi']);
    expect(Object.keys(ECOSYSTEM_RULES).sort()).toEqual(Object.keys(ADAPTERS).sort());
    for (const [id, adapter] of Object.entries(ADAPTERS)) {
      expect(adapter.rules.id).toBe(id);
      expect(adapter.rules).toBe(ECOSYSTEM_RULES[id as keyof typeof ECOSYSTEM_RULES]);
    }
  });

  it('list every ecosystem with a registry as a package ecosystem, and only those', () => {
    const withRegistry = Object.values(ECOSYSTEM_RULES).filter((rules) => rules.registry !== null).map((rules) => rules.id);
    expect([...PACKAGE_ECOSYSTEMS].sort()).toEqual(withRegistry.sort());
    expect(ECOSYSTEM_RULES.github.registry).toBeNull();
  });

  it('map each OSV ecosystem name back to its ecosystem, whose comparator OSV uses', () => {
    for (const id of PACKAGE_ECOSYSTEMS) {
      const rules = packageRulesOf(id);
      expect(packageRulesOfOsv(rules.registry.osvEcosystem).id).toBe(id);
      expect(comparatorFor(rules.registry.osvEcosystem)).toBe(rules.registry.compareVersions);
    }
    expect(packageRulesOf('pypi').registry.compareVersions('1.0rc1', '1.0')).toBeLessThan(0);
    expect(packageRulesOf('npm').registry.compareVersions('1.0.0-rc.1', '1.0.0')).toBeLessThan(0);
    expect(packageRulesOf('npm').registry.compareVersions('1.0rc1', '1.0.0')).toBeNull();
  });

  it('compare names in each ecosystem’s canonical form', () => {
    expect(packageRulesOf('pypi').canonicalName('Foo_Bar.baz')).toBe('foo-bar-baz');
    expect(packageRulesOf('npm').canonicalName('Foo_Bar')).toBe('Foo_Bar');
  });

  it('label versions and specifiers as each ecosystem writes them', () => {
    expect(ECOSYSTEM_RULES.npm.versionLabel('lodash', '4.17.21')).toBe('lodash@4.17.21');
    expect(ECOSYSTEM_RULES.pypi.versionLabel('requests', '2.31.0')).toBe('requests==2.31.0');
    expect(ECOSYSTEM_RULES.github.versionLabel('o/r', 'abc')).toBe('o/r@abc');
    expect(ECOSYSTEM_RULES.npm.specLabel('lodash', '^4')).toBe('lodash@^4');
    expect(ECOSYSTEM_RULES.pypi.specLabel('requests', '>=2')).toBe('requests>=2');
  });

  it('read ranges and names as each registry writes them', () => {
    const npm = packageRulesOf('npm').registry;
    const pypi = packageRulesOf('pypi').registry;
    expect(npm.ranges.satisfied('2.0.0-rc.1', '>=1')).toBe(true);
    expect(npm.ranges.valid('>=1,<2')).toBe(false);
    expect(pypi.ranges.valid('>=1,<2')).toBe(true);
    expect(pypi.ranges.satisfied('1.0', '1.0.0')).toBe(true);
    expect(pypi.ranges.satisfied('1.1', '1.0')).toBe(false);
    expect(npm.validName('@scope/pkg')).toBe(true);
    expect(npm.validName('has space')).toBe(false);
    expect(pypi.validName('foo-bar')).toBe(true);
    expect(pypi.validName('Foo_Bar')).toBe(false);
  });

  it('write the target an audited package is checked as: pinned, else declared', () => {
    expect(packageRulesOf('npm').registry.targetInput('@s/p', '1.2.3', '^1')).toBe('@s/p@1.2.3');
    expect(packageRulesOf('npm').registry.targetInput('p', null, '^1')).toBe('p@^1');
    expect(packageRulesOf('npm').registry.targetInput('p', null, null)).toBe('p');
    expect(packageRulesOf('pypi').registry.targetInput('flask', '3.0.0', '>=3')).toBe('pypi:flask==3.0.0');
    expect(packageRulesOf('pypi').registry.targetInput('flask', null, '>=3')).toBe('pypi:flask>=3');
    expect(packageRulesOf('pypi').registry.targetInput('flask', null, null)).toBe('pypi:flask');
  });

  it('give each registry-only source to one package registry; another target reads it as not applicable with that registry’s note', () => {
    const owners = PACKAGE_ECOSYSTEMS.flatMap((id) => packageRulesOf(id).registry.sourceSlots.map((slot) => [slot, id]));
    expect(Object.fromEntries(owners)).toEqual({ registry: 'npm', tarball: 'npm', pypi: 'pypi' });
    expect(owners).toHaveLength(3);
    const own = { status: 'unavailable' as const };
    expect(registrySources('npm', own)).toEqual({ registry: own, tarball: own, pypi: { status: 'not-applicable', reason: 'not a PyPI project' } });
    const pypi = registrySources('pypi', own);
    expect(pypi).toEqual({ registry: { status: 'not-applicable', reason: 'not an npm package' }, tarball: { status: 'not-applicable', reason: 'not an npm package' }, pypi: own });
    expect(Object.keys(pypi)).toEqual(['registry', 'tarball', 'pypi']);
  });

  it('name the manifests that verify a repository link, at the directory, the root and the workspace', () => {
    const claim = (ecosystem: 'npm' | 'pypi') => ({ kind: 'package' as const, ecosystem, name: 'x', directory: 'packages/x', provenanceRepository: null });
    expect(manifestPaths(claim('npm'))).toEqual(['packages/x/package.json', 'package.json', 'pnpm-workspace.yaml', 'lerna.json']);
    expect(manifestPaths(claim('pypi'))).toEqual([
      'packages/x/pyproject.toml', 'packages/x/setup.cfg', 'packages/x/setup.py', 'pyproject.toml', 'setup.cfg', 'setup.py',
    ]);
  });
});
