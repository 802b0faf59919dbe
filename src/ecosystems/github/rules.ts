/** GitHub's rules (the interface: ecosystems/types.ts): a repository, not a package registry. */
import type { EcosystemRules } from '../types.js';
import { GITHUB_TARGET_SYNTAX } from './target-syntax.js';

export const GITHUB_RULES = {
  id: 'github',
  displayName: 'GitHub',
  canonicalName: (name) => name,
  versionLabel: (name, version) => `${name}@${version}`,
  specLabel: (name, spec) => `${name}@${spec}`,
  syntax: GITHUB_TARGET_SYNTAX,
  registry: null,
} as const satisfies EcosystemRules;
