/** PyPI's rules (the interface: ecosystems/types.ts). */
import type { PackageEcosystemRules, VersionComparator } from '../types.js';
import { pep503 } from './name.js';
import { PYPI_POPULAR } from './popular-names.js';
import { comparePep440 } from './resolve.js';

/**
 * Full PEP 440 order for PyPI versions: epochs, pre-, post- and dev-releases and local
 * versions (`1!0.5` > `2.0`, `1.0rc1` < `1.0` < `1.0.post1`, `1.0` = `1.0.0`); null when
 * either is not a valid PEP 440 version.
 */
export const comparePypiVersions: VersionComparator = (a, b) => comparePep440(a.trim(), b.trim());

export const PYPI_RULES = {
  id: 'pypi',
  displayName: 'PyPI',
  canonicalName: pep503,
  versionLabel: (name, version) => `${name}==${version}`,
  specLabel: (name, spec) => `${name}${spec}`,
  registry: {
    osvEcosystem: 'PyPI',
    compareVersions: comparePypiVersions,
    linkManifests: { files: ['pyproject.toml', 'setup.cfg', 'setup.py'], workspaceFiles: [] },
    popular: { names: () => PYPI_POPULAR, unique: false, messageId: 'popular-pypi' },
  },
} as const satisfies PackageEcosystemRules;
