/** PyPI's rules (the interface: ecosystems/types.ts). */
import { eq as pep440Eq, satisfies as pep440Satisfies, valid as pep440Valid, validRange as pep440ValidRange } from '@renovatebot/pep440';
import type { PackageEcosystemRules, VersionComparator } from '../types.js';
import { pypiProjectName } from './install-name.js';
import { pep503 } from './name.js';
import { PYPI_POPULAR } from './popular-names.js';
import { comparePep440 } from './resolve.js';
import { PYPI_TARGET_SYNTAX } from './target-syntax.js';

/**
 * Full PEP 440 order for PyPI versions: epochs, pre-, post- and dev-releases and local
 * versions (`1!0.5` > `2.0`, `1.0rc1` < `1.0` < `1.0.post1`, `1.0` = `1.0.0`); null when
 * either is not a valid PEP 440 version.
 */
export const comparePypiVersions: VersionComparator = (a, b) => comparePep440(a.trim(), b.trim());

/** A PEP 508 project name after PEP 503 normalisation (readers normalise): lower case, single dashes. */
const PYPI_NORMALISED = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The longest PyPI project name nerq asks about (docs/security.md, "Names that lie"). */
const PYPI_NAME_MAX_LENGTH = 214;

/** A bare version means exactly that version; otherwise a PEP 440 specifier, pre-releases included. */
function pep440Matches(version: string, range: string): boolean {
  if (pep440Valid(range) !== null) return pep440Eq(version, range);
  return pep440Satisfies(version, range, { prereleases: true });
}

export const PYPI_RULES = {
  id: 'pypi',
  displayName: 'PyPI',
  canonicalName: pep503,
  // A specifier (`>=2`, from an unresolved requirement) already says how it compares.
  versionLabel: (name, version) => (/^[<>=!~]/.test(version) ? `${name}${version}` : `${name}==${version}`),
  specLabel: (name, spec) => `${name}${spec}`,
  syntax: PYPI_TARGET_SYNTAX,
  registry: {
    targetInput: (name, version, spec) => `pypi:${name}${version !== null ? `==${version}` : (spec ?? '')}`,
    // PEP 508 sets no length; nerq holds PyPI names to npm's 214 characters (docs/security.md).
    validName: (name) => name.length <= PYPI_NAME_MAX_LENGTH && PYPI_NORMALISED.test(name),
    invalidNameNote: 'not a valid PyPI project name (PEP 508)',
    publicRegistry: 'PyPI',
    ranges: {
      syntax: 'PEP 440 version specifier',
      noun: 'a PEP 440 specifier',
      valid: (range) => pep440ValidRange(range) || pep440Valid(range) !== null,
      satisfied: pep440Matches,
    },
    osvEcosystem: 'PyPI',
    compareVersions: comparePypiVersions,
    linkManifests: { files: ['pyproject.toml', 'setup.cfg', 'setup.py'], workspaceFiles: [] },
    popular: { names: () => PYPI_POPULAR, unique: false, messageId: 'popular-pypi' },
    installName: pypiProjectName,
    installKey: (name) => name.toLowerCase(),
    sbomLabels: ['pip', 'pypi'],
    sourceSlots: ['pypi'],
    notThisRegistry: 'not a PyPI project',
  },
} as const satisfies PackageEcosystemRules;
