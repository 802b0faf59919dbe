/** npm's rules (the interface: ecosystems/types.ts). */
import semver from 'semver';
import validateNpmName from 'validate-npm-package-name';
import type { PackageEcosystemRules, VersionComparator } from '../types.js';
import { npmPackageName } from './install-name.js';
import { NPM_POPULAR_NAMES } from './popular-names.js';
import { NPM_TARGET_SYNTAX } from './target-syntax.js';

/** semver order for npm versions (a leading `v` tolerated); null when either is not semver. */
export const compareNpmVersions: VersionComparator = (a, b) => {
  const x = semver.valid(a);
  const y = semver.valid(b);
  return x !== null && y !== null ? semver.compare(x, y) : null;
};

/** The longest name npm accepts (validate-npm-package-name). */
const NPM_NAME_MAX_LENGTH = 214;

export const NPM_RULES = {
  id: 'npm',
  displayName: 'npm',
  canonicalName: (name) => name,
  versionLabel: (name, version) => `${name}@${version}`,
  specLabel: (name, spec) => `${name}@${spec}`,
  syntax: NPM_TARGET_SYNTAX,
  registry: {
    targetInput: (name, version, spec) => {
      const pin = version ?? spec;
      return pin === null ? name : `${name}@${pin}`;
    },
    // npm has refused names over 214 characters since before any package the registry holds
    // (validate-npm-package-name only warns for old packages): a longer one names nothing to ask about.
    validName: (name) => name.length <= NPM_NAME_MAX_LENGTH && validateNpmName(name).validForOldPackages,
    invalidNameNote: 'not a valid npm package name',
    publicRegistry: 'the public npm registry',
    ranges: {
      syntax: 'npm semver range',
      noun: 'an npm semver range',
      valid: (range) => semver.validRange(range) !== null,
      satisfied: (version, range) => semver.validRange(range) !== null && semver.satisfies(version, range, { includePrerelease: true }),
    },
    osvEcosystem: 'npm',
    compareVersions: compareNpmVersions,
    linkManifests: { files: ['package.json'], workspaceFiles: ['pnpm-workspace.yaml', 'lerna.json'] },
    popular: { names: () => NPM_POPULAR_NAMES.split('\n'), unique: true, messageId: 'popular' },
    installName: npmPackageName,
    installKey: (name) => name,
    sbomLabels: ['npm'],
    sourceSlots: ['registry', 'tarball'],
    notThisRegistry: 'not an npm package',
  },
} as const satisfies PackageEcosystemRules;
